"""``python manage.py standings SLUG [--format json|text] [--round N]`` — print the standings."""
from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.management.common import tournament_by_slug
from tournaments.selectors import standings_as_dicts, tournament_standings


def _num(x: float) -> str:
    return f"{x:g}" if float(x).is_integer() else f"{x:.2f}".rstrip("0")


class Command(BaseCommand):
    help = "Print a tournament's standings with its tie-breaks (JSON array or a text table)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["json", "text"], default="text")
        parser.add_argument("--round", type=int, help="standings after this round (default: last with results)")
        parser.add_argument("--lang", choices=["tr", "en"], default="en")

    def handle(self, *args, slug: str, format: str, round: int | None = None, lang: str = "en", **options):
        t = tournament_by_slug(slug)
        if round is not None and not 1 <= round <= t.rounds_total:
            raise CommandError(f"--round must be between 1 and {t.rounds_total}", returncode=2)
        st = tournament_standings(tournament=t, after_round=round, lang=lang)
        if format == "json":
            self.stdout.write(json.dumps(standings_as_dicts(st), ensure_ascii=False, indent=1))
            return
        head = ["Rk", "No", "Name", "Rtg", "Pts", *st.tiebreak_keys]
        rows = [
            [f"{l.rank}{'=' if l.shared else ''}", str(l.start_no), l.name, str(l.rating), _num(l.points),
             *[_num(v) for v in l.tiebreaks]]
            for l in st.lines
        ]
        widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
        self.stdout.write(f"{t.name} — after round {st.rounds}")
        for r in [head, *rows]:
            self.stdout.write("  ".join(c.ljust(w) if i == 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
