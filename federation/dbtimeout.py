"""A statement timeout for the web's database connections (PostgreSQL), a longer one (or none) for workers.

No web request may hold a database statement for long: ``federation/wsgi.py`` and ``federation/asgi.py``
(hence gunicorn and ``runserver``) call :func:`install` with ``settings.DATABASE_STATEMENT_TIMEOUT_MS``
(30,000 ms), so each new connection of the web process runs ``SET statement_timeout``. Celery workers do
not load those modules: ``federation/celery.py`` installs ``settings.WORKER_DATABASE_STATEMENT_TIMEOUT_MS``
(0: no limit) when a worker starts, so a long job (a TRF import, a re-rating) is not cut by the web's
limit. Management commands (``migrate``) keep the server's default. SQLite has no statement timeout:
nothing is done there.

A statement cancelled by the timeout (SQLSTATE 57014) in a request is answered by
:class:`StatementTimeoutMiddleware` with a 503 and ``Retry-After`` (the API's error envelope, code
``"timeout"``; a line of text for pages), not a 500.
"""
from __future__ import annotations

import logging

from django.db import OperationalError
from django.db.backends.signals import connection_created
from django.utils.translation import gettext as _

from federation.middleware import error_response

logger = logging.getLogger(__name__)

#: SQLSTATE of a statement cancelled by statement_timeout (query_canceled).
QUERY_CANCELED = "57014"

_installed: dict[str, int] = {}


def _set_timeout(sender, connection, **kwargs) -> None:
    ms = _installed.get("ms")
    if ms is None or connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(f"SET statement_timeout = {int(ms)}")


def install(ms: int | None) -> None:
    """Give every database connection this process opens from now on a statement timeout of ``ms``
    milliseconds (PostgreSQL; 0: no limit; None: leave the server's default). Idempotent."""
    if ms is None:
        _installed.pop("ms", None)
        connection_created.disconnect(_set_timeout, dispatch_uid="federation.dbtimeout")
        return
    _installed["ms"] = int(ms)
    connection_created.connect(_set_timeout, dispatch_uid="federation.dbtimeout", weak=False)


def installed_ms() -> int | None:
    """The timeout :func:`install` set for this process (None: none installed)."""
    return _installed.get("ms")


def install_for_web() -> None:
    """:func:`install` ``settings.DATABASE_STATEMENT_TIMEOUT_MS`` (the WSGI/ASGI entry points)."""
    from django.conf import settings

    install(getattr(settings, "DATABASE_STATEMENT_TIMEOUT_MS", 30_000))


def install_for_worker() -> None:
    """:func:`install` ``settings.WORKER_DATABASE_STATEMENT_TIMEOUT_MS`` (a Celery worker's start)."""
    from django.conf import settings

    install(getattr(settings, "WORKER_DATABASE_STATEMENT_TIMEOUT_MS", 0))


def is_statement_timeout(exc: BaseException) -> bool:
    """True for the error of a statement cancelled by ``statement_timeout`` (PostgreSQL SQLSTATE 57014)."""
    if not isinstance(exc, OperationalError):
        return False
    cause = exc.__cause__
    return getattr(cause, "sqlstate", None) == QUERY_CANCELED or getattr(cause, "pgcode", None) == QUERY_CANCELED


class StatementTimeoutMiddleware:
    """A request whose query ran out of the statement timeout gets a 503 with ``Retry-After: 30``."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not is_statement_timeout(exception):
            return None
        logger.warning("statement timeout in %s %s", request.method, request.path)
        response = error_response(
            request, status=503, code="timeout",
            message=_("The server took too long to answer; try again in a moment."),
        )
        response["Retry-After"] = "30"
        return response
