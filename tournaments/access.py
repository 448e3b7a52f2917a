"""Who may do what in a tournament. One condition per line, so each branch is tested.

* Organisers (global ``organiser`` group, federation staff, or a per-tournament organiser role)
  create tournaments, pair rounds, publish pairings and standings, close rounds.
* Referees (global ``referee`` group or per-tournament referee role) and organisers enter results.
* Everyone sees published rounds and published standings.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from federation import roles
from federation.errors import PermissionDenied
from tournaments.models import Tournament, TournamentRole


def _has_role(user, tournament: Tournament, role: str) -> bool:
    return TournamentRole.objects.filter(tournament=tournament, user=user, role=role).exists()


def can_create_tournament(user) -> bool:
    """Staff and organisers may create or import tournaments."""
    if roles.is_staff(user):
        return True
    return roles.in_group(user, roles.ORGANISER)


def can_organise(user, tournament: Tournament) -> bool:
    """Pair, publish, close, edit entries of ``tournament``."""
    if not getattr(user, "is_authenticated", False):
        return False
    if roles.is_staff(user):
        return True
    if tournament.created_by_id == user.id:
        return True
    if roles.in_group(user, roles.ORGANISER):
        return True
    return _has_role(user, tournament, TournamentRole.Role.ORGANISER)


def can_enter_results(user, tournament: Tournament) -> bool:
    """Enter or correct match results of ``tournament``."""
    if can_organise(user, tournament):
        return True
    if roles.in_group(user, roles.REFEREE):
        return True
    return getattr(user, "is_authenticated", False) and _has_role(user, tournament, TournamentRole.Role.REFEREE)


def require(allowed: bool, message: str | None = None) -> None:
    """Raise :class:`federation.errors.PermissionDenied` unless ``allowed``."""
    if not allowed:
        raise PermissionDenied(message or _("You do not have permission to do this."))
