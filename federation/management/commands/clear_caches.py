"""``manage.py clear_caches [--pdfs]``: forget every cached table, and with ``--pdfs`` the cached PDF files.

Needed after a database is restored from a backup (docs/operations.md): cached values are keyed on
tournament and data versions, and a restored database counts those versions again from older values,
so entries cached from the newer state would be taken for the restored one's. Only this site's keys
are deleted (the cache's ``KEY_PREFIX``, on Redis by ``SCAN``), never the whole Redis database: the
Celery queues may share it. ``--pdfs``: also delete the PDF files under ``MEDIA_ROOT`` (crosstables,
standings, pairing lists, slips, prize lists, brackets, team PDFs, event reports); they are rebuilt on the
next request.
"""
from __future__ import annotations

import shutil
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.core.management.base import BaseCommand

#: Folders of MEDIA_ROOT that hold only cached PDFs (tournaments/paper/crosstable.py, tournaments/paper/hall.py).
PDF_FOLDERS = ("crosstables", "standings", "pairings", "slips", "prizes", "brackets", "teams", "events")


def clear_cache_keys() -> int:
    """Delete the site's keys from the default cache; returns how many (-1 when the backend cannot say)."""
    cache = caches["default"]
    client_of = getattr(getattr(cache, "_cache", None), "get_client", None)
    if client_of is None:  # in-memory cache (embedded mode): only this process's, cleared whole
        cache.clear()
        return -1
    client = client_of(None, write=True)
    prefix = cache.key_prefix
    deleted = 0
    batch: list = []
    for key in client.scan_iter(match=f"{prefix}:*" if prefix else "*", count=1000):
        batch.append(key)
        if len(batch) >= 1000:
            deleted += client.delete(*batch)
            batch = []
    if batch:
        deleted += client.delete(*batch)
    return deleted


class Command(BaseCommand):
    help = "Forget every cached table (after restoring a backup); --pdfs: the cached PDF files too."

    def add_arguments(self, parser):
        parser.add_argument("--pdfs", action="store_true", help="also delete the cached PDF files under MEDIA_ROOT")

    def handle(self, *args, pdfs: bool = False, **options):
        n = clear_cache_keys()
        self.stdout.write("cache cleared" if n < 0 else f"cache: {n} keys deleted")
        if pdfs:
            root = Path(settings.MEDIA_ROOT)
            removed = 0
            for name in PDF_FOLDERS:
                folder = root / name
                if folder.is_dir():
                    removed += sum(1 for _ in folder.rglob("*.pdf"))
                    shutil.rmtree(folder)
            self.stdout.write(f"PDFs: {removed} files deleted")
