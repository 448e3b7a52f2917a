"""Writes to per-tournament roles of accounts (federation staff; ``<entity>_<action>``, keyword-only,
atomic). ``TournamentRole`` is a tracked model: its history rows carry the action (``role.assign``,
``role.remove``) through audit_context."""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from federation.audit import audit_context
from federation.errors import Conflict, ValidationFailed
from federation.input_checks import clean_reason_text, require_staff
from tournaments.models import TournamentRole


@transaction.atomic
def tournament_role_assign(*, user, account, tournament, role: str, reason: str = ""):
    """Make ``account`` organiser or referee (``role``) of ``tournament`` (federation staff); returns the
    :class:`~tournaments.models.TournamentRole`. Refused: an unknown role (ValidationFailed, field
    ``role``), an archived tournament or a role the account has already there (Conflict). Recorded in the
    tournament's history (``role.assign``)."""
    require_staff(user, _("Only federation staff can assign tournament roles."))
    if role not in TournamentRole.Role.values:
        raise ValidationFailed(_("Choose organiser or referee."), field="role")
    reason = clean_reason_text(reason)
    if tournament.archived_at is not None:
        raise Conflict(_("%(t)s is archived.") % {"t": tournament.name}, field="tournament")
    label = TournamentRole.Role(role).label
    if TournamentRole.objects.filter(tournament=tournament, user=account, role=role).exists():
        raise Conflict(_("%(u)s is already %(role)s of %(t)s.") % {"u": account.get_username(), "role": label,
                                                                     "t": tournament.name}, field="tournament")
    with audit_context(action="role.assign", user=user, reason=reason, tournament_id=tournament.pk):
        try:
            with transaction.atomic():
                return TournamentRole.objects.create(tournament=tournament, user=account, role=role)
        except IntegrityError as exc:  # assigned meanwhile
            raise Conflict(_("%(u)s is already %(role)s of %(t)s.") % {"u": account.get_username(), "role": label,
                                                                         "t": tournament.name},
                           field="tournament") from exc


@transaction.atomic
def tournament_role_remove(*, user, role, reason: str = "") -> None:
    """Take a per-tournament role away (federation staff). Recorded in the tournament's history
    (``role.remove``); already gone: nothing to do."""
    require_staff(user, _("Only federation staff can remove tournament roles."))
    reason = clean_reason_text(reason)
    row = TournamentRole.objects.select_for_update().filter(pk=role.pk).first()
    if row is None:
        return
    with audit_context(action="role.remove", user=user, reason=reason, tournament_id=row.tournament_id):
        row.delete()
