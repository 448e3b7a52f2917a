"""``python manage.py check_invariants [--json] [--tournament SLUG]`` — check the database's invariants
(:mod:`tournaments.invariants`: sets, matches, rounds, entries, tournaments, standings, ratings).

Prints one line per violation — model, id, kind, where and what is wrong, expected and found — or,
with ``--json``, ``{"count": n, "violations": [{"kind", "model", "pk", "message", "expected", "found",
"tournament"}, ...]}``. Exit status 0 when every invariant holds, 1 when some is violated, 2 for an
unknown ``--tournament``. ``--tournament`` checks one tournament (with its rating event and its
players' ratings). English unless ``--lang`` says otherwise.
"""
from __future__ import annotations

import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.invariants import check_invariants
from tournaments.management.common import tournament_by_slug
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Check the database's invariants; exits 1 listing each violation (model, id, what, expected, found)."

    def add_arguments(self, parser):
        parser.add_argument("--json", dest="as_json", action="store_true", help="print the violations as JSON")
        parser.add_argument("--tournament", metavar="SLUG", help="check this tournament only")
        parser.add_argument("--lang", default="en", choices=[code for code, _name in settings.LANGUAGES],
                            help="language of the messages (default: en)")

    def handle(self, *args, lang: str = "en", **options):
        with translation.override(lang):
            return self._handle(**options)

    def _handle(self, *, as_json: bool = False, tournament: str | None = None, **options):
        scope = None
        if tournament:
            scope = Tournament.objects.filter(pk=tournament_by_slug(tournament).pk)
        violations = check_invariants(tournaments=scope)
        if as_json:
            self.stdout.write(_dumps({"count": len(violations), "violations": [v.as_dict() for v in violations]}))
        else:
            for v in violations:
                line = f"{v.model} {v.pk} {v.kind}: {v.message}"
                if v.expected is not None or v.found is not None:
                    line += " " + _("(expected %(expected)s, found %(found)s)") % {
                        "expected": _dumps(v.expected, indent=None), "found": _dumps(v.found, indent=None)}
                self.stdout.write(line)
        if violations:
            raise CommandError(ngettext("%(n)d invariant violation", "%(n)d invariant violations", len(violations))
                               % {"n": len(violations)}, returncode=1)
        if not as_json:
            self.stdout.write(_("no invariant is violated"))


def _dumps(value, indent: int | None = 1) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent)
