"""The chaos run (issue 23, ``make chaos``): not part of ``make test`` (marker ``chaos``).

On SQLite the test database is a file (not pytest-django's shared in-memory one), so that threads
racing each other meet SQLite's real locking (WAL, BEGIN IMMEDIATE, busy timeout), as in production.
"""
from __future__ import annotations

import os
import tempfile

import pytest


def trials() -> int:
    """Trials per race: ``CHAOS_TRIALS`` (``make chaos TRIALS=1000``), 100 by default."""
    return int(os.environ.get("CHAOS_TRIALS", "100"))


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    from django.conf import settings

    for alias in ("default",):
        db = settings.DATABASES[alias]
        if db["ENGINE"].endswith("sqlite3"):
            db.setdefault("TEST", {})["NAME"] = os.path.join(tempfile.mkdtemp(prefix="chaos-"), "chaos.sqlite3")


SUMMARY: list[str] = []  # one line per race or job kill, printed at the end of the run


def pytest_terminal_summary(terminalreporter):
    if SUMMARY:
        terminalreporter.section("chaos figures")
        for line in SUMMARY:
            terminalreporter.write_line(line)
