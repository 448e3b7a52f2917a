"""Worked examples of the federation rules (000 Kural 10-14, 003 §1-§6) and RULES.md interpretations.

Each test names its source. Boards use the 14-cell convention: 0..5 first player's pits 1..6,
6 first store, 7..12 second player's pits 1..6, 13 second store.
"""
from __future__ import annotations

import pytest

from games.engine import (
    Capture,
    IllegalMoveError,
    InvalidPositionError,
    Move,
    Position,
    SetOverError,
    legal_moves,
    play,
    replay,
)

from .helpers import board

INITIAL = (4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0)


def test_kural_3_initial_position_four_stones_each_pit_empty_stores():
    """Kural 1/3: 48 stones, 4 in every pit, stores empty; Kural 5: the first (white) side moves first."""
    pos = Position.initial()
    assert pos.board == INITIAL
    assert pos.to_move == 0
    assert [m.pit for m in legal_moves(pos)] == [1, 2, 3, 4, 5, 6]


def test_rules_md_pit_numbering_second_player_pit_1_is_cell_7():
    """RULES.md "Board and notation": pits are numbered from each player's own left; the second player's
    pit 1 is cell 7, and cell i is opposite cell 12 - i (pit 1 faces the opponent's pit 6)."""
    assert Move(1, 1).index == 7
    assert Move(0, 6).index == 5
    assert Move.from_index(12) == Move(1, 6)
    # Second player's pit 1 (cell 7) with 4 stones: 7, 8, 9, 10.
    after = play(Position(INITIAL, 1), 1).position
    assert after.board == board([4, 4, 4, 4, 4, 4], 0, [1, 5, 5, 5, 4, 4], 0)
    assert after.to_move == 0


def test_003_s2_kural_13d_first_stone_back_into_pit_last_in_own_full_pit_turn_passes():
    """003 §2 example / Kural 11A, 13D: 4 stones from pit 1 — the first back into pit 1, three into the
    next pits; the last falls into an own pit that already had stones, so the turn passes."""
    res = play(Position.initial(), 1)
    assert res.position.board == board([1, 5, 5, 5, 4, 4], 0, [4, 4, 4, 4, 4, 4], 0)
    assert res.position.to_move == 1
    assert not res.extra_turn and res.capture is None and res.captured == 0
    assert res.last_index == 3


def test_003_s3_kural_13a_pit_4_reaches_store_extra_turn():
    """003 §3 example / Kural 13A: pit 4 holds 4 stones and the store is 4 steps away: the last stone
    lands in the store and the same player moves again."""
    res = play(Position.initial(), 4)
    assert res.position.board == board([4, 4, 4, 1, 5, 5], 1, [4, 4, 4, 4, 4, 4], 0)
    assert res.extra_turn
    assert res.position.to_move == 0
    assert res.last_index == 6


def test_rules_md_extra_turn_is_just_the_next_move_in_the_record():
    """RULES.md "Board and notation": "4 1" — pit 4 ends in the store, the first player plays pit 1 next."""
    pos = replay([4, 1])
    assert pos.board == board([1, 5, 5, 2, 5, 5], 1, [4, 4, 4, 4, 4, 4], 0)
    assert pos.to_move == 1


def test_003_s4_kural_13b_opponent_pit_3_made_4_is_captured():
    """003 §4 example / Kural 13B: the opponent's pit held 3, the last stone makes 4, all 4 go to the store."""
    pos = Position(board([4, 4, 4, 4, 4, 4], 0, [3, 5, 4, 4, 4, 4], 0), 0)
    res = play(pos, 5)  # 4 stones: cells 4, 5, store 6, 7
    assert res.capture is Capture.EVEN and res.captured == 4
    assert res.position.board == board([4, 4, 4, 4, 1, 5], 5, [0, 5, 4, 4, 4, 4], 0)
    assert res.position.to_move == 1


def test_003_s4_single_stone_made_two_is_even_too():
    """003 §4: "Kuyuda önceden tek taş varsa bile" — an opponent pit with 1 made 2 is taken."""
    pos = Position(board([4, 4, 4, 4, 4, 4], 0, [1, 4, 4, 4, 4, 4], 3), 0)
    res = play(pos, 5)
    assert res.capture is Capture.EVEN and res.captured == 2
    assert res.position.board == board([4, 4, 4, 4, 1, 5], 3, [0, 4, 4, 4, 4, 4], 3)


