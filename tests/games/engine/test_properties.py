"""Property tests (hypothesis) over random sets of both variants.

Sets are played with uniformly random legal moves from a hypothesis-drawn seed. (Federation sets end
under every policy — each crossing to the other row drops a stone into the mover's store and moves
within a row push stones towards the store — which ``test_federation_sets_end_whatever_the_players_do``
checks with hypothesis-chosen adversarial move choices. Kale sets need not: see
``test_rules_kale.py::test_kale_set_can_repeat_forever``.)
"""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Position, Variant, legal_moves, play, replay, set_result, validate_record

MAX_PLIES = 2000  # random sets last ~43 (federation) / ~65 (kale) plies; this bound only catches loops

variants = st.sampled_from([Variant.FEDERATION, Variant.KALE])
choices = st.integers(min_value=0, max_value=2**32)


def play_out(variant: Variant, seed: int):
    """Play a set to its end with uniformly random legal moves (``random.Random(seed)``)."""
    rng = random.Random(seed)
    pos = Position.initial(variant)
    moves: list[int] = []
    results = []
    i = 0
    while not pos.is_over:
        res = play(pos, rng.choice(legal_moves(pos)))
        results.append((pos, res))
        moves.append(res.move.pit)
        pos = res.position
        i += 1
        assert i <= MAX_PLIES, "set did not end"
    return moves, results, pos


@settings(max_examples=150, deadline=None)
@given(variants, choices)
def test_48_stones_are_always_conserved(variant, seed):
    """Kural 1: every position of every set holds exactly 48 stones, none negative."""
    _, results, _ = play_out(variant, seed)
    for _, res in results:
        assert sum(res.position.board) == 48
        assert min(res.position.board) >= 0


@settings(max_examples=150, deadline=None)
@given(variants, choices)
def test_every_random_set_ends_swept(variant, seed):
    """Kural 14 / 004: every set ends; at the end all stones are in the stores and nobody is to move."""
    _, _, final = play_out(variant, seed)
    assert final.is_over and final.to_move is None
    assert sum(final.stores) == 48
    assert legal_moves(final) == ()


@settings(max_examples=150, deadline=None)
@given(variants, choices)
def test_replay_reproduces_the_final_position(variant, seed):
    """replay (fast path) of the recorded moves gives the position reached move by move with play."""
    moves, results, final = play_out(variant, seed)
    assert replay(moves, variant) == final
    # and every prefix too, for a few cut points
    for cut in {0, len(moves) // 3, len(moves) // 2, len(moves) - 1}:
        assert replay(moves[:cut], variant) == (results[cut][0] if cut < len(results) else final)


@settings(max_examples=150, deadline=None)
@given(variants, choices)
def test_set_result_of_a_completed_replay_equals_the_engines_sweep(variant, seed):
    """The recorded result of a finished set is the final stores after the engine's sweep."""
    moves, _, final = play_out(variant, seed)
    outcome = final.outcome()
    result = set_result(*final.stores)
    assert (result.first, result.second) == final.stores
    assert {"first": 0, "second": 1, None: None}[result.winner] == outcome.winner
    assert result.margin == outcome.margin
    assert validate_record(moves, variant=variant, first_stones=result.first, second_stones=result.second) == result


@settings(max_examples=150, deadline=None)
@given(variants, choices)
def test_turn_order_and_move_results_are_consistent(variant, seed):
    """Kural 13: only a last stone in the own store keeps the turn; captures add what they report."""
    _, results, _ = play_out(variant, seed)
    for before, res in results:
        p = before.to_move
        if res.set_over:
            assert res.position.to_move is None
        elif res.extra_turn:
            assert variant is Variant.FEDERATION and res.position.to_move == p
        else:
            assert res.position.to_move == 1 - p
        if res.extra_turn:
            assert res.last_index == (6 if p == 0 else 13)
        if res.capture is not None:
            assert res.captured >= 2
        if variant is Variant.KALE:
            gain = res.position.stores[p] - before.stores[p]
            assert gain == res.captured + res.castle_stones[p] + res.sweep[p]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=5), max_size=300))
def test_federation_sets_end_whatever_the_players_do(picks):
    """Kural 14: a federation set always ends, whatever the move choices (picked by hypothesis, then
    always the first legal move). Bound: a move that does not reach the own store either captures (a
    store grows) or moves stones one pit closer to their row's store, lowering the sum of distances
    (at most 48 * 6); a move reaching the store grows it. Stores never shrink and hold at most 48, so a set
    lasts fewer than 48 * (48 * 6 + 1) plies."""
    pos = Position.initial()
    for ply in range(48 * (48 * 6 + 1)):
        if pos.is_over:
            break
        legal = legal_moves(pos)
        pos = play(pos, legal[picks[ply] % len(legal)] if ply < len(picks) else legal[0]).position
    assert pos.is_over
