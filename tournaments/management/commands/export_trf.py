"""``python manage.py export_trf SLUG [--output FILE]`` — write a tournament as TRF-16."""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Tournament
from tournaments.trf_io import tournament_export_trf


class Command(BaseCommand):
    help = "Export a tournament as a TRF-16 file (stdout unless --output)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--output", "-o", help="file to write (UTF-8)")

    def handle(self, *args, slug: str, output: str | None = None, **options):
        t = Tournament.objects.filter(slug=slug).first()
        if t is None:
            raise CommandError(f"no tournament with slug {slug!r}", returncode=2)
        text = tournament_export_trf(tournament=t)
        if output:
            try:
                Path(output).write_text(text, encoding="utf-8")
            except OSError as exc:
                raise CommandError(f"{output}: cannot write: {exc.strerror or exc}", returncode=2) from exc
            self.stderr.write(f"wrote {output}")
        else:
            self.stdout.write(text, ending="")
