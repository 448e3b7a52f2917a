"""The chaos run's own Redis stopped for a moment (issue 23, "A chaos run"; PostgreSQL + Redis + worker).

Runs only when ``REDIS_URL`` points at the chaos run's own Redis (``CHAOS_REDIS_PORT``, 6390 in CI and
``.ci/run``): the test shuts that server down (``SHUTDOWN NOSAVE``) and starts it again, which it must never
do to a Redis others use. While it is down (about :data:`OUTAGE` s): result entries (must be 200: a result
never waits for the queue), public pages (200) and the round's pairing list PDF (hall paper; the
documented 503 "try again" within 5 s, or an answer of the page cache).
After it is back: the other results are entered (200), the PDF is built by the worker within
:data:`PDF_PROMISE` s, every result is stored and the invariants hold.
"""
from __future__ import annotations

import os
import subprocess
import time
from urllib.parse import urlparse

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.chaos.conftest import SUMMARY
from tests.factories import PlayerFactory, organiser
from tournaments import invariants
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.rounds import services as round_services
from tournaments.models import Match, Tournament

pytestmark = [pytest.mark.chaos, pytest.mark.services, pytest.mark.django_db(transaction=True)]

OUTAGE = 3.0  # seconds the Redis is down
PDF_PROMISE = 60.0  # seconds from Redis's return to the built PDF


def _own_redis_port() -> int:
    url = os.environ.get("REDIS_URL", "")
    own = int(os.environ.get("CHAOS_REDIS_PORT", "0") or 0)
    port = urlparse(url).port or 6379
    if not url or not own or port != own:
        pytest.skip("REDIS_URL is not the chaos run's own Redis (CHAOS_REDIS_PORT): it is never stopped")
    return port


def _stop(port: int) -> None:
    subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"], capture_output=True, timeout=10)
    deadline = time.monotonic() + 10
    while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).returncode == 0:
        assert time.monotonic() < deadline, "the chaos Redis did not stop"
        time.sleep(0.1)


def _start(port: int) -> None:
    subprocess.run(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                    "--pidfile", f"/tmp/chaos-redis-{port}.pid", "--daemonize", "yes"],
                   check=True, capture_output=True, timeout=10)
    deadline = time.monotonic() + 10
    while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True).stdout.strip() != b"PONG":
        assert time.monotonic() < deadline, "the chaos Redis did not come back"
        time.sleep(0.1)


def _sets():
    return [{"white_store": 30, "black_store": 18, "termination": "completed", "moves": ""},
            {"white_store": 26, "black_store": 22, "termination": "completed", "moves": ""}]


def test_redis_stopped_for_a_moment(celery_worker):
    port = _own_redis_port()
    org = organiser(username="kaos-redis")
    t = services.tournament_create(name="Kaos Redis", rounds_total=3, created_by=org)
    for i in range(8):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=1900 - 10 * i), user=org)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="kaos-redis")
    round_services.round_publish(round=rnd, user=org)
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en", HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=org).key}")
    api.raise_request_exception = False
    public = Client(HTTP_ACCEPT_LANGUAGE="en")
    public.raise_request_exception = False
    seen: list[tuple[str, int, float]] = []

    def call(what, fn):
        t0 = time.perf_counter()
        r = fn()
        seen.append((what, r.status_code, time.perf_counter() - t0))
        return r

    def result(board):
        return call(f"result {board}", lambda: api.post(
            f"/api/tournaments/{t.slug}/rounds/1/boards/{board}/result/", {"sets": _sets(), "forfeit": ""},
            format="json"))

    _stop(port)
    down_at = time.monotonic()
    try:
        for board in (1, 2):
            result(board)
        call("page", lambda: public.get(f"/t/{t.slug}/"))
        call("pdf (down)", lambda: public.get(f"/t/{t.slug}/round/1/pairings.pdf"))
        time.sleep(max(0.0, OUTAGE - (time.monotonic() - down_at)))
    finally:
        _start(port)
    back_at = time.monotonic()
    for board in (3, 4):
        result(board)
    call("page", lambda: public.get(f"/t/{t.slug}/"))
    pdf_status = None
    while time.monotonic() - back_at < PDF_PROMISE:
        r = call("pdf (back)", lambda: public.get(f"/t/{t.slug}/round/1/pairings.pdf"))
        pdf_status = r.status_code
        if r.status_code == 200 and r.get("Content-Type", "").startswith("application/pdf"):
            break
        time.sleep(1.0)
    pdf_after = time.monotonic() - back_at

    line = (f"chaos redis-down: {len(seen)} requests, statuses "
            f"{sorted({(w.split(' ')[0] + (' (down)' if 'down' in w else ''), s) for w, s, _ in seen})}, "
            f"slowest {max(x[2] for x in seen) * 1000:.0f} ms, PDF {pdf_status} {pdf_after:.1f} s after Redis returned")
    SUMMARY.append(line)
    problems = [f"{w}: {s}" for w, s, d in seen
                if s >= 500 and not (w == "pdf (down)" and s == 503 and d < 5.0)]
    problems += [f"{w}: {s}" for w, s, _ in seen if w.startswith("result") and s != 200]
    if pdf_status != 200:
        problems.append(f"the PDF not built within {PDF_PROMISE:.0f} s of Redis's return (last {pdf_status})")
    stored = Match.objects.filter(round=rnd, white_points__isnull=False).count()
    if stored != 4:
        problems.append(f"{stored} of 4 results stored")
    problems += [str(v.as_dict()) for v in invariants.check_tournament(Tournament.objects.get(pk=t.pk))]
    assert celery_worker is None or celery_worker.poll() is None, "the worker died with its Redis"
    assert not problems, line + "\n" + "\n".join(problems)
