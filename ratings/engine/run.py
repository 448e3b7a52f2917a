"""Running a rating system over events: :class:`Rater` (incremental) and :func:`rate_events` (batch).

Events are rated one after another in (date, id) order; inside an event every set is rated against the
ratings at the start of the event (FIDE B.02 rating period), and per-player sums are taken with
``math.fsum`` so that the result does not depend on the order of the sets at all (bit for bit).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from .elo import MarginElo
from .types import Event, HistoryEntry, InvalidEventError, Player, PlayerRating, RatingRun

__all__ = ["RatingSystem", "Rater", "rate_events"]


class RatingSystem(Protocol):
    """What :class:`Rater` needs from a rating system (implemented by Elo, MarginElo and Glicko2)."""

    name: str

    def new_state(self, player: Player, initial: float | PlayerRating | None) -> Any: ...

    def rate_event(
        self, event: Event, states: dict[Player, Any], history: bool
    ) -> dict[Player, HistoryEntry] | None: ...

    def expected(self, sa: Any, sb: Any, on: Any = None) -> float: ...

    def rating_of(self, st: Any) -> float: ...

    def player_rating(self, player: Player, st: Any) -> PlayerRating: ...


class Rater:
    """Incremental rating run: feed events in time order with :meth:`rate`, ask :meth:`expected` between.

    ``initial``: player -> published rating (float) or :class:`PlayerRating`; players not in it start
    unrated. The walk-forward evaluation uses this to predict an event's sets before rating them.
    """

    def __init__(
        self,
        system: RatingSystem | None = None,
        initial: Mapping[Player, float | PlayerRating] | None = None,
        *,
        history: bool = True,
    ) -> None:
        self.system = system if system is not None else MarginElo()
        self.initial = dict(initial) if initial else {}
        self.keep_history = history
        self.states: dict[Player, Any] = {}
        self.history: dict[Player, list[HistoryEntry]] = {}
        self.events = 0
        self.rated_sets = 0
        self.unrated_sets = 0
        self._seen_ids: set[Any] = set()
        self._last_key: tuple[Any, Any] | None = None

    def _state(self, player: Player) -> Any:
        st = self.states.get(player)
        if st is None:
            st = self.states[player] = self.system.new_state(player, self.initial.get(player))
        return st

    def expected(self, a: Player, b: Player, on: Any = None) -> float:
        """The system's expected score of ``a`` against ``b`` now (new players at their starting values);
        ``on`` is the date of the game (Glicko-2 inflates deviations for idle periods up to it)."""
        sa = self.states.get(a)
        if sa is None:
            sa = self.system.new_state(a, self.initial.get(a))
        sb = self.states.get(b)
        if sb is None:
            sb = self.system.new_state(b, self.initial.get(b))
        return self.system.expected(sa, sb, on)

    def rating(self, player: Player) -> float:
        """Current rating of ``player`` (the starting value if not yet seen)."""
        st = self.states.get(player)
        if st is None:
            st = self.system.new_state(player, self.initial.get(player))
        return self.system.rating_of(st)

    def rate(self, event: Event) -> dict[Player, HistoryEntry] | None:
        """Rate one event; it must not precede the previous one in (date, id) order.

        Raises :class:`InvalidEventError` for a repeated event id or an event out of order.
        """
        if event.id in self._seen_ids:
            raise InvalidEventError(f"event {event.id!r} rated twice")
        key = (event.date, event.id)
        if self._last_key is not None and event.date < self._last_key[0]:
            raise InvalidEventError(
                f"event {event.id!r} of {event.date} comes after event {self._last_key[1]!r} of "
                f"{self._last_key[0]}"
            )
        self._seen_ids.add(event.id)
        self._last_key = key
        n_rated = 0
        state = self._state
        for s in event.sets:
            if s.player_b is None or s.forfeit:
                self.unrated_sets += 1
                continue
            n_rated += 1
            state(s.player_a)
            state(s.player_b)
        self.rated_sets += n_rated
        self.events += 1
        entries = self.system.rate_event(event, self.states, self.keep_history)
        if entries is not None:
            hist = self.history
            for pl, entry in entries.items():
                h = hist.get(pl)
                if h is None:
                    hist[pl] = [entry]
                else:
                    h.append(entry)
        return entries

    def result(self) -> RatingRun:
        """The run so far as an immutable :class:`RatingRun`."""
        pr = self.system.player_rating
        return RatingRun(
            system=self.system.name,
            ratings={pl: pr(pl, st) for pl, st in self.states.items()},
            history={pl: tuple(h) for pl, h in self.history.items()},
            events=self.events,
            rated_sets=self.rated_sets,
            unrated_sets=self.unrated_sets,
        )


def _event_key(e: Event) -> tuple[Any, str, Any]:
    return (e.date, type(e.id).__name__, e.id)


def rate_events(
    events: Iterable[Event],
    system: RatingSystem | None = None,
    initial: Mapping[Player, float | PlayerRating] | None = None,
    *,
    history: bool = True,
) -> RatingRun:
    """Full re-rating: rate ``events`` in (date, id) order with ``system`` (default :class:`MarginElo`).

    ``initial``: player -> published rating (float, treated as established) or :class:`PlayerRating`;
    everyone else starts unrated. ``history=False`` skips the per-player history (faster, less memory).
    Pure and deterministic: the same input gives an equal :class:`RatingRun`, whatever the order of the
    events in the iterable and of the sets inside an event. Input errors: :class:`InvalidEventError`
    (duplicate event id), plus the errors of :class:`~ratings.engine.RatedSet`/:class:`~ratings.engine.Event`.
    """
    evs = list(events)
    for e in evs:
        if not isinstance(e, Event):
            raise InvalidEventError(f"not an Event: {e!r}")
    evs.sort(key=_event_key)
    rater = Rater(system, initial, history=history)
    for e in evs:
        rater.rate(e)
    return rater.result()
