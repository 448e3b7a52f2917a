"""``/healthz`` (federation/health.py) and the fail-open Redis cache (federation/cache.py)."""
from __future__ import annotations

import pytest
from django.core.cache import caches
from django.test import Client, override_settings

from federation import health, heartbeat

pytestmark = pytest.mark.django_db

#: nothing listens here: every connection is refused at once
DEAD_REDIS = "redis://127.0.0.1:9/0"


def test_healthz_reports_each_dependency_in_the_embedded_mode():
    response = Client().get("/healthz")
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "cache": "local", "broker": "eager",
                                                          "workers": "eager"}, "worker_heartbeat_age": None}


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
                                                                "broker": "eager", "workers": "eager"},
                               "worker_heartbeat_age": None}
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


@override_settings(CELERY_TASK_ALWAYS_EAGER=False, WORKER_HEARTBEAT_MAX_AGE=60)
def test_no_worker_heartbeat_is_degraded_with_its_age(monkeypatch):
    """A broker that answers but no worker alive: "degraded" (200: compose starts the workers only once web
    is healthy), the heartbeat's age reported; a fresh heartbeat makes it "ok" again."""
    import time

    from django.core.cache import cache

    monkeypatch.setitem(health.CHECKS, "broker", lambda: "ok")
    cache.delete(heartbeat.HEARTBEAT_KEY)
    body = Client().get("/healthz").json()
    assert body == {"status": "degraded", "worker_heartbeat_age": None,
                    "checks": {"database": "ok", "cache": "local", "broker": "ok", "workers": "missing"}}
    cache.set(heartbeat.HEARTBEAT_KEY, {"at": time.time() - 90, "worker": "celery@w1"})
    response = Client().get("/healthz")
    assert response.status_code == 200 and response.json()["status"] == "degraded"
    assert 89.5 <= response.json()["worker_heartbeat_age"] <= 95
    heartbeat.record_worker_heartbeat(hostname="celery@w1", force=True)
    body = Client().get("/healthz").json()
    assert body["status"] == "ok" and body["checks"]["workers"] == "ok" and body["worker_heartbeat_age"] < 5
    cache.delete(heartbeat.HEARTBEAT_KEY)


def test_the_heartbeat_is_written_at_most_every_few_seconds(monkeypatch):
    from django.core.cache import cache

    cache.delete(heartbeat.HEARTBEAT_KEY)
    heartbeat.record_worker_heartbeat(hostname="celery@a", force=True)
    first = cache.get(heartbeat.HEARTBEAT_KEY)
    heartbeat.record_worker_heartbeat(hostname="celery@b")  # within WORKER_HEARTBEAT_WRITE_SECONDS: skipped
    assert cache.get(heartbeat.HEARTBEAT_KEY) == first and first["worker"] == "celery@a"
    monkeypatch.setattr(heartbeat, "_last_written", [0.0])
    heartbeat.record_worker_heartbeat(hostname="celery@b")
    assert cache.get(heartbeat.HEARTBEAT_KEY)["worker"] == "celery@b"
    cache.delete(heartbeat.HEARTBEAT_KEY)


def test_celery_signals_write_the_heartbeat(monkeypatch):
    from types import SimpleNamespace

    from django.core.cache import cache

    import federation.celery as fc

    cache.delete(heartbeat.HEARTBEAT_KEY)
    fc._heartbeat_on_ready(sender=SimpleNamespace(hostname="celery@ready"))
    assert cache.get(heartbeat.HEARTBEAT_KEY)["worker"] == "celery@ready"
    monkeypatch.setattr(heartbeat, "_last_written", [0.0])
    fc._heartbeat(sender=SimpleNamespace(eventer=SimpleNamespace(hostname="celery@beat")))
    assert cache.get(heartbeat.HEARTBEAT_KEY)["worker"] == "celery@beat"
    cache.delete(heartbeat.HEARTBEAT_KEY)
