"""Bounded TRF uploads and big files imported by a job (security trial, item 5).

The page and the API accept files up to ``settings.TRF_MAX_UPLOAD_BYTES`` (2 MB) and refuse bigger ones
with a 400 naming field ``file``. A file of more than 250 players or 2,500 result cells is stored as
a :class:`tournaments.models.TrfImport` and imported by the Celery task ``tournaments.import_trf``: the API
answers 202 with the job and its ``status_url``, the page redirects to a progress page that reloads. In
these tests Celery is eager (the embedded mode), so a job has run by the time the 202 is sent, unless a
test simulates a broker.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from federation.models import Player
from tests.factories import organiser
from tournaments.trf import jobs as trf_jobs
from tournaments.trf.services import tournament_import_trf
from tournaments.models import Entry, Tournament, TrfImport

pytestmark = pytest.mark.django_db

SAMPLE = Path(__file__).resolve().parents[3] / "tournaments" / "sample_data" / "trf" / "autumn_congress_2018_major.trf"


def _api(user) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en", raise_request_exception=False)
    if user is not None:
        client.force_authenticate(user)
    return client


def _upload(data: bytes, name: str = "big.trf") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="text/plain")


def _error(r) -> dict:
    body = r.json()
    assert set(body) == {"error"} and {"code", "message", "field"} <= set(body["error"]), body
    return body["error"]


def _many_players(n: int) -> bytes:
    lines = ["012 Büyük Açık 2026", "092 Individual: Swiss-System"] + [
        f"001 {k:>4} m    Oyuncu, No {k:<22} 1500 TUR {800000 + k:>11}             0.0" for k in range(1, n + 1)
    ]
    return "\n".join(lines).encode("utf-8")


@pytest.fixture
def org():
    return organiser(username="trf-jobs")


# --------------------------------------------------------------------------------------------
# Size limit: page and API alike


def test_the_setting_is_2_mb_by_default(settings):
    from django.conf import global_settings

    assert settings.TRF_MAX_UPLOAD_BYTES == 2 * 1024 * 1024 == trf_jobs.max_upload_bytes()
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == global_settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE == global_settings.FILE_UPLOAD_MAX_MEMORY_SIZE


def test_the_api_refuses_a_file_over_the_limit_naming_field_file(org):
    data = SAMPLE.read_bytes() + b"### " + b"x" * (2 * 1024 * 1024) + b"\n"
    r = _api(org).post("/api/tournaments/import-trf/", {"file": _upload(data)}, format="multipart")
    assert r.status_code == 400
    err = _error(r)
    assert err["field"] == "file" and "larger than 2.0" in err["message"]
    assert not Tournament.objects.exists() and not TrfImport.objects.exists()


def test_the_api_and_the_page_share_the_setting(org, client, settings):
    settings.TRF_MAX_UPLOAD_BYTES = 1000  # the sample has 3,817 bytes
    r = _api(org).post("/api/tournaments/import-trf/", {"file": _upload(SAMPLE.read_bytes())}, format="multipart")
    assert r.status_code == 400 and _error(r)["field"] == "file"
    client.force_login(org)
    page = client.post("/t/import/", {"file": _upload(SAMPLE.read_bytes())})
    assert page.status_code == 200  # the form again
    assert "file" in page.context["form"].errors and "1000" in str(page.context["form"].errors["file"])
    assert not Tournament.objects.exists()
    settings.TRF_MAX_UPLOAD_BYTES = 4000
    r = _api(org).post("/api/tournaments/import-trf/", {"file": _upload(SAMPLE.read_bytes())}, format="multipart")
    assert r.status_code == 201


# --------------------------------------------------------------------------------------------
# Which files become a job


def test_size_is_counted_on_the_raw_lines():
    from tournaments.trf.reader import parse_trf

    t = parse_trf(SAMPLE.read_bytes())
    assert (trf_jobs.trf_size(SAMPLE.read_bytes()) == (len(t.players), sum(len(p.results) for p in t.players))
            == (23, 138))
    assert trf_jobs.trf_size(_many_players(2001)) == (2001, 0)
    assert not trf_jobs.needs_job(SAMPLE.read_bytes())
    assert not trf_jobs.needs_job(_many_players(250))
    assert trf_jobs.needs_job(_many_players(251)) and trf_jobs.needs_job(_many_players(2001))
    cells = "\n".join("001 " + f"{k:>4}".ljust(87) + "  0000 - Z" * 99 for k in range(1, 27)).encode()
    assert trf_jobs.trf_size(cells)[1] == 26 * 99 > 2_500 and trf_jobs.needs_job(cells)
    assert not trf_jobs.needs_job(b"\n".join(cells.splitlines()[:25]))  # 2,475 cells, 25 players


def test_a_small_file_is_imported_at_once_with_201(org):
    r = _api(org).post("/api/tournaments/import-trf/", {"file": _upload(SAMPLE.read_bytes())}, format="multipart")
    assert r.status_code == 201 and not TrfImport.objects.exists()


def test_a_file_over_2000_players_answers_202_and_is_queued(org, settings, monkeypatch,
                                                           django_capture_on_commit_callbacks):
    """With a broker (simulated: the task is only recorded) the 202 comes before the import."""
    from tournaments import tasks

    sent = []
    settings.CELERY_TASK_ALWAYS_EAGER = False
    monkeypatch.setattr(tasks.import_trf_task, "delay", lambda *args: sent.append(args))
    with django_capture_on_commit_callbacks(execute=True):
        r = _api(org).post("/api/tournaments/import-trf/", {"file": _upload(_many_players(2001))},
                           format="multipart")
    assert r.status_code == 202, r.content[:300]
    body = r.json()
    row = TrfImport.objects.get(pk=body["job"])
    assert body == {"job": row.id, "status": "queued", "status_url": f"/api/tournaments/import-trf/{row.id}/"}
    assert sent == [(row.id, "en")]
    assert (row.players, row.cells, row.source, row.created_by) == (2001, 0, "big.trf", org)
    assert bytes(row.data) == _many_players(2001)
    status = _api(org).get(body["status_url"]).json()
    assert (status["status"], status["progress"], status["slug"], status["error"]) == ("queued", 0, None, None)
    assert not Tournament.objects.exists()


def test_a_job_imports_the_file_and_its_status_names_the_tournament(org, settings):
    settings.TRF_JOB_MIN_PLAYERS = 10  # the sample's 24 player lines make a job here
    r = _api(org).post("/api/tournaments/import-trf/", {"file": _upload(SAMPLE.read_bytes(), "autumn.trf"),
                                                       "name": "Sonbahar İşi"}, format="multipart")
    assert r.status_code == 202
    status = _api(org).get(r.json()["status_url"])
    assert status.status_code == 200
    body = status.json()
    assert (body["status"], body["progress"], body["slug"], body["error"]) == ("done", 100, "sonbahar-isi", None)
    assert body["players"] == 23 and body["finished_at"]
    t = Tournament.objects.get(slug="sonbahar-isi")
    assert t.name == "Sonbahar İşi" and t.entries.count() == 23 and t.rounds.count() == 6


def test_a_job_that_fails_reports_the_line_and_imports_nothing(org, settings):
    settings.TRF_JOB_MIN_PLAYERS = 10
    lines = SAMPLE.read_text(encoding="utf-8").split("\n")
    lines[16] = lines[16][:20] + "\x00" + lines[16][21:]
    r = _api(org).post("/api/tournaments/import-trf/", {"file": _upload("\n".join(lines).encode())},
                       format="multipart")
    assert r.status_code == 202
    body = _api(org).get(r.json()["status_url"]).json()
    assert body["status"] == "failed" and body["slug"] is None
    assert body["error"]["field"] == "file" and "line 17" in body["error"]["message"]
    assert "column 21" in body["error"]["message"]
    assert not Tournament.objects.exists() and not Player.objects.exists() and not Entry.objects.exists()


def test_the_status_is_for_its_creator_and_staff_only(org):
    row = TrfImport.objects.create(created_by=org, data=b"001", source="x.trf")
    url = f"/api/tournaments/import-trf/{row.id}/"
    other = organiser(username="trf-jobs-other")
    assert _api(other).get(url).status_code == 404
    assert _error(_api(other).get(url))["code"] == "not_found"
    assert _api(None).get(url).status_code in (401, 403, 404)
    assert _api(org).get(url).status_code == 200
    assert _api(org).get("/api/tournaments/import-trf/999999/").status_code == 404


@pytest.mark.django_db(transaction=True)  # the job is sent when the row is committed: within the request here
def test_the_broker_being_down_gives_503_and_a_failed_job(org, settings, monkeypatch):
    from tournaments import tasks

    def down(*args):
        raise ConnectionRefusedError("broker down")

    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.TRF_JOB_MIN_PLAYERS = 10
    monkeypatch.setattr(tasks.import_trf_task, "delay", down)
    r = _api(org).post("/api/tournaments/import-trf/", {"file": _upload(SAMPLE.read_bytes())}, format="multipart")
    assert r.status_code == 503 and _error(r)["code"] == "unavailable"
    assert TrfImport.objects.get().status == "failed"


def test_a_task_delivered_twice_imports_once(org):
    row = TrfImport.objects.create(created_by=org, data=SAMPLE.read_bytes(), source="autumn.trf")
    first = trf_jobs.trf_import_run(import_id=row.id)
    again = trf_jobs.trf_import_run(import_id=row.id)
    assert first.status == again.status == "done" and Tournament.objects.count() == 1


def test_the_import_reports_its_progress_by_entries_and_rounds():
    calls = []
    tournament_import_trf(data=SAMPLE.read_bytes(), source="autumn.trf",
                          progress=lambda done, total: calls.append((done, total)))
    assert calls == [(23 * k, 23 * 7) for k in range(0, 8)]  # 23 players, entries then 6 rounds


# --------------------------------------------------------------------------------------------
# The page


def test_the_page_redirects_a_big_file_to_its_progress_page(org, client, settings):
    settings.TRF_JOB_MIN_PLAYERS = 10
    client.force_login(org)
    r = client.post("/t/import/", {"file": _upload(SAMPLE.read_bytes(), "autumn.trf")})
    row = TrfImport.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/t/import/{row.id}/"
    page = client.get(r["Location"])
    assert page.status_code == 200 and "Refresh" not in page
    html = page.content.decode()
    assert 'data-testid="import-done"' in html and f'href="/t/{row.tournament.slug}/"' in html


def test_the_progress_page_reloads_while_the_job_runs_and_is_private(org, client):
    row = TrfImport.objects.create(created_by=org, data=b"001", source="x.trf", status="running", progress=40)
    client.force_login(org)
    page = client.get(f"/t/import/{row.id}/")
    assert page.status_code == 200 and page["Refresh"] == "2"
    assert 'value="40"' in page.content.decode()
    client.force_login(organiser(username="trf-jobs-stranger"))
    assert client.get(f"/t/import/{row.id}/").status_code == 404


def test_the_sweep_fails_imports_whose_message_was_lost():
    """Queued for longer than TRF_IMPORT_STUCK_MINUTES: failed. (A running import whose worker died is
    restarted: tests/tournaments/trf/test_trf_import_resume.py.)"""
    import datetime as dt

    from django.utils import timezone, translation

    from tournaments.models import TrfImport
    from tournaments.tasks import sweep_stuck_trf_imports_task

    old = TrfImport.objects.create(status=TrfImport.Status.QUEUED, data=b"x", source="a.trf")
    fresh = TrfImport.objects.create(status=TrfImport.Status.QUEUED, data=b"x", source="b.trf")
    TrfImport.objects.filter(pk=old.pk).update(created_at=timezone.now() - dt.timedelta(hours=1))
    with translation.override("en"):
        assert sweep_stuck_trf_imports_task() == {"requeued": [], "failed": [old.pk]}
    old.refresh_from_db()
    fresh.refresh_from_db()
    assert (old.status, fresh.status) == ("failed", "queued")
    assert "nothing was imported" in old.error


def _swiss(n: int, rounds: int) -> bytes:
    """A Swiss file of ``n`` players and ``rounds`` played rounds (circle-method pairings, white wins)."""
    cells: dict[int, list[str]] = {k: [] for k in range(1, n + 1)}
    order = list(range(1, n + 1))
    for r in range(rounds):
        for i in range(n // 2):
            a, b = order[i], order[n - 1 - i]
            white, black = (a, b) if (r + i) % 2 == 0 else (b, a)
            cells[white].append(f"{black:>4} w 1  ")
            cells[black].append(f"{white:>4} b 0  ")
        order = [order[0], order[-1], *order[1:-1]]
    lines = ["012 Orta Boy Açık", "092 Individual: Swiss-System", f"XXR {rounds}"] + [
        f"001 {k:>4} m    Oyuncu, No {k:<22} 1500 TUR {800000 + k:>11}             0.0".ljust(91) + "".join(cells[k])
        for k in range(1, n + 1)
    ]
    return "\n".join(lines).encode("utf-8")


def test_a_mid_size_file_goes_to_the_queue_by_default_and_lands_by_the_job(org, client):
    """Issue 23 item 4: a 300-player, 2,700-cell file (a second or more of work) is not imported within the
    request: the API answers 202 with the job, the page redirects to the job's page; the job imports it."""
    data = _swiss(300, 9)
    assert trf_jobs.trf_size(data) == (300, 2700) and trf_jobs.needs_job(data)
    r = _api(org).post("/api/tournaments/import-trf/", {"file": _upload(data)}, format="multipart")
    assert r.status_code == 202
    row = TrfImport.objects.get()
    assert r.json() == {"job": row.id, "status": "done", "status_url": f"/api/tournaments/import-trf/{row.id}/"}
    status = _api(org).get(r.json()["status_url"]).json()
    t = Tournament.objects.get(slug=status["slug"])
    assert (status["status"], status["progress"], t.entries.count(), t.rounds.count()) == ("done", 100, 300, 9)
    assert (row.attempts, row.options) == (1, {})
    client.force_login(org)
    page = client.post("/t/import/", {"file": _upload(data, "orta.trf"), "name": "Orta Boy 2"})
    second = TrfImport.objects.exclude(pk=row.pk).get()
    assert page.status_code == 302 and page["Location"] == f"/t/import/{second.id}/"
    assert second.status == "done" and second.tournament.name == "Orta Boy 2"
    assert second.tournament.entries.count() == 300
