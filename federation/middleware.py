"""Request guards that turn bad input into a 4xx before any view or query sees it.

:class:`BadInputMiddleware` refuses control characters (NUL and the other C0 characters, DEL) in the
URL path and in query parameters, and over-long query strings: PostgreSQL cannot even compare a string
with a NUL in it, so such a request would otherwise end as a 500 somewhere deep in a query. API
requests (``/api/…``) get the product's error envelope ``{"error": {"code", "message", "field"}}``;
pages get a plain 400.
"""
from __future__ import annotations

from django.http import HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext

from federation.validators import first_control_character

MAX_QUERY_STRING = 4096


def has_control_characters(text: str, *, allow_line_breaks: bool = False) -> bool:
    """True when ``text`` holds a control character (:data:`federation.validators.CONTROL_CHARACTERS`;
    tab, CR and LF are allowed only with ``allow_line_breaks``)."""
    return first_control_character(text, allow_line_breaks=allow_line_breaks) is not None


def is_api(path: str) -> bool:
    return path.startswith("/api/")


def error_response(request, *, status: int, code: str, message: str, field: str | None = None):
    """The error in the form the client expects: the JSON envelope for the API, text for pages."""
    if is_api(request.path):
        return JsonResponse({"error": {"code": code, "message": message, "field": field}}, status=status)
    if status == 400:
        return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
    from django.http import HttpResponse

    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


class BadInputMiddleware:
    """Refuse control characters in the path and query, and query strings over 4 KB (400)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if has_control_characters(request.path):
            return error_response(request, status=400, code="invalid",
                                  message=gettext("Control characters are not allowed in the URL."), field="path")
        if len(request.META.get("QUERY_STRING", "")) > MAX_QUERY_STRING:
            return error_response(request, status=400, code="invalid",
                                  message=gettext("The query string is longer than %(n)d characters.")
                                  % {"n": MAX_QUERY_STRING})
        for key, values in request.GET.lists():
            if has_control_characters(key) or any(has_control_characters(v) for v in values):
                return error_response(request, status=400, code="invalid",
                                      message=gettext("Control characters are not allowed in query parameters."),
                                      field=key)
        return self.get_response(request)


class PrivateForUsersMiddleware:
    """Mark every answer to a logged-in user (session or API token) ``Cache-Control: private``, so that no
    shared cache — the nginx micro-cache (docker/nginx/mangala.conf.template), a company proxy — ever keeps
    a page with the organiser's menus, unpublished rounds or personal data for anyone else. Answers that
    already say ``private`` or ``no-store`` are left as they are. Placed after AuthenticationMiddleware;
    an API request with an Authorization header is treated alike.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if self._for_a_user(request):
            current = response.get("Cache-Control", "").lower()
            if "private" not in current and "no-store" not in current:
                from django.utils.cache import patch_cache_control

                patch_cache_control(response, private=True)
        return response

    @staticmethod
    def _for_a_user(request) -> bool:
        """An API token, or a session cookie of a logged-in user. The user is looked at only when the
        request carries the session cookie: an anonymous answer gains no ``Vary: Cookie`` from here."""
        from django.conf import settings

        if "HTTP_AUTHORIZATION" in request.META:
            return True
        if settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return False
        user = getattr(request, "user", None)
        return bool(user is not None and user.is_authenticated)
