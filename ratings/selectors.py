"""Reads of the national rating: the rated sets of tournaments (engine input), the rating list with
its filters, a player's rating history, and the Turkish collation used to sort names.

Every function loads with a fixed number of queries (no query in a loop), Saleor-style: rows are
turned into the engine's value objects (:class:`ratings.engine.RatedSet`, :class:`ratings.engine.Event`)
or into small dataclasses the pages and the API share.
"""
from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from django.db.models import Count, Prefetch, Q, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.errors import ValidationFailed

from federation.models import Player
from ratings.engine import Event, RatedSet, RatingInputError
from ratings.models import RatingChange, RatingEvent, RatingGameLine
from tournaments.models import Match, Round, SetResult, Tournament

# --------------------------------------------------------------------------------------------
# Turkish collation
# --------------------------------------------------------------------------------------------

from federation.collation import TURKISH_ALPHABET, player_sort_key, turkish_lower, turkish_sort_key  # noqa: F401,E402


# --------------------------------------------------------------------------------------------
# Engine input: the rated sets of tournaments
# --------------------------------------------------------------------------------------------


def rating_period(tournament: Tournament) -> dt.date:
    """The date ``tournament`` is rated on: its end date, else its start date, else the (local) day it
    was created — never the publication day, so re-publishing never moves an event in the rating order."""
    if tournament.end_date:
        return tournament.end_date
    if tournament.start_date:
        return tournament.start_date
    return timezone.localdate(tournament.created_at or timezone.now())


def event_key(tournament: Tournament) -> tuple[dt.date, int]:
    """Rating order of tournaments: (rating period, tournament id)."""
    return (rating_period(tournament), tournament.pk)


def rateable_tournaments() -> list[Tournament]:
    """Tournaments the national rating counts: finished, with their final standings published, not archived."""
    qs = Tournament.objects.filter(
        status=Tournament.Status.FINISHED, standings_published_at__isnull=False, archived_at__isnull=True
    )
    return sorted(qs, key=event_key)


def is_rateable(tournament: Tournament) -> bool:
    """Finished, final standings published, not archived (see :func:`rateable_tournaments`)."""
    return (
        tournament.status == Tournament.Status.FINISHED
        and tournament.standings_published_at is not None
        and tournament.archived_at is None
    )


@dataclass(frozen=True, slots=True)
class EventInput:
    """One tournament's rating input: the engine :class:`Event` (id = tournament id, players = player
    ids, one :class:`RatedSet` per played set of a rated match, player A = the set's starter) with
    ``set_ids[i]`` the :class:`SetResult` id of ``event.sets[i]``, and counts of what is not rated."""

    tournament: Tournament
    event: Event
    set_ids: tuple[int, ...]
    forfeits: int = 0
    byes: int = 0
    unrated_matches: int = 0
    matches_without_sets: int = 0


def rating_inputs(tournaments: Sequence[Tournament]) -> list[EventInput]:
    """The :class:`EventInput` of each of ``tournaments`` (same order), in three queries.

    Counted: matches of closed rounds. Not rated: byes, forfeits (FIDE B.02 §2.1: unplayed games are
    not rated), matches marked unrated (``Match.rated`` false), and matches with a result but no sets
    (e.g. imported from TRF): a match gives exactly its recorded sets, never its match points.
    A stored set the engine refuses (e.g. a withdrawal before 25 stones) raises ValidationFailed naming it.
    """
    ids = [t.pk for t in tournaments]
    matches = list(
        Match.objects.filter(round__tournament_id__in=ids, round__status=Round.Status.CLOSED)
        .select_related("white", "black", "round")
        .order_by("round__tournament_id", "round__number", "board")
    )
    sets_by_match: dict[int, list[SetResult]] = defaultdict(list)
    for s in SetResult.objects.filter(match__in=[m.pk for m in matches if m.kind == Match.Kind.GAME]).order_by(
        "match_id", "number"
    ):
        sets_by_match[s.match_id].append(s)
    by_t: dict[int, list[Match]] = defaultdict(list)
    for m in matches:
        by_t[m.round.tournament_id].append(m)

    out = []
    for t in tournaments:
        rated: list[RatedSet] = []
        set_ids: list[int] = []
        counts = {"forfeits": 0, "byes": 0, "unrated_matches": 0, "matches_without_sets": 0}
        for m in by_t.get(t.pk, []):
            if m.kind == Match.Kind.BYE:
                counts["byes"] += 1
                continue
            if m.forfeit:
                counts["forfeits"] += 1
                continue
            if not m.rated:
                counts["unrated_matches"] += 1
                continue
            sets = sets_by_match.get(m.pk, [])
            if not sets:
                if m.white_points is not None:
                    counts["matches_without_sets"] += 1
                continue
            white, black = m.white.player_id, m.black.player_id
            for s in sets:
                w_withdrew = s.termination == SetResult.Termination.WHITE_WITHDREW
                b_withdrew = s.termination == SetResult.Termination.BLACK_WITHDREW
                try:
                    if s.starter == "black":
                        rs = RatedSet(t.pk, black, white, s.black_stones, s.white_stones, b_withdrew, w_withdrew)
                    else:
                        rs = RatedSet(t.pk, white, black, s.white_stones, s.black_stones, w_withdrew, b_withdrew)
                except RatingInputError as exc:
                    raise ValidationFailed(
                        _("%(t)s, round %(r)d, board %(b)d, set %(n)d cannot be rated: %(reason)s")
                        % {"t": t.name, "r": m.round.number, "b": m.board, "n": s.number, "reason": exc},
                        field="sets",
                    ) from exc
                rated.append(rs)
                set_ids.append(s.pk)
        out.append(EventInput(t, Event(t.pk, rating_period(t), tuple(rated)), tuple(set_ids), **counts))
    return out


