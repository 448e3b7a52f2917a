"""The admitted ranges of the federation's rating parameters said in the user's language (issue 23):
:func:`range_refusal`, the translated reason a set is refused (the ranges themselves are the pure table
:data:`ratings.engine.parameters.PARAMETER_RANGES`). The rating system for pages is
:func:`ratings.parameters.selectors.display_rating_system`; a failed re-rating,
:mod:`ratings.parameters.rerating`.
"""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.engine.parameters import PARAMETER_RANGES, parameter_errors

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


