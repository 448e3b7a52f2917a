"""Run Debian's nginx (``/usr/sbin/nginx``) with docker/nginx/mangala.conf.template for a test.

:func:`nginx_binary` finds nginx or skips the test (fails under ``CI=true``: ``.ci/run`` installs it);
:func:`render` fills in the template's ``${MANGALA_*}`` values as ``docker/nginx/render.sh`` does (envsubst
with that list only); :class:`Nginx` starts it as a foreground child process (``daemon off``) on a loopback
port with a prefix, logs, cache and temp folders of its own, and stops it by its process id.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = REPO_ROOT / "docker" / "nginx" / "mangala.conf.template"
PLACEHOLDER = re.compile(r"\$\{(MANGALA_[A-Z_]+)\}")


def nginx_binary() -> str:
    """Path of the nginx executable; skips the test when there is none (fails under CI=true)."""
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    if found:
        return found
    reason = "nginx is not installed (apt-get install -y nginx; `make nginx` does it as root)"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{reason}; .ci/run should have installed it", pytrace=False)
    pytest.skip(reason)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float, proc: subprocess.Popen | None = None, log: Path | None = None) -> None:
    """Wait until 127.0.0.1:``port`` accepts connections; fail with ``log``'s tail if ``proc`` dies."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            tail = log.read_text(errors="replace")[-3000:] if log and log.exists() else ""
            pytest.fail(f"{proc.args[0]} exited with {proc.returncode} before listening on {port}:\n{tail}",
                        pytrace=False)
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    pytest.fail(f"nothing listens on 127.0.0.1:{port} after {timeout:.0f} s", pytrace=False)


def render(values: dict[str, str], template: Path = TEMPLATE) -> str:
    """The template with every ``${MANGALA_*}`` replaced from ``values`` (KeyError naming a missing one)."""
    text = template.read_text()
    missing = sorted(set(PLACEHOLDER.findall(text)) - set(values))
    if missing:
        raise KeyError(f"no value for {', '.join(missing)}")
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], text)


class Nginx:
    """nginx in the foreground with the rendered template on ``127.0.0.1:<port>``, under ``prefix``.

    ``upstreams``: ``host:port`` of the servers behind it; ``static_root``: the folder served at /static/;
    ``cache_seconds``: the micro-cache interval; ``real_ip_from``: the proxy whose X-Forwarded-For nginx
    believes (127.0.0.1: the test's own requests count as coming through a proxy). ``stop()`` ends it (SIGQUIT, then SIGKILL).
    """

    def __init__(self, prefix: Path, upstreams: list[str], *, static_root: Path | None = None,
                 cache_seconds: int = 2, session_cookie: str = "sessionid",
                 real_ip_from: str = "127.0.0.1"):
        self.binary = nginx_binary()
        self.prefix = prefix
        self.port = free_port()
        self.cache_seconds = cache_seconds
        for sub in ("cache", "tmp", "logs", "static"):
            (prefix / sub).mkdir(parents=True, exist_ok=True)
        self.values = {
            "MANGALA_LISTEN": f"127.0.0.1:{self.port}",
            "MANGALA_SERVER_NAME": "_",
            "MANGALA_UPSTREAM_SERVERS": " ".join(f"server {u};" for u in upstreams),
            "MANGALA_STATIC_ROOT": str(static_root or prefix / "static"),
            "MANGALA_CACHE_DIR": str(prefix / "cache"),
            "MANGALA_CACHE_SECONDS": str(cache_seconds),
            "MANGALA_SESSION_COOKIE": session_cookie,
            "MANGALA_FORWARDED_PROTO": "$scheme",
            "MANGALA_REAL_IP_FROM": real_ip_from,
            "MANGALA_ACCESS_LOG": str(prefix / "logs" / "access.log"),
        }
        (prefix / "mangala.conf").write_text(render(self.values))
        tmp = prefix / "tmp"
        # as root the workers would switch to "nobody", who cannot enter pytest's 0700 temp folders
        user = "user root root;\n" if os.geteuid() == 0 else ""
        (prefix / "nginx.conf").write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {prefix / 'nginx.pid'};\n"
            f"error_log {prefix / 'logs' / 'error.log'} warn;\n"
            "events { worker_connections 1024; }\n"
            "http {\n"
            "    include /etc/nginx/mime.types;\n"
            "    default_type application/octet-stream;\n"
            "    access_log off;\n"
            f"    client_body_temp_path {tmp}/body;\n    proxy_temp_path {tmp}/proxy;\n"
            f"    fastcgi_temp_path {tmp}/fastcgi;\n    uwsgi_temp_path {tmp}/uwsgi;\n    scgi_temp_path {tmp}/scgi;\n"
            f"    include {prefix / 'mangala.conf'};\n"
            "}\n"
        )
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def error_log(self) -> Path:
        return self.prefix / "logs" / "error.log"

    def start(self) -> "Nginx":
        cmd = [self.binary, "-p", str(self.prefix), "-c", str(self.prefix / "nginx.conf")]
        check = subprocess.run([*cmd, "-t", "-q"], capture_output=True, text=True)
        if check.returncode != 0:
            pytest.fail(f"nginx -t refused the rendered configuration:\n{check.stderr}", pytrace=False)
        out = open(self.prefix / "logs" / "stderr.log", "wb")
        self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        out.close()
        wait_port(self.port, 10, self.proc, self.prefix / "logs" / "stderr.log")
        return self

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGQUIT)  # graceful: the master ends its workers
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=5)

    def access_lines(self) -> list[str]:
        path = self.prefix / "logs" / "access.log"
        return path.read_text().splitlines() if path.exists() else []


class Answer:
    """One HTTP answer: ``status``, ``headers`` (lower-case names; Set-Cookie lines joined by "\\n") and
    the raw ``body`` (still gzipped when the server compressed it)."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes):
        self.status, self.headers, self.body = status, headers, body

    @property
    def cache(self) -> str:
        """nginx's X-Cache-Status (HIT, MISS, BYPASS, EXPIRED, STALE, UPDATING; "" when not cacheable)."""
        return self.headers.get("x-cache-status", "")

    @property
    def text(self) -> str:
        import gzip

        raw = gzip.decompress(self.body) if self.headers.get("content-encoding") == "gzip" else self.body
        return raw.decode("utf-8", errors="replace")

    def __repr__(self) -> str:
        return f"<Answer {self.status} cache={self.cache!r} {self.body[:80]!r}>"


def fetch(base: str, path: str, *, method: str = "GET", headers: dict[str, str] | None = None,
          body: bytes | None = None, timeout: float = 20) -> Answer:
    """One request on a fresh connection (no cookie jar, no decompression, no redirect following)."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(base)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        data = resp.read()
        merged: dict[str, str] = {}
        for name, value in resp.getheaders():
            key = name.lower()
            merged[key] = f"{merged[key]}\n{value}" if key in merged else value
        return Answer(resp.status, merged, data)
    finally:
        conn.close()
