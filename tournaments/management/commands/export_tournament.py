"""``python manage.py export_tournament SLUG [-o FILE]`` — write a tournament as a JSON archive
(:mod:`tournaments.archive.format`: everything the tournament owns, no rating history, no user accounts);
``import_tournament`` reads it back."""
from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from federation.errors import ApplicationError
from tournaments.archive.selectors import tournament_export_json
from tournaments.management.common import tournament_by_slug, write_output


class Command(BaseCommand):
    help = "Export a tournament as a lossless JSON archive (stdout unless --output); import_tournament reads it."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--output", "-o", help="file to write (UTF-8 JSON)")

    def handle(self, *args, slug: str, output: str | None = None, **options):
        t = tournament_by_slug(slug)
        try:
            text = tournament_export_json(tournament=t)
        except ApplicationError as exc:
            raise CommandError(exc.message, returncode=2) from exc
        if output:
            write_output(output, text)
            self.stderr.write(f"wrote {output}")
        else:
            self.stdout.write(text, ending="")
