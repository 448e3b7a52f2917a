"""Value types shared by the pairing systems (pure Python, no Django).

Conventions (FIDE Handbook C.04.1 "Basic rules for Swiss systems", C.04.2 "General handling
rules", TRF-16 result codes of C.04 Annex 2):

* A player is identified by the *pairing id* (starting rank, 1 = top).
* ``PairingPlayer.history`` holds one :class:`RoundRecord` per round already played,
  rounds ``1..r-1`` in order, absences included.
* Scores are in game points (1 / ½ / 0, like chess, unless a :class:`PointSystem` says
  otherwise).
* A pairing-allocated bye is ``Pairing(white=id, black=None)``.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = [
    "BYE_CODES",
    "PLAYED_CODES",
    "Pairing",
    "PairingError",
    "PairingPlayer",
    "PointSystem",
    "RESULT_CODES",
    "RoundRecord",
    "STANDARD_POINTS",
    "record_points",
]

#: TRF-16 result codes accepted in a :class:`RoundRecord` ("" = blank / not entered).
RESULT_CODES = frozenset({"1", "0", "=", "+", "-", "W", "D", "L", "H", "F", "U", "Z", ""})
#: Codes of a game that was actually played over the board (C.04.1 b: only these count as
#: "having played" an opponent and only their colours count, C.04.3 A.6).
PLAYED_CODES = frozenset({"1", "0", "=", "W", "D", "L"})
#: Codes of rounds in which the player was not paired on a board (TRF-16 byes).
BYE_CODES = frozenset({"H", "F", "U", "Z"})

_POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "F": 1.0, "U": 1.0,
           "=": 0.5, "D": 0.5, "H": 0.5,
           "0": 0.0, "-": 0.0, "L": 0.0, "Z": 0.0, "": 0.0}


class PairingError(ValueError):
    """No legal pairing exists (C.04.3 C.1-C.4 cannot all be met) or the input is invalid."""


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """What one player did in one past round.

    ``opponent``: pairing id of the opponent, ``None`` when not paired on a board (bye,
    absence).  ``colour``: ``"w"``, ``"b"`` or ``None``.  ``code``: TRF-16 result code
    (``"1" "0" "=" "+" "-" "W" "D" "L" "H" "F" "U" "Z"`` or ``""`` for blank).
    A forfeit (``+``/``-``) names the opponent but is *not* a played game (C.04.1 b/d).
    """

    opponent: int | None
    colour: str | None
    code: str

    @property
    def played(self) -> bool:
        """True when the game was played over the board (counts for colours and rematches)."""
        return self.opponent is not None and self.code in PLAYED_CODES and self.colour in ("w", "b")

    @property
    def points(self) -> float:
        """Points scored in this round with 1-½-0 scoring (blank counts 0)."""
        return _POINTS[self.code]


@dataclass(frozen=True, slots=True)
class PairingPlayer:
    """A player as seen by a pairing system before round ``r``.

    ``id``: pairing id (starting rank, 1 = top).  ``rating``: for information (the Dutch
    system orders by pairing id, C.04.3 A.2).  ``points``: score before the round being paired
    (game points).  ``history``: rounds ``1..r-1``, one :class:`RoundRecord` each (absences
    included).  ``available``: ``False`` when the player is not to be paired this round
    (withdrawn, pre-assigned bye or absence, C.04.2 B).  ``accelerations``: virtual points for
    pairing only (accelerated pairings, FIDE C.04.5.1 / TRF ``XXA``), ``accelerations[i]`` for
    round ``i + 1``; rounds beyond the tuple count 0.
    """

    id: int
    rating: int
    points: float
    history: tuple[RoundRecord, ...]
    available: bool = True
    accelerations: tuple[float, ...] = ()


@dataclass(frozen=True, slots=True)
class Pairing:
    """One board of a round: ``white`` v ``black``; ``black is None`` for the
    pairing-allocated bye (C.04.1 c) given to ``white``."""

    white: int
    black: int | None


@dataclass(frozen=True, slots=True)
class PointSystem:
    """Points each kind of round result is worth, for the scores a pairing system derives from
    the history (score groups of past rounds, floats, bye eligibility).

    Fields (points, floats): ``win`` (``1 + W`` and a forfeit win ``+`` against an opponent, a
    full-point bye ``F``), ``draw`` (``= D`` and a half-point bye ``H``), ``loss`` (a played
    loss ``0 L``), ``zero_bye`` (a zero-point bye ``Z``, an absence or a blank cell without an
    opponent), ``forfeit_loss`` (``-`` or a blank code against a named opponent), ``pab`` (the
    pairing-allocated bye ``U``, or ``+`` without an opponent; ``None`` = the value of a win).

    Source: the bbpPairings v6 (TRF(bx)) point-system extension ``BBW BBD BBL BBZ BBF BBU`` and
    TRF-2026 tag ``162``; the classification of a result follows bbpPairings v6
    ``Tournament::getPoints``.  The defaults are the standard 1-½-0 (C.04.1).
    """

    win: float = 1.0
    draw: float = 0.5
    loss: float = 0.0
    zero_bye: float = 0.0
    forfeit_loss: float = 0.0
    pab: float | None = None

    @property
    def pab_points(self) -> float:
        """Value of a pairing-allocated bye (``pab``, or ``win`` when not set)."""
        return self.win if self.pab is None else self.pab

    @classmethod
    def from_mapping(cls, values: Mapping[str, float]) -> PointSystem:
        """Build from TRF point-system keys ``W D L Z F U`` (only those given; the rest keep the
        defaults, ``U`` defaulting to ``W`` as in bbpPairings v6).  Raises :class:`PairingError`
        for another key or a negative value."""
        names = {"W": "win", "D": "draw", "L": "loss", "Z": "zero_bye", "F": "forfeit_loss", "U": "pab"}
        kwargs: dict[str, float] = {}
        for key, value in values.items():
            if key not in names:
                raise PairingError(f"point system: unknown result key {key!r} (expected W D L Z F U)")
            if value < 0:
                raise PairingError(f"point system: {key} is worth {value}, a negative number of points")
            kwargs[names[key]] = float(value)
        return cls(**kwargs)

    def points(self, rec: RoundRecord) -> float:
        """Points of one round record under this system (bbpPairings v6 ``getPoints``).

        Raises :class:`PairingError` for an unknown result code.
        """
        code = rec.code
        if code in ("1", "+", "W", "F", "U"):
            if rec.opponent is None and code in ("U", "+"):
                return self.pab_points
            return self.win
        if code in ("=", "D", "H"):
            return self.draw
        if code in ("0", "-", "L", "Z", ""):
            if rec.opponent is None:
                return self.zero_bye
            return self.loss if rec.played else self.forfeit_loss
        raise PairingError(f"unknown result code {code!r}")

    @property
    def is_standard(self) -> bool:
        """True for 1-½-0 with zero for byes and forfeit losses and a full-point PAB."""
        return self == PointSystem() or self == PointSystem(pab=1.0)


#: The standard 1-½-0 point system.
STANDARD_POINTS = PointSystem()


def record_points(rec: RoundRecord) -> float:
    """Points for a round record (1-½-0; pairing-allocated bye = 1, C.04.1 c). Raises
    :class:`PairingError` for an unknown code."""
    try:
        return _POINTS[rec.code]
    except KeyError:
        raise PairingError(f"unknown result code {rec.code!r}") from None
