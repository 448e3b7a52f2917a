"""Roles of people in the federation, as Django groups, and the checks on them.

Global roles: ``staff`` (federation staff: everything), ``organiser`` (creates and runs tournaments),
``referee`` (enters results). Per-tournament roles live in ``tournaments.models.TournamentRole``.
Each ``access_*`` function has one condition per line so that each branch is tested.
"""
from __future__ import annotations

STAFF = "staff"
ORGANISER = "organiser"
REFEREE = "referee"
ALL_GROUPS = (STAFF, ORGANISER, REFEREE)


def in_group(user, name: str) -> bool:
    """True when ``user`` is authenticated and a member of group ``name``."""
    if not getattr(user, "is_authenticated", False):
        return False
    return user.groups.filter(name=name).exists()


def is_staff(user) -> bool:
    """Federation staff: Django superusers, ``is_staff`` users and the ``staff`` group."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser or user.is_staff:
        return True
    return in_group(user, STAFF)


def can_register_players(user) -> bool:
    """Staff and organisers may register a new player (a walk-in at a tournament); editing, merging and
    (de)activating players stays with the staff."""
    if is_staff(user):
        return True
    return in_group(user, ORGANISER)
