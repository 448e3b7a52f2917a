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

from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.errors import ValidationFailed
from federation.privacy import AGE_GROUPS

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
    """The :class:`EventInput` of each of ``tournaments`` (same order), in two queries (rows streamed).

    Counted: matches of closed rounds. Not rated: byes, forfeits (FIDE B.02 §2.1: unplayed games are
    not rated), matches marked unrated (``Match.rated`` false), and matches with a result but no sets
    (e.g. imported from TRF): a match gives exactly its recorded sets, never its match points.
    A stored set the engine refuses (e.g. a withdrawal before 25 stones) raises ValidationFailed naming it.
    """
    ids = [t.pk for t in tournaments]
    closed = {"round__tournament_id__in": ids, "round__status": Round.Status.CLOSED}
    # plain tuples, streamed: at national scale 400,000 matches and 1,000,000 sets (model instances and a
    # list of every match id in the SQL text took minutes)
    matches = (
        Match.objects.filter(**closed).order_by("round__tournament_id", "round__number", "board")
        .values_list("pk", "round__tournament_id", "round__number", "board", "kind", "forfeit", "rated", "white_points",
                     "white__player_id", "black__player_id")
        .iterator(chunk_size=20000)
    )
    by_t: dict[int, list[tuple]] = defaultdict(list)
    for m in matches:
        by_t[m[1]].append(m)
    sets_by_match: dict[int, list[tuple]] = defaultdict(list)
    for s in (
        SetResult.objects.filter(**{f"match__{k}": v for k, v in closed.items()}, match__kind=Match.Kind.GAME)
        .order_by("match_id", "number")
        .values_list("match_id", "pk", "number", "starter", "white_stones", "black_stones", "termination")
        .iterator(chunk_size=20000)
    ):
        sets_by_match[s[0]].append(s)

    white_withdrew, black_withdrew = SetResult.Termination.WHITE_WITHDREW, SetResult.Termination.BLACK_WITHDREW
    out = []
    for t in tournaments:
        rated: list[RatedSet] = []
        set_ids: list[int] = []
        counts = {"forfeits": 0, "byes": 0, "unrated_matches": 0, "matches_without_sets": 0}
        for mid, _tid, round_no, board, kind, forfeit, is_rated, white_points, white, black in by_t.get(t.pk, []):
            if kind == Match.Kind.BYE:
                counts["byes"] += 1
                continue
            if forfeit:
                counts["forfeits"] += 1
                continue
            if not is_rated:
                counts["unrated_matches"] += 1
                continue
            sets = sets_by_match.get(mid, [])
            if not sets:
                if white_points is not None:
                    counts["matches_without_sets"] += 1
                continue
            for _mid, set_id, number, starter, white_stones, black_stones, termination in sets:
                w_withdrew = termination == white_withdrew
                b_withdrew = termination == black_withdrew
                try:
                    if starter == "black":
                        rs = RatedSet(t.pk, black, white, black_stones, white_stones, b_withdrew, w_withdrew)
                    else:
                        rs = RatedSet(t.pk, white, black, white_stones, black_stones, w_withdrew, b_withdrew)
                except RatingInputError as exc:
                    raise ValidationFailed(
                        _("%(t)s, round %(r)d, board %(b)d, set %(n)d cannot be rated: %(reason)s")
                        % {"t": t.name, "r": round_no, "b": board, "n": number, "reason": exc},
                        field="sets",
                    ) from exc
                rated.append(rs)
                set_ids.append(set_id)
        out.append(EventInput(t, Event(t.pk, rating_period(t), tuple(rated)), tuple(set_ids), **counts))
    return out


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


def players_in(events: Iterable[EventInput]) -> set:
    """Every player id that plays a rated set in ``events``."""
    out = set()
    for e in events:
        for s in e.event.sets:
            out.add(s.player_a)
            if s.player_b is not None:
                out.add(s.player_b)
    return out


# --------------------------------------------------------------------------------------------
# Parameter sets of the federation's rating (tuning and adoption, docs/ratings.md)
# --------------------------------------------------------------------------------------------


def rating_parameters_in_force() -> dict | None:
    """The ``params`` of the :class:`~ratings.models.RatingParameterSet` in force for the federation's
    system (adopted, not retired), or None (the engine's shipped defaults apply). One query."""
    from ratings.engine import FEDERATION_SYSTEM
    from ratings.models import RatingParameterSet

    return (
        RatingParameterSet.objects.filter(system=FEDERATION_SYSTEM, adopted_at__isnull=False, retired_at__isnull=True)
        .values_list("params", flat=True)
        .first()
    )


