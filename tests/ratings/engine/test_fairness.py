"""Issue 16: a won set never lowers the winner's rating and a lost set never raises the loser's, in
every system the product offers; Glicko-2 stays bounded under extreme tau and long absences and uses
the inflated deviation when predicting; every set is validated, forfeited or not."""
from __future__ import annotations

import datetime as dt
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine import (
    Elo,
    EloParams,
    Event,
    Glicko2,
    Glicko2Params,
    InvalidSetError,
    MarginElo,
    MarginEloParams,
    RatedSet,
    RatingInputError,
    Rater,
    federation_system,
    rate_events,
)

SYSTEMS = {
    "elo": lambda: Elo(),
    "margin_elo": lambda: MarginElo(),
    "margin_elo_strong_margin": lambda: MarginElo(MarginEloParams(margin_weight=1.0, margin_scale=2.0, k=40)),
    "glicko2": lambda: Glicko2(),
    "margin_glicko2": lambda: Glicko2(Glicko2Params(margin_weight=0.9, margin_scale=3.0)),
    "federation": lambda: federation_system(),
}


def _rated(player: str, rating: float):
    return rating


@pytest.mark.parametrize("name", sorted(SYSTEMS))
@settings(max_examples=150, deadline=None)
@given(
    ra=st.floats(min_value=600, max_value=2900),
    rb=st.floats(min_value=600, max_value=2900),
    margin=st.integers(min_value=-24, max_value=24).filter(lambda m: m != 0),
    extra=st.lists(st.integers(min_value=-24, max_value=24), max_size=4),
)
def test_a_won_set_never_lowers_the_winner_and_a_lost_set_never_raises_the_loser(name, ra, rb, margin, extra):
    """Rated players (established ratings) meet; the set's own line has the sign of its result, and
    with only that set in the event the whole change has it too."""
    system = SYSTEMS[name]()
    sets = [RatedSet.from_margin("E", "a", "b", margin)]
    run = rate_events([Event("E", dt.date(2026, 1, 1), tuple(sets))], system, initial={"a": ra, "b": rb})
    (ha,), (hb,) = run.history["a"], run.history["b"]
    winner, loser = (ha, hb) if margin > 0 else (hb, ha)
    assert winner.lines[0].change >= 0.0
    assert loser.lines[0].change <= 0.0
    assert winner.rating_after >= winner.rating_before
    assert loser.rating_after <= loser.rating_before
    # several sets in one event: every line keeps the sign of its own result
    more = sets + [RatedSet.from_margin("E2", "a", "b", m) for m in extra]
    more = [RatedSet("E2", s.player_a, s.player_b, s.a_stones, s.b_stones) for s in more]
    run = rate_events([Event("E2", dt.date(2026, 1, 1), tuple(more))], SYSTEMS[name](), initial={"a": ra, "b": rb})
    for ln in run.history["a"][0].lines + run.history["b"][0].lines:
        if ln.margin > 0:
            assert ln.change >= 0.0
        elif ln.margin < 0:
            assert ln.change <= 0.0


def test_the_narrow_win_of_a_favourite_used_to_cost_rating_and_now_does_not():
    """The case of the issue: 400+ points above, won by 2 stones. Without the rule margin Elo takes
    points off the winner; with it the change is 0 (the margin changes only how much)."""
    ev = Event("E", dt.date(2026, 1, 1), (RatedSet("E", "fav", "dog", 26, 22),))
    initial = {"fav": 2000.0, "dog": 1550.0}
    old = rate_events([ev], MarginElo(MarginEloParams(monotone=False)), initial=initial)
    new = rate_events([ev], MarginElo(), initial=initial)
    assert old.rating("fav") < 2000.0  # 20 * (0.75 * 0.0 + ... ) - the blended score 0.63 < E 0.91
    assert round(old.rating("fav"), 2) == round(2000.0 + 20 * (0.25 + 0.75 / (1 + math.exp(-2 / 6)) - 1 / (1 + 10 ** (-400 / 400))), 2)
    assert new.rating("fav") == 2000.0 and new.rating("dog") == 1550.0
    # a big win still gains: the margin decides how much
    big = Event("F", dt.date(2026, 1, 1), (RatedSet("F", "fav", "dog", 40, 8),))
    assert rate_events([big], MarginElo(), initial=initial).rating("fav") > 2000.0


def test_margin_elo_stays_zero_sum_with_the_rule():
    rng = random.Random(5)
    sets = tuple(RatedSet.from_margin("E", f"p{rng.randrange(6)}", f"q{rng.randrange(6)}", rng.randint(-24, 24))
                 for _ in range(40))
    initial = {p: rng.uniform(1200, 2200) for s in sets for p in (s.player_a, s.player_b)}
    run = rate_events([Event("E", dt.date(2026, 1, 1), sets)], MarginElo(MarginEloParams(k=20, provisional_sets=0)),
                      initial=initial)
    assert math.isclose(sum(run.rating(p) for p in initial), sum(initial.values()), abs_tol=1e-6)


