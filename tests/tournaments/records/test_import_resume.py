"""A record import survives its worker (``tournaments.records.services.record_import_run`` / ``_claim``,
``record_import_sweep``, the ``games.import_records`` and ``games.sweep_stuck_imports`` tasks).

A killed worker is simulated by a progress callback that raises a ``BaseException`` (nothing in the
service catches it, as nothing runs after a SIGKILL): the import is left ``running`` with the progress
saved so far. The real thing — a worker process killed with SIGKILL and started again — is
tests/services/test_crash_recovery.py.
"""
from __future__ import annotations

import datetime as dt

import pytest
from django.db import OperationalError
from django.utils import timezone

from federation.jobs import MAX_RETRIES, TRANSIENT_ERRORS
from games.engine.notation import write
from games.models import RecordImport
from tests.tournaments.records.test_records import english, event, record_for, stored_moves  # noqa: F401 (fixtures)
from tournaments.records import services as record_services
from tournaments.records.services import (
    MAX_ATTEMPTS,
    STALE_SECONDS,
    record_import_create,
    record_import_run,
    record_import_sweep,
)
from tournaments.records.tasks import import_records_task, sweep_stuck_imports_task


class WorkerKilled(BaseException):
    """Stands for SIGKILL: nothing in the import catches it."""


def kill_after(n: int, seen: list | None = None):
    """A progress callback that notes each record's ``done`` and 'kills the worker' after record ``n``."""

    def progress(done, total, chunk, s, error):
        if seen is not None:
            seen.append(done)
        if done == n:
            raise WorkerKilled

    return progress


def four_records(ev) -> str:
    """Four records, the second refused (no such tournament)."""
    return write([
        record_for(ev, 1, 1), record_for(ev, 1, 2, event="yok"), record_for(ev, 2, 1), record_for(ev, 2, 2),
    ])


def killed_import(ev, *, after: int, task_id: str = "task-1", save_every: float = 0) -> RecordImport:
    row = record_import_create(text=four_records(ev))
    with pytest.raises(WorkerKilled):
        record_import_run(import_id=row.id, task_id=task_id, save_every=save_every, progress=kill_after(after))
    row.refresh_from_db()
    return row


def summary(row: RecordImport) -> tuple:
    return row.status, row.total, row.done, row.stored, [e["record"] for e in row.errors], len(row.set_ids)


# --------------------------------------------------------------------------------------------
# resuming
# --------------------------------------------------------------------------------------------


def test_a_redelivered_task_resumes_at_the_first_record_not_done(event):
    row = killed_import(event, after=2)
    assert summary(row) == ("running", 4, 2, 1, [2], 1)
    assert row.heartbeat_at is not None and row.attempts == 1 and row.task_id == "task-1"
    assert stored_moves(event, 1, 1) and not stored_moves(event, 2, 1)

    seen = []
    row = record_import_run(import_id=row.id, task_id="task-1", save_every=0, progress=kill_after(0, seen))
    assert seen == [3, 4]  # records 1 and 2 are not read again
    assert summary(row) == ("done", 4, 4, 3, [2], 3)
    assert row.attempts == 2 and row.runner == "" and row.finished_at is not None
    assert "no tournament named 'yok'" in row.errors[0]["message"]
    for board, number in ((1, 1), (2, 1), (2, 2)):
        assert stored_moves(event, board, number)


def test_records_after_the_last_progress_save_are_done_again_with_the_same_result(event):
    # progress saved only at the end: the worker dies after record 3 with nothing counted yet
    row = killed_import(event, after=3, save_every=3600)
    assert summary(row)[:3] == ("running", 4, 0)
    assert stored_moves(event, 2, 1)  # committed with its record, before the kill

    row = record_import_run(import_id=row.id, task_id="task-1", save_every=3600)
    assert summary(row) == ("done", 4, 4, 3, [2], 3)  # what one clean run reports
    assert len(set(row.set_ids)) == 3


def test_another_task_leaves_a_live_import_alone_but_takes_over_a_stale_one(event):
    row = killed_import(event, after=1)
    again = record_import_run(import_id=row.id, task_id="task-2")  # e.g. sent twice: the first still runs
    assert summary(again) == summary(row) and again.attempts == 1

    RecordImport.objects.filter(pk=row.pk).update(heartbeat_at=timezone.now() - dt.timedelta(seconds=STALE_SECONDS + 1))
    row = record_import_run(import_id=row.id, task_id="task-2")  # re-sending a stuck import restarts it
    assert summary(row) == ("done", 4, 4, 3, [2], 3)
    assert (row.attempts, row.task_id) == (2, "task-2")


def test_a_running_import_without_a_heartbeat_is_taken_over(event):
    row = killed_import(event, after=1)
    RecordImport.objects.filter(pk=row.pk).update(heartbeat_at=None)  # e.g. left by an older version
    assert record_import_run(import_id=row.id).status == "done"


