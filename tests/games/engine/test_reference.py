"""Engine versus the plain stone-by-stone reference (tests/games/engine/reference.py)."""
from __future__ import annotations

import random

import pytest

from games.engine import Position, Variant, legal_moves, perft, play, replay

from .helpers import random_position
from .reference import RefState, ref_initial, ref_legal, ref_perft, ref_play


def _ref_of(pos: Position) -> RefState:
    return RefState(list(pos.board), pos.to_move, pos.variant is Variant.KALE, list(pos.castles))


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_perft_matches_reference_federation(depth):
    """perft of the initial position (Kural 3, 10-14) equals the reference's count."""
    assert perft(Position.initial(), depth) == ref_perft(ref_initial(), depth)


@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_perft_matches_reference_kale(depth):
    """perft of the initial kale position (004) equals the reference's count."""
    assert perft(Position.initial("kale"), depth) == ref_perft(ref_initial(kale=True), depth)


@pytest.mark.parametrize("variant", ["federation", "kale"])
def test_every_move_of_random_positions_matches_reference(variant):
    """Each legal move from 800 random positions (half of them nearly finished, so that moves end the
    set) gives the reference's board, castles and player to move."""
    rng = random.Random(20261129)
    checked = 0
    for i in range(800):
        pos = random_position(rng, variant, sparse=i % 2 == 1)
        assert [m.pit for m in legal_moves(pos)] == ref_legal(_ref_of(pos))
        for move in legal_moves(pos):
            got = play(pos, move).position
            want = ref_play(_ref_of(pos), move.pit)
            assert list(got.board) == want.board, (pos, move)
            assert got.to_move == want.to_move, (pos, move)
            if variant == "kale":
                assert list(got.castles) == want.castles, (pos, move)
            checked += 1
    assert checked > 1000


@pytest.mark.parametrize("variant", ["federation", "kale"])
def test_perft_of_random_positions_matches_reference(variant):
    """perft to depth 3 from 40 random positions equals the reference's count."""
    rng = random.Random(7)
    for _ in range(40):
        pos = random_position(rng, variant)
        assert perft(pos, 3) == ref_perft(_ref_of(pos), 3), pos


@pytest.mark.parametrize("variant", ["federation", "kale"])
def test_random_games_match_reference_move_by_move(variant):
    """200 random complete sets played by the engine and the reference stay identical to the end."""
    rng = random.Random(99)
    for _ in range(200):
        pos = Position.initial(variant)
        ref = ref_initial(kale=variant == "kale")
        while not pos.is_over:
            pit = rng.choice(ref_legal(ref))
            pos = play(pos, pit).position
            ref = ref_play(ref, pit)
            assert list(pos.board) == ref.board
            assert pos.to_move == ref.to_move
        assert ref.to_move is None


@pytest.mark.parametrize("variant", ["federation", "kale"])
def test_fast_replay_equals_play_from_random_positions(variant):
    """The fast replay loop (``_core.fed_replay``, the kernel written out) gives the same positions as
    ``play`` move by move, from 300 random positions (half nearly finished) to the end of the set."""
    rng = random.Random(4242)
    for i in range(300):
        start = random_position(rng, variant, sparse=i % 2 == 0)
        pos = start
        moves = []
        while not pos.is_over and len(moves) < 400:
            move = rng.choice(legal_moves(pos))
            moves.append(move.pit)
            pos = play(pos, move).position
            assert replay(moves, start=start) == pos
