"""DRF classes named in ``REST_FRAMEWORK`` settings (kept apart from :mod:`federation.api`, which
imports ``rest_framework.views``: the settings load these while that module is being imported)."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import authentication, pagination, throttling
from rest_framework import exceptions as drf_exceptions


class BasicAuthentication(authentication.BasicAuthentication):
    """HTTP Basic that refuses control characters and over-long user names with 401 before any query
    (a NUL in a user name made PostgreSQL fail: every API endpoint answered 500).

    A request with Basic credentials whose ``Origin`` (or, without one, ``Referer``) names another
    site than the request's own host (or an origin in ``CSRF_TRUSTED_ORIGINS``) is refused with 403
    before the credentials are checked: a browser re-sends stored Basic credentials with a form that a
    foreign page submits, so such a request must not act as that user (Basic has no CSRF check)."""

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if header and header[0].lower() == b"basic" and _foreign_origin(request):
            raise drf_exceptions.PermissionDenied("HTTP Basic credentials are not accepted from another site.")
        return super().authenticate(request)

    def authenticate_credentials(self, userid, password, request=None):
        from federation.middleware import has_control_characters

        if len(userid) > 150 or len(password) > 4096 or has_control_characters(userid) or has_control_characters(password):
            raise drf_exceptions.AuthenticationFailed("Invalid username/password.")
        # Django's own request, not DRF's wrapper: the login lockout (django-axes) marks a locked-out
        # attempt on it, and its middleware turns that mark into the 429 answer
        return super().authenticate_credentials(userid, password, getattr(request, "_request", request))


_token_read = None  # federation.prepared.PreparedRead of the token with its user, made at the first request


def _token_with_user(key: str):
    """The token ``key`` with its user (``select_related``), or None: the SQL built once (issue 22)."""
    global _token_read
    if _token_read is None:
        from rest_framework.authtoken.models import Token

        from federation.prepared import PreparedRead

        _token_read = PreparedRead(lambda key: Token.objects.select_related("user").filter(key=key).order_by(),
                                   key="\x00token")
    return _token_read.first(key=key)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication (``Authorization: Token <key>``), its one query built once
    (:class:`federation.prepared.PreparedRead`: every API request of a script or a referee's phone pays
    it), and a key with control characters refused with 401 before any query (PostgreSQL refuses a NUL)."""

    def authenticate_credentials(self, key):
        from federation.middleware import has_control_characters

        if self.model is not None:  # a subclass with another token model: DRF's own read
            return super().authenticate_credentials(key)
        if has_control_characters(key):
            raise drf_exceptions.AuthenticationFailed(_("Invalid token."))
        token = _token_with_user(key)
        if token is None:
            raise drf_exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise drf_exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return (token.user, token)


def _foreign_origin(request) -> bool:
    """True when the request's ``Origin`` (else its ``Referer``) is not this site: another host, or
    ``null`` (a sandboxed or privacy-stripped origin). No header at all: not foreign (scripts send none)."""
    from urllib.parse import urlsplit

    from django.conf import settings

    origin = request.META.get("HTTP_ORIGIN")
    if origin is None:
        origin = request.META.get("HTTP_REFERER")
        if not origin:
            return False
    origin = origin.strip()
    parts = urlsplit(origin)
    if not parts.scheme or not parts.netloc:
        return True  # "null" or garbage
    trusted = {o.rstrip("/").lower() for o in getattr(settings, "CSRF_TRUSTED_ORIGINS", [])}
    if f"{parts.scheme}://{parts.netloc}".lower() in trusted:
        return False
    try:
        own = request.get_host().lower()
    except Exception:  # DisallowedHost: nothing to compare with
        return True
    return parts.netloc.lower() != own


class _SettingsRateMixin:
    """Rates from ``settings.API_THROTTLE_RATES`` read on each request (so tests and deployments can
    change them), the client address from :func:`federation.security.client_ip` (a client cannot
    dodge the limit with its own ``X-Forwarded-For``), and no limit at all while
    ``settings.API_THROTTLE_ENABLED`` is false."""

    def get_rate(self):
        from django.conf import settings

        return getattr(settings, "API_THROTTLE_RATES", {}).get(self.scope)

    def get_ident(self, request):
        from federation.security import client_ip

        return client_ip(request) or super().get_ident(request)

    def allow_request(self, request, view):
        from django.conf import settings

        if not getattr(settings, "API_THROTTLE_ENABLED", True):
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)


class AnonRateThrottle(_SettingsRateMixin, throttling.AnonRateThrottle):
    """Anonymous requests per client address: ``API_THROTTLE_ANON`` (default 120/min). Over it → 429
    with ``Retry-After`` and the error envelope (code ``throttled``)."""


class UserRateThrottle(_SettingsRateMixin, throttling.UserRateThrottle):
    """Requests per logged-in user: ``API_THROTTLE_USER`` (default 600/min)."""


class Pagination(pagination.LimitOffsetPagination):
    """``limit`` (1..1000, default 100) and ``offset`` (0..10⁹); out-of-range values are a 400."""

    default_limit = 100
    max_limit = 1000
    max_offset = 1_000_000_000

    def _param(self, request, name: str, default: int, lo: int, hi: int) -> int:
        from federation.errors import ValidationFailed

        raw = request.query_params.get(name)
        if raw is None:  # absent: the default; present but empty or not a number: 400 below
            return default
        if not (raw.isascii() and raw.isdigit()) or not lo <= int(raw) <= hi:
            raise ValidationFailed(f"{name} must be a whole number from {lo} to {hi}.", field=name)
        return int(raw)

    def get_limit(self, request):
        return self._param(request, self.limit_query_param, self.default_limit, 1, self.max_limit)

    def get_offset(self, request):
        return self._param(request, self.offset_query_param, 0, 0, self.max_offset)

    def get_schema_operation_parameters(self, view):
        params = super().get_schema_operation_parameters(view)
        for p in params:
            if p["name"] == self.limit_query_param:
                p["schema"].update({"minimum": 1, "maximum": self.max_limit, "default": self.default_limit})
            elif p["name"] == self.offset_query_param:
                p["schema"].update({"minimum": 0, "maximum": self.max_offset, "default": 0})
        return params



from drf_spectacular.authentication import BasicScheme  # noqa: E402


class GuardedBasicScheme(BasicScheme):
    """OpenAPI: :class:`BasicAuthentication` is HTTP Basic."""

    target_class = "federation.drf.BasicAuthentication"
    priority = 0