def test_a_finished_import_is_never_run_again(event):
    row = record_import_create(text=four_records(event))
    row = record_import_run(import_id=row.id, task_id="task-1")
    again = record_import_run(import_id=row.id, task_id="task-1")
    assert summary(again) == summary(row) == ("done", 4, 4, 3, [2], 3) and again.attempts == 1


def test_a_run_whose_import_was_taken_over_stops_writing(event):
    row = record_import_create(text=four_records(event))

    def taken_over_after_first(done, total, chunk, s, error):
        if done == 1:  # another run claims the import now
            RecordImport.objects.filter(pk=row.pk).update(runner="another-run", done=1)

    row = record_import_run(import_id=row.id, save_every=0, progress=taken_over_after_first)
    assert (row.status, row.done, row.runner) == ("running", 1, "another-run")  # its next save found it gone


def test_an_import_started_too_often_is_marked_failed_with_the_reason(event):
    row = killed_import(event, after=2)
    RecordImport.objects.filter(pk=row.pk).update(attempts=MAX_ATTEMPTS)
    row = record_import_run(import_id=row.id, task_id="task-1")
    assert (row.status, row.done, row.runner) == ("failed", 2, "")
    assert row.errors[-1]["record"] == 3
    assert row.errors[-1]["message"].startswith(f"the import was started {MAX_ATTEMPTS} times without finishing")
    assert "2 of 4 records were processed" in row.errors[-1]["message"]


def test_an_import_whose_text_splits_differently_now_cannot_resume(event):
    row = killed_import(event, after=2)
    RecordImport.objects.filter(pk=row.pk).update(total=7)
    row = record_import_run(import_id=row.id, task_id="task-1")
    assert row.status == "failed"
    assert row.errors[-1]["message"] == "the import cannot be resumed: its text now splits into 4 records, not 7; import it again"


def test_a_transient_error_leaves_the_import_running_for_the_retry(event, monkeypatch):
    real_attach = record_services._attach
    calls = []

    def flaky(record, chunk, **kw):
        calls.append(chunk.line)
        if len(calls) == 3:
            raise OperationalError("server closed the connection unexpectedly")
        return real_attach(record, chunk, **kw)

    monkeypatch.setattr(record_services, "_attach", flaky)
    row = record_import_create(text=four_records(event))
    with pytest.raises(OperationalError):
        record_import_run(import_id=row.id, task_id="task-1", save_every=0, reraise=TRANSIENT_ERRORS)
    row.refresh_from_db()
    assert summary(row) == ("running", 4, 2, 1, [2], 1)  # not failed: the retry goes on from record 3
    row = record_import_run(import_id=row.id, task_id="task-1", reraise=TRANSIENT_ERRORS)
    assert summary(row) == ("done", 4, 4, 3, [2], 3)


def test_without_reraise_an_error_still_fails_the_import(event, monkeypatch):
    def broken(record, chunk, **kw):
        raise OperationalError("disk I/O error")

    monkeypatch.setattr(record_services, "_attach", broken)
    row = record_import_create(text=four_records(event))
    row = record_import_run(import_id=row.id)  # the command line: no retry, the import fails at once
    assert (row.status, row.runner) == ("failed", "")
    assert row.errors[-1]["message"] == "internal error: disk I/O error"


# --------------------------------------------------------------------------------------------
# the task
# --------------------------------------------------------------------------------------------


def test_the_task_resumes_an_import_its_killed_delivery_left_running(event):
    row = killed_import(event, after=2, task_id="celery-task-1")
    result = import_records_task.apply(args=(row.id, "en"), task_id="celery-task-1")  # the broker's redelivery
    assert result.get() == {"status": "done", "total": 4, "done": 4, "stored": 3, "errors": 1}
    row.refresh_from_db()
    assert (row.attempts, row.lang) == (2, "en")


def test_celery_settings_keep_jobs_through_a_lost_worker():
    from django.conf import settings

    from federation.celery import app

    assert settings.CELERY_TASK_ACKS_LATE is True
    assert settings.CELERY_TASK_REJECT_ON_WORKER_LOST is True
    assert settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] >= 600  # well above the longest job
    assert settings.CELERY_RESULT_EXPIRES > 0
    schedule = settings.CELERY_BEAT_SCHEDULE["sweep-stuck-record-imports"]
    assert schedule["task"] == "games.sweep_stuck_imports" and schedule["task"] in app.tasks


def test_jobs_retry_transient_errors_with_backoff_and_jitter():
    from ratings.tasks import rate_tournament_task, rerate_all_task
    from tournaments.tasks import crosstable_pdf_task

    for task in (import_records_task, sweep_stuck_imports_task, crosstable_pdf_task, rate_tournament_task,
                 rerate_all_task):
        assert task.autoretry_for == TRANSIENT_ERRORS, task.name
        assert (task.retry_backoff, task.retry_jitter, task.max_retries) == (True, True, MAX_RETRIES), task.name


