"""Set and match results: recorded stones, winner, stone margin, set points and match points.

Sources: Kural 14 (set result, 25 stones, withdrawal 14.5, no agreed draws 14.6), 003 "Turnuva maçı"
(3-set match, set starters, no extra set) and RULES.md "Match and tournament scoring".

Conventions:
- In a *set*, "first" and "second" are the set's first and second mover (``Position`` players 0/1).
- In a *match*, each set is given as the recorded stones ``(A, B)`` of player A — the match's white,
  who starts sets 1, 3, 5, … — and player B (who starts sets 2, 4, …). Convert a set result with
  :func:`set_stones_for_match`.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .errors import (
    AgreedDrawError,
    InvalidStonesError,
    MatchLengthError,
    MatchSetsError,
    StonesNotConservedError,
    WithdrawalTooEarlyError,
)

__all__ = [
    "SetResult",
    "MatchResult",
    "set_result",
    "match_result",
    "set_starter",
    "set_stones_for_match",
    "DECIDING_STONES",
]

Side = Literal["first", "second"]
#: Stones that decide a set: at least half of the 48 plus one (Kural 14.2).
DECIDING_STONES = 25
_TOTAL = 48
_HALF = 24


@dataclass(frozen=True, slots=True)
class SetResult:
    """The recorded result of one set.

    ``first``/``second``: recorded stones of the first and second mover, summing to 48.
    ``winner``: ``"first"``, ``"second"`` or ``None`` (24-24 draw). ``margin``: winner's stones − 24
    (Kural 14.4: 36-12 is "+12"; a winner's withdrawal is "+1"), 0 for a draw.
    ``withdrawn_by``: who withdrew (Kural 14.5) or ``None`` for a completed set.
    """

    first: int
    second: int
    winner: Side | None
    margin: int
    withdrawn_by: Side | None = None

    @property
    def points(self) -> tuple[float, float]:
        """Set points (first, second): win 1, draw ½, loss 0 (Kural 14.3)."""
        if self.winner is None:
            return (0.5, 0.5)
        return (1.0, 0.0) if self.winner == "first" else (0.0, 1.0)

    def margin_of(self, side: Side) -> int:
        """Per-player margin: own recorded stones − 24 (positive for the winner; RULES.md margin)."""
        return (self.first if side == "first" else self.second) - _HALF


def _check_stones(value: object, what: str) -> int:
    if value.__class__ is not int or not 0 <= value <= _TOTAL:  # bool is rejected too
        raise InvalidStonesError(f"{what} must be a whole number of stones 0..48, not {value!r}")
    return value


def set_result(first: int, second: int, withdrawn_by: Side | None = None) -> SetResult:
    """Recorded result of a set from the two stores.

    ``first``, ``second``: the first and second mover's stores at the end of the set (a completed set:
    they must sum to 48, Kural 1) or at the moment of a withdrawal (sum <= 48, the rest still in pits).
    ``withdrawn_by``: ``"first"``, ``"second"`` or ``None``.

    Kural 14.5: a withdrawal is allowed only once a player has >= 25 in store (else
    :class:`WithdrawalTooEarlyError`); who withdraws does not change who won. The winner withdrawing is
    recorded 25-23 ("+1"); the loser withdrawing credits all stones in the pits to the winner
    (26 and 12 in the stores, 10 in pits → 36-12, "+12").

    Errors: :class:`InvalidStonesError` (a store outside 0..48), :class:`StonesNotConservedError`
    (a completed set not summing to 48, or more than 48 stones), :class:`AgreedDrawError` (a completed
    set "ended" level with stones still in the pits — there are no agreed draws, Kural 14.6).
    """
    _check_stones(first, "first player's store")
    _check_stones(second, "second player's store")
    total = first + second
    if total > _TOTAL:
        raise StonesNotConservedError(f"stores {first}-{second} hold {total} stones, more than 48 (Kural 1)")
    if withdrawn_by is None:
        if total != _TOTAL:
            if first == second:
                raise AgreedDrawError(
                    f"stores {first}-{first} leave {_TOTAL - total} stones in the pits: a set ends only "
                    "when a side is empty, there are no agreed draws (Kural 14.6)"
                )
            raise StonesNotConservedError(
                f"stores {first}-{second} sum to {total}, not 48: a completed set has every stone in a "
                "store (Kural 14); for a withdrawal give withdrawn_by"
            )
        winner: Side | None = None if first == second else ("first" if first > second else "second")
        return SetResult(first, second, winner, max(first, second) - _HALF)
    if withdrawn_by not in ("first", "second"):
        raise ValueError(f"withdrawn_by must be 'first', 'second' or None, not {withdrawn_by!r}")
    if max(first, second) < DECIDING_STONES:
        raise WithdrawalTooEarlyError(
            f"the {withdrawn_by} player cannot withdraw at {first}-{second}: a withdrawal needs a player "
            f"with at least 25 stones in store (Kural 14.5.2)"
        )
    winner = "first" if first >= DECIDING_STONES else "second"
    if withdrawn_by == winner:  # Kural 14.5.3: as if the winner had exactly 25
        rec_w, rec_l = DECIDING_STONES, _TOTAL - DECIDING_STONES
    else:  # Kural 14.5.4: the stones in the pits go to the winner, the loser keeps the store
        rec_l = second if winner == "first" else first
        rec_w = _TOTAL - rec_l
    rec_first, rec_second = (rec_w, rec_l) if winner == "first" else (rec_l, rec_w)
    return SetResult(rec_first, rec_second, winner, rec_w - _HALF, withdrawn_by)


def set_starter(set_number: int) -> Literal[0, 1]:
    """Who moves first in set ``set_number`` (1-based) of a match: 0 = the match's white (player A),
    sets 1, 3, 5, …; 1 = black (player B), sets 2, 4, … (003 "Turnuva maçı"; Kural 5).
    Raises :class:`ValueError` for a set number below 1."""
    if set_number.__class__ is not int or set_number < 1:
        raise ValueError(f"set number must be a positive integer, not {set_number!r}")
    return 0 if set_number % 2 else 1


def set_stones_for_match(set_number: int, result: SetResult) -> tuple[int, int]:
    """The (A, B) stones of a set result for :func:`match_result`: the first mover of set
    ``set_number`` is A in odd sets and B in even sets (:func:`set_starter`)."""
    if set_starter(set_number) == 0:
        return (result.first, result.second)
    return (result.second, result.first)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Result of a match (003 "Turnuva maçı"; RULES.md "Match and tournament scoring").

    ``set_points``: (A, B), win 1, draw ½, loss 0 per set. ``match_points``: (A, B), 1-0, 0-1 or ½-½;
    ``None`` while the match is incomplete. ``decided_after``: the number of sets after which the result
    was fixed (2 for a 2-0 in a 3-set match; the number of sets when all were needed); ``None`` while
    incomplete. ``complete``: no further set will be played. ``stones``: total recorded stones (A, B).
    """

    set_points: tuple[float, float]
    match_points: tuple[float, float] | None
    decided_after: int | None
    complete: bool
    stones: tuple[int, int] = (0, 0)

    @property
    def winner(self) -> Literal["A", "B"] | None:
        """``"A"``, ``"B"``, or ``None`` for a drawn or incomplete match."""
        if self.match_points is None or self.match_points[0] == self.match_points[1]:
            return None
        return "A" if self.match_points[0] > self.match_points[1] else "B"