# --------------------------------------------------------------------------------------------
# Rating list
# --------------------------------------------------------------------------------------------

#: Age groups of the rating list: key -> (label, youngest age, oldest age) with age = year - birth year
#: ("U12": born in year-12 or later, FIDE youth style; "50+": 50 or older during the year).
AGE_GROUPS: dict[str, tuple[str, int | None, int | None]] = {
    "u10": ("U10", None, 10),
    "u12": ("U12", None, 12),
    "u14": ("U14", None, 14),
    "u16": ("U16", None, 16),
    "u18": ("U18", None, 18),
    "u20": ("U20", None, 20),
    "open": ("Open", None, None),
    "50plus": ("50+", 50, None),
    "65plus": ("65+", 65, None),
}


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
RATING_LIST_LAYOUT = 1


class RatingListRows(Sequence):
    """The rating list as a sequence of :class:`RatingListLine` that loads players only for the slice
    asked for (a page of 100: one query), over rows computed once and cached (:func:`rating_list`).
    ``len()`` is the number of lines; indexing and slicing give lines (slices: one query)."""

    def __init__(self, rows: list[tuple]) -> None:
        self._rows = rows  # (rank, player id, rating, sets, status, last period)

    def __len__(self) -> int:
        return len(self._rows)

    def _lines(self, rows: list[tuple]) -> list[RatingListLine]:
        players = Player.objects.select_related("club").in_bulk([r[1] for r in rows])
        return [RatingListLine(rank, players[pid], rating, n, status, period)
                for rank, pid, rating, n, status, period in rows if pid in players]

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self._lines(self._rows[index])
        return self._lines([self._rows[index]])[0]


def _rating_list_rows(filters: RatingFilters, order: str) -> list[tuple]:
    listed = filtered_players(filters).select_related(None).filter(rating__gt=0, active=True, merged_into__isnull=True)
    players = list(listed.only("pk", "rating", "first_name", "last_name", "federation_id"))
    ids = listed.values("pk")  # a subquery: never a list of 45,000 ids in the SQL text
    stats = dict(
        RatingChange.objects.filter(player__in=ids).values("player_id").annotate(n=Sum("sets"))
        .values_list("player_id", "n")
    )
    last_status: dict[int, tuple[dt.date, str]] = {}
    for pid, period, status in (
        RatingChange.objects.filter(player__in=ids)
        .order_by("player_id", "period", "event_id")
        .values_list("player_id", "period", "status_after")
    ):
        last_status[pid] = (period, status)
    players.sort(key=lambda p: (-p.rating, player_sort_key(p)))
    rows = []
    rank = 0
    prev = None
    for i, p in enumerate(players, start=1):
        if p.rating != prev:
            rank, prev = i, p.rating
        period, status = last_status.get(p.pk, (None, "established"))
        rows.append((rank, p.pk, p.rating, int(stats.get(p.pk) or 0), status, period, player_sort_key(p)))
    if order == "name":
        rows.sort(key=lambda row: row[6])
    return [row[:6] for row in rows]


def rating_list(filters: RatingFilters = RatingFilters(), *, order: str = "rating") -> RatingListRows:
    """Rated players (``Player.rating`` > 0, active, not merged) matching ``filters``, as
    :class:`RatingListRows` (a sequence of :class:`RatingListLine`).

    ``order="rating"``: rating (desc), then Turkish name order; ``order="name"``: Turkish name order.
    Ranks count from 1 in rating order; equal ratings share a rank. ``sets`` is the player's total of
    rated sets, ``status`` the status after their last rated event ("established" when the rating
    comes from before the national rating and no event changed it yet).

    The rows are computed in three queries and cached under the ``members`` and ``ratings`` data
    versions (:mod:`federation.versions`: every player or club change and every rating run moves them),
    the filters and the order; a page then costs one more query for its players.
    """
    from django.core.cache import cache

    from federation.versions import current

    members, ratings = current("members", "ratings")
    key = "ratings:list:{}:{}:{}:{}".format(
        RATING_LIST_LAYOUT, members, ratings,
        hashlib.sha1(repr((filters, order)).encode()).hexdigest()[:20],
    )
    rows = cache.get(key)
    if rows is None:
        rows = _rating_list_rows(filters, order)
        cache.set(key, rows)
    return RatingListRows(rows)


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
    for city, club_city in Player.objects.filter(rating__gt=0).values_list("city", "club__city").distinct():
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


def players_in(events: Iterable[EventInput]) -> set:
    """Every player id that plays a rated set in ``events``."""
    out = set()
    for e in events:
        for s in e.event.sets:
            out.add(s.player_a)
            if s.player_b is not None:
                out.add(s.player_b)
    return out
