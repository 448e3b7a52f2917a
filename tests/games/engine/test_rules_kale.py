"""The kale (castle) variant: 004 "Alternatif Oyun Şekli (Kale Kuralı)" as interpreted in RULES.md."""
from __future__ import annotations

import pytest

from games.engine import (
    Capture,
    IllegalMoveError,
    InvalidPositionError,
    Position,
    UnknownVariantError,
    Variant,
    legal_moves,
    play,
    replay,
)

from .helpers import board


def kale(cells, to_move, castles=(-1, -1)) -> Position:
    return Position(cells, to_move, Variant.KALE, castles)


def test_004_stores_are_skipped_no_extra_turn():
    """004 / RULES.md kale 1: nothing is sown into a store, so pit 4's last stone goes past the store to
    the opponent's pit 1 and the turn passes (no extra turn)."""
    res = play(Position.initial("kale"), 4)
    assert res.position.board == board([4, 4, 4, 1, 5, 5], 0, [5, 4, 4, 4, 4, 4], 0)
    assert not res.extra_turn
    assert res.position.to_move == 1
    assert res.position.castles == (-1, -1)


def test_004_single_stone_from_pit_6_goes_to_opponents_pit_1():
    """004 ("tek taş ... sağındaki kuyuya") with stores skipped: a single stone in pit 6 moves to the
    opponent's pit 1."""
    pos = kale(board([4, 4, 4, 4, 4, 1], 3, [4, 4, 4, 4, 4, 4], 0), 0)
    res = play(pos, 6)
    assert res.position.board == board([4, 4, 4, 4, 4, 0], 3, [5, 4, 4, 4, 4, 4], 0)
    assert res.position.to_move == 1


def test_004_even_rule_applies():
    """004: the 2nd basic rule (even rule) applies in kale: 3 -> 4 in an opponent pit is taken."""
    pos = kale(board([4, 4, 4, 4, 4, 4], 0, [3, 4, 4, 4, 4, 4], 1), 0)
    res = play(pos, 4)  # cells 3, 4, 5, 7
    assert res.capture is Capture.EVEN and res.captured == 4
    assert res.position.board == board([4, 4, 4, 1, 5, 5], 4, [0, 4, 4, 4, 4, 4], 1)


def test_004_pit_made_three_becomes_the_movers_castle():
    """004 / RULES.md kale 3: the last stone makes an opponent pit hold exactly 3: it becomes the mover's
    castle and its 3 stones go to the mover's store now."""
    pos = kale(board([4, 4, 4, 4, 4, 4], 0, [2, 4, 4, 4, 4, 4], 2), 0)
    res = play(pos, 4)
    assert res.capture is Capture.CASTLE and res.captured == 3
    assert res.castle_built == 7
    assert res.position.castles == (7, -1)
    assert res.position.board == board([4, 4, 4, 1, 5, 5], 3, [0, 4, 4, 4, 4, 4], 2)
    assert res.position.to_move == 1


def test_004_castle_pit_is_never_a_legal_move_for_its_original_owner():
    """RULES.md kale: a castle pit is always empty and never a legal move for its original owner."""
    pos = play(kale(board([4, 4, 4, 4, 4, 4], 0, [2, 4, 4, 4, 4, 4], 2), 0), 4).position
    assert [m.pit for m in legal_moves(pos)] == [2, 3, 4, 5, 6]
    with pytest.raises(IllegalMoveError, match="^pit 1 of second player is the first player's castle"):
        play(pos, 1)
    with pytest.raises(IllegalMoveError, match=r"^ply 2: pit 1 of second player is the first player's castle"):
        replay([4, 1], "kale", start=kale(board([4, 4, 4, 4, 4, 4], 0, [2, 4, 4, 4, 4, 4], 2), 0))


