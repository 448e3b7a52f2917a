"""Cached public outputs of a tournament, keyed by the version of its data.

Every write that changes what a tournament shows bumps ``Tournament.version`` in the database, in the
transaction of the write, with ``version = version + 1`` (:func:`tournaments.services.tournament_touch`;
concurrent writers never lose a bump), and ``Tournament.standings_version`` unless it is a result of a
round not closed yet — the public standings and crosstable, which count closed rounds only, are keyed
on the latter (``public=True``), so they stay cached while a round is being played. A cached value is stored under a key that carries the version
read *before* the data (:func:`current_version`), so

* a reader never gets a table older than the version it read: a write commits its data and its bump
  together, and a newer version is a new key (old keys expire after ``CACHES[...]["TIMEOUT"]``);
* a value computed from data newer than its key (a write committed between the two reads) is only
  ever *fresher* than its key says, and is replaced as soon as the next reader sees the new version.

The version is the one the view's ``Tournament`` was loaded with (read before any data), unless a
write of the same request bumped it in memory — a service that failed and rolled back may have left the
instance's version ahead of the database: it is then read again (:func:`current_version`). Only views,
API views and jobs read or store through this module — never a service inside its transaction (an
uncommitted version must not name a cached value); services only move the public pages' generations on
(:func:`pages_written`, from ``services.tournament_touch``), which is safe inside a transaction.

Keys: ``t:<LAYOUT>:<kind>:<tournament id>:<version>:<p|o>:<parts...>`` (``p``: public, keyed on
``standings_version``; ``o``: keyed on ``version``). ``kind`` names the output
("standings", "standings-html", "crosstable-html", "live", ...), ``parts`` whatever else it depends on
(language, public or organiser view, round number, a category's code — only a code the tournament has,
so a made-up ``?category=`` never makes a key). :data:`LAYOUT` is bumped when a cached shape or
template changes, so a new release never reads an old release's values.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Hashable
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache

from federation import pagecache
from tournaments.models import Tournament

T = TypeVar("T")
logger = logging.getLogger(__name__)

#: Bumped when the shape of a cached value or a cached template fragment changes (2: the standings API
#: names its ``category``; the standings and crosstable fragments have a category's "Overall" column).
LAYOUT = 2

_MISSING = object()


def current_version(tournament: Tournament, *, public: bool = False) -> int:
    """The version of ``tournament``'s data, read before the data: ``standings_version`` when
    ``public`` (the public standings and crosstable, which ignore results of rounds not closed yet),
    else ``version``. The instance's own, as loaded at the start of the request, unless a write of this
    request bumped it in memory (:func:`tournaments.services.tournament_touch`, whose transaction may
    have rolled back) — then the committed ones, read from the database (one query) and set on
    ``tournament``. Raises ``Tournament.DoesNotExist`` if the tournament was deleted meanwhile."""
    if getattr(tournament, "_version_written", False):
        tournament.version, tournament.standings_version = (
            Tournament.objects.filter(pk=tournament.pk).values_list("version", "standings_version").get()
        )
        tournament._version_written = False
    return tournament.standings_version if public else tournament.version


def cache_key(kind: str, tournament_id: int, version: int, parts: tuple[Hashable, ...] = ()) -> str:
    """The cache key of output ``kind`` of tournament ``tournament_id`` at ``version`` (module docstring)."""
    tail = ":".join(str(p) for p in parts)
    return f"t:{LAYOUT}:{kind}:{tournament_id}:{version}:{tail}"


def tournament_cached(kind: str, *, tournament: Tournament, parts: tuple[Hashable, ...] = (),
                      build: Callable[[], T], public: bool = False, timeout: int | None = None) -> T:
    """``build()``, cached under the tournament's current version (module docstring).

    ``parts``: what else the value depends on (language, round number): strings or numbers without
    ``:``. ``public``: the value is the public standings or crosstable (closed, published rounds only),
    keyed on ``standings_version``, which results of open rounds leave alone; otherwise on ``version``.
    ``timeout``: seconds (default: the cache's ``TIMEOUT``). A cache that fails is skipped
    (``federation.cache.ResilientRedisCache``): the value is then built every time.
    """
    version = current_version(tournament, public=public)
    key = cache_key(kind, tournament.pk, version, (("p" if public else "o"), *parts))
    value = cache.get(key, _MISSING)
    if value is not _MISSING:
        return value
    value = build()
    if timeout is None:
        cache.set(key, value)
    else:
        cache.set(key, value, timeout)
    return value


# --- finished public answers (federation/pagecache.py) ----------------------------------------------------
#
# Anonymous readers of a tournament's public pages are served finished bytes. The pages depend on two
# generations of the scope ``t:<slug>``, kept in the cache beside the two versions in the database:
# ``v`` moves with ``Tournament.version`` (every write), ``s`` with ``standings_version`` (every write but
# a result of the round being played). The public standings and crosstable depend on ``s`` only, so a
# hall of referees entering results leaves them cached; the pages that show the round being played
# depend on ``v`` and are rate-limited (:func:`live_seconds`).

GEN_VERSION = "v"
GEN_STANDINGS = "s"


def live_seconds() -> float:
    """Seconds the pages showing the round being played may lag behind its results (``LIVE_RECOMPUTE_SECONDS``,
    default 3): they are built at most once per this interval, however many results arrive."""
    return float(getattr(settings, "LIVE_RECOMPUTE_SECONDS", 3))


def page_scope(slug: str) -> str:
    """The scope of a tournament's public pages (:mod:`federation.pagecache`)."""
    return f"t:{slug}"


def pages_written(slug: str, *, standings: bool = True) -> None:
    """A write changed what tournament ``slug`` shows: move its pages' generations on (``standings``:
    the public standings too). Called where the versions are bumped
    (:func:`tournaments.services.tournament_touch`); never raises."""
    if standings:
        pagecache.bump(page_scope(slug), GEN_VERSION, GEN_STANDINGS)
    else:
        pagecache.bump(page_scope(slug), GEN_VERSION)


def _slug_scope(kwargs: dict) -> str | None:
    slug = kwargs.get("slug")
    return page_scope(slug) if slug else None


def _server_time(response) -> None:
    """The live round's clock ("Updated 14:02:10"), fresh on every answer, a 304 included."""
    from django.utils import timezone

    from federation import formatting

    response["X-Server-Time"] = formatting.clock(timezone.now(), seconds=True)


def register_public_pages() -> None:
    """Tell :mod:`federation.pagecache` which tournament pages the public reads as finished answers
    (``TournamentsConfig.ready``)."""
    public = (GEN_STANDINGS,)
    live = (GEN_VERSION,)
    lag = live_seconds  # read on each request
    pages = {
        "standings": pagecache.PublicPage(_slug_scope, public, frozenset({"category"})),
        "crosstable": pagecache.PublicPage(_slug_scope, public, frozenset({"category"})),
        "api-standings": pagecache.PublicPage(_slug_scope, public, frozenset({"category", "lang"}),
                                              values={"lang": frozenset({"tr", "en"})}),
        "prizes": pagecache.PublicPage(_slug_scope, public),
        "live": pagecache.PublicPage(_slug_scope, live, frozenset({"tv"}), stale_for=lag,
                                     values={"tv": frozenset({"1"})}),
        "live-tv": pagecache.PublicPage(_slug_scope, live, stale_for=lag),
        "live-json": pagecache.PublicPage(_slug_scope, live, frozenset({"round"}), stale_for=lag,
                                          refresh=_server_time),
        "round-detail": pagecache.PublicPage(_slug_scope, live, stale_for=lag),
        "api-round": pagecache.PublicPage(_slug_scope, live, stale_for=lag),
        "tournament-detail": pagecache.PublicPage(_slug_scope, live, stale_for=lag),
    }
    for name, page in pages.items():
        pagecache.register(name, page)


def live_cached(kind: str, *, tournament: Tournament, parts: tuple[Hashable, ...] = (),
                build: Callable[[], T], seconds: float | None = None) -> T:
    """``build()`` for the round being played, rate-limited: the value built for the tournament's current
    ``version`` when there is one; else the last one built, while it is younger than ``seconds``
    (default :func:`live_seconds`) or while another request is building the new one (a lock in the
    cache); else built here. However many results arrive, it is built at most about once per interval,
    and is at most that old. For every reader, logged in or not (the anonymous ones are mostly served
    by :mod:`federation.pagecache` before they get here)."""
    seconds = live_seconds() if seconds is None else seconds
    version = current_version(tournament)
    key = cache_key(kind, tournament.pk, 0, ("live", *parts))
    stored = cache.get(key)
    if stored is not None:
        built_version, built_at, value = stored
        if built_version == version or time.time() - built_at < seconds:
            return value
        if not cache.add(key + ":lock", 1, timeout=30):
            return value
    try:
        value = build()
        cache.set(key, (version, time.time(), value))
    finally:
        if stored is not None:
            cache.delete(key + ":lock")
    return value
