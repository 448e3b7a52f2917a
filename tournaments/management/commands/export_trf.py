"""``python manage.py export_trf SLUG [--output FILE]`` — write a tournament as TRF-16."""
from __future__ import annotations


from django.core.management.base import BaseCommand

from tournaments.management.common import tournament_by_slug, write_output
from tournaments.trf.selectors import tournament_export_trf


class Command(BaseCommand):
    help = "Export a tournament as a TRF-16 file (stdout unless --output)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--output", "-o", help="file to write (UTF-8)")

    def handle(self, *args, slug: str, output: str | None = None, **options):
        t = tournament_by_slug(slug)
        text = tournament_export_trf(tournament=t)
        if output:
            write_output(output, text)
            self.stderr.write(f"wrote {output}")
        else:
            self.stdout.write(text, ending="")
