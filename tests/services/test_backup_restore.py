"""The backup and restore of docs/operations.md, done for real: ``pg_dump -Fc`` and ``pg_restore``.

The sample data (``manage.py load_sample_data``: five tournaments, results with move records, TRF imports,
rating runs, history rows) is loaded into the test database; it is dumped with ``pg_dump -Fc`` and restored
with ``pg_restore --no-owner --exit-on-error`` into a new database, exactly as the runbook says. The
restored database must hold the same rows — every table's row count *and* content checksum, every
sequence's position (new rows after a restore must not collide with restored ones) — no unapplied
migration, and the same standings of every tournament, computed by the project's own selector in a Django
process connected to the restored database.

Runs only on PostgreSQL (DATABASE_URL=postgres://..., REDIS_URL: the services suite, tests/conftest.py);
skipped with the reason when the PostgreSQL client tools are missing or older than the server.
"""
from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from tests.conftest import REPO_ROOT, _database_url, _wait_until_worker_idle

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

# Standings of every tournament as JSON lines, computed by the selectors in a Django process of its own
# (DATABASE_URL decides which database); also fails when a migration is not applied there.
STANDINGS_SCRIPT = r"""
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", check=True, plan=True, verbosity=0)  # exits 1 when a migration is not applied
from tournaments.models import Tournament
from tournaments.selectors import standings_as_dicts, tournament_standings
for t in Tournament.objects.order_by("slug"):
    s = tournament_standings(tournament=t)
    print(json.dumps({"slug": t.slug, "rounds": s.rounds, "rows": standings_as_dicts(s)}, sort_keys=True))
"""


def _client_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} not found: install the PostgreSQL client tools (apt-get install postgresql-client)")
    return path


def _major(version_text: str) -> int:
    match = re.search(r"(\d+)(?:\.\d+)?", version_text)
    assert match, version_text
    return int(match.group(1))


def _libpq_env(settings_dict: dict) -> dict[str, str]:
    """PG* variables for the client tools: the test database's host, port, user and password."""
    env = dict(os.environ)
    env.update(
        PGHOST=str(settings_dict.get("HOST") or "127.0.0.1"),
        PGPORT=str(settings_dict.get("PORT") or "5432"),
        PGUSER=str(settings_dict.get("USER") or "postgres"),
    )
    if settings_dict.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings_dict["PASSWORD"])
    return env


def _connect(settings_dict: dict, dbname: str):
    import psycopg

    return psycopg.connect(
        dbname=dbname, host=settings_dict.get("HOST") or "127.0.0.1", port=settings_dict.get("PORT") or 5432,
        user=settings_dict.get("USER") or "postgres", password=settings_dict.get("PASSWORD") or None,
        autocommit=True,
    )


def _fingerprint(settings_dict: dict, dbname: str) -> dict:
    """{"tables": {table: (rows, md5 of the sorted rows)}, "sequences": {sequence: last_value}}."""
    from psycopg import sql

    with _connect(settings_dict, dbname) as conn:
        tables = [r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name"
        )]
        out_tables = {}
        for table in tables:
            rows, digest = conn.execute(sql.SQL(
                "SELECT count(*), md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) FROM {} AS t"
            ).format(sql.Identifier(table))).fetchone()
            out_tables[table] = (rows, digest)
        sequences = dict(conn.execute(
            "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1"
        ).fetchall())
    return {"tables": out_tables, "sequences": sequences}


def _standings(database_url: str) -> list[dict]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CELERY_", "CACHE_"))}
    # no broker and no shared cache: nothing is queued, and no cached table of the other database is read
    env.pop("REDIS_URL", None)
    env.update(DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="federation.settings.test", PYTHONUNBUFFERED="1")
    out = subprocess.run([sys.executable, "-c", STANDINGS_SCRIPT], cwd=REPO_ROOT, env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, f"standings of {database_url} failed:\n{out.stdout[-2000:]}\n{out.stderr[-4000:]}"
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def test_pg_dump_and_pg_restore_give_back_the_same_database(tmp_path: Path):
    if connection.vendor != "postgresql":
        pytest.skip("backup/restore test: DATABASE_URL is not PostgreSQL")
    pg_dump, pg_restore, createdb, dropdb = (_client_tool(n) for n in ("pg_dump", "pg_restore", "createdb", "dropdb"))
    server_major = connection.pg_version // 10000
    dump_major = _major(subprocess.run([pg_dump, "--version"], capture_output=True, text=True, check=True).stdout)
    if dump_major < server_major:
        pytest.skip(f"pg_dump {dump_major} cannot dump a PostgreSQL {server_major} server (install client tools >= {server_major})")

    settings_dict = dict(connection.settings_dict)
    source = settings_dict["NAME"]
    env = _libpq_env(settings_dict)

    call_command("load_sample_data", stdout=io.StringIO())
    _wait_until_worker_idle()  # the rating run queued on commit is done: nothing writes during the dump
    before = _fingerprint(settings_dict, source)
    assert before["tables"]["tournaments_tournament"][0] >= 5 and before["tables"]["tournaments_setresult"][0] > 0
    assert before["tables"]["ratings_ratingchange"][0] > 0, "the sample data's rating run did not happen"

    # --- backup (docs/operations.md, "Backup and restore", plain server) --------------------------------
    dump = tmp_path / "mangala.dump"
    subprocess.run([pg_dump, "-Fc", "-d", source, "-f", str(dump)], env=env, check=True, capture_output=True)
    assert dump.stat().st_size > 0
    assert _fingerprint(settings_dict, source) == before, "the database changed while it was dumped"
    listing = subprocess.run([pg_restore, "--list", str(dump)], env=env, check=True, capture_output=True, text=True)
    assert "TABLE DATA public tournaments_setresult" in listing.stdout  # the archive is readable

    # --- restore into a new database ---------------------------------------------------------------------
    target = f"restore_{uuid.uuid4().hex[:12]}"
    subprocess.run([createdb, target], env=env, check=True, capture_output=True)
    try:
        restored = subprocess.run(
            [pg_restore, "--no-owner", "--exit-on-error", "-d", target, str(dump)], env=env, capture_output=True,
            text=True,
        )
        assert restored.returncode == 0, restored.stderr[-4000:]

        after = _fingerprint(settings_dict, target)
        assert after["tables"].keys() == before["tables"].keys()
        differing = {t: (before["tables"][t], after["tables"][t]) for t in before["tables"]
                     if before["tables"][t] != after["tables"][t]}
        assert not differing, f"tables whose rows differ after the restore: {differing}"
        assert after["sequences"] == before["sequences"]

        original = _standings(_database_url(settings_dict))
        from_restore = _standings(_database_url({**settings_dict, "NAME": target}))
        assert len(original) == before["tables"]["tournaments_tournament"][0]
        assert any(t["rows"] for t in original)
        assert from_restore == original
    finally:
        subprocess.run([dropdb, "--force", "--if-exists", target], env=env, capture_output=True)
