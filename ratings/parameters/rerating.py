"""What happens when a full re-rating fails (issue 23): the failure is written on the parameter set in
force (its transaction rolled back, so the previous ratings stay served) and, when that set never rated
successfully, its adoption is undone: the set it replaced is back in force."""
from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

logger = logging.getLogger("ratings.parameter_checks")


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
