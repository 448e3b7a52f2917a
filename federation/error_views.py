"""The error pages of the site, in the user's language: 403, 404, 500 and a failed CSRF check.

Pages get ``templates/403.html``, ``404.html``, ``500.html`` and ``csrf_failure.html`` (never Django's
English or debug pages: ``DEBUG`` is off unless ``DJANGO_DEBUG=true``); ``/api/…`` keeps its JSON
envelope ``{"error": {"code", "message", "field"}}`` with the message translated. Wired in
``federation/urls.py`` (``handler403/404/500``) and ``CSRF_FAILURE_VIEW`` (settings).
"""
from __future__ import annotations

import logging
from urllib.parse import urlsplit

from django.http import HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template import loader
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.csrf import requires_csrf_token

from federation.middleware import error_response, is_api

logger = logging.getLogger(__name__)


@requires_csrf_token
def page_not_found(request, exception=None):
    """404: the JSON envelope for the API, the translated page otherwise (the exception's own text,
    often English and technical, is not shown)."""
    if is_api(request.path):
        return error_response(request, status=404, code="not_found", message=_("Not found."))
    return render(request, "404.html", status=404)


@requires_csrf_token
def permission_denied(request, exception=None):
    """403 (``PermissionDenied`` raised by a view). The exception's text is not shown (it may be
    English or technical); a view that has a reason to give uses :func:`forbidden`."""
    if is_api(request.path):
        return error_response(request, status=403, code="permission_denied",
                              message=_("You do not have permission to perform this action."))
    return render(request, "403.html", status=403)


def forbidden(request, reason: str = "") -> HttpResponse:
    """The 403 page with the view's own translated ``reason`` ("Only referees and organisers can print
    result slips."), instead of a bare line of text."""
    if is_api(request.path):
        return error_response(request, status=403, code="permission_denied",
                              message=reason or _("You do not have permission to perform this action."))
    return render(request, "403.html", {"reason": reason}, status=403)


@requires_csrf_token
def server_error(request):
    """500: never a traceback. The page is a template of its own (not ``base.html``, which reads the
    database: the database may be what failed); if even that fails, one translated line of text."""
    if is_api(request.path):
        return error_response(request, status=500, code="server_error", message=_("Server error."))
    try:
        return HttpResponseServerError(loader.get_template("500.html").render({}))
    except Exception:  # noqa: BLE001 - the error page itself must not fail
        logger.exception("the 500 page could not be rendered")
        return HttpResponseServerError(
            _("Something went wrong. Try again in a moment."), content_type="text/plain; charset=utf-8"
        )


def _back(request) -> str:
    """Where "reload" leads: the page the form was on (the Referer, when it is this site), else the
    address the form was sent to."""
    referer = request.META.get("HTTP_REFERER", "")
    if referer and url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()},
                                                     require_https=request.is_secure()):
        parts = urlsplit(referer)
        return parts.path + (f"?{parts.query}" if parts.query else "")
    return request.path


def csrf_failure(request, reason: str = "", template_name: str = "csrf_failure.html") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a form sent with an expired or missing token — usually a page left open
    for hours, or a login/logout in another tab. 403 with a page that says so and offers a reload."""
    from django.middleware.csrf import REASON_NO_CSRF_COOKIE

    if is_api(request.path):
        return error_response(request, status=403, code="csrf_failed", message=_(
            "The security check of this request failed (CSRF). Reload the page and try again."))
    context = {"back": _back(request), "no_cookies": reason == REASON_NO_CSRF_COOKIE and not request.COOKIES}
    return render(request, template_name, context, status=403)
