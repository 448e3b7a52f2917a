"""Glicko-2 baseline against Glickman's worked example ("Example of the Glicko-2 system", 2013)."""
from __future__ import annotations

import datetime as dt

import pytest

from ratings.engine import Event, Glicko2, Glicko2Params, PlayerRating, RatedSet, glicko2_update, rate_events


def test_glickman_worked_example():
    r, rd, vol = glicko2_update(
        1500, 200, 0.06, [(1400, 30, 1.0), (1550, 100, 0.0), (1700, 300, 0.0)], tau=0.5
    )
    assert r == pytest.approx(1464.06, abs=0.01)
    assert rd == pytest.approx(151.52, abs=0.01)
    assert vol == pytest.approx(0.05999, abs=0.00001)


def test_no_games_only_deviation_grows():
    r, rd, vol = glicko2_update(1500, 200, 0.06, [])
    assert r == 1500
    # sqrt(phi^2 + sigma^2) on the Glicko-2 scale, back in rating points
    assert rd == pytest.approx(200.27, abs=0.01)
    assert vol == 0.06


def test_event_run_reproduces_the_worked_example():
    d = dt.date(2026, 3, 1)
    sets = (
        RatedSet("E", "p", "o1", 30, 18),
        RatedSet("E", "o2", "p", 30, 18),
        RatedSet("E", "o3", "p", 30, 18),
    )
    initial = {
        "p": PlayerRating("p", 1500, 10, "established", 200, 0.06),
        "o1": PlayerRating("o1", 1400, 10, "established", 30, 0.06),
        "o2": PlayerRating("o2", 1550, 10, "established", 100, 0.06),
        "o3": PlayerRating("o3", 1700, 10, "established", 300, 0.06),
    }
    run = rate_events([Event("E", d, sets)], Glicko2(), initial)
    p = run.ratings["p"]
    assert p.rating == pytest.approx(1464.06, abs=0.01)
    assert p.deviation == pytest.approx(151.52, abs=0.01)
    assert p.volatility == pytest.approx(0.05999, abs=0.00001)
    entry = run.history["p"][0]
    # the per-set changes add up to the event's change
    assert sum(line.change for line in entry.lines) == pytest.approx(entry.change, abs=1e-9)
    assert [line.score for line in entry.lines] == [1.0, 0.0, 0.0]


def test_idle_periods_inflate_deviation():
    d0 = dt.date(2026, 1, 1)
    s = RatedSet("A", "x", "y", 30, 18)
    e1 = Event("A", d0, (s,))
    t = RatedSet("B", "x", "y", 30, 18)
    near = rate_events([e1, Event("B", d0 + dt.timedelta(days=20), (t,))], Glicko2())
    far = rate_events([e1, Event("B", d0 + dt.timedelta(days=400), (t,))], Glicko2())
    assert far.ratings["x"].deviation > near.ratings["x"].deviation


def test_margin_option_uses_blended_score():
    # w = 0.5, c = 6: a +12 win scores 0.940399 instead of 1 -> a smaller gain than plain Glicko-2
    d = dt.date(2026, 3, 1)
    ev = Event("E", d, (RatedSet("E", "a", "b", 36, 12),))
    init = {"a": 1500.0, "b": 1500.0}
    plain = rate_events([ev], Glicko2(), init)
    marg = rate_events([ev], Glicko2(Glicko2Params(margin_weight=0.5, margin_scale=6.0)), init)
    assert marg.history["a"][0].lines[0].score == pytest.approx(0.940399, abs=1e-6)
    assert 1500 < marg.rating("a") < plain.rating("a")
    # symmetric: b loses what a gains (equal deviations)
    assert marg.rating("a") - 1500 == pytest.approx(1500 - marg.rating("b"), abs=1e-9)
    # weight 0 is plain Glicko-2
    zero = rate_events([ev], Glicko2(Glicko2Params(margin_weight=0.0)), init)
    assert zero.ratings == plain.ratings