def test_run_eagerly_a_transient_error_fails_the_import_at_once(event, monkeypatch):
    def locked(record, chunk, **kw):
        raise OperationalError("database is locked")

    monkeypatch.setattr(record_services, "_attach", locked)
    row = record_import_create(text=four_records(event))
    assert import_records_task.apply(args=(row.id, "en")).get()["status"] == "failed"  # no worker to retry
    row.refresh_from_db()
    assert row.errors[-1]["message"] == "internal error: database is locked"


def test_when_the_task_gives_up_the_import_it_left_running_is_marked_failed(event):
    row = killed_import(event, after=2, task_id="celery-task-2")
    import_records_task.on_failure(OperationalError("could not connect to server"), "other-task", (row.id, "en"), {}, None)
    row.refresh_from_db()
    assert row.status == "running"  # another task's failure does not touch it
    import_records_task.on_failure(OperationalError("could not connect to server"), "celery-task-2", (row.id, "en"), {}, None)
    row.refresh_from_db()
    assert (row.status, row.runner, row.done) == ("failed", "", 2)
    assert row.errors[-1] == {
        "record": 3, "line": 0, "message": "the import stopped after 0 retries: could not connect to server",
    }


# --------------------------------------------------------------------------------------------
# the sweep
# --------------------------------------------------------------------------------------------


def _age(row: RecordImport, minutes: float) -> None:
    RecordImport.objects.filter(pk=row.pk).update(heartbeat_at=timezone.now() - dt.timedelta(minutes=minutes))


def test_the_sweep_requeues_a_stuck_import_once_and_it_resumes(event, settings):
    settings.RECORD_IMPORT_STUCK_MINUTES = 10
    row = killed_import(event, after=2)
    _age(row, 11)
    result = sweep_stuck_imports_task.apply().get()  # eager: the re-queued task runs at once
    assert result == {"requeued": [row.id], "failed": []}
    row.refresh_from_db()
    assert summary(row) == ("done", 4, 4, 3, [2], 3)
    assert (row.requeues, row.attempts) == (1, 2) and row.task_id not in ("", "task-1")


def test_the_sweep_marks_an_import_failed_when_it_is_stuck_again_after_its_requeue(event, settings, monkeypatch):
    settings.RECORD_IMPORT_STUCK_MINUTES = 10
    sent = []
    monkeypatch.setattr(import_records_task, "apply_async", lambda args, task_id: sent.append((args, task_id)))
    row = killed_import(event, after=2)
    _age(row, 11)
    assert record_import_sweep().as_dict() == {"requeued": [row.id], "failed": []}
    row.refresh_from_db()
    assert sent == [((row.id, None), row.task_id)] and row.requeues == 1
    assert record_import_sweep().as_dict() == {"requeued": [], "failed": []}  # the re-queue counts as a sign of life

    _age(row, 11)  # the re-queued task never came
    assert record_import_sweep().as_dict() == {"requeued": [], "failed": [row.id]}
    row.refresh_from_db()
    assert (row.status, row.runner, row.done) == ("failed", "", 2) and row.finished_at is not None
    assert row.errors[-1] == {
        "record": 3, "line": 0,
        "message": "the import stopped: no progress for 10 minutes, even after it was re-queued (its worker was "
                   "lost); 2 of 4 records were processed: import the remaining records again",
    }
    # the old run, should it wake up, stops at its next save
    assert not RecordImport.objects.filter(pk=row.pk, runner="x").update(done=3)


def test_the_sweep_leaves_live_and_finished_imports_alone(event, settings, monkeypatch):
    settings.RECORD_IMPORT_STUCK_MINUTES = 10
    sent = []
    monkeypatch.setattr(import_records_task, "apply_async", lambda args, task_id: sent.append(args))
    live = killed_import(event, after=1)
    _age(live, 9)
    finished = record_import_run(import_id=record_import_create(text=four_records(event)).id)
    _age(finished, 60)
    fresh = record_import_create(text=four_records(event))  # pending, just created
    assert record_import_sweep().as_dict() == {"requeued": [], "failed": []}
    assert sent == []
    assert RecordImport.objects.get(pk=fresh.pk).status == "pending"


def test_the_sweep_requeues_a_pending_import_whose_message_was_lost(event, settings, monkeypatch):
    settings.RECORD_IMPORT_STUCK_MINUTES = 10
    row = record_import_create(text=four_records(event))
    RecordImport.objects.filter(pk=row.pk).update(created_at=timezone.now() - dt.timedelta(minutes=11))
    assert record_import_sweep().as_dict() == {"requeued": [row.id], "failed": []}
    row.refresh_from_db()
    assert summary(row) == ("done", 4, 4, 3, [2], 3)