def test_003_s4_only_the_last_pit_counts_not_pits_passed():
    """003 §4: only the pit of the last stone is looked at — opponent pits made even on the way are not taken."""
    # 6 stones from pit 4: cells 3, 4, 5, 6 (store), 7 (3 -> 4, passed), 8 (4 -> 5, last, odd).
    pos = Position(board([4, 4, 4, 6, 4, 4], 0, [3, 4, 4, 4, 4, 3], 0), 0)
    res = play(pos, 4)
    assert res.capture is None
    assert res.position.board == board([4, 4, 4, 1, 5, 5], 1, [4, 5, 4, 4, 4, 3], 0)
    assert res.position.to_move == 1


def test_kural_13c_opponent_pit_made_odd_turn_passes():
    """Kural 13C: the last stone makes an opponent pit odd (4 -> 5): nothing is taken, turn passes."""
    res = play(Position.initial(), 5)  # cells 4, 5, 6, 7
    assert res.capture is None
    assert res.position.board == board([4, 4, 4, 4, 1, 5], 1, [5, 4, 4, 4, 4, 4], 0)
    assert res.position.to_move == 1


def test_003_s4_even_rule_only_in_opponent_pits():
    """003 §4 / RULES.md "A move" 5: making an own pit even gains nothing."""
    pos = Position(board([2, 3, 4, 4, 4, 4], 3, [4, 4, 4, 4, 4, 4], 0), 0)
    res = play(pos, 1)  # cells 0, 1: pit 2 goes 3 -> 4
    assert res.capture is None
    assert res.position.board == board([1, 4, 4, 4, 4, 4], 3, [4, 4, 4, 4, 4, 4], 0)
    assert res.position.to_move == 1


def test_003_s5_kural_13e_empty_pit_takes_opposite_and_own_stone():
    """003 §5 example / Kural 13E: pit 3 was empty; from the 2-stone pit 2 the first stone falls back, the
    second into pit 3. The opposite pit held 5: 5 + 1 = 6 stones go to the store."""
    pos = Position(board([4, 2, 0, 4, 4, 4], 3, [4, 4, 4, 5, 4, 4], 2), 0)
    assert 12 - 2 == 10  # pit 3 (cell 2) faces the second player's pit 4 (cell 10)
    res = play(pos, 2)
    assert res.capture is Capture.EMPTY_PIT and res.captured == 6
    assert res.position.board == board([4, 1, 0, 4, 4, 4], 9, [4, 4, 4, 0, 4, 4], 2)
    assert res.position.to_move == 1


def test_003_s5_opposite_pit_empty_nothing_taken_stone_stays():
    """003 §5 ("Karşıdaki kuyu boşsa hiçbir şey alınmaz") / RULES.md 4E: the opposite pit is empty, so
    nothing is taken and the stone stays in the pit."""
    pos = Position(board([4, 2, 0, 4, 4, 4], 3, [4, 4, 4, 0, 4, 9], 2), 0)
    res = play(pos, 2)
    assert res.capture is None
    assert res.position.board == board([4, 1, 1, 4, 4, 4], 3, [4, 4, 4, 0, 4, 9], 2)
    assert res.position.to_move == 1


def test_003_s5_pit_filled_earlier_in_the_same_move_is_not_empty():
    """003 §5 (last paragraph) / RULES.md 4E: after a lap the last stone lands in an own pit that was empty
    when the move began but received a stone on the first lap: no empty-pit capture."""
    pos = Position(board([15, 0, 1, 1, 1, 1], 0, [4, 4, 4, 4, 4, 9], 0), 0)
    res = play(pos, 1)  # 15 stones: a full 13-cell lap from cell 0, then cells 0 and 1 again
    assert res.last_index == 1
    assert res.capture is None
    assert res.position.board == board([2, 2, 2, 2, 2, 2], 1, [5, 5, 5, 5, 5, 10], 0)
    assert res.position.to_move == 1


