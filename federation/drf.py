"""DRF classes named in ``REST_FRAMEWORK`` settings (kept apart from :mod:`federation.api`, which
imports ``rest_framework.views``: the settings load these while that module is being imported)."""
from __future__ import annotations

from rest_framework import authentication, pagination
from rest_framework import exceptions as drf_exceptions


class BasicAuthentication(authentication.BasicAuthentication):
    """HTTP Basic that refuses control characters and over-long user names with 401 before any query
    (a NUL in a user name made PostgreSQL fail: every API endpoint answered 500)."""

    def authenticate_credentials(self, userid, password, request=None):
        from federation.middleware import has_control_characters

        if len(userid) > 150 or len(password) > 4096 or has_control_characters(userid) or has_control_characters(password):
            raise drf_exceptions.AuthenticationFailed("Invalid username/password.")
        return super().authenticate_credentials(userid, password, request)


class Pagination(pagination.LimitOffsetPagination):
    """``limit`` (1..1000, default 100) and ``offset`` (0..10⁹); out-of-range values are a 400."""

    default_limit = 100
    max_limit = 1000
    max_offset = 1_000_000_000

    def _param(self, request, name: str, default: int, lo: int, hi: int) -> int:
        from federation.errors import ValidationFailed

        raw = request.query_params.get(name)
        if raw in (None, ""):
            return default
        if not raw.isdigit() or not lo <= int(raw) <= hi:
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
