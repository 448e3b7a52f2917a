"""Who runs a TRF import job: the claim, the heartbeat and the restart of a job whose worker died.

A :class:`tournaments.models.TrfImport` is imported in one transaction, so a run cut short (its worker
process killed) has written nothing but the row's ``running`` status. The run that claims the row
writes ``heartbeat_at`` every ``TRF_IMPORT_LEASE_SECONDS / 4`` seconds from a thread of its own (its own
connection, autocommit: the import's transaction hides nothing from it). A running row whose heartbeat
is older than ``settings.TRF_IMPORT_LEASE_SECONDS`` has lost its worker: the next delivery of its task —
the broker's redelivery of the unacknowledged message, or the re-queue of :func:`trf_import_sweep`
(every minute) — claims it again and restarts it from the stored file. ``attempts`` counts the runs and
is the token of the current one: a run that has been replaced finds another number and writes nothing.
After ``settings.TRF_IMPORT_MAX_ATTEMPTS`` runs the row is marked failed with the reason.
"""
from __future__ import annotations

import datetime as dt
import logging
import threading

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments.models import TrfImport

logger = logging.getLogger(__name__)


def lease_seconds() -> int:
    """``settings.TRF_IMPORT_LEASE_SECONDS`` (60): a running import without a heartbeat this long is orphaned."""
    return int(getattr(settings, "TRF_IMPORT_LEASE_SECONDS", 60))


def max_attempts() -> int:
    """``settings.TRF_IMPORT_MAX_ATTEMPTS`` (3): runs an import may start before it is marked failed."""
    return int(getattr(settings, "TRF_IMPORT_MAX_ATTEMPTS", 3))


def _orphaned(row: TrfImport, now: dt.datetime) -> bool:
    beat = row.heartbeat_at or row.created_at
    return beat < now - dt.timedelta(seconds=lease_seconds())


def trf_import_claim(*, import_id: int, now: dt.datetime | None = None) -> tuple[TrfImport, int | None]:
    """Take import ``import_id`` for a new run: ``(row, run token)``; ``(row, None)`` when this run must
    leave it alone (finished; or running with a live heartbeat) or it has just been marked failed (too
    many runs). A queued row is taken; a running one whose heartbeat is older than the lease is taken
    over and restarted (nothing of the dead run was committed)."""
    now = now or timezone.now()
    with transaction.atomic():
        row = TrfImport.objects.select_for_update(of=("self",)).select_related("created_by").get(pk=import_id)
        if row.status == TrfImport.Status.RUNNING:
            if not _orphaned(row, now):
                return row, None
            if row.attempts >= max_attempts():
                with translation.override(row.lang or translation.get_language()):
                    row.error = _(
                        "The import was started %(n)d times and its worker stopped each time; nothing was "
                        "imported. Upload the file again or ask the federation to import it."
                    ) % {"n": row.attempts}
                row.status, row.finished_at = TrfImport.Status.FAILED, now
                row.save(update_fields=["status", "finished_at", "error"])
                logger.warning("TRF import %s: worker lost %d times, marked failed", row.pk, row.attempts)
                return row, None
            logger.warning("TRF import %s: no heartbeat for %d s (worker lost), restarted", row.pk, lease_seconds())
        elif row.status != TrfImport.Status.QUEUED:
            return row, None
        row.status, row.progress, row.heartbeat_at = TrfImport.Status.RUNNING, 1, now
        row.attempts += 1
        row.save(update_fields=["status", "progress", "heartbeat_at", "attempts"])
    return row, row.attempts


class Heartbeat:
    """Writes ``heartbeat_at`` of import ``import_id`` (run ``token``) every ``lease / 4`` seconds from a
    daemon thread with its own connection, until :meth:`stop`. Not on SQLite (the thread would wait for
    the import's write lock; the embedded mode runs jobs in the web process, which no broker redelivers)
    nor inside an outer transaction (tests, an eager job within one)."""

    def __init__(self, import_id: int, token: int) -> None:
        self.import_id, self.token = import_id, token
        self.stopped = threading.Event()
        self.thread = None
        default = connections[DEFAULT_DB_ALIAS]
        if default.vendor != "sqlite" and not default.in_atomic_block:
            self.thread = threading.Thread(target=self._run, name=f"trf-heartbeat-{import_id}", daemon=True)
            self.thread.start()

    def _run(self) -> None:
        interval = max(lease_seconds() / 4, 0.5)
        try:
            while not self.stopped.wait(interval):
                try:
                    TrfImport.objects.filter(pk=self.import_id, status=TrfImport.Status.RUNNING,
                                             attempts=self.token).update(heartbeat_at=timezone.now())
                except DatabaseError:  # a missed beat is not fatal; the lease allows three more
                    logger.warning("TRF import %s: heartbeat not written", self.import_id, exc_info=True)
        finally:
            connections.close_all()  # this thread's connection

    def stop(self) -> None:
        self.stopped.set()
        if self.thread is not None:
            self.thread.join(timeout=5)


def trf_import_sweep(*, task, now: dt.datetime | None = None) -> dict[str, list[int]]:
    """Every minute (Celery beat, ``tournaments.sweep_stuck_trf_imports``): re-queue the running imports
    whose heartbeat is older than the lease (their task claims and restarts them, or fails them after
    ``TRF_IMPORT_MAX_ATTEMPTS`` runs), and fail the ones still queued after ``TRF_IMPORT_STUCK_MINUTES``
    (a lost message). Returns ``{"requeued": [ids], "failed": [ids]}``. ``task`` is the import's Celery
    task (:func:`tournaments.tasks.import_trf_task`, given by the task module, which imports this one)."""
    now = now or timezone.now()
    stale = now - dt.timedelta(seconds=lease_seconds())
    running = TrfImport.objects.filter(status=TrfImport.Status.RUNNING)
    orphans = list(running.filter(heartbeat_at__lt=stale).values_list("pk", "lang"))
    orphans += list(running.filter(heartbeat_at__isnull=True, created_at__lt=stale).values_list("pk", "lang"))
    limit = now - dt.timedelta(minutes=settings.TRF_IMPORT_STUCK_MINUTES)
    lost = list(TrfImport.objects.filter(status=TrfImport.Status.QUEUED, created_at__lt=limit)
                .values_list("pk", flat=True))
    TrfImport.objects.filter(pk__in=lost, status=TrfImport.Status.QUEUED).update(
        status=TrfImport.Status.FAILED, finished_at=now,
        error=_("The import was interrupted (its worker stopped); nothing was imported. Upload the file again."),
    )
    for pk, lang in orphans:
        logger.warning("TRF import %s: no heartbeat for %d s, re-queued", pk, lease_seconds())
        task.delay(pk, lang or None, _stored_options(pk))
    return {"requeued": [pk for pk, _lang in orphans], "failed": lost}


def _stored_options(pk: int) -> dict:
    """The options the import was queued with (kept on the row by ``trf_import_queue``)."""
    return TrfImport.objects.filter(pk=pk).values_list("options", flat=True).first() or {}
