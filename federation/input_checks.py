"""Checks shared by the writes to the member register and its accounts (:mod:`federation.services`,
:mod:`federation.accounts`): staff only, a text field's rules, a reason, and a save that turns a lost
unique race into a Conflict naming the field."""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from federation import roles
from federation.errors import Conflict, PermissionDenied, ValidationFailed
from federation.validators import clean_reason, first_control_character

#: Longest reason accepted for an edit, a (de)activation or a merge.
REASON_MAX_LENGTH = 500


def require_staff(user, message: str) -> None:
    """:class:`PermissionDenied` with ``message`` unless ``user`` is federation staff."""
    if not roles.is_staff(user):
        raise PermissionDenied(message)


def field_label(model, field: str) -> str:
    """The capitalised verbose name of ``model``'s ``field`` (as messages name it)."""
    return capfirst(str(model._meta.get_field(field).verbose_name))


def clean_text(value, *, model, field: str, max_length: int, required: bool = False) -> str:
    """``value`` stripped; ValidationFailed naming ``field`` when it is not text, has a control
    character, is longer than ``max_length`` or is empty while ``required``."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ValidationFailed(_("%(field)s must be text.") % {"field": field_label(model, field)}, field=field)
    if first_control_character(value) is not None:
        raise ValidationFailed(
            _("%(field)s contains a control character.") % {"field": field_label(model, field)}, field=field
        )
    value = value.strip()
    if required and not value:
        raise ValidationFailed(_("%(field)s is required.") % {"field": field_label(model, field)}, field=field)
    if len(value) > max_length:
        raise ValidationFailed(
            _("%(field)s is longer than %(n)d characters.") % {"field": field_label(model, field), "n": max_length},
            field=field,
        )
    return value


def clean_reason_text(reason, *, required: bool = False) -> str:
    """A reason (:func:`federation.validators.clean_reason`, at most :data:`REASON_MAX_LENGTH` characters)."""
    return clean_reason(reason, max_length=REASON_MAX_LENGTH, required=required)


def save_fields(instance, fields: list[str], *, unique: dict[str, str]) -> None:
    """Save ``fields`` of ``instance``; a unique constraint lost to a concurrent write becomes
    Conflict (409) naming the field (``unique`` maps field -> message)."""
    try:
        with transaction.atomic():
            instance.save(update_fields=fields)
    except IntegrityError as exc:
        for field, message in unique.items():
            if field in fields:
                raise Conflict(message, field=field) from exc
        raise
