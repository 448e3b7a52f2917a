"""Value objects of the rating engine: rated sets, events, history lines and the run result.

Conventions (see docs/ratings.md):

- A *player* is any hashable id (an ``int`` member number or a ``str``); the engine never looks inside it.
- Every **set** of a match is one rated game. Match points are never rated a second time.
- Stones are the numbers recorded in the two stores at the end of the set (always 48 in total, RULES.md
  "End of a set"). The **margin** of a player is ``own stones - 24`` (Kural 14.4): +12 for a 36-12 win,
  -12 for the loser, 0 for a 24-24 draw. A set the *winner* left by withdrawal (Kural 14.5) counts as +1 / -1
  whatever the stones were.
- Forfeited sets and byes are carried so that an event can be given as recorded, but they are never rated.
- Ratings are in rating points on the 400 scale (a 400-point difference is 10:1 odds).
"""
from __future__ import annotations

import datetime as _dt
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "TOTAL_STONES",
    "HALF_STONES",
    "RatingInputError",
    "InvalidSetError",
    "InvalidEventError",
    "RatedSet",
    "Event",
    "SetLine",
    "HistoryEntry",
    "PlayerRating",
    "RatingRun",
    "Player",
]

Player = Hashable
"""A player id: any hashable value (member number or string)."""

TOTAL_STONES = 48
"""Stones on a Mangala board: 12 pits x 4 (RULES.md "Board and notation")."""

HALF_STONES = 24
"""Stones of a drawn set per player; the margin is ``own stones - 24`` (Kural 14.4)."""


class RatingInputError(ValueError):
    """Base class of the rating engine's input errors (bad sets, events or initial ratings)."""


class InvalidSetError(RatingInputError):
    """A :class:`RatedSet` whose stones, withdrawal flags or players are impossible."""


class InvalidEventError(RatingInputError):
    """An :class:`Event` that cannot be rated (a set of another event, a duplicate event id, ...)."""


@dataclass(frozen=True, slots=True)
class RatedSet:
    """The result of one set between ``player_a`` and ``player_b`` as recorded by the arbiter.

    ``a_stones`` / ``b_stones`` are the final store counts (0..48, together 48). For a withdrawal the
    recorded score of Kural 14.5 is expected: winner withdrew -> 25-23 (any stones with the winner >= 25
    are accepted, the margin is +1 anyway); loser withdrew -> the pit stones credited to the winner
    (e.g. 36-12). Withdrawal is only possible once a player has >= 25 stones (Kural 14.5); otherwise
    :class:`InvalidSetError` is raised.

    ``forfeit=True`` marks a set not played (walk-over); ``player_b=None`` marks a bye. Both are
    accepted and never rated (FIDE B.02 §2.1: unplayed games are not rated), but validated like any
    set: their stones (default 24-24) must be integers in 0..48 adding up to 48, with no withdrawal.

    Raises :class:`InvalidSetError` on: the same player on both sides, non-integer stones, stones outside
    0..48, a set whose stones do not add up to 48 (only a winner's withdrawal may add up to less), both
    players withdrawing, a withdrawal in an unplayed set, or a withdrawal before anyone reached 25 stones.
    """

    event_id: Any
    player_a: Player
    player_b: Player | None
    a_stones: int = HALF_STONES
    b_stones: int = HALF_STONES
    a_withdrew: bool = False
    b_withdrew: bool = False
    forfeit: bool = False

    def __post_init__(self) -> None:
        if self.player_b is not None and self.player_a == self.player_b:
            raise InvalidSetError(f"set of event {self.event_id!r}: player {self.player_a!r} plays himself")
        a, b = self.a_stones, self.b_stones
        # every set is validated, rated or not: a forfeit or a bye is stored and shown too
        if type(a) is not int or type(b) is not int:
            raise InvalidSetError(f"set of event {self.event_id!r}: stones must be integers, got {a!r}-{b!r}")
        if not (0 <= a <= TOTAL_STONES and 0 <= b <= TOTAL_STONES):
            raise InvalidSetError(f"set of event {self.event_id!r}: stones {a}-{b} outside 0..48")
        if self.player_b is None or self.forfeit:
            if self.a_withdrew or self.b_withdrew:
                raise InvalidSetError(
                    f"set of event {self.event_id!r}: a {'bye' if self.player_b is None else 'forfeit'} has no withdrawal"
                )
            if a + b != TOTAL_STONES:
                raise InvalidSetError(
                    f"set of event {self.event_id!r}: stones {a}-{b} of an unplayed set add up to {a + b}, not 48"
                )
            return
        if self.a_withdrew and self.b_withdrew:
            raise InvalidSetError(f"set of event {self.event_id!r}: both players cannot withdraw")
        if self.a_withdrew or self.b_withdrew:
            if max(a, b) < 25:
                raise InvalidSetError(
                    f"set of event {self.event_id!r}: withdrawal at {a}-{b} before anyone reached 25 stones"
                    " (Kural 14.5)"
                )
            winner_withdrew = (self.a_withdrew and a > b) or (self.b_withdrew and b > a)
            if winner_withdrew:
                if a + b > TOTAL_STONES:
                    raise InvalidSetError(f"set of event {self.event_id!r}: stones {a}-{b} exceed 48")
                return
        if a + b != TOTAL_STONES:
            raise InvalidSetError(
                f"set of event {self.event_id!r}: stones {a}-{b} add up to {a + b}, not 48"
            )

    @classmethod
    def from_margin(cls, event_id: Any, player_a: Player, player_b: Player, margin: int) -> "RatedSet":
        """A played set given by ``player_a``'s margin (-24..24): stones ``24 + margin`` to ``24 - margin``."""
        if type(margin) is not int or not -HALF_STONES <= margin <= HALF_STONES:
            raise InvalidSetError(f"set of event {event_id!r}: margin {margin!r} outside -24..24")
        return cls(event_id, player_a, player_b, HALF_STONES + margin, HALF_STONES - margin)

    @property
    def rated(self) -> bool:
        """False for forfeits and byes, which never change a rating."""
        return self.player_b is not None and not self.forfeit

    @property
    def margin(self) -> int:
        """``player_a``'s stone margin (Kural 14.4): own stones - 24, or +-1 when the winner withdrew."""
        a, b = self.a_stones, self.b_stones
        if (self.a_withdrew and a > b) or (self.b_withdrew and b > a):
            return 1 if a > b else -1
        return a - HALF_STONES

    @property
    def score(self) -> float:
        """``player_a``'s set result: 1 win, 0.5 draw (24-24), 0 loss."""
        a, b = self.a_stones, self.b_stones
        return 1.0 if a > b else (0.0 if a < b else 0.5)


