"""federation/db_router.py: public reads from the replica, everything else from the primary.

The replica here is the ``replica`` alias of the test settings: the test database itself (SQLite or
PostgreSQL) through a second connection (TEST MIRROR). CaptureQueriesContext on each connection shows
which one a query went to.
"""
from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager

import pytest
from django.db import connections, transaction
from django.test.utils import CaptureQueriesContext

from federation.db_router import PRIMARY, REPLICA, ReplicaReadsMiddleware, ReplicaRouter
from tests.factories import TournamentFactory, UserFactory
from tournaments.models import Tournament

# committed rows: the second connection sees them
pytestmark = pytest.mark.django_db(transaction=True, databases=[PRIMARY, REPLICA])


@pytest.fixture
def replica(settings):
    """The router and the middleware installed (the ``replica`` alias comes from the test settings)."""
    assert connections[REPLICA].settings_dict["NAME"] == connections[PRIMARY].settings_dict["NAME"]
    settings.DATABASE_ROUTERS = ["federation.db_router.ReplicaRouter"]
    settings.MIDDLEWARE = ["federation.db_router.ReplicaReadsMiddleware", *settings.MIDDLEWARE]


@contextmanager
def queries():
    """(primary, replica) CaptureQueriesContext, each counting the queries of its own connection."""
    with CaptureQueriesContext(connections[PRIMARY]) as primary, CaptureQueriesContext(connections[REPLICA]) as rep:
        yield primary, rep


def serve(rf_request, view):
    """``view`` run as a request through ReplicaReadsMiddleware."""
    return ReplicaReadsMiddleware(view)(rf_request)


def test_without_a_replica_the_router_leaves_the_choice_to_django(monkeypatch):
    router = ReplicaRouter()
    monkeypatch.setattr("federation.db_router.replica_configured", lambda: False)
    assert router.db_for_read(Tournament) is None
    assert router.db_for_write(Tournament) is None


def test_a_public_read_goes_to_the_replica(replica, rf):
    TournamentFactory(slug="kopya-okuma")

    def view(request):
        return Tournament.objects.filter(slug="kopya-okuma").count()

    with queries() as (primary, rep):
        assert serve(rf.get("/api/tournaments/"), view) == 1
    assert len(rep) == 1 and len(primary) == 0


def test_a_write_pins_the_rest_of_the_request_to_the_primary(replica, rf):
    t = TournamentFactory(slug="yazinca-birincil")

    def view(request):
        before = Tournament.objects.get(pk=t.pk).name  # replica
        Tournament.objects.filter(pk=t.pk).update(name="Düzeltilmiş")  # primary
        after = Tournament.objects.get(pk=t.pk).name  # primary: reads its own write
        return before, after

    with queries() as (primary, rep):
        assert serve(rf.get("/"), view) == (t.name, "Düzeltilmiş")
    assert len(rep) == 1 and len(primary) == 2


def test_reads_in_a_transaction_use_the_primary(replica, rf):
    TournamentFactory(slug="islem-icinde")

    def view(request):
        with transaction.atomic():
            return Tournament.objects.filter(slug="islem-icinde").exists()

    with queries() as (primary, rep):
        assert serve(rf.get("/"), view) is True
    assert len(rep) == 0 and len(primary) >= 1


@pytest.mark.parametrize("make", [
    lambda rf: rf.get("/", HTTP_COOKIE="sessionid=abc"),
    lambda rf: rf.get("/", HTTP_AUTHORIZATION="Token abc"),
    lambda rf: rf.post("/", {}),
], ids=["session", "token", "post"])
def test_users_tokens_and_posts_read_the_primary(replica, rf, make):
    TournamentFactory(slug="birincil")

    def view(request):
        return Tournament.objects.filter(slug="birincil").count()

    with queries() as (primary, rep):
        assert serve(make(rf), view) == 1
    assert len(rep) == 0 and len(primary) == 1


def test_outside_a_request_everything_uses_the_primary(replica):
    TournamentFactory(slug="istek-disi")  # e.g. a Celery job or a management command
    with queries() as (primary, rep):
        assert Tournament.objects.filter(slug="istek-disi").count() == 1
    assert len(rep) == 0 and len(primary) == 1


