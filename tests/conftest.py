"""Shared fixtures for the whole suite."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.shared_data import SHARED_DIR, shared_available

try:  # CI runs property tests with a fixed seed, so a landing never depends on a lucky draw
    from hypothesis import settings as _hypothesis_settings

    _hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
    if os.environ.get("CI"):
        _hypothesis_settings.load_profile("ci")
except ImportError:  # pragma: no cover - hypothesis is a dev dependency
    pass


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The read-only ``../shared`` folder; the test is skipped when it is absent."""
    if not shared_available():
        pytest.skip(f"shared folder not present at {SHARED_DIR}")
    return SHARED_DIR


# --- service-backed mode: a real Celery worker ------------------------------------------------------
#
# When a broker is configured (REDIS_URL / CELERY_BROKER_URL, so CELERY_TASK_ALWAYS_EAGER is False),
# transactional database tests (``@pytest.mark.django_db(transaction=True)``, ``live_server``) get a
# real ``celery -A federation worker --pool=solo`` started once per session, pointed at the *test*
# database that pytest-django created (e.g. ``test_postgres``) and listening on a queue of its own, so
# no other worker on the same Redis can take the tasks. The other database tests run their tasks
# eagerly: their rows live in a transaction that is rolled back, which no worker process can see.

REPO_ROOT = Path(__file__).resolve().parent.parent
WORKER_START_TIMEOUT = 60.0


def _broker_configured() -> bool:
    """True when Celery sends tasks to a broker (settings), not eagerly in-process."""
    from django.conf import settings

    return not settings.CELERY_TASK_ALWAYS_EAGER


def _database_url(settings_dict: dict) -> str:
    """The ``DATABASE_URL`` (django-environ syntax) of a connection's settings, e.g. the test DB."""
    engine = settings_dict["ENGINE"]
    if engine.endswith("postgresql"):
        user = quote(settings_dict.get("USER") or "", safe="")
        password = quote(settings_dict.get("PASSWORD") or "", safe="")
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        host = settings_dict.get("HOST") or "127.0.0.1"
        port = settings_dict.get("PORT") or "5432"
        return f"postgres://{auth}{host}:{port}/{quote(settings_dict['NAME'], safe='')}"
    if engine.endswith("sqlite3"):
        name = str(settings_dict["NAME"])
        if name == ":memory:" or "mode=memory" in name:
            raise pytest.UsageError(
                "a Celery broker is configured (REDIS_URL) but the test database is in-memory SQLite, which "
                "a worker process cannot see: set DATABASE_URL=postgres://... too, or unset REDIS_URL"
            )
        return f"sqlite:///{name}"
    raise pytest.UsageError(f"no DATABASE_URL form known for {engine}")


def pytest_collection_modifyitems(config, items):
    """Skip ``services`` tests unless both DATABASE_URL and REDIS_URL are set."""
    if os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"):
        return
    skip = pytest.mark.skip(reason="services test: set DATABASE_URL (PostgreSQL) and REDIS_URL to run it")
    for item in items:
        if item.get_closest_marker("services"):
            item.add_marker(skip)


