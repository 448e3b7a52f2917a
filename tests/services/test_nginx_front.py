"""A real nginx (Debian's, docker/nginx/mangala.conf.template) in front of TWO gunicorn servers running the
app with the production settings on the test PostgreSQL database and Redis (docs/operations.md "A front for
the crowd" and "Past one machine").

Checks, on a seeded Swiss (benchmarks/load/seed.py: 8 players, round 1 played, round 2 published):
(a) a burst of 50 concurrent anonymous GETs of a public JSON answer reaches gunicorn at most once per
interval; (b) a logged-in request (session cookie) is never answered from the cache and sees the organiser's
page; (c) an answer that sets a cookie (the login page's CSRF cookie) is never stored, while a public page (no
cookie for anonymous readers) is, per language; (d) a result entered and then corrected through the API is
visible to anonymous readers within the app's and nginx's intervals; (e) both gunicorn servers receive traffic; (f) static files come from nginx with long cache
headers and gzip, and pages are gzipped.

Upstream hits are counted in each gunicorn's access log. Skipped without nginx (a failure under CI=true)
or without DATABASE_URL/REDIS_URL (tests/conftest.py).
"""
from __future__ import annotations

import gzip
import json
import math
import os
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.conftest import _database_url
from tests.nginx_front import Nginx, fetch, free_port, nginx_binary, wait_port
from tests.processes import stop_process_group

# django_db: so that pytest-django creates the test database; the data is seeded and committed once for the
# module by the `stack` fixture (the servers must see it) and the tables are emptied after the last test
pytestmark = [pytest.mark.services, pytest.mark.django_db]

INTERVAL = 2  # seconds: MANGALA_CACHE_SECONDS and the app's PUBLIC_PAGE_PROXY_SECONDS (X-Accel-Expires) here
LIVE_RECOMPUTE = 1  # seconds: the app rebuilds the pages of the round being played at most this often
# A correction reaches anonymous readers after the app's interval, then nginx's (whole seconds: at most
# INTERVAL + 1), plus a request's time
VISIBLE_WITHIN = LIVE_RECOMPUTE + INTERVAL + 1 + 0.5
REPO_ROOT = Path(__file__).resolve().parent.parent.parent
VENV_BIN = Path(sys.executable).parent


class Gunicorn:
    """``gunicorn federation.wsgi`` on a loopback port with an access log of "METHOD PATH?QUERY STATUS" lines."""

    def __init__(self, name: str, env: dict, folder: Path):
        self.name, self.port = name, free_port()
        self.access_log = folder / f"{name}-access.log"
        self.log = folder / f"{name}.log"
        gunicorn = VENV_BIN / "gunicorn"
        cmd = [str(gunicorn) if gunicorn.exists() else "gunicorn", "federation.wsgi:application",
               "--bind", f"127.0.0.1:{self.port}", "--workers", "1", "--threads", "4", "--timeout", "60",
               "--forwarded-allow-ips", "127.0.0.1", "--worker-tmp-dir", "/dev/shm",
               "--access-logfile", str(self.access_log), "--access-logformat", "%(m)s %(U)s?%(q)s %(s)s",
               "--error-logfile", str(self.log)]
        with open(self.log, "ab") as out:
            self.proc = subprocess.Popen(cmd, cwd=REPO_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                         start_new_session=True)

    def lines(self) -> list[str]:
        return self.access_log.read_text().splitlines() if self.access_log.exists() else []

    def hits(self, method: str, path: str) -> int:
        return sum(1 for line in self.lines() if line.startswith(f"{method} {path}?") or line.startswith(f"{method} {path} "))

    def stop(self) -> None:
        stop_process_group(self.proc)


