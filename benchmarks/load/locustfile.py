"""Locust users of the championship-day load test (run by ``benchmarks/load_test.py``, which writes the
configuration this file reads from ``BENCH_LOAD_CONFIG`` and picks the phase with ``BENCH_LOAD_PHASE``).

Two kinds of users:

* :class:`Referee` — a referee's phone or result script: takes the next board of the paired round from a
  shared queue (Redis list: each board once, whoever takes it), posts its three-set result to
  ``POST /api/tournaments/<slug>/rounds/<n>/boards/<b>/result/`` with ``Authorization: Token <key>``; now
  and then (5 %) corrects one of its boards a little later with the version it was given (``If-Match`` or
  ``"version"``), and 2 % of submissions are sent twice (a double tap: the API must answer the same).
  Phase ``saturation``: no pause, every request a correction of a board with its current version.
* :class:`Viewer` — a parent's phone in the hall: arrives on the live round page, whose script polls
  ``live.json`` every 10 s with ``If-None-Match`` (304 while nothing changed), and every 5-15 s opens the
  standings page or the live page again. Phase ``saturation``: no pause, one of the three at random.

Every request is written to ``<out>/<phase>-requests-<pid>.tsv`` (name, ms, status, start time) for exact
percentiles and status counts; every result about to be sent to ``attempts-<phase>-<pid>.jsonl`` (board,
sets) and its response to ``answers-<phase>-<pid>.jsonl`` (status, version) for the checks after the run.
Locust's own CSV files are written too (``--csv``).
"""
from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path

import redis
from locust import FastHttpUser, events, task

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from benchmarks.load.results import match_sets, other_result  # noqa: E402

CONFIG = json.loads(Path(os.environ["BENCH_LOAD_CONFIG"]).read_text())
PHASE = os.environ.get("BENCH_LOAD_PHASE", "hall")
SETTINGS = CONFIG["phases"][PHASE]
SLUG = CONFIG["slug"]
ROUND = CONFIG["round"]
KEY = CONFIG["redis_prefix"]
OUT = Path(CONFIG["out_dir"])
BOARDS = {b: (w, k) for b, w, k in CONFIG["boards"]}
RESULT_URL = f"/api/tournaments/{SLUG}/rounds/{ROUND}/boards/{{board}}/result/"

_redis = None
_files: dict[str, object] = {}


def store() -> redis.Redis:
    global _redis
    if _redis is None:
        _redis = redis.Redis.from_url(CONFIG["redis_url"])
    return _redis


def _file(kind: str):
    """This process's log file of ``kind`` (opened after a fork, one per process)."""
    key = f"{kind}-{os.getpid()}"
    f = _files.get(key)
    if f is None:
        name = f"{PHASE}-requests-{os.getpid()}.tsv" if kind == "requests" else f"{kind}-{PHASE}-{os.getpid()}.jsonl"
        f = _files[key] = open(OUT / name, "a", buffering=1 << 16)
    return f


@events.request.add_listener
def _log_request(request_type, name, response_time, response_length, response=None, exception=None,
                 start_time=None, **kwargs):
    status = getattr(response, "status_code", 0) or 0
    _file("requests").write(f"{name}\t{response_time:.2f}\t{status}\t{start_time or time.time():.3f}\t"
                            f"{1 if exception else 0}\n")


@events.quitting.add_listener
def _close_files(**kwargs):
    for f in _files.values():
        f.flush()
        f.close()
    _files.clear()


@events.test_stop.add_listener
def _flush_files(**kwargs):
    for f in _files.values():
        f.flush()


def _record(log: str, **row) -> None:
    """A line of this process's ``attempts`` (a result about to be sent) or ``answers`` (its response:
    status, and the version of an accepted one) log; an attempt without an answer was cut off when the
    phase ended (the server may still have stored it)."""
    f = _file(log)
    f.write(json.dumps({**row, "phase": PHASE, "t": time.time()}) + "\n")
    f.flush()


