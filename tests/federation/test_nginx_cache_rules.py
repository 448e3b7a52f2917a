"""The micro-cache rules of docker/nginx/mangala.conf.template, with Debian's real nginx in front of a
stub server that answers each path with the headers under test and counts what reaches it.

No database needed: this pins nginx's side of the contract whatever the app sends (docs/operations.md
"A front for the crowd"): anonymous GET/HEAD answers are stored for MANGALA_CACHE_SECONDS at most (even when
the app says max-age=600); nothing with Set-Cookie, Cache-Control private/no-store or X-Accel-Expires: 0
is stored ("no-cache" alone is: browsers revalidate, nginx answers them, 304s included); a
request with the session or messages cookie or an Authorization header is never answered from the cache
and leaves nothing in it; the key carries the language choice; a burst for one URL reaches the server
once; POSTs pass through; X-Forwarded-For/-Proto are set by nginx; gzip. Skipped when nginx is missing
(a failure under CI=true, where .ci/run installs it).
"""
from __future__ import annotations

import json
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.nginx_front import Nginx, fetch, nginx_binary

INTERVAL = 2  # seconds (MANGALA_CACHE_SECONDS)


class Stub(BaseHTTPRequestHandler):
    """Answers by path; ``hits`` counts (method, path) reaching it; ``seen`` keeps the last headers."""

    hits: Counter = Counter()
    seen: dict[str, dict[str, str]] = {}
    lock = threading.Lock()

    def log_message(self, *args):  # quiet
        pass

    def _answer(self) -> None:
        path = self.path.split("?")[0]
        with self.lock:
            self.hits[(self.command, self.path)] += 1
            n = self.hits[(self.command, self.path)]
            self.seen[self.path] = {k.lower(): v for k, v in self.headers.items()}
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        cookie = self.headers.get("Cookie", "")
        headers = {"Content-Type": "application/json"}
        body = {"n": n, "path": path}
        if path == "/public":  # the app asks for far longer than the interval: nginx keeps it INTERVAL only
            headers["Cache-Control"] = "public, max-age=600"
        elif path == "/slow":
            time.sleep(0.5)
        elif path == "/set-cookie":
            headers["Set-Cookie"] = "csrftoken=abc; Path=/; SameSite=Lax"
        elif path == "/private":
            headers["Cache-Control"] = "private"
        elif path == "/no-store":
            headers["Cache-Control"] = "no-store"
        elif path == "/no-cache":
            headers["Cache-Control"] = "private, no-cache"
        elif path == "/revalidate":  # browsers revalidate (ETag) at every poll; the micro-cache may answer
            headers["Cache-Control"] = "no-cache"
            headers["ETag"] = '"v1"'
        elif path == "/accel-zero":  # the app's word for one response: do not store
            headers["X-Accel-Expires"] = "0"
        elif path == "/whoami":  # a careless app: a logged-in answer not marked private
            body["who"] = "organiser" if "sessionid=" in cookie else "anonymous"
        elif path == "/lang":  # Django's choice: a valid django_language cookie, else Accept-Language, else tr
            lang = next((part.split("=", 1)[1] for part in cookie.split("; ") if part.startswith("django_language=")),
                        "")
            if lang not in ("tr", "en"):
                lang = "en" if self.headers.get("Accept-Language", "").startswith("en") else "tr"
            body["lang"] = lang
            headers["Vary"] = "Accept-Language, Cookie"
        elif path == "/big":
            body["rows"] = [{"name": f"Oyuncu {i}", "points": i / 2} for i in range(200)]
        elif path == "/app-gzip":  # the app's finished answers: compressed once, when the reader takes gzip
            body["rows"] = [{"name": f"Oyuncu {i}", "points": i / 2} for i in range(200)]
            headers["Vary"] = "Accept-Encoding"
        data = json.dumps(body).encode()
        if path == "/app-gzip" and "gzip" in self.headers.get("Accept-Encoding", ""):
            import gzip

            data = gzip.compress(data)
            headers["Content-Encoding"] = "gzip"
        self.send_response(200)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    do_GET = do_HEAD = do_POST = _answer


@pytest.fixture(scope="module")
def front(tmp_path_factory):
    """nginx (the template, interval INTERVAL s) in front of one stub server; yields (nginx, hits)."""
    nginx_binary()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Stub)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    nginx = Nginx(tmp_path_factory.mktemp("nginx"), [f"127.0.0.1:{server.server_address[1]}"],
                  cache_seconds=INTERVAL, real_ip_from="192.0.2.1")  # the test client is no trusted proxy
    try:
        nginx.start()
        yield nginx
    finally:
        nginx.stop()
        server.shutdown()
        server.server_close()


