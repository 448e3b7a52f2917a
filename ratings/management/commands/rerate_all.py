"""``python manage.py rerate_all`` — recompute the whole national rating from scratch.

Deletes every stored rating event, rates every finished tournament with published final standings in
rating order (period, then id) from each player's initial rating, and updates ``Player.rating``.
Prints ``N/M <period> <tournament>`` per event, then a summary line.
"""
from __future__ import annotations

from django.core.management.base import BaseCommand

from ratings.services import ratings_recompute_all


class Command(BaseCommand):
    help = "Recompute all rating history from scratch (every rated tournament, in order) and update player ratings."

    def handle(self, *args, **options):
        def progress(n, total, ev):
            self.stdout.write(f"{n}/{total} {ev.period} {ev.tournament.name} ({ev.rated_sets} rated sets)")

        summary = ratings_recompute_all(progress=progress)
        self.stdout.write(
            f"rated {len(summary.events)} events, {summary.rated_sets} sets; "
            f"{summary.players_updated} player ratings changed"
        )
