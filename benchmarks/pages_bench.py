"""Benchmark: public pages of a big completed Swiss, cold (empty cache) and warm (cached per version).

Targets (issue 12, 300 players x 9 rounds): standings page p95 <= 50 ms warm with <= 10 queries,
crosstable page p95 <= 50 ms warm and <= 150 ms cold. Also measured at 50 and 1000 players (how it
grows), live.json and the standings API. Requests go through Django's test client in this process
(middleware, view, template: everything but the HTTP server; benchmarks/load_test.py measures through
gunicorn under load). The event is the generated TRF of ``pdf_bench.py`` (withdrawals, half-point
byes, forfeits), imported into a temporary SQLite database (or ``DATABASE_URL``'s when given with
``--database-url``), with the process's in-memory cache.

Usage: python benchmarks/pages_bench.py [--sizes 50 300 1000] [--repeat 30]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from _report import figure  # noqa: E402
from pdf_bench import build_event, setup_django  # noqa: E402

WARM_TARGET_MS = 50.0
CROSSTABLE_COLD_TARGET_MS = 150.0
QUERY_TARGET = 10


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, int(round(0.95 * len(ordered))) - 1)]


def measure(client, path: str, repeat: int) -> tuple[float, list[float], int]:
    """(cold ms, warm ms list, queries warm) of GET ``path``: cold is the median CPU time of 5 gets each
    after the cache was emptied (after one first get that compiles templates; CPU, not wall time: the
    SQLite database works in this process, and a machine busy with other work would inflate the wall
    time), warm the wall times of ``repeat`` gets after that."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    response = client.get(path)  # the process's first request of this page: imports, template compiling
    assert response.status_code == 200, (path, response.status_code)
    colds = []
    for _ in range(5):
        cache.clear()
        t0 = time.process_time()
        client.get(path)
        colds.append((time.process_time() - t0) * 1000)
    cold = statistics.median(colds)
    warm = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        client.get(path)
        warm.append((time.perf_counter() - t0) * 1000)
    with CaptureQueriesContext(connection) as ctx:
        client.get(path)
    return cold, warm, len(ctx.captured_queries)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 300, 1000])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pages-bench-") as tmp:
        setup_django(Path(tmp))
        from django.test import Client

        for n in args.sizes:
            t = build_event(n)
            client = Client()
            pages = [
                ("standings page", f"/t/{t.slug}/standings/"),
                ("crosstable page", f"/t/{t.slug}/crosstable/"),
                ("live.json", f"/t/{t.slug}/live.json"),
                ("standings API", f"/api/tournaments/{t.slug}/standings/"),
            ]
            for label, path in pages:
                cold, warm, queries = measure(client, path, args.repeat)
                main_size = n == 300
                figure(f"{label}, {n} players x 9 rounds, cold (CPU)", cold, "ms",
                       target=CROSSTABLE_COLD_TARGET_MS if main_size and label == "crosstable page" else None)
                figure(f"{label}, {n} players, warm p50", statistics.median(warm), "ms")
                figure(f"{label}, {n} players, warm p95", p95(warm), "ms",
                       target=WARM_TARGET_MS if main_size and label in ("standings page", "crosstable page") else None)
                figure(f"{label}, {n} players, queries warm", queries, "queries",
                       target=QUERY_TARGET if label == "standings page" else None, digits=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
