"""Reads of the federation's rating parameters: the set in force, the system built from it, the state of
the re-rating that follows an adoption, and the overview of the staff page (docs/ratings.md)."""
from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

from django.db.models import Count, Q

from ratings.engine import RatingInputError, RatingSystem, federation_system
from ratings.models import RatingEvent

logger = logging.getLogger("ratings.parameter_checks")


def rating_parameters_in_force() -> dict | None:
    """The ``params`` of the :class:`~ratings.models.RatingParameterSet` in force for the federation's
    system (adopted, not retired), or None (the engine's shipped defaults apply). One query."""
    from ratings.engine import FEDERATION_SYSTEM
    from ratings.models import RatingParameterSet

    return (
        RatingParameterSet.objects.filter(system=FEDERATION_SYSTEM, adopted_at__isnull=False, retired_at__isnull=True)
        .values_list("params", flat=True)
        .first()
    )


@dataclass(frozen=True, slots=True)
class ReratingState:
    """Whether the stored ratings were computed with the parameters in force.

    ``since``: when those parameters took effect (the last adoption or return to the shipped defaults;
    None when the defaults were never replaced); ``stale_events`` of ``total_events`` stored rating
    events were written before ``since`` (the full re-rating that follows an adoption is queued or
    running); ``last_rated_at`` is the newest write of a rating event.
    """

    since: dt.datetime | None
    stale_events: int
    total_events: int
    last_rated_at: dt.datetime | None

    @property
    def pending(self) -> bool:
        return self.stale_events > 0

    def as_dict(self) -> dict:
        return {"since": self.since, "pending": self.pending, "stale_events": self.stale_events,
                "total_events": self.total_events, "last_rated_at": self.last_rated_at}


def rerating_state() -> ReratingState:
    """The :class:`ReratingState` of the federation's rating, in two queries (read from the rows, so
    it is right whichever process runs the re-rating)."""
    from django.db.models import Max

    from ratings.engine import FEDERATION_SYSTEM
    from ratings.models import RatingParameterSet

    marks = RatingParameterSet.objects.filter(system=FEDERATION_SYSTEM).aggregate(
        adopted=Max("adopted_at"), retired=Max("retired_at")
    )
    times = [t for t in (marks["adopted"], marks["retired"]) if t is not None]
    since = max(times) if times else None
    extra = {"stale": Count("pk", filter=Q(rated_at__lt=since))} if since is not None else {}
    counts = RatingEvent.objects.aggregate(total=Count("pk"), last=Max("rated_at"), **extra)
    return ReratingState(since, counts.get("stale") or 0, counts["total"], counts["last"])


@dataclass(frozen=True, slots=True)
class ParameterRow:
    """One parameter of the federation's system: ``name``, the ``value`` in force and the shipped
    ``default``; ``changed`` when they differ."""

    name: str
    value: object
    default: object

    @property
    def changed(self) -> bool:
        return self.value != self.default


@dataclass(frozen=True, slots=True)
class ParameterOverview:
    """What the staff page and ``GET /api/ratings/parameters/`` show.

    ``in_force``: the set in force (None: shipped defaults); ``rows``: each parameter in force next to
    its shipped default; ``defaults``: the shipped defaults (name -> value); ``history``: every set
    ever adopted, newest adoption first, each with ``revert_reason`` set (an attribute) when it was
    retired by a return to the shipped defaults; ``candidates``: sets never adopted, newest first;
    ``rerating``: the :class:`ReratingState`.
    """

    system: str
    in_force: object | None
    rows: tuple[ParameterRow, ...]
    defaults: dict
    history: tuple
    candidates: tuple
    rerating: ReratingState


def parameter_values(params: dict | None) -> dict:
    """Every parameter of the federation's system (name -> value) for ``params`` over the shipped
    defaults, in the engine's field order. Raises :class:`RatingInputError` for invalid ``params``."""
    import dataclasses

    from ratings.engine import federation_params

    obj = federation_params(params or None)
    if dataclasses.is_dataclass(obj):
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    return dict(params or {})  # pragma: no cover - the engine's params are dataclasses


def parameter_overview() -> ParameterOverview:
    """The :class:`ParameterOverview` of the federation's system in five queries."""
    from ratings.engine import FEDERATION_SYSTEM
    from ratings.models import RatingParameterSet

    rows = list(
        RatingParameterSet.objects.filter(system=FEDERATION_SYSTEM)
        .select_related("created_by", "adopted_by", "retired_by")
        .order_by("-created_at", "-id")
    )
    in_force = next((r for r in rows if r.in_force), None)
    defaults = parameter_values(None)
    try:
        current = parameter_values(in_force.params) if in_force is not None else defaults
    except RatingInputError:  # a set the engine no longer accepts: show what is stored
        current = {**defaults, **in_force.params}
    reverts = {}
    for set_id, reason in (
        RatingParameterSet.history.filter(audit_action="rating_parameters.revert", history_type="~")
        .order_by("history_date").values_list("id", "history_change_reason")
    ):
        reverts[set_id] = reason or ""
    history = sorted((r for r in rows if r.adopted_at is not None), key=lambda r: (r.adopted_at, r.pk), reverse=True)
    for r in history:
        r.revert_reason = reverts.get(r.pk) if r.retired_at is not None else None
    names = list(dict.fromkeys([*current, *defaults]))
    return ParameterOverview(
        system=FEDERATION_SYSTEM,
        in_force=in_force,
        rows=tuple(ParameterRow(n, current.get(n), defaults.get(n)) for n in names),
        defaults=defaults,
        history=tuple(history),
        candidates=tuple(r for r in rows if r.adopted_at is None),
        rerating=rerating_state(),
    )


def rating_system() -> RatingSystem:
    """The federation's rating system (:func:`ratings.engine.federation_system`) with the parameters of
    the :class:`~ratings.models.RatingParameterSet` in force, else the engine's shipped defaults. One
    query (every rating run and the rating list page call it)."""
    return federation_system(rating_parameters_in_force())


def display_rating_system():
    """:func:`rating_system`, or the shipped defaults' system when the stored set in
    force cannot be built (a set saved before the ranges existed): a page is never a 500 because of a
    parameter set; the staff page says what is wrong."""
    try:
        return rating_system()
    except Exception as exc:  # noqa: BLE001 - any failure of a stored set falls back to the defaults
        logger.warning("rating parameters in force are unusable, showing the shipped defaults: %s", exc)
        return federation_system(None)