def hits(method: str, path: str) -> int:
    with Stub.lock:
        return Stub.hits[(method, path)]


def test_anonymous_get_is_stored_for_the_interval_only(front):
    first = fetch(front.url, "/public")
    assert first.status == 200 and first.cache == "MISS"
    again = [fetch(front.url, "/public") for _ in range(10)]
    assert {a.cache for a in again} == {"HIT"}
    assert {json.loads(a.body)["n"] for a in again} == {1}
    assert hits("GET", "/public") == 1
    # max-age=600 from the app does not stretch it: after the interval one request refreshes the copy
    # (nginx counts whole seconds: a copy is reused for more than INTERVAL and at most INTERVAL + 1 s)
    time.sleep(INTERVAL + 1.1)
    stale = fetch(front.url, "/public")
    assert stale.cache in ("EXPIRED", "STALE", "UPDATING")
    # the refresh runs in the background: the new copy is there once the stub's answer is stored
    deadline = time.monotonic() + 3
    while json.loads((fresh := fetch(front.url, "/public")).body)["n"] != 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert json.loads(fresh.body)["n"] == 2 and fresh.cache in ("HIT", "UPDATING")
    assert fetch(front.url, "/public").cache == "HIT"
    assert hits("GET", "/public") == 2


def test_head_is_answered_from_the_same_copy(front):
    fetch(front.url, "/public?head")
    head = fetch(front.url, "/public?head", method="HEAD")
    assert head.status == 200 and head.cache == "HIT" and head.body == b""
    assert hits("HEAD", "/public?head") == 0


@pytest.mark.parametrize("path", ["/set-cookie", "/private", "/no-store", "/no-cache", "/accel-zero"])
def test_answers_for_one_reader_are_never_stored(front, path):
    answers = [fetch(front.url, path) for _ in range(4)]
    assert all(a.status == 200 for a in answers)
    assert "HIT" not in {a.cache for a in answers}
    assert [json.loads(a.body)["n"] for a in answers] == [1, 2, 3, 4]
    assert hits("GET", path) == 4
    if path == "/set-cookie":
        assert all("csrftoken=abc" in a.headers["set-cookie"] for a in answers)


def test_no_cache_alone_is_stored_and_polls_get_304_from_nginx(front):
    first = fetch(front.url, "/revalidate")
    assert first.cache == "MISS" and first.headers["etag"] == '"v1"'
    again = fetch(front.url, "/revalidate")
    assert again.cache == "HIT" and again.headers["cache-control"] == "no-cache"
    poll = fetch(front.url, "/revalidate", headers={"If-None-Match": '"v1"'})
    assert poll.status == 304 and poll.cache == "HIT" and poll.body == b""
    assert hits("GET", "/revalidate") == 1


@pytest.mark.parametrize("headers", [
    {"Cookie": "sessionid=s3cr3t"},
    {"Cookie": "django_language=tr; sessionid=s3cr3t"},
    {"Cookie": "messages=notice"},
    {"Authorization": "Token 0123456789abcdef"},
], ids=["session", "session-after-other-cookie", "messages", "token"])
def test_logged_in_requests_bypass_the_cache_and_leave_nothing_in_it(front, headers):
    path = f"/whoami?{sorted(headers.items())}".replace(" ", "")
    anonymous = fetch(front.url, path)
    assert anonymous.cache == "MISS" and json.loads(anonymous.body)["who"] == "anonymous"
    for _ in range(3):
        private = fetch(front.url, path, headers=headers)
        assert private.cache == "BYPASS"
    if "sessionid" in headers.get("Cookie", ""):
        assert json.loads(private.body)["who"] == "organiser"
    assert hits("GET", path) == 4
    # ... and the anonymous copy is still the anonymous one (the bypassed answers were not stored)
    after = fetch(front.url, path)
    assert after.cache == "HIT" and json.loads(after.body) == json.loads(anonymous.body)


def test_a_similar_cookie_name_is_not_a_session(front):
    fetch(front.url, "/public?x-sessionid")
    other = fetch(front.url, "/public?x-sessionid", headers={"Cookie": "not_sessionid=1; csrftoken=2"})
    assert other.cache == "HIT"


