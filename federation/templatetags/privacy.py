"""``{% load privacy %}``: ``{{ user|display_name }}`` ("First Last" or "—", never the user name) and
``{{ player|age_category }}`` (U12, 50+, Açık/Open, or "—") — see :mod:`federation.privacy`."""
from __future__ import annotations

from django import template

from federation import privacy

register = template.Library()


@register.filter
def display_name(user) -> str:
    return privacy.display_name(user)


@register.filter
def age_category(player) -> str:
    return privacy.age_category_label(privacy.age_category(getattr(player, "birth_year", None)))
