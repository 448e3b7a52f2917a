"""``python manage.py import_trf PATH`` — import a TRF file; the last line printed is the new slug.

Options: ``--system swiss|round_robin`` (needed when the file has no 092 line, or one saying neither; ``swiss``
also imports a file whose 092 line says round robin when its rounds are not one), ``--no-publish`` (keep a
finished event's standings private), ``--no-match-players`` (register every line without FIDE id as a new
player instead of reusing a known player with the same name, birth year and code), ``--player
START_NO=FEDERATION_ID`` (that line is that known player; ``START_NO=`` a new player; for a line whose FIDE id
belongs to a stored player with another name or birth year, ``START_NO=<that FIDE id>`` confirms that they are
the same person; repeatable), ``--dry-run`` (print what would be imported; import nothing).

Language: like Django's own commands and the project's other commands, the command speaks English unless
``--lang`` names another language of ``settings.LANGUAGES`` (``--lang tr``); every line it prints — the
refusals of the import, its notes, its own messages — is in that one language.
"""
from __future__ import annotations

import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from federation.errors import ApplicationError
from tournaments.models import Tournament
from tournaments.trf.players import PlayerConflicts
from tournaments.trf.services import tournament_import_trf


def _player_choice(text: str) -> tuple[int, str | None]:
    no, sep, fed_id = text.partition("=")
    if not sep or not no.strip().isdecimal():
        raise CommandError(_("--player %(value)s: write START_NO=FEDERATION_ID (or START_NO= for a new player)")
                           % {"value": repr(text)}, returncode=2)
    return int(no), fed_id.strip() or None


def _value_choice(text: str) -> tuple[int, str]:
    no, sep, value = text.partition("=")
    if not sep or not no.strip().isdecimal() or value.strip() not in ("stored", "file", "new"):
        raise CommandError(_("--value %(value)s: write START_NO=stored, START_NO=file or START_NO=new")
                           % {"value": repr(text)}, returncode=2)
    return int(no), value.strip()


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
                            help="use that known player for that line (START_NO= : a new player; START_NO=FIDE_ID "
                                 "confirms the stored player of the line's FIDE id); repeatable")
        parser.add_argument("--value", action="append", default=[], metavar="START_NO=stored|file|new",
                            help="for a stored player whose sex or birth year differs from the line: keep the "
                                 "stored values, take the file's, or register a new player; repeatable")
        parser.add_argument("--dry-run", action="store_true", help="show what would be imported; import nothing")
        parser.add_argument("--lang", default="en", choices=[code for code, _name in settings.LANGUAGES],
                            help="language of the messages (default: en)")

    def handle(self, *args, lang: str = "en", **options):
        with translation.override(lang):
            return self._handle(**options)

    def _handle(self, *, path: str, name: str | None = None, system: str | None = None,
                no_publish: bool = False, no_match_players: bool = False, player: list[str] | None = None,
                dry_run: bool = False, value: list[str] | None = None, **options):
        p = Path(path)
        if p.is_dir():
            raise CommandError(_("%(path)s: is a directory, not a TRF file") % {"path": path}, returncode=2)
        if not p.is_file():
            raise CommandError(_("%(path)s: no such file") % {"path": path}, returncode=2)
        choices = dict(_player_choice(x) for x in player or [])
        values = dict(_value_choice(x) for x in value or [])
        try:
            report = tournament_import_trf(
                data=p.read_bytes(), source=p.name, name=name, system=system, publish=not no_publish,
                match_players=not no_match_players, player_matches=choices or None, dry_run=dry_run,
                player_values=values or None,
            )
        except PlayerConflicts as exc:
            if exc.field == "player_values":
                confirm = " ".join(f"--value {c.start_no}=stored" for c in exc.conflicts)
            else:
                confirm = " ".join(f"--player {c.start_no}={c.federation_id}" for c in exc.conflicts)
            raise CommandError(_("%(message)s To confirm: %(options)s") % {"message": exc.message, "options": confirm},
                               returncode=2) from exc
        except ApplicationError as exc:
            if exc.field == "system" and not system and "--system" not in exc.message:
                raise CommandError(_("%(message)s (--system swiss or --system round_robin)") % {"message": exc.message},
                                   returncode=2) from exc
            raise CommandError(exc.message, returncode=2) from exc
        for note in report.notes:
            sys.stderr.write(f"{p.name}: {note}\n")
        t = report.tournament
        if dry_run:
            hows = {"fide_id": _("FIDE id"), "matched": _("matched"), "chosen": _("chosen"), "new": _("new"),
                    "conflict": _("conflict")}
            for c in report.players:
                self.stdout.write(_("line %(line)d: %(no)d %(name)s: %(how)s %(id)s") % {
                    "line": c.line, "no": c.start_no, "name": c.name, "how": hows.get(c.how, c.how),
                    "id": c.federation_id})
            self.stdout.write(_("dry run: %(name)s: %(players)d players, %(rounds)d rounds; nothing imported") % {
                "name": t.name, "players": report.entries, "rounds": report.rounds})
            return
        self.stdout.write(_("imported %(name)s: %(players)d players, %(rounds)d rounds") % {
            "name": t.name, "players": report.entries, "rounds": report.rounds})
        self.stdout.write(t.slug)