@pytest.mark.parametrize("tau", [0.98, 1.05, 1.19, 1.2])
def test_glicko2_stays_bounded_with_yearly_periods_and_a_large_tau(tau):
    """Yearly rating periods, one-sided streaks, long absences: finite ratings, volatility at most the
    bound, deviations in range, no exception (issue 16 saw 0.65 -> 64 and 32,915 points)."""
    p = Glicko2Params(tau=tau, period_days=365, initial_volatility=0.15, initial_rd=350.0)
    system = Glicko2(p)
    rng = random.Random(int(tau * 100))
    players = [f"p{i}" for i in range(12)]
    events = []
    for year in range(30):
        sets = []
        for _ in range(rng.randint(1, 60)):
            a, b = rng.sample(players[: 2 + year % 10], 2)
            # a streaky world: the lower-numbered player nearly always wins
            win = (a < b) if rng.random() < 0.97 else (a > b)
            sets.append(RatedSet(f"Y{year}", a, b, 48 if win else 0, 0 if win else 48))
        events.append(Event(f"Y{year}", dt.date(1990 + year * (1 + year % 3), 1, 1), tuple(sets)))
    run = rate_events(events, system)
    for pr in run.ratings.values():
        assert math.isfinite(pr.rating) and -2000 < pr.rating < 5000
        assert 0 < pr.volatility <= p.max_volatility
        assert p.min_rd - 1e-9 <= pr.deviation <= p.initial_rd + 1e-9


@pytest.mark.parametrize("tau", [0.0, 0.2, 1.3, 5.0, float("nan")])
def test_glicko2_refuses_a_tau_outside_glickmans_range(tau):
    with pytest.raises(RatingInputError, match="tau"):
        Glicko2Params(tau=tau)


def test_glicko2_predicts_a_returning_player_with_the_inflated_deviation():
    p = Glicko2Params(period_days=30)
    rater = Rater(Glicko2(p))
    sets = tuple(RatedSet("E1", "a", f"o{i}", 36, 12) for i in range(10))
    rater.rate(Event("E1", dt.date(2025, 1, 1), sets))
    soon = rater.expected("a", "o0", dt.date(2025, 1, 15))
    later = rater.expected("a", "o0", dt.date(2026, 6, 1))  # 16 idle periods
    assert soon == rater.expected("a", "o0")  # no idle period yet: the plain prediction
    assert 0.5 < later < soon  # less confident after an absence, same favourite
    # the same inflation the rating step applies
    sa, so = rater.states["a"], rater.states["o0"]
    phi_a, phi_o = Glicko2(p)._idle(sa, dt.date(2026, 6, 1)), Glicko2(p)._idle(so, dt.date(2026, 6, 1))
    g = 1 / math.sqrt(1 + 3 * (phi_a**2 + phi_o**2) / math.pi**2)
    assert later == pytest.approx(1 / (1 + math.exp(-g * (sa.mu - so.mu))), abs=1e-12)


@pytest.mark.parametrize(
    "kwargs, reason",
    [
        ({"a_stones": 99, "b_stones": -51}, "outside 0..48"),
        ({"a_stones": 99, "b_stones": -5}, "outside 0..48"),
        ({"a_stones": 30, "b_stones": 30}, "add up to 60"),
        ({"a_stones": 24.0, "b_stones": 24}, "integers"),
        ({"a_stones": 30, "b_stones": 18, "a_withdrew": True}, "no withdrawal"),
    ],
)
def test_forfeited_sets_and_byes_are_validated_too(kwargs, reason):
    with pytest.raises(InvalidSetError, match=reason):
        RatedSet("E", "a", "b", forfeit=True, **kwargs)
    with pytest.raises(InvalidSetError, match=reason):
        RatedSet("E", "a", None, **kwargs)


def test_a_valid_forfeit_is_carried_and_not_rated():
    s = RatedSet("E", "a", "b", 48, 0, forfeit=True)
    assert not s.rated
    run = rate_events([Event("E", dt.date(2026, 1, 1), (s,))], MarginElo(), initial={"a": 1500.0, "b": 1500.0})
    assert run.rated_sets == 0 and run.unrated_sets == 1 and run.ratings == {}


def test_plain_elo_and_its_parameters_are_unchanged_by_the_rule():
    """Plain Elo (margin weight 0) never needed the rule: its numbers are FIDE's."""
    ev = Event("E", dt.date(2026, 1, 1), (RatedSet("E", "a", "b", 25, 23),))
    run = rate_events([ev], Elo(EloParams()), initial={"a": 1800.0, "b": 1600.0})
    e = 1 / (1 + 10 ** (-200 / 400))
    assert run.rating("a") == pytest.approx(1800.0 + 20 * (1 - e), abs=1e-9)
