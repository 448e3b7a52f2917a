"""Value objects of the standings core: round results in, standing rows out.

Conventions (read these before using the package):

* A **round entry** is one player's result in one round of an individual event. ``points`` are
  *match points* (Mangala: a match of up to three sets; win 1, draw ½, loss 0 — RULES.md
  "Match and tournament scoring"). Every value is 0, 0.5 or 1.
* ``colour`` is ``"w"`` (the side marked white, which starts sets 1 and 3) or ``"b"``; ``None``
  when unknown or unpaired.
* ``set_points`` is the player's set-point total in the match (set win 1, drawn set ½, lost set 0);
  ``stone_margin`` is Σ over the sets of (own stones − 24) — RULES.md "Stone margin". ``None`` means
  "no set detail recorded"; it then contributes nothing to the Mangala tie-breaks.
* Round kinds follow FIDE C.07 (2023 text, Art. 16.1–16.2) vocabulary:

  ================  =========================================  ==========  ==============
  kind              meaning                                    points      C.07 category
  ================  =========================================  ==========  ==============
  PLAYED            match played over the board                0, ½, 1     —
  FORFEIT_WIN       paired, opponent did not play              1           16.2.2
  FORFEIT_LOSS      paired, did not play (or both forfeited)   0           16.2.4 (VUR)
  PAIRING_BYE       pairing-allocated bye (PAB)                0, ½, 1 *   16.2.1
  FULL_BYE          full-point bye (e.g. on federation duty)   1           16.2.1
  HALF_BYE          requested half-point bye                   ½           16.2.3/16.2.5
  ZERO_BYE          requested zero-point bye                   0           16.2.3/16.2.5
  ABSENT            not paired (missed round, withdrawn)       0           as ZERO_BYE
  ================  =========================================  ==========  ==============

  (*) the organiser sets the value of a PAB (C.04.1); 1 is the default.
  C.07 Art. 16.1: "any round after a participant withdraws is a zero-point bye", so ABSENT is
  treated exactly as ZERO_BYE. A *voluntarily unplayed round* (VUR) is a requested bye
  (HALF_BYE, ZERO_BYE, ABSENT) or a FORFEIT_LOSS.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass


class StandingsError(ValueError):
    """Input the standings core cannot rank: unknown tie-break key, unknown opponent id,
    asymmetric pairing, points that do not fit the round kind, duplicate rounds or players.

    The message names the player id and round so that a user can correct the result."""


class RoundKind(enum.Enum):
    """What happened to one player in one round (see the module docstring table)."""

    PLAYED = "played"
    FORFEIT_WIN = "forfeit_win"
    FORFEIT_LOSS = "forfeit_loss"
    PAIRING_BYE = "pairing_bye"
    HALF_BYE = "half_bye"
    FULL_BYE = "full_bye"
    ZERO_BYE = "zero_bye"
    ABSENT = "absent"

    @property
    def paired(self) -> bool:
        """True for kinds that have an opponent (PLAYED, FORFEIT_WIN, FORFEIT_LOSS)."""
        return self in _PAIRED

    @property
    def voluntarily_unplayed(self) -> bool:
        """True for a VUR (C.07 Art. 16.1): requested bye, absence or forfeit loss."""
        return self in _VUR

    @property
    def requested_bye(self) -> bool:
        """True for HALF_BYE, ZERO_BYE and ABSENT (C.07 Art. 16.1 "requested bye")."""
        return self in _REQUESTED_BYE


_PAIRED = frozenset({RoundKind.PLAYED, RoundKind.FORFEIT_WIN, RoundKind.FORFEIT_LOSS})
_REQUESTED_BYE = frozenset({RoundKind.HALF_BYE, RoundKind.ZERO_BYE, RoundKind.ABSENT})
_VUR = _REQUESTED_BYE | {RoundKind.FORFEIT_LOSS}


@dataclass(frozen=True, slots=True)
class RoundEntry:
    """One player's result in one round.

    ``round`` is 1-based. ``points`` are match points (0, 0.5, 1). ``opponent`` is the opponent's
    player id for paired kinds, else ``None``. ``set_points``/``stone_margin``: Mangala set detail
    of a played match (``None`` = not recorded)."""

    round: int
    kind: RoundKind
    points: float
    opponent: int | None = None
    colour: str | None = None
    set_points: float | None = None
    stone_margin: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A participant: id (unique in the event), name, rating and round entries.

    ``rounds`` holds at most one entry per round; a round without an entry is ABSENT."""

    id: int
    name: str
    rating: int
    rounds: tuple[RoundEntry, ...]


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings.

    ``rank`` is 1-based; tied rows share the rank number and the next rank skips
    (1, 2, 2, 4). ``points`` are match points. ``tiebreaks`` holds one value per requested
    tie-break key, in the requested order. ``shared`` is True when the row could not be
    separated from another row by points and the whole tie-break list."""

    rank: int
    player_id: int
    points: float
    tiebreaks: tuple[float, ...]
    shared: bool


__all__ = [
    "PlayerRecord",
    "RoundEntry",
    "RoundKind",
    "StandingRow",
    "StandingsError",
]
