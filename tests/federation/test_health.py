"""``/healthz`` (federation/health.py) and the fail-open Redis cache (federation/cache.py)."""
from __future__ import annotations

import pytest
from django.core.cache import caches
from django.test import Client, override_settings

from federation import health

pytestmark = pytest.mark.django_db

#: nothing listens here: every connection is refused at once
DEAD_REDIS = "redis://127.0.0.1:9/0"


def test_healthz_reports_each_dependency_in_the_embedded_mode():
    response = Client().get("/healthz")
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "cache": "local", "broker": "eager"}}


@override_settings(SECURE_SSL_REDIRECT=True, ALLOWED_HOSTS=["turnuva.example.org"])
def test_healthz_answers_plain_http_on_any_host_name():
    """Compose and load balancers ask http://127.0.0.1:8000/healthz: no redirect, no 400 for the host."""
    response = Client().get("/healthz", HTTP_HOST="10.0.0.7:8000")
    assert response.status_code == 200 and response.json()["status"] == "ok"
    # every other page still gets the redirect
    assert Client().get("/", HTTP_HOST="turnuva.example.org").status_code == 301


def test_healthz_refuses_writes():
    assert Client().post("/healthz").status_code == 405


def test_a_failing_database_is_503_without_details(monkeypatch, caplog):
    def broken():
        raise RuntimeError("connection to server at 10.0.0.5 refused: password authentication failed")

    monkeypatch.setitem(health.CHECKS, "database", broken)
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "failing", "checks": {"database": "failing", "cache": "local",
                                                                "broker": "eager"}}
    assert b"10.0.0.5" not in response.content and "10.0.0.5" in caplog.text  # logged, not shown


@override_settings(CELERY_TASK_ALWAYS_EAGER=False)
def test_an_unreachable_broker_is_failing(monkeypatch):
    """A Celery app of its own on a dead broker: the project's app (and its connection pools, which a
    real worker's tests use) is never touched."""
    from celery import Celery

    import federation.celery

    monkeypatch.setattr(federation.celery, "app", Celery("health-test", broker=DEAD_REDIS, set_as_current=False))
    response = Client().get("/healthz")
    assert response.status_code == 503 and response.json()["checks"]["broker"] == "failing"


DEAD_CACHE = {
    "default": {
        "BACKEND": "federation.cache.ResilientRedisCache", "LOCATION": DEAD_REDIS,
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}


@override_settings(CACHES=DEAD_CACHE)
def test_a_dead_redis_cache_fails_open(caplog):
    cache = caches["default"]
    assert cache.get("k", "absent") == "absent" and cache.get_many(["a", "b"]) == {}
    assert cache.add("k", 1) is False and cache.set("k", 1) is None and cache.delete("k") is False
    assert cache.has_key("k") is False
    with pytest.raises(ValueError):
        cache.incr("k")
    assert "carrying on without the cache" in caplog.text
    response = Client().get("/healthz")
    assert response.status_code == 503 and response.json()["checks"]["cache"] == "failing"
