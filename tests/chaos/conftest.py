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


@pytest.fixture(scope="session")
def django_db_setup(request, django_test_environment, django_db_blocker, django_db_use_migrations,
                    django_db_keepdb, django_db_createdb, django_db_modify_db_settings):
    """pytest-django's ``django_db_setup``, but the ``default`` test database is always created (with its
    migrations): tests/chaos/test_races.py uses it without a ``django_db`` mark (a module-wide unblock,
    flushed once), which pytest-django would not count. No serialized rollback in the chaos run."""
    from django.test.utils import setup_databases, teardown_databases

    assert django_db_use_migrations, "the chaos run tests the migrated schema"
    keep = django_db_keepdb and not django_db_createdb
    with django_db_blocker.unblock():
        db_cfg = setup_databases(verbosity=request.config.option.verbose, interactive=False, aliases={"default"},
                                 serialized_aliases=set(), keepdb=keep)
    yield
    if not django_db_keepdb:
        with django_db_blocker.unblock():
            teardown_databases(db_cfg, verbosity=request.config.option.verbose)