def test_003_s2_more_than_13_stones_go_round_and_origin_gets_a_stone_each_lap():
    """003 §2 "13'ten fazla taş" / RULES.md "A move" 3: the origin pit receives a stone on every lap; the
    opponent's store is skipped, the own store receives one per lap."""
    pos = Position(board([4, 4, 4, 4, 4, 20], 0, [1, 1, 1, 1, 3, 0], 1), 0)
    res = play(pos, 6)
    # 20 stones from cell 5 round the 13-cell cycle 5,6,7,...,12,0,...,4 (cell 13 skipped):
    # one full lap plus 7 more, so cells 5, 6, 7, 8, 9, 10, 11 get two stones, the others one.
    assert res.position.board == board([5, 5, 5, 5, 5, 2], 2, [3, 3, 3, 3, 5, 1], 1)
    assert res.last_index == 11  # second player's pit 5, now 5: odd, turn passes (Kural 13C)
    assert res.capture is None
    assert res.position.to_move == 1


def test_003_s2_lap_with_even_capture_at_the_end():
    """003 §2 laps + Kural 13B: after a lap, the last stone makes an opponent pit even: it is taken."""
    pos = Position(board([4, 4, 4, 4, 4, 20], 0, [1, 1, 1, 1, 4, 0], 0), 0)
    res = play(pos, 6)  # as above; the last stone makes the second player's pit 5 hold 6
    assert res.last_index == 11
    assert res.capture is Capture.EVEN and res.captured == 6
    assert res.position.board == board([5, 5, 5, 5, 5, 2], 8, [3, 3, 3, 3, 0, 1], 0)
    assert sum(res.position.board) == 48


def test_kural_13f_single_stone_moves_to_the_next_pit():
    """Kural 11C / 13F / 003 §2 "Kuyuda tek taş varsa": one stone is not put back, it moves to the next pit."""
    pos = Position(board([1, 4, 4, 4, 4, 4], 3, [4, 4, 4, 4, 4, 4], 0), 0)
    res = play(pos, 1)
    assert res.position.board == board([0, 5, 4, 4, 4, 4], 3, [4, 4, 4, 4, 4, 4], 0)
    assert res.position.to_move == 1
    assert res.last_index == 1


def test_kural_11c_single_stone_in_pit_6_goes_to_store_extra_turn():
    """Kural 11C / RULES.md "A move" 2: for pit 6 the next position is the own store — an extra turn."""
    pos = Position(board([4, 4, 4, 4, 4, 1], 3, [4, 4, 4, 4, 4, 4], 0), 0)
    res = play(pos, 6)
    assert res.extra_turn
    assert res.position.board == board([4, 4, 4, 4, 4, 0], 4, [4, 4, 4, 4, 4, 4], 0)
    assert res.position.to_move == 0


def test_kural_13f_single_stone_into_empty_own_pit_captures():
    """Kural 13F with 13E: a single stone moved into an empty own pit takes the opposite pit."""
    pos = Position(board([1, 0, 4, 4, 4, 4], 3, [4, 4, 4, 4, 7, 4], 1), 0)
    res = play(pos, 1)  # cell 1, opposite cell 11 holds 7
    assert res.capture is Capture.EMPTY_PIT and res.captured == 8
    assert res.position.board == board([0, 0, 4, 4, 4, 4], 11, [4, 4, 4, 4, 0, 4], 1)


def _sow_one_by_one_from_pit(cells: list[int], origin: int, skip: int) -> list[int]:
    """Kural 10C / 11B literally: take the stones one by one from the pit, dropping the first into the next
    cell; the pit's last stone stays where it is."""
    cells = list(cells)
    cell = origin
    while cells[origin] > 1:
        cells[origin] -= 1
        cell = (cell + 1) % 14
        if cell == skip:
            cell = (cell + 1) % 14
        cells[cell] += 1
    return cells


