"""A player's own data (KVKK right of access): everything the federation stores about one person, as
JSON — served at ``/players/<federation_id>/my-data.json`` to the player's own account and to staff.

:func:`player_data_export` gathers, in a fixed number of queries: the register record (with every
record merged into it), what the apps above add (:data:`federation.signals.player_data_exported`:
the tournament entries, every match and set played (with byes and forfeits) and bye requests
(:func:`tournaments.people.selectors.player_tournament_data`); the initial rating and the rating history
with each rated set's calculation), and the change history of the register record (who changed what,
when, why). Unpublished pairings (rounds paired but not yet published) are left out: they are not yet
results.
"""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

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
    player = Player.objects.select_related("club", "user", "merged_into").get(pk=player.pk)
    merged = list(Player.objects.select_related("club", "user", "merged_into").filter(merged_into=player)
                  .order_by("federation_id"))
    ids = [player.pk, *(m.pk for m in merged)]

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
        **signals.answers(signals.player_data_exported, player=player, ids=ids),
        "change_history": history,
    }
