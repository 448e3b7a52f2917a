"""``python manage.py export_crosstable SLUG --output FILE.pdf`` — the crosstable as a PDF."""
from __future__ import annotations

import shutil
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournaments.management.common import tournament_by_slug
from tournaments.tasks import crosstable_pdf_task


class Command(BaseCommand):
    help = "Write the crosstable PDF (through the Celery task when a broker is configured)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--output", "-o", required=True)
        parser.add_argument("--lang", choices=["tr", "en"], default="tr")

    def handle(self, *args, slug: str, output: str, lang: str, **options):
        t = tournament_by_slug(slug)
        if settings.CELERY_TASK_ALWAYS_EAGER:
            path = crosstable_pdf_task.apply(args=[t.id, lang]).get()
        else:
            path = crosstable_pdf_task.delay(t.id, lang).get(timeout=120)
        try:
            shutil.copyfile(path, output)
        except OSError as exc:
            raise CommandError(f"{output}: cannot write: {exc.strerror or exc}", returncode=2) from exc
        self.stdout.write(f"wrote {output} ({Path(output).stat().st_size} bytes)")
