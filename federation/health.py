"""``GET /healthz``: is this instance fit to serve? The database, the cache and the Celery broker.

Answered by :class:`HealthCheckMiddleware`, first in ``MIDDLEWARE``, before the host check, the HTTPS
redirect, sessions and everything else: a load balancer or compose's health check asks over plain
http with whatever ``Host`` header it has, and must neither be redirected nor refused (and an attacker
learns nothing from it but "ok"). Response: ``200`` with ``{"status": "ok", "checks": {"database":
"ok", "cache": "ok", "broker": "ok"}}``, or ``503`` with ``"status": "failing"`` and the failing
check(s) set to ``"failing"`` (the reason is logged, not shown). In the embedded mode the broker is
``"eager"`` (no broker: jobs run in the web process) and the cache ``"local"`` (each process's memory),
both healthy. Each check gives up after about a second (``HEALTH_TIMEOUT``).

Workers: a broker that answers says nothing about whether a worker consumes from it. Every Celery worker
writes its heartbeat time to the cache (:func:`federation.heartbeat.record_worker_heartbeat`, on
``worker_ready`` and on each of Celery's own worker heartbeats, at most every
``WORKER_HEARTBEAT_WRITE_SECONDS``); ``/healthz`` reports
``"worker_heartbeat_age"`` (seconds since the youngest heartbeat of any worker, ``null`` when none or in
the embedded mode) and the check ``"workers"``: ``"ok"``, ``"eager"`` (embedded: no workers), or
``"missing"`` when no heartbeat is younger than ``WORKER_HEARTBEAT_MAX_AGE`` seconds (60). A missing
worker makes ``"status": "degraded"`` with HTTP 200, not 503: the web instance itself still serves (and
compose starts the workers only once ``web`` is healthy, so a 503 here would keep them from ever starting);
a monitor should alert on ``degraded``.
"""
from __future__ import annotations

import json
import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from federation.heartbeat import worker_heartbeat_age

logger = logging.getLogger("federation.health")

PATH = "/healthz"


def check_database() -> str:
    """``"ok"`` when the default database answers ``SELECT 1``; raises otherwise."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return "ok"


def check_cache() -> str:
    """``"ok"`` when Redis (the cache) answers a PING, ``"local"`` for an in-memory cache; raises otherwise."""
    from django.core.cache import cache

    ping = getattr(cache, "ping", None)
    if ping is None:
        return "local"
    if not ping():
        raise ConnectionError("the cache did not answer PING")
    return "ok"


def check_broker() -> str:
    """``"ok"`` when the Celery broker accepts a connection, ``"eager"`` without a broker; raises otherwise."""
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return "eager"
    from federation.celery import app

    timeout = getattr(settings, "HEALTH_TIMEOUT", 1.0)
    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=timeout)
    return "ok"


def check_workers() -> str:
    """``"eager"`` without workers (embedded), ``"ok"`` with a heartbeat younger than
    ``WORKER_HEARTBEAT_MAX_AGE`` seconds, ``"missing"`` otherwise (degraded, not failing)."""
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        return "eager"
    age = worker_heartbeat_age()
    if age is None or age > getattr(settings, "WORKER_HEARTBEAT_MAX_AGE", 60):
        return "missing"
    return "ok"


CHECKS: dict[str, Callable[[], str]] = {"database": check_database, "cache": check_cache, "broker": check_broker,
                                        "workers": check_workers}


def health() -> tuple[bool, dict[str, str]]:
    """Run every check of :data:`CHECKS`: ``(all healthy, {name: "ok" | "local" | "eager" | "missing" |
    "failing"})``; ``"missing"`` workers do not make it unhealthy (the status says ``degraded``)."""
    results: dict[str, str] = {}
    for name, check in CHECKS.items():
        try:
            results[name] = check()
        except Exception as exc:  # any failure of a dependency is "failing", never a 500
            logger.error("health check %s failing: %s", name, exc)
            results[name] = "failing"
    return all(v != "failing" for v in results.values()), results


class HealthCheckMiddleware:
    """Answers ``GET``/``HEAD /healthz`` itself (module docstring); every other request passes on."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info != PATH:
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            return HttpResponse(status=405, headers={"Allow": "GET, HEAD"})
        ok, checks = health()
        status = "failing" if not ok else "degraded" if checks.get("workers") == "missing" else "ok"
        age = None
        if checks.get("workers") not in ("eager", "failing", None):
            try:
                age = worker_heartbeat_age()
            except Exception:  # already reported by the check
                age = None
        body = json.dumps({"status": status, "checks": checks, "worker_heartbeat_age": age})
        return HttpResponse(
            body if request.method == "GET" else b"", status=200 if ok else 503, content_type="application/json",
            headers={"Cache-Control": "no-store"},
        )
