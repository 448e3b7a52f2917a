"""Workers killed mid-job (issue 23, "A chaos run"; PostgreSQL + Redis + real Celery workers).

* PDF, re-rating and record import: ``tests/services/test_crash_recovery.py``'s test, run again here
  under the ``chaos`` marker (one worker, the three jobs half-way, SIGKILL to every process, a new
  worker: each job finishes within 45 s of the kill — the visibility timeout of 10 s the test's worker
  gets, plus the work).
* TRF import (``tournaments.import_trf``): a file of 3,000 players sent to a worker of its own, killed
  with SIGKILL while the import is ``running``; a new worker is started and the import must end ``done``
  or ``failed`` with a message within :data:`TRF_PROMISE` seconds of the kill. The promise
  (docs/operations.md) is the lease plus the next delivery plus the import's own run: the worker gets
  ``TRF_IMPORT_LEASE_SECONDS`` = :data:`TRF_LEASE` (read from the environment, 60 in production) and
  the visibility timeout of 10 s (the redelivery that restarts the orphaned import; in production the
  sweep every ``TRF_IMPORT_SWEEP_SECONDS``, 60, comes first).

Skipped unless DATABASE_URL (PostgreSQL) and REDIS_URL are set (the ``celery_worker`` fixture).
"""
from __future__ import annotations

import time

import pytest

from tests.chaos.conftest import SUMMARY
from tests.factories import organiser
from tests.services.test_crash_recovery import (  # noqa: F401 — crash_worker is a fixture used here
    VISIBILITY,
    Worker,
    _wait,
    crash_worker,
)
from tests.services.test_crash_recovery import (
    test_jobs_killed_with_their_worker_are_run_again_to_the_end as test_pdf_rating_and_record_import_killed_mid_job,
)
from tournaments.trf import jobs as trf_jobs
from tournaments.models import TrfImport
from tournaments.tasks import import_trf_task

pytestmark = [pytest.mark.chaos, pytest.mark.services, pytest.mark.django_db(transaction=True)]

TRF_LEASE = 4  # seconds: TRF_IMPORT_LEASE_SECONDS of the chaos worker (heartbeat every second)
TRF_RUN = 45.0  # seconds allowed for the import's own (second) run of 3,000 players (15-25 s; 2 loaded cores)
TRF_PROMISE = VISIBILITY + TRF_LEASE + TRF_RUN  # seconds from the kill to done/failed
PLAYERS = 3000


def _big_file(n: int) -> bytes:
    lines = ["012 Kaos Büyük Açık", "092 Individual: Swiss-System"] + [
        f"001 {k:>4} m    Kaos, Oyuncu {k:<20} 1500 TUR {800000 + k:>11}             0.0" for k in range(1, n + 1)
    ]
    return "\n".join(lines).encode("utf-8")


def test_trf_import_killed_mid_job_ends_done_or_failed(crash_worker, monkeypatch):
    q = crash_worker.queue
    sent = []
    # the import is sent to the crash worker's queue, not the shared one
    monkeypatch.setattr(import_trf_task, "delay",
                        lambda *args: sent.append(import_trf_task.apply_async(args, queue=q)))
    crash_worker.env["TRF_IMPORT_LEASE_SECONDS"] = str(TRF_LEASE)
    crash_worker.start()
    crash_worker.wait_ready()
    row = trf_jobs.trf_import_queue(data=_big_file(PLAYERS), task=import_trf_task, source="kaos.trf",
                                    user=organiser(username="kaos-trf"))
    assert len(sent) == 1

    def running() -> bool:
        row.refresh_from_db()
        return row.status == TrfImport.Status.RUNNING

    _wait("the TRF import running", running, crash_worker, timeout=30)
    time.sleep(0.5)
    crash_worker.kill()
    t_kill = time.monotonic()
    row.refresh_from_db()
    status_at_kill = row.status
    crash_worker.start()
    crash_worker.wait_ready()

    def ended() -> bool:
        row.refresh_from_db()
        return row.status in (TrfImport.Status.DONE, TrfImport.Status.FAILED)

    try:
        _wait(f"the killed TRF import (status {status_at_kill} at the kill) done or failed", ended, crash_worker,
              timeout=TRF_PROMISE)
    finally:
        SUMMARY.append(f"chaos kill trf-import: status at kill {status_at_kill}, now {row.status} "
                       f"after {time.monotonic() - t_kill:.1f} s (promise {TRF_PROMISE:.0f} s)")
    if row.status == TrfImport.Status.FAILED:
        assert row.error.strip(), "failed without a message"
    else:
        assert row.tournament is not None and row.tournament.entries.count() == PLAYERS