class Referee(FastHttpUser):
    """A referee entering the results of the round (see the module docstring)."""

    fixed_count = SETTINGS["referees"]
    network_timeout = 60.0
    connection_timeout = 60.0

    def wait_time(self):
        if PHASE == "saturation":
            return 0
        pace = SETTINGS["referee_pace"]
        return random.uniform(0.5 * pace, 1.5 * pace)

    def on_start(self):
        index = store().incr(f"{KEY}:referee-index") - 1
        tokens = CONFIG["referee_tokens"]
        self.token = tokens[index % len(tokens)]
        self.rng = random.Random(f"{PHASE}-{index}-{os.getpid()}")
        self.later: list[tuple[float, int, list[dict]]] = []  # corrections due: (when, board, sets sent)

    def _post(self, board: int, sets: list[dict], *, version: int | None, name: str, if_match: bool = False):
        headers = {"Authorization": f"Token {self.token}"}
        body = {"sets": sets}
        if version is not None:
            if if_match:
                headers["If-Match"] = f'"{version}"'
            else:
                body["version"] = version
        attempt = f"{os.getpid()}-{id(self)}-{time.monotonic_ns()}"
        _record("attempts", id=attempt, board=board, sets=sets, kind=name, version_sent=version)
        with self.client.post(RESULT_URL.format(board=board), json=body, headers=headers, name=name,
                              catch_response=True) as resp:
            if 200 <= resp.status_code < 300:
                try:
                    new_version = int(resp.json()["version"])
                except Exception as exc:  # noqa: BLE001 - any unreadable answer is a failure
                    _record("answers", id=attempt, board=board, status=resp.status_code, version=None)
                    resp.failure(f"2xx without a version: {exc}")
                    return None
                _record("answers", id=attempt, board=board, status=resp.status_code, version=new_version)
                store().hset(f"{KEY}:version", board, new_version)
                resp.success()
                return new_version
            _record("answers", id=attempt, board=board, status=resp.status_code, version=None)
            text = (resp.text or "")[:300] if resp.text else ""
            resp.failure(f"HTTP {resp.status_code}: {text}")
            return None

    @task
    def work(self):
        if PHASE == "saturation":
            return self._saturate()
        now = time.monotonic()
        if self.later and self.later[0][0] <= now:
            _when, board, sets = self.later.pop(0)
            version = int(store().hget(f"{KEY}:version", board) or 0) or None
            new = other_result(self.rng, sets, CONFIG["sets_per_match"])
            self._post(board, new, version=version, name="POST result (correction)", if_match=self.rng.random() < 0.5)
            return
        raw = store().lpop(f"{KEY}:boards")
        if raw is None:
            return  # every board is taken: wait for the corrections still due
        board = int(raw)
        white, black = BOARDS[board]
        sets = match_sets(self.rng, white, black, CONFIG["sets_per_match"])
        version = self._post(board, sets, version=None, name="POST result")
        if version is None:
            return
        if self.rng.random() < 0.02:  # a double tap: the same result again, answered with the same version
            self._post(board, sets, version=None, name="POST result (same again)")
        if self.rng.random() < 0.05:
            self.later.append((now + self.rng.uniform(3, 15), board, sets))
            self.later.sort()

    def _saturate(self):
        raw = store().lpop(f"{KEY}:cycle")
        if raw is None:
            time.sleep(0.05)
            return
        board = int(raw)
        try:
            version = int(store().hget(f"{KEY}:version", board) or 1)
            sets = match_sets(self.rng, *BOARDS[board], CONFIG["sets_per_match"])
            self._post(board, sets, version=version, name="POST result (correction)", if_match=True)
        finally:
            store().rpush(f"{KEY}:cycle", board)


class Viewer(FastHttpUser):
    """A spectator's phone (see the module docstring)."""

    weight = 1
    network_timeout = 60.0
    connection_timeout = 60.0

    def on_start(self):
        self.rng = random.Random()
        self.etag = None
        now = time.monotonic()
        self.next_poll = now + self.rng.uniform(0, SETTINGS["poll_seconds"])
        self.next_page = now + self.rng.uniform(0, SETTINGS["page_max"])
        if PHASE != "saturation":
            self.client.get(f"/t/{SLUG}/live/", name="GET live page")

    def wait_time(self):
        if PHASE == "saturation":
            return 0
        return max(0.05, min(self.next_poll, self.next_page) - time.monotonic())

    def _poll(self, *, conditional: bool):
        headers = {"If-None-Match": self.etag} if conditional and self.etag else {}
        with self.client.get(f"/t/{SLUG}/live.json", headers=headers, name="GET live.json",
                             catch_response=True) as resp:
            if resp.status_code == 304:
                resp.success()
            elif resp.status_code == 200:
                self.etag = resp.headers.get("ETag") or self.etag
                resp.success()
            else:
                resp.failure(f"HTTP {resp.status_code}")

    def _page(self):
        if self.rng.random() < 0.6:
            self.client.get(f"/t/{SLUG}/standings/", name="GET standings page")
        else:
            self.client.get(f"/t/{SLUG}/live/", name="GET live page")

    @task
    def tick(self):
        if PHASE == "saturation":
            choice = self.rng.random()
            if choice < 1 / 3:
                self.client.get(f"/t/{SLUG}/standings/", name="GET standings page")
            elif choice < 2 / 3:
                self.client.get(f"/t/{SLUG}/live/", name="GET live page")
            else:
                self._poll(conditional=False)
            return
        now = time.monotonic()
        if now >= self.next_poll:
            self._poll(conditional=True)
            self.next_poll = now + SETTINGS["poll_seconds"]
        if now >= self.next_page:
            self._page()
            self.next_page = now + self.rng.uniform(SETTINGS["page_min"], SETTINGS["page_max"])
