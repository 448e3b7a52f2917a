"""Value objects and input handling: Move, Position, Outcome, replay inputs (python-chess style conventions)."""
from __future__ import annotations

import pytest

from games.engine import (
    IllegalMoveError,
    InvalidPositionError,
    MatchSetsError,
    Move,
    Outcome,
    Position,
    SetOverError,
    UnknownVariantError,
    Variant,
    legal_moves,
    match_result,
    play,
    replay,
)
from games.engine.notation import GameRecord, parse, write_record

from .helpers import board


def test_move_value_object():
    """RULES.md: a move is the pit number 1..6 of the mover; ``str`` is what a record shows."""
    m = Move(1, 3)
    assert m.index == 9 and str(m) == "3"
    assert Move.from_index(9) == m and hash(m) == hash(Move(1, 3))
    for bad in ((2, 1), (0, 0), (0, 7), (1, "3")):
        with pytest.raises(IllegalMoveError):
            Move(*bad)
    for bad in (6, 13, 14, -1, "7"):
        with pytest.raises(IllegalMoveError, match="is not a pit"):
            Move.from_index(bad)


def test_position_accepts_lists_and_is_hashable():
    pos = Position(list(Position.initial().board), 0, "kale", [-1, -1])
    assert isinstance(pos.board, tuple) and pos.castles == (-1, -1) and pos.variant is Variant.KALE
    assert hash(pos) == hash(Position.initial("kale"))
    assert pos.pits(0) == (4,) * 6 and pos.pits(1) == (4,) * 6
    assert pos.outcome() is None and pos.stores == (0, 0)
    assert str(Position.initial()).splitlines() == ["    4  4  4  4  4  4", " 0                   0", "    4  4  4  4  4  4"]
    with pytest.raises(InvalidPositionError, match="castles must be"):
        Position(pos.board, 0, "kale", (1, 2, 3))
    with pytest.raises(TypeError):
        legal_moves(pos.board)


def test_outcome_winner_and_margin():
    """Kural 14.1/14.4: more stones wins; margin = winner's stones − 24."""
    assert (Outcome(30, 18).winner, Outcome(30, 18).margin) == (0, 6)
    assert (Outcome(10, 38).winner, Outcome(10, 38).margin) == (1, 14)
    assert (Outcome(24, 24).winner, Outcome(24, 24).margin) == (None, 0)


def test_replay_accepts_move_objects_and_digit_strings():
    want = replay([4, 1, 3])
    assert replay(["4", "1", "3"]) == want
    assert replay([Move(0, 4), Move(0, 1), Move(1, 3)]) == want
    assert replay(iter([4, 1, 3])) == want
    with pytest.raises(IllegalMoveError, match=r"^ply 2: pit must be a number 1\.\.6, not 'x'"):
        replay(["4", "x"])
    with pytest.raises(IllegalMoveError, match=r"^ply 4: pit 4 of first player is empty$"):
        replay(["4", "4", "1", "4"])


def test_replay_kale_errors_name_the_ply():
    with pytest.raises(IllegalMoveError, match=r"^ply 1: pit must be a number 1\.\.6, not 0"):
        replay([0], "kale")
    over = Position(board([0] * 6, 30, [0] * 6, 18), None, "kale")
    with pytest.raises(SetOverError, match=r"^ply 1: the set is already over"):
        replay([1], start=over)


def test_replay_variant_must_match_start():
    with pytest.raises(UnknownVariantError, match="differs"):
        replay([1], "federation", start=Position.initial("kale"))
    assert replay([4], start=Position.initial("kale")) == replay([4], "kale")


def test_play_accepts_move_object():
    assert play(Position.initial(), Move(0, 4)).position == replay([4])


def test_notation_same_names_write_starter_by_colour_and_first_withdrew():
    rec = GameRecord(white="X", black="X", result=(25, 23), moves=(4, 1), set_number=2,
                     termination="first_withdrew")
    text = write_record(rec)
    assert '[Starter "Black"]' in text
    [back] = parse(text)
    assert back == rec and back.starter == "black" and back.withdrawn_by == "first"


def test_match_result_rejects_a_string():
    with pytest.raises(MatchSetsError):
        match_result("30-18,18-30")
