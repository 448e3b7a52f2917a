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

#: Bumped by every change of a group membership, a group or a per-tournament role in this process
#: (:func:`forget_memberships`, connected in ``FederationConfig.ready``): memos older than it are dropped.
_generation = [0]


def forget_memberships(*args, **kwargs) -> None:
    """Signal receiver: a membership changed, so every memo of :func:`memberships_memo` is stale."""
    _generation[0] += 1


def memberships_memo(user) -> dict:
    """The memo of ``user``'s group names (``"groups"``: frozenset or None until read) and per-tournament
    roles (``"roles"``: tournament id → frozenset of role names), kept on the user object.

    A request loads its user afresh, so in production the memo lives for one request: the permission
    checks of a request (a result entry asks "referee or organiser?" two or three times) cost one query
    in all (:func:`tournaments.access.load_memberships`). Any group, membership or role saved or deleted
    in this process drops every memo (:func:`forget_memberships`), so a user object kept across
    requests (a test client's ``force_authenticate``) never answers from an old membership."""
    memo = getattr(user, "_memberships_memo", None)
    if memo is None or memo["generation"] != _generation[0]:
        memo = {"generation": _generation[0], "groups": None, "roles": {}}
        try:
            user._memberships_memo = memo
        except AttributeError:  # an object that takes no attributes: no memo, a query per check
            pass
    return memo


def group_names(user) -> frozenset[str]:
    """The names of ``user``'s groups (empty for an anonymous user); one query, then memoised on the
    user object (:func:`memberships_memo`)."""
    if not getattr(user, "is_authenticated", False):
        return frozenset()
    memo = memberships_memo(user)
    if memo["groups"] is None:
        memo["groups"] = frozenset(user.groups.values_list("name", flat=True))
    return memo["groups"]


def in_group(user, name: str) -> bool:
    """True when ``user`` is authenticated and a member of group ``name`` (:func:`group_names`)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return name in group_names(user)


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


def connect_signals() -> None:
    """Drop the membership memos (:func:`forget_memberships`) whenever a group, a user's groups or a
    per-tournament role changes (called from ``FederationConfig.ready``)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db.models.signals import m2m_changed, post_delete, post_save

    through = get_user_model().groups.through
    m2m_changed.connect(forget_memberships, sender=through, dispatch_uid="roles-groups-m2m")
    for model in (Group, through, "tournaments.TournamentRole"):
        name = model if isinstance(model, str) else model.__name__
        post_save.connect(forget_memberships, sender=model, dispatch_uid=f"roles-{name}-save")
        post_delete.connect(forget_memberships, sender=model, dispatch_uid=f"roles-{name}-delete")
