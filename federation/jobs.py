"""What every Celery job of the project shares: retrying transient errors, and a test-only slowdown.

Every task is declared ``@shared_task(name=..., **JOB_OPTIONS)``: an error in :data:`TRANSIENT_ERRORS`
(the database or a connection went away for a moment) re-queues the task with a growing, jittered
delay (about 1, 2, 4, 8, 16 s; at most :data:`MAX_RETRIES` times) instead of failing it. Together with
the settings in ``federation/settings/base.py`` (late acknowledgement, rejection on a lost worker,
prefetch 1) a job runs to its end even when its worker dies; the tasks are idempotent, so a job run
twice or resumed half-way leaves the same result as one clean run.
"""
from __future__ import annotations

import time

from django.conf import settings
from django.db import InterfaceError, OperationalError

#: Errors worth trying again: the database is restarting or the connection dropped (Django wraps the
#: driver's errors in OperationalError / InterfaceError), a socket error or a timeout.
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (OperationalError, InterfaceError, ConnectionError, TimeoutError)

#: Retries of a task after a transient error before it fails for good.
MAX_RETRIES = 5

JOB_OPTIONS = {
    "autoretry_for": TRANSIENT_ERRORS,
    "retry_backoff": True,  # 1 s, 2 s, 4 s, ...
    "retry_backoff_max": 60,
    "retry_jitter": True,  # a random part of each delay: workers that failed together do not retry together
    "max_retries": MAX_RETRIES,
}


def slowdown(name: str) -> float:
    """Seconds of the test-only setting ``name`` (0 when unset: always outside the test settings).

    ``federation/settings/test.py`` reads ``TEST_TASK_DELAY`` (a PDF or rating job waits that long
    before working) and ``TEST_RECORD_DELAY`` (a record import waits that long after each record) from
    the environment, so a test can start a worker whose jobs last long enough to be killed half-way
    (tests/services/test_crash_recovery.py).
    """
    return float(getattr(settings, name, 0) or 0)


def pause(name: str) -> None:
    """Sleep :func:`slowdown` ``(name)`` seconds (nothing outside those tests)."""
    seconds = slowdown(name)
    if seconds > 0:
        time.sleep(seconds)
