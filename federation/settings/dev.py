"""Embedded default (``make run``): SQLite in ``var/``, Celery eager unless a broker is configured.

DEBUG is off: ``make run`` is what a federation serves in the hall, so errors show the site's own
translated pages (templates/403.html, 404.html, 500.html), never Django's debug page with its settings
and tracebacks. Developers who want the debug page set ``DJANGO_DEBUG=true``. Static files are served by
WhiteNoise straight from the app folders (no ``collectstatic`` needed, changes picked up at once).
"""
from .base import *  # noqa: F401,F403
from .base import VAR_DIR, env

DEBUG = env.bool("DJANGO_DEBUG", default=False)
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
VAR_DIR.mkdir(exist_ok=True)
(VAR_DIR / "static").mkdir(exist_ok=True)
