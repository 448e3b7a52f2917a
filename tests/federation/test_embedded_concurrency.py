"""The embedded mode (`make run`: SQLite file, runserver) takes a hall of referees entering results at
once: 10 writers on 10 boards plus 2 referees fighting over one board — 0 responses 5xx.

Runs a real ``manage.py runserver`` on a temporary SQLite file (WAL, BEGIN IMMEDIATE, busy timeout:
``federation/settings/base.py``), logs referees in through the login page (session + CSRF, as the
browser does) and posts results through the API concurrently. Bounded: each writer sends a fixed number
of requests, each with a timeout.
"""
from __future__ import annotations

import http.cookiejar
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SETUP = r"""
from django.contrib.auth.models import Group, User
from tests.factories import PlayerFactory
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.rounds import services as round_services
org = User.objects.create_user("org", password="org-pass-123")
org.groups.add(Group.objects.get_or_create(name="organiser")[0])
for i in range(12):
    u = User.objects.create_user(f"ref{i}", password="ref-pass-123")
    u.groups.add(Group.objects.get_or_create(name="referee")[0])
t = services.tournament_create(name="Salon", rounds_total=3, created_by=org, slug="salon")
for i in range(20):
    entry_services.entry_add(tournament=t, player=PlayerFactory(rating=2000 - i, federation_id=f"S-{i}"))
rnd = round_services.round_pair(tournament=t, user=org, coin_seed="salon")
round_services.round_publish(round=rnd, user=org)
print("boards", rnd.matches.count())
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(db: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    env.update(DJANGO_SETTINGS_MODULE="federation.settings.dev", DATABASE_URL=f"sqlite:///{db}", DJANGO_DEBUG="false",
               PYTHONPATH=str(REPO))
    return env


class Referee:
    """A browser-like client: logs in through the login page, then posts JSON with the CSRF token."""

    def __init__(self, base: str, username: str, password: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        page = self.opener.open(f"{base}/accounts/login/", timeout=30).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        data = urllib.parse.urlencode({"username": username, "password": password, "csrfmiddlewaretoken": token})
        self.opener.open(urllib.request.Request(f"{base}/accounts/login/", data=data.encode(),
                                                headers={"Referer": f"{base}/accounts/login/"}), timeout=30)

    def _csrf(self) -> str:
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        req = urllib.request.Request(
            f"{self.base}{path}", method=method, data=json.dumps(body).encode() if body is not None else None,
            headers={"Content-Type": "application/json", "X-CSRFToken": self._csrf(), "Accept-Language": "en"},
        )
        try:
            with self.opener.open(req, timeout=60) as r:
                return r.status, json.loads(r.read() or b"{}")
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                return e.code, json.loads(raw or b"{}")
            except ValueError:
                return e.code, {"raw": raw[:200].decode(errors="replace")}


@pytest.fixture(scope="module")
def embedded_server(tmp_path_factory):
    db = tmp_path_factory.mktemp("embedded") / "db.sqlite3"
    env = _env(db)
    py = sys.executable
    subprocess.run([py, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=REPO, env=env, check=True, timeout=300)
    out = subprocess.run([py, "manage.py", "shell", "-c", SETUP], cwd=REPO, env=env, check=True, timeout=300,
                         capture_output=True, text=True)
    assert "boards 10" in out.stdout, out.stdout + out.stderr
    port = _free_port()
    log = open(db.with_suffix(".log"), "w")
    proc = subprocess.Popen([py, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"], cwd=REPO, env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{base}/", timeout=2)
            break
        except (urllib.error.URLError, ConnectionError, OSError):
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("the embedded server did not start")
    yield base, db
    proc.terminate()
    proc.wait(timeout=20)
    log.close()


def test_ten_referees_and_a_fight_over_one_board_give_no_5xx(embedded_server):
    base, db = embedded_server
    referees = [Referee(base, f"ref{i}", "ref-pass-123") for i in range(12)]
    statuses: list[int] = []
    lock = threading.Lock()
    rounds_per_writer = 12

    def write(ref: Referee, board: int, seed: int):
        for k in range(rounds_per_writer):
            code, body = ref.request("GET", "/api/tournaments/salon/rounds/1/")
            version = next(b["version"] for b in body.get("boards", []) if b["board"] == board) if code == 200 else None
            white, black = (30, 18) if (seed + k) % 2 else (18, 30)
            sets = [{"white_store": white, "black_store": black}, {"white_store": white, "black_store": black}]
            code2, _body = ref.request("POST", f"/api/tournaments/salon/rounds/1/boards/{board}/result/",
                                       {"sets": sets, "version": version})
            with lock:
                statuses.extend([code, code2])

    threads = [threading.Thread(target=write, args=(referees[i], i + 1, i)) for i in range(10)]
    threads += [threading.Thread(target=write, args=(referees[10 + j], 1, 100 + j)) for j in range(2)]  # same board
    started = time.monotonic()
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=240)
    elapsed = time.monotonic() - started
    assert not any(th.is_alive() for th in threads), "a writer hung"
    assert len(statuses) == 12 * rounds_per_writer * 2
    server_errors = [s for s in statuses if s >= 500]
    assert server_errors == [], f"{len(server_errors)} of {len(statuses)} answers were 5xx"
    assert set(statuses) <= {200, 409}, sorted(set(statuses))  # stale versions lose with 409, nothing else
    assert statuses.count(200) >= 10 * rounds_per_writer  # every uncontested write went through
    print(f"{len(statuses)} requests, {statuses.count(409)} conflicts, 0 5xx, {elapsed:.1f} s")
