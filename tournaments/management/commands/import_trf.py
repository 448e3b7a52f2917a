"""``python manage.py import_trf PATH`` — import a TRF file; the last line printed is the new slug."""
from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from federation.errors import ApplicationError
from tournaments.trf_io import tournament_import_trf


class Command(BaseCommand):
    help = "Import a TRF (FIDE TRF-16) tournament file; prints the new tournament's slug as the last line."

    def add_arguments(self, parser):
        parser.add_argument("path", help="TRF file (UTF-8 or Latin-1)")
        parser.add_argument("--name", help="tournament name (default: the file's 012 line)")

    def handle(self, *args, path: str, name: str | None = None, **options):
        p = Path(path)
        if p.is_dir():
            raise CommandError(f"{path}: is a directory, not a TRF file", returncode=2)
        if not p.is_file():
            raise CommandError(f"{path}: no such file", returncode=2)
        try:
            report = tournament_import_trf(data=p.read_bytes(), source=p.name, name=name)
        except ApplicationError as exc:
            raise CommandError(exc.message, returncode=2) from exc
        for note in report.notes:
            sys.stderr.write(f"{p.name}: {note}\n")
        t = report.tournament
        self.stdout.write(f"imported {t.name}: {t.entries.count()} players, {t.rounds.count()} rounds")
        self.stdout.write(t.slug)
