"""``python manage.py export_records SLUG [--output FILE]`` — every recorded set of a tournament in
the game-record notation (``games.engine.notation.write``), ready for ``import_records``."""
from __future__ import annotations


from django.core.management.base import BaseCommand

from games.engine.notation import write
from tournaments.management.common import tournament_by_slug, write_output
from tournaments.records.selectors import tournament_records


class Command(BaseCommand):
    help = "Write every set of a tournament that has a move record, in the game-record notation."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--output", "-o", help="file to write (default: standard output)")

    def handle(self, *args, slug: str, output: str | None = None, **options):
        t = tournament_by_slug(slug)
        records = tournament_records(tournament=t)
        text = write(records)
        if output:
            write_output(output, text)
            self.stdout.write(f"wrote {len(records)} records of {t.name} to {output}")
        else:
            self.stdout.write(text, ending="")
