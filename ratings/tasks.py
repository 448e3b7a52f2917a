"""Celery tasks of the ratings app: they take ids and call services."""
from __future__ import annotations

from celery import shared_task

from federation.jobs import JOB_OPTIONS, TRANSIENT_ERRORS, pause
from ratings.services import ratings_recompute_all, ratings_recompute_from
from tournaments.models import Tournament


def _guarded(run) -> dict:
    """``run()``'s summary; a failure other than a transient one (which is retried) is recorded with
    :func:`ratings.parameters.rerating.rerating_failure_record` (the run's transaction rolled back, so the
    previous ratings stay served; an adoption that never rated is undone) and answered
    ``{"failed": reason}`` instead of raising, so the staff page shows why (issue 23). A refusal
    (:class:`~federation.errors.ApplicationError`, e.g. a stored set the rules refuse) is recorded
    without undoing an adoption and raised again: whoever queued the run in eager mode (publishing
    final standings) shows it."""
    from federation.errors import ApplicationError
    from ratings.parameters.rerating import failure_reason, logger, rerating_failure_record

    try:
        return run()
    except TRANSIENT_ERRORS:
        raise
    except Exception as exc:  # noqa: BLE001 - any other failure: keep the ratings served, say why
        reason = failure_reason(exc)
        logger.exception("rating run failed: %s", reason)
        refusal = isinstance(exc, ApplicationError)  # the data is refused, not the parameters: keep them
        rerating_failure_record(error=reason, undo=not refusal)
        if refusal:
            raise
        return {"failed": reason}


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
    return _guarded(lambda: ratings_recompute_from(tournament=tournament).as_dict())


@shared_task(name="ratings.rerate_all", **JOB_OPTIONS)
def rerate_all_task() -> dict:
    """Re-rate the whole history from scratch (``ratings_recompute_all``), as ``manage.py rerate_all``.

    Queued after a commit that changes whose results are whose, e.g. merging two player records
    (``federation.services.player_merge``). Returns ``{"events": [ids], "rated_sets": n, "players_updated": n}``,
    or ``{"failed": reason}`` when the run failed (recorded; the previous ratings stay served).
    """
    return _guarded(lambda: ratings_recompute_all().as_dict())


@shared_task(name="ratings.publish_monthly_list", **JOB_OPTIONS)
def publish_monthly_list_task(day: str | None = None) -> dict:
    """Publish the official rating list of the first day of this month (or of ``day``, ISO date) when
    ``settings.RATING_LIST_AUTO_PUBLISH`` is on; sent by Celery beat on the 1st at 04:00. A list in force
    on that date already is left alone, so running it twice publishes once. Returns
    ``{"published": "2026-05-01", "players": n}`` or ``{"skipped": why}``."""
    import datetime as dt

    from django.conf import settings

    from federation.errors import ApplicationError
    from ratings.models import RatingList
    from ratings.lists.services import rating_list_default_date, rating_list_publish

    if not getattr(settings, "RATING_LIST_AUTO_PUBLISH", False):
        return {"skipped": "RATING_LIST_AUTO_PUBLISH is off"}
    on = dt.date.fromisoformat(day) if day else rating_list_default_date()
    if RatingList.objects.filter(published_on=on, withdrawn_at__isnull=True).exists():
        return {"skipped": f"a list dated {on.isoformat()} is in force"}
    from django.utils import translation
    from django.utils.translation import gettext

    with translation.override(settings.LANGUAGE_CODE):  # the note is stored: in the site's language
        note = gettext("Published automatically (monthly).")
    try:
        rating_list = rating_list_publish(published_on=on, user=None, note=note)
    except ApplicationError as exc:  # e.g. published meanwhile by staff
        return {"skipped": exc.message}
    return {"published": on.isoformat(), "players": rating_list.players}
