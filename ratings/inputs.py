"""The rating run's input: which tournaments are rated, in which order, and their rated sets as the
engine's value objects (:class:`ratings.engine.Event`, :class:`ratings.engine.RatedSet`). Two queries
per call (rows streamed), whatever the number of events.
"""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Sequence

from django.utils import timezone
from django.utils.translation import gettext as _

from federation.errors import ValidationFailed
from ratings.engine import Event, RatedSet, RatingInputError
from tournaments.models import Match, Round, SetResult, Tournament


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


def players_in(events: Iterable[EventInput]) -> set:
    """Every player id that plays a rated set in ``events``."""
    out = set()
    for e in events:
        for s in e.event.sets:
            out.add(s.player_a)
            if s.player_b is not None:
                out.add(s.player_b)
    return out
