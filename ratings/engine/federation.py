"""The federation's rating system and its parameters (docs/ratings.md, "The federation's rating").

:func:`federation_system` is the one place that says which engine system the national rating uses;
the Django side (``ratings.services.rating_system``) calls it with the adopted parameter set, the
evaluation (``rating_eval``, ``rating_tune``) with tuned candidates.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .elo import MarginElo, MarginEloParams
from .types import RatingInputError

__all__ = ["FEDERATION_SYSTEM", "federation_params", "federation_system"]

FEDERATION_SYSTEM = "margin"
"""Name of the federation's rating system (``RatingEvent.system``, ``RatingParameterSet.system``)."""

_PARAMS_CLASS = MarginEloParams


def federation_params(params: Mapping[str, Any] | None = None) -> MarginEloParams:
    """The federation system's params dataclass from ``params`` (keyword -> value) over the shipped
    defaults. Raises :class:`RatingInputError` naming the key for an unknown key or a bad value."""
    params = dict(params or {})
    known = {f.name for f in dataclasses.fields(_PARAMS_CLASS)}
    for key in params:
        if key not in known:
            raise RatingInputError(f"unknown rating parameter {key!r} (known: {', '.join(sorted(known))})")
    try:
        return _PARAMS_CLASS(**params)
    except TypeError as exc:  # e.g. a string where a number is needed
        raise RatingInputError(str(exc)) from None


def federation_system(params: Mapping[str, Any] | None = None) -> MarginElo:
    """The federation's rating system with ``params`` over the shipped defaults (see
    :func:`federation_params` for errors)."""
    return MarginElo(federation_params(params))
