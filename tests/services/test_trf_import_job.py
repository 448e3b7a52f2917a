"""Service-backed mode: a TRF file of more than 2,000 players is imported by the real Celery worker
(``tournaments.import_trf``) while the API answers at once (202) and reports the progress.

Skipped unless DATABASE_URL (PostgreSQL) and REDIS_URL are set (tests/conftest.py).
"""
from __future__ import annotations

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.factories import organiser
from tournaments.models import Tournament

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _big_file(n: int) -> bytes:
    lines = ["012 Servis Büyük Açık", "092 Individual: Swiss-System"] + [
        f"001 {k:>4} m    Servis, Oyuncu {k:<18} 1500 TUR {700000 + k:>11}             0.0" for k in range(1, n + 1)
    ]
    return "\n".join(lines).encode("utf-8")


def test_a_big_trf_file_is_imported_by_the_worker_with_progress(celery_worker):
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(organiser(username="servis-trf"))
    upload = SimpleUploadedFile("servis.trf", _big_file(2001), content_type="text/plain")
    started = time.monotonic()
    r = client.post("/api/tournaments/import-trf/", {"file": upload}, format="multipart")
    assert r.status_code == 202, r.content[:300]
    assert r.json()["status"] == "queued" and time.monotonic() - started < 5  # the request did not import
    seen = []
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        body = client.get(r.json()["status_url"]).json()
        seen.append((body["status"], body["progress"]))
        if body["status"] in ("done", "failed"):
            break
        time.sleep(0.2)
    assert body["status"] == "done", body
    assert celery_worker is None or celery_worker.poll() is None
    assert Tournament.objects.get(slug=body["slug"]).entries.count() == 2001
    assert any(status == "running" and 1 < progress < 100 for status, progress in seen), seen
