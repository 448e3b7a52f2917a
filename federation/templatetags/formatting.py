"""``{% load formatting %}``: one way to write numbers, dates, colours and margins (:mod:`federation.formatting`).

- ``{{ line.points|points }}`` → ``2,5`` / ``3`` (at most one decimal, the language's separator);
- ``{{ value|number }}`` → at most two decimals, trailing zeros dropped (``2,5`` not ``2,50``);
  ``{{ value|number:1 }}`` at most one; ``{{ change|signed }}`` → ``+12,3`` / ``−4``;
- ``{{ value|fixed:2 }}`` → exactly two decimals (``2,50``), ``{{ change|signed_fixed:2 }}`` → ``+0,17`` /
  ``−7,80``: one column, one number of decimals;
- ``{{ t.start_date|day }}`` → ``1 Aralık 2026`` / ``1 Dec 2026``; ``{{ row.at|moment }}`` with the time;
  ``{{ m.result_entered_at|clock }}`` → ``14:05`` (the site's time zone);
- ``{{ "w"|colour_letter }}`` → ``B`` in Turkish, ``W`` in English; ``{% colour_legend %}`` → the legend;
- ``{{ ln.margin|stone_margin }}`` → ``+2 taş`` / ``+2 stones`` (Kural 14.4).
"""
from __future__ import annotations

from django import template
from django.utils.translation import gettext

from federation import formatting

register = template.Library()


@register.filter
def number(value, max_decimals=2):
    try:
        places = int(max_decimals)
    except (TypeError, ValueError):
        places = 2
    return formatting.number(value, places)


@register.filter
def points(value):
    return formatting.points(value)


@register.filter
def signed(value, max_decimals=2):
    try:
        places = int(max_decimals)
    except (TypeError, ValueError):
        places = 2
    return formatting.signed(value, places)


def _places(value, default: int = 2) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


@register.filter
def fixed(value, decimals=2):
    return formatting.number(value, _places(decimals), fixed=True)


@register.filter
def signed_fixed(value, decimals=2):
    return formatting.signed(value, _places(decimals), fixed=True)


@register.filter(expects_localtime=True)
def day(value):
    return formatting.day(value)


@register.filter(expects_localtime=True)
def moment(value):
    return formatting.moment(value)


@register.filter(expects_localtime=True)
def clock(value):
    return formatting.clock(value)


@register.filter
def colour_letter(colour):
    return formatting.colour_letter(colour)


@register.filter
def stone_margin(value):
    return formatting.stone_margin(value)


@register.simple_tag
def colour_legend() -> str:
    """"B = beyaz, S = siyah" in Turkish, "W = white, B = black" in English (the letters of the cells)."""
    return gettext("%(w)s = white, %(b)s = black") % {
        "w": formatting.colour_letter("w"), "b": formatting.colour_letter("b"),
    }
