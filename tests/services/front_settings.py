"""Settings of the gunicorn servers of tests/services/test_nginx_front.py: the production settings as the
load test runs them (``benchmarks.load.settings``: static files and media out of the checkout), with
Django's ManifestStaticFilesStorage instead of WhiteNoise's compressing one. The hashed names, the manifest
and the URLs are the same; only the ``.gz`` copies are missing, whose making costs ~40 s of CPU for the
~1,000 files (the test writes the one it checks itself, so nginx's gzip_static is still exercised).
"""
from benchmarks.load.settings import *  # noqa: F401,F403
from benchmarks.load.settings import STORAGES

STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"}}
