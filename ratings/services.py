"""Writes of the national rating: rate tournaments with the pure engine and store the result.

Every rating run computes the whole history with :func:`ratings.engine.rate_events` (the federation's
system, :func:`ratings.parameters.selectors.rating_system`: the adopted :class:`~ratings.models.RatingParameterSet` over the engine's
shipped defaults, docs/ratings.md) from each player's
:class:`~ratings.models.InitialRating`; the pure run is cheap and exact, so a partial re-rating always
equals a full one (measured on SQLite: the 84-event simulated league, 10,909 sets, is re-rated from
scratch with every row written in 2.5 s; re-rating its last event takes 0.7 s). What differs is which rows are rewritten:

- :func:`tournament_rate` — one tournament's rows (its sets rated against the ratings at its start);
- :func:`ratings_recompute_from` — that tournament and every later one (by rating period, then id),
  plus ``Player.rating``; the hook of "publish final standings" (``ratings.tasks.rate_tournament_task``);
- :func:`ratings_recompute_all` — everything from scratch (``manage.py rerate_all``).

Rated tournaments: finished, final standings published (:func:`ratings.inputs.rateable_tournaments`).
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

from federation.models import Player
from federation.versions import bump_on_commit
from ratings.engine import FEDERATION_SYSTEM, RatingRun, rate_events
from ratings.engine.federation import stored_rating
from ratings.inputs import EventInput, event_key, players_in, rateable_tournaments, rating_inputs
from ratings.models import InitialRating, RatingChange, RatingEvent, RatingGameLine
from ratings.parameters.selectors import rating_system
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


def lock_ratings() -> None:
    """Hold the rating run's lock until the transaction ends (PostgreSQL advisory lock; nothing elsewhere):
    one rating run at a time, and no reader of a half-written run."""
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


def _run(inputs: list[EventInput]) -> RatingRun:
    initial = _initial_ratings(players_in(inputs))
    return rate_events([i.event for i in inputs], rating_system(), initial=initial, history=True)


_EVENT_COLUMNS = ["id", "tournament_id", "period", "rated_at", "system", "rated_sets", "players", "forfeits", "byes",
                  "unrated_matches", "matches_without_sets"]
_CHANGE_COLUMNS = ["id", "event_id", "player_id", "period", "rating_before", "rating_after", "status_before",
                   "status_after", "sets"]
_LINE_COLUMNS = ["change_id", "set_result_id", "opponent_id", "opponent_rating", "score", "result_score", "margin",
                 "expected", "delta"]


def _event_rows(inp: EventInput, entries: dict, now: dt.datetime):
    """One event's rows from the engine's history ``entries`` (player id -> its entry of this event):
    the event's values (``_EVENT_COLUMNS`` without ``id``), its changes (player id, values of
    ``_CHANGE_COLUMNS`` after ``event_id``; by player id) and its lines (player id, values of
    ``_LINE_COLUMNS`` after ``change_id``; in the order of the event's sets, each set's player A first)."""
    ev = inp.event
    event = (inp.tournament.pk, ev.date, now, FEDERATION_SYSTEM, len(ev.sets), len(players_in([inp])),
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
    todo: list[EventInput], run: RatingRun, now: dt.datetime,
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


def _write_event(inp: EventInput, run: RatingRun, now: dt.datetime) -> RatingEvent:
    """Store one event's rows from ``run`` (the event must not have rows yet); see :func:`_write_events`."""
    return _write_events([inp], run, now)[0]


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
        want[pid] = r0 if pr is None else stored_rating(pr.status, pr.rating)
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
    lock_ratings()
    tournaments = rateable_tournaments()
    inputs = rating_inputs(tournaments)
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
    lock_ratings()
    tournament = Tournament.objects.get(pk=tournament.pk)
    RatingEvent.objects.filter(tournament=tournament).delete()
    if not is_rateable(tournament):
        bump_on_commit("ratings")
        return None
    key = event_key(tournament)
    upto = [t for t in rateable_tournaments() if event_key(t) <= key]
    inputs = rating_inputs(upto)
    run = _run(inputs)
    bump_on_commit("ratings")
    return _write_event(inputs[-1], run, timezone.now())


@transaction.atomic
def ratings_recompute_from(*, tournament: Tournament) -> RatingSummary:
    """Re-rate ``tournament`` and every later rated tournament (by rating period, then id) from
    scratch and update ``Player.rating``. A tournament that is no longer rated (e.g. re-opened) loses
    its rows. Idempotent; the result equals :func:`ratings_recompute_all`.
    """
    lock_ratings()  # first: the rows read below must not change before the run holds the lock
    tournament = Tournament.objects.get(pk=tournament.pk)
    key = event_key(tournament)
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
    lock_ratings()  # before the first write: a DELETE holding row locks while waiting for the lock deadlocked
    _delete_events(RatingEvent.objects.all())
    bump_on_commit("ratings")
    return _rewrite_from(None, progress)


