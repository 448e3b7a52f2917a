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


def first_control_character(value: str) -> int | None:
    """The 0-based index of the first control character in ``value`` (see :data:`CONTROL_CHARACTERS`),
    or ``None`` when there is none."""
    m = CONTROL_CHARACTERS.search(value or "")
    return m.start() if m else None


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
