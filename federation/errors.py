"""The one error hierarchy of the product, rendered the same way by the API and the UI.

Services raise :class:`ApplicationError` subclasses for anything a user can act on; the DRF
exception handler (``federation.api.exception_handler``) renders them as
``{"error": {"code", "message", "field"}}`` with ``status``; views show ``message`` to the user.
Anything else is a bug and becomes a 500.
"""
from __future__ import annotations


class ApplicationError(Exception):
    """A refusal a user can act on.

    Attributes:
        message: human-readable reason (already translated where it comes from the UI layer).
        field: the input field at fault, or ``None`` when the whole request is.
        code: a stable machine-readable code, e.g. ``"invalid"``, ``"conflict"``.
        status: HTTP status used by the API (400 unless a subclass says otherwise).
    """

    status = 400
    default_code = "invalid"

    def __init__(self, message: str, *, field: str | None = None, code: str | None = None, extra: dict | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code or self.default_code
        self.extra = extra or {}

    def as_dict(self) -> dict:
        """``{"code", "message", "field"}`` — the body of an API error — plus any ``extra`` keys
        (e.g. ``"current"``: the stored value a stale write lost to)."""
        return {"code": self.code, "message": self.message, "field": self.field, **self.extra}


class ValidationFailed(ApplicationError):
    """Input that breaks a rule (RULES.md, a constraint, a format). HTTP 400."""


class PermissionDenied(ApplicationError):
    """The user may not do this (role or ownership). HTTP 403."""

    status = 403
    default_code = "permission_denied"


class NotFound(ApplicationError):
    """The object does not exist or is not visible to this user. HTTP 404."""

    status = 404
    default_code = "not_found"


class Conflict(ApplicationError):
    """The request does not fit the current state (e.g. pairing a round twice). HTTP 409."""

    status = 409
    default_code = "conflict"


class PreconditionRequired(ApplicationError):
    """A write that would change an existing value did not say which version it saw (``version`` in
    the body or ``If-Match``). HTTP 428 (RFC 6585)."""

    status = 428
    default_code = "version_required"
