"""Celery tasks of the ratings app: they take ids and call services."""
from __future__ import annotations

from celery import shared_task

from federation.jobs import JOB_OPTIONS, pause
from ratings.services import ratings_recompute_all, ratings_recompute_from
from tournaments.models import Tournament


@shared_task(name="ratings.rate_tournament", **JOB_OPTIONS)
def rate_tournament_task(tournament_id: int) -> dict:
    """Re-rate tournament ``tournament_id`` and every later one (``ratings_recompute_from``).

    Queued by "publish final standings" after the transaction commits; re-publishing after a
    correction runs it again, which re-rates the later events too. A tournament deleted meanwhile is
    skipped. Returns ``{"events": [ids], "rated_sets": n, "players_updated": n}``. One transaction:
    a run cut short (its worker killed) leaves nothing, and its message is delivered again.
    """
    pause("TEST_TASK_DELAY")  # test-only (federation/jobs.py)
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return {"events": [], "rated_sets": 0, "players_updated": 0}
    return ratings_recompute_from(tournament=tournament).as_dict()


@shared_task(name="ratings.rerate_all", **JOB_OPTIONS)
def rerate_all_task() -> dict:
    """Re-rate the whole history from scratch (``ratings_recompute_all``), as ``manage.py rerate_all``.

    Queued after a commit that changes whose results are whose, e.g. merging two player records
    (``federation.services.player_merge``). Returns ``{"events": [ids], "rated_sets": n, "players_updated": n}``.
    """
    return ratings_recompute_all().as_dict()
