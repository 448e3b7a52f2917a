"""The web never waits on a worker: a PDF not built yet is queued once and answered with 202 at once."""
from __future__ import annotations

import time

import pytest
from django.test import Client

from tests.factories import organiser
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.paper.crosstable import crosstable_pdf_build, crosstable_pdf_path
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db


@pytest.fixture
def published(tmp_path, settings):
    settings.MEDIA_ROOT = tmp_path
    org = organiser(username="pdf-org")
    from tests.factories import PlayerFactory

    t = services.tournament_create(name="PDF Kupası", rounds_total=1, created_by=org)
    for i in range(4):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=1500 + i))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="x")
    round_services.round_publish(round=rnd, user=org)
    for m in rnd.matches.filter(kind="game"):
        result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(26, 22)])
    round_services.round_close(round=rnd, user=org)
    services.standings_publish(tournament=t, user=org)
    t.refresh_from_db()
    return t


def test_a_missing_pdf_is_queued_once_and_answered_at_once(published, settings, monkeypatch):
    from tournaments import tasks

    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued = []
    monkeypatch.setattr(tasks.crosstable_pdf_task, "delay", lambda *args: queued.append(args))
    c = Client()
    started = time.monotonic()
    first = c.get(f"/t/{published.slug}/crosstable.pdf")
    second = c.get(f"/t/{published.slug}/crosstable.pdf")
    assert time.monotonic() - started < 1.0
    assert (first.status_code, second.status_code) == (202, 202)
    assert first["Retry-After"] == "2" and '<meta http-equiv="refresh"' in first.content.decode()
    assert queued == [(published.id, "tr")]  # one job for many requests
    crosstable_pdf_build(tournament=published, lang="tr")  # what the worker does
    ready = c.get(f"/t/{published.slug}/crosstable.pdf")
    assert ready.status_code == 200 and b"".join(ready.streaming_content)[:5] == b"%PDF-"
    assert not crosstable_pdf_path(published, "tr").with_suffix(".queued").exists()


def test_an_unreachable_broker_is_a_503_not_a_hang(published, settings, monkeypatch):
    from tournaments import tasks

    settings.CELERY_TASK_ALWAYS_EAGER = False

    def down(*args):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.crosstable_pdf_task, "delay", down)
    r = Client().get(f"/t/{published.slug}/crosstable.pdf")
    assert r.status_code == 503 and "role=\"alert\"" in r.content.decode()
    assert not crosstable_pdf_path(published, "tr").with_suffix(".queued").exists()  # the next request tries again


def test_embedded_mode_builds_in_the_request(published):
    r = Client().get(f"/t/{published.slug}/crosstable.pdf")
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
