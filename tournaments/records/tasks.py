"""Celery tasks of tournament set records (registered names ``games.*``, unchanged): they take ids and call
services."""
from __future__ import annotations

import logging

from celery import Task, shared_task
from django.utils import translation
from django.utils.translation import gettext as _

from federation.jobs import JOB_OPTIONS, TRANSIENT_ERRORS, pause, slowdown
from tournaments.records.services import record_import_abandon, record_import_run, record_import_sweep

logger = logging.getLogger(__name__)


class RecordImportTask(Task):
    """The import task: when it fails for good (a transient error outlived its retries), the import it
    left running is marked failed with the reason at once rather than by the sweep minutes later."""

    def on_failure(self, exc, task_id, args, kwargs, einfo):
        import_id = args[0] if args else kwargs.get("import_id")
        lang = args[1] if len(args) > 1 else kwargs.get("lang")
        try:
            with translation.override(lang or translation.get_language()):
                message = _("the import stopped after %(n)d retries: %(e)s") % {
                    "n": self.request.retries, "e": str(exc) or exc.__class__.__name__}
            record_import_abandon(import_id=import_id, task_id=task_id, message=message)
        except Exception:  # the database may still be down: the sweep marks the import later
            logger.exception("record import %s: could not mark it failed", import_id)


@shared_task(name="games.import_records", bind=True, base=RecordImportTask, **JOB_OPTIONS)
def import_records_task(self, import_id: int, lang: str | None = None) -> dict:
    """Run the pending :class:`games.models.RecordImport` ``import_id`` (``record_import_run``),
    writing its messages in ``lang`` (the importing user's language; the default language if None).

    A new delivery of this task (its worker died, or it retries a transient error) resumes a running
    import at its first record not yet done. Returns ``{"status", "total", "done", "stored", "errors"}``
    (``errors`` is the count).
    """
    delay = slowdown("TEST_RECORD_DELAY")  # test-only (federation/jobs.py): 0 elsewhere
    # with a worker, a transient error is retried (the retry resumes the import); run eagerly (no
    # broker: in the web request) the import is marked failed at once, as there is nobody to retry
    reraise = () if self.request.is_eager else TRANSIENT_ERRORS
    with translation.override(lang or translation.get_language()):
        row = record_import_run(
            import_id=import_id, task_id=self.request.id, lang=lang, reraise=reraise,
            progress=(lambda *a: pause("TEST_RECORD_DELAY")) if delay else None,
        )
    return {"status": row.status, "total": row.total, "done": row.done, "stored": row.stored, "errors": len(row.errors)}


@shared_task(name="games.sweep_stuck_imports", **JOB_OPTIONS)
def sweep_stuck_imports_task() -> dict:
    """Re-queue once, then fail, record imports without a heartbeat for ``RECORD_IMPORT_STUCK_MINUTES``
    (``record_import_sweep``); sent every minute by Celery beat. Returns ``{"requeued", "failed"}``."""
    return record_import_sweep().as_dict()
