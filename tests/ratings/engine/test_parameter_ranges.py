"""Issue 23: every parameter value the admitted ranges (ratings.engine.parameters) let through can be
rated: the federation's system (margin Glicko-2), plain Glicko-2 and Elo-family expectations never
raise and give finite numbers, however extreme the games; values outside are refused naming the
parameter."""
from __future__ import annotations

import datetime as dt
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.engine import (
    FEDERATION_DEFAULTS,
    Event,
    Glicko2,
    RatedSet,
    RatingInputError,
    federation_params,
    federation_system,
    rate_events,
)
from ratings.engine.parameters import PARAMETER_RANGES, parameter_errors


def _value(name: str):
    rng = PARAMETER_RANGES[name]
    if rng.integer:
        return st.integers(int(rng.low), int(rng.high))
    return st.floats(rng.low, rng.high, allow_nan=False, allow_infinity=False)


@st.composite
def admitted_params(draw) -> dict:
    """A parameter set inside the ranges that also meets the engine's cross-checks (min_rd <= known_rd <=
    initial_rd, initial_volatility <= max_volatility)."""
    p = {name: draw(_value(name)) for name in PARAMETER_RANGES}
    lo, mid, hi = sorted((p["min_rd"], p["known_rd"], p["initial_rd"]))
    if lo < PARAMETER_RANGES["known_rd"].low:  # known_rd and initial_rd start at 30
        lo = min(lo, 30.0)
        mid, hi = max(mid, 30.0), max(hi, 30.0)
    p["min_rd"], p["known_rd"], p["initial_rd"] = lo, mid, hi
    v1, v2 = sorted((p["initial_volatility"], p["max_volatility"]))
    p["initial_volatility"], p["max_volatility"] = v1, v2
    return p


@st.composite
def extreme_events(draw) -> tuple[list[Event], dict]:
    """Up to 6 events among 4 players, margins -24..24, dates up to years apart, published starting
    ratings anywhere on the scale (0..4000: 4000-point differences)."""
    n_events = draw(st.integers(1, 6))
    players = ["a", "b", "c", "d"]
    initial = draw(st.dictionaries(st.sampled_from(players), st.sampled_from([0.0, 1.0, 1500.0, 3999.0, 4000.0])))
    day = dt.date(2020, 1, 1)
    events = []
    for i in range(n_events):
        day += dt.timedelta(days=draw(st.sampled_from([0, 1, 30, 400, 2000])))
        sets = []
        for _ in range(draw(st.integers(1, 25))):
            a, b = draw(st.permutations(players))[:2]
            sets.append(RatedSet.from_margin(i, a, b, draw(st.integers(-24, 24))))
        events.append(Event(i, day, tuple(sets)))
    return events, initial


def _finite_run(run) -> None:
    for r in run.ratings.values():
        assert math.isfinite(r.rating) and math.isfinite(r.deviation) and math.isfinite(r.volatility)
        assert r.deviation > 0 and r.volatility > 0
    for entries in run.history.values():
        for h in entries:
            assert math.isfinite(h.rating_after)
            for line in h.lines:
                assert 0.0 <= line.expected <= 1.0 and math.isfinite(line.change) and math.isfinite(line.score)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(admitted_params(), extreme_events())
def test_engine_never_raises_inside_the_ranges(params, games):
    events, initial = games
    assert parameter_errors(params) == {}
    system = federation_system(params)
    _finite_run(rate_events(events, system, initial=initial))
    _finite_run(rate_events(events, Glicko2(federation_params({**params, "margin_weight": 0.0})), initial=initial))
    # one player winning everything by 24 against the same opponent for many periods
    one_sided = [Event(k, dt.date(2020, 1, 1) + dt.timedelta(days=k * params["period_days"]),
                       tuple(RatedSet.from_margin(k, "x", "y", 24) for _ in range(40))) for k in range(30)]
    run = rate_events(one_sided, system, initial={"x": 4000.0, "y": 0.0})
    _finite_run(run)
    assert run.rating("x") >= 4000.0 - 1e-6  # a won set never lowers a rating (monotone)


def test_shipped_defaults_are_inside_the_ranges():
    import dataclasses

    shipped = federation_params(None)
    assert {f.name for f in dataclasses.fields(shipped)} == set(PARAMETER_RANGES) | {"monotone"}  # every one has a range
    assert parameter_errors({name: getattr(shipped, name) for name in PARAMETER_RANGES}) == {}
    assert parameter_errors(FEDERATION_DEFAULTS) == {}


@pytest.mark.parametrize("params, name", [
    ({"margin_scale": 0.03}, "margin_scale"),
    ({"min_rd": 0.001}, "min_rd"),
    ({"initial_rd": 0.5, "known_rd": 0.2, "min_rd": 0.1}, "initial_rd"),
    ({"default_rating": 1e6}, "default_rating"),
    ({"max_volatility": 1e9}, "max_volatility"),
    ({"period_days": 0}, "period_days"),
    ({"period_days": 2.5}, "period_days"),
    ({"margin_weight": 1.01}, "margin_weight"),
    ({"eps": 0.0}, "eps"),
    ({"tau": float("inf")}, "tau"),
])
def test_values_outside_the_ranges_are_refused_naming_the_parameter(params, name):
    assert name in parameter_errors(params)
    with pytest.raises(RatingInputError, match=f"^{name} must be"):
        federation_params(params)


def test_the_reported_values_crashed_the_unguarded_engine():
    """What issue 23 saw: margin_scale 0.03 overflowed building the score table."""
    from ratings.engine import Glicko2Params, MarginGlicko2

    with pytest.raises(OverflowError):
        MarginGlicko2(Glicko2Params(margin_weight=0.5, margin_scale=0.03))
