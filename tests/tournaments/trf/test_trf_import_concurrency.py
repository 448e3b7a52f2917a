"""Imports of files without federation ids at the same time (issue 10, item 1): every one succeeds, no
database error; the generated federation ids and slugs never collide.

Threads with connections of their own on a transactional test database: on PostgreSQL the imports
really overlap (their unique inserts wait for each other; a lost race is retried in a savepoint); on
SQLite the writers take turns (BEGIN IMMEDIATE), which the test accepts as well.
"""
from __future__ import annotations

import threading
from pathlib import Path

import pytest
from django.db import connection, connections

from federation.models import Player
from tournaments.models import Entry, Tournament
from tournaments.trf.services import tournament_import_trf

INTEROP = Path(__file__).resolve().parent / "trf_files" / "interop"


@pytest.mark.django_db(transaction=True)
def test_concurrent_imports_of_sections_without_ids_all_succeed(settings):
    if connection.vendor == "sqlite" and "memory" in str(connection.settings_dict["NAME"]):
        pytest.skip("threads need a database file or a server (the test database is in memory)")
    settings.SIMPLE_HISTORY_ENABLED = False
    files = ["p10_section_open.trf", "p10_section_open.trf", "p10_section_girls.trf", "p10_section_girls.trf"] * 2
    errors: list[BaseException] = []
    slugs: list[str] = []
    start = threading.Barrier(len(files))

    def run(name: str, match: bool) -> None:
        try:
            start.wait(timeout=30)
            report = tournament_import_trf(data=(INTEROP / name).read_bytes(), source=name, system="swiss",
                                           match_players=match)
            slugs.append(report.tournament.slug)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(name, i % 2 == 0)) for i, name in enumerate(files)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=120)
    assert not errors, errors
    assert len(slugs) == len(set(slugs)) == len(files) == Tournament.objects.count()
    ids = list(Player.objects.values_list("federation_id", flat=True))
    assert len(ids) == len(set(ids))
    assert Entry.objects.count() == 2 * len(files)
