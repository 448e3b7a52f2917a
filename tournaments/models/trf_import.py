"""The progress report of a TRF file imported in the background: :class:`TrfImport`."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from federation.validators import no_control_characters

from .tournament import Tournament


def _empty_list() -> list:
    return []


class TrfImport(models.Model):
    """A TRF file too big to import within a web request, imported by the Celery task
    ``tournaments.import_trf`` (``tournaments.trf.jobs.trf_import_run``); the row is the progress report
    the import page and ``GET /api/tournaments/import-trf/<id>/`` show.

    ``status``: queued → running → done (``tournament`` is the new tournament, ``notes`` the import's
    notes) or failed (``error`` says why, ``error_field`` which input: ``"file"`` with the line number in
    ``error`` for a file that cannot be read). Like every import it is all or nothing: a failed import
    leaves no tournament. ``progress`` is 0..100; ``players`` and ``cells`` (round cells) the size found.
    ``data`` is the uploaded file's bytes (at most ``settings.TRF_MAX_UPLOAD_BYTES``), ``source`` its
    name, ``name`` the tournament name asked for (blank: the file's 012 line).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        FAILED = "failed", _("failed")

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(_("progress (%)"), default=0)
    players = models.PositiveIntegerField(_("players"), default=0)
    cells = models.PositiveIntegerField(_("result cells"), default=0)
    source = models.CharField(_("file name"), max_length=200, blank=True)
    name = models.CharField(_("tournament name"), max_length=160, blank=True, validators=[no_control_characters])
    data = models.BinaryField(_("file"))
    lang = models.CharField(max_length=10, blank=True, default="")
    error = models.TextField(_("error"), blank=True, default="")
    error_field = models.CharField(max_length=40, blank=True, default="")
    notes = models.JSONField(_("notes"), default=_empty_list, blank=True)
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: Touched every few seconds by the run that holds the import; older than
    #: ``settings.TRF_IMPORT_LEASE_SECONDS``: the worker is gone and the import is restarted.
    heartbeat_at = models.DateTimeField(_("last sign of life"), null=True, blank=True)
    #: Runs started (the first and each restart after a lost worker); also the token of the current run.
    attempts = models.PositiveSmallIntegerField(default=0)
    #: The import options chosen at upload (``tournaments.trf.jobs._job_options``), for a restart by the sweep.
    options = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("TRF import")
        verbose_name_plural = _("TRF imports")
        constraints = [
            models.CheckConstraint(condition=Q(progress__lte=100), name="trf_import_progress_percent"),
            models.CheckConstraint(
                condition=Q(status__in=["queued", "running", "done", "failed"]), name="trf_import_status_values"
            ),
        ]

    def __str__(self) -> str:
        return f"TRF import {self.pk} ({self.status}, {self.progress}%)"

    @property
    def is_active(self) -> bool:
        """Still queued or running: the progress page keeps reloading."""
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)
