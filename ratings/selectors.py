"""Reads of the national rating: the rating list with its filters, a player's rating history, the rated
events, and the Turkish collation used to sort names. The rating run's input is :mod:`ratings.inputs`,
the parameter sets' reads :mod:`ratings.parameters.selectors`, the official lists' :mod:`ratings.lists.selectors`.

Every function loads with a fixed number of queries (no query in a loop), Saleor-style: rows are
turned into the engine's value objects (:class:`ratings.engine.RatedSet`, :class:`ratings.engine.Event`)
or into small dataclasses the pages and the API share.
"""
from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Sequence

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone

from federation.models import Player
from federation.privacy import AGE_GROUPS
from ratings.models import RatingChange, RatingEvent, RatingGameLine
from tournaments.models import Tournament

# --------------------------------------------------------------------------------------------
# Turkish collation
# --------------------------------------------------------------------------------------------

from federation.collation import TURKISH_ALPHABET, player_sort_key, turkish_lower, turkish_sort_key  # noqa: F401,E402


# --------------------------------------------------------------------------------------------
# Rating list
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class RatingFilters:
    """Filters of the rating list; empty strings mean "all". ``age`` is a key of :data:`AGE_GROUPS`;
    ``year`` the season the ages are counted in (default: this year)."""

    club: str = ""
    city: str = ""
    sex: str = ""
    age: str = ""
    search: str = ""
    year: int | None = None


@dataclass(frozen=True, slots=True)
class RatingListLine:
    rank: int
    player: Player
    rating: int
    sets: int
    status: str
    last_period: dt.date | None


def age_bounds(age: str, year: int) -> tuple[int | None, int | None]:
    """Birth-year bounds (min, max, inclusive) of age group ``age`` in ``year``; ``ValueError`` if unknown."""
    if age not in AGE_GROUPS:
        raise ValueError(f"unknown age group {age!r}; valid: {', '.join(AGE_GROUPS)}")
    _label, youngest, oldest = AGE_GROUPS[age]
    lo = year - oldest if oldest is not None else None
    hi = year - youngest if youngest is not None else None
    return lo, hi


def filtered_players(filters: RatingFilters) -> QuerySet[Player]:
    """Players matching ``filters`` (club id or short name, city, sex, age group, name words)."""
    qs = Player.objects.select_related("club")
    if filters.club:
        from federation.selectors import club_q

        qs = qs.filter(club_q(filters.club))
    if filters.city:
        from federation.selectors import city_q

        qs = qs.filter(city_q(filters.city) | (Q(city="") & city_q(filters.city, field="club__city")))
    if filters.sex in ("m", "f"):
        qs = qs.filter(sex=filters.sex)
    if filters.age and filters.age != "open":
        year = filters.year or timezone.localdate().year
        lo, hi = age_bounds(filters.age, year)
        if lo is not None:
            qs = qs.filter(birth_year__gte=lo)
        if hi is not None:
            qs = qs.filter(birth_year__lte=hi)
    if filters.search:
        from federation.selectors import player_search_q

        qs = qs.filter(player_search_q(filters.search))  # Turkish case rules; bounded: 6 words, 100 characters
    return qs


#: Bumped when the shape of the cached rating list rows changes.
RATING_LIST_LAYOUT = 2


def _listed(filters: RatingFilters) -> QuerySet[Player]:
    """The players on the rating list with ``filters``: rated (``rating`` > 0), active, not merged."""
    return filtered_players(filters).select_related(None).filter(rating__gt=0, active=True, merged_into__isnull=True)


