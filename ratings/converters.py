"""The ``<isodate:...>`` URL converter of the official rating lists (``/ratings/lists/2026-05-01/``),
registered once when this module is first imported (by ``ratings.urls`` and ``ratings.urls_api``)."""
from __future__ import annotations

import datetime as dt

from django.urls import register_converter


class IsoDateConverter:
    """A calendar date written ``YYYY-MM-DD``; an impossible one (2026-02-30) matches no URL (404)."""

    regex = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"

    def to_python(self, value: str) -> dt.date:
        return dt.date.fromisoformat(value)  # ValueError: no match

    def to_url(self, value) -> str:
        return value.isoformat() if isinstance(value, dt.date) else str(value)


register_converter(IsoDateConverter, "isodate")
