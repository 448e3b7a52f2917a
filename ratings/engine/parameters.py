"""The admitted range of every parameter of the federation's rating (pure Python, no Django).

One table, :data:`PARAMETER_RANGES`, says for each field of :class:`~ratings.engine.Glicko2Params`
the smallest and largest value a parameter set may carry, its unit and why. The engine
(:func:`ratings.engine.federation_params`), the service that saves and adopts sets, the staff form and
the API all check against it, so a set that passes can always be rated: the property test
``tests/ratings/engine/test_parameter_ranges.py`` runs the engine over random values inside the
ranges and extreme games and finds no exception and no non-finite number.

Issue 23: ``margin_scale`` 0.03 stones, deviations of a fraction of a point, a default rating of
10**6 or an unbounded maximum volatility were accepted and made every re-rating (and the rating list)
fail with ``OverflowError`` / ``ZeroDivisionError``.
"""
from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["ParameterRange", "PARAMETER_RANGES", "parameter_errors"]


@dataclass(frozen=True, slots=True)
class ParameterRange:
    """Admitted values of one parameter: ``low``..``high`` inclusive, in ``unit``; ``integer`` when only
    whole numbers are admitted; ``why`` the reason of the bounds (English, shown with the refusal)."""

    low: float
    high: float
    unit: str
    why: str
    integer: bool = False

    def admits(self, value: Any) -> bool:
        """True when ``value`` is a number (not a bool) inside the range (a whole one if ``integer``)."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        if not math.isfinite(value) or not self.low <= value <= self.high:
            return False
        return not self.integer or value == int(value)


PARAMETER_RANGES: dict[str, ParameterRange] = {
    "default_rating": ParameterRange(0.0, 4000.0, "rating points",
                                     "a rating outside 0..4000 is off the federation's scale"),
    "initial_rd": ParameterRange(30.0, 500.0, "rating points",
                                 "a new player's deviation must be between a known player's and 500"),
    "known_rd": ParameterRange(30.0, 500.0, "rating points",
                               "a deviation below 30 points claims a certainty no set record gives"),
    "min_rd": ParameterRange(10.0, 500.0, "rating points",
                             "a floor below 10 points freezes ratings and divides by almost zero"),
    "provisional_rd": ParameterRange(30.0, 500.0, "rating points",
                                     "the provisional mark is shown between 30 and 500 points of deviation"),
    "initial_volatility": ParameterRange(0.01, 0.3, "Glicko-2 volatility",
                                         "published systems keep the volatility at most about 0.1-0.3"),
    "max_volatility": ParameterRange(0.01, 0.3, "Glicko-2 volatility",
                                     "an unbounded volatility grows a rating to overflow"),
    "tau": ParameterRange(0.3, 1.2, "Glicko-2 units", "Glickman (2013): reasonable choices are 0.3..1.2"),
    "eps": ParameterRange(1e-9, 1e-3, "Glicko-2 units", "the root search needs a tolerance of 1e-9..1e-3"),
    "period_days": ParameterRange(1, 366, "days", "a rating period lasts a day to a year", integer=True),
    "margin_weight": ParameterRange(0.0, 1.0, "share of the result score", "a share lies in 0..1"),
    "margin_scale": ParameterRange(1.0, 48.0, "stones",
                                   "a margin is counted in whole stones (at most 48); a smaller scale overflows"),
}
"""Parameter name -> :class:`ParameterRange`. ``monotone`` is not a range: it must be true (the
federation's rule, :func:`ratings.engine.federation_params`)."""


def parameter_errors(params: Mapping[str, Any]) -> dict[str, str]:
    """Each parameter of ``params`` (name -> value) outside its range, with the reason in English:
    ``{"margin_scale": "must be between 1 and 48 stones (...), got 0.03"}``; empty when all are
    admitted. Names without a range are not judged here (the params dataclass refuses unknown ones)."""
    out: dict[str, str] = {}
    for name, value in params.items():
        rng = PARAMETER_RANGES.get(name)
        if rng is None or rng.admits(value):
            continue
        kind = "a whole number" if rng.integer else "a number"
        out[name] = (f"must be {kind} between {rng.low:g} and {rng.high:g} {rng.unit} "
                     f"({rng.why}), got {value!r}")
    return out
