"""With the broker (and result store) unreachable, a PDF request answers 503 within a second or two —
Celery's default of 20 reconnection attempts a second apart held it 20 s (issue 12 trial). Run in a
subprocess: the app's broker and result backend are fixed when Celery first connects."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

BUILD = """
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from tests.tournaments.conftest import build_completed_tournament
print("SLUG", build_completed_tournament().slug)
"""

GET = """
import logging, sys, time
import django
django.setup()
from django.test import Client
logging.disable(logging.CRITICAL)
started = time.monotonic()
response = Client().get(f"/t/{sys.argv[1]}/crosstable.pdf")
print("RESULT", response.status_code, round(time.monotonic() - started, 2))
"""


def _run(code: str, env: dict, *args: str, cwd: Path) -> str:
    out = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def test_a_pdf_request_with_the_broker_down_answers_503_at_once(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND")}
    env.update(DJANGO_SETTINGS_MODULE="federation.settings.test", DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
               PYTHONPATH=str(REPO_ROOT))
    slug = _run(BUILD, env, cwd=tmp_path).split("SLUG", 1)[1].split()[0]  # built in the eager mode
    env["REDIS_URL"] = "redis://127.0.0.1:9/0"  # then a broker nothing listens for (refused at once)
    line = next(ln for ln in _run(GET, env, slug, cwd=tmp_path).splitlines() if ln.startswith("RESULT"))
    _, status, seconds = line.split()
    assert status == "503" and float(seconds) < 5.0, line
