"""Writes to the member register (``<entity>_<action>``, keyword-only, atomic)."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from federation import roles
from federation.errors import Conflict, PermissionDenied, ValidationFailed
from federation.models import Club, Player


@transaction.atomic
def player_register(
    *,
    federation_id: str,
    first_name: str,
    last_name: str,
    sex: str = "",
    birth_year: int | None = None,
    club: Club | None = None,
    city: str = "",
    rating: int = 0,
    user=None,
) -> Player:
    """Register a new player (organisers and staff).

    ``federation_id`` must be new (Conflict otherwise, naming the existing player); ``rating`` in
    0..4000 rating points (0 = unrated); ``birth_year`` 1900..2100. Raises ValidationFailed with the
    field at fault.
    """
    if user is not None and not (roles.is_staff(user) or roles.in_group(user, roles.ORGANISER)):
        raise PermissionDenied(_("Only organisers can register players."))
    federation_id = (federation_id or "").strip()
    if not federation_id:
        raise ValidationFailed(_("A player needs a federation id."), field="federation_id")
    if not (last_name or "").strip():
        raise ValidationFailed(_("A player needs a last name."), field="last_name")
    existing = Player.objects.filter(federation_id=federation_id).first()
    if existing is not None:
        raise Conflict(
            _("Federation id %(id)s is already %(p)s.") % {"id": federation_id, "p": existing.full_name},
            field="federation_id",
        )
    if sex not in ("", "m", "f"):
        raise ValidationFailed(_("Sex is m or f."), field="sex")
    if birth_year is not None and not 1900 <= int(birth_year) <= 2100:
        raise ValidationFailed(_("The birth year must be between 1900 and 2100."), field="birth_year")
    if not 0 <= int(rating or 0) <= 4000:
        raise ValidationFailed(_("A rating is between 0 and 4000."), field="rating")
    return Player.objects.create(
        federation_id=federation_id, first_name=(first_name or "").strip(), last_name=last_name.strip(),
        sex=sex, birth_year=birth_year, club=club, city=(city or (club.city if club else "")).strip(),
        rating=int(rating or 0),
    )
