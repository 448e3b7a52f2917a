"""DRF glue: the exception handler that renders :mod:`federation.errors` like every other error."""
from __future__ import annotations

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from federation.errors import ApplicationError, integrity_error_message, validation_error_message


def exception_handler(exc, context):
    """Render errors as ``{"error": {"code", "message", "field"}}``.

    ``ApplicationError`` keeps its own status and field; DRF validation errors are flattened to the
    first field and reason, so a client always finds one ``field`` and one ``message``.
    """
    if isinstance(exc, ApplicationError):
        return Response({"error": exc.as_dict()}, status=exc.status)
    if isinstance(exc, IntegrityError):  # a database refusal in words, never a constraint name (409)
        return Response({"error": {"code": "conflict", "message": integrity_error_message(exc), "field": None}},
                        status=409)
    if isinstance(exc, DjangoValidationError):
        return Response({"error": {"code": "invalid", "message": validation_error_message(exc), "field": None}},
                        status=400)
    if isinstance(exc, drf_exceptions.PermissionDenied) and str(getattr(exc, "detail", "")).startswith("CSRF Failed"):
        # DRF's session check says "CSRF Failed: …" in English
        return Response({"error": {"code": "csrf_failed", "field": None, "message": _(
            "The security check of this request failed (CSRF). Reload the page and try again.")}}, status=403)
    if isinstance(exc, Http404):
        exc = drf_exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf_exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    field, message = None, None
    detail = response.data
    if isinstance(detail, dict) and "detail" not in detail:
        field, reasons = next(iter(detail.items()), (None, ""))
        message = _first(reasons)
        if field == "non_field_errors":
            field = None
    else:
        message = _first(detail.get("detail") if isinstance(detail, dict) else detail)
    code = getattr(exc, "default_code", "error")
    response.data = {"error": {"code": code, "message": str(message), "field": field}}
    return response


def _first(value):
    """The first non-empty reason inside nested DRF error lists/dicts ("" when there is none)."""
    if isinstance(value, (list, tuple)):
        for item in value:
            found = _first(item)
            if found not in ("", None):
                return found
        return ""
    if isinstance(value, dict):
        for key, inner in value.items():
            found = _first(inner)
            if found not in ("", None):
                return f"{key}: {found}"
        return ""
    return value


def api_not_found(request, exception=None):
    """handler404 of old: :func:`federation.error_views.page_not_found` (JSON for ``/api/…``, a page otherwise)."""
    from federation.error_views import page_not_found

    return page_not_found(request, exception)


def api_server_error(request):
    """handler500 of old: :func:`federation.error_views.server_error` (never a traceback)."""
    from federation.error_views import server_error

    return server_error(request)
