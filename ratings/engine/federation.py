"""The federation's rating system and its parameters (docs/ratings.md, "The federation's rating").

:func:`federation_system` is the one place that says which engine system the national rating uses;
the Django side (``ratings.parameters.selectors.rating_system``) calls it with the adopted parameter set, the
evaluation (``rating_eval``, ``rating_tune``) with tuned candidates.

The federation's rating is **margin Glicko-2**: Glickman's Glicko-2 with one rating period per event,
fed with margin Elo's blended result score ``(1 - w) * s + w * L(m)`` (a set's result and its stone
margin), under the federation's rule that a won set never lowers the winner's rating and a lost set
never raises the loser's (the margin only changes how much). It replaced margin Elo after the
evaluation on real results (docs/ratings.md, "Evidence on real results").
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from .glicko2 import Glicko2Params, MarginGlicko2
from .parameters import parameter_errors
from .elo import UNRATED
from .types import RatingInputError

__all__ = ["FEDERATION_DEFAULTS", "FEDERATION_SYSTEM", "federation_params", "federation_system", "stored_rating"]

FEDERATION_SYSTEM = MarginGlicko2.name
"""Name of the federation's rating system (``RatingEvent.system``, ``RatingParameterSet.system``)."""

FEDERATION_DEFAULTS: dict[str, Any] = {
    "tau": 1.1,
    "initial_rd": 300.0,
    "initial_volatility": 0.12,
    "period_days": 60,
    "margin_weight": 0.95,
    "margin_scale": 9.0,
    "monotone": True,
}
"""The shipped parameters where they differ from :class:`Glicko2Params`'s (Glickman's) defaults; the
reasons and the evidence that they are robust across datasets are in docs/ratings.md."""

_PARAMS_CLASS = Glicko2Params


def federation_params(params: Mapping[str, Any] | None = None) -> Glicko2Params:
    """The federation system's params dataclass from ``params`` (keyword -> value) over the shipped
    defaults (:data:`FEDERATION_DEFAULTS`, then Glickman's). Raises :class:`RatingInputError` naming the
    key for an unknown key, a bad value or one outside its admitted range
    (:data:`ratings.engine.parameters.PARAMETER_RANGES`), and for ``monotone`` other than True: that a won set never
    lowers a rating is the federation's rule, not a parameter to tune (docs/ratings.md)."""
    params = dict(params or {})
    known = {f.name for f in dataclasses.fields(_PARAMS_CLASS)}
    for key in params:
        if key not in known:
            raise RatingInputError(f"unknown rating parameter {key!r} (known: {', '.join(sorted(known))})")
    if params.get("monotone", True) is not True:
        raise RatingInputError(
            "monotone: a won set never lowers a rating is the federation's rule, it cannot be switched off"
        )
    errors = parameter_errors(params)
    if errors:  # the admitted ranges (ratings.engine.parameters): outside them the engine may overflow
        key = next(iter(errors))
        raise RatingInputError(f"{key} {errors[key]}")
    try:
        return _PARAMS_CLASS(**{**FEDERATION_DEFAULTS, **params})
    except TypeError as exc:  # e.g. a string where a number is needed
        raise RatingInputError(str(exc)) from None


def federation_system(params: Mapping[str, Any] | None = None) -> MarginGlicko2:
    """The federation's rating system with ``params`` over the shipped defaults (see
    :func:`federation_params` for errors)."""
    return MarginGlicko2(federation_params(params))


def stored_rating(status: str, rating: float) -> int:
    """``Player.rating`` as the rating run stores it: 0 for an unrated player, else the rating rounded
    half up and held to 0..4000."""
    if status == UNRATED:
        return 0
    return max(0, min(4000, int(rating + 0.5)))