@pytest.mark.parametrize("n", range(2, 13))
@pytest.mark.parametrize("pit", range(1, 7))
def test_kural_11b_taking_stones_one_by_one_leaves_the_same_board(pit, n):
    """Kural 10C/11B and 12B: sowing stone by stone from the pit (its last stone stays) gives the same board
    as Kural 11A (first stone back into the pit) — it is the same move (RULES.md "A move" 3)."""
    first = [1, 1, 1, 1, 1, 1]
    first[pit - 1] = n
    cells = board(first, 48 - 24 - sum(first), [4, 4, 4, 4, 4, 4], 0)
    by_11b = _sow_one_by_one_from_pit(list(cells), pit - 1, 13)
    res = play(Position(cells, 0), pit)
    assert res.capture is None  # own pits hold stones, opponent pits become 5: no capture here
    assert list(res.position.board) == by_11b
    # Kural 12: the last stone of 11A (the n-th dropped) is where 11B's last taken stone (the (n-1)-th) fell.
    path = [(pit - 1 + k) % 14 for k in range(0, 14)]
    path = [c for c in path if c != 13]
    assert res.last_index == path[n - 1]


def test_kural_14_sweep_player_whose_side_empties_takes_the_other_side():
    """Kural 14 (4th basic rule) / 003 §6: the first player's last stone (pit 6) ends in the store, the side is
    empty: the set ends at once and the first player takes all 12 stones left on the second side."""
    pos = Position(board([0, 0, 0, 0, 0, 1], 20, [2, 2, 2, 2, 2, 2], 15), 0)
    res = play(pos, 6)
    assert res.set_over and res.extra_turn
    assert res.sweep == (12, 0)
    assert res.position.board == board([0] * 6, 33, [0] * 6, 15)
    assert res.position.to_move is None
    assert res.position.outcome().winner == 0
    assert legal_moves(res.position) == ()


def test_003_s6_important_detail_capturing_opponents_last_stones_gives_them_your_side():
    """003 §6 "Önemli ayrıntı": the mover takes the opponent's last stones, so the opponent's side is empty
    and the mover's remaining stones go to the OPPONENT's store (it is not the mover who takes them)."""
    pos = Position(board([2, 2, 2, 2, 4, 3], 14, [3, 0, 0, 0, 0, 0], 16), 0)
    res = play(pos, 5)  # cells 4, 5, store, 7: 3 -> 4, even: taken
    assert res.capture is Capture.EVEN and res.captured == 4
    assert res.set_over
    assert res.sweep == (0, 13)
    assert res.position.board == board([0] * 6, 19, [0] * 6, 29)
    assert res.position.outcome().winner == 1  # the capture lost the set


def test_rules_md_both_sides_empty_at_once_nothing_transferred_and_24_24_draw():
    """RULES.md "End of a set": both sides empty at once — nothing is transferred; 24-24 is a draw (003 §6)."""
    pos = Position(board([0, 0, 0, 0, 1, 0], 20, [3, 0, 0, 0, 0, 0], 24), 0)
    res = play(pos, 5)  # single stone into empty cell 5, opposite cell 7 holds 3: 3 + 1 taken
    assert res.capture is Capture.EMPTY_PIT and res.captured == 4
    assert res.set_over and res.sweep == (0, 0)
    assert res.position.stores == (24, 24)
    outcome = res.position.outcome()
    assert outcome.winner is None and outcome.margin == 0


def test_kural_14_2_reaching_25_does_not_end_the_set():
    """Kural 14.2 and 14.4: 25 stones decide the set but play continues until a side is empty."""
    pos = Position(board([4, 4, 4, 4, 4, 3], 22, [1, 1, 0, 0, 0, 1], 0), 0)
    res = play(pos, 5)  # cells 4, 5, store, 7: second player's pit 1 goes 1 -> 2 and is taken
    assert res.capture is Capture.EVEN and res.captured == 2
    assert res.position.board == board([4, 4, 4, 4, 1, 4], 25, [0, 1, 0, 0, 0, 1], 0)
    assert not res.set_over
    assert res.position.to_move == 1
    assert [m.pit for m in legal_moves(res.position)] == [2, 6]


