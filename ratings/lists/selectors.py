"""Reads of the official rating lists: the snapshot a new list copies, the lists in force and archived,
their entries with filters, and a player's lines on them. A fixed number of queries each."""
from __future__ import annotations

import datetime as dt

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import QuerySet

from federation.collation import player_sort_key
from federation.models import Player
from federation.privacy import AGE_GROUPS
from ratings.engine.federation import stored_rating
from ratings.models import RatingChange


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
      :func:`ratings.engine.federation.stored_rating`), with its status; ``sets`` counts their rated sets up to
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
            rating = stored_rating(status, rating_after)
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
