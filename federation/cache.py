"""The Redis cache of production, made to fail open: a cache that is down is a slower site, not a 500.

Django's own ``RedisCache`` raises ``redis.exceptions.ConnectionError`` from every call while Redis is
unreachable, so one restart of Redis would turn every page that reads a cached standings table into
an error page. :class:`ResilientRedisCache` answers as if the key were absent (``get`` returns the
default, ``add``/``set`` do nothing, ``incr`` raises ``ValueError`` like a missing key), logs one
warning per failing call (logger ``federation.cache``), and gives up on a connection after
``socket_connect_timeout``/``socket_timeout`` seconds (``OPTIONS``; 0.5 s / 1 s by default in
``federation/settings/base.py``). Whether Redis answers is what ``/healthz`` reports
(:mod:`federation.health`), which asks the client directly.
"""
from __future__ import annotations

import logging

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

logger = logging.getLogger("federation.cache")


def _warn(op: str, exc: BaseException) -> None:
    logger.warning("cache %s failed, carrying on without the cache: %s", op, exc)


class ResilientRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` whose calls never raise a Redis error."""

    def get(self, key, default=None, version=None):
        try:
            return super().get(key, default, version)
        except RedisError as exc:
            _warn("get", exc)
            return default

    def get_many(self, keys, version=None):
        try:
            return super().get_many(keys, version)
        except RedisError as exc:
            _warn("get_many", exc)
            return {}

    def has_key(self, key, version=None):
        try:
            return super().has_key(key, version)
        except RedisError as exc:
            _warn("has_key", exc)
            return False

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().add(key, value, timeout, version)
        except RedisError as exc:
            _warn("add", exc)
            return False

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().set(key, value, timeout, version)
        except RedisError as exc:
            _warn("set", exc)
            return None

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().set_many(data, timeout, version)
        except RedisError as exc:
            _warn("set_many", exc)
            return list(data)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        try:
            return super().touch(key, timeout, version)
        except RedisError as exc:
            _warn("touch", exc)
            return False

    def delete(self, key, version=None):
        try:
            return super().delete(key, version)
        except RedisError as exc:
            _warn("delete", exc)
            return False

    def delete_many(self, keys, version=None):
        try:
            return super().delete_many(keys, version)
        except RedisError as exc:
            _warn("delete_many", exc)
            return None

    def incr(self, key, delta=1, version=None):
        try:
            return super().incr(key, delta, version)
        except RedisError as exc:
            _warn("incr", exc)
            raise ValueError(f"cache unavailable: key {key!r} not counted") from exc

    def clear(self):
        try:
            return super().clear()
        except RedisError as exc:
            _warn("clear", exc)
            return False

    def ping(self) -> bool:
        """True when Redis answers a PING (raises the Redis error otherwise: for ``/healthz``)."""
        return bool(self._cache.get_client(None, write=True).ping())