@dataclass(frozen=True, slots=True)
class ReratingState:
    """Whether the stored ratings were computed with the parameters in force.

    ``since``: when those parameters took effect (the last adoption or return to the shipped defaults;
    None when the defaults were never replaced); ``stale_events`` of ``total_events`` stored rating
    events were written before ``since`` (the full re-rating that follows an adoption is queued or
    running); ``last_rated_at`` is the newest write of a rating event.
    """

    since: dt.datetime | None
    stale_events: int
    total_events: int
    last_rated_at: dt.datetime | None

    @property
    def pending(self) -> bool:
        return self.stale_events > 0

    def as_dict(self) -> dict:
        return {"since": self.since, "pending": self.pending, "stale_events": self.stale_events,
                "total_events": self.total_events, "last_rated_at": self.last_rated_at}


def rerating_state() -> ReratingState:
    """The :class:`ReratingState` of the federation's rating, in two queries (read from the rows, so
    it is right whichever process runs the re-rating)."""
    from django.db.models import Max

    from ratings.engine import FEDERATION_SYSTEM
    from ratings.models import RatingParameterSet

    marks = RatingParameterSet.objects.filter(system=FEDERATION_SYSTEM).aggregate(
        adopted=Max("adopted_at"), retired=Max("retired_at")
    )
    times = [t for t in (marks["adopted"], marks["retired"]) if t is not None]
    since = max(times) if times else None
    extra = {"stale": Count("pk", filter=Q(rated_at__lt=since))} if since is not None else {}
    counts = RatingEvent.objects.aggregate(total=Count("pk"), last=Max("rated_at"), **extra)
    return ReratingState(since, counts.get("stale") or 0, counts["total"], counts["last"])


@dataclass(frozen=True, slots=True)
class ParameterRow:
    """One parameter of the federation's system: ``name``, the ``value`` in force and the shipped
    ``default``; ``changed`` when they differ."""

    name: str
    value: object
    default: object

    @property
    def changed(self) -> bool:
        return self.value != self.default


@dataclass(frozen=True, slots=True)
class ParameterOverview:
    """What the staff page and ``GET /api/ratings/parameters/`` show.

    ``in_force``: the set in force (None: shipped defaults); ``rows``: each parameter in force next to
    its shipped default; ``defaults``: the shipped defaults (name -> value); ``history``: every set
    ever adopted, newest adoption first, each with ``revert_reason`` set (an attribute) when it was
    retired by a return to the shipped defaults; ``candidates``: sets never adopted, newest first;
    ``rerating``: the :class:`ReratingState`.
    """

    system: str
    in_force: object | None
    rows: tuple[ParameterRow, ...]
    defaults: dict
    history: tuple
    candidates: tuple
    rerating: ReratingState


def parameter_values(params: dict | None) -> dict:
    """Every parameter of the federation's system (name -> value) for ``params`` over the shipped
    defaults, in the engine's field order. Raises :class:`RatingInputError` for invalid ``params``."""
    import dataclasses

    from ratings.engine import federation_params

    obj = federation_params(params or None)
    if dataclasses.is_dataclass(obj):
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    return dict(params or {})  # pragma: no cover - the engine's params are dataclasses


def parameter_overview() -> ParameterOverview:
    """The :class:`ParameterOverview` of the federation's system in five queries."""
    from ratings.engine import FEDERATION_SYSTEM
    from ratings.models import RatingParameterSet

    rows = list(
        RatingParameterSet.objects.filter(system=FEDERATION_SYSTEM)
        .select_related("created_by", "adopted_by", "retired_by")
        .order_by("-created_at", "-id")
    )
    in_force = next((r for r in rows if r.in_force), None)
    defaults = parameter_values(None)
    try:
        current = parameter_values(in_force.params) if in_force is not None else defaults
    except RatingInputError:  # a set the engine no longer accepts: show what is stored
        current = {**defaults, **in_force.params}
    reverts = {}
    for set_id, reason in (
        RatingParameterSet.history.filter(audit_action="rating_parameters.revert", history_type="~")
        .order_by("history_date").values_list("id", "history_change_reason")
    ):
        reverts[set_id] = reason or ""
    history = sorted((r for r in rows if r.adopted_at is not None), key=lambda r: (r.adopted_at, r.pk), reverse=True)
    for r in history:
        r.revert_reason = reverts.get(r.pk) if r.retired_at is not None else None
    names = list(dict.fromkeys([*current, *defaults]))
    return ParameterOverview(
        system=FEDERATION_SYSTEM,
        in_force=in_force,
        rows=tuple(ParameterRow(n, current.get(n), defaults.get(n)) for n in names),
        defaults=defaults,
        history=tuple(history),
        candidates=tuple(r for r in rows if r.adopted_at is None),
        rerating=rerating_state(),
    )


