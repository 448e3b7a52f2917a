"""Guards around the federation's rating parameters (issue 23): the admitted ranges said in the
user's language, the rating system for pages that must never fail because of a parameter set, and
what happens when a full re-rating fails.

- :func:`range_refusal` — the translated reason a set is refused (the ranges themselves are the pure
  table :data:`ratings.engine.parameters.PARAMETER_RANGES`);
- :func:`display_rating_system` — the system in force, or the shipped defaults when the stored set
  cannot be built (the rating list reads only its display thresholds);
- :func:`rerating_failure_record` — a failed full re-rating (its transaction rolled back, so the
  previous ratings stay served) is written on the parameter set and, when that set never rated
  successfully, its adoption is undone: the set it replaced is back in force.
"""
from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.engine.parameters import PARAMETER_RANGES, parameter_errors

logger = logging.getLogger(__name__)

_UNITS = {
    "rating points": gettext_lazy("rating points"),
    "Glicko-2 volatility": gettext_lazy("(Glicko-2 volatility)"),
    "Glicko-2 units": gettext_lazy("(Glicko-2 units)"),
    "days": gettext_lazy("days"),
    "share of the result score": gettext_lazy("(share of the result score)"),
    "stones": gettext_lazy("stones"),
}

_REASONS = {
    "default_rating": gettext_lazy("a rating outside 0..4000 is off the federation's scale"),
    "initial_rd": gettext_lazy("a new player's deviation must be between a known player's and 500"),
    "known_rd": gettext_lazy("a deviation below 30 points claims a certainty no set record gives"),
    "min_rd": gettext_lazy("a floor below 10 points freezes ratings and divides by almost zero"),
    "provisional_rd": gettext_lazy("the provisional mark is shown between 30 and 500 points of deviation"),
    "initial_volatility": gettext_lazy("published systems keep the volatility at most about 0.1-0.3"),
    "max_volatility": gettext_lazy("an unbounded volatility grows a rating to overflow"),
    "tau": gettext_lazy("Glickman (2013): reasonable choices are 0.3..1.2"),
    "eps": gettext_lazy("the root search needs a tolerance of 1e-9..1e-3"),
    "period_days": gettext_lazy("a rating period lasts a day to a year"),
    "margin_weight": gettext_lazy("a share lies in 0..1"),
    "margin_scale": gettext_lazy("a margin is counted in whole stones (at most 48); a smaller scale overflows"),
}


def range_refusal(params: dict) -> str | None:
    """The reason, in the active language, that the first parameter of ``params`` (name -> value)
    outside its admitted range is refused, naming it: ``"margin_scale: 1 ile 48 taş arasında olmalı
    (…); verilen 0.03"``; None when every value is admitted."""
    errors = parameter_errors(params)
    if not errors:
        return None
    name = next(iter(errors))
    rng = PARAMETER_RANGES[name]
    template = (_("%(name)s must be a whole number from %(low)s to %(high)s %(unit)s (%(why)s); got %(value)s.")
                if rng.integer else
                _("%(name)s must be a number from %(low)s to %(high)s %(unit)s (%(why)s); got %(value)s."))
    return template % {"name": name, "low": f"{rng.low:g}", "high": f"{rng.high:g}", "unit": _UNITS.get(rng.unit, rng.unit),
                       "why": _REASONS.get(name, rng.why), "value": repr(params[name])}


def display_rating_system():
    """:func:`ratings.services.rating_system`, or the shipped defaults' system when the stored set in
    force cannot be built (a set saved before the ranges existed): a page is never a 500 because of a
    parameter set; the staff page says what is wrong."""
    from ratings.engine import federation_system
    from ratings.services import rating_system

    try:
        return rating_system()
    except Exception as exc:  # noqa: BLE001 - any failure of a stored set falls back to the defaults
        logger.warning("rating parameters in force are unusable, showing the shipped defaults: %s", exc)
        return federation_system(None)


def failure_reason(exc: BaseException) -> str:
    """A one-line reason for a failed re-rating: the exception's class and message (at most 500 characters)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}"[:500] if text else type(exc).__name__


@transaction.atomic
def rerating_failure_record(*, error: str, undo: bool = True):
    """Record that the full re-rating failed with ``error`` (its own transaction rolled back, so the
    stored ratings are those of the previous parameters) and return the parameter set it was written
    on, or None when the shipped defaults are in force and no set was ever adopted.

    The set in force (else the most recently retired one) gets ``rerating_failed_at`` and
    ``rerating_error``. When the set in force has never completed a re-rating (no rating event was
    written since its adoption), its adoption is undone (unless ``undo`` is false: the data was
    refused, not the parameters): it is retired and the set its adoption retired (if any) is in force
    again, so what is in force matches the ratings served. History action
    ``rating_parameters.rerating_failed`` with the error as reason.
    """
    from django.db.models import Max

    from federation.audit import audit_context
    from ratings.engine import FEDERATION_SYSTEM
    from ratings.models import RatingEvent, RatingParameterSet

    sets = RatingParameterSet.objects.select_for_update().filter(system=FEDERATION_SYSTEM)
    now = timezone.now()
    current = sets.filter(adopted_at__isnull=False, retired_at__isnull=True).first()
    with audit_context(action="rating_parameters.rerating_failed", user=None, reason=error):
        if current is None:
            row = sets.filter(retired_at__isnull=False).order_by("-retired_at", "-id").first()
            if row is not None:
                row.rerating_failed_at, row.rerating_error = now, error
                row.save(update_fields=["rerating_failed_at", "rerating_error"])
            return row
        current.rerating_failed_at, current.rerating_error = now, error
        last = RatingEvent.objects.aggregate(last=Max("rated_at"))["last"]
        never_rated = last is None or last < current.adopted_at
        if not (never_rated and undo):
            current.save(update_fields=["rerating_failed_at", "rerating_error"])
            return current
        previous = sets.filter(retired_at=current.adopted_at).exclude(pk=current.pk).first()
        current.retired_at, current.retired_by = now, None
        current.save(update_fields=["rerating_failed_at", "rerating_error", "retired_at", "retired_by"])
        if previous is not None:
            previous.retired_at, previous.retired_by = None, None
            previous.save(update_fields=["retired_at", "retired_by"])
    from federation.versions import bump_on_commit

    bump_on_commit("ratings")
    return current


def latest_rerating_failure():
    """The parameter set with the newest failed re-rating if no re-rating succeeded since (a rating
    event written later), else None. Two queries."""
    from django.db.models import Max

    from ratings.engine import FEDERATION_SYSTEM
    from ratings.models import RatingEvent, RatingParameterSet

    row = (RatingParameterSet.objects.filter(system=FEDERATION_SYSTEM, rerating_failed_at__isnull=False)
           .order_by("-rerating_failed_at", "-id").first())
    if row is None:
        return None
    last = RatingEvent.objects.aggregate(last=Max("rated_at"))["last"]
    return row if last is None or last < row.rerating_failed_at else None