@dataclass(frozen=True, slots=True)
class Event:
    """A rated event (tournament, league round) played on ``date``: one rating period (FIDE B.02 §7).

    All its sets are rated against the ratings at the start of the event, so their order does not matter.
    Every set's ``event_id`` must equal ``id`` (else :class:`InvalidEventError`).
    """

    id: Any
    date: _dt.date
    sets: tuple[RatedSet, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.date, _dt.date):
            raise InvalidEventError(f"event {self.id!r}: date must be a datetime.date, got {self.date!r}")
        if not isinstance(self.sets, tuple):
            object.__setattr__(self, "sets", tuple(self.sets))
        for i, s in enumerate(self.sets, 1):
            if not isinstance(s, RatedSet):
                raise InvalidEventError(f"event {self.id!r}, set {i}: not a RatedSet: {s!r}")
            if s.event_id != self.id:
                raise InvalidEventError(
                    f"event {self.id!r}, set {i}: belongs to event {s.event_id!r}"
                )


@dataclass(frozen=True, slots=True)
class SetLine:
    """One rated set seen from one player, as printed on a rating card.

    ``opponent_rating`` is the opponent's rating at the start of the event; ``score`` the result score used
    by the system (for margin Elo the blend of set result and margin, see docs/ratings.md); ``margin`` the
    player's own stone margin; ``expected`` the expected score; ``change`` this set's share of the rating
    change in rating points (0.0 when the set does not change this player's rating, e.g. while unrated).
    """

    opponent: Player
    opponent_rating: float
    score: float
    margin: int
    expected: float
    change: float


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """A player's rating record for one event: rating before and after, and the per-set lines.

    ``status_before`` / ``status_after`` are ``"unrated"``, ``"provisional"`` or ``"established"``.
    ``deviation_after`` is the Glicko-2 rating deviation (rating points), ``None`` for Elo systems.
    """

    event_id: Any
    date: _dt.date
    rating_before: float
    rating_after: float
    status_before: str
    status_after: str
    lines: tuple[SetLine, ...]
    deviation_after: float | None = None

    @property
    def change(self) -> float:
        """``rating_after - rating_before`` in rating points."""
        return self.rating_after - self.rating_before


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's rating after the run: ``rating`` points, ``sets`` rated sets played, ``status``.

    ``deviation`` and ``volatility`` are set by Glicko-2 only (deviation in rating points).
    """

    player: Player
    rating: float
    sets: int
    status: str
    deviation: float | None = None
    volatility: float | None = None


@dataclass(frozen=True, slots=True)
class RatingRun:
    """The result of :func:`ratings.engine.rate_events`.

    ``ratings``: player -> :class:`PlayerRating` (players in order of first appearance);
    ``history``: player -> tuple of :class:`HistoryEntry` in event order (empty mapping when the run
    was made with ``history=False``); ``events`` / ``rated_sets`` / ``unrated_sets`` are counts
    (unrated = forfeits and byes).
    """

    system: str
    ratings: Mapping[Player, PlayerRating]
    history: Mapping[Player, tuple[HistoryEntry, ...]]
    events: int
    rated_sets: int
    unrated_sets: int

    def rating(self, player: Player) -> float:
        """The final rating of ``player``; ``KeyError`` if the player never played a rated set."""
        return self.ratings[player].rating
