"""``python manage.py import_records FILE [--replace]`` — attach set records to stored sets.

Runs the import in this process (``tournaments.records.services.record_import_run``), printing one
progress line per record on stdout and each refused record on stderr ("line 12: record 3: …"). Exit
status 0 when every record was stored, 1 when some were refused, 2 for an unreadable file.
"""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from federation.errors import ApplicationError
from games.models import RecordImport
from tournaments.records.services import record_import_create, record_import_run


class Command(BaseCommand):
    help = "Import set records (game-record notation) onto the stored sets they name; exit 1 if any is refused."

    def add_arguments(self, parser):
        parser.add_argument("file", help="UTF-8 text file of set records")
        parser.add_argument(
            "--replace", action="store_true", help="replace a different move record already stored on a set"
        )

    def handle(self, *args, file: str, replace: bool = False, **options):
        p = Path(file)
        if not p.is_file():
            raise CommandError(f"{file}: no such file", returncode=2)
        try:
            text = p.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise CommandError(f"{file}: not UTF-8 text (byte {exc.start + 1})", returncode=2) from None
        try:
            row = record_import_create(text=text, replace=replace, source=p.name)
        except ApplicationError as exc:
            raise CommandError(f"{file}: {exc.message}", returncode=2) from None

        def progress(done, total, chunk, s, error):
            if error is None:
                m = s.match
                what = f"round {m.round.number} board {m.board} set {s.number}: stored"
            else:
                what = f"line {error['line']}: refused"
                self.stderr.write(f"{p.name}: line {error['line']}: record {error['record']}: {error['message']}")
            self.stdout.write(f"[{done}/{total}] {what}")

        row = record_import_run(import_id=row.id, progress=progress)
        if row.status == RecordImport.Status.FAILED:
            message = row.errors[-1]["message"] if row.errors else "failed"
            raise CommandError(f"{file}: {message}", returncode=1)
        self.stdout.write(
            f"import {row.id}: {row.stored} of {row.total} records stored, {len(row.errors)} refused"
        )
        if row.errors:
            raise CommandError(f"{len(row.errors)} of {row.total} records refused", returncode=1)
