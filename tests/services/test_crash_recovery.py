"""Jobs survive a worker killed with SIGKILL (PostgreSQL + Redis + real Celery workers).

One test: a crosstable PDF, a rating run and a record import are sent to a worker of their own
(prefork, 3 processes, its own queue), which is killed with SIGKILL — every process of it — while all
three are half-way; a new worker is started and each job is seen to finish: the PDF file is there, the
tournament's rating rows are there, the import is ``done`` with every record stored, resumed at the
first record not yet done.

The worker runs with the test settings' slow-down knobs (federation/jobs.py: each PDF or rating job
waits ``TEST_TASK_DELAY`` seconds first, the import ``TEST_RECORD_DELAY`` after each record), so that
"half-way" lasts long enough, and with Redis transport options of its own: a short visibility timeout
(a message taken by a killed worker is delivered again after :data:`VISIBILITY` seconds instead of 30
minutes), a scan for such messages every second, and its own keys for unacknowledged messages (so it
never touches the messages of any other worker on the same Redis). Bounded: about 30 s, every wait
has a deadline.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from celery.result import AsyncResult
from django.db import connection

import ratings.tasks
from games.engine.notation import GameRecord, write
from games.models import RecordImport
from ratings.models import RatingChange, RatingEvent
from ratings.tasks import rate_tournament_task
from tests.conftest import REPO_ROOT, _database_url, _forget_queue
from tests.processes import stop_process_group
from tests.factories import EntryFactory, PlayerFactory, TournamentFactory, organiser
from tests.tournaments.records.test_records import sample_set
from tournaments import services as ts
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.paper.crosstable import crosstable_pdf_path
from tournaments.models import SetResult
from tournaments.records.services import record_import_create
from tournaments.records.tasks import import_records_task
from tournaments.results.services import SetInput
from tournaments.tasks import crosstable_pdf_task

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TASK_DELAY = 5.0  # seconds a PDF or rating job waits before working (each run)
RECORD_DELAY = 0.2  # seconds the import waits after each record
VISIBILITY = 10  # seconds before the messages of the killed worker are delivered again (> a job's run)
BOARDS = 8  # the import: 8 games of 2 sets = 16 records, about 3.5 s


class Worker:
    """``celery -A federation worker`` on ``queue`` in a process group of its own (for SIGKILL)."""

    def __init__(self, queue: str, log_path: Path) -> None:
        from federation.celery import app

        self.app, self.queue, self.log_path = app, queue, log_path
        self.proc: subprocess.Popen | None = None
        self.env = dict(os.environ)
        self.env.update(
            DATABASE_URL=_database_url(connection.settings_dict),
            DJANGO_SETTINGS_MODULE="federation.settings.test",
            PYTHONUNBUFFERED="1",
            TEST_TASK_DELAY=str(TASK_DELAY),
            TEST_RECORD_DELAY=str(RECORD_DELAY),
            TEST_BROKER_TRANSPORT_OPTIONS=json.dumps({
                "visibility_timeout": VISIBILITY,
                "unacked_restore_interval": 1,
                "unacked_restore_throttle": 1,
                **{f"unacked{k}_key": f"{queue}.unacked{k}" for k in ("", "_index", "_mutex")},
            }),
        )

    def start(self) -> None:
        """Start the worker process (:meth:`wait_ready` waits until it answers)."""
        celery = Path(sys.executable).with_name("celery")
        cmd = [
            str(celery) if celery.exists() else "celery", "-A", "federation", "worker", "--pool=prefork",
            "--concurrency=3", "-l", "info", "-Q", self.queue, "-n", f"{self.queue}@%h",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ]
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(cmd, cwd=REPO_ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        log.close()

    def wait_ready(self, timeout: float = 40.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                pytest.fail(f"crash-test worker exited with {self.proc.returncode}:\n{self.log()}", pytrace=False)
            replies = self.app.control.ping(timeout=0.5)
            if any(name.startswith(f"{self.queue}@") for reply in replies for name in reply):
                return
            if time.monotonic() > deadline:
                pytest.fail(f"crash-test worker did not answer in {timeout:.0f} s:\n{self.log()}", pytrace=False)

    def kill(self) -> None:
        """SIGKILL to the worker and its pool processes: nothing runs after it (no shutdown, no ack)."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        stop_process_group(self.proc)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-6000:]


@pytest.fixture
def crash_worker(celery_worker, tmp_path):
    """A :class:`Worker` (not started) on a queue of its own; stopped and its Redis keys removed after."""
    queue = f"crash-{uuid.uuid4().hex[:10]}"
    worker = Worker(queue, tmp_path / "crash-worker.log")
    try:
        yield worker
    finally:
        worker.stop()
        _forget_queue(worker.app, queue)
        import redis

        client = redis.Redis.from_url(worker.app.conf.broker_url)
        client.delete(*(f"{queue}.unacked{k}" for k in ("", "_index", "_mutex")))
        client.close()


def _wait(what: str, condition, worker: Worker, timeout: float):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {timeout:.0f} s; worker log:\n{worker.log()}", pytrace=False)
        time.sleep(0.1)