def test_004_stones_later_dropped_into_the_castle_go_to_its_owner():
    """004 ("ileride rakibi ve kendisi tarafından bu kuyuya koyulacak tüm taşların sahibi olur"): a stone the
    owner sows into the castle goes to the owner's store."""
    pos = play(kale(board([4, 4, 4, 4, 4, 4], 0, [2, 4, 4, 4, 4, 4], 2), 0), 4).position
    pos = play(pos, 2).position  # second: cell 8, 4 stones: 8, 9, 10, 11
    assert pos.board == board([4, 4, 4, 1, 5, 5], 3, [0, 1, 5, 5, 5, 4], 2)
    res = play(pos, 6)  # first: cell 5, 5 stones: 5, 7 (castle), 8, 9, 10
    assert res.castle_stones == (1, 0)
    assert res.capture is Capture.EVEN and res.captured == 6  # cell 10: 5 -> 6
    assert res.position.board == board([4, 4, 4, 1, 5, 1], 10, [0, 2, 6, 0, 5, 4], 2)


def test_004_opponents_stone_into_castle_goes_to_castle_owner_last_stone_does_nothing_else():
    """004: stones the opponent drops into the castle belong to the castle owner. RULES.md-compatible
    interpretation (engine docs): when the last stone falls into a castle it goes to the owner's store
    and nothing else happens (no even rule, no castle) — the pit stays empty."""
    pos = kale(board([1, 1, 1, 1, 1, 1], 10, [0, 4, 4, 4, 4, 8], 8), 1, (7, -1))
    res = play(pos, 6)  # second: cell 12, 8 stones: 12, 0, 1, 2, 3, 4, 5, 7 (first's castle)
    assert res.last_index == 7
    assert res.castle_stones == (1, 0)
    assert res.capture is None
    assert res.position.board == board([2, 2, 2, 2, 2, 2], 11, [0, 4, 4, 4, 4, 1], 8)
    assert res.position.to_move == 0


def test_004_no_castle_in_opponents_pit_6():
    """004 ("Oyuncular 6 nolu kuyuya ... kale kuramaz"): making the opponent's pit 6 hold 3 builds no castle."""
    pos = kale(board([4, 4, 4, 4, 3, 7], 0, [4, 4, 4, 4, 4, 2], 0), 0)
    res = play(pos, 6)  # cell 5, 7 stones: 5, 7, 8, 9, 10, 11, 12
    assert res.last_index == 12
    assert res.capture is None and res.castle_built is None
    assert res.position.castles == (-1, -1)
    assert res.position.board == board([4, 4, 4, 4, 3, 1], 0, [5, 5, 5, 5, 5, 3], 0)


def test_004_only_one_castle_per_player_per_set():
    """004 ("Bir sette her oyuncu sadece bir kez kale kurabilir"): a second pit made 3 is not a castle."""
    pos = kale(board([4, 4, 4, 4, 4, 4], 4, [2, 4, 0, 4, 4, 4], 2), 0, (9, -1))
    res = play(pos, 4)  # last stone: cell 7, 2 -> 3
    assert res.capture is None
    assert res.position.castles == (9, -1)
    assert res.position.board == board([4, 4, 4, 1, 5, 5], 4, [3, 4, 0, 4, 4, 4], 2)


def test_004_each_player_may_build_one_castle():
    """004: the second player can build a castle too (in the first player's row), independently."""
    pos = kale(board([2, 4, 4, 4, 4, 4], 6, [4, 4, 0, 4, 4, 4], 0), 1, (9, -1))
    res = play(pos, 4)  # second: cell 10, 4 stones: 10, 11, 12, 0 -> first's pit 1 goes 2 -> 3
    assert res.castle_built == 0
    assert res.position.castles == (9, 0)
    assert res.position.board == board([0, 4, 4, 4, 4, 4], 6, [4, 4, 0, 1, 5, 5], 3)


def test_004_no_empty_pit_capture_in_kale():
    """004 ("3'üncü ... temel kural kale kurallı oyunda uygulanmaz"): an own empty pit takes nothing."""
    pos = kale(board([4, 2, 0, 4, 4, 4], 3, [4, 4, 4, 5, 4, 4], 2), 0)
    res = play(pos, 2)
    assert res.capture is None
    assert res.position.board == board([4, 1, 1, 4, 4, 4], 3, [4, 4, 4, 5, 4, 4], 2)


