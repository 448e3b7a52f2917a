"""Who may do what in a tournament. One condition per line, so each branch is tested.

* Organisers (global ``organiser`` group, federation staff, or a per-tournament organiser role)
  create tournaments, pair rounds, publish pairings and standings, close rounds.
* Referees (global ``referee`` group or per-tournament referee role) and organisers enter results.
* Everyone sees published rounds and published standings.

The checks of one request cost one query in all: the user's group names and roles in the tournament
are read together (:func:`load_memberships`) and memoised on the user object
(:func:`federation.roles.memberships_memo`, dropped when a group, a membership or a role changes).
"""
from __future__ import annotations

from django.contrib.auth.models import Group
from django.db.models import CharField, Value
from django.utils.translation import gettext as _

from federation import roles
from federation.errors import PermissionDenied
from federation.prepared import PreparedRead
from tournaments.models import Tournament, TournamentRole


def _mine(tournament_id: int, user_id: int):
    return TournamentRole.objects.filter(tournament_id=tournament_id, user_id=user_id).order_by()


def _roles_and_groups(tournament_id: int, user_id: int):
    kind = CharField()
    return _mine(tournament_id, user_id).values_list("role", Value("role", output_field=kind)).union(
        Group.objects.filter(user__pk=user_id).order_by().values_list("name", Value("group", output_field=kind)),
        all=True,
    )


# the two statements of load_memberships, built once (federation.prepared; issue 22); placeholders
_ROLES_AND_GROUPS = PreparedRead(_roles_and_groups, tournament_id=-987_654_301, user_id=-987_654_302)
_ROLES = PreparedRead(lambda tournament_id, user_id: _mine(tournament_id, user_id).values_list("role", flat=True),
                      tournament_id=-987_654_301, user_id=-987_654_302)


def load_memberships(user, tournament: Tournament) -> frozenset[str]:
    """``user``'s roles in ``tournament`` (``organiser``/``referee``; empty for an anonymous user), with
    ``user``'s group names read in the same query when they are not known yet: the permission checks of
    a request cost one query, memoised on the user object (:func:`federation.roles.memberships_memo`)."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    memo = roles.memberships_memo(user)
    tid = tournament.pk
    if tid in memo["roles"]:
        return memo["roles"][tid]
    if memo["groups"] is None:
        rows = _ROLES_AND_GROUPS.all(tournament_id=tid, user_id=user.pk)
        memo["groups"] = frozenset(name for name, what in rows if what == "group")
        found = frozenset(name for name, what in rows if what == "role")
    else:
        found = frozenset(_ROLES.all(tournament_id=tid, user_id=user.pk))
    memo["roles"][tid] = found
    return found


def _has_role(user, tournament: Tournament, role: str) -> bool:
    return role in load_memberships(user, tournament)


def can_create_tournament(user) -> bool:
    """Staff and organisers may create or import tournaments."""
    if roles.is_staff(user):
        return True
    return roles.in_group(user, roles.ORGANISER)


def can_organise(user, tournament: Tournament) -> bool:
    """Pair, publish, close, edit entries of ``tournament``."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser or user.is_staff:
        return True
    if tournament.created_by_id == user.id:
        return True
    load_memberships(user, tournament)  # groups and roles in one query, before the checks that read them
    if roles.is_staff(user):
        return True
    if roles.in_group(user, roles.ORGANISER):
        return True
    return _has_role(user, tournament, TournamentRole.Role.ORGANISER)


def sees_event_personal_data(user, tournament: Tournament) -> bool:
    """Staff and the organisers of ``tournament`` (:func:`can_organise`): they see the birth year and sex
    of its entries (:mod:`federation.privacy`)."""
    return can_organise(user, tournament)


def can_enter_results(user, tournament: Tournament) -> bool:
    """Enter or correct match results of ``tournament``."""
    if can_organise(user, tournament):
        return True
    if roles.in_group(user, roles.REFEREE):
        return True
    return getattr(user, "is_authenticated", False) and _has_role(user, tournament, TournamentRole.Role.REFEREE)


#: How many of the tournaments a refused referee referees are named (the rest are counted).
_NAMED_TOURNAMENTS = 3


def results_refused_message(user, tournament: Tournament) -> str:
    """Why ``user`` may not enter results in ``tournament``: a referee of other tournaments is told which ones
    they referee (the first few by start date, newest first, the rest counted); anyone else that only
    referees and organisers can. One query, asked only when the permission is refused."""
    if getattr(user, "is_authenticated", False):
        names = list(
            Tournament.objects.filter(roles__user_id=user.pk, roles__role=TournamentRole.Role.REFEREE)
            .exclude(pk=tournament.pk).distinct().order_by("-start_date", "-id").values_list("name", flat=True)
        )
        if names:
            shown = ", ".join(f"“{n}”" for n in names[:_NAMED_TOURNAMENTS])
            if len(names) > _NAMED_TOURNAMENTS:
                shown = _("%(names)s and %(n)d more") % {"names": shown, "n": len(names) - _NAMED_TOURNAMENTS}
            return _("You referee %(mine)s, not “%(t)s”: only the referees and organisers of “%(t)s” can enter its "
                     "results.") % {"mine": shown, "t": tournament.name}
    return _("Only referees and organisers can enter results.")


def require(allowed: bool, message: str | None = None) -> None:
    """Raise :class:`federation.errors.PermissionDenied` unless ``allowed``."""
    if not allowed:
        raise PermissionDenied(message or _("You do not have permission to do this."))
