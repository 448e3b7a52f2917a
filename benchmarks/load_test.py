"""Load test of the production stack on one machine: the national championship day.

For each size (players / referees: 50/1, 300/10 and 1000/100 by default) this script

1. creates a fresh PostgreSQL database ``bench_load`` and migrates it with the production settings
   (``federation.settings.production`` through ``benchmarks/load/settings.py``, which only moves the
   static and media directories out of the checkout);
2. seeds a Swiss of P players through the project's services (``benchmarks/load/seed.py``): rounds 1..k
   played with three-set results, closed, standings published after round k, round k+1 paired and
   published; R referee accounts (the tournament's referee role) with API tokens;
3. starts the production stack: nginx (Debian's, ``docker/nginx/mangala.conf.template``: static files,
   gzip, the micro-cache of anonymous answers) in front of two gunicorn servers
   (``federation.wsgi:application``, 2 x cores + 1 sync workers in all unless ``--workers``; ``--front none``
   and ``--servers N`` change that), and a Celery worker (``-Q default,pdf,ratings,imports``) on Redis
   database 5;
4. runs locust headless (``benchmarks/load/locustfile.py``) in two phases:
   *hall* — R referees post the round's results through the API (each board once, 5 % corrected later
   with the version, 2 % sent twice), paced to finish in 60 % of the phase, while V viewers (200) poll
   ``live.json`` every 10 s with If-None-Match and open the standings or live page every 5-15 s;
   *saturation* — 40 closed-loop users without pauses (half correcting results with the version, half
   reading the three pages): the capacity of the stack;
5. checks from the database that every accepted result is stored once with its sets, that no board has
   a result nobody's request was accepted for, that the standings API and page and ``live.json`` equal
   a fresh computation — before and after the round is closed and the standings re-published through
   the API (a stale cache would show here), through the front once the live round's interval and the
   front's copy have passed (what the phones see), and directly from gunicorn — and that no response was
   a 5xx;
6. profiles one request of each kind (queries per request, ``CaptureQueriesContext``; cProfile of a result
   submission) and reports the CPU seconds gunicorn, PostgreSQL, locust and Celery used in each phase, and
   what the database sessions were doing (``pg_stat_activity`` sampled: running, waiting for a lock);
7. prints ``FIGURE`` lines (``benchmarks/_report.py``) and cleans up — processes, database, Redis db 5 —
   also on Ctrl-C or failure.

Targets (issue 22): views >= 500/s at saturation with p95 <= 50 ms; accepted results >= 50/s at
saturation with p95 <= 200 ms, none lost; standings page p95 <= 50 ms under the viewer load. On 2 cores with locust on the same machine the client and the server share the CPU; the
CPU table says who used it.

Usage::

    .venv/bin/python benchmarks/load_test.py               # 3 sizes, about 8 minutes (docs/performance.md)
    .venv/bin/python benchmarks/load_test.py --quick       # one small size, about 1-2 minutes
    .venv/bin/python benchmarks/load_test.py --sizes 300:10 --viewers 200 --duration 60
    .venv/bin/python benchmarks/load_test.py --sizes 300:0                 # viewers only: nothing is written
    .venv/bin/python benchmarks/load_test.py --workers 3 --conn-max-age 60 --keep

PostgreSQL (``BENCH_PG_URL``, default ``postgres://postgres@127.0.0.1:5432/postgres``) and Redis
(``BENCH_REDIS_URL``, default ``redis://127.0.0.1:6379/5``) must be reachable, else the script says so and
exits 0 (skipped). ``--json FILE`` writes every number measured.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks._report import figure  # noqa: E402

VENV_BIN = Path(sys.executable).parent
DB_NAME = "bench_load"
PG_ADMIN_URL = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/5")
REDIS_PREFIX = "bench:load"
SUBMIT_NAMES = ("POST result", "POST result (correction)", "POST result (same again)")
TARGET_SUBMIT_P95_MS = 200
TARGET_STANDINGS_P95_MS = 50
TARGET_THROUGHPUT = 500  # views/s at saturation through the production stack (issue 22)
TARGET_VIEW_P95_MS = 50
TARGET_RESULTS_PER_S = 50  # accepted results/s at saturation, p95 <= TARGET_SUBMIT_P95_MS


def say(text: str = "") -> None:
    print(text, flush=True)


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


# --------------------------------------------------------------------------------------------------
# Services: PostgreSQL, Redis
# --------------------------------------------------------------------------------------------------


def _db_url(name: str, conn_max_age: int | None = None) -> str:
    parts = urlsplit(PG_ADMIN_URL)
    query = f"conn_max_age={conn_max_age}" if conn_max_age is not None else ""
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", query, ""))


def unreachable() -> str | None:
    """Why PostgreSQL or Redis cannot be used (None: both answer)."""
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, connect_timeout=3) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # noqa: BLE001 - any failure means: skip
        return f"PostgreSQL at {PG_ADMIN_URL} is not reachable ({str(exc).strip().splitlines()[0] if str(exc) else exc.__class__.__name__})"
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3).ping()
    except Exception as exc:  # noqa: BLE001
        return f"Redis at {REDIS_URL} is not reachable ({exc})"
    return None


def pg_admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(sql)


def recreate_db() -> None:
    from django.db import connections

    connections.close_all()
    pg_admin(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
    pg_admin(f"CREATE DATABASE {DB_NAME}")


def drop_db() -> None:
    try:
        from django.db import connections

        connections.close_all()
    except Exception:  # noqa: BLE001 - Django may not be set up yet
        pass
    try:
        pg_admin(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
    except Exception as exc:  # noqa: BLE001
        say(f"  (could not drop {DB_NAME}: {exc})")


def redis_client():
    import redis

    return redis.Redis.from_url(REDIS_URL)


def flush_redis() -> None:
    try:
        redis_client().flushdb()
    except Exception as exc:  # noqa: BLE001
        say(f"  (could not flush {REDIS_URL}: {exc})")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --------------------------------------------------------------------------------------------------
# Processes we start (each in its own session, stopped by its process group id)
# --------------------------------------------------------------------------------------------------


class Procs:
    def __init__(self):
        self.running: dict[str, subprocess.Popen] = {}

    def start(self, name: str, cmd: list[str], env: dict, log: Path) -> subprocess.Popen:
        fh = open(log, "ab")
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=fh, stderr=subprocess.STDOUT, start_new_session=True)
        fh.close()
        self.running[name] = proc
        return proc

    def stop(self, name: str, timeout: float = 15) -> None:
        proc = self.running.pop(name, None)
        if proc is None or proc.poll() is not None:
            return
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=timeout)
        except (ProcessLookupError, PermissionError):
            pass
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait(timeout=5)

    def stop_all(self) -> None:
        for name in list(self.running):
            self.stop(name)


# --------------------------------------------------------------------------------------------------
# CPU accounting: who used the two cores during a phase
# --------------------------------------------------------------------------------------------------


def _tree_cpu(pid: int) -> float:
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0.0
    total = 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system
            if p is root:
                total += t.children_user + t.children_system
        except psutil.NoSuchProcess:
            pass
    return total


def _postmaster_pid() -> int | None:
    import psutil

    for p in psutil.process_iter(["name", "ppid", "cmdline"]):
        try:
            if p.info["name"] == "postgres" and any("-D" == a or a.startswith("-D") for a in p.info["cmdline"] or []):
                return p.pid
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return None


def cpu_snapshot(pids: dict[str, int]) -> dict:
    import psutil

    snap = {name: sum(_tree_cpu(p) for p in (pid if isinstance(pid, list) else [pid])) for name, pid in pids.items()}
    t = psutil.cpu_times()
    snap["_machine_busy"] = t.user + t.system + t.nice + getattr(t, "irq", 0) + getattr(t, "softirq", 0) + getattr(t, "steal", 0)
    snap["_wall"] = time.monotonic()
    return snap


def cpu_delta(before: dict, after: dict) -> dict:
    wall = after["_wall"] - before["_wall"]
    out = {k: max(0.0, after.get(k, 0) - before.get(k, 0)) for k in after if not k.startswith("_")}
    out["machine (all processes)"] = after["_machine_busy"] - before["_machine_busy"]
    out["_wall"] = wall
    return out


# --------------------------------------------------------------------------------------------------
# Request logs → statistics
# --------------------------------------------------------------------------------------------------


def pct(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    k = (len(sorted_values) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (k - lo)


def phase_stats(out_dir: Path, phase: str, ramp: float = 0.0) -> dict:
    """Per endpoint: count, failures, statuses, p50/p95/p99/max (exact, from every request), leaving out
    the requests started in the first ``ramp`` seconds (users still arriving); failures and 5xx count all."""
    everything = []
    for path in out_dir.glob(f"{phase}-requests-*.tsv"):
        for line in path.read_text().splitlines():
            parts = line.split("\t")
            if len(parts) == 5:
                everything.append((parts[0], float(parts[1]), int(parts[2]), float(parts[3]), int(parts[4])))
    if not everything:
        return {"endpoints": {}, "window": 0.0, "requests": 0}
    first = min(r[3] for r in everything)
    rows = [r for r in everything if r[3] >= first + ramp] or everything
    start = min(r[3] for r in rows)
    end = max(r[3] + r[1] / 1000 for r in rows)
    window = max(end - start, 1e-6)
    by: dict[str, list] = defaultdict(list)
    for r in rows:
        by[r[0]].append(r)
    by["result submissions (all)"] = [r for r in rows if r[0] in SUBMIT_NAMES]
    endpoints = {}
    for name, rs in by.items():
        if not rs:
            continue
        times = sorted(r[1] for r in rs)
        statuses = Counter(r[2] for r in rs)
        endpoints[name] = {
            "count": len(rs), "per_s": len(rs) / window, "failures": sum(r[4] for r in rs),
            "statuses": dict(sorted(statuses.items())), "p50": pct(times, 0.5), "p95": pct(times, 0.95),
            "p99": pct(times, 0.99), "max": times[-1], "mean": statistics.fmean(times),
            "5xx": sum(n for s, n in statuses.items() if s >= 500 or s == 0),
        }
    total = len(rows)
    return {
        "endpoints": endpoints, "window": window, "requests": total, "per_s": total / window,
        "ramp_left_out": len(everything) - len(rows), "all_requests": len(everything),
        "failures": sum(r[4] for r in everything), "5xx": sum(1 for r in everything if r[2] >= 500 or r[2] == 0),
        "accepted_submissions": sum(1 for r in rows if r[0] in SUBMIT_NAMES and 200 <= r[2] < 300),
    }


def print_table(stats: dict) -> None:
    say(f"    {'endpoint':<28} {'count':>7} {'req/s':>7} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}  statuses")
    for name, e in sorted(stats["endpoints"].items()):
        say(f"    {name:<28} {e['count']:>7} {e['per_s']:>7.1f} {e['p50']:>7.1f} {e['p95']:>7.1f} {e['p99']:>7.1f} "
            f"{e['max']:>7.0f}  {e['statuses']}")


# --------------------------------------------------------------------------------------------------
# One size
# --------------------------------------------------------------------------------------------------


def static_root() -> Path:
    """Where the collected static files are kept between runs (keyed on what goes into them)."""
    import django
    import rest_framework

    h = hashlib.sha256()
    for base in (ROOT / "static",):
        for p in sorted(base.rglob("*")):
            if p.is_file():
                st = p.stat()
                h.update(f"{p.relative_to(ROOT)}:{st.st_size}:{int(st.st_mtime)}".encode())
    h.update(f"{django.__version__}:{rest_framework.__version__}".encode())
    return Path(tempfile.gettempdir()) / f"mangala-bench-static-{h.hexdigest()[:12]}"


def ensure_static(env: dict) -> None:
    root = Path(env["BENCH_STATIC_ROOT"])
    if (root / "staticfiles.json").exists():
        return
    say(f"collecting static files into {root} (once; WhiteNoise's manifest for the production settings) ...")
    t0 = time.perf_counter()
    tmp = root.with_name(root.name + f".tmp{os.getpid()}")
    sub = dict(env, BENCH_STATIC_ROOT=str(tmp))
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=sub,
                   check=True)
    if root.exists():
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        tmp.rename(root)
    say(f"  collected in {time.perf_counter() - t0:.0f} s ({load()})")


def wait_http(url: str, timeout: float = 60) -> None:
    import urllib.request

    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status < 500:
                    return
        except Exception as exc:  # noqa: BLE001
            last = exc
        time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer in {timeout:.0f} s: {last}")


def run_locust(procs: Procs, env: dict, out: Path, phase: str, users: int, rate: float, seconds: int,
               host: str, processes: int, cpu_pids: dict, ramp: float = 0.0,
               classes: tuple[str, ...] = ()) -> tuple[dict, dict]:
    cmd = [str(VENV_BIN / "locust"), "-f", str(ROOT / "benchmarks/load/locustfile.py"), "--headless",
           "-u", str(users), "-r", f"{rate:g}", "-t", f"{seconds}s", "--host", host, "--csv", str(out / phase),
           "--only-summary", "--stop-timeout", "5", "--loglevel", "WARNING", "--exit-code-on-error", "0"]
    if processes > 1:
        cmd += ["--processes", str(processes)]
    cmd += list(classes)
    e = dict(env, BENCH_LOAD_PHASE=phase)
    before_load = os.getloadavg()
    proc = procs.start(f"locust-{phase}", cmd, e, out / f"locust-{phase}.log")
    import resource

    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    before = cpu_snapshot(cpu_pids)
    sampler = PgSampler()
    sampler.start()
    try:
        proc.wait(timeout=seconds + 120)
    except subprocess.TimeoutExpired:
        procs.stop(f"locust-{phase}")
        raise RuntimeError(f"locust ({phase}) did not stop in time; log: {out / f'locust-{phase}.log'}")
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)  # locust (and its forks) once it has exited
    drained = wait_drained(out / "gunicorn-access.log")
    sampler.stop()
    after = cpu_snapshot(cpu_pids)
    procs.running.pop(f"locust-{phase}", None)
    if proc.returncode not in (0, None):
        tail = (out / f"locust-{phase}.log").read_text(errors="replace")[-3000:]
        raise RuntimeError(f"locust ({phase}) exited with {proc.returncode}:\n{tail}")
    cpu = cpu_delta(before, after)
    cpu["locust"] = (ru1.ru_utime + ru1.ru_stime) - (ru0.ru_utime + ru0.ru_stime)
    cpu["_load_before"] = before_load
    cpu["_load_after"] = os.getloadavg()
    stats = phase_stats(out, phase, ramp)
    stats["served_after_stop"] = drained
    stats["exceptions"] = locust_exceptions(out / f"{phase}_exceptions.csv")
    stats["pg_activity"] = sampler.summary()
    say(f"    PostgreSQL sessions of {DB_NAME} (sampled every 0.25 s): {stats['pg_activity']['text']}")
    for count, msg in stats["exceptions"]:
        say(f"    locust user error ({count}x): {msg[:300]}")
    if drained:
        say(f"    gunicorn went on serving {drained} queued request(s) for a while after locust stopped")
    return stats, cpu


class PgSampler:
    """Samples ``pg_stat_activity`` of the run's database in a thread: how many sessions run a query, how
    many wait for a lock (and which), how many are idle in a transaction."""

    def __init__(self, every: float = 0.25):
        import threading

        self.every = every
        self.samples: list[list[tuple]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self):
        self._thread.start()

    def stop(self):
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self):
        import psycopg

        try:
            conn = psycopg.connect(PG_ADMIN_URL, autocommit=True)
        except Exception:  # noqa: BLE001
            return
        with conn:
            while not self._stop.is_set():
                try:
                    rows = conn.execute(
                        "SELECT state, coalesce(wait_event_type, ''), coalesce(wait_event, ''), "
                        "left(regexp_replace(query, '\\s+', ' ', 'g'), 60) FROM pg_stat_activity "
                        "WHERE datname = %s AND pid <> pg_backend_pid()", [DB_NAME]).fetchall()
                    self.samples.append(rows)
                except Exception:  # noqa: BLE001
                    pass
                self._stop.wait(self.every)

    def summary(self) -> dict:
        n = max(len(self.samples), 1)
        active = sum(sum(1 for r in s if r[0] == "active") for s in self.samples) / n
        lock = sum(sum(1 for r in s if r[0] == "active" and r[1] == "Lock") for s in self.samples) / n
        idle_tx = sum(sum(1 for r in s if (r[0] or "").startswith("idle in transaction")) for s in self.samples) / n
        waits = Counter(f"{r[1]}:{r[2]}" for s in self.samples for r in s if r[0] == "active" and r[1])
        lock_queries = Counter(r[3] for s in self.samples for r in s if r[0] == "active" and r[1] == "Lock")
        peak_lock = max((sum(1 for r in s if r[0] == "active" and r[1] == "Lock") for s in self.samples), default=0)
        text = (f"{active:.1f} running a query on average, {lock:.1f} of them waiting for a lock (peak {peak_lock}), "
                f"{idle_tx:.1f} idle in a transaction; waits: {dict(waits.most_common(4))}")
        if lock_queries:
            text += f"; waiting: {dict(lock_queries.most_common(2))}"
        return {"samples": len(self.samples), "active": active, "lock_waiting": lock, "lock_peak": peak_lock,
                "idle_in_transaction": idle_tx, "waits": dict(waits.most_common(8)),
                "lock_queries": dict(lock_queries.most_common(4)), "text": text}


def locust_exceptions(path: Path) -> list[tuple[int, str]]:
    """Errors raised inside the locust users (a fault of this script, not of the server)."""
    import csv

    if not path.exists():
        return []
    with open(path, newline="") as f:
        return [(int(r.get("Count") or 0), f"{r.get('Message', '')} {r.get('Traceback', '')[-400:]}")
                for r in csv.DictReader(f)]


def _lines(path: Path) -> int:
    try:
        with open(path, "rb") as f:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
    except FileNotFoundError:
        return 0


def wait_drained(access_log: Path, quiet: float = 2.0, timeout: float = 240) -> int:
    """Wait until gunicorn has answered every request still queued when locust stopped (its access log
    stops growing for ``quiet`` seconds); returns how many it answered meanwhile."""
    start = last = _lines(access_log)
    still = time.monotonic()
    deadline = still + timeout
    while time.monotonic() < deadline:
        time.sleep(0.5)
        n = _lines(access_log)
        if n != last:
            last, still = n, time.monotonic()
        elif time.monotonic() - still >= quiet:
            break
    return last - start


def print_cpu(cpu: dict, stats: dict) -> None:
    wall = cpu["_wall"]
    reqs = max(stats.get("all_requests", stats.get("requests", 0)) + stats.get("served_after_stop", 0), 1)
    parts = []
    for name in ("nginx", "gunicorn", "postgres (all databases)", "locust", "celery", "machine (all processes)"):
        if name in cpu:
            parts.append(f"{name} {cpu[name]:.1f} s ({cpu[name] / wall * 100:.0f} % of a core, "
                         f"{cpu[name] / reqs * 1000:.1f} ms/request)")
    say(f"    CPU over {wall:.0f} s: " + "; ".join(parts))
    say("    load average before {:.2f}/{:.2f}/{:.2f}, after {:.2f}/{:.2f}/{:.2f}".format(
        *cpu["_load_before"], *cpu["_load_after"]))


def scan_gunicorn_log(path: Path) -> list[str]:
    """Errors in a gunicorn log: tracebacks and worker trouble in gunicorn's own lines, and the
    application's log records of level ERROR or worse — JSON lines in production (``exc_info`` holds the
    traceback) or plain text lines."""
    if not path.exists():
        return []
    found = []
    lines = path.read_text(errors="replace").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("{"):
            try:
                rec = json.loads(line)
            except ValueError:
                rec = None
            if isinstance(rec, dict) and str(rec.get("level", "")).upper() in ("ERROR", "CRITICAL"):
                found.append(f"{rec.get('time', '')} {rec.get('level')} {rec.get('logger', '')}: {rec.get('message', '')}"
                             f" {json.dumps(rec.get('http')) if rec.get('http') else ''}\n{rec.get('exc_info') or ''}".rstrip())
            i += 1
            continue
        if line.startswith("Traceback") or "Internal Server Error" in line or "WORKER TIMEOUT" in line \
                or "[CRITICAL]" in line or " ERROR " in line or "[ERROR]" in line:
            block = [line]
            j = i + 1
            while j < len(lines) and not lines[j].startswith(("[", "{")) and not re.match(r"\d{4}-\d\d-\d\d", lines[j]):
                block.append(lines[j])
                j += 1
            found.append("\n".join(block))
            i = j
        else:
            i += 1
    return found


def run_size(args, players: int, referees: int, env: dict, work: Path, procs: Procs) -> dict:
    from django.core.management import call_command

    from benchmarks.load import seed as seeding
    from benchmarks.load import verify

    label = f"{players}p/{referees}r"
    out = work / f"size-{players}-{referees}"
    out.mkdir(parents=True, exist_ok=True)
    result: dict = {"players": players, "referees": referees, "viewers": args.viewers}
    say(f"\n== {players} players, {referees} referees, {args.viewers} viewers ({load()})")

    t0 = time.perf_counter()
    recreate_db()
    call_command("migrate", "--noinput", verbosity=0)
    say(f"  database {DB_NAME} created and migrated in {time.perf_counter() - t0:.1f} s")
    config = seeding.seed(players=players, referees=max(1, referees), played=args.rounds_played,
                          rounds_total=args.rounds_total, say=say)
    result["seed"] = {"seconds": config["seed_seconds"], "pair_seconds": config["pair_seconds"]}
    from django.db import connections

    connections.close_all()

    boards = [b for b, _w, _k in config["boards"]]
    r = redis_client()
    r.flushdb()
    random.Random(1).shuffle(boards)
    r.rpush(f"{REDIS_PREFIX}:boards", *boards)

    sat_writers = max(1, args.saturation_users // 2) if referees else 0
    classes = () if referees else ("Viewer",)  # 0 referees: viewers only (nothing invalidates the cache)
    pace = max(0.2, args.duration * 0.6 * referees / max(len(boards), 1))
    config.update({
        "redis_url": REDIS_URL, "redis_prefix": REDIS_PREFIX, "out_dir": str(out),
        "phases": {
            "hall": {"referees": referees, "referee_pace": pace, "poll_seconds": 10, "page_min": 5, "page_max": 15},
            "saturation": {"referees": sat_writers, "referee_pace": 0, "poll_seconds": 0, "page_min": 0,
                           "page_max": 0},
        },
    })
    config_path = out / "config.json"
    config_path.write_text(json.dumps(config))
    lenv = dict(env, BENCH_LOAD_CONFIG=str(config_path))

    workers = args.workers or (2 * (os.cpu_count() or 1) + 1)
    front = args.front == "nginx"
    servers = args.servers or (2 if front else 1)
    per_server = max(1, -(-workers // servers))
    ports = [args.port or free_port()] + [free_port() for _ in range(servers - 1)]
    gunicorns = []
    for i, port in enumerate(ports):
        # every server appends to one access log (wait_drained reads it); O_APPEND keeps the lines whole
        gcmd = [str(VENV_BIN / "gunicorn"), "federation.wsgi:application", "--bind", f"127.0.0.1:{port}",
                "--workers", str(per_server), "--threads", str(args.threads), "--timeout", "150",
                "--graceful-timeout", "30", "--keep-alive", "5", "--worker-tmp-dir", "/dev/shm",
                "--forwarded-allow-ips", "127.0.0.1",
                "--access-logfile", str(out / "gunicorn-access.log"),
                "--error-logfile", str(out / f"gunicorn-error{'' if i == 0 else i + 1}.log")]
        if args.max_requests:
            gcmd += ["--max-requests", str(args.max_requests), "--max-requests-jitter", str(args.max_requests // 10)]
        gunicorns.append(procs.start("gunicorn" if i == 0 else f"gunicorn-{i + 1}", gcmd, env,
                                     out / f"gunicorn-stdout{'' if i == 0 else i + 1}.log"))
    celery = procs.start("celery", [str(VENV_BIN / "celery"), "-A", "federation", "worker", "-Q",
                                    "default,pdf,ratings,imports", "-l", "warning", "--concurrency", "2"],
                         env, out / "celery.log")
    for port in ports:
        wait_http(f"http://127.0.0.1:{port}/t/{config['slug']}/live.json")
        for _ in range(per_server * 2):  # every worker has imported its code and opened its first pages
            for path in ("standings/", "live/", "live.json"):
                verify.http_get(f"http://127.0.0.1:{port}/t/{config['slug']}/{path}")
    cpu_pids = {"gunicorn": [g.pid for g in gunicorns], "celery": celery.pid}
    if front:
        from tests.nginx_front import Nginx

        nginx = Nginx(out / "nginx", [f"127.0.0.1:{p}" for p in ports], static_root=static_root(),
                      cache_seconds=args.front_seconds).start()
        procs.running["nginx"] = nginx.proc
        cpu_pids["nginx"] = nginx.proc.pid
        host = nginx.url
    else:
        host = f"http://127.0.0.1:{ports[0]}"
    direct = f"http://127.0.0.1:{ports[0]}"
    result["stack"] = {"front": args.front, "servers": servers, "workers_per_server": per_server}
    say(f"  {'nginx -> ' if front else ''}{servers} gunicorn server(s) x {per_server} "
        f"{'gthread x' + str(args.threads) if args.threads > 1 else 'sync'} workers, and celery, on {host} ({load()})")
    pm = _postmaster_pid()
    if pm:
        cpu_pids["postgres (all databases)"] = pm

    # --- phase 1: the hall --------------------------------------------------------------------------
    users = referees + args.viewers
    say(f"  hall: {referees} referees (a result every {pace:.1f} s each), {args.viewers} viewers, {args.duration} s ...")
    ramp = min(args.ramp, args.duration / 3)
    hall, hall_cpu = run_locust(procs, lenv, out, "hall", users, max(1.0, users / max(ramp, 1)), args.duration,
                                host, args.locust_processes, cpu_pids, ramp=ramp, classes=classes)
    say(f"    (users arrive over the first {ramp:.0f} s; the {hall.get('ramp_left_out', 0)} requests started then "
        f"are left out of the percentiles below)")
    print_table(hall)
    print_cpu(hall_cpu, hall)
    result["hall"] = {"stats": hall, "cpu": hall_cpu}

    # --- phase 2: saturation ------------------------------------------------------------------------
    from tournaments.models import Match

    versions = dict(Match.objects.filter(round__tournament__slug=config["slug"], round__number=config["round"],
                                         kind="game").values_list("board", "version"))
    connections.close_all()
    r.delete(f"{REDIS_PREFIX}:cycle")
    cycle = list(versions)
    random.Random(2).shuffle(cycle)
    r.rpush(f"{REDIS_PREFIX}:cycle", *cycle)
    r.hset(f"{REDIS_PREFIX}:version", mapping={b: v for b, v in versions.items()})
    r.set(f"{REDIS_PREFIX}:referee-index", 0)
    say(f"  saturation: {args.saturation_users} users without pauses ({sat_writers} correcting results, "
        f"the rest reading pages), {args.saturation_duration} s ...")
    sat, sat_cpu = run_locust(procs, lenv, out, "saturation", args.saturation_users, 100, args.saturation_duration,
                              host, args.locust_processes, cpu_pids, classes=classes)
    print_table(sat)
    print_cpu(sat_cpu, sat)
    result["saturation"] = {"stats": sat, "cpu": sat_cpu}

    # --- checks ---------------------------------------------------------------------------------------
    settle = _settle_seconds(args)
    say(f"  checking the database and the served pages (through {host}, after {settle:.0f} s: the live round's "
        f"rebuild interval and the front's copy) ...")
    time.sleep(settle)
    _refresh_front(host, config["slug"])
    sent = verify.load_submissions(out)
    problems, counts = verify.check_results(config, sent)
    result["results_check"] = counts
    p, info_a = verify.check_standings(host, config["slug"])
    problems += [f"(before closing) {x}" for x in p]
    problems += [f"(before closing) {x}" for x in verify.check_live(host, config["slug"])]
    result["profile"] = verify.profile_requests(config)
    problems += verify.finish_round(host, config, say=say)
    time.sleep(settle)  # a correction is visible within the interval: checked through the front
    _refresh_front(host, config["slug"])
    if host != direct:  # and the servers behind it answer the same at once, without the front
        p, _info = verify.check_standings(direct, config["slug"])
        problems += [f"(after closing, gunicorn directly) {x}" for x in p]
        problems += [f"(after closing, gunicorn directly) {x}" for x in verify.check_live(direct, config["slug"])]
    p, info_b = verify.check_standings(host, config["slug"])
    problems += [f"(after closing round {config['round']}) {x}" for x in p]
    problems += [f"(after closing) {x}" for x in verify.check_live(host, config["slug"])]
    result["standings_check"] = {"before": info_a, "after": info_b}
    say(f"  {counts['boards']} boards: {counts['with_result']} with a result after the load; {counts['sent']} "
        f"results sent, {counts['accepted']} accepted, {counts['refused']} refused, {counts['unanswered']} cut off "
        f"unanswered at the end of a phase ({counts['unanswered_stored']} of them stored by the server anyway), "
        f"{counts['double_taps']} double taps answered alike; "
        f"standings after round {info_a['rounds']} then {info_b['rounds']} compared row by row "
        f"({info_a['rows']} rows) with a fresh computation")

    for name in [n for n in list(procs.running) if n.startswith(("gunicorn", "nginx"))]:
        procs.stop(name)
    procs.stop("celery")
    errors = [e for log in sorted(out.glob("gunicorn-*.log")) if "access" not in log.name for e in scan_gunicorn_log(log)]
    result["server_errors"] = errors
    fivexx = hall.get("5xx", 0) + sat.get("5xx", 0)
    for phase, st_ in (("hall", hall), ("saturation", sat)):
        for count, msg in st_.get("exceptions", []):
            problems.append(f"locust users raised ({phase}, {count}x): {msg[:200]}")
    if fivexx:
        problems.append(f"{fivexx} responses were 5xx or connection errors")
    if errors:
        problems.append(f"{len(errors)} error(s) in gunicorn's log")
    result["problems"] = problems
    if problems:
        say("  PROBLEMS:")
        for x in problems[:40]:
            say(f"    - {x}")
        for e in errors[:5]:
            say("    gunicorn log:\n      " + e.replace("\n", "\n      "))
    else:
        say("  checks: every accepted result stored once with its sets, no unaccepted result, standings and "
            "live.json equal a fresh computation, no 5xx")

    say("  queries per request (one request in-process, Django test client):")
    for name, pr in result["profile"].items():
        top = pr["top"][0] if pr["top"] else ["", 0, ""]
        say(f"    {name:<22} {pr['queries']:>3} queries, {pr['db_ms']:6.1f} ms in the database of "
            f"{pr['wall_ms_median']:6.1f} ms (status {pr['status']}); slowest: {top[0]}x {top[1]} ms {top[2][:110]}")

    cp = result["profile"].get("POST result", {}).get("cprofile")
    if cp:
        say("  one result submission in-process (cProfile; cumulative ms, own ms, calls):")
        for ct, tt, nc, where in cp[:14]:
            say(f"    {ct:8.1f} {tt:8.1f} {nc:>6}  {where}")

    # --- figures --------------------------------------------------------------------------------------
    note = f"{load()}"
    he, se = hall["endpoints"], sat["endpoints"]
    sub = he.get("result submissions (all)")
    if sub:
        figure(f"load {label} hall: result submission p95", sub["p95"], "ms", target=TARGET_SUBMIT_P95_MS,
               note=f"p50 {sub['p50']:.0f}, p99 {sub['p99']:.0f} ms, n={sub['count']}; "
                    f"{_load_text(hall_cpu)}")
    st = he.get("GET standings page")
    if st:
        figure(f"load {label} hall: standings page p95", st["p95"], "ms", target=TARGET_STANDINGS_P95_MS,
               note=f"p50 {st['p50']:.0f}, p99 {st['p99']:.0f} ms, n={st['count']}; {_load_text(hall_cpu)}")
    for name in ("GET live page", "GET live.json"):
        e = he.get(name)
        if e:
            figure(f"load {label} hall: {name[4:]} p95", e["p95"], "ms",
                   note=f"p50 {e['p50']:.0f}, p99 {e['p99']:.0f} ms, n={e['count']}, statuses {e['statuses']}")
    figure(f"load {label} hall: throughput", hall.get("per_s", 0), "req/s",
           note=f"{hall.get('requests', 0)} requests in {hall.get('window', 0):.0f} s (paced by think times)")
    figure(f"load {label} saturation: throughput", sat.get("per_s", 0), "req/s", target=TARGET_THROUGHPUT,
           better="higher", note=f"{args.saturation_users} users, no pauses; {_load_text(sat_cpu)}")
    ssub = se.get("result submissions (all)")
    if ssub:
        figure(f"load {label} saturation: result submissions", ssub["count"] / max(sat["window"], 1e-6), "/s",
               target=TARGET_RESULTS_PER_S, better="higher",
               note=f"p50 {ssub['p50']:.0f}, p95 {ssub['p95']:.0f} ms with {sat_writers} writers")
        figure(f"load {label} saturation: result submission p95", ssub["p95"], "ms", target=TARGET_SUBMIT_P95_MS)
    sst = se.get("GET standings page")
    if sst:
        figure(f"load {label} saturation: standings page p95", sst["p95"], "ms", target=TARGET_VIEW_P95_MS,
               note=f"p50 {sst['p50']:.0f} ms, {sst['count'] / max(sat['window'], 1e-6):.0f}/s")
    served = sat.get("all_requests", 0) + sat.get("served_after_stop", 0)
    if served:
        server_ms = (sat_cpu.get("gunicorn", 0) + sat_cpu.get("postgres (all databases)", 0)
                     + sat_cpu.get("nginx", 0)) / served * 1000
        result["server_cpu_ms_per_request"] = server_ms
        figure(f"load {label} saturation: server CPU per request", server_ms, "ms",
               note=f"nginx {sat_cpu.get('nginx', 0) / served * 1000:.1f} + gunicorn "
                    f"{sat_cpu.get('gunicorn', 0) / served * 1000:.1f} + PostgreSQL "
                    f"{sat_cpu.get('postgres (all databases)', 0) / served * 1000:.1f} ms, the saturation mix")
        cores = os.cpu_count() or 1
        figure(f"load {label}: capacity from CPU cost, {cores} free cores", cores * 1000 / server_ms, "req/s",
               target=TARGET_THROUGHPUT, better="higher",
               note="estimate: the cores / server CPU per request, nothing else running")
    figure(f"load {label}: failed requests", hall.get("failures", 0) + sat.get("failures", 0), "", target=0,
           digits=0)
    figure(f"load {label}: 5xx responses", fivexx, "", target=0, digits=0)
    figure(f"load {label}: problems found by the checks", len(problems), "", target=0, digits=0, note=note)
    return result


def _refresh_front(host: str, slug: str) -> None:
    """Ask once for what the checks read, then wait a second: nginx answers the first reader after its copy
    expired with that copy while it fetches the new one (proxy_cache_background_update), so the
    correction reaches the second reader."""
    from benchmarks.load import verify

    for path in (f"/api/tournaments/{slug}/standings/?lang=tr", f"/t/{slug}/standings/", f"/t/{slug}/live.json"):
        verify.http_get(f"{host}{path}")
    time.sleep(1.0)


def _settle_seconds(args) -> float:
    """Seconds after a write until every reader sees it: the live round's rebuild interval
    (LIVE_RECOMPUTE_SECONDS) plus, behind nginx, the front's copy (its interval and the second nginx's
    cache times round up to), and one for the clocks."""
    from django.conf import settings

    live = float(getattr(settings, "LIVE_RECOMPUTE_SECONDS", 3))
    proxy = float(getattr(settings, "PUBLIC_PAGE_PROXY_SECONDS", 3)) + 1 if args.front == "nginx" else 0.0
    return live + proxy + 1


def _load_text(cpu: dict) -> str:
    return "load {:.1f}->{:.1f}".format(cpu["_load_before"][0], cpu["_load_after"][0])


def _nginx_present() -> bool:
    return bool(shutil.which("nginx") or os.access("/usr/sbin/nginx", os.X_OK))


def parse_sizes(text: str) -> list[tuple[int, int]]:
    out = []
    for part in text.split(","):
        p, _, r = part.strip().partition(":")
        out.append((int(p), int(r or max(1, int(p) // 10))))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="50:1,300:10,1000:100", help="players:referees,... (default %(default)s)")
    ap.add_argument("--quick", action="store_true", help="one small size, short phases: checks that the script works")
    ap.add_argument("--viewers", type=int, default=200)
    ap.add_argument("--duration", type=int, default=45, help="seconds of the hall phase (default %(default)s)")
    ap.add_argument("--ramp", type=float, default=10.0,
                    help="seconds over which the hall's users arrive (left out of its percentiles; default 10)")
    ap.add_argument("--saturation-duration", type=int, default=15)
    ap.add_argument("--saturation-users", type=int, default=40)
    ap.add_argument("--rounds-played", type=int, default=3, help="rounds played before the measured one (3)")
    ap.add_argument("--rounds-total", type=int, default=7)
    ap.add_argument("--workers", type=int, default=0, help="gunicorn workers (default 2 x cores + 1)")
    ap.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker (gthread when > 1)")
    ap.add_argument("--max-requests", type=int, default=1000,
                    help="gunicorn --max-requests (jitter a tenth), as docker/entrypoint.sh (0: never restart)")
    ap.add_argument("--conn-max-age", type=int, default=None,
                    help="CONN_MAX_AGE through DATABASE_URL (default: none, as production: a connection per request)")
    ap.add_argument("--locust-processes", type=int, default=1)
    ap.add_argument("--port", type=int, default=0, help="the first gunicorn server's port (default: a free one)")
    ap.add_argument("--front", choices=("nginx", "none"), default="nginx" if _nginx_present() else "none",
                    help="nginx (Debian's, docker/nginx/mangala.conf.template) in front of the gunicorn servers, as "
                         "in production (default when /usr/sbin/nginx exists), or none")
    ap.add_argument("--servers", type=int, default=0, help="gunicorn servers behind the front (default 2; 1 without)")
    ap.add_argument("--front-seconds", type=int, default=3, help="the front's micro-cache interval (default 3)")
    ap.add_argument("--keep", action="store_true", help="keep the database, Redis db and the logs for inspection")
    ap.add_argument("--json", type=Path, help="write every measured number to this file")
    args = ap.parse_args(argv)
    if args.quick:
        args.sizes = "50:2"
        args.viewers = min(args.viewers, 50)
        args.duration = min(args.duration, 15)
        args.saturation_duration = min(args.saturation_duration, 8)
        args.saturation_users = min(args.saturation_users, 20)
        args.rounds_played = min(args.rounds_played, 2)
    sizes = parse_sizes(args.sizes)

    why = unreachable()
    if why:
        say(f"load_test: SKIPPED — {why}. Start PostgreSQL and Redis (or set BENCH_PG_URL / BENCH_REDIS_URL).")
        return 0
    for tool in ("gunicorn", "locust", "celery"):
        if not (VENV_BIN / tool).exists():
            say(f"load_test: SKIPPED — {VENV_BIN / tool} is missing (pip install -e '.[bench]').")
            return 0

    work = Path(tempfile.mkdtemp(prefix="mangala-load-"))
    env = dict(os.environ)
    env.update({
        "DJANGO_SETTINGS_MODULE": "benchmarks.load.settings",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_SECURE_COOKIES": "false",
        "DJANGO_SECURE_HSTS_SECONDS": "0",
        "API_THROTTLE_ENABLED": "false",
        "API_THROTTLE_ANON": "100000/min",
        "API_THROTTLE_USER": "100000/min",
        "DATABASE_URL": _db_url(DB_NAME, args.conn_max_age),
        "REDIS_URL": REDIS_URL,
        "CACHE_KEY_PREFIX": "bench-load",
        "DJANGO_LOG_LEVEL": "WARNING",
        "BENCH_VAR_DIR": str(work),
        "PYTHONPATH": str(ROOT) + (os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else ""),
        "PYTHONUNBUFFERED": "1",
    })
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    env["BENCH_STATIC_ROOT"] = str(static_root())
    os.environ.update(env)

    procs = Procs()

    def on_term(signum, frame):
        raise KeyboardInterrupt

    # Ctrl-C, kill and a closed terminal all end in the cleanup below (SIGINT explicitly: a run started in
    # the background by a shell inherits it ignored)
    old_handlers = {sig: signal.signal(sig, on_term) for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    results = []
    status = 0
    try:
        ensure_static(env)
        import django

        django.setup()
        say(f"load test: sizes {sizes}, {args.viewers} viewers, hall {args.duration} s, saturation "
            f"{args.saturation_duration} s x {args.saturation_users} users; {os.cpu_count()} cores; {load()}")
        for players, referees in sizes:
            res = run_size(args, players, referees, env, work, procs)
            results.append(res)
            if res["problems"]:
                status = 1
            procs.stop_all()
        summary(results)
    except KeyboardInterrupt:
        say("\ninterrupted: cleaning up")
        status = 130
    except Exception:
        import traceback

        traceback.print_exc()
        status = 1
        for log in sorted(work.glob("size-*/gunicorn-*.log"))[-3:]:
            errors = scan_gunicorn_log(log)
            say(f"last errors in {log}:" if errors else f"tail of {log}:")
            say("\n".join(errors[-3:]) if errors else log.read_text(errors="replace")[-3000:])
    finally:
        procs.stop_all()
        if args.json:
            args.json.write_text(json.dumps(results, indent=1, default=str))
        if args.keep:
            say(f"kept: database {DB_NAME}, Redis {REDIS_URL}, logs in {work}")
        else:
            drop_db()
            flush_redis()
            if status in (0, 130):
                shutil.rmtree(work, ignore_errors=True)
            else:
                say(f"logs kept for inspection in {work}")
        for sig, handler in old_handlers.items():
            signal.signal(sig, handler)
    return status


def summary(results: list[dict]) -> None:
    if len(results) < 2:
        return
    say("\nhow the figures grow with size (hall phase p95 ms; saturation req/s):")
    say(f"  {'size':<14} {'submit p95':>11} {'standings p95':>14} {'live p95':>9} {'live.json p95':>14} "
        f"{'sat req/s':>10} {'sat submit/s':>13}")
    for r in results:
        he = r["hall"]["stats"]["endpoints"]
        se = r["saturation"]["stats"]["endpoints"]
        sat = r["saturation"]["stats"]

        def g(d, k):
            return d.get(k, {}).get("p95", float("nan"))

        subs = se.get("result submissions (all)", {}).get("count", 0) / max(sat.get("window", 1), 1e-6)
        say(f"  {str(r['players']) + 'p/' + str(r['referees']) + 'r':<14} {g(he, 'result submissions (all)'):>11.0f} "
            f"{g(he, 'GET standings page'):>14.0f} {g(he, 'GET live page'):>9.0f} {g(he, 'GET live.json'):>14.0f} "
            f"{sat.get('per_s', 0):>10.0f} {subs:>13.0f}")


if __name__ == "__main__":
    sys.exit(main())
