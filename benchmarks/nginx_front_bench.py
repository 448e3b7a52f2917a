"""What one request answered by the nginx micro-cache costs (docker/nginx/mangala.conf.template).

Debian's nginx with the project's template in front of a stub upstream that answers a live.json-sized body
(500 boards, ~132 KB of JSON; the stub is not what is measured). After one MISS fills the cache, N requests
are HITs; the nginx worker's CPU time (``/proc/<pid>/stat``) over them gives the CPU per HIT, without and with
gzip (nginx compresses the cached body for each client that accepts gzip). The yardstick, measured in the
same run: zlib at nginx's level (5) compressing the same body in this process — the part of a gzip HIT that
grows with the body. docs/operations.md "Past one machine" reasons from these figures: at 10x and 100x a
national final, what the front costs per core.

Usage: ``.venv/bin/python benchmarks/nginx_front_bench.py [--requests 3000]``; skipped (exit 0) without nginx.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time
import zlib
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._report import figure  # noqa: E402


def live_body(boards: int = 500) -> bytes:
    """A JSON body shaped like live.json of a 1000-player round (Turkish names, sets, versions)."""
    rng = random.Random(1)
    rows = [{"board": i, "white": {"name": f"Oyuncu {rng.randint(1, 999)} Soyadıoğlu", "start_no": i,
                                   "club": "İstanbul Mangala Kulübü"},
             "black": {"name": f"Oyuncu {rng.randint(1, 999)} Şahin", "start_no": i + boards,
                       "club": "Ankara Zeka Oyunları SK"},
             "result": "1-0", "sets": [[30, 18], [26, 22]], "version": rng.randint(1, 4)} for i in range(1, boards + 1)]
    return json.dumps({"round": 4, "boards": rows}, ensure_ascii=False).encode()


BODY = live_body()


class Upstream(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        self.wfile.write(BODY)


def worker_cpu_seconds(master_pid: int) -> float:
    """User + system CPU seconds of nginx's worker processes (children of the master)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master_pid:  # ppid
            total += (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    return total


def hammer(url_port: int, path: str, headers: dict, n: int, threads: int = 4) -> float:
    """``n`` GETs over ``threads`` keep-alive connections; returns the wall seconds."""
    def run(count: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", url_port, timeout=30)
        for _ in range(count):
            conn.request("GET", path, headers=headers)
            resp = conn.getresponse()
            resp.read()
            assert resp.status == 200 and resp.headers.get("X-Cache-Status") == "HIT", resp.headers
        conn.close()

    t0 = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(run, [n // threads] * threads))
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--requests", type=int, default=3000)
    args = ap.parse_args()
    if not (shutil.which("nginx") or os.access("/usr/sbin/nginx", os.X_OK)):
        print("nginx_front_bench: SKIPPED — nginx is not installed (apt-get install -y nginx; make nginx)")
        return 0
    from tests.nginx_front import Nginx  # the tests' runner: the template rendered, nginx in the foreground

    server = ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    prefix = Path(tempfile.mkdtemp(prefix="mangala-nginx-bench-"))
    nginx = Nginx(prefix, [f"127.0.0.1:{server.server_address[1]}"], cache_seconds=3600)
    nginx.start()
    try:
        path = "/t/final/live.json"
        plain = {"Accept-Language": "tr"}
        gz = {"Accept-Language": "tr", "Accept-Encoding": "gzip"}
        conn = http.client.HTTPConnection("127.0.0.1", nginx.port)
        conn.request("GET", path, headers=plain)
        first = conn.getresponse()
        first.read()
        assert first.headers["X-Cache-Status"] == "MISS"
        conn.request("GET", path, headers=gz)
        zipped = conn.getresponse()
        gz_size = len(zipped.read())
        conn.close()
        results = {}
        for name, headers in (("identity", plain), ("gzip", gz)):
            hammer(nginx.port, path, headers, 200)  # warm
            c0 = worker_cpu_seconds(nginx.proc.pid)
            wall = hammer(nginx.port, path, headers, args.requests)
            c1 = worker_cpu_seconds(nginx.proc.pid)
            results[name] = ((c1 - c0) / args.requests * 1000, args.requests / wall)
        t0 = time.process_time()
        for _ in range(100):
            c = zlib.compressobj(5, zlib.DEFLATED, 31)
            c.compress(BODY)
            c.flush()
        zlib_ms = (time.process_time() - t0) / 100 * 1000
    finally:
        nginx.stop()
        server.shutdown()
        shutil.rmtree(prefix, ignore_errors=True)
    load = "load {:.1f}".format(os.getloadavg()[0])
    print(f"body {len(BODY) / 1024:.0f} KB, gzipped {gz_size / 1024:.1f} KB; {args.requests} HITs each; {load}")
    kb = f"{len(BODY) / 1024:.0f} KB JSON"
    figure(f"nginx CPU per cached answer, {kb}, identity", results["identity"][0], "ms",
           note=f"{results['identity'][1]:.0f} req/s from a Python client on 4 connections")
    figure(f"nginx CPU per cached answer, {kb}, gzip level 5", results["gzip"][0], "ms",
           note=f"{results['gzip'][1]:.0f} req/s")
    figure("zlib level 5 of the same body in Python (yardstick)", zlib_ms, "ms")
    figure("gzip HIT / zlib yardstick", results["gzip"][0] / zlib_ms, "x", digits=2)
    figure("cached gzip answers per nginx core", 1000 / results["gzip"][0], "req/s", better="higher")
    return 0


if __name__ == "__main__":
    sys.exit(main())
