"""Invariants of the national rating (:mod:`tournaments.invariants` runs them: ``manage.py
check_invariants`` and the nightly ``tournaments.check_invariants``; registered in
:meth:`ratings.apps.RatingsConfig.ready`). The stored rating against the results:

* ``rating.not_rateable``/``rating.missing`` (a rating event exactly for the finished events
  with published final standings that are not archived), ``rating.inputs`` (the stored sets can be
  rated), ``rating.event_count`` and ``rating.period`` (the stored counts and period of a
  :class:`~ratings.models.RatingEvent` equal those :func:`ratings.inputs.rating_inputs` recomputes
  from the results), ``rating.players`` (one change per rated player), ``rating.lines`` (one line per
  rated set and player), ``rating.change_sets`` (``RatingChange.sets`` = its lines),
  ``rating.change_total`` (a rated player's rating after = before + the sum of the lines' changes; an
  unrated player's lines change nothing), ``rating.line`` (each line's score and margin are those of
  its set), ``rating.player`` (``Player.rating`` is the rounded rating after the player's last event).

:func:`rating_change_findings` is a rule over plain values (no query); :func:`check_ratings` reads the rows.
"""
from __future__ import annotations

import math
from collections import defaultdict
from decimal import Decimal
from typing import Sequence

from django.utils.translation import gettext_lazy

from federation.errors import ApplicationError
from federation.models import Player
from ratings import inputs
from ratings.engine.federation import stored_rating
from ratings.models import RatingChange, RatingEvent, RatingGameLine
from tournaments.invariants import ONE, Finding, Violation, points_text, violation
from tournaments.models import Tournament
from tournaments.publication import is_rateable


def rating_change_findings(*, rating_before: float, rating_after: float, status_before: str, sets: int,
                           deltas: Sequence[float]) -> list[Finding]:
    """The rules one stored rating change breaks (:mod:`ratings.engine.elo`: a rated player's change is
    the sum of the set changes, applied at the end of the event; an unrated player's lines change
    nothing, the rating comes from the performance)."""
    out = []
    if sets != len(deltas):
        out.append(Finding("rating.change_sets", {"expected": len(deltas), "found": sets}, len(deltas), sets))
    total = math.fsum(deltas)
    if status_before != "unrated":
        want = rating_before + total
        if not math.isclose(want, rating_after, rel_tol=0, abs_tol=1e-6):
            out.append(Finding("rating.change_total", {
                "before": f"{rating_before:.2f}", "delta": f"{total:+.2f}", "expected": f"{want:.2f}",
                "found": f"{rating_after:.2f}"}, round(want, 6), round(rating_after, 6)))
    elif any(d != 0 for d in deltas):
        out.append(Finding("rating.unrated_delta", {"found": f"{total:+.2f}"}, 0, round(total, 6)))
    return out


#: ``kind`` → the sentence of a rating violation (joins :data:`tournaments.invariants.MESSAGES`).
MESSAGES = {
    "rating.not_rateable": gettext_lazy("the tournament is rated but is not a finished event with published final "
                                        "standings, or it is archived"),
    "rating.missing": gettext_lazy("the tournament is finished with published final standings but not rated"),
    "rating.inputs": gettext_lazy("the results cannot be rated: %(reason)s"),
    "rating.event_count": gettext_lazy("%(what)s: stored %(found)s, the results give %(expected)s"),
    "rating.period": gettext_lazy("rated on %(found)s, but the event's rating period is %(expected)s"),
    "rating.players": gettext_lazy("%(found)d rating changes stored; the event counts %(expected)d players"),
    "rating.lines": gettext_lazy("%(found)d rating lines stored; %(expected)d rated sets give twice as many lines"),
    "rating.change_sets": gettext_lazy("the change counts %(found)d rated sets but has %(expected)d lines"),
    "rating.change_total": gettext_lazy("rating %(before)s plus the set changes %(delta)s is %(expected)s, stored "
                                        "%(found)s"),
    "rating.unrated_delta": gettext_lazy("an unrated player's lines change the rating by %(found)s (expected 0)"),
    "rating.line": gettext_lazy("set %(set)d: stored score %(found_score)s and margin %(found_margin)s; the set "
                                "gives %(expected_score)s and %(expected_margin)s"),
    "rating.line_set": gettext_lazy("a line rates set %(set)s, which is not a rated set of the event"),
    "rating.player": gettext_lazy("current rating %(found)d; the player's last rating change gives %(expected)d"),
}


