"""Writes of the national rating: rate tournaments with the pure engine and store the result.

Every rating run computes the whole history with :func:`ratings.engine.rate_events` (margin Elo,
:class:`ratings.engine.MarginElo` with its default parameters, docs/ratings.md) from each player's
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

from federation.models import Player
from federation.versions import bump_on_commit
from ratings import selectors
from ratings.engine import UNRATED, MarginElo, RatingRun, rate_events
from ratings.models import InitialRating, RatingChange, RatingEvent, RatingGameLine
from tournaments.models import Tournament

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


def rating_system() -> MarginElo:
    """The federation's rating system: margin Elo with the engine's default parameters."""
    return MarginElo()


def _lock() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK_KEY])


def _initial_ratings(player_ids: set) -> dict[int, float]:
    """Each player's starting rating (0 = unrated, left out); captures ``Player.rating`` as the
    :class:`InitialRating` of players the national rating has not seen before."""
    known = dict(InitialRating.objects.filter(player_id__in=player_ids).values_list("player_id", "rating"))
    missing = [pid for pid in player_ids if pid not in known]
    if missing:
        rows = list(Player.objects.filter(pk__in=missing).values_list("pk", "rating"))
        InitialRating.objects.bulk_create([InitialRating(player_id=pk, rating=r) for pk, r in rows], ignore_conflicts=True)
        known.update(rows)
    return {pid: float(r) for pid, r in known.items() if r > 0}


def _run(inputs: list[selectors.EventInput]) -> RatingRun:
    initial = _initial_ratings(selectors.players_in(inputs))
    return rate_events([i.event for i in inputs], rating_system(), initial=initial, history=True)


def _write_event(inp: selectors.EventInput, run: RatingRun, now: dt.datetime) -> RatingEvent:
    """Store one event's rows from ``run`` (the event must not have rows yet)."""
    ev = inp.event
    players = selectors.players_in([inp])
    rev = RatingEvent.objects.create(
        tournament=inp.tournament, period=ev.date, rated_at=now, system=rating_system().name,
        rated_sets=len(ev.sets), players=len(players), forfeits=inp.forfeits, byes=inp.byes,
        unrated_matches=inp.unrated_matches, matches_without_sets=inp.matches_without_sets,
    )
    entries = {}
    for pid in players:
        entry = next((h for h in run.history.get(pid, ()) if h.event_id == ev.id), None)
        if entry is not None:
            entries[pid] = entry
    changes = RatingChange.objects.bulk_create(
        [
            RatingChange(
                event=rev, player_id=pid, period=ev.date, rating_before=h.rating_before, rating_after=h.rating_after,
                status_before=h.status_before, status_after=h.status_after, sets=len(h.lines),
            )
            for pid, h in sorted(entries.items())
        ]
    )
    change_of = {c.player_id: c for c in changes}
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
            lines.append(
                RatingGameLine(
                    change=change_of[pid], set_result_id=set_id, opponent_id=opp, opponent_rating=ln.opponent_rating,
                    score=_SCORE[set_score], result_score=ln.score, margin=ln.margin, expected=ln.expected,
                    delta=ln.change,
                )
            )
    RatingGameLine.objects.bulk_create(lines)
    return rev


def _player_rating(status: str, rating: float) -> int:
    if status == UNRATED:
        return 0
    return max(0, min(4000, int(rating + 0.5)))


def _update_players(run: RatingRun) -> int:
    """Set ``Player.rating`` of every player the rating has seen: the run's rating (rounded; 0 while
    unrated), or the initial rating for a player no rated event counts any more."""
    base = dict(InitialRating.objects.values_list("player_id", "rating"))
    want = {}
    for pid, r0 in base.items():
        pr = run.ratings.get(pid)
        want[pid] = r0 if pr is None else _player_rating(pr.status, pr.rating)
    changed = []
    for p in Player.objects.filter(pk__in=list(want)).only("pk", "rating"):
        if p.rating != want[p.pk]:
            p.rating = want[p.pk]
            changed.append(p)
    Player.objects.bulk_update(changed, ["rating"], batch_size=500)
    bump_on_commit("ratings")  # the rating list's cached copies (bulk writes send no signal)
    return len(changed)


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
    RatingEvent.objects.filter(_key_q(key)).delete()
    bump_on_commit("ratings")
    todo = [i for i in inputs if (i.event.date, i.tournament.pk) >= key]
    now = timezone.now()
    for n, inp in enumerate(todo, start=1):
        rev = _write_event(inp, run, now)
        if progress is not None:
            progress(n, len(todo), rev)
    return RatingSummary(
        tuple(i.tournament.pk for i in todo), sum(len(i.event.sets) for i in todo), _update_players(run)
    )


@transaction.atomic
def tournament_rate(*, tournament: Tournament) -> RatingEvent | None:
    """Rate ``tournament``'s sets with margin Elo against the ratings at the start of the event
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
    if not selectors.is_rateable(tournament):
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
    tournament = Tournament.objects.get(pk=tournament.pk)
    key = selectors.event_key(tournament)
    old = RatingEvent.objects.filter(tournament=tournament).values_list("period", flat=True).first()
    if old is not None and (old, tournament.pk) < key:
        key = (old, tournament.pk)
    return _rewrite_from(key, None)


@transaction.atomic
def ratings_recompute_all(*, progress: Callable[[int, int, RatingEvent], None] | None = None) -> RatingSummary:
    """Delete every stored rating event and rate all rated tournaments again in order;
    ``progress(n, total, rating_event)`` is called after each event. Updates ``Player.rating``."""
    RatingEvent.objects.all().delete()
    bump_on_commit("ratings")
    return _rewrite_from(None, progress)