def test_the_key_carries_the_language(front):
    tr = fetch(front.url, "/lang", headers={"Accept-Language": "tr-TR,tr;q=0.9"})
    en = fetch(front.url, "/lang", headers={"Accept-Language": "en-GB,en;q=0.9"})
    assert (tr.cache, json.loads(tr.body)["lang"]) == ("MISS", "tr")
    assert (en.cache, json.loads(en.body)["lang"]) == ("MISS", "en")
    assert json.loads(fetch(front.url, "/lang", headers={"Accept-Language": "tr-TR,tr;q=0.9"}).body)["lang"] == "tr"
    assert json.loads(fetch(front.url, "/lang", headers={"Accept-Language": "en-GB,en;q=0.9"}).body)["lang"] == "en"
    # the language cookie wins over the header, as in Django, and has a copy of its own
    by_cookie = fetch(front.url, "/lang", headers={"Cookie": "django_language=en", "Accept-Language": "tr"})
    assert (by_cookie.cache, json.loads(by_cookie.body)["lang"]) == ("MISS", "en")
    by_cookie_tr = fetch(front.url, "/lang", headers={"Cookie": "django_language=tr", "Accept-Language": "en"})
    assert json.loads(by_cookie_tr.body)["lang"] == "tr"
    assert hits("GET", "/lang") == 4


def test_the_key_carries_the_answer_kind(front):
    """The browsable API (a browser's Accept: text/html) and a script's JSON have a copy each."""
    browser = fetch(front.url, "/kind", headers={"Accept": "text/html,application/xhtml+xml;q=0.9"})
    script = fetch(front.url, "/kind", headers={"Accept": "application/json"})
    assert (browser.cache, script.cache) == ("MISS", "MISS")
    assert fetch(front.url, "/kind", headers={"Accept": "text/html"}).cache == "HIT"
    assert fetch(front.url, "/kind").cache == "HIT"  # no Accept: the script's copy
    assert hits("GET", "/kind") == 2


def test_a_burst_reaches_the_server_once(front):
    with ThreadPoolExecutor(max_workers=50) as pool:
        answers = list(pool.map(lambda _: fetch(front.url, "/slow"), range(50)))
    assert {a.status for a in answers} == {200}
    assert {json.loads(a.body)["n"] for a in answers} == {1}
    assert hits("GET", "/slow") == 1
    assert Counter(a.cache for a in answers)["MISS"] == 1


def test_writes_are_never_cached(front):
    for _ in range(3):
        answer = fetch(front.url, "/public?post", method="POST", body=b"{}",
                       headers={"Content-Type": "application/json"})
        assert answer.cache in ("", "BYPASS")
    assert hits("POST", "/public?post") == 3


def test_forwarded_headers_are_nginx_own(front):
    fetch(front.url, "/public?fwd", headers={"X-Forwarded-For": "6.6.6.6", "X-Forwarded-Proto": "https",
                                             "Accept-Encoding": "gzip"})
    seen = Stub.seen["/public?fwd"]
    assert seen["x-forwarded-for"] == "127.0.0.1"  # the client's address only, never what it claimed
    assert seen["x-forwarded-proto"] == "http"
    assert seen["accept-encoding"] == "gzip"  # normalised: "gzip" or nothing, and a copy in the cache for each


def test_the_apps_compressed_answer_is_kept_and_sent_as_it_is(front):
    """The app compresses its finished answers once; nginx keeps a compressed and a plain copy and never
    compresses a body twice."""
    zipped = fetch(front.url, "/app-gzip", headers={"Accept-Encoding": "gzip, deflate, br"})
    again = fetch(front.url, "/app-gzip", headers={"Accept-Encoding": "br, gzip"})
    plain = fetch(front.url, "/app-gzip")
    refused = fetch(front.url, "/app-gzip", headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert zipped.headers["content-encoding"] == "gzip" and json.loads(zipped.text)["path"] == "/app-gzip"
    assert again.cache == "HIT" and again.body == zipped.body
    assert "content-encoding" not in plain.headers and json.loads(plain.body)["rows"] == json.loads(zipped.text)["rows"]
    assert refused.cache == "HIT" and "content-encoding" not in refused.headers  # the plain copy
    assert hits("GET", "/app-gzip") == 2


def test_json_is_gzipped_for_clients_that_accept_it(front):
    plain = fetch(front.url, "/big")
    zipped = fetch(front.url, "/big", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in plain.headers
    assert zipped.headers["content-encoding"] == "gzip" and zipped.cache == "MISS"  # a copy of its own
    assert fetch(front.url, "/big", headers={"Accept-Encoding": "gzip"}).cache == "HIT"
    assert json.loads(zipped.text)["rows"] == json.loads(plain.body)["rows"]
    assert len(zipped.body) < len(plain.body) / 3