def check_ratings(*, tournaments=None) -> list[Violation]:
    """The stored national rating against the results (:mod:`ratings`): for ``tournaments`` (a queryset;
    None: every tournament, every rating event and every rated player)."""
    out: list[Violation] = []
    qs = Tournament.objects.all() if tournaments is None else tournaments
    events = {ev.tournament_id: ev for ev in RatingEvent.objects.filter(tournament__in=qs)}
    for t in qs.order_by("pk"):
        ev = events.get(t.pk)
        rateable = is_rateable(t)
        if ev is None:
            if rateable:
                out.append(violation("tournaments.Tournament", t.pk, t.slug, Finding("rating.missing"), t.slug))
            continue
        where = t.slug
        if not rateable:
            out.append(violation("ratings.RatingEvent", ev.pk, where, Finding("rating.not_rateable"), t.slug))
            continue
        out.extend(_event_violations(t, ev))
    # players: the current rating is the rating after the last event
    players = Player.objects.filter(rating_changes__isnull=False)
    if tournaments is not None:
        players = players.filter(entries__tournament__in=qs)
    players = players.distinct().order_by("pk")
    last: dict[int, tuple] = {}
    changes = RatingChange.objects.filter(player__in=players).order_by("player_id", "period", "event__tournament_id")
    for player_id, status, after in changes.values_list("player_id", "status_after", "rating_after"):
        last[player_id] = (status, after)
    for p in players.only("pk", "rating", "federation_id"):
        status, after = last[p.pk]
        want = stored_rating(status, after)
        if p.rating != want:
            f = Finding("rating.player", {"found": p.rating, "expected": want}, want, p.rating)
            out.append(violation("federation.Player", p.pk, p.federation_id, f, ""))
    return out


def _event_violations(t, ev) -> list[Violation]:
    """One rating event against what :func:`ratings.inputs.rating_inputs` makes of the results."""
    slug = t.slug
    out: list[Violation] = []

    def add(model, pk, f):
        out.append(violation(model, pk, slug, f, slug))

    try:
        [inp] = inputs.rating_inputs([t])
    except ApplicationError as exc:
        add("ratings.RatingEvent", ev.pk, Finding("rating.inputs", {"reason": exc.message}, None, None))
        return out
    period = inputs.rating_period(t)
    if ev.period != period:
        add("ratings.RatingEvent", ev.pk, Finding("rating.period", {"found": ev.period, "expected": period},
                                                  period.isoformat(), ev.period.isoformat()))
    players = inputs.players_in([inp])
    want = {"rated_sets": len(inp.event.sets), "players": len(players), "forfeits": inp.forfeits, "byes": inp.byes,
            "unrated_matches": inp.unrated_matches, "matches_without_sets": inp.matches_without_sets}
    for name, value in want.items():
        stored = getattr(ev, name)
        if stored != value:
            add("ratings.RatingEvent", ev.pk, Finding("rating.event_count", {"what": name, "found": stored,
                                                                              "expected": value}, value, stored))
    changes = list(RatingChange.objects.filter(event=ev))
    if len(changes) != len(players):
        add("ratings.RatingEvent", ev.pk, Finding("rating.players", {"found": len(changes), "expected": len(players)},
                                                  len(players), len(changes)))
    # what each (player, set) line must say, from the engine's own view of the set
    expected: dict[tuple[int, int], tuple[Decimal, int]] = {}
    for s, set_id in zip(inp.event.sets, inp.set_ids):
        score = Decimal(str(s.score))
        expected[(s.player_a, set_id)] = (score, s.margin)
        expected[(s.player_b, set_id)] = (ONE - score, -s.margin)
    lines = list(RatingGameLine.objects.filter(change__event=ev).order_by("pk")
                 .values_list("change_id", "change__player_id", "set_result_id", "set_result__number", "score",
                              "margin", "delta", "pk"))
    if len(lines) != 2 * len(inp.event.sets):
        add("ratings.RatingEvent", ev.pk, Finding("rating.lines", {"found": len(lines), "expected": 2 * len(inp.event.sets)},
                                                  2 * len(inp.event.sets), len(lines)))
    deltas: dict[int, list[float]] = defaultdict(list)
    for change_id, player_id, set_id, set_no, score, margin, delta, pk in lines:
        deltas[change_id].append(delta)
        want_line = expected.get((player_id, set_id))
        if want_line is None:
            add("ratings.RatingGameLine", pk, Finding("rating.line_set", {"set": set_id}, None, set_id))
        elif (Decimal(score), margin) != want_line:
            add("ratings.RatingGameLine", pk, Finding("rating.line", {
                "set": set_no, "found_score": points_text(score), "found_margin": margin,
                "expected_score": points_text(want_line[0]), "expected_margin": want_line[1]},
                [points_text(want_line[0]), want_line[1]], [points_text(score), margin]))
    for c in changes:
        for f in rating_change_findings(rating_before=c.rating_before, rating_after=c.rating_after,
                                        status_before=c.status_before, sets=c.sets, deltas=deltas.get(c.pk, [])):
            add("ratings.RatingChange", c.pk, f)
    return out