def test_004_end_each_player_keeps_own_side_no_sweep_to_opponent():
    """004 ("Önündeki kuyularda taş kalan oyuncu, bu taşları kendi hazinesine koyar"): when the first player's
    side is empty, the second player puts their own remaining stones into their own store."""
    pos = kale(board([0, 0, 0, 0, 0, 1], 20, [2, 2, 2, 2, 2, 1], 16), 0)
    res = play(pos, 6)  # single stone to cell 7: 2 -> 3, castle; the first side is now empty
    assert res.castle_built == 7
    assert res.set_over
    assert res.sweep == (0, 9)
    assert res.position.board == board([0] * 6, 23, [0] * 6, 25)
    assert res.position.to_move is None
    assert res.position.outcome().winner == 1


def test_004_capturing_opponents_last_stones_keeps_own_side():
    """004 end rule versus 003 "Önemli ayrıntı": in kale the mover who empties the opponent's side keeps the
    stones on the own side (no transfer to the opponent)."""
    pos = kale(board([2, 2, 2, 2, 4, 2], 14, [1, 0, 0, 0, 0, 0], 19), 0)
    res = play(pos, 6)  # cell 5, 2 stones: 5, 7 -> cell 7 goes 1 -> 2: even, taken
    assert res.capture is Capture.EVEN and res.captured == 2
    assert res.set_over and res.sweep == (13, 0)
    assert res.position.stores == (29, 19)


def test_004_more_than_11_stones_lap_over_the_12_pits():
    """RULES.md "A move" 3 in kale: the lap has the 12 pits only; the origin gets a stone on every lap."""
    pos = kale(board([13, 1, 1, 1, 1, 1], 0, [4, 4, 4, 4, 4, 4], 6), 0)
    res = play(pos, 1)
    assert res.position.board == board([2, 2, 2, 2, 2, 2], 0, [5, 5, 5, 5, 5, 5], 6)
    assert res.last_index == 0
    assert res.position.to_move == 1


@pytest.mark.parametrize(
    "cells, castles, message",
    [
        (board([4, 4, 4, 4, 4, 4], 4, [4, 4, 4, 4, 4, 0], 0), (12, -1), "pits 1..5"),
        (board([4, 4, 4, 4, 4, 4], 0, [4, 4, 4, 4, 4, 4], 0), (7, -1), "must be empty"),
        (board([0, 4, 4, 4, 4, 4], 4, [4, 4, 4, 4, 4, 4], 0), (-1, 7), "pits 1..5"),
    ],
)
def test_004_invalid_castles_are_rejected(cells, castles, message):
    """004: a castle is one of the opponent's pits 1..5 and is always empty."""
    with pytest.raises(InvalidPositionError, match=message):
        kale(cells, 0, castles)


def test_unknown_variant_is_rejected():
    """Only the two variants of RULES.md exist."""
    with pytest.raises(UnknownVariantError, match="'oware'"):
        Position.initial("oware")
    with pytest.raises(UnknownVariantError):
        replay([1], "castle")
    assert Position.initial("KALE").variant is Variant.KALE


def test_kale_set_can_repeat_forever():
    """004 as read in RULES.md has no stores on the sowing path, so stones can circulate: this 12-ply
    sequence (found by a random game) returns to the same position. The sheet has no repetition rule;
    the engine reports positions and leaves a never-ending set to the tournament director (open question
    reported to the federation)."""
    start = kale(board([0, 0, 1, 0, 0, 0], 24, [0, 1, 0, 1, 1, 0], 20), 0)
    cycle = [3, 2, 4, 5, 5, 6, 1, 3, 2, 4, 6, 1]
    pos = replay(cycle, "kale", start=start)
    assert pos == start
    assert replay(cycle * 5, "kale", start=start) == start
