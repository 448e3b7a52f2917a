"""Tables of the games app: bulk imports of set records (the records themselves live on
``tournaments.models.SetResult.moves``).

A :class:`RecordImport` is one upload of game-record text (:mod:`games.engine.notation`) being
attached to stored sets by the Celery task ``games.import_records``
(:func:`tournaments.records.tasks.import_records_task`); the row is the progress report the import
page and the ``import_records`` command show.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


def empty_list() -> list:
    return []


class RecordImport(models.Model):
    """One bulk import of set records.

    ``status``: pending → running → done (some records may still have failed: see ``errors``), or
    failed (the import itself broke: no records, or an internal error). ``total``: records found in
    ``text``; ``done``: records processed so far (stored or refused); ``stored``: records whose moves
    were attached. ``errors``: list of ``{"record": k, "line": n, "message": ...}`` (k 1-based record
    number, n 1-based line in ``text``). ``set_ids``: ids of the sets that got their moves.
    ``replace``: a record may replace a different move record already stored on its set.

    Surviving a lost worker (``tournaments.records.services.record_import_run``, ``record_import_sweep``):
    records are processed in order and ``done`` is the resume point — a run that takes over continues at
    record ``done + 1``. ``heartbeat_at`` is touched with every progress save; ``runner`` names the run that
    owns the import (a run that lost it stops writing); ``task_id`` is the Celery task of that run (a new
    delivery of the same task takes a running import over at once); ``attempts`` counts runs started,
    ``requeues`` the sweep's re-sends; ``lang`` is the language of the messages.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.PENDING)
    total = models.PositiveIntegerField(_("records"), default=0)
    done = models.PositiveIntegerField(_("processed"), default=0)
    stored = models.PositiveIntegerField(_("stored"), default=0)
    errors = models.JSONField(_("errors"), default=empty_list, blank=True)
    set_ids = models.JSONField(default=empty_list, blank=True)
    replace = models.BooleanField(_("replace existing records"), default=False)
    source = models.CharField(_("file name"), max_length=200, blank=True)
    text = models.TextField(_("record text"))
    heartbeat_at = models.DateTimeField(_("last sign of life"), null=True, blank=True)
    runner = models.CharField(max_length=32, blank=True, default="")
    task_id = models.CharField(max_length=255, blank=True, default="")
    attempts = models.PositiveSmallIntegerField(_("runs started"), default=0)
    requeues = models.PositiveSmallIntegerField(default=0)
    lang = models.CharField(max_length=10, blank=True, default="")

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("record import")
        verbose_name_plural = _("record imports")
        constraints = [
            models.CheckConstraint(condition=Q(done__lte=F("total")), name="record_import_done_le_total"),
            models.CheckConstraint(condition=Q(stored__lte=F("done")), name="record_import_stored_le_done"),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "running", "done", "failed"]), name="record_import_status_values"
            ),
        ]

    def __str__(self) -> str:
        return f"record import {self.pk} ({self.status}, {self.done}/{self.total})"

    @property
    def is_active(self) -> bool:
        """Still pending or running: the progress page keeps refreshing."""
        return self.status in (self.Status.PENDING, self.Status.RUNNING)

    @property
    def percent(self) -> int:
        """Progress 0..100 (100 once finished)."""
        if not self.is_active:
            return 100
        return (100 * self.done // self.total) if self.total else 0
