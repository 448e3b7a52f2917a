"""Writes of the federation's rating parameters (``<entity>_<action>``, keyword-only, atomic): save a
candidate, adopt it, return to the shipped defaults (docs/ratings.md, "Tuning and adoption"). Each
adoption or return is followed by a full re-rating (``ratings.rerate_all``)."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.engine import FEDERATION_SYSTEM


PARAMETER_LABEL_MAX_LENGTH = 120


def _require_staff(user, message: str) -> None:
    from federation import roles
    from federation.errors import PermissionDenied

    if not roles.is_staff(user):
        raise PermissionDenied(message)


def _json_value_ok(value) -> bool:
    import json

    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


def _clean_params(params) -> dict:
    """``params`` (name -> value) checked against the federation system's parameters and returned as
    every parameter's value (the given ones over the shipped defaults, in the engine's order), so a
    stored set says exactly which numbers it rates with. Raises ValidationFailed, field ``params``,
    whose message names the parameter at fault (a value outside its admitted range included)."""
    import dataclasses
    import math
    from collections.abc import Mapping

    from federation.errors import ValidationFailed
    from ratings.engine import RatingInputError, federation_params
    from ratings.parameter_checks import range_refusal
    if not isinstance(params, Mapping):
        raise ValidationFailed(_("The parameters must be a JSON object of names and values."), field="params")
    defaults = federation_params(None)
    fields = {f.name: f for f in dataclasses.fields(defaults)}
    cleaned = {}
    for key, value in params.items():
        if key not in fields:
            raise ValidationFailed(
                _("Unknown rating parameter %(key)s (known: %(known)s).") % {"key": key, "known": ", ".join(fields)},
                field="params",
            )
        default = getattr(defaults, key)
        nullable = default is None or "None" in str(fields[key].type)
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if value is None and nullable:
            pass
        elif isinstance(default, bool):
            if not isinstance(value, bool):
                raise ValidationFailed(_("%(key)s must be true or false.") % {"key": key}, field="params")
        elif isinstance(default, int):
            if not (number and math.isfinite(value) and value == int(value)):
                raise ValidationFailed(_("%(key)s must be a whole number.") % {"key": key}, field="params")
            value = int(value)
        elif not number or not math.isfinite(value):
            raise ValidationFailed(_("%(key)s must be a finite number.") % {"key": key}, field="params")
        elif isinstance(default, float) or default is None:
            value = float(value)
        cleaned[key] = value
    if cleaned.get("monotone", True) is not True:
        raise ValidationFailed(
            _("monotone: “a won set never lowers a rating” is the federation's rule and cannot be switched off."),
            field="params",
        )
    if refusal := range_refusal(cleaned):  # the admitted ranges (issue 23), said in the user's language
        raise ValidationFailed(refusal, field="params")
    try:
        obj = federation_params(cleaned)
    except RatingInputError as exc:
        text = str(exc)
        key = next((k for k in cleaned if k in text), None)
        message = text if key is None or text.startswith(key) else f"{key}: {text}"
        raise ValidationFailed(message, field="params") from None
    full = {name: getattr(obj, name) for name in fields}
    if not _json_value_ok(full):
        raise ValidationFailed(_("The parameters must be finite numbers, true/false or empty."), field="params")
    return full


def _clean_label(label) -> str:
    from django.utils.translation import gettext as _

    from federation.errors import ValidationFailed
    from federation.validators import first_control_character

    if not isinstance(label, str):
        raise ValidationFailed(_("The label must be text."), field="label")
    label = label.strip()
    if not label:
        raise ValidationFailed(_("Give the parameter set a label."), field="label")
    if first_control_character(label) is not None:
        raise ValidationFailed(_("Control characters are not allowed in a label."), field="label")
    if len(label) > PARAMETER_LABEL_MAX_LENGTH:
        raise ValidationFailed(_("The label is longer than %(n)d characters.") % {"n": PARAMETER_LABEL_MAX_LENGTH},
                               field="label")
    return label


@transaction.atomic
def rating_parameters_create(*, label: str, params: dict, report: dict | None = None, user):
    """Save a candidate :class:`~ratings.models.RatingParameterSet` of the federation's system (not
    adopted): ``params`` (name -> value, over the shipped defaults; stored with every parameter's
    value), ``report`` what produced it (``rating_tune``'s JSON; ``{}`` for a set entered by hand).

    ``user``: federation staff (PermissionDenied otherwise); None for the command line
    (``rating_tune --save``). Refusals (ValidationFailed): ``label`` empty, longer than 120 characters or
    with control characters (field ``label``); an unknown parameter or a bad value (field ``params``,
    the message names the parameter); ``report`` not a JSON object (field ``report``). Recorded in the
    set's history (``rating_parameters.create``).
    """
    from django.utils.translation import gettext as _

    from federation.audit import audit_context
    from federation.errors import ValidationFailed
    from ratings.models import RatingParameterSet

    if user is not None:
        _require_staff(user, _("Only federation staff can change the rating parameters."))
    label = _clean_label(label)
    params = _clean_params(params)
    report = {} if report is None else report
    if not isinstance(report, dict) or not _json_value_ok(report):
        raise ValidationFailed(_("The tuning report must be a JSON object."), field="report")
    with audit_context(action="rating_parameters.create", user=user):
        return RatingParameterSet.objects.create(
            label=label, system=FEDERATION_SYSTEM, params=params, report=report,
            created_by=user if getattr(user, "is_authenticated", False) else None,
        )


def _rerate_all_on_commit() -> None:
    """Queue the full re-rating (``ratings.tasks.rerate_all_task``, on the ratings queue) once the
    transaction commits. A broker that cannot be reached is logged: the adoption stands, the
    parameter page shows the re-rating as pending, and ``manage.py rerate_all`` does it by hand."""
    import logging

    from ratings.tasks import rerate_all_task

    def send():
        try:
            rerate_all_task.delay()
        except Exception as exc:  # noqa: BLE001 - eager mode raises the task's own errors here too
            from django.conf import settings

            if settings.CELERY_TASK_ALWAYS_EAGER:
                raise
            logging.getLogger(__name__).warning("could not queue the full re-rating: %s", exc)

    transaction.on_commit(send)


def _set_in_force(system: str):
    from ratings.models import RatingParameterSet

    return (
        RatingParameterSet.objects.select_for_update()
        .filter(system=system, adopted_at__isnull=False, retired_at__isnull=True)
        .first()
    )


@transaction.atomic
def rating_parameters_adopt(*, parameter_set, user, reason: str):
    """Put ``parameter_set`` in force for the federation's rating (federation staff; ``reason``
    required) and return the row in force.

    The set in force before is retired (``retired_at``/``retired_by``); the adopted row records
    ``adopted_at``, ``adopted_by`` and ``adoption_reason``; both history rows carry the action
    ``rating_parameters.adopt``, the user and the reason. A set adopted before and since retired is
    adopted as a copy (a new row with its label, parameters and report), so each row keeps its own
    adoption. After the commit a full re-rating runs with the new parameters
    (``ratings.tasks.rerate_all_task``).

    Refusals: not staff (PermissionDenied); reason empty (ValidationFailed, field ``reason``); the set
    is in force already, or belongs to another system (Conflict); its parameters are no longer valid
    for the engine (ValidationFailed, field ``params``, naming the parameter).
    """
    from django.db import IntegrityError
    from django.utils.translation import gettext as _

    from federation.audit import audit_context
    from federation.errors import Conflict
    from federation.validators import clean_reason
    from ratings.models import RatingParameterSet

    _require_staff(user, _("Only federation staff can change the rating parameters."))
    reason = clean_reason(reason, required=True,
                          message=_("Say why these parameters are adopted (the reason is recorded)."))
    row = RatingParameterSet.objects.select_for_update().get(pk=parameter_set.pk)
    if row.system != FEDERATION_SYSTEM:
        raise Conflict(_("This parameter set is for the rating system %(s)s, not the federation's (%(f)s).")
                       % {"s": row.system, "f": FEDERATION_SYSTEM}, field="system")
    if row.in_force:
        raise Conflict(_("This parameter set is in force already."), field="parameter_set")
    params = _clean_params(row.params)
    now = timezone.now()
    with audit_context(action="rating_parameters.adopt", user=user, reason=reason):
        current = _set_in_force(FEDERATION_SYSTEM)
        if current is not None:
            current.retired_at, current.retired_by = now, user
            current.save(update_fields=["retired_at", "retired_by"])
        if row.adopted_at is not None:  # adopted and retired before: adopt a copy
            row = RatingParameterSet(label=row.label, system=row.system, report=row.report, created_by=user)
        row.params = params
        row.adopted_at, row.adopted_by, row.adoption_reason = now, user, reason
        try:
            with transaction.atomic():
                row.save()
        except IntegrityError as exc:  # another set adopted meanwhile
            raise Conflict(_("Another parameter set was adopted meanwhile; reload the page."),
                           field="parameter_set") from exc
    _rerate_all_on_commit()
    return row


@transaction.atomic
def rating_parameters_revert_to_defaults(*, user, reason: str):
    """Return the federation's rating to the engine's shipped defaults (federation staff; ``reason``
    required): the set in force is retired (who, when; the reason is in its history row, action
    ``rating_parameters.revert``) and returned; a full re-rating follows after the commit.
    Refusals: not staff (PermissionDenied); reason empty (ValidationFailed, field ``reason``); the
    shipped defaults are in force already (Conflict)."""
    from django.utils.translation import gettext as _

    from federation.audit import audit_context
    from federation.errors import Conflict
    from federation.validators import clean_reason

    _require_staff(user, _("Only federation staff can change the rating parameters."))
    reason = clean_reason(reason, required=True,
                          message=_("Say why the shipped defaults are restored (the reason is recorded)."))
    current = _set_in_force(FEDERATION_SYSTEM)
    if current is None:
        raise Conflict(_("The shipped defaults are in force already."), field="parameter_set")
    with audit_context(action="rating_parameters.revert", user=user, reason=reason):
        current.retired_at, current.retired_by = timezone.now(), user
        current.save(update_fields=["retired_at", "retired_by"])
    _rerate_all_on_commit()
    return current