def test_kural_14_2_store_of_25_with_stones_left_is_still_live():
    """Kural 14.2/14.4: a player with 25+ in store still has to play on while both sides have stones."""
    pos = replay([4, 1])
    assert not pos.is_over
    pos = Position(board([4, 4, 4, 4, 4, 2], 25, [0, 0, 0, 0, 0, 1], 0), 1)
    assert not pos.is_over
    res = play(pos, 6)  # second player's single stone into the own store: side empty, set over
    assert res.set_over and res.sweep == (0, 22)
    assert res.position.stores == (25, 23)
    assert res.position.outcome().winner == 0


def test_rules_md_opponent_store_is_skipped_own_store_receives():
    """RULES.md "Board and notation": sowing skips the opponent's store and always feeds one's own."""
    pos = Position(board([4, 4, 4, 4, 4, 4], 0, [4, 4, 0, 0, 0, 10], 6), 1)
    res = play(pos, 6)  # 10 stones from cell 12: 12, 13, 0, 1, 2, 3, 4, 5, (skip 6) 7, 8
    assert res.position.board == board([5, 5, 5, 5, 5, 5], 0, [5, 5, 0, 0, 0, 1], 7)
    assert res.position.board[6] == 0


def test_empty_pit_is_illegal_with_ply_and_player():
    """RULES.md "A move" 1: an empty pit is an illegal move; the error says which ply, pit and player."""
    with pytest.raises(IllegalMoveError, match=r"^ply 4: pit 4 of first player is empty$"):
        replay([4, 4, 1, 4])
    with pytest.raises(IllegalMoveError, match="^pit 4 of first player is empty$"):
        play(replay([4, 4, 1]), 4)
    with pytest.raises(IllegalMoveError, match=r"^ply 2: pit 6 of second player is empty$"):
        replay([1, 6], start=Position(board([4, 4, 4, 4, 4, 4], 0, [4, 4, 4, 4, 4, 0], 4), 0))


def test_pit_outside_1_to_6_is_illegal():
    """RULES.md "Board and notation": a move is a pit number 1..6."""
    for bad in (0, 7, -1, "x", 2.0, True):
        with pytest.raises(IllegalMoveError):
            play(Position.initial(), bad)
    with pytest.raises(IllegalMoveError, match=r"ply 2: pit must be a number 1\.\.6, not 9"):
        replay([1, 9])


def test_move_after_the_end_is_set_over_error():
    """Kural 14: the set ends immediately; a further move is refused with its ply."""
    pos = Position(board([0, 0, 0, 0, 0, 1], 20, [2, 2, 2, 2, 2, 2], 15), 0)
    with pytest.raises(SetOverError, match=r"^ply 2: the set is already over after ply 1"):
        replay([6, 1], start=pos)
    over = play(pos, 6).position
    with pytest.raises(SetOverError):
        play(over, 1)


def test_move_of_the_wrong_player_is_illegal():
    """Kural 6: players alternate (except after an extra turn): a Move object of the other player is refused."""
    with pytest.raises(IllegalMoveError, match="second player"):
        play(Position.initial(), Move(1, 1))


@pytest.mark.parametrize(
    "cells, to_move, message",
    [
        ((4,) * 13, 0, "14 cells"),
        (board([4, 4, 4, 4, 4, 4], 1, [4, 4, 4, 4, 4, 4], 0), 0, "49 stones"),
        (board([4, 4, 4, 4, 4, -4], 8, [4, 4, 4, 4, 4, 4], 0), 0, "non-negative"),
        (board([0, 0, 0, 0, 0, 0], 24, [4, 4, 4, 4, 4, 4], 0), 0, "first player's pits are all empty"),
        (board([0, 0, 0, 0, 0, 0], 24, [0, 0, 0, 0, 0, 0], 24), 0, "all empty"),
        (INITIAL, None, "still in the pits"),
        (INITIAL, 2, "to_move"),
    ],
)
def test_invalid_positions_are_rejected(cells, to_move, message):
    """Kural 1/3/14: a position must hold 48 stones in 14 cells, and a live set has stones on both sides."""
    with pytest.raises(InvalidPositionError, match=message):
        Position(cells, to_move)


def test_federation_positions_have_no_castles():
    """004: castles exist only in the kale variant."""
    with pytest.raises(InvalidPositionError, match="kale"):
        Position(INITIAL, 0, "federation", (8, -1))
