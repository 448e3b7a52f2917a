"""Check a submitted set record (moves + claimed stones) against the rules.

Used by the product when a set result is entered together with its moves.
"""
from __future__ import annotations

from collections.abc import Sequence

from .errors import EngineMessage as _m
from .errors import IncompleteRecordError, RecordMismatchError, WithdrawalTooEarlyError, gettext_noop
from .game import Move, Position, Variant, replay
from .results import DECIDING_STONES, SetResult, Side, set_result

__all__ = ["validate_record"]


def validate_record(
    moves: Sequence[int | Move | str],
    *,
    variant: Variant | str = Variant.FEDERATION,
    first_stones: int,
    second_stones: int,
    withdrawn_by: Side | None = None,
) -> SetResult:
    """Replay ``moves`` and check that they give the recorded result; return that :class:`SetResult`.

    ``first_stones``/``second_stones`` are the recorded stones of the set's first and second mover.
    - Every move must be legal (:class:`IllegalMoveError` / :class:`SetOverError` naming the ply).
    - Without ``withdrawn_by`` the moves must finish the set ("record ends before the set is over at
      ply N", :class:`IncompleteRecordError`) and the final stores must equal the recorded stones.
    - With ``withdrawn_by`` ("first"/"second") the moves must stop while the set is still going on and
      someone already has >= 25 in store (Kural 14.5.2, :class:`WithdrawalTooEarlyError`); the recorded
      stones must equal :func:`set_result` of the stores then (25-23 or the loser-withdrawal credit).
    - A mismatch raises :class:`RecordMismatchError`: "stones 30-18 differ from the record's 28-20"
      (replayed first, recorded second).
    """
    moves = list(moves)
    final: Position = replay(moves, variant)
    plies = len(moves)
    s1, s2 = final.stores
    if withdrawn_by is None:
        if not final.is_over:
            raise IncompleteRecordError(_m(
                gettext_noop("record ends before the set is over at ply %(ply)s (stores %(s1)s-%(s2)s, %(left)s "
                             "stones still in the pits)"),
                ply=plies, s1=s1, s2=s2, left=48 - s1 - s2))
        result = set_result(s1, s2)
    else:
        if final.is_over:
            if withdrawn_by == "first":
                template = gettext_noop("the record claims the first player withdrew, but the set is already over "
                                        "at ply %(ply)s (%(s1)s-%(s2)s)")
            elif withdrawn_by == "second":
                template = gettext_noop("the record claims the second player withdrew, but the set is already over "
                                        "at ply %(ply)s (%(s1)s-%(s2)s)")
            else:  # not a side (set_result refuses it): plain English
                raise RecordMismatchError(f"the record claims the {withdrawn_by} player withdrew, but the set is "
                                          f"already over at ply {plies} ({s1}-{s2})")
            raise RecordMismatchError(_m(template, ply=plies, s1=s1, s2=s2))
        if max(s1, s2) < DECIDING_STONES:
            raise WithdrawalTooEarlyError(_m(
                gettext_noop("withdrawal after ply %(ply)s at stores %(s1)s-%(s2)s: nobody has 25 stones yet "
                             "(Kural 14.5.2)"), ply=plies, s1=s1, s2=s2))
        result = set_result(s1, s2, withdrawn_by)
    if (result.first, result.second) != (first_stones, second_stones):
        err = RecordMismatchError(_m(
            gettext_noop("stones %(p1)s-%(p2)s differ from the record's %(c1)s-%(c2)s"),
            p1=result.first, p2=result.second, c1=first_stones, c2=second_stones))
        err.played = (result.first, result.second)  # what the moves give, first mover first
        err.claimed = (first_stones, second_stones)  # what was stated, first mover first
        raise err
    return result