# --------------------------------------------------------------------------------------------
# Official rating lists
# --------------------------------------------------------------------------------------------

#: A player on an official list is *active* when they played a rated set in the this many months
#: before the list date: a rated event whose period is after the same day that many months earlier
#: and not after the list date (list of 1 May 2026: events of 2 May 2025 … 1 May 2026). Inactive
#: players are listed but not ranked.
ACTIVITY_WINDOW_MONTHS = 12


def months_before(day: dt.date, months: int) -> dt.date:
    """The same day ``months`` earlier (the month's last day when it has no such day: 29 Feb → 28 Feb)."""
    import calendar

    index = day.year * 12 + (day.month - 1) - months
    year, month = divmod(index, 12)
    month += 1
    return dt.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def activity_window_start(on: dt.date) -> dt.date:
    """The first rating period that makes a player active on the list of ``on``
    (:data:`ACTIVITY_WINDOW_MONTHS`): the day after the same date a window earlier."""
    return months_before(on, ACTIVITY_WINDOW_MONTHS) + dt.timedelta(days=1)


def list_category(birth_year: int | None, on: dt.date) -> str:
    """The age category an official list of ``on`` gives a player: the narrowest group of
    :data:`AGE_GROUPS` in the list's year (:func:`federation.privacy.age_category`, the rule of the
    rating list and the ``age_category`` filter), ``"open"`` when the birth year is unknown."""
    from federation.privacy import age_category

    return age_category(birth_year, on.year) or "open"


def category_codes(key: str) -> list[str] | None:
    """The stored categories a category filter ``key`` (a key of :data:`AGE_GROUPS`) covers, as on the
    rating list: ``"u12"`` = U12 and every younger group, ``"50plus"`` = 50+ and every older group;
    ``"open"`` (everyone) and ``""`` give None: no filter. ``ValueError`` for an unknown key."""
    if not key or key == "open":
        return None
    if key not in AGE_GROUPS:
        raise ValueError(f"unknown age group {key!r}; valid: {', '.join(AGE_GROUPS)}")
    _label, youngest, oldest = AGE_GROUPS[key]
    codes = []
    for k, (_l, young, old) in AGE_GROUPS.items():
        if oldest is not None and young is None and old is not None and old <= oldest:
            codes.append(k)
        elif youngest is not None and old is None and young is not None and young >= youngest:
            codes.append(k)
    return codes


@dataclass(frozen=True, slots=True)
class SnapshotLine:
    """One player's line of an official list as :func:`rating_list_snapshot` computes it (what
    :class:`ratings.models.RatingListEntry` stores)."""

    player: Player
    rating: int
    sets: int
    status: str
    active: bool
    rank: int | None
    change: int | None
    category: str
    last_played: dt.date | None

    @property
    def club(self) -> str:
        return self.player.club.name if self.player.club_id else ""

    @property
    def city(self) -> str:
        return self.player.city or (self.player.club.city if self.player.club_id else "")


def rating_list_previous(on: dt.date):
    """The list in force dated before ``on`` (the one an official list's changes are counted from), or None."""
    from ratings.models import RatingList

    return (RatingList.objects.filter(withdrawn_at__isnull=True, published_on__lt=on)
            .order_by("-published_on", "-id").first())


