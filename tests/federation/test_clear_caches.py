"""``manage.py clear_caches`` (after a restore): the site's cache keys and, with --pdfs, the PDF files —
never anything else in the same Redis (the Celery queues may live there)."""
from __future__ import annotations

import os
from io import StringIO

import pytest
from django.core.cache import caches
from django.core.management import call_command
from django.test import override_settings


def test_in_memory_cache_and_pdf_files(tmp_path, settings):
    settings.MEDIA_ROOT = str(tmp_path)
    (tmp_path / "crosstables").mkdir()
    (tmp_path / "crosstables" / "7-acik-v3-tr-l2.pdf").write_bytes(b"%PDF-")
    (tmp_path / "uploads").mkdir()
    (tmp_path / "uploads" / "keep.txt").write_text("not a cached PDF")
    caches["default"].set("t:1:standings-html:7:3:p:tr", "<table>")
    out = StringIO()
    call_command("clear_caches", "--pdfs", stdout=out)
    assert caches["default"].get("t:1:standings-html:7:3:p:tr") is None
    assert not (tmp_path / "crosstables").exists() and (tmp_path / "uploads" / "keep.txt").exists()
    assert "PDFs: 1 files deleted" in out.getvalue()


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (a Redis server)")
def test_redis_only_the_sites_keys():
    import redis

    url = os.environ["REDIS_URL"]
    other = redis.Redis.from_url(url)
    other.set("celery-queue-lookalike-clear-caches-test", b"job")
    config = {"default": {"BACKEND": "federation.cache.ResilientRedisCache", "LOCATION": url,
                          "KEY_PREFIX": "clear-caches-test"}}
    try:
        with override_settings(CACHES=config):
            cache = caches["default"]
            for i in range(1500):  # more than one SCAN batch
                cache.set(f"k{i}", i)
            out = StringIO()
            call_command("clear_caches", stdout=out)
            assert "cache: 1500 keys deleted" in out.getvalue()
            assert cache.get("k1") is None
        assert other.get("celery-queue-lookalike-clear-caches-test") == b"job"
    finally:
        other.delete("celery-queue-lookalike-clear-caches-test")
        other.close()