def test_the_mark_ends_with_the_request(replica, rf):
    TournamentFactory(slug="istek-sonu")
    serve(rf.get("/"), lambda request: Tournament.objects.count())
    with queries() as (primary, rep):
        Tournament.objects.filter(slug="istek-sonu").count()
    assert len(rep) == 0 and len(primary) == 1


def test_a_page_the_page_cache_stores_is_built_from_the_primary(replica, client, settings):
    """Its generations move when a write commits on the primary: built from a lagging replica it would be
    stored as current with the data from before the write."""
    from federation import pagecache

    settings.PUBLIC_PAGE_CACHE = False  # built every time here, so each request shows its reads
    t = TournamentFactory(slug="sayfa-onbellegi")
    assert pagecache.page_for("/t/any-event/standings/") is not None
    with queries() as (primary, rep):
        assert client.get(f"/t/{t.slug}/standings/").status_code in (200, 404)
    assert len(rep) == 0 and len(primary) >= 1
    with queries() as (primary, rep):  # a page that is not stored: the replica
        assert client.get("/api/tournaments/").status_code == 200
    assert len(rep) >= 1 and len(primary) == 0


def test_migrations_run_on_the_primary_only():
    router = ReplicaRouter()
    assert router.allow_migrate(REPLICA, "tournaments") is False
    assert router.allow_migrate(PRIMARY, "tournaments") is True


def test_the_api_of_a_spectator_reads_the_replica_and_an_organiser_the_primary(replica, client):
    from rest_framework.authtoken.models import Token

    TournamentFactory(slug="api-kopya")
    with queries() as (primary, rep):
        assert client.get("/api/tournaments/api-kopya/").status_code == 200
    assert len(rep) >= 1 and len(primary) == 0
    token = Token.objects.create(user=UserFactory(username="hakem-kopya"))
    with queries() as (primary, rep):
        assert client.get("/api/tournaments/api-kopya/", HTTP_AUTHORIZATION=f"Token {token.key}").status_code == 200
    assert len(rep) == 0 and len(primary) >= 1


def _production_settings(extra: dict) -> dict:
    code = ("import json; from django.conf import settings as s; "
            "print(json.dumps({'aliases': sorted(s.DATABASES), 'routers': s.DATABASE_ROUTERS, "
            "'middleware': s.MIDDLEWARE[:3], 'ssc': s.DATABASES['default']['DISABLE_SERVER_SIDE_CURSORS'], "
            "'replica': s.DATABASES.get('replica', {}).get('HOST')}))")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DJANGO_"))}
    env.update(DJANGO_SETTINGS_MODULE="federation.settings.production", DJANGO_SECRET_KEY="x" * 50,
               DJANGO_ALLOWED_HOSTS="example.org", DATABASE_URL="postgres://u@primary.example:5432/mangala",
               REDIS_URL="redis://127.0.0.1:6379/0", **extra)
    out = subprocess.run([sys.executable, "-c", "import django; django.setup(); " + code], env=env,
                         capture_output=True, text=True, check=True)
    import json

    return json.loads(out.stdout)


def test_production_settings_wire_the_replica_from_the_environment():
    plain = _production_settings({})
    assert plain["aliases"] == ["default"] and plain["routers"] == [] and plain["ssc"] is False
    assert "federation.db_router.ReplicaReadsMiddleware" not in plain["middleware"]
    wired = _production_settings({"DATABASE_REPLICA_URL": "postgres://u@replica.example:5432/mangala",
                                  "DATABASE_DISABLE_SERVER_SIDE_CURSORS": "true"})
    assert wired["aliases"] == ["default", "replica"] and wired["replica"] == "replica.example"
    assert wired["routers"] == ["federation.db_router.ReplicaRouter"]
    assert wired["middleware"][:2] == ["federation.health.HealthCheckMiddleware",
                                       "federation.db_router.ReplicaReadsMiddleware"]
    assert wired["ssc"] is True
