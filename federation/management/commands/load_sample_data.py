"""``python manage.py load_sample_data`` — demo accounts, a fictional federation, sample tournaments."""
from __future__ import annotations

from django.core.management.base import BaseCommand

from federation.sample_data import DEMO_PASSWORDS, load


class Command(BaseCommand):
    help = "Load the demo: accounts, 40 fictional players, the sample TRF tournaments, a Mangala Swiss with two rounds."

    def handle(self, *args, **options):
        out = load(stdout=self.stdout)
        self.stdout.write("demo accounts: " + ", ".join(f"{u}/{p}" for u, p in DEMO_PASSWORDS.items()))
        self.stdout.write(f"demo tournament: /t/{out['demo']}/")
        self.stdout.write(f"school event (sections): /events/{out['event']}/")
        self.stdout.write(f"team championship: /t/{out['teams']}/teams/standings/")
