"""Render once, serve many: finished public answers served from the cache before any other work.

A page or JSON answer that the public sees (the standings, the crosstable, the live round, a round's
pairing list …) is the same bytes for every anonymous reader until something it shows is written. The
first anonymous request builds it through the whole stack as usual; :class:`PublicPageMiddleware` keeps
the finished response (status, headers, body, ETag, Last-Modified) in the cache, and every following
anonymous request for the same path, query, language and answer kind is served from those bytes: no ORM
query, no template, no translation work, no session. ``If-None-Match`` and ``If-Modified-Since`` are
answered ``304`` before anything else is done.

**What is cached.** Only the URL names registered with :func:`register` (the app that owns the page says
which: ``tournaments.caching``), only ``GET``/``HEAD``, only a request without the session cookie, the
messages cookie or an ``Authorization`` header (a logged-in user — an organiser, a referee — always gets
the page built for them, never the public one and never a stale one), only the query parameters the
page declares (any other parameter: built as usual, not stored), and only a ``200`` response that sets
no cookie and is not ``no-store``. The key holds the language the request negotiates (the language
cookie, ``Accept-Language``), whether the client asks for HTML (the browsable API) and the path with its
query. The publish gate is part of it because only the anonymous variant is ever stored. A text or JSON
answer of 1 KB or more is also kept gzip-compressed (once per build) and sent so to the readers whose
``Accept-Encoding`` takes it (``Content-Encoding: gzip``, its own ETag, ``Vary: Accept-Encoding``).

**When it changes.** Each page depends on *generations* of a *scope* (``t:<slug>`` for a tournament):
small counters kept in the cache (:func:`bump`). An entry holds the generations read *before* its page
was built; it is served only while they are still current. Every write that changes what a tournament
shows bumps them (``tournaments.services.tournament_touch``) twice: at once, inside its transaction, and
again when the transaction commits (``transaction.on_commit``) — so a page built between the two from
data not yet committed is never served after the commit, and a test's transaction that never commits
still sees its writes. A generation that is missing (evicted, a new cache) starts again at a random
64-bit value, so no entry built under an old one can ever match it.

**Rate-limited pages** (``stale_for`` seconds, the live round): an entry whose generations moved is still
served while it is younger than ``stale_for``; after that one request at a time (a lock in the cache)
builds the new answer while the others are served the previous one. However many results arrive, the
page is built at most once per interval and is at most ``stale_for`` seconds (plus one build) old.

**For the front proxy** (``docker/nginx``): a response stored here carries ``X-Accel-Expires:
PUBLIC_PAGE_PROXY_SECONDS`` (nginx's micro-cache holds it that long; nginx does not pass the header on)
and ``Cache-Control: public, max-age=0, must-revalidate`` (browsers revalidate with the ETag and get a
304; not ``no-cache``, which the proxy reads as "for one reader only"). Answers to logged-in users are
marked ``Cache-Control: private`` by ``federation.middleware.PrivateForUsersMiddleware``.

Settings: ``PUBLIC_PAGE_CACHE`` (on/off, default on), ``PUBLIC_PAGE_PROXY_SECONDS`` (default 3).
A cache that fails (``federation.cache.ResilientRedisCache``) makes every request a miss, built as usual.
"""
from __future__ import annotations

import gzip
import hashlib
import secrets
import time
from dataclasses import dataclass, field
from functools import lru_cache
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpResponse, HttpResponseNotModified
from django.urls import Resolver404, get_urlconf, resolve
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.http import http_date, parse_http_date_safe

#: Bumped when the shape of a stored entry changes, so a new release never reads an old one's entries.
LAYOUT = 2
#: Seconds a rebuild lock of a rate-limited page is held at most (a build that dies frees it then).
LOCK_SECONDS = 30
#: What a stored public answer tells browsers and proxies: any cache may keep it, revalidated each time.
PUBLIC_CACHE_CONTROL = "public, max-age=0, must-revalidate"
#: Headers never stored with an entry (set per response, or not ours to replay).
_NOT_STORED = frozenset({"set-cookie", "date", "x-accel-expires", "x-cache", "x-page-cache"})


