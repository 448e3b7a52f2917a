"""Public reads from a read replica (``DATABASE_REPLICA_URL``); everything else from the primary.

:class:`ReplicaRouter` sends a read to the ``replica`` database alias only inside a request that
:class:`ReplicaReadsMiddleware` has marked as a *public read*: a GET or HEAD without a session cookie and
without an Authorization header (a spectator's player page, rating list, search or API list; not the
pages the page cache stores: :func:`builds_a_stored_page`). Everything else reads and writes the
``default`` (primary) database:

* every write (``db_for_write``), and every read after the first write of the same request (the request
  is pinned to the primary from then on: it reads its own writes);
* every read inside a transaction on the primary (``transaction.atomic``: a service that reads, checks and
  writes sees one consistent database);
* logged-in users and API clients with a token (an organiser sees the result they have just entered, not
  the replica's state a few milliseconds earlier), POSTs, and anything outside a request: Celery jobs,
  management commands, the shell.

With no replica configured (no ``replica`` alias in ``DATABASES``) the settings install neither the
router nor the middleware, and :meth:`ReplicaRouter.db_for_read` would answer ``None`` (Django's default)
anyway. Migrations run on the primary only (the replica receives them by replication).

A replica lags its primary by the replication delay (normally milliseconds, more under load): a spectator
may see a correction that much later, on top of the nginx micro-cache interval (docs/operations.md
"Past one machine").
"""
from __future__ import annotations

from contextvars import ContextVar

from django.db import connections

REPLICA = "replica"
PRIMARY = "default"

#: True while a public read request is being answered and nothing has been written yet.
_replica_allowed: ContextVar[bool] = ContextVar("replica_allowed", default=False)

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def replica_configured() -> bool:
    """True when ``DATABASES`` has a ``replica`` alias."""
    return REPLICA in connections.settings


class ReplicaRouter:
    """Database router (``DATABASE_ROUTERS``): see the module docstring. Returns alias names."""

    def db_for_read(self, model, **hints) -> str | None:
        """``"replica"`` for a read of a public read request outside any transaction; else ``"default"``
        (``None`` when no replica is configured: Django's own choice)."""
        if not replica_configured():
            return None
        if _replica_allowed.get() and not connections[PRIMARY].in_atomic_block:
            return REPLICA
        return PRIMARY

    def db_for_write(self, model, **hints) -> str | None:
        """Always the primary; the rest of the request then reads from the primary too."""
        if not replica_configured():
            return None
        _replica_allowed.set(False)
        return PRIMARY

    def allow_relation(self, obj1, obj2, **hints) -> bool | None:
        """Rows from the replica and the primary are the same rows: relations between them are fine."""
        return True

    def allow_migrate(self, db, app_label, model_name=None, **hints) -> bool | None:
        """Migrations run on the primary only."""
        return db != REPLICA


def is_public_read(request) -> bool:
    """A GET/HEAD/OPTIONS without the session cookie and without an Authorization header, for a URL that
    is not one of the page cache's finished public answers (:func:`builds_a_stored_page`)."""
    from django.conf import settings

    return (
        request.method in SAFE_METHODS
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "HTTP_AUTHORIZATION" not in request.META
        and not builds_a_stored_page(request)
    )


def builds_a_stored_page(request) -> bool:
    """True for a URL registered with :mod:`federation.pagecache`. Such a page is stored under generations
    kept in the cache and moved when a write *commits on the primary*; built from a replica a few
    milliseconds behind, it would hold the data before the write under the generation after it, and be
    served as current until the next write. So those pages are built from the primary (they are built
    once per generation; every other reader gets the stored bytes without a query). Data versions read
    from the database (``Tournament.version``, ``federation.versions``) need no such care: read from the
    replica together with the data, both are equally old."""
    from federation import pagecache

    return pagecache.page_for(request.path_info) is not None


class ReplicaReadsMiddleware:
    """Marks a public read request (:func:`is_public_read`) so that :class:`ReplicaRouter` may send its
    reads to the replica; the mark is reset after the response (and never leaks to the next request a
    thread serves: it lives in a context variable set per request)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        token = _replica_allowed.set(is_public_read(request))
        try:
            return self.get_response(request)
        finally:
            _replica_allowed.reset(token)
