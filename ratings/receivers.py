"""Receivers of :mod:`tournaments.signals` and :mod:`federation.signals`, connected in
:meth:`ratings.apps.RatingsConfig.ready`."""
from __future__ import annotations


def rate_on_change(sender, *, tournament_id: int, **kwargs) -> None:
    """Queue the rating run of ``tournament_id`` and every later event (``ratings.rate_tournament``, idempotent)."""
    from ratings.tasks import rate_tournament_task

    rate_tournament_task.delay(tournament_id)


def was_rated(sender, *, tournament_id: int, **kwargs) -> bool:
    """True when ``tournament_id`` has a rating event (its results were rated)."""
    from ratings.models import RatingEvent

    return RatingEvent.objects.filter(tournament_id=tournament_id).exists()


def player_rating_data(sender, *, player, ids, **kwargs) -> dict:
    """The ``"rating"`` section of a player's own data (:data:`federation.signals.player_data_exported`): the
    current rating, the initial rating and the history with each rated set's calculation. Three queries."""
    from federation.personal_data import json_value
    from ratings.models import InitialRating, RatingChange, RatingGameLine

    changes = list(RatingChange.objects.filter(player_id__in=ids).select_related("event__tournament")
                   .order_by("period", "event__tournament_id"))
    lines: dict[int, list[RatingGameLine]] = {}
    for ln in (RatingGameLine.objects.filter(change__in=changes)
               .select_related("opponent", "set_result__match__round")
               .order_by("set_result__match__round__number", "set_result__number")):
        lines.setdefault(ln.change_id, []).append(ln)
    initial = InitialRating.objects.filter(player_id__in=ids).order_by("player_id").first()
    return {
        "rating": {
            "current": player.rating,
            "initial": ({"rating": initial.rating, "captured_at": json_value(initial.captured_at)} if initial else None),
            "history": [
                {
                    "tournament": c.event.tournament.slug, "period": json_value(c.period),
                    "rating_before": c.rating_before, "rating_after": c.rating_after,
                    "status_before": c.status_before, "status_after": c.status_after, "sets": c.sets,
                    "lines": [
                        {
                            "round": ln.set_result.match.round.number, "set": ln.set_result.number,
                            "opponent": {"federation_id": ln.opponent.federation_id, "name": ln.opponent.full_name},
                            "opponent_rating": ln.opponent_rating, "score": float(ln.score),
                            "result_score": ln.result_score, "margin": ln.margin, "expected": ln.expected,
                            "delta": ln.delta,
                        }
                        for ln in lines.get(c.pk, [])
                    ],
                }
                for c in changes
            ],
        },
    }


def merge_ratings(sender, *, keep, merge, **kwargs) -> None:
    """``merge`` is merged into ``keep`` (:data:`federation.signals.player_merged`): ``merge``'s initial rating
    moves to ``keep`` if ``keep`` has none, else it is deleted; ``merge``'s rating changes (with their lines)
    are deleted; after the commit a full re-rating is queued (``ratings.rerate_all``), so ``keep``'s history
    holds both records' events and the opponents' lines name ``keep``."""
    from django.db import transaction

    from ratings.models import InitialRating, RatingChange
    from ratings.tasks import rerate_all_task

    if InitialRating.objects.filter(player=keep).exists():
        InitialRating.objects.filter(player=merge).delete()
    else:
        InitialRating.objects.filter(player=merge).update(player=keep)
    RatingChange.objects.filter(player=merge).delete()
    transaction.on_commit(lambda: rerate_all_task.delay())


def anonymise_list_entries(sender, *, player_ids, **kwargs) -> None:
    """The records ``player_ids`` were anonymised (:data:`federation.signals.players_anonymised`): their lines
    on the official rating lists get the new name (:func:`ratings.lists.services.rating_list_entries_anonymise`)."""
    from ratings.lists.services import rating_list_entries_anonymise

    rating_list_entries_anonymise(player_ids=player_ids)


def player_page_section(sender, *, player, **kwargs) -> dict:
    """The rating section of the player page (:data:`federation.signals.player_page_shown`):
    :func:`ratings.views.player_rating_context`."""
    from ratings.views import player_rating_context

    return player_rating_context(player)
