"""How numbers, dates, colours and stone margins read on every page, PDF and message — one place.

- :func:`number` / :func:`points`: at most two (points: one) decimals, trailing zeros dropped, the
  language's decimal separator: ``2,5`` and ``12,25`` in Turkish, ``2.5`` in English, never ``2,50``.
- :func:`day` / :func:`moment`: one date format per language, from ``federation/formats/<lang>``
  (``1 Aralık 2026`` and ``1 Aralık 2026 14:05`` in Turkish, ``1 Dec 2026`` in English).
- :func:`colour_letter`: the colour letters of crosstables — ``B`` (beyaz) and ``S`` (siyah) in Turkish,
  ``W`` and ``B`` in English (a Turkish reader takes ``b`` for beyaz, white).
- :func:`stone_margin`: a set margin as the federation counts it (RULES.md Kural 14.4: own stones − 24),
  ``+2 taş`` / ``+2 stones``.

The template filters of ``{% load formatting %}`` (``federation/templatetags/formatting.py``) call these.
"""
from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django.utils import formats, translation
from django.utils.translation import ngettext

#: Crosstable colour letters per language (white, black); a language not listed uses English.
COLOUR_LETTERS = {"tr": ("B", "S"), "en": ("W", "B")}

_WHITE = {"w", "white", "first"}
_BLACK = {"b", "black", "second"}


def _lang(lang: str | None) -> str:
    return (lang or translation.get_language() or "tr").split("-")[0].lower()


def number(value, max_decimals: int = 2, *, lang: str | None = None, fixed: bool = False) -> str:
    """``value`` rounded (half up) to at most ``max_decimals`` decimals, trailing zeros dropped, with the
    language's decimal separator (``2.5`` → ``"2,5"`` in Turkish; ``3.0`` → ``"3"``; ``2.25`` → ``"2,25"``).
    ``fixed=True`` keeps exactly ``max_decimals`` decimals (``3`` → ``"3,00"``), for a table column whose
    numbers line up. ``None`` and ``""`` give ``""``; anything that is not a number is returned as text."""
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return str(value)
    try:
        d = Decimal(str(value)).quantize(Decimal(1).scaleb(-max_decimals), rounding=ROUND_HALF_UP)
    except (InvalidOperation, ValueError, TypeError):
        return str(value)
    if d == 0:
        d = abs(d)  # never "-0"
    text = f"{d:f}"
    if "." in text and not fixed:
        text = text.rstrip("0").rstrip(".")
    sep = formats.get_format("DECIMAL_SEPARATOR", lang=_lang(lang), use_l10n=True)
    return text.replace(".", sep)


def points(value, *, lang: str | None = None) -> str:
    """Match or tournament points: at most one decimal (``2,5``, ``3``), the language's separator."""
    return number(value, 1, lang=lang)


def signed(value, max_decimals: int = 2, *, lang: str | None = None, fixed: bool = False) -> str:
    """:func:`number` with a sign: ``+12,3``, ``−4`` (minus sign), ``0`` (``fixed=True``: ``+12,30``,
    ``−4,00``, ``0,00``)."""
    text = number(value, max_decimals, lang=lang, fixed=fixed)
    if not text or not text.strip("0.,"):
        return text
    if text.startswith("-"):
        return "−" + text[1:]
    return "+" + text


def day(value, *, lang: str | None = None) -> str:
    """A date in the language's one format (``DATE_FORMAT``: ``1 Aralık 2026`` / ``1 Dec 2026``)."""
    if not value:
        return ""
    if isinstance(value, dt.datetime):
        from django.utils import timezone

        if timezone.is_aware(value):
            value = timezone.localtime(value)
    return _format(value, "DATE_FORMAT", lang)


def moment(value, *, lang: str | None = None) -> str:
    """A date and time in the language's one format (``1 Aralık 2026 14:05`` / ``1 Dec 2026 14:05``),
    in the site's time zone."""
    if not value:
        return ""
    from django.utils import timezone

    if isinstance(value, dt.datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    return _format(value, "DATETIME_FORMAT", lang)


def clock(value, *, lang: str | None = None, seconds: bool = False) -> str:
    """The time of day in the site's time zone (``TIME_ZONE``, Europe/Istanbul): ``14:05`` (``TIME_FORMAT``),
    ``14:05:09`` with ``seconds``."""
    if not value:
        return ""
    from django.utils import timezone

    if isinstance(value, dt.datetime) and timezone.is_aware(value):
        value = timezone.localtime(value)
    if seconds:
        try:
            return value.strftime("%H:%M:%S")
        except AttributeError:
            return ""
    return _format(value, "TIME_FORMAT", lang)


def _format(value, fmt: str, lang: str | None) -> str:
    """``value`` in the language's ``fmt``; "" for anything that is not a date (like Django's ``date``)."""
    with translation.override(_lang(lang)):
        try:
            return formats.date_format(value, fmt, use_l10n=True)
        except (AttributeError, TypeError, ValueError):
            return ""


def colour_letter(colour, *, lang: str | None = None) -> str:
    """The crosstable letter of ``colour`` (``"w"``/``"white"`` or ``"b"``/``"black"``): Turkish ``B``
    (beyaz) / ``S`` (siyah), English ``W`` / ``B``; ``""`` for no colour (a bye)."""
    white, black = COLOUR_LETTERS.get(_lang(lang), COLOUR_LETTERS["en"])
    key = str(colour or "").lower()
    if key in _WHITE:
        return white
    if key in _BLACK:
        return black
    return ""


def stone_margin(value, *, lang: str | None = None) -> str:
    """A set's stone margin as the federation counts it (Kural 14.4: own stones − 24): ``+2 taş``,
    ``−12 taş``, ``0 taş`` in Turkish; ``+2 stones``, ``+1 stone`` in English. ``""`` for none."""
    if value is None or value == "":
        return ""
    n = int(value)
    sign = "+" if n > 0 else ("−" if n < 0 else "")
    with translation.override(_lang(lang)):
        return ngettext("%(sign)s%(n)d stone", "%(sign)s%(n)d stones", abs(n)) % {"sign": sign, "n": abs(n)}