@dataclass(frozen=True)
class PublicPage:
    """How a URL name's anonymous answers are cached.

    ``scope(kwargs)``: the scope the page belongs to, from the URL's keyword arguments (e.g.
    ``"t:<slug>"``), or ``None`` when this request is not to be cached. ``gens``: the generations of that
    scope the page depends on. ``params``: the query parameters it may carry (others: not cached).
    ``stale_for``: seconds an outdated entry may still be served while one request rebuilds it (0: never),
    or a function returning them (read on each request, so a setting can change them).
    ``refresh``: a function ``(response) -> None`` that sets per-request headers on a served entry
    (e.g. the live round's server clock); it must not read the database. ``values``: for a parameter
    whose values are few, the ones that may make an entry (any other: built as usual, not stored — so
    made-up values cannot fill the cache; a view refuses other made-up values with ``no-store``).
    """

    scope: Callable[[dict], str | None]
    gens: tuple[str, ...]
    params: frozenset[str] = frozenset()
    stale_for: float | Callable[[], float] = 0.0
    refresh: Callable[[HttpResponse], None] | None = None
    values: dict[str, frozenset[str]] = field(default_factory=dict)


@dataclass
class Entry:
    """A finished answer: what was built under ``gens`` at ``built`` (Unix seconds)."""

    gens: tuple
    built: float
    status: int
    headers: list[tuple[str, str]]
    body: bytes
    etag: str
    gzipped: bytes | None = None  # the body compressed once, for the readers that accept gzip


_REGISTRY: dict[str, PublicPage] = {}


def register(url_name: str, page: PublicPage) -> None:
    """Cache the anonymous answers of the URL named ``url_name`` as ``page`` says (module docstring).
    Called by the app that owns the page, at start-up (``AppConfig.ready``)."""
    _REGISTRY[url_name] = page


def page_for(path_info: str) -> PublicPage | None:
    """The rule of the page at ``path_info`` (the request's path), or ``None`` when it is not a registered
    public page; the URL's resolution is memoised (:func:`_resolve`), so asking twice in a request is free."""
    resolved = _resolve(get_urlconf(), path_info)
    return _REGISTRY.get(resolved[0]) if resolved else None


def gen_key(scope: str, gen: str) -> str:
    """The cache key of generation ``gen`` of ``scope``."""
    return f"pg:{LAYOUT}:gen:{scope}:{gen}"


def _bump_now(keys: list[str]) -> None:
    for key in keys:
        try:
            cache.incr(key)
        except ValueError:  # missing: the next reader starts it afresh (module docstring)
            pass
        except Exception:  # noqa: BLE001 - a cache that fails serves nothing stale: nothing is read from it
            pass


class GenerationBump:
    """The on-commit callback that moves on every generation a transaction wrote: one per transaction
    (:func:`bump` adds its keys to the one already registered)."""

    def __init__(self) -> None:
        self.keys: set[str] = set()

    def __call__(self) -> None:
        _bump_now(sorted(self.keys))


def bump(scope: str, *gens: str) -> None:
    """Move generations ``gens`` of ``scope`` on: at once, and again when the current transaction
    commits (at once when there is none). Every entry built under the old ones stops being served
    (rate-limited pages: after their ``stale_for``). Never raises."""
    keys = [gen_key(scope, g) for g in gens]
    if not keys:
        return
    _bump_now(keys)
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        return
    pending = next((func for _sids, func, _robust in connection.run_on_commit if isinstance(func, GenerationBump)),
                   None)
    if pending is None:
        pending = GenerationBump()
        transaction.on_commit(pending)
    pending.keys.update(keys)


def current_gens(scope: str, gens: tuple[str, ...]) -> tuple:
    """The current values of ``gens`` of ``scope``, starting any that is missing (one cache round
    trip when all are there)."""
    keys = [gen_key(scope, g) for g in gens]
    got = cache.get_many(keys)
    return _complete(keys, got)


