"""A player's own data (KVKK right of access): everything the federation stores about one person, as
JSON — served at ``/players/<federation_id>/my-data.json`` to the player's own account and to staff.

:func:`player_data_export` gathers, in a fixed number of queries: the register record (with every
record merged into it), the tournament entries, every match and set played (with byes and
forfeits), bye requests, what the apps above add (:data:`federation.signals.player_data_exported`:
the initial rating and the rating history with each rated set's calculation), and the change history
of the register record (who changed what, when, why).
Unpublished pairings (rounds paired but not yet published) are left out: they are not yet results.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db.models import Q
from django.utils import timezone

from federation import privacy, signals
from federation.models import Player

FORMAT_VERSION = 1


def json_value(value):
    """``value`` as JSON: dates and times in ISO 8601, decimals as floats, the rest unchanged."""
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return float(value)
    return value


def _player(p: Player) -> dict:
    return {
        "federation_id": p.federation_id, "first_name": p.first_name, "last_name": p.last_name,
        "full_name": p.full_name, "sex": p.sex, "birth_year": p.birth_year,
        "age_category": privacy.age_category(p.birth_year),
        "club": {"id": p.club_id, "name": p.club.name} if p.club_id else None, "city": p.city,
        "rating": p.rating, "active": p.active,
        "merged_into": p.merged_into.federation_id if p.merged_into_id else None,
        "login": p.user.get_username() if p.user_id else None,
    }


def player_data_export(player: Player) -> dict:
    """Everything stored about ``player`` (and the records merged into it) as JSON-ready data."""
    from tournaments.models import Absence, Entry, Match, Round, SetResult

    player = Player.objects.select_related("club", "user", "merged_into").get(pk=player.pk)
    merged = list(Player.objects.select_related("club", "user", "merged_into").filter(merged_into=player)
                  .order_by("federation_id"))
    ids = [player.pk, *(m.pk for m in merged)]

    entries = list(Entry.objects.filter(player_id__in=ids).select_related("tournament", "player")
                   .order_by("tournament__start_date", "tournament_id"))
    entry_ids = [e.pk for e in entries]
    matches = list(
        Match.objects.filter(Q(white_id__in=entry_ids) | Q(black_id__in=entry_ids))
        .exclude(round__status__in=[Round.Status.DRAFT, Round.Status.PAIRED])
        .select_related("round__tournament", "white__player", "black__player")
        .order_by("round__tournament_id", "round__number", "board")
    )
    sets: dict[int, list[SetResult]] = {}
    for s in SetResult.objects.filter(match__in=[m.pk for m in matches]).order_by("match_id", "number"):
        sets.setdefault(s.match_id, []).append(s)
    absences = list(Absence.objects.filter(entry_id__in=entry_ids).select_related("entry__tournament")
                    .order_by("entry__tournament_id", "round_number"))

    results = []
    for m in matches:
        own_white = m.white_id in entry_ids
        opponent = m.black if own_white else m.white
        own_points, opp_points = (m.white_points, m.black_points) if own_white else (m.black_points, m.white_points)
        results.append({
            "tournament": m.round.tournament.slug, "round": m.round.number, "board": m.board, "kind": m.kind,
            "bye_kind": m.bye_kind or None, "colour": "white" if own_white else "black",
            "opponent": ({"federation_id": opponent.player.federation_id, "name": opponent.player.full_name}
                         if opponent is not None else None),
            "forfeit": m.forfeit or None, "points": json_value(own_points), "opponent_points": json_value(opp_points),
            "rated": m.rated,
            "sets": [
                {
                    "number": s.number, "starter": s.starter, "termination": s.termination,
                    "own_stones": s.white_stones if own_white else s.black_stones,
                    "opponent_stones": s.black_stones if own_white else s.white_stones,
                    "moves": s.moves,
                }
                for s in sets.get(m.pk, [])
            ],
        })

    history = [
        {
            "at": json_value(h.history_date), "action": h.audit_action or h.get_history_type_display(),
            "by": privacy.display_name(h.history_user) if h.history_user_id else None,
            "reason": h.history_change_reason or "",
            "record": {
                "federation_id": h.federation_id, "first_name": h.first_name, "last_name": h.last_name,
                "sex": h.sex, "birth_year": h.birth_year, "club_id": h.club_id, "city": h.city, "active": h.active,
            },
        }
        for h in Player.history.filter(id__in=ids).select_related("history_user").order_by("history_date", "history_id")
    ]

    return {
        "format": FORMAT_VERSION,
        "generated_at": timezone.now().isoformat(),
        "player": _player(player),
        "merged_records": [_player(m) for m in merged],
        "entries": [
            {
                "tournament": {"slug": e.tournament.slug, "name": e.tournament.name,
                               "start_date": json_value(e.tournament.start_date), "end_date": json_value(e.tournament.end_date)},
                "federation_id": e.player.federation_id, "start_no": e.start_no, "rating": e.rating,
                "withdrawn": e.withdrawn, "withdrawn_after_round": e.withdrawn_after_round,
            }
            for e in entries
        ],
        "byes_requested": [
            {"tournament": a.entry.tournament.slug, "round": a.round_number, "kind": a.kind,
             "requested_at": json_value(a.created_at)}
            for a in absences
        ],
        "results": results,
        **signals.answers(signals.player_data_exported, player=player, ids=ids),
        "change_history": history,
    }