@pytest.fixture(scope="session")
def celery_worker(django_db_setup, tmp_path_factory):
    """A real Celery worker (subprocess) on the test database; ``None`` in eager mode.

    Yields the ``subprocess.Popen``; stops it (warm shutdown, then kill) before the test database is
    dropped. The worker's log is printed when it fails to start.
    """
    if not _broker_configured():
        yield None
        return
    from django.db import connection

    from federation.celery import app

    from federation.queues import queue_names, task_routes

    # queues of this session's own (test-<id>-default, -pdf, -ratings, -imports): no other worker on
    # the same Redis takes its jobs, and the routes of federation/queues.py are exercised as in production
    queue = f"test-{uuid.uuid4().hex[:12]}"
    prefix = f"{queue}-"
    app.conf.task_default_queue = f"{prefix}default"
    app.conf.task_routes = task_routes(prefix)
    env = dict(os.environ)
    env.update(
        DATABASE_URL=_database_url(connection.settings_dict),
        DJANGO_SETTINGS_MODULE=os.environ.get("DJANGO_SETTINGS_MODULE", "federation.settings.test"),
        PYTHONUNBUFFERED="1",
        CELERY_QUEUE_PREFIX=prefix,
    )
    log_path = tmp_path_factory.mktemp("celery") / "worker.log"
    celery = Path(sys.executable).with_name("celery")
    cmd = [
        str(celery) if celery.exists() else "celery", "-A", "federation", "worker", "--pool=solo", "-l", "warning",
        "-Q", ",".join(queue_names(prefix)), "-n", f"{queue}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]
    log = open(log_path, "wb")
    proc = subprocess.Popen(cmd, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def log_tail() -> str:
        log.flush()
        return log_path.read_text(errors="replace")[-4000:]

    deadline = time.monotonic() + WORKER_START_TIMEOUT
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"celery worker exited with {proc.returncode} at start:\n{log_tail()}", pytrace=False)
            replies = app.control.ping(timeout=1.0)
            if any(name.startswith(f"{queue}@") for reply in replies for name in reply):
                break
            if time.monotonic() > deadline:
                pytest.fail(f"celery worker did not answer a ping in {WORKER_START_TIMEOUT:.0f} s:\n{log_tail()}",
                            pytrace=False)
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        log.close()
        for name in queue_names(prefix):
            _forget_queue(app, name)


def _forget_queue(app, queue: str) -> None:
    """Drop the session's queue and its kombu bindings from Redis (best effort)."""
    url = app.conf.broker_url or ""
    if not url.startswith(("redis://", "rediss://")):
        return
    import redis

    try:
        client = redis.Redis.from_url(url)
        client.delete(queue, f"_kombu.binding.{queue}", f"_kombu.binding_permanent.{queue}")
        client.close()
    except redis.RedisError:  # the broker may already be gone; nothing is left to clean then
        pass


def _wait_until_worker_idle(timeout: float = 60.0) -> None:
    """Wait until the session's worker has no active, reserved or scheduled task (twice in a row),
    at most ``timeout`` seconds: tasks queued on commit by a transactional test (a rating run, a PDF)
    must not hold table locks while pytest-django truncates the tables at the test's end."""
    import time

    from federation.celery import app

    deadline = time.monotonic() + timeout
    quiet = 0
    while time.monotonic() < deadline and quiet < 2:
        inspect = app.control.inspect(timeout=1.0)
        busy = False
        for probe in (inspect.active, inspect.reserved, inspect.scheduled):
            replies = probe() or {}
            if any(replies.values()):
                busy = True
                break
        if not busy:
            busy = _queue_length(app) > 0
        quiet = 0 if busy else quiet + 1
        if busy:
            time.sleep(0.3)


def _queue_length(app) -> int:
    """Messages waiting in the session's queues on a Redis broker (0 when it cannot be read)."""
    url = app.conf.broker_url or ""
    if not url.startswith(("redis://", "rediss://")):
        return 0
    import redis

    try:
        client = redis.Redis.from_url(url)
        try:
            names = {app.conf.task_default_queue, *(r["queue"] for r in (app.conf.task_routes or {}).values())}
            return sum(int(client.llen(name) or 0) for name in names)
        finally:
            client.close()
    except redis.RedisError:
        return 0


def _is_transactional(request) -> bool:
    """True when the test's rows are committed (``django_db(transaction=True)``, ``live_server``)."""
    if {"transactional_db", "live_server"} & set(request.fixturenames):
        return True
    marker = request.node.get_closest_marker("django_db")
    return bool(marker and (marker.kwargs.get("transaction") or (marker.args and marker.args[0])))


@pytest.fixture(autouse=True)
def _celery_mode_for_db_tests(request):
    """With a broker configured: the real worker for transactional tests, eager Celery for the others.

    A worker cannot see rows of a test that runs inside a transaction rolled back at its end, so such
    tests run their tasks in-process (on the same PostgreSQL database); tests that mean to exercise the
    worker use ``@pytest.mark.django_db(transaction=True)``.
    """
    if not request.config.pluginmanager.hasplugin("django"):
        yield
        return
    uses_db = (
        request.node.get_closest_marker("django_db") is not None
        or request.node.get_closest_marker("services") is not None
        or bool({"db", "transactional_db", "live_server"} & set(request.fixturenames))
    )
    if not uses_db or not _broker_configured():
        yield
        return
    if _is_transactional(request):
        worker = request.getfixturevalue("celery_worker")
        yield
        if worker is not None:
            _wait_until_worker_idle()  # a task still running would deadlock with the flush of the tables
        return
    from federation.celery import app

    before = app.conf.task_always_eager  # read first: the first read loads app.conf from Django settings
    settings = request.getfixturevalue("settings")
    settings.CELERY_TASK_ALWAYS_EAGER = True
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = before


@pytest.fixture(autouse=True)
def _empty_cache():
    """Every test starts with an empty cache (the test settings' in-memory cache): tests re-use primary
    keys and tournament versions, so a table cached by one test must never reach the next."""
    from django.core.cache import cache

    cache.clear()
    yield