def _complete(keys: list[str], got: dict) -> tuple:
    values = []
    for key in keys:
        value = got.get(key)
        if value is None:
            cache.add(key, secrets.randbits(62), timeout=None)
            value = cache.get(key)
        values.append(value)
    return tuple(values)


@lru_cache(maxsize=4096)
def _resolve(urlconf, path: str):
    """``(view_name, kwargs)`` of ``path``, or ``None``; memoised (the URLconf does not change at run time)."""
    try:
        match = resolve(path, urlconf)
    except Resolver404:
        return None
    return match.view_name, tuple(sorted(match.kwargs.items()))


def page_key(lang: str, accept_html: bool, path: str, query: str) -> str:
    """The cache key of an entry: language, answer kind, path and query (hashed: keys stay short)."""
    digest = hashlib.blake2b(f"{lang}|{int(accept_html)}|{path}?{query}".encode(), digest_size=16).hexdigest()
    return f"pg:{LAYOUT}:page:{digest}"


def _etag_of(body: bytes) -> str:
    return '"%s"' % hashlib.blake2b(body, digest_size=12).hexdigest()


def _gzip_etag(etag: str) -> str:
    """The ETag of the gzip-compressed representation (another representation, another strong ETag)."""
    return etag[:-1] + '-gz"' if etag.endswith('"') else etag + "-gz"


#: Bodies smaller than this are sent as they are (compressing them saves less than it costs).
GZIP_MIN_BYTES = 1024
_COMPRESSIBLE = ("text/", "application/json", "application/javascript", "image/svg+xml")


def _accepts_gzip(request) -> bool:
    """True when the request's ``Accept-Encoding`` takes gzip (and does not refuse it with ``q=0``)."""
    for part in request.META.get("HTTP_ACCEPT_ENCODING", "").split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            weight = 1.0
            for param in params.split(";"):
                key, _, value = param.strip().partition("=")
                if key.lower() == "q":
                    try:
                        weight = float(value)
                    except ValueError:
                        weight = 0.0
            return weight > 0
    return False


def _not_modified(request, entry: Entry) -> bool:
    inm = request.META.get("HTTP_IF_NONE_MATCH")
    if inm:
        tags = [x.strip().removeprefix("W/") for x in inm.split(",")]
        return inm.strip() == "*" or entry.etag in tags or _gzip_etag(entry.etag) in tags
    ims = request.META.get("HTTP_IF_MODIFIED_SINCE")
    if ims:
        since = parse_http_date_safe(ims)
        return since is not None and int(entry.built) <= since
    return False


def _proxy_seconds() -> int:
    return int(getattr(settings, "PUBLIC_PAGE_PROXY_SECONDS", 3))


