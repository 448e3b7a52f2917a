"""Writes of the national rating: rate tournaments with the pure engine and store the result.

Every rating run computes the whole history with :func:`ratings.engine.rate_events` (the federation's
system, :func:`rating_system`: the adopted :class:`~ratings.models.RatingParameterSet` over the engine's
shipped defaults, docs/ratings.md) from each player's
:class:`~ratings.models.InitialRating`; the pure run is cheap and exact, so a partial re-rating always
equals a full one (measured on SQLite: the 84-event simulated league, 10,909 sets, is re-rated from
scratch with every row written in 2.5 s; re-rating its last event takes 0.7 s). What differs is which rows are rewritten:

- :func:`tournament_rate` — one tournament's rows (its sets rated against the ratings at its start);
- :func:`ratings_recompute_from` — that tournament and every later one (by rating period, then id),
  plus ``Player.rating``; the hook of "publish final standings" (``ratings.tasks.rate_tournament_task``);
- :func:`ratings_recompute_all` — everything from scratch (``manage.py rerate_all``).

Rated tournaments: finished, final standings published (:func:`ratings.selectors.rateable_tournaments`).
Idempotent: running any of them twice leaves the same rows.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Callable

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.models import Player
from federation.versions import bump_on_commit
from ratings import selectors
from ratings.engine import FEDERATION_SYSTEM, UNRATED, RatingRun, RatingSystem, federation_system, rate_events
from ratings.models import InitialRating, RatingChange, RatingEvent, RatingGameLine
from tournaments.models import Tournament
from tournaments.publication import is_rateable

_LOCK_KEY = 0x4D414E47  # "MANG": one rating run at a time (PostgreSQL advisory lock)
_SCORE = {1.0: Decimal("1"), 0.5: Decimal("0.5"), 0.0: Decimal("0")}


@dataclass(frozen=True, slots=True)
class RatingSummary:
    """What a run rewrote: ``events`` rated tournaments (ids in rating order), ``rated_sets`` in them,
    ``players_updated`` players whose ``Player.rating`` changed."""

    events: tuple[int, ...]
    rated_sets: int
    players_updated: int

    def as_dict(self) -> dict:
        return {"events": list(self.events), "rated_sets": self.rated_sets, "players_updated": self.players_updated}


def rating_system() -> RatingSystem:
    """The federation's rating system (:func:`ratings.engine.federation_system`) with the parameters of
    the :class:`~ratings.models.RatingParameterSet` in force, else the engine's shipped defaults. One
    query (every rating run and the rating list page call it)."""
    return federation_system(selectors.rating_parameters_in_force())


def _lock() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK_KEY])


def _copy(model, columns: list[str], rows) -> int:
    """PostgreSQL: write ``rows`` (tuples in the order of ``columns``, database column names) into
    ``model``'s table with COPY (psycopg 3's ``cursor.copy``) in the current transaction; returns the
    number of rows. Values go as text: floats are written with their shortest exact form, so the stored
    numbers equal what an INSERT of the same floats stores."""
    qn = connection.ops.quote_name
    sql = "COPY {} ({}) FROM STDIN".format(qn(model._meta.db_table), ", ".join(qn(c) for c in columns))
    n = 0
    with connection.cursor() as cur, cur.cursor.copy(sql) as copy:
        for row in rows:
            copy.write_row(row)
            n += 1
    return n


def _next_ids(model, n: int) -> list[int]:
    """PostgreSQL: ``n`` fresh primary keys of ``model`` from its sequence (in increasing order), for
    rows written with COPY that other rows point to."""
    if n <= 0:
        return []
    with connection.cursor() as cur:
        cur.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
            [model._meta.db_table, model._meta.pk.column, n],
        )
        return sorted(r[0] for r in cur.fetchall())


def _bulk_method() -> str:
    """How the rating rows are written: ``"copy"`` on PostgreSQL, ``"orm"`` (batched ``bulk_create`` /
    ``bulk_update``) elsewhere."""
    return "copy" if connection.vendor == "postgresql" else "orm"


def _initial_ratings(player_ids: set) -> dict[int, float]:
    """Each player's starting rating (0 = unrated, left out); captures ``Player.rating`` as the
    :class:`InitialRating` of players the national rating has not seen before (a row another
    transaction wrote meanwhile, e.g. a merge's, is kept: ``ignore_conflicts``). Reads whole tables
    rather than naming tens of thousands of ids in the SQL."""
    known = {pid: r for pid, r in InitialRating.objects.values_list("player_id", "rating") if pid in player_ids}
    missing = {pid for pid in player_ids if pid not in known}
    if missing:
        if len(missing) > 900:
            rows = [(pk, r) for pk, r in Player.objects.values_list("pk", "rating") if pk in missing]
        else:
            rows = list(Player.objects.filter(pk__in=sorted(missing)).values_list("pk", "rating"))
        InitialRating.objects.bulk_create([InitialRating(player_id=pk, rating=r) for pk, r in rows],
                                          ignore_conflicts=True, batch_size=5000)
        known.update(rows)
    return {pid: float(r) for pid, r in known.items() if r > 0}


def _run(inputs: list[selectors.EventInput]) -> RatingRun:
    initial = _initial_ratings(selectors.players_in(inputs))
    return rate_events([i.event for i in inputs], rating_system(), initial=initial, history=True)


_EVENT_COLUMNS = ["id", "tournament_id", "period", "rated_at", "system", "rated_sets", "players", "forfeits", "byes",
                  "unrated_matches", "matches_without_sets"]
_CHANGE_COLUMNS = ["id", "event_id", "player_id", "period", "rating_before", "rating_after", "status_before",
                   "status_after", "sets"]
_LINE_COLUMNS = ["change_id", "set_result_id", "opponent_id", "opponent_rating", "score", "result_score", "margin",
                 "expected", "delta"]


def _event_rows(inp: selectors.EventInput, entries: dict, now: dt.datetime):
    """One event's rows from the engine's history ``entries`` (player id -> its entry of this event):
    the event's values (``_EVENT_COLUMNS`` without ``id``), its changes (player id, values of
    ``_CHANGE_COLUMNS`` after ``event_id``; by player id) and its lines (player id, values of
    ``_LINE_COLUMNS`` after ``change_id``; in the order of the event's sets, each set's player A first)."""
    ev = inp.event
    event = (inp.tournament.pk, ev.date, now, FEDERATION_SYSTEM, len(ev.sets), len(selectors.players_in([inp])),
             inp.forfeits, inp.byes, inp.unrated_matches, inp.matches_without_sets)
    changes = [
        (pid, (pid, ev.date, h.rating_before, h.rating_after, h.status_before, h.status_after, len(h.lines)))
        for pid, h in sorted(entries.items())
    ]
    # the engine lists each player's lines in the order of the event's sets: walk the sets in that order
    cursor = {pid: 0 for pid in entries}
    lines = []
    for s, set_id in zip(ev.sets, inp.set_ids):
        for pid, opp in ((s.player_a, s.player_b), (s.player_b, s.player_a)):
            h = entries[pid]
            ln = h.lines[cursor[pid]]
            cursor[pid] += 1
            assert ln.opponent == opp, "engine lines out of the event's set order"
            set_score = s.score if pid == s.player_a else 1.0 - s.score
            lines.append((pid, (set_id, opp, ln.opponent_rating, _SCORE[set_score], ln.score, ln.margin, ln.expected,
                                ln.change)))
    return event, changes, lines


def _write_events(
    todo: list[selectors.EventInput], run: RatingRun, now: dt.datetime,
    progress: Callable[[int, int, RatingEvent], None] | None = None, *, method: str | None = None,
) -> list[RatingEvent]:
    """Store the rows of the events ``todo`` from ``run`` (the events must not have rows yet): one
    :class:`RatingEvent` each, a :class:`RatingChange` per player (by player id) and a
    :class:`RatingGameLine` per player and set (in the order of the event's sets), events in the order
    given. ``method``: ``"copy"`` (PostgreSQL: COPY, with the event and change ids drawn from their
    sequences first) or ``"orm"`` (batched ``bulk_create``, any database); default by database
    (:func:`_bulk_method`). Both write the same rows with the same values, ids increasing in the same
    order. ``progress(n, total, rating_event)`` is called for each event once all are written.
    Returns the events (unsaved-looking instances with their ids and ``tournament`` set)."""
    method = method or _bulk_method()
    wanted = {inp.event.id for inp in todo}
    by_event: dict = {eid: {} for eid in wanted}
    for pid, entries in run.history.items():
        for h in entries:
            if h.event_id in wanted:
                by_event[h.event_id][pid] = h
    built = [_event_rows(inp, by_event[inp.event.id], now) for inp in todo]
    if method == "copy":
        event_ids = _next_ids(RatingEvent, len(built))
        change_ids = iter(_next_ids(RatingChange, sum(len(b[1]) for b in built)))
        _copy(RatingEvent, _EVENT_COLUMNS, ((eid, *b[0]) for eid, b in zip(event_ids, built)))
        change_rows, line_rows = [], []
        for eid, (_event, changes, lines) in zip(event_ids, built):
            change_of = {}
            for pid, values in changes:
                cid = change_of[pid] = next(change_ids)
                change_rows.append((cid, eid, *values))
            line_rows.extend((change_of[pid], *values) for pid, values in lines)
        _copy(RatingChange, _CHANGE_COLUMNS, change_rows)
        _copy(RatingGameLine, _LINE_COLUMNS, line_rows)
        events = [RatingEvent(pk=eid, tournament=inp.tournament, **dict(zip(_EVENT_COLUMNS[2:], b[0][1:])))
                  for eid, inp, b in zip(event_ids, todo, built)]
    elif method == "orm":
        events = [RatingEvent(tournament=inp.tournament, **dict(zip(_EVENT_COLUMNS[2:], b[0][1:])))
                  for inp, b in zip(todo, built)]
        if connection.features.can_return_rows_from_bulk_insert:
            RatingEvent.objects.bulk_create(events, batch_size=1000)
        else:
            for e in events:
                e.save(force_insert=True)
        change_objs = [
            RatingChange(event=e, **dict(zip(_CHANGE_COLUMNS[2:], values)))
            for e, (_event, changes, _lines) in zip(events, built) for _pid, values in changes
        ]
        if connection.features.can_return_rows_from_bulk_insert:
            RatingChange.objects.bulk_create(change_objs, batch_size=2000)
        else:
            for c in change_objs:
                c.save(force_insert=True)
        change_at = iter(change_objs)
        line_objs = []
        for _event, changes, lines in built:
            change_of = {pid: next(change_at) for pid, _values in changes}
            line_objs.extend(RatingGameLine(change=change_of[pid], **dict(zip(_LINE_COLUMNS[1:], values)))
                             for pid, values in lines)
        RatingGameLine.objects.bulk_create(line_objs, batch_size=5000)
    else:
        raise ValueError(f"unknown write method {method!r}: 'copy' or 'orm'")
    if progress is not None:
        for n, rev in enumerate(events, start=1):
            progress(n, len(events), rev)
    return events


def _write_event(inp: selectors.EventInput, run: RatingRun, now: dt.datetime) -> RatingEvent:
    """Store one event's rows from ``run`` (the event must not have rows yet); see :func:`_write_events`."""
    return _write_events([inp], run, now)[0]


def _player_rating(status: str, rating: float) -> int:
    if status == UNRATED:
        return 0
    return max(0, min(4000, int(rating + 0.5)))


def _update_players(run: RatingRun, *, method: str | None = None) -> int:
    """Set ``Player.rating`` of every player the rating has seen: the run's rating (rounded; 0 while
    unrated), or the initial rating for a player no rated event counts any more. Returns how many
    changed. PostgreSQL: the wanted ratings are copied into a temporary table and one UPDATE changes
    the rows that differ; elsewhere ``bulk_update`` in batches of 500."""
    method = method or _bulk_method()
    base = dict(InitialRating.objects.values_list("player_id", "rating"))
    want = {}
    for pid, r0 in base.items():
        pr = run.ratings.get(pid)
        want[pid] = r0 if pr is None else _player_rating(pr.status, pr.rating)
    if method == "copy":
        with connection.cursor() as cur:
            cur.execute("CREATE TEMPORARY TABLE rating_wanted (player_id integer PRIMARY KEY, rating integer NOT NULL) "
                        "ON COMMIT DROP")
            with cur.cursor.copy("COPY rating_wanted (player_id, rating) FROM STDIN") as copy:
                for row in want.items():
                    copy.write_row(row)
            cur.execute(
                "UPDATE {p} SET rating = w.rating FROM rating_wanted w WHERE {p}.id = w.player_id "
                "AND {p}.rating <> w.rating".format(p=connection.ops.quote_name(Player._meta.db_table))
            )
            changed = cur.rowcount
            cur.execute("DROP TABLE rating_wanted")
    else:
        rows = []
        for p in Player.objects.only("pk", "rating").iterator(chunk_size=2000):
            if p.pk in want and p.rating != want[p.pk]:
                p.rating = want[p.pk]
                rows.append(p)
        Player.objects.bulk_update(rows, ["rating"], batch_size=500)
        changed = len(rows)
    bump_on_commit("ratings")  # the rating list's cached copies (bulk writes send no signal)
    return changed


def _delete_events(events) -> None:
    """Delete the rating events of queryset ``events`` with their changes and lines: three DELETE
    statements (lines, changes, events), never loading the rows (Django's cascade collects every
    change first)."""
    ids = events.values("pk")
    RatingGameLine.objects.filter(change__event__in=ids)._raw_delete(RatingGameLine.objects.db)
    RatingChange.objects.filter(event__in=ids)._raw_delete(RatingChange.objects.db)
    events._raw_delete(RatingEvent.objects.db)


def _key_q(key: tuple[dt.date, int]) -> Q:
    """Rating events at or after ``key`` = (period, tournament id)."""
    period, tid = key
    return Q(period__gt=period) | Q(period=period, tournament_id__gte=tid)


def _rewrite_from(key: tuple[dt.date, int] | None, progress: Callable[[int, int, RatingEvent], None] | None) -> RatingSummary:
    """Run the whole history; replace the stored rows of every event at or after ``key`` (all when None)
    and of any earlier event whose stored rows do not match the rated tournaments; update players."""
    _lock()
    tournaments = selectors.rateable_tournaments()
    inputs = selectors.rating_inputs(tournaments)
    run = _run(inputs)
    stored = {tid: (period, tid) for tid, period in RatingEvent.objects.values_list("tournament_id", "period")}
    wanted = {i.tournament.pk: (i.event.date, i.tournament.pk) for i in inputs}
    # an earlier inconsistency (a missing, stale or moved event) moves the start back
    for tid in set(stored) | set(wanted):
        if stored.get(tid) != wanted.get(tid):
            first = min(k for k in (stored.get(tid), wanted.get(tid)) if k is not None)
            key = first if key is None or first < key else key
    if key is None and stored:
        key = min(stored.values())
    elif key is None and wanted:
        key = min(wanted.values())
    if key is None:
        return RatingSummary((), 0, _update_players(run))
    _delete_events(RatingEvent.objects.filter(_key_q(key)))
    bump_on_commit("ratings")
    todo = [i for i in inputs if (i.event.date, i.tournament.pk) >= key]
    _write_events(todo, run, timezone.now(), progress)
    return RatingSummary(
        tuple(i.tournament.pk for i in todo), sum(len(i.event.sets) for i in todo), _update_players(run)
    )


@transaction.atomic
def tournament_rate(*, tournament: Tournament) -> RatingEvent | None:
    """Rate ``tournament``'s sets with the federation's rating against the ratings at the start of the event
    (FIDE-style period: fixed at the start, the order of sets inside does not matter) and store its
    :class:`RatingEvent` (replacing an earlier one). Skips byes, forfeits, matches marked unrated and
    matches without set detail (counted on the event).

    Only this tournament's rows are written; later events and ``Player.rating`` are left alone (use
    :func:`ratings_recompute_from` for those). Returns None (and removes a stored event) when the
    tournament is not rated: not finished or final standings not published.
    """
    _lock()
    tournament = Tournament.objects.get(pk=tournament.pk)
    RatingEvent.objects.filter(tournament=tournament).delete()
    if not is_rateable(tournament):
        bump_on_commit("ratings")
        return None
    key = selectors.event_key(tournament)
    upto = [t for t in selectors.rateable_tournaments() if selectors.event_key(t) <= key]
    inputs = selectors.rating_inputs(upto)
    run = _run(inputs)
    bump_on_commit("ratings")
    return _write_event(inputs[-1], run, timezone.now())


@transaction.atomic
def ratings_recompute_from(*, tournament: Tournament) -> RatingSummary:
    """Re-rate ``tournament`` and every later rated tournament (by rating period, then id) from
    scratch and update ``Player.rating``. A tournament that is no longer rated (e.g. re-opened) loses
    its rows. Idempotent; the result equals :func:`ratings_recompute_all`.
    """
    _lock()  # first: the rows read below must not change before the run holds the lock
    tournament = Tournament.objects.get(pk=tournament.pk)
    key = selectors.event_key(tournament)
    old = RatingEvent.objects.filter(tournament=tournament).values_list("period", flat=True).first()
    if old is not None and (old, tournament.pk) < key:
        key = (old, tournament.pk)
    return _rewrite_from(key, None)


@transaction.atomic
def ratings_recompute_all(*, progress: Callable[[int, int, RatingEvent], None] | None = None) -> RatingSummary:
    """Delete every stored rating event and rate all rated tournaments again in order;
    ``progress(n, total, rating_event)`` is called for each event once all rows are written. Updates
    ``Player.rating``. One transaction: a run that fails leaves the previous rows and ratings.

    The rows are written in bulk (:func:`_write_events`: COPY on PostgreSQL, batched ``bulk_create``
    elsewhere). Measured (docs/performance.md, "National scale"): 1,000,000 sets of 50,000 players in
    59 s on PostgreSQL at a load of 8 on two cores, of which the engine 12.5 s and writing the rows 31 s."""
    _lock()  # before the first write: a DELETE holding row locks while waiting for the lock deadlocked
    _delete_events(RatingEvent.objects.all())
    bump_on_commit("ratings")
    return _rewrite_from(None, progress)


# --------------------------------------------------------------------------------------------
# Official rating lists
# --------------------------------------------------------------------------------------------

#: Longest reason for withdrawing a list, and longest note of a list.
LIST_REASON_MAX_LENGTH = 500


def rating_list_default_date(today: dt.date | None = None) -> dt.date:
    """The date a new official list gets unless staff choose another: the first day of the current
    month (lists are monthly by default)."""
    today = today or timezone.localdate()
    return today.replace(day=1)


def _require_list_staff(user, message: str) -> None:
    """Staff only; ``user=None`` is the system (the monthly job, the sample data)."""
    from federation import roles
    from federation.errors import PermissionDenied

    if user is not None and not roles.is_staff(user):
        raise PermissionDenied(message)


def _adopted_parameter_set(system: str):
    """The :class:`~ratings.models.RatingParameterSet` of ``system`` in force (adopted, not retired), or None."""
    from ratings.models import RatingParameterSet

    return RatingParameterSet.objects.filter(system=system, adopted_at__isnull=False, retired_at__isnull=True).first()


@transaction.atomic
def rating_list_publish(*, published_on: dt.date, user, title: str = "", note: str = ""):
    """Publish the official rating list of ``published_on``: a frozen snapshot of the national rating
    as of that date (:func:`ratings.selectors.rating_list_snapshot`: rating, sets, status, active, rank,
    change since the previous list, age category), one :class:`~ratings.models.RatingListEntry` per
    listed player, with the adopted parameter set (None: the engine's defaults). Staff only (``user``
    None: the system). Recorded in the audit history (``rating_list.publish``); the rating pages'
    cached copies change (the ``ratings`` data version).

    Refusals: a date after today (ValidationFailed, field ``published_on``); a list in force already on
    that date, or on a later date (Conflict, field ``published_on``: withdraw it first; the changes of a
    list are counted from the list before it, so lists are published in date order); a title or note with control
    characters or too long (ValidationFailed, field ``title`` / ``note``).
    """
    from django.db import IntegrityError

    from federation.audit import audit_context
    from federation.errors import Conflict, ValidationFailed
    from federation.validators import clean_reason, first_control_character
    from ratings.models import RatingList, RatingListEntry

    _require_list_staff(user, _("Only federation staff can publish rating lists."))
    if not isinstance(published_on, dt.date) or isinstance(published_on, dt.datetime):
        raise ValidationFailed(_("Give the date of the list."), field="published_on")
    if published_on > timezone.localdate():
        raise ValidationFailed(_("A list cannot be dated in the future."), field="published_on")
    title = "" if title is None else title
    if not isinstance(title, str) or first_control_character(title) is not None:
        raise ValidationFailed(_("The title must be one line of text."), field="title")
    title = title.strip()
    if len(title) > 120:
        raise ValidationFailed(_("The title is longer than %(n)d characters.") % {"n": 120}, field="title")
    try:
        note = clean_reason(note, max_length=LIST_REASON_MAX_LENGTH)
    except ValidationFailed as exc:
        raise ValidationFailed(exc.message, field="note") from exc
    _lock()  # PostgreSQL: never read a rating run half written
    from django.utils.formats import date_format

    taken = Conflict(
        _("A list dated %(d)s is in force already; withdraw it first.") % {"d": date_format(published_on)},
        field="published_on",
    )
    if RatingList.objects.filter(published_on=published_on, withdrawn_at__isnull=True).exists():
        raise taken
    later = RatingList.objects.filter(published_on__gt=published_on, withdrawn_at__isnull=True).order_by(
        "published_on"
    ).first()
    if later is not None:  # each list's changes are counted from the list before it: lists come in date order
        raise Conflict(
            _("Lists are published in date order: the list of %(d)s is in force. Withdraw it first to publish "
              "an earlier list.") % {"d": date_format(later.published_on)},
            field="published_on",
        )
    lines = selectors.rating_list_snapshot(published_on)
    from ratings.engine import FEDERATION_SYSTEM as system  # the name parameter sets are adopted under
    with audit_context(action="rating_list.publish", user=user, reason=note):
        try:
            with transaction.atomic():
                rating_list = RatingList.objects.create(
                    published_on=published_on, title=title, note=note, system=system,
                    parameter_set=_adopted_parameter_set(system), players=len(lines),
                    published_by=user if getattr(user, "is_authenticated", False) else None,
                )
        except IntegrityError as exc:  # published meanwhile by someone else
            raise taken from exc
    RatingListEntry.objects.bulk_create(
        [
            RatingListEntry(
                rating_list=rating_list, player=ln.player, federation_id=ln.player.federation_id,
                name=ln.player.full_name[:130], club=ln.club[:120], city=ln.city[:60], rating=ln.rating,
                sets=ln.sets, status=ln.status, active=ln.active, change=ln.change, rank=ln.rank,
                category=ln.category,
            )
            for ln in lines
        ],
        batch_size=1000,
    )
    bump_on_commit("ratings")
    transaction.on_commit(lambda: _queue_list_pdf(rating_list.pk))
    return rating_list


def _queue_list_pdf(rating_list_id: int) -> None:
    """Have a ``pdf`` worker build a new list's PDF (in the site's language) before anyone asks: a
    federation's whole list takes a while (about 4 ms a player). Not in the embedded mode (Celery
    eager: the first download builds it); a broker that cannot be reached only leaves it to that."""
    import logging

    from django.conf import settings

    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    from ratings.tasks import rating_list_pdf_task

    try:
        rating_list_pdf_task.delay(rating_list_id, (settings.LANGUAGE_CODE or "tr")[:2])
    except Exception:  # noqa: BLE001 - the list is published; its PDF is built on the first download
        logging.getLogger(__name__).warning("rating list %s: PDF not queued", rating_list_id, exc_info=True)


@transaction.atomic
def rating_list_withdraw(*, rating_list, user, reason: str):
    """Withdraw an official list (staff only): it stays in the archive, marked withdrawn with who,
    when and ``reason``, and is no longer the list of its date; a corrected list may then be
    published for that date. Recorded in the audit history (``rating_list.withdraw``).

    Refusals: ``reason`` empty or too long (ValidationFailed, field ``reason``); the list withdrawn
    already (Conflict).
    """
    from federation.audit import audit_context
    from federation.errors import Conflict
    from federation.validators import clean_reason
    from ratings.models import RatingList

    _require_list_staff(user, _("Only federation staff can withdraw rating lists."))
    reason = clean_reason(reason, max_length=LIST_REASON_MAX_LENGTH, required=True,
                          message=_("Say why the list is withdrawn."))
    rating_list = RatingList.objects.select_for_update().get(pk=rating_list.pk)
    if rating_list.withdrawn_at is not None:
        raise Conflict(_("This list was withdrawn already."))
    rating_list.withdrawn_at = timezone.now()
    rating_list.withdrawn_by = user if getattr(user, "is_authenticated", False) else None
    rating_list.withdrawn_reason = reason
    with audit_context(action="rating_list.withdraw", user=user, reason=reason):
        rating_list.save(update_fields=["withdrawn_at", "withdrawn_by", "withdrawn_reason"])
    bump_on_commit("ratings")
    return rating_list


def rating_list_entries_anonymise(*, player_ids) -> int:
    """Give the lines of ``player_ids`` on every official list the anonymised player's name and no
    city (KVKK erasure, :func:`federation.services.player_anonymise`): the lists keep the federation
    id, club, rating and rank, never the old name. Returns the number of lines changed."""
    from ratings.models import RatingListEntry

    from ratings.list_pdf import rating_list_pdf_files_remove

    changed = 0
    lists: set[int] = set()
    for p in Player.objects.filter(pk__in=list(player_ids)).only("pk", "first_name", "last_name"):
        rows = RatingListEntry.objects.filter(player_id=p.pk)
        lists.update(rows.values_list("rating_list_id", flat=True))
        changed += rows.update(name=p.full_name[:130], city="")
    if changed:
        bump_on_commit("ratings")
        # the lists' PDFs printed the old name: built again when next asked for (files: after the commit)
        transaction.on_commit(lambda: rating_list_pdf_files_remove(lists))
    return changed


# --------------------------------------------------------------------------------------------
# Parameter sets: save a candidate, adopt it, return to the shipped defaults (docs/ratings.md,
# "Tuning and adoption"). Each adoption or return is followed by a full re-rating.
# --------------------------------------------------------------------------------------------

PARAMETER_LABEL_MAX_LENGTH = 120


def _require_staff(user, message: str) -> None:
    from federation import roles
    from federation.errors import PermissionDenied

    if not roles.is_staff(user):
        raise PermissionDenied(message)


def _json_value_ok(value) -> bool:
    import json

    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


def _clean_params(params) -> dict:
    """``params`` (name -> value) checked against the federation system's parameters and returned as
    every parameter's value (the given ones over the shipped defaults, in the engine's order), so a
    stored set says exactly which numbers it rates with. Raises ValidationFailed, field ``params``,
    whose message names the parameter at fault (a value outside its admitted range included)."""
    import dataclasses
    import math
    from collections.abc import Mapping

    from federation.errors import ValidationFailed
    from ratings.engine import RatingInputError, federation_params
    from ratings.parameter_checks import range_refusal
    if not isinstance(params, Mapping):
        raise ValidationFailed(_("The parameters must be a JSON object of names and values."), field="params")
    defaults = federation_params(None)
    fields = {f.name: f for f in dataclasses.fields(defaults)}
    cleaned = {}
    for key, value in params.items():
        if key not in fields:
            raise ValidationFailed(
                _("Unknown rating parameter %(key)s (known: %(known)s).") % {"key": key, "known": ", ".join(fields)},
                field="params",
            )
        default = getattr(defaults, key)
        nullable = default is None or "None" in str(fields[key].type)
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if value is None and nullable:
            pass
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise ValidationFailed(_("%(key)s must be true or false.") % {"key": key}, field="params")
        elif isinstance(default, int):
            if not (number and math.isfinite(value) and value == int(value)):
                raise ValidationFailed(_("%(key)s must be a whole number.") % {"key": key}, field="params")
            value = int(value)
        elif not number or not math.isfinite(value):
            raise ValidationFailed(_("%(key)s must be a finite number.") % {"key": key}, field="params")
        elif isinstance(default, float) or default is None:
            value = float(value)
        cleaned[key] = value
    if cleaned.get("monotone", True) is not True:
        raise ValidationFailed(
            _("monotone: “a won set never lowers a rating” is the federation's rule and cannot be switched off."),
            field="params",
        )
    if refusal := range_refusal(cleaned):  # the admitted ranges (issue 23), said in the user's language
        raise ValidationFailed(refusal, field="params")
    try:
        obj = federation_params(cleaned)
    except RatingInputError as exc:
        text = str(exc)
        key = next((k for k in cleaned if k in text), None)
        message = text if key is None or text.startswith(key) else f"{key}: {text}"
        raise ValidationFailed(message, field="params") from None
    full = {name: getattr(obj, name) for name in fields}
    if not _json_value_ok(full):
        raise ValidationFailed(_("The parameters must be finite numbers, true/false or empty."), field="params")
    return full


def _clean_label(label) -> str:
    from django.utils.translation import gettext as _

    from federation.errors import ValidationFailed
    from federation.validators import first_control_character

    if not isinstance(label, str):
        raise ValidationFailed(_("The label must be text."), field="label")
    label = label.strip()
    if not label:
        raise ValidationFailed(_("Give the parameter set a label."), field="label")
    if first_control_character(label) is not None:
        raise ValidationFailed(_("Control characters are not allowed in a label."), field="label")
    if len(label) > PARAMETER_LABEL_MAX_LENGTH:
        raise ValidationFailed(_("The label is longer than %(n)d characters.") % {"n": PARAMETER_LABEL_MAX_LENGTH},
                               field="label")
    return label


@transaction.atomic
def rating_parameters_create(*, label: str, params: dict, report: dict | None = None, user):
    """Save a candidate :class:`~ratings.models.RatingParameterSet` of the federation's system (not
    adopted): ``params`` (name -> value, over the shipped defaults; stored with every parameter's
    value), ``report`` what produced it (``rating_tune``'s JSON; ``{}`` for a set entered by hand).

    ``user``: federation staff (PermissionDenied otherwise); None for the command line
    (``rating_tune --save``). Refusals (ValidationFailed): ``label`` empty, longer than 120 characters or
    with control characters (field ``label``); an unknown parameter or a bad value (field ``params``,
    the message names the parameter); ``report`` not a JSON object (field ``report``). Recorded in the
    set's history (``rating_parameters.create``).
    """
    from django.utils.translation import gettext as _

    from federation.audit import audit_context
    from federation.errors import ValidationFailed
    from ratings.models import RatingParameterSet

    if user is not None:
        _require_staff(user, _("Only federation staff can change the rating parameters."))
    label = _clean_label(label)
    params = _clean_params(params)
    report = {} if report is None else report
    if not isinstance(report, dict) or not _json_value_ok(report):
        raise ValidationFailed(_("The tuning report must be a JSON object."), field="report")
    with audit_context(action="rating_parameters.create", user=user):
        return RatingParameterSet.objects.create(
            label=label, system=FEDERATION_SYSTEM, params=params, report=report,
            created_by=user if getattr(user, "is_authenticated", False) else None,
        )


def _rerate_all_on_commit() -> None:
    """Queue the full re-rating (``ratings.tasks.rerate_all_task``, on the ratings queue) once the
    transaction commits. A broker that cannot be reached is logged: the adoption stands, the
    parameter page shows the re-rating as pending, and ``manage.py rerate_all`` does it by hand."""
    import logging

    from ratings.tasks import rerate_all_task

    def send():
        try:
            rerate_all_task.delay()
        except Exception as exc:  # noqa: BLE001 - eager mode raises the task's own errors here too
            from django.conf import settings

            if settings.CELERY_TASK_ALWAYS_EAGER:
                raise
            logging.getLogger(__name__).warning("could not queue the full re-rating: %s", exc)

    transaction.on_commit(send)


def _set_in_force(system: str):
    from ratings.models import RatingParameterSet

    return (
        RatingParameterSet.objects.select_for_update()
        .filter(system=system, adopted_at__isnull=False, retired_at__isnull=True)
        .first()
    )


@transaction.atomic
def rating_parameters_adopt(*, parameter_set, user, reason: str):
    """Put ``parameter_set`` in force for the federation's rating (federation staff; ``reason``
    required) and return the row in force.

    The set in force before is retired (``retired_at``/``retired_by``); the adopted row records
    ``adopted_at``, ``adopted_by`` and ``adoption_reason``; both history rows carry the action
    ``rating_parameters.adopt``, the user and the reason. A set adopted before and since retired is
    adopted as a copy (a new row with its label, parameters and report), so each row keeps its own
    adoption. After the commit a full re-rating runs with the new parameters
    (``ratings.tasks.rerate_all_task``).

    Refusals: not staff (PermissionDenied); reason empty (ValidationFailed, field ``reason``); the set
    is in force already, or belongs to another system (Conflict); its parameters are no longer valid
    for the engine (ValidationFailed, field ``params``, naming the parameter).
    """
    from django.db import IntegrityError
    from django.utils.translation import gettext as _

    from federation.audit import audit_context
    from federation.errors import Conflict
    from federation.validators import clean_reason
    from ratings.models import RatingParameterSet

    _require_staff(user, _("Only federation staff can change the rating parameters."))
    reason = clean_reason(reason, required=True,
                          message=_("Say why these parameters are adopted (the reason is recorded)."))
    row = RatingParameterSet.objects.select_for_update().get(pk=parameter_set.pk)
    if row.system != FEDERATION_SYSTEM:
        raise Conflict(_("This parameter set is for the rating system %(s)s, not the federation's (%(f)s).")
                       % {"s": row.system, "f": FEDERATION_SYSTEM}, field="system")
    if row.in_force:
        raise Conflict(_("This parameter set is in force already."), field="parameter_set")
    params = _clean_params(row.params)
    now = timezone.now()
    with audit_context(action="rating_parameters.adopt", user=user, reason=reason):
        current = _set_in_force(FEDERATION_SYSTEM)
        if current is not None:
            current.retired_at, current.retired_by = now, user
            current.save(update_fields=["retired_at", "retired_by"])
        if row.adopted_at is not None:  # adopted and retired before: adopt a copy
            row = RatingParameterSet(label=row.label, system=row.system, report=row.report, created_by=user)
        row.params = params
        row.adopted_at, row.adopted_by, row.adoption_reason = now, user, reason
        try:
            with transaction.atomic():
                row.save()
        except IntegrityError as exc:  # another set adopted meanwhile
            raise Conflict(_("Another parameter set was adopted meanwhile; reload the page."),
                           field="parameter_set") from exc
    _rerate_all_on_commit()
    return row


@transaction.atomic
def rating_parameters_revert_to_defaults(*, user, reason: str):
    """Return the federation's rating to the engine's shipped defaults (federation staff; ``reason``
    required): the set in force is retired (who, when; the reason is in its history row, action
    ``rating_parameters.revert``) and returned; a full re-rating follows after the commit.
    Refusals: not staff (PermissionDenied); reason empty (ValidationFailed, field ``reason``); the
    shipped defaults are in force already (Conflict)."""
    from django.utils.translation import gettext as _

    from federation.audit import audit_context
    from federation.errors import Conflict
    from federation.validators import clean_reason

    _require_staff(user, _("Only federation staff can change the rating parameters."))
    reason = clean_reason(reason, required=True,
                          message=_("Say why the shipped defaults are restored (the reason is recorded)."))
    current = _set_in_force(FEDERATION_SYSTEM)
    if current is None:
        raise Conflict(_("The shipped defaults are in force already."), field="parameter_set")
    with audit_context(action="rating_parameters.revert", user=user, reason=reason):
        current.retired_at, current.retired_by = timezone.now(), user
        current.save(update_fields=["retired_at", "retired_by"])
    _rerate_all_on_commit()
    return current
