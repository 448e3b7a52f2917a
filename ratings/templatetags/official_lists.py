"""``{% load official_lists %}``: ``{{ entry.category|category_label }}`` (U12, 50+, Açık/Open) for the
age category codes stored on official rating lists."""
from __future__ import annotations

from django import template

from federation import privacy

register = template.Library()


@register.filter
def category_label(code) -> str:
    code = code or "open"
    return privacy.age_category_label(code) if code in privacy.AGE_GROUPS else str(code)  # a group dropped since
