"""Field validators shared by the models of every app.

:func:`no_control_characters` keeps names, cities and other one-line texts printable: a line break, a
tab, NUL or another control character in a player's name would break every TRF line, PDF and pairing
list it is printed on (and PostgreSQL cannot store NUL at all). It runs wherever Django validates a
model field: ModelForms (the admin, the site's forms), ``full_clean`` and DRF ModelSerializers.
"""
from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
"""C0 control characters (NUL, tab, line feed, carriage return, ...), DEL, the C1 control characters,
the Unicode line and paragraph separators and lone surrogates (Unicode categories Cc, Zl, Zp, Cs — the
ones ``federation.services`` refuses in names): never part of a one-line text."""


BIDI_CONTROLS = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""Bidirectional marks and overrides: refused in reasons, where they could disguise the text."""


def first_control_character(value: str, *, allow_line_breaks: bool = False) -> int | None:
    """The 0-based index of the first control character in ``value`` (see :data:`CONTROL_CHARACTERS`),
    or ``None`` when there is none. ``allow_line_breaks``: tab, line feed and carriage return pass."""
    for m in CONTROL_CHARACTERS.finditer(value or ""):
        if not (allow_line_breaks and m.group() in "\t\n\r"):
            return m.start()
    return None


def clean_reason(reason, *, max_length: int = 500, required: bool = False, message: str | None = None) -> str:
    """A reason as the history stores it: text, stripped, at most ``max_length`` characters; line breaks
    and tabs allowed, other control characters and bidirectional overrides not. ``required``: empty is
    refused with ``message``. Raises :class:`federation.errors.ValidationFailed` (field ``reason``)."""
    from django.utils.translation import gettext

    from federation.errors import ValidationFailed

    if reason is None:
        reason = ""
    if not isinstance(reason, str):
        raise ValidationFailed(gettext("The reason must be text."), field="reason")
    if first_control_character(reason, allow_line_breaks=True) is not None or any(ch in BIDI_CONTROLS for ch in reason):
        raise ValidationFailed(gettext("The reason contains a control character."), field="reason")
    reason = reason.strip()
    if required and not reason:
        raise ValidationFailed(message or gettext("Give a reason."), field="reason")
    if len(reason) > max_length:
        raise ValidationFailed(
            gettext("The reason is longer than %(n)d characters.") % {"n": max_length}, field="reason"
        )
    return reason


def without_control_characters(value: str) -> str:
    """``value`` with every control character replaced by a space (for writing stored text out)."""
    return CONTROL_CHARACTERS.sub(" ", value or "")


def no_control_characters(value) -> None:
    """Validator: refuse a text holding a control character (a line break, tab, NUL, ...), naming its
    1-based position. Non-text values pass (other validators deal with them)."""
    if not isinstance(value, str):
        return
    at = first_control_character(value)
    if at is not None:
        raise ValidationError(
            _("Control characters (line breaks, tabs, NUL, …) are not allowed here (character %(position)d)."),
            code="control_characters", params={"position": at + 1},
        )