class RatingListRows(Sequence):
    """The rating list as a sequence of :class:`RatingListLine`, read from the database a slice at a
    time: the database sorts (``Player.sort_key`` holds the Turkish name order, indexed with the
    rating) and paginates, so a page of 100 costs the same at 500 and at 50,000 players.

    ``len()``: the number of lines (from the rating histogram, one query, cached). A slice: the
    players of that slice with their rated sets and last status (two queries, the rows cached), then
    the players with their clubs (one query). Ranks come from the histogram: 1 + the number of listed
    players with a higher rating (equal ratings share a rank).
    """

    def __init__(self, filters: RatingFilters, order: str, cache_key: str) -> None:
        self._filters = filters
        self._order = order
        self._key = cache_key
        self._qs: QuerySet[Player] | None = None
        self._ranks: dict[int, int] | None = None
        self._total = 0

    def _listed(self) -> QuerySet[Player]:
        if self._qs is None:
            self._qs = _listed(self._filters)
        return self._qs

    def _histogram(self) -> None:
        if self._ranks is not None:
            return
        from django.core.cache import cache

        key = f"{self._key}:histogram"
        counts = cache.get(key)
        if counts is None:
            counts = sorted(
                self._listed().order_by().values("rating").annotate(n=Count("pk")).values_list("rating", "n"),
                reverse=True,
            )
            cache.set(key, counts)
        ranks, above = {}, 0
        for rating, n in counts:
            ranks[rating] = above + 1
            above += n
        self._ranks, self._total = ranks, above

    def __len__(self) -> int:
        self._histogram()
        return self._total

    def _rows(self, start: int, stop: int) -> list[tuple]:
        """``(rank, player id, rating, sets, status, last period)`` of lines ``start`` to ``stop``."""
        from django.core.cache import cache

        self._histogram()
        start, stop = max(0, start), min(stop, self._total)
        if start >= stop:
            return []
        key = f"{self._key}:rows:{start}:{stop}"
        rows = cache.get(key)
        if rows is not None:
            return rows
        order = ("sort_key",) if self._order == "name" else ("-rating", "sort_key")
        page = list(self._listed().order_by(*order).values_list("pk", "rating")[start:stop])
        sets: dict[int, int] = defaultdict(int)
        last_status: dict[int, tuple[dt.date, str]] = {}
        for pid, period, status, n in (
            RatingChange.objects.filter(player_id__in=[pid for pid, _r in page])
            .order_by("player_id", "period", "event_id")
            .values_list("player_id", "period", "status_after", "sets")
        ):
            sets[pid] += n
            last_status[pid] = (period, status)
        rows = []
        for pid, rating in page:
            period, status = last_status.get(pid, (None, "established"))
            rows.append((self._ranks[rating], pid, rating, sets.get(pid, 0), status, period))
        cache.set(key, rows)
        return rows

    def _lines(self, rows: list[tuple]) -> list[RatingListLine]:
        if not rows:
            return []
        players = Player.objects.select_related("club").in_bulk([r[1] for r in rows])
        return [RatingListLine(rank, players[pid], rating, n, status, period)
                for rank, pid, rating, n, status, period in rows if pid in players]

    def __getitem__(self, index):
        if isinstance(index, slice):
            span = range(len(self))[index]
            if not span:
                return []
            if span.step == 1:
                return self._lines(self._rows(span.start, span.stop))
            lo, hi = min(span), max(span) + 1
            rows = self._rows(lo, hi)
            return self._lines([rows[i - lo] for i in span])
        if not isinstance(index, int):
            raise TypeError(f"rating list indices must be integers or slices, not {type(index).__name__}")
        position = range(len(self))[index]  # IndexError out of range
        return self._lines(self._rows(position, position + 1))[0]


def rating_list(filters: RatingFilters = RatingFilters(), *, order: str = "rating") -> RatingListRows:
    """Rated players (``Player.rating`` > 0, active, not merged) matching ``filters``, as
    :class:`RatingListRows` (a sequence of :class:`RatingListLine`).

    ``order="rating"``: rating (desc), then Turkish name order; ``order="name"``: Turkish name order
    (``Player.sort_key``, :func:`federation.collation.player_sort_key` as text; by code point on
    SQLite and PostgreSQL alike).
    Ranks count from 1 in rating order; equal ratings share a rank. ``sets`` is the player's total of
    rated sets, ``status`` the status after their last rated event ("established" when the rating
    comes from before the national rating and no event changed it yet).

    The database sorts and paginates: the length and ranks take one query (a histogram of ratings), a
    page three (its rows, their rating changes, the players with their clubs). The histogram and each
    slice's rows are cached under the ``members`` and ``ratings`` data versions
    (:mod:`federation.versions`: every player or club change and every rating run moves them), the
    filters and the order; a cached page then costs one query for its players.
    """
    from federation.versions import current

    members, ratings = current("members", "ratings")
    key = "ratings:list:{}:{}:{}:{}".format(
        RATING_LIST_LAYOUT, members, ratings,
        hashlib.sha1(repr((filters, order)).encode()).hexdigest()[:20],
    )
    return RatingListRows(filters, order, key)


