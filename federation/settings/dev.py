"""Embedded default: SQLite in ``var/``, Celery eager unless a broker is configured, DEBUG on."""
from .base import *  # noqa: F401,F403
from .base import VAR_DIR, env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
VAR_DIR.mkdir(exist_ok=True)
(VAR_DIR / "static").mkdir(exist_ok=True)
