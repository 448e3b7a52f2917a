"""``python manage.py trf_import_job enqueue PATH --user NAME`` / ``trf_import_job status ID`` — a TRF
import on the imports queue, as the web sends it (for operators and the chaos harness).

``enqueue`` stores the file as a :class:`tournaments.models.TrfImport` and sends ``tournaments.import_trf``
(``tournaments.trf.jobs.trf_import_queue``; with Celery eager it has run when the command ends) and prints
``{"job": id, "status": ...}`` as JSON. ``status`` prints ``{"job", "status", "progress", "attempts",
"heartbeat_at", "error", "slug"}`` as JSON: a job whose worker died is restarted once its heartbeat is
``TRF_IMPORT_LEASE_SECONDS`` old (``tournaments.trf.lease``), so it ends ``done`` or ``failed`` with a
message within lease + 60 s (the sweep) + the import's own time, after ``TRF_IMPORT_MAX_ATTEMPTS`` runs
at the latest.
"""
from __future__ import annotations

import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from federation.errors import ApplicationError
from tournaments.models import Tournament, TrfImport
from tournaments.tasks import import_trf_task
from tournaments.trf.jobs import trf_import_queue


def job_status(row: TrfImport) -> dict:
    """The JSON the ``status`` action prints for ``row``."""
    return {
        "job": row.id, "status": row.status, "progress": row.progress, "attempts": row.attempts,
        "heartbeat_at": row.heartbeat_at.isoformat() if row.heartbeat_at else None, "error": row.error,
        "slug": row.tournament.slug if row.tournament_id else None,
    }


class Command(BaseCommand):
    help = "Queue a TRF import job (enqueue PATH --user NAME) or print a job's status (status ID), as JSON."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        enqueue = sub.add_parser("enqueue", help="store the file and send the import job")
        enqueue.add_argument("path")
        enqueue.add_argument("--user", required=True, help="username of the organiser who imports")
        enqueue.add_argument("--name", help="tournament name (default: the file's 012 line)")
        enqueue.add_argument("--system", choices=Tournament.System.values)
        status = sub.add_parser("status", help="print a job's status")
        status.add_argument("job", type=int)

    def handle(self, *args, action: str, **options):
        if action == "status":
            row = TrfImport.objects.select_related("tournament").defer("data").filter(pk=options["job"]).first()
            if row is None:
                raise CommandError(_("No such TRF import."), returncode=2)
            self.stdout.write(json.dumps(job_status(row)))
            return
        p = Path(options["path"])
        if not p.is_file():
            raise CommandError(_("%(path)s: no such file") % {"path": p}, returncode=2)
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(_("No such user: %(name)s") % {"name": options["user"]}, returncode=2)
        try:
            row = trf_import_queue(data=p.read_bytes(), task=import_trf_task, source=p.name, user=user,
                                   name=options.get("name"), system=options.get("system"))
        except ApplicationError as exc:
            raise CommandError(exc.message, returncode=2) from exc
        self.stdout.write(json.dumps({"job": row.id, "status": row.status}))