def rating_cities() -> list[str]:
    """Cities of rated players (own city, else the club's), in Turkish order; cached under the
    ``members`` and ``ratings`` data versions like :func:`rating_list`."""
    from django.core.cache import cache

    from federation.versions import current

    key = "ratings:cities:{}:{}:{}".format(RATING_LIST_LAYOUT, *current("members", "ratings"))
    cached = cache.get(key)
    if cached is not None:
        return cached
    cities = set()
    for city, club_city in Player.objects.filter(rating__gt=0).order_by().values_list("city", "club__city").distinct():
        if city or club_city:
            cities.add(city or club_city)
    result = sorted(cities, key=turkish_sort_key)
    cache.set(key, result)
    return result


# --------------------------------------------------------------------------------------------
# A player's history
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One rated set on a player's card (see :class:`ratings.models.RatingGameLine`)."""

    round: int
    set_number: int
    opponent: Player
    opponent_rating: float
    own_stones: int
    opponent_stones: int
    score: float
    result_score: float
    margin: int
    expected: float
    delta: float


@dataclass(frozen=True, slots=True)
class HistoryEvent:
    """A player's record of one rated event, with its lines in round and set order."""

    tournament: Tournament
    period: dt.date
    rating_before: float
    rating_after: float
    status_before: str
    status_after: str
    sets: int
    lines: tuple[HistoryLine, ...] = field(default=())
    matches_without_sets: int = 0

    @property
    def change(self) -> float:
        return self.rating_after - self.rating_before


def player_history(player: Player) -> list[HistoryEvent]:
    """``player``'s rated events in rating order (oldest first), with every line, in two queries."""
    changes = (
        RatingChange.objects.filter(player=player)
        .select_related("event__tournament")
        .prefetch_related(
            Prefetch(
                "lines",
                queryset=RatingGameLine.objects.select_related(
                    "opponent", "set_result__match__round", "set_result__match__white"
                ).order_by("set_result__match__round__number", "set_result__number"),
            )
        )
        .order_by("period", "event__tournament_id")
    )
    events = []
    for c in changes:
        lines = []
        for ln in c.lines.all():
            s = ln.set_result
            is_white = s.match.white.player_id == player.pk
            own, opp = (s.white_stones, s.black_stones) if is_white else (s.black_stones, s.white_stones)
            lines.append(
                HistoryLine(
                    round=s.match.round.number, set_number=s.number, opponent=ln.opponent,
                    opponent_rating=ln.opponent_rating, own_stones=own, opponent_stones=opp,
                    score=float(ln.score), result_score=ln.result_score, margin=ln.margin,
                    expected=ln.expected, delta=ln.delta,
                )
            )
        events.append(
            HistoryEvent(
                tournament=c.event.tournament, period=c.period, rating_before=c.rating_before,
                rating_after=c.rating_after, status_before=c.status_before, status_after=c.status_after,
                sets=c.sets, lines=tuple(lines), matches_without_sets=c.event.matches_without_sets,
            )
        )
    return events


def rating_event_changes(tournament: Tournament) -> list[RatingChange]:
    """The rating changes of one rated tournament, biggest gain first (empty if not rated)."""
    return sorted(
        RatingChange.objects.filter(event__tournament=tournament).select_related("player__club"),
        key=lambda c: (-(c.rating_after - c.rating_before), player_sort_key(c.player)),
    )


def rating_events() -> QuerySet[RatingEvent]:
    """Rated events, newest first."""
    return RatingEvent.objects.select_related("tournament").order_by("-period", "-tournament_id")