def match_result(
    sets: Sequence[tuple[int, int]],
    sets_per_match: int = 3,
    *,
    allow_incomplete: bool = False,
) -> MatchResult:
    """Match result from the recorded stones ``(A, B)`` of each set played, in order.

    A is the match's white (starts sets 1, 3, 5, …). The match is decided as soon as one player's lead
    in set points is larger than the number of sets left (2-0 ends a 3-set match); otherwise all
    ``sets_per_match`` sets are played and the higher set-point total wins (match points 1-0), equal
    totals draw (½-½); no extra set (003 "Turnuva maçı").

    Errors: :class:`MatchLengthError` (``sets_per_match`` not a positive odd number);
    :class:`InvalidStonesError` / :class:`StonesNotConservedError` ("set 2: stones 30-17 sum to 47");
    :class:`MatchSetsError` for a set after the match was decided ("set 3 was played but the match was
    decided 2-0 after set 2"), more sets than ``sets_per_match``, or too few sets — unless
    ``allow_incomplete``, which returns ``match_points=None``, ``complete=False``.
    """
    if sets_per_match.__class__ is not int or sets_per_match < 1 or sets_per_match % 2 == 0:
        raise MatchLengthError(
            f"sets per match must be a positive odd number (3 by default, 5 in some events), not {sets_per_match!r}"
        )
    if isinstance(sets, (str, bytes)):
        raise MatchSetsError("sets must be a sequence of (A, B) stone pairs")
    pa = pb = 0.0
    sa = sb = 0
    decided_after: int | None = None
    for n, pair in enumerate(sets, start=1):
        try:
            a, b = pair
        except (TypeError, ValueError):
            raise MatchSetsError(f"set {n}: expected a pair of stones (A, B), not {pair!r}") from None
        _check_stones(a, f"set {n}: player A's stones")
        _check_stones(b, f"set {n}: player B's stones")
        if a + b != _TOTAL:
            raise StonesNotConservedError(f"set {n}: stones {a}-{b} sum to {a + b}, not 48 (Kural 1)")
        if n > sets_per_match:
            raise MatchSetsError(f"set {n}: a match has only {sets_per_match} sets")
        if decided_after is not None:
            raise MatchSetsError(
                f"set {n} was played but the match was decided {_fmt(pa)}-{_fmt(pb)} after set "
                f"{decided_after} (003 \"Turnuva maçı\")"
            )
        if a > b:
            pa += 1
        elif b > a:
            pb += 1
        else:
            pa += 0.5
            pb += 0.5
        sa += a
        sb += b
        left = sets_per_match - n
        if abs(pa - pb) > left or left == 0:
            decided_after = n
    if decided_after is None:
        played = len(sets)
        if not allow_incomplete:
            raise MatchSetsError(
                f"only {played} set{'s' if played != 1 else ''} recorded at {_fmt(pa)}-{_fmt(pb)}: "
                f"the match is not decided (a match has {sets_per_match} sets)"
            )
        return MatchResult((pa, pb), None, None, False, (sa, sb))
    if pa > pb:
        mp = (1.0, 0.0)
    elif pb > pa:
        mp = (0.0, 1.0)
    else:
        mp = (0.5, 0.5)
    return MatchResult((pa, pb), mp, decided_after, True, (sa, sb))


def _fmt(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"