class PublicPageMiddleware:
    """Serve registered public pages to anonymous readers from finished answers (module docstring).

    Placed right after ``SecurityMiddleware`` (its redirects and headers still apply) and before
    everything that costs: CSP (its header is stored with the entry), sessions, language, CSRF, auth."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not getattr(settings, "PUBLIC_PAGE_CACHE", True) or request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        cookies = request.COOKIES
        if (settings.SESSION_COOKIE_NAME in cookies or "messages" in cookies
                or "HTTP_AUTHORIZATION" in request.META
                or getattr(request, "_force_auth_user", None) is not None):  # DRF's test client, logged in
            return self.get_response(request)  # built for its user (federation.middleware marks it private)
        resolved = _resolve(get_urlconf(), request.path_info)
        page = _REGISTRY.get(resolved[0]) if resolved else None
        if page is None:
            return self.get_response(request)
        if any(k not in page.params for k in request.GET) or any(
            v not in page.values[k] for k in page.values for v in request.GET.getlist(k)
        ):
            return self.get_response(request)
        scope = page.scope(dict(resolved[1]))
        if scope is None:
            return self.get_response(request)
        return self._serve(request, page, scope)

    def _serve(self, request, page: PublicPage, scope: str):
        lang = translation.get_language_from_request(request)
        accept_html = "text/html" in request.META.get("HTTP_ACCEPT", "")
        key = page_key(lang, accept_html, request.path_info, request.META.get("QUERY_STRING", ""))
        gkeys = [gen_key(scope, g) for g in page.gens]
        try:
            got = cache.get_many([key, *gkeys])
            gens = _complete(gkeys, got)
        except Exception:  # noqa: BLE001 - no cache: build as usual
            return self.get_response(request)
        entry = got.get(key)
        locked = False
        if isinstance(entry, Entry):
            if entry.gens == gens:
                return self._replay(request, page, entry, "hit")
            stale_for = page.stale_for() if callable(page.stale_for) else page.stale_for
            if stale_for > 0:
                if time.time() - entry.built < stale_for:
                    return self._replay(request, page, entry, "stale")
                if not cache.add(key + ":lock", 1, timeout=LOCK_SECONDS):
                    return self._replay(request, page, entry, "stale")  # another request is building it
                locked = True
        try:
            response = self.get_response(request)
            self._store(request, response, key, gens)
        finally:
            if locked:
                cache.delete(key + ":lock")
        return response

    def _store(self, request, response, key: str, gens: tuple) -> None:
        if (response.status_code != 200 or response.streaming or response.cookies
                or "no-store" in response.get("Cache-Control", "")
                or getattr(request, "user", None) is not None and request.user.is_authenticated):
            return
        body = response.content
        etag = response.get("ETag") or _etag_of(body)
        built = time.time()
        response["ETag"] = etag
        response["Last-Modified"] = http_date(built)
        response["Cache-Control"] = PUBLIC_CACHE_CONTROL
        gzipped = None
        if len(body) >= GZIP_MIN_BYTES and response.get("Content-Type", "").startswith(_COMPRESSIBLE):
            # compressed once per build, not once per reader (nor by the front proxy: docker/nginx)
            gzipped = gzip.compress(body, compresslevel=6, mtime=0)
            patch_vary_headers(response, ("Accept-Encoding",))
        headers = [(k, v) for k, v in response.items() if k.lower() not in _NOT_STORED]
        entry = Entry(gens=gens, built=built, status=response.status_code, headers=headers, body=body, etag=etag,
                      gzipped=gzipped)
        cache.set(key, entry)
        if gzipped is not None and _accepts_gzip(request):
            self._use_gzip(response, entry)
        response["X-Accel-Expires"] = str(_proxy_seconds())
        response["X-Page-Cache"] = "miss"

    @staticmethod
    def _use_gzip(response, entry: Entry) -> None:
        """Send ``entry``'s compressed body (its own ETag) as ``response``."""
        if response.status_code == 200:
            response.content = entry.gzipped
        response["Content-Encoding"] = "gzip"
        response["Content-Length"] = str(len(entry.gzipped))
        response["ETag"] = _gzip_etag(entry.etag)

    def _replay(self, request, page: PublicPage, entry: Entry, how: str):
        compressed = entry.gzipped is not None and _accepts_gzip(request)
        if _not_modified(request, entry):
            response = HttpResponseNotModified()
            for k, v in entry.headers:
                if k.lower() in ("etag", "last-modified", "cache-control", "vary", "content-language",
                                 "x-server-time"):
                    response[k] = v
            if compressed:
                response["ETag"] = _gzip_etag(entry.etag)
        else:
            body = entry.gzipped if compressed else entry.body
            response = HttpResponse(b"" if request.method == "HEAD" else body, status=entry.status)
            for k, v in entry.headers:
                response[k] = v
            response["Content-Length"] = str(len(body))
            if compressed:
                response["Content-Encoding"] = "gzip"
                response["ETag"] = _gzip_etag(entry.etag)
        if page.refresh is not None:
            page.refresh(response)
        response["X-Accel-Expires"] = str(_proxy_seconds())
        response["X-Page-Cache"] = how
        return response
