"""``python manage.py import_tournament FILE [--slug NEW] [--dry-run]`` — create a tournament from a
JSON archive written by ``export_tournament`` (:func:`tournaments.archive.services.tournament_import`); the last
line printed is the new tournament's slug.

All or nothing: a refusal (another format or version, a slug that exists, a player stored with another
name or birth year, a value that does not fit or data that breaks the rules) names the JSON path, exits
with status 2 and imports nothing. ``--slug NEW`` imports under another short name (e.g. a copy next to
the original); ``--dry-run`` says what would be imported and imports nothing. Notes (players reused,
values not kept) go to stderr.

Language: English unless ``--lang`` names another language of ``settings.LANGUAGES`` (``--lang tr``),
like the project's other commands; the history rows say "imported from FILE" in that language.
"""
from __future__ import annotations

import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from federation.errors import ApplicationError
from tournaments.archive.services import ArchivePlayerConflicts, tournament_import


class Command(BaseCommand):
    help = "Import a tournament from a JSON archive (export_tournament); prints the new slug as the last line."

    def add_arguments(self, parser):
        parser.add_argument("path", help="JSON archive written by export_tournament")
        parser.add_argument("--slug", help="import under this short name instead of the archive's")
        parser.add_argument("--dry-run", action="store_true", help="show what would be imported; import nothing")
        parser.add_argument("--lang", default="en", choices=[code for code, _name in settings.LANGUAGES],
                            help="language of the messages (default: en)")

    def handle(self, *args, lang: str = "en", **options):
        with translation.override(lang):
            return self._handle(**options)

    def _handle(self, *, path: str, slug: str | None = None, dry_run: bool = False, **options):
        p = Path(path)
        if p.is_dir():
            raise CommandError(_("%(path)s: is a directory, not an archive") % {"path": path}, returncode=2)
        if not p.is_file():
            raise CommandError(_("%(path)s: no such file") % {"path": path}, returncode=2)
        try:
            report = tournament_import(data=p.read_bytes(), slug=slug, dry_run=dry_run, source=p.name)
        except ArchivePlayerConflicts as exc:
            for c in exc.conflicts:
                sys.stderr.write(f"{p.name}: {c.path}: {c.federation_id}: {c.stored!r} != {c.archive!r}\n")
            raise CommandError(f"{p.name}: {exc.message}", returncode=2) from exc
        except ApplicationError as exc:
            message = exc.message
            if exc.field == "slug" and not slug:
                message = _("%(message)s (--slug NEW)") % {"message": message}
            raise CommandError(f"{p.name}: {message}", returncode=2) from exc
        for note in report.notes:
            sys.stderr.write(f"{p.name}: {note}\n")
        t = report.tournament
        counts = {"name": t.name, "players": report.entries, "rounds": report.rounds, "matches": report.matches,
                  "sets": report.sets, "new": report.players_created, "reused": report.players_reused}
        if dry_run:
            self.stdout.write(_("dry run: %(name)s: %(players)d players (%(new)d new, %(reused)d known), %(rounds)d "
                                "rounds, %(matches)d boards, %(sets)d sets; nothing imported") % counts)
            return
        self.stdout.write(_("imported %(name)s: %(players)d players (%(new)d new, %(reused)d known), %(rounds)d rounds, "
                            "%(matches)d boards, %(sets)d sets") % counts)
        if report.rating_queued:
            self.stdout.write(_("the national rating is run again from this event"))
        self.stdout.write(t.slug)