def _rated_tournament(monkeypatch):
    """A finished one-round event with its final standings published, not rated yet."""
    monkeypatch.setattr(ratings.tasks.rate_tournament_task, "delay", lambda *a, **kw: None)  # we send it
    org = organiser()
    t = ts.tournament_create(name=f"Reyting Kupası {uuid.uuid4().hex[:6]}", rounds_total=1, created_by=org)
    for rating in (1900, 1800, 1700, 1600):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=rating))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="crash")
    round_services.round_publish(round=rnd, user=org)
    for m in rnd.matches.order_by("board"):
        result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(20, 28), SetInput(26, 22)], user=org)
    round_services.round_close(round=rnd, user=org)
    ts.standings_publish(tournament=t, user=org)
    t.refresh_from_db()
    assert t.status == "finished" and not RatingEvent.objects.filter(tournament=t).exists()
    return t


def _import_text():
    """A published round of 2 x BOARDS players with two sets entered per game, no moves; the import
    text of the moves really played (2 x BOARDS records, federation ids as White and Black)."""
    org = organiser()
    t = ts.tournament_create(name=f"Kayıt Kupası {uuid.uuid4().hex[:6]}", rounds_total=3, created_by=org)
    for k in range(2 * BOARDS):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=2000 - 10 * k))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="crash")
    round_services.round_publish(round=rnd, user=org)
    records, seed = [], 500
    for m in rnd.matches.select_related("white__player", "black__player").order_by("board"):
        sets = []
        for number in (1, 2):
            seed += 1
            moves, (w, b) = sample_set(seed, number)
            sets.append(SetInput(w, b))
            records.append(GameRecord(
                event=t.name, round="1", white=m.white.player.federation_id, black=m.black.player.federation_id,
                set_number=number, result=(w, b), moves=tuple(moves),
            ))
        result_services.match_result_enter(match=m, sets=sets, user=org)
    return rnd, write(records)


def test_jobs_killed_with_their_worker_are_run_again_to_the_end(crash_worker, monkeypatch):
    t0 = time.monotonic()
    crash_worker.start()  # it boots while the data is made
    pdf_t = TournamentFactory(slug=f"cokme-{uuid.uuid4().hex[:10]}", name="Çökme Kupası")
    for _ in range(3):
        EntryFactory(tournament=pdf_t, player=PlayerFactory())
    pdf_path = crosstable_pdf_path(pdf_t, "tr")
    rated = _rated_tournament(monkeypatch)
    rnd, text = _import_text()
    imp = record_import_create(text=text, source="cokme.txt")
    q = crash_worker.queue

    crash_worker.wait_ready()
    pdf = crosstable_pdf_task.apply_async((pdf_t.id, "tr"), queue=q)
    rating = rate_tournament_task.apply_async((rated.id,), queue=q)
    import_records_task.apply_async((imp.id, "en"), queue=q)

    def half_way() -> bool:
        imp.refresh_from_db()
        return AsyncResult(pdf.id).state == AsyncResult(rating.id).state == "STARTED" and imp.done >= 2

    _wait("all three jobs half-way", half_way, crash_worker, timeout=30)
    crash_worker.kill()
    t_kill = time.monotonic()

    imp.refresh_from_db()
    assert imp.status == "running" and 2 <= imp.done < imp.total == 2 * BOARDS, (imp.status, imp.done, imp.total)
    done_at_kill = imp.done
    assert not pdf_path.exists()
    assert not RatingEvent.objects.filter(tournament=rated).exists()

    crash_worker.start()  # the killed worker's messages come back after the visibility timeout
    crash_worker.wait_ready()

    def all_finished() -> bool:
        imp.refresh_from_db()
        return pdf_path.exists() and RatingEvent.objects.filter(tournament=rated).exists() and imp.status == "done"

    _wait("the three jobs finished by the new worker", all_finished, crash_worker, timeout=45)
    t_done = time.monotonic()

    # the PDF: built once, whole
    assert pdf.get(timeout=10) == str(pdf_path)
    assert pdf_path.read_bytes().startswith(b"%PDF") and pdf_path.read_bytes().rstrip().endswith(b"%%EOF")
    # the rating run: one event, a change for each of the 4 players
    assert rating.get(timeout=10)["events"] == [rated.id]
    event = RatingEvent.objects.get(tournament=rated)
    assert event.rated_sets == 6
    assert RatingChange.objects.filter(event=event).count() == 4
    # the import: resumed, not restarted; every record stored once
    assert (imp.total, imp.done, imp.stored, imp.errors) == (2 * BOARDS, 2 * BOARDS, 2 * BOARDS, [])
    assert imp.attempts >= 2 and imp.runner == ""
    log = crash_worker.log()
    assert f"record import {imp.id}: resumed at record {done_at_kill + 1} of {2 * BOARDS}" in log, log
    assert sorted(imp.set_ids) == sorted(SetResult.objects.filter(match__round=rnd).values_list("id", flat=True))
    assert not SetResult.objects.filter(match__round=rnd, moves="").exists()
    assert "Traceback" not in log, log
    pdf_path.unlink()
    print(f"\ncrash test: killed {t_kill - t0:.1f} s after the start (import at record {done_at_kill + 1} of "
          f"{2 * BOARDS}), all three finished {t_done - t_kill:.1f} s after the kill, {t_done - t0:.1f} s in all")
