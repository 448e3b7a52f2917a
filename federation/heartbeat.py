"""The Celery workers' heartbeat in the cache, for ``/healthz`` (:mod:`federation.health`).

Written in the worker by the signal handlers of :mod:`federation.celery` (on ``worker_ready`` and on each of
Celery's own worker heartbeats), read by the health check. Kept apart from :mod:`federation.health`, which
imports the Celery application for its broker check, so that the application needs nothing of the check.
"""
from __future__ import annotations

import logging

from django.conf import settings

logger = logging.getLogger("federation.health")

HEARTBEAT_KEY = "federation:worker-heartbeat"
_last_written: list[float] = [0.0]


def record_worker_heartbeat(*, hostname: str = "", force: bool = False) -> None:
    """Store ``{"at": epoch seconds, "worker": hostname}`` under :data:`HEARTBEAT_KEY` in the cache (kept
    10 minutes), at most once every ``WORKER_HEARTBEAT_WRITE_SECONDS`` per process unless ``force``.
    Called in the worker (federation/celery.py's signal handlers); never raises (the cache fails open)."""
    import time

    from django.core.cache import cache

    now = time.time()
    if not force and now - _last_written[0] < getattr(settings, "WORKER_HEARTBEAT_WRITE_SECONDS", 10):
        return
    _last_written[0] = now
    try:
        cache.set(HEARTBEAT_KEY, {"at": now, "worker": hostname}, timeout=600)
    except Exception as exc:  # a heartbeat must never break the worker
        logger.warning("worker heartbeat not written: %s", exc)


def worker_heartbeat_age() -> float | None:
    """Seconds since the youngest worker heartbeat in the cache, rounded to 0.1; ``None`` when none."""
    import time

    from django.core.cache import cache

    beat = cache.get(HEARTBEAT_KEY)
    if not isinstance(beat, dict) or "at" not in beat:
        return None
    return round(max(time.time() - float(beat["at"]), 0.0), 1)