def rating_list_snapshot(on: dt.date) -> list[SnapshotLine]:
    """The national rating as of ``on``, as an official list: active players ranked first, then the
    inactive ones; five queries however many players.

    * Listed: every active, not merged player rated on ``on``. A player's rating is the one after their
      last rated event with a period on or before ``on`` (rounded as ``Player.rating``:
      :func:`ratings.services._player_rating`), with its status; ``sets`` counts their rated sets up to
      ``on``. A player still unrated after that event is not listed. A player with no event up to ``on``
      is listed with their initial rating (:class:`ratings.models.InitialRating`; for a player the
      rating has not seen yet, ``Player.rating``, which becomes that initial rating) as established
      with 0 sets when it is above 0.
    * ``active``: a rated set in :data:`ACTIVITY_WINDOW_MONTHS` (:func:`activity_window_start` … ``on``).
    * ``rank``: active players by rating, highest first, equal ratings share a rank and the next rank
      skips (1, 2, 2, 4); inactive players have none. Equal ratings are in Turkish name order.
    * ``change``: the rating minus the player's rating on the previous list in force
      (:func:`rating_list_previous`); None when they were not on it (or there is none).
    * ``category``: :func:`list_category` in ``on``'s year.
    """
    from ratings.models import InitialRating, RatingListEntry
    from ratings.services import _player_rating

    players = {
        p.pk: p for p in Player.objects.filter(active=True, merged_into__isnull=True).select_related("club").only(
            "pk", "federation_id", "first_name", "last_name", "birth_year", "city", "rating", "club_id",
            "club__name", "club__city",
        )
    }
    initial = dict(InitialRating.objects.values_list("player_id", "rating"))
    last: dict[int, tuple[float, str]] = {}
    sets: dict[int, int] = defaultdict(int)
    played: dict[int, dt.date] = {}
    for pid, rating, status, n, period in (
        RatingChange.objects.filter(period__lte=on)
        .order_by("player_id", "period", "event__tournament_id")
        .values_list("player_id", "rating_after", "status_after", "sets", "period")
        .iterator(chunk_size=5000)
    ):
        last[pid] = (rating, status)
        sets[pid] += n
        if n:
            played[pid] = period
    window = activity_window_start(on)
    previous = rating_list_previous(on)
    before = dict(RatingListEntry.objects.filter(rating_list=previous).values_list("player_id", "rating")) if previous else {}

    rows = []
    for pid, p in players.items():
        if pid in last:
            rating_after, status = last[pid]
            rating = _player_rating(status, rating_after)
            if status == "unrated" or rating <= 0:
                continue
        else:
            rating = initial.get(pid, p.rating)  # not seen by the rating yet: its rating becomes the initial one
            status = "established"
            if not rating:
                continue
        last_played = played.get(pid)
        rows.append((p, rating, status, last_played is not None and last_played >= window, last_played))
    rows.sort(key=lambda r: (not r[3], -r[1], player_sort_key(r[0])))
    out = []
    rank = 0
    previous_rating = None
    for i, (p, rating, status, active, last_played) in enumerate(rows, start=1):
        if active and rating != previous_rating:
            rank, previous_rating = i, rating
        out.append(SnapshotLine(
            player=p, rating=rating, sets=sets.get(p.pk, 0), status=status, active=active,
            rank=rank if active else None,
            change=rating - before[p.pk] if p.pk in before else None,
            category=list_category(p.birth_year, on), last_played=last_played,
        ))
    return out


def rating_list_current():
    """The official list in force with the latest date (what the rating page shows), or None; one query."""
    from ratings.models import RatingList

    return RatingList.objects.filter(withdrawn_at__isnull=True).order_by("-published_on", "-id").first()


def rating_list_archive() -> QuerySet:
    """Every official list, newest date first (a withdrawn list after the one that replaced it), with
    its parameter set and the users who published and withdrew it; one query."""
    from ratings.models import RatingList

    return RatingList.objects.select_related("parameter_set", "published_by", "withdrawn_by").order_by(
        "-published_on", "-published_at", "-id"
    )


def rating_list_for_date(on: dt.date, *, list_id: int | None = None):
    """The official list of ``on``: the one in force, else the one withdrawn last; with ``list_id``
    that list (withdrawn or not) if it is of ``on``. None when there is none; one query."""
    from django.db.models import F

    qs = rating_list_archive().filter(published_on=on)
    if list_id is not None:
        return qs.filter(pk=list_id).first()
    return qs.order_by(F("withdrawn_at").desc(nulls_first=True), "-id").first()


@dataclass(frozen=True, slots=True)
class ListEntryFilters:
    """Filters of an official list's entries: ``category`` a key of :data:`AGE_GROUPS` (see
    :func:`category_codes`; "" = all), ``active`` True / False / None (all)."""

    category: str = ""
    active: bool | None = None


def rating_list_entries(rating_list, filters: ListEntryFilters = ListEntryFilters()) -> QuerySet:
    """The entries of ``rating_list`` in list order (ranked players by rank, then the inactive ones
    by rating; equal ratings as published: Turkish name order), filtered. The entries carry every
    text they show (name, federation id, club, city), so a page of them is one query."""
    from django.db.models import F

    from ratings.models import RatingListEntry

    qs = RatingListEntry.objects.filter(rating_list=rating_list)
    codes = category_codes(filters.category)
    if codes is not None:
        qs = qs.filter(category__in=codes)
    if filters.active is not None:
        qs = qs.filter(active=filters.active)
    return qs.order_by(F("rank").asc(nulls_last=True), "-rating", "id")


def player_rating_list_history(player: Player) -> list:
    """``player``'s lines on the official lists in force, newest list first, each with its list; one query."""
    from ratings.models import RatingListEntry

    return list(
        RatingListEntry.objects.filter(player=player, rating_list__withdrawn_at__isnull=True)
        .select_related("rating_list").order_by("-rating_list__published_on", "-rating_list_id")
    )
