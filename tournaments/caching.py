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
instance's version ahead of the database: it is then read again (:func:`current_version`). Only views, API views and jobs use this module — never a service inside its transaction (an
uncommitted version must not name a cached value).

Keys: ``t:<LAYOUT>:<kind>:<tournament id>:<version>:<p|o>:<parts...>`` (``p``: public, keyed on
``standings_version``; ``o``: keyed on ``version``). ``kind`` names the output
("standings", "standings-html", "crosstable-html", "live", ...), ``parts`` whatever else it depends on
(language, public or organiser view, round number, a category's code — only a code the tournament has,
so a made-up ``?category=`` never makes a key). :data:`LAYOUT` is bumped when a cached shape or
template changes, so a new release never reads an old release's values.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Hashable
from typing import TypeVar

from django.core.cache import cache

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
