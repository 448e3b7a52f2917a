"""Production settings for the load test, unchanged but for where files go.

``federation.settings.production`` as deployed (PostgreSQL, Redis, Celery, DEBUG off, token auth),
with ``STATIC_ROOT`` (``BENCH_STATIC_ROOT``: the hashed static files ``collectstatic`` makes for
WhiteNoise's manifest, kept between runs) and ``MEDIA_ROOT`` (``BENCH_VAR_DIR``/media: any PDF the run
makes) moved out of the checkout's ``var/``. Everything else comes from the environment exactly as in
production.
"""
import os
from pathlib import Path

from federation.settings.production import *  # noqa: F401,F403

if os.environ.get("BENCH_STATIC_ROOT"):
    STATIC_ROOT = Path(os.environ["BENCH_STATIC_ROOT"])
if os.environ.get("BENCH_VAR_DIR"):
    MEDIA_ROOT = Path(os.environ["BENCH_VAR_DIR"]) / "media"
