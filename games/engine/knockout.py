"""Knockout matches: who advances from a match that cannot end drawn (pure Python, no Django).

Source: RULES.md "Knockout matches" (a project interpretation; the federation's texts have no knockout
rule, and 003 "Turnuva maçı" plays no extra set in a normal tournament match):

* The match is played as a normal match (:func:`games.engine.match_result`: 3 or 5 sets, a per-round
  setting, decided as soon as a lead cannot be caught).
* If it ends level, **decider sets** are played one at a time until one of them is won; a drawn decider
  (24–24) is followed by another (rule ``"deciders"``, the federation's default).
* The first decider's starter is drawn by lot; later deciders alternate (:func:`knockout_set_starter`).
* Alternatives an organiser may choose per event: the higher seed advances on a level match
  (``"higher_seed"``: no decider is played); or up to ``max_deciders`` deciders, then the higher seed
  (``"deciders_then_seed"``).
* A decider set is a normal set for ratings; match points of a knockout are not used for standings.

Sets are given like :func:`games.engine.match_result` takes them: the recorded stones ``(A, B)`` of each
set in play order, A being the match's white (who starts sets 1, 3, 5, … of the planned sets), the
decider sets following the planned ones.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .errors import MatchSetsError, RulesError, StonesNotConservedError
from .results import MatchResult, _check_stones, match_result, set_starter

__all__ = [
    "LEVEL_MATCH_RULES",
    "KnockoutResult",
    "KnockoutSettingsError",
    "KnockoutSetsError",
    "DeciderNotNeededError",
    "DeciderNotAllowedError",
    "knockout_match_result",
    "knockout_set_starter",
]

#: What settles a level knockout match (RULES.md "Knockout matches"): decider sets until one is won
#: (the federation's rule); the higher seed; up to ``max_deciders`` deciders, then the higher seed.
LEVEL_MATCH_RULES = ("deciders", "higher_seed", "deciders_then_seed")

Player = Literal["A", "B"]


class KnockoutSettingsError(RulesError):
    """A knockout setting the rule cannot work with: an unknown level-match rule, a negative number of
    deciders, a higher seed other than ``"A"``/``"B"``, a first decider starter other than ``"A"``/``"B"``."""


class KnockoutSetsError(MatchSetsError):
    """A list of sets no knockout match can produce (RULES.md "Knockout matches"). ``set_number`` is the
    1-based number of the first set at fault."""

    def __init__(self, message: str, set_number: int) -> None:
        super().__init__(message)
        self.set_number = set_number


class DeciderNotNeededError(KnockoutSetsError):
    """A decider set played although the match was already won: the planned sets were not level, or an
    earlier decider was won."""


class DeciderNotAllowedError(KnockoutSetsError):
    """A decider set the event's rule does not play: under ``"higher_seed"`` none, under
    ``"deciders_then_seed"`` none beyond ``max_deciders``."""


@dataclass(frozen=True, slots=True)
class KnockoutResult:
    """Who advances from a knockout match.

    ``planned``: the result of the planned sets (:class:`~games.engine.MatchResult`; ``match_points``
    ½–½ for a level match). ``deciders``: the decider sets played, ``(A, B)`` each. ``winner``: ``"A"``,
    ``"B"`` or ``None`` while undecided. ``decided_by``: ``"sets"`` (the planned sets), ``"deciders"``
    (a won decider) or ``"seed"`` (the higher seed on a level match), ``None`` while undecided.
    ``needs_decider``: the planned sets are over and level and the next set to play is a decider.
    """

    planned: MatchResult
    deciders: tuple[tuple[int, int], ...]
    winner: Player | None
    decided_by: Literal["sets", "deciders", "seed"] | None
    needs_decider: bool

    @property
    def complete(self) -> bool:
        """True once the match is decided: no further set is played."""
        return self.winner is not None

    @property
    def match_points(self) -> tuple[float, float] | None:
        """(A, B): 1–0 or 0–1 once decided (a knockout match is never drawn), else ``None``."""
        if self.winner is None:
            return None
        return (1.0, 0.0) if self.winner == "A" else (0.0, 1.0)


def _check_settings(rule: str, max_deciders: int, higher_seed: str) -> None:
    if rule not in LEVEL_MATCH_RULES:
        raise KnockoutSettingsError(
            f"unknown level-match rule {rule!r}; valid: {', '.join(LEVEL_MATCH_RULES)} (RULES.md \"Knockout matches\")"
        )
    if max_deciders.__class__ is not int or max_deciders < 0:
        raise KnockoutSettingsError(f"the number of decider sets must be a whole number >= 0, not {max_deciders!r}")
    if higher_seed not in ("A", "B"):
        raise KnockoutSettingsError(f"the higher seed is player 'A' or 'B', not {higher_seed!r}")


def knockout_match_result(
    sets: Sequence[tuple[int, int]],
    sets_planned: int = 3,
    rule: str = "deciders",
    max_deciders: int = 0,
    higher_seed: Player = "A",
    *,
    allow_incomplete: bool = True,
) -> KnockoutResult:
    """Who advances from a knockout match (RULES.md "Knockout matches").

    ``sets``: recorded stones ``(A, B)`` of every set played, the planned ones first (``sets_planned``,
    an odd number), then the decider sets. ``rule``: ``"deciders"`` (decider sets until one is won),
    ``"higher_seed"`` (the higher seed advances on a level match, no decider) or
    ``"deciders_then_seed"`` (up to ``max_deciders`` deciders, then the higher seed). ``higher_seed``:
    ``"A"`` or ``"B"``, who advances when the rule says "the higher seed".

    Examples (3 planned sets, A = white): ``[(30, 18), (28, 20)]`` → A by the sets (2–0);
    ``[(30, 18), (18, 30), (24, 24), (24, 24), (20, 28)]`` → level 1½–1½, a drawn decider, B wins the
    second decider: B "by deciders"; the same planned sets under ``"higher_seed"`` → the higher seed.

    Errors (all :class:`ValueError`): :class:`~games.engine.MatchSetsError` for planned sets no match can
    produce (a set after the match was decided, 003 "Turnuva maçı"); :class:`DeciderNotNeededError` for
    a decider after the match was won (``set_number`` names it); :class:`DeciderNotAllowedError` for a
    decider the rule does not play; :class:`KnockoutSettingsError` for bad settings; with
    ``allow_incomplete=False`` a :class:`~games.engine.MatchSetsError` for an undecided match.
    """
    _check_settings(rule, max_deciders, higher_seed)
    if isinstance(sets, (str, bytes)):
        raise MatchSetsError("sets must be a sequence of (A, B) stone pairs")
    sets = list(sets)
    planned_sets, decider_sets = sets[:sets_planned], sets[sets_planned:]
    planned = match_result(planned_sets, sets_planned, allow_incomplete=True)
    deciders = tuple((a, b) for a, b in (_pair(p, sets_planned + i) for i, p in enumerate(decider_sets, start=1)))

    def undecided(needs_decider: bool) -> KnockoutResult:
        if not allow_incomplete:
            raise MatchSetsError(
                "the match is not decided: " + ("a decider set is needed (the planned sets are level)"
                                                if needs_decider else f"a match has {sets_planned} sets")
            )
        return KnockoutResult(planned, deciders, None, None, needs_decider)

    if not planned.complete:  # deciders can only follow complete planned sets: none were split off
        return undecided(False)
    if planned.winner is not None:
        if deciders:
            raise DeciderNotNeededError(
                f"set {sets_planned + 1}: no decider set is played, the match was won "
                f"{_fmt(planned.set_points[0])}-{_fmt(planned.set_points[1])} in its {sets_planned} sets "
                "(RULES.md \"Knockout matches\")",
                sets_planned + 1,
            )
        return KnockoutResult(planned, deciders, planned.winner, "sets", False)
    # a level match
    limit = {"deciders": None, "higher_seed": 0, "deciders_then_seed": max_deciders}[rule]
    for j, (a, b) in enumerate(deciders, start=1):
        number = sets_planned + j
        if limit is not None and j > limit:
            raise DeciderNotAllowedError(
                f"set {number}: " + ("no decider set is played in this event, the higher seed advances on a "
                                     "level match" if limit == 0 else
                                     f"this event plays at most {limit} decider set{'s' if limit != 1 else ''}, "
                                     "then the higher seed advances") + " (RULES.md \"Knockout matches\")",
                number,
            )
        if a != b:
            if j < len(deciders):
                raise DeciderNotNeededError(
                    f"set {number + 1}: decider {j} (set {number}) was won, the match is over; no further set "
                    "is played (RULES.md \"Knockout matches\")",
                    number + 1,
                )
            return KnockoutResult(planned, deciders, "A" if a > b else "B", "deciders", False)
    if limit is not None and len(deciders) >= limit:
        return KnockoutResult(planned, deciders, higher_seed, "seed", False)
    return undecided(True)


def knockout_set_starter(set_number: int, sets_planned: int, first_decider_starter: Player | None) -> Literal[0, 1]:
    """Who moves first in set ``set_number`` of a knockout match: 0 = the match's white (A), 1 = black (B).

    The planned sets alternate as in every match (set 1 white, set 2 black, …: :func:`set_starter`); the
    first decider (set ``sets_planned + 1``) is started by ``first_decider_starter`` (``"A"``/``"B"``,
    drawn by lot), later deciders alternate (RULES.md "Knockout matches"). Raises
    :class:`KnockoutSettingsError` for a decider when no lot is given, :class:`ValueError` for a set
    number below 1."""
    if set_number.__class__ is not int or set_number < 1:
        raise ValueError(f"set number must be a positive integer, not {set_number!r}")
    if set_number <= sets_planned:
        return set_starter(set_number)
    if first_decider_starter not in ("A", "B"):
        raise KnockoutSettingsError(
            f"set {set_number} is a decider set: its starter follows the lot for the first decider, which is "
            "not drawn yet"
        )
    first = 0 if first_decider_starter == "A" else 1
    return first if (set_number - sets_planned) % 2 == 1 else 1 - first


def _pair(pair: object, number: int) -> tuple[int, int]:
    try:
        a, b = pair  # type: ignore[misc]
    except (TypeError, ValueError):
        raise MatchSetsError(f"set {number}: expected a pair of stones (A, B), not {pair!r}") from None
    # the stones themselves are checked like those of any set (Kural 1: 48 stones)
    _check_stones(a, f"set {number}: player A's stones")
    _check_stones(b, f"set {number}: player B's stones")
    if a + b != 48:
        raise StonesNotConservedError(f"set {number}: stones {a}-{b} sum to {a + b}, not 48 (Kural 1)")
    return a, b


def _fmt(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"
