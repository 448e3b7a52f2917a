"""``{% load people %}``: ``{{ user|is_federation_staff }}`` (Django staff, superusers and the ``staff``
group — :func:`federation.roles.is_staff`) and ``{{ user|own_player }}`` (the player whose login the
user is, or None) for the header's links; ``{{ h.by|actor_name }}`` (name, else user name) on history tables."""
from __future__ import annotations

from django import template

from federation import roles

register = template.Library()


@register.filter
def is_federation_staff(user) -> bool:
    return roles.is_staff(user)


@register.filter
def own_player(user):
    if not getattr(user, "is_authenticated", False):
        return None
    from federation.models import Player

    return Player.objects.filter(user=user).only("pk", "federation_id").first()


@register.filter
def actor_name(user) -> str:
    """Who did something, on the staff's history tables: "First Last", else the user name, "—" for
    nobody (a script or the system). Staff pages only: public pages use ``display_name``."""
    if user is None:
        return "—"
    name = f"{getattr(user, 'first_name', '') or ''} {getattr(user, 'last_name', '') or ''}".strip()
    return name or user.get_username() or "—"