@pytest.fixture(scope="module")
def stack(django_db_setup, django_db_blocker, tmp_path_factory):
    """Seed the event (committed: the servers see it), start two gunicorn servers and nginx; yields a dict
    with ``nginx``, ``servers``, ``slug``, ``round``, ``token`` (organiser's API token), ``session`` (the
    organiser's session cookie), ``static_root``. Everything is stopped and the tables emptied afterwards."""
    nginx_binary()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection, connections

    if connection.vendor != "postgresql":
        pytest.skip("needs the PostgreSQL test database (DATABASE_URL=postgres://...)")
    from benchmarks.load import seed as seeding

    folder = tmp_path_factory.mktemp("front")
    run = uuid.uuid4().hex[:10]
    env = dict(os.environ)
    env.update({
        "DJANGO_SETTINGS_MODULE": "tests.services.front_settings",  # production, static files in `folder`
        # this process's key: the organiser's session below is signed with it
        "DJANGO_SECRET_KEY": settings.SECRET_KEY,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "false",  # plain http on loopback
        "DJANGO_SECURE_COOKIES": "false",
        "DJANGO_SECURE_HSTS_SECONDS": "0",
        "DJANGO_BEHIND_PROXY": "true",
        "FORWARDED_ALLOW_IPS": "127.0.0.1",
        "PUBLIC_PAGE_PROXY_SECONDS": str(INTERVAL),
        "LIVE_RECOMPUTE_SECONDS": str(LIVE_RECOMPUTE),
        "API_THROTTLE_ANON": "100000/min",
        "API_THROTTLE_USER": "100000/min",
        "DATABASE_URL": _database_url(connection.settings_dict),
        "REDIS_URL": os.environ["REDIS_URL"],
        "CACHE_KEY_PREFIX": f"nginx-front-{run}",
        "CELERY_QUEUE_PREFIX": f"nginx-front-{run}-",  # jobs queued by a result stay apart from any worker
        "DJANGO_LOG_FORMAT": "text",
        "BENCH_STATIC_ROOT": str(folder / "static"),
        "BENCH_VAR_DIR": str(folder),
        "PYTHONPATH": str(REPO_ROOT),
        "PYTHONUNBUFFERED": "1",
    })
    collect = subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=REPO_ROOT,
                             env=env, capture_output=True, text=True)
    assert collect.returncode == 0, collect.stderr[-3000:]

    with django_db_blocker.unblock():
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
        from django.contrib.sessions.backends.db import SessionStore

        config = seeding.seed(players=8, referees=1, played=1, rounds_total=3, say=lambda *a: None)
        organiser = get_user_model().objects.get(username="bench-organiser")
        session = SessionStore()
        session[SESSION_KEY] = str(organiser.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = organiser.get_session_auth_hash()
        session.create()
        connections.close_all()

    servers = [Gunicorn(f"web{i}", env, folder) for i in (1, 2)]
    nginx = Nginx(folder / "nginx", [f"127.0.0.1:{g.port}" for g in servers], static_root=Path(env["BENCH_STATIC_ROOT"]),
                  cache_seconds=INTERVAL, session_cookie=settings.SESSION_COOKIE_NAME)
    try:
        for g in servers:
            wait_port(g.port, 60, g.proc, g.log)
        nginx.start()
        yield {"nginx": nginx, "servers": servers, "slug": config["slug"], "round": config["round"],
               "token": config["organiser_token"], "session": f"{settings.SESSION_COOKIE_NAME}={session.session_key}",
               "static_root": Path(env["BENCH_STATIC_ROOT"])}
    finally:
        nginx.stop()
        for g in servers:
            g.stop()
        with django_db_blocker.unblock():
            connections.close_all()
            call_command("flush", interactive=False, verbosity=0)  # as a transactional test leaves it
        _forget(env["REDIS_URL"], run)


def _forget(redis_url: str, run: str) -> None:
    """Drop this run's cache entries and queued jobs from Redis."""
    import redis

    client = redis.Redis.from_url(redis_url)
    for pattern in (f"nginx-front-{run}*", f"*nginx-front-{run}*"):
        keys = list(client.scan_iter(match=pattern, count=1000))
        if keys:
            client.delete(*keys)
    client.close()


def upstream_hits(stack, method: str, path: str) -> int:
    return sum(g.hits(method, path) for g in stack["servers"])


def wait_logged(stack, method: str, path: str, count: int, timeout: float = 5) -> int:
    """Upstream hits of ``path`` once they reach ``count`` (gunicorn writes its log line after answering)."""
    deadline = time.monotonic() + timeout
    while (n := upstream_hits(stack, method, path)) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    return n


def board(answer, number: int) -> dict:
    """Board ``number`` of a round's JSON (``/api/tournaments/<slug>/rounds/<n>/``)."""
    return next(b for b in json.loads(answer.text)["boards"] if b["board"] == number)


def test_a_burst_of_anonymous_readers_reaches_gunicorn_once_per_interval(stack):
    nginx = stack["nginx"]
    path = f"/api/tournaments/{stack['slug']}/rounds/{stack['round']}/"
    t0 = time.monotonic()
    with ThreadPoolExecutor(max_workers=50) as pool:
        answers = list(pool.map(lambda _: fetch(nginx.url, path, headers={"Accept-Language": "tr"}), range(50)))
    took = time.monotonic() - t0
    assert {a.status for a in answers} == {200}, answers[:3]
    assert len({a.body for a in answers}) == 1
    allowed = 1 + math.floor(took / INTERVAL)
    assert wait_logged(stack, "GET", path, allowed, timeout=1) <= allowed
    assert upstream_hits(stack, "GET", path) >= 1
    assert sorted(a.cache for a in answers).count("MISS") <= allowed
    # and the next readers within the interval are answered by nginx alone
    before = upstream_hits(stack, "GET", path)
    assert {fetch(nginx.url, path, headers={"Accept-Language": "tr"}).cache for _ in range(10)} <= {"HIT", "UPDATING",
                                                                                                   "EXPIRED", "STALE"}
    assert upstream_hits(stack, "GET", path) - before <= 1


def test_a_logged_in_request_is_never_answered_from_the_cache(stack):
    nginx = stack["nginx"]
    path = f"/t/{stack['slug']}/"
    anonymous = fetch(nginx.url, path, headers={"Accept-Language": "tr"})
    assert anonymous.status == 200 and "bench-organiser" not in anonymous.text
    for _ in range(3):
        mine = fetch(nginx.url, path, headers={"Cookie": f"csrftoken=x; {stack['session']}", "Accept-Language": "tr"})
        assert mine.status == 200 and mine.cache == "BYPASS"
        assert "bench-organiser" in mine.text  # "Log out (bench-organiser)": the organiser's own page
    # the API with a token: bypassed too
    api = fetch(nginx.url, f"/api/tournaments/{stack['slug']}/", headers={"Authorization": f"Token {stack['token']}"})
    assert api.status == 200 and api.cache == "BYPASS"
    # nothing of the organiser's page reached anonymous readers
    assert "bench-organiser" not in fetch(nginx.url, path, headers={"Accept-Language": "tr"}).text


def test_an_answer_that_sets_a_cookie_is_never_stored_and_public_pages_are(stack):
    nginx = stack["nginx"]
    # the login page sets the CSRF cookie (its form needs the token): never stored, every request reaches gunicorn
    login = [fetch(nginx.url, "/accounts/login/") for _ in range(4)]
    assert {a.status for a in login} == {200}
    assert all("csrftoken=" in a.headers.get("set-cookie", "") for a in login)
    assert all(a.cache != "HIT" for a in login)
    assert wait_logged(stack, "GET", "/accounts/login/", 4) == 4
    # a public page sets no cookie for an anonymous reader (the language switch needs no CSRF token), so nginx
    # keeps it: the second reader is answered from the copy, the organiser's session never sees it
    path = f"/t/{stack['slug']}/standings/"
    first = fetch(nginx.url, path, headers={"Accept-Language": "tr"})
    assert first.status == 200 and "set-cookie" not in first.headers, first.headers
    assert fetch(nginx.url, path, headers={"Accept-Language": "tr"}).cache == "HIT"
    # ... per language: the English reader gets the English page, never the Turkish copy
    english = fetch(nginx.url, path, headers={"Accept-Language": "en"})
    assert english.cache in ("MISS", "HIT") and '<html lang="en"' in english.text and '<html lang="tr"' in first.text


def test_a_correction_is_visible_to_anonymous_readers_within_the_interval(stack):
    import random

    from benchmarks.load.results import match_sets

    nginx = stack["nginx"]
    slug, number = stack["slug"], stack["round"]
    path = f"/api/tournaments/{slug}/rounds/{number}/"
    result_path = f"/api/tournaments/{slug}/rounds/{number}/boards/1/result/"
    auth = {"Authorization": f"Token {stack['token']}", "Content-Type": "application/json"}
    rng = random.Random(7)
    fetch(nginx.url, path)
    cached = fetch(nginx.url, path)
    assert cached.cache == "HIT"
    shown = board(cached, 1)
    assert shown["sets"] == []  # round 2 waits for its results
    version, sent_sets = None, None
    for step in ("entered", "corrected"):
        while True:
            sets = [{k: x[k] for k in ("white_store", "black_store", "termination")} for x in match_sets(rng, 1500, 1500, 3)]
            if sets != sent_sets:
                break
        body = {"sets": sets} if version is None else {"sets": sets, "version": version}
        sent = fetch(nginx.url, result_path, method="POST", body=json.dumps(body).encode(), headers=auth)
        assert sent.status in (200, 201), sent.text
        assert sent.cache in ("", "BYPASS")
        new_version = json.loads(sent.text)["version"]
        assert version is None or new_version > version
        version, sent_sets = new_version, sets
        t_write = time.monotonic()
        while (shown := board(fetch(nginx.url, path), 1))["version"] != version:
            assert time.monotonic() - t_write <= VISIBLE_WITHIN, f"{step}: anonymous readers still see {shown}"
            time.sleep(0.1)
        assert len(shown["sets"]) == len(sets)
        assert time.monotonic() - t_write <= VISIBLE_WITHIN


def test_both_gunicorn_servers_receive_traffic(stack):
    nginx = stack["nginx"]
    before = [len(g.lines()) for g in stack["servers"]]
    for _ in range(6):  # bypassed: every one reaches a server, in turn
        assert fetch(nginx.url, f"/api/tournaments/{stack['slug']}/",
                     headers={"Authorization": f"Token {stack['token']}"}).status == 200
    deadline = time.monotonic() + 5
    while sum(len(g.lines()) for g in stack["servers"]) - sum(before) < 6 and time.monotonic() < deadline:
        time.sleep(0.05)
    got = [len(g.lines()) - b for g, b in zip(stack["servers"], before)]
    assert sum(got) == 6 and min(got) >= 2, got


def test_static_files_and_gzip_come_from_nginx(stack):
    nginx = stack["nginx"]
    manifest = json.loads((stack["static_root"] / "staticfiles.json").read_text())["paths"]
    hashed = manifest["css/site.css"]
    assert hashed != "css/site.css"
    # WhiteNoise's storage writes a .gz beside each file; nginx sends it as it is (gzip_static)
    source = (stack["static_root"] / hashed).read_bytes()
    ready = gzip.compress(source, compresslevel=1, mtime=0)
    (stack["static_root"] / f"{hashed}.gz").write_bytes(ready)
    css = fetch(nginx.url, f"/static/{hashed}", headers={"Accept-Encoding": "gzip"})
    assert css.status == 200 and css.headers["content-encoding"] == "gzip"
    assert css.body == ready  # the file from disk, not compressed again
    assert css.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert css.text.encode() == source
    js = fetch(nginx.url, f"/static/{manifest['js/live.js']}", headers={"Accept-Encoding": "gzip"})
    assert js.status == 200 and js.headers["content-encoding"] == "gzip"  # compressed on the fly
    plain = fetch(nginx.url, "/static/css/site.css")
    assert plain.status == 200 and plain.headers["cache-control"] == "public, max-age=3600"
    assert upstream_hits(stack, "GET", f"/static/{hashed}") == 0  # never reached gunicorn
    page = fetch(nginx.url, f"/t/{stack['slug']}/standings/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip" and "</html>" in page.text
