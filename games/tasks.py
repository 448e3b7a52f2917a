"""Celery tasks of the games app: they take ids and call services."""
from __future__ import annotations

from celery import shared_task
from django.utils import translation

from games.services import record_import_run


@shared_task(name="games.import_records")
def import_records_task(import_id: int, lang: str | None = None) -> dict:
    """Run the pending :class:`games.models.RecordImport` ``import_id`` (``record_import_run``),
    writing its messages in ``lang`` (the importing user's language; the default language if None).

    Returns ``{"status", "total", "done", "stored", "errors"}`` (``errors`` is the count).
    """
    with translation.override(lang or translation.get_language()):
        row = record_import_run(import_id=import_id)
    return {"status": row.status, "total": row.total, "done": row.done, "stored": row.stored, "errors": len(row.errors)}
