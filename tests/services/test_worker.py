"""Service-backed mode: PostgreSQL and a real Celery worker on Redis (run by ``.ci/run``).

Skipped unless DATABASE_URL and REDIS_URL are set (tests/conftest.py); the worker is started once per
session by the ``celery_worker`` fixture against pytest-django's test database.
"""
from __future__ import annotations

import io
import time
import os
import uuid

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from pypdf import PdfReader

from tests.factories import EntryFactory, PlayerFactory, TournamentFactory
from tournaments.tasks import crosstable_pdf_task

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _tournament_with_players():
    """A tournament with a unique slug (the PDF cache is keyed by slug and version) and three entries."""
    t = TournamentFactory(slug=f"servis-{uuid.uuid4().hex[:10]}", name="Servis Kupası Ğİ")
    for last in ("Şahin", "Öztürk", "Çelik"):
        EntryFactory(tournament=t, player=PlayerFactory(last_name=last))
    return t


def test_database_is_postgresql_test_database():
    assert os.environ["DATABASE_URL"].startswith(("postgres://", "postgresql://"))
    assert connection.vendor == "postgresql"
    assert connection.settings_dict["NAME"].startswith("test_")


def test_celery_is_not_eager():
    assert settings.CELERY_TASK_ALWAYS_EAGER is False
    assert settings.CELERY_BROKER_URL.startswith("redis://")


def test_crosstable_pdf_task_runs_in_the_worker(celery_worker):
    t = _tournament_with_players()
    result = crosstable_pdf_task.delay(t.id, "tr")
    path = result.get(timeout=60)
    assert result.state == "SUCCESS"
    assert celery_worker.poll() is None  # the worker process is still up
    with open(path, "rb") as fh:
        data = fh.read()
    assert data.startswith(b"%PDF")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    assert "Servis Kupası" in text
    assert "Şahin" in text and "Öztürk" in text and "Çelik" in text


def test_export_crosstable_command_goes_through_the_worker(celery_worker, tmp_path):
    t = _tournament_with_players()
    out = tmp_path / "crosstable.pdf"
    call_command("export_crosstable", t.slug, output=str(out), lang="en", stdout=io.StringIO())
    assert out.read_bytes().startswith(b"%PDF")
    assert "Servis Kupası" in PdfReader(out).pages[0].extract_text()


def test_task_for_a_missing_tournament_fails_in_the_worker(celery_worker):
    result = crosstable_pdf_task.delay(987654321, "tr")
    with pytest.raises(Exception) as exc_info:
        result.get(timeout=60)
    assert result.state == "FAILURE"
    assert type(exc_info.value).__name__ == "DoesNotExist"


def test_crosstable_pdf_page_is_built_by_the_worker(celery_worker, client, django_user_model):
    t = _tournament_with_players()
    admin = django_user_model.objects.create_superuser("servis-admin", "admin@example.org", "x")
    client.force_login(admin)
    response = client.get(f"/t/{t.slug}/crosstable.pdf")
    assert response.status_code == 202  # queued: the web process never waits on the worker
    assert response["Retry-After"] == "2"
    deadline = time.monotonic() + 60
    while response.status_code == 202 and time.monotonic() < deadline:
        time.sleep(0.3)
        response = client.get(f"/t/{t.slug}/crosstable.pdf")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    data = b"".join(response.streaming_content)
    assert data.startswith(b"%PDF")
    assert "Servis Kupası" in PdfReader(io.BytesIO(data)).pages[0].extract_text()
