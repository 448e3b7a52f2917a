"""Test settings: same as the embedded default, fast password hashing, no external calls."""
from .base import *  # noqa: F401,F403
from .base import CELERY_BROKER_TRANSPORT_OPTIONS, VAR_DIR, env

VAR_DIR.mkdir(exist_ok=True)
(VAR_DIR / "static").mkdir(exist_ok=True)
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Login lockout and API throttles are off here so that tests do not lock each other out; the tests
# of those features turn them on with override_settings(AXES_ENABLED=True / API_THROTTLE_ENABLED=True).
AXES_ENABLED = False
API_THROTTLE_ENABLED = False
# The pages of the round being played follow every result at once here (no rate limit), so a test reads
# what it just wrote; tests/federation/test_pagecache.py and tests/tournaments/test_page_cache.py turn the
# interval on with override_settings(LIVE_RECOMPUTE_SECONDS=...).
LIVE_RECOMPUTE_SECONDS = 0.0

# Test-only knobs, set in the environment of a worker that tests/services/test_crash_recovery.py starts
# (federation/jobs.py): a PDF or rating job waits TEST_TASK_DELAY seconds before working, a record import
# TEST_RECORD_DELAY seconds after each record, so the worker can be killed half-way through; the JSON
# in TEST_BROKER_TRANSPORT_OPTIONS is merged into the broker transport options (a short visibility timeout).
TEST_TASK_DELAY = env.float("TEST_TASK_DELAY", default=0.0)
TEST_RECORD_DELAY = env.float("TEST_RECORD_DELAY", default=0.0)
CELERY_BROKER_TRANSPORT_OPTIONS = {
    **CELERY_BROKER_TRANSPORT_OPTIONS, **env.json("TEST_BROKER_TRANSPORT_OPTIONS", default={})
}

# Each test process keeps its cache in memory, emptied before every test (tests/conftest.py): tests
# re-use primary keys and versions (rolled-back transactions), so a shared Redis cache would hand one
# test another's standings. The Redis backend itself is tested in tests/services/test_cache.py.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "TIMEOUT": 6 * 3600}}

# A second alias of the test database, for tests/federation/test_db_router.py (public reads from a read
# replica, federation/db_router.py): the same database through a second connection (TEST MIRROR: no
# database of its own is created). No router is installed here, so nothing else ever uses it.
from .base import DATABASES  # noqa: E402

DATABASES["replica"] = {**DATABASES["default"], "TEST": {"MIRROR": "default"}}
