"""The team PDF and the event report PDF go through the PDF queue like the others (issue 23, item 8):
the web request never runs WeasyPrint, the job is routed to the ``pdf`` queue, a ready file is served
from the cache, and a change of the data (a version bump) builds a new file."""
from __future__ import annotations

import shutil
import subprocess

import pytest
from django.test import Client
from django.utils import translation

from federation import pdf as weasy
from federation.queues import task_routes
from tests.factories import organiser, referee
from tests.tournaments.events.test_events import _play_through, _pupil
from tests.tournaments.teams.test_teams import SCRIPT, make_event, play
from tournaments import services, tasks
from tournaments.events import services as events
from tournaments.paper.event_report import event_report_pdf_path
from tournaments.paper.teams import team_pdf_path

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("tr"):
        yield


@pytest.fixture
def media(tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


@pytest.fixture
def team_event(media):
    org, ref = organiser(username="tq-org"), referee(username="tq-ref")
    t = make_event(org, n_teams=4, reserves=0, slug="kuyruk-takim")
    play(t, org, ref, SCRIPT)
    services.standings_publish(tournament=t, user=org)
    t.refresh_from_db()
    return t, org


@pytest.fixture
def school(media):
    org = organiser(username="rq-org")
    event = events.event_create(name="Kuyruk Okullar Şampiyonası", user=org, city="Eskişehir")
    kiz = events.event_section_add(event=event, user=org, name="İlkokul Kız", rounds_total=3, birth_year_min=2015,
                                   birth_year_max=2018, sex="f")
    for i in range(4):
        events.event_register(event=event, player=_pupil(f"Kuyruk{i}", "f", 2016, 1500 - 10 * i), user=org)
    events.event_sections_sync(event=event, user=org)
    _play_through(kiz, org)
    kiz.refresh_from_db()
    return event, kiz, org


@pytest.fixture
def no_weasyprint_in_the_request(monkeypatch, settings):
    """A broker (not the embedded mode), the task's ``delay`` recorded, and ``html_to_pdf`` (WeasyPrint)
    made to fail: a request that rendered a PDF would raise."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    calls = []

    def forbidden(html):
        calls.append(html)
        raise AssertionError("WeasyPrint called in the web request")

    monkeypatch.setattr(weasy, "html_to_pdf", forbidden)
    return calls


def _pdf_text(data: bytes, tmp_path) -> str:
    f = tmp_path / "read.pdf"
    f.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(f), "-"], capture_output=True, text=True, check=True).stdout


def test_both_tasks_are_routed_to_the_pdf_queue():
    routes = task_routes()
    assert routes["tournaments.paper.teams"] == {"queue": "pdf"}
    assert routes["tournaments.paper.event_report"] == {"queue": "pdf"}
    assert routes["tournaments.paper.bracket"] == {"queue": "pdf"}  # was missing: it ran on ``default``
    assert tasks.team_pdf_task.name == "tournaments.paper.teams"
    assert tasks.event_report_pdf_task.name == "tournaments.paper.event_report"


def test_team_pdf_is_queued_not_rendered_then_served_from_cache_and_rebuilt_after_a_change(
        team_event, no_weasyprint_in_the_request, monkeypatch, django_assert_max_num_queries):
    t, org = team_event
    queued = []
    monkeypatch.setattr(tasks.team_pdf_task, "delay", lambda *args: queued.append(args))
    c = Client()
    first, second = c.get(f"/t/{t.slug}/teams.pdf"), c.get(f"/t/{t.slug}/teams.pdf")
    assert (first.status_code, second.status_code) == (202, 202)
    assert first["Retry-After"] == "2" and first["Cache-Control"] == "no-store"
    assert '<meta http-equiv="refresh"' in first.content.decode()
    assert queued == [(t.id, "tr", True)]  # one job for both requests
    assert no_weasyprint_in_the_request == []
    # the worker runs the task (WeasyPrint back)
    monkeypatch.undo()
    path = tasks.team_pdf_task.apply(args=[t.id, "tr", True]).get()
    assert path == str(team_pdf_path(t, "tr", True)) and f"-s{t.standings_version}-" in path
    assert not team_pdf_path(t, "tr", True).with_suffix(".queued").exists()
    # served from the cache: no render, no job
    monkeypatch.setattr(weasy, "html_to_pdf", lambda html: pytest.fail("rendered again"))
    monkeypatch.setattr(tasks.team_pdf_task, "delay", lambda *args: pytest.fail("queued again"))
    with django_assert_max_num_queries(12):
        ready = c.get(f"/t/{t.slug}/teams.pdf")
    assert ready.status_code == 200 and ready["Content-Type"] == "application/pdf"
    data = b"".join(ready.streaming_content)
    assert data[:5] == b"%PDF-"
    if shutil.which("pdftotext"):
        text = _pdf_text(data, team_pdf_path(t, "tr", True).parent)
        assert "Takım Şampiyonası" in text and all(f"Takım {x}" in text for x in "ABCD")
    # a version bump (a change of the public data) names a new file: queued again
    old = team_pdf_path(t, "tr", True)
    services.tournament_touch(t)
    t.refresh_from_db()
    assert team_pdf_path(t, "tr", True) != old
    queued.clear()
    monkeypatch.setattr(tasks.team_pdf_task, "delay", lambda *args: queued.append(args))
    assert c.get(f"/t/{t.slug}/teams.pdf").status_code == 202 and queued == [(t.id, "tr", True)]


def test_team_pdf_keeps_the_publish_gate(media, no_weasyprint_in_the_request, monkeypatch):
    org = organiser(username="tq-gate")
    t = make_event(org, n_teams=2, rounds=1, slug="kapali-kuyruk")
    monkeypatch.setattr(tasks.team_pdf_task, "delay", lambda *args: pytest.fail("queued for the public"))
    assert Client().get(f"/t/{t.slug}/teams.pdf").status_code == 404


def test_event_report_pdf_is_queued_not_rendered_then_cached_and_rebuilt_after_a_result(
        school, no_weasyprint_in_the_request, monkeypatch):
    event, kiz, org = school
    queued = []
    monkeypatch.setattr(tasks.event_report_pdf_task, "delay", lambda *args: queued.append(args))
    c = Client()
    first, second = c.get(f"/events/{event.slug}/report.pdf"), c.get(f"/events/{event.slug}/report.pdf")
    assert (first.status_code, second.status_code) == (202, 202)
    assert "Kuyruk Okullar Şampiyonası" in first.content.decode()  # the pending page names the event
    assert queued == [(event.id, "tr", None)]
    assert no_weasyprint_in_the_request == []
    monkeypatch.undo()
    path = tasks.event_report_pdf_task.apply(args=[event.id, "tr", None]).get()
    from django.contrib.auth.models import AnonymousUser

    assert path == str(event_report_pdf_path(event, AnonymousUser(), "tr"))
    monkeypatch.setattr(weasy, "html_to_pdf", lambda html: pytest.fail("rendered again"))
    monkeypatch.setattr(tasks.event_report_pdf_task, "delay", lambda *args: pytest.fail("queued again"))
    ready = c.get(f"/events/{event.slug}/report.pdf")
    assert ready.status_code == 200 and ready["Content-Type"] == "application/pdf"
    data = b"".join(ready.streaming_content)
    assert data[:5] == b"%PDF-"
    if shutil.which("pdftotext"):
        text = _pdf_text(data, media_dir(path))
        assert "Kuyruk Okullar" in text and "Kuyruk0" in text  # the leader of the published section
    # a change in a section (its versions bump, as with a corrected result) names a new file: queued again
    old = event_report_pdf_path(event, AnonymousUser(), "tr")
    services.tournament_touch(kiz)
    assert event_report_pdf_path(event, AnonymousUser(), "tr") != old
    queued.clear()
    monkeypatch.setattr(tasks.event_report_pdf_task, "delay", lambda *args: queued.append(args))
    assert c.get(f"/events/{event.slug}/report.pdf").status_code == 202 and queued == [(event.id, "tr", None)]


def test_organisers_get_their_own_private_report_file(school, monkeypatch, settings):
    event, kiz, org = school
    from django.contrib.auth.models import AnonymousUser

    assert event_report_pdf_path(event, org, "tr") != event_report_pdf_path(event, AnonymousUser(), "tr")
    c = Client()
    c.force_login(org)
    r = c.get(f"/events/{event.slug}/report.pdf")  # embedded mode: built by the task, run eagerly
    assert r.status_code == 200 and r["Cache-Control"] == "private, no-store"
    assert b"".join(r.streaming_content)[:5] == b"%PDF-"


def media_dir(path: str):
    from pathlib import Path

    return Path(path).parent
