"""``python manage.py import_trf PATH`` — import a TRF file; the last line printed is the new slug.

Options: ``--system swiss|round_robin`` (needed when the file has no 092 line, or one saying neither),
``--no-publish`` (keep a finished event's standings private), ``--no-match-players`` (register every
line without FIDE id as a new player instead of reusing a known player with the same name, birth year
and code), ``--player START_NO=FEDERATION_ID`` (that line is that known player; ``START_NO=`` a new
player; repeatable), ``--dry-run`` (print what would be imported; import nothing).
"""
from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from federation.errors import ApplicationError
from tournaments.models import Tournament
from tournaments.trf_io import tournament_import_trf


def _player_choice(text: str) -> tuple[int, str | None]:
    no, sep, fed_id = text.partition("=")
    if not sep or not no.strip().isdigit():
        raise CommandError(f"--player {text!r}: write START_NO=FEDERATION_ID (or START_NO= for a new player)",
                           returncode=2)
    return int(no), fed_id.strip() or None


class Command(BaseCommand):
    help = "Import a TRF (FIDE TRF-16) tournament file; prints the new tournament's slug as the last line."

    def add_arguments(self, parser):
        parser.add_argument("path", help="TRF file (UTF-8 or Latin-1)")
        parser.add_argument("--name", help="tournament name (default: the file's 012 line)")
        parser.add_argument("--system", choices=Tournament.System.values,
                            help="swiss or round_robin (default: the file's 092 line; needed when it has none)")
        parser.add_argument("--no-publish", action="store_true",
                            help="do not publish the standings of a finished event")
        parser.add_argument("--no-match-players", action="store_true",
                            help="register every line without FIDE id as a new player (no matching by name)")
        parser.add_argument("--player", action="append", default=[], metavar="START_NO=FEDERATION_ID",
                            help="use that known player for that line (START_NO= : a new player); repeatable")
        parser.add_argument("--dry-run", action="store_true", help="show what would be imported; import nothing")

    def handle(self, *args, path: str, name: str | None = None, system: str | None = None,
               no_publish: bool = False, no_match_players: bool = False, player: list[str] | None = None,
               dry_run: bool = False, **options):
        p = Path(path)
        if p.is_dir():
            raise CommandError(f"{path}: is a directory, not a TRF file", returncode=2)
        if not p.is_file():
            raise CommandError(f"{path}: no such file", returncode=2)
        choices = dict(_player_choice(x) for x in player or [])
        try:
            report = tournament_import_trf(
                data=p.read_bytes(), source=p.name, name=name, system=system, publish=not no_publish,
                match_players=not no_match_players, player_matches=choices or None, dry_run=dry_run,
            )
        except ApplicationError as exc:
            if exc.field == "system":
                raise CommandError(f"{exc.message} (--system swiss or --system round_robin)", returncode=2) from exc
            raise CommandError(exc.message, returncode=2) from exc
        for note in report.notes:
            sys.stderr.write(f"{p.name}: {note}\n")
        t = report.tournament
        if dry_run:
            for c in report.players:
                self.stdout.write(f"line {c.line}: {c.start_no} {c.name}: {c.how} {c.federation_id}")
            self.stdout.write(f"dry run: {t.name}: {report.entries} players, {report.rounds} rounds; nothing imported")
            return
        self.stdout.write(f"imported {t.name}: {report.entries} players, {report.rounds} rounds")
        self.stdout.write(t.slug)
