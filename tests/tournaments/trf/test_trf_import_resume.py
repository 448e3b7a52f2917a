"""A TRF import job survives its worker (issue 23, item 5: ``tournaments.trf.lease``,
``tournaments.trf.jobs.trf_import_run``, the ``tournaments.import_trf`` and ``tournaments.sweep_stuck_trf_imports``
tasks).

A dead worker is simulated by the row it leaves behind: ``running``, attempt 1, its heartbeat older than
``TRF_IMPORT_LEASE_SECONDS`` and nothing imported (the import is one transaction). The message comes
again (the broker's redelivery, or the sweep's re-queue) and the import is restarted from the stored file.
"""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.utils import timezone, translation

from tests.factories import organiser
from tournaments.models import Tournament, TrfImport
from tournaments.tasks import import_trf_task, sweep_stuck_trf_imports_task
from tournaments.trf.lease import trf_import_claim

pytestmark = pytest.mark.django_db

SAMPLE = Path(__file__).resolve().parents[3] / "tournaments" / "sample_data" / "trf" / "autumn_congress_2018_major.trf"


def _left_by_a_dead_worker(*, seconds_ago: float, attempts: int = 1) -> TrfImport:
    row = TrfImport.objects.create(
        created_by=organiser(username=f"trf-resume-{attempts}-{int(seconds_ago)}"), data=SAMPLE.read_bytes(),
        source="autumn.trf", status=TrfImport.Status.RUNNING, progress=40, attempts=attempts, lang="en",
        options={"system": "swiss"},
    )
    beat = timezone.now() - dt.timedelta(seconds=seconds_ago)
    TrfImport.objects.filter(pk=row.pk).update(heartbeat_at=beat, created_at=beat)
    return row


def test_a_redelivered_message_restarts_an_import_whose_worker_died(settings):
    settings.TRF_IMPORT_LEASE_SECONDS = 60
    row = _left_by_a_dead_worker(seconds_ago=61)
    out = import_trf_task(row.id, "en")  # the redelivery carries the message's options; here: the row's
    row.refresh_from_db()
    t = Tournament.objects.get()
    assert out == {"status": "done", "tournament": t.slug, "error": ""}
    assert (row.status, row.progress, row.attempts, row.tournament_id) == ("done", 100, 2, t.id)
    assert t.system == "swiss" and t.entries.count() == 23 and t.rounds.count() == 6


def test_a_live_run_is_left_alone(settings):
    settings.TRF_IMPORT_LEASE_SECONDS = 60
    row = _left_by_a_dead_worker(seconds_ago=30)  # heartbeat within the lease: a second send of a live job
    out = import_trf_task(row.id, "en")
    row.refresh_from_db()
    assert out["status"] == "running" and (row.status, row.attempts, row.progress) == ("running", 1, 40)
    assert not Tournament.objects.exists()


def test_the_sweep_requeues_an_orphan_which_then_completes(settings):
    settings.TRF_IMPORT_LEASE_SECONDS = 60
    orphan = _left_by_a_dead_worker(seconds_ago=120)
    live = _left_by_a_dead_worker(seconds_ago=10)
    with translation.override("en"):
        assert sweep_stuck_trf_imports_task() == {"requeued": [orphan.pk], "failed": []}
    orphan.refresh_from_db()
    live.refresh_from_db()
    assert (orphan.status, orphan.attempts) == ("done", 2) and orphan.tournament.entries.count() == 23
    assert (live.status, live.attempts) == ("running", 1)


def test_after_max_attempts_the_import_fails_with_the_reason(settings):
    settings.TRF_IMPORT_LEASE_SECONDS = 60
    settings.TRF_IMPORT_MAX_ATTEMPTS = 3
    row = _left_by_a_dead_worker(seconds_ago=61, attempts=3)
    out = import_trf_task(row.id, "en")
    row.refresh_from_db()
    assert out["status"] == "failed" and row.status == "failed" and row.finished_at is not None
    assert "started 3 times" in row.error and "nothing was imported" in row.error
    assert not Tournament.objects.exists()


def test_a_replaced_run_writes_nothing(settings):
    """The first run's lease ran out and another run took the row over: the first one's end is ignored."""
    settings.TRF_IMPORT_LEASE_SECONDS = 60
    row = _left_by_a_dead_worker(seconds_ago=61)
    _row, token = trf_import_claim(import_id=row.id)
    assert token == 2
    TrfImport.objects.filter(pk=row.pk, attempts=1).update(status="failed", error="stale run")  # token 1's write
    row.refresh_from_db()
    assert (row.status, row.error) == ("running", "")
    assert trf_import_claim(import_id=row.id)[1] is None  # fresh heartbeat: not claimable


def test_the_command_queues_a_job_and_reports_its_status(capsys, tmp_path):
    """``manage.py trf_import_job`` (the chaos harness's handle): enqueue prints the job, status its state."""
    import json

    from django.core.management import call_command

    user = organiser(username="trf-cmd")
    path = tmp_path / "autumn.trf"
    path.write_bytes(SAMPLE.read_bytes())
    call_command("trf_import_job", "enqueue", str(path), "--user", user.username)
    queued = json.loads(capsys.readouterr().out)
    row = TrfImport.objects.get()
    assert queued == {"job": row.id, "status": "done"}  # Celery eager: run by the time the command ends
    call_command("trf_import_job", "status", str(row.id))
    status = json.loads(capsys.readouterr().out)
    assert status["status"] == "done" and status["attempts"] == 1 and status["progress"] == 100
    assert status["slug"] == Tournament.objects.get().slug and status["error"] == ""


@pytest.mark.django_db(transaction=True)
def test_a_running_import_writes_its_heartbeat(settings):
    """PostgreSQL (a thread with its own connection; not on SQLite, whose write lock the import holds): with
    a 2 s lease the run beats every 0.5 s, so a run held 1.5 s (TEST_TASK_DELAY) leaves a later heartbeat."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("the heartbeat thread runs on PostgreSQL")
    settings.TRF_IMPORT_LEASE_SECONDS = 2
    settings.TEST_TASK_DELAY = 1.5
    row = TrfImport.objects.create(created_by=organiser(username="trf-beat"), data=SAMPLE.read_bytes(),
                                   source="autumn.trf", lang="en")
    out = import_trf_task(row.id, "en")
    row.refresh_from_db()
    assert out["status"] == "done" and row.attempts == 1
    assert (row.heartbeat_at - row.created_at).total_seconds() >= 0.9


def test_the_lease_and_the_sweep_period_are_read_from_the_environment():
    """The chaos run (and an operator) shortens them by environment variables (django-environ):
    the promise for a killed import is lease + sweep period + its run (docs/operations.md)."""
    import json
    import os
    import subprocess
    import sys

    code = ("import django, json; django.setup(); from django.conf import settings as s; "
            "print(json.dumps([s.TRF_IMPORT_LEASE_SECONDS, "
            "s.CELERY_BEAT_SCHEDULE['sweep-stuck-trf-imports']['schedule']]))")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "federation.settings.test", "TRF_IMPORT_LEASE_SECONDS": "7",
           "TRF_IMPORT_SWEEP_SECONDS": "5"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60,
                         cwd=Path(__file__).resolve().parents[3], check=True).stdout
    assert json.loads(out.strip().splitlines()[-1]) == [7, 5.0]
    env.pop("TRF_IMPORT_LEASE_SECONDS"), env.pop("TRF_IMPORT_SWEEP_SECONDS")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60,
                         cwd=Path(__file__).resolve().parents[3], check=True).stdout
    assert json.loads(out.strip().splitlines()[-1]) == [60, 60.0]
