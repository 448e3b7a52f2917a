"""The web's statement timeout (issue 23, item 4: federation/dbtimeout.py).

The WSGI/ASGI entry points give every connection of the web process ``DATABASE_STATEMENT_TIMEOUT_MS``;
a Celery worker's connections get ``WORKER_DATABASE_STATEMENT_TIMEOUT_MS`` (0: none). A query cut by the
timeout is answered 503 with Retry-After (the API's envelope), not a 500. PostgreSQL only (SQLite has no
statement timeout: nothing is installed there).
"""
from __future__ import annotations

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from federation import dbtimeout
from tests.factories import organiser

pg = pytest.mark.skipif(connection.vendor != "postgresql", reason="statement_timeout is PostgreSQL's")


@pytest.fixture
def restore():
    before = dbtimeout.installed_ms()
    yield
    dbtimeout.install(before)


def _show(conn) -> str:
    with conn.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        return cursor.fetchone()[0]


def test_the_entry_points_install_the_web_setting(settings, restore):
    settings.DATABASE_STATEMENT_TIMEOUT_MS = 1234
    import federation.wsgi  # noqa: F401  (installs at import; the import may be cached: install again)

    dbtimeout.install_for_web()
    assert dbtimeout.installed_ms() == 1234
    settings.WORKER_DATABASE_STATEMENT_TIMEOUT_MS = 0
    dbtimeout.install_for_worker()
    assert dbtimeout.installed_ms() == 0


@pg
@pytest.mark.django_db(transaction=True)
def test_a_new_web_connection_gets_the_timeout_and_a_worker_none(settings, restore):
    settings.DATABASE_STATEMENT_TIMEOUT_MS = 1500
    dbtimeout.install_for_web()
    conn = connections.create_connection("default")
    try:
        assert _show(conn) == "1500ms"
    finally:
        conn.close()
    settings.WORKER_DATABASE_STATEMENT_TIMEOUT_MS = 0
    dbtimeout.install_for_worker()
    conn = connections.create_connection("default")
    try:
        assert _show(conn) == "0"
    finally:
        conn.close()


@pg
@pytest.mark.django_db(transaction=True)
def test_a_query_cut_by_the_timeout_is_a_503_not_a_traceback(monkeypatch, client):
    from tournaments.trf import selectors as trf_selectors

    def slow(**kwargs):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_sleep(2)")

    monkeypatch.setattr(trf_selectors, "trf_import_get", slow)
    user = organiser(username="timeout-org")
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(user)
    client.force_login(user)
    with connection.cursor() as cursor:
        cursor.execute("SET statement_timeout = 100")
    try:
        r = api.get("/api/tournaments/import-trf/1/")
        assert r.status_code == 503 and r["Retry-After"] == "30"
        assert r.json() == {"error": {"code": "timeout", "field": None,
                                      "message": "The server took too long to answer; try again in a moment."}}
        page = client.get("/t/import/1/", HTTP_ACCEPT_LANGUAGE="en")
        assert page.status_code == 503 and b"took too long" in page.content
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET statement_timeout = 0")
