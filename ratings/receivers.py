"""Receivers of :mod:`tournaments.signals`, connected in :meth:`ratings.apps.RatingsConfig.ready`."""
from __future__ import annotations


def rate_on_change(sender, *, tournament_id: int, **kwargs) -> None:
    """Queue the rating run of ``tournament_id`` and every later event (``ratings.rate_tournament``, idempotent)."""
    from ratings.tasks import rate_tournament_task

    rate_tournament_task.delay(tournament_id)


def was_rated(sender, *, tournament_id: int, **kwargs) -> bool:
    """True when ``tournament_id`` has a rating event (its results were rated)."""
    from ratings.models import RatingEvent

    return RatingEvent.objects.filter(tournament_id=tournament_id).exists()
