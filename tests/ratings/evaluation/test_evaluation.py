"""Simulation and walk-forward evaluation (small leagues; the full run is `rating_eval`, not a test)."""
from __future__ import annotations

import math
import random

import pytest

from ratings.engine import Elo, MarginElo
from ratings.evaluation import (
    LeagueConfig,
    Policy,
    PredictionLayer,
    evaluate,
    play_set,
    render_table,
    simulate_league,
    walk_forward,
)
from ratings.evaluation.evaluate import _bootstrap_ci, _candidates, fit_prediction_layer, _Pred

TINY = LeagueConfig(
    initial_players=10,
    new_players_per_season=3,
    seasons=2,
    events_per_season=3,
    field_min=7,
    field_max=9,
    rounds_min=3,
    rounds_max=3,
    forfeit_rate=0.05,
)


@pytest.fixture(scope="module")
def tiny_league():
    return simulate_league(7, TINY)


def test_play_set_gives_a_real_recorded_result():
    rng = random.Random(4)
    res = play_set(Policy.of_skill(0.9), Policy.of_skill(0.1), rng)
    assert res.first + res.second == 48
    assert res.margin == max(res.first, res.second) - 24
    again = play_set(Policy.of_skill(0.9), Policy.of_skill(0.1), random.Random(4))
    assert again == res


def test_withdrawals_are_recorded_by_the_rules_engine():
    rng = random.Random(1)
    results = [play_set(Policy.of_skill(0.5), Policy.of_skill(0.5), rng, withdraw_winner=1.0) for _ in range(8)]
    withdrawn = [r for r in results if r.withdrawn_by is not None]
    # a set can still end normally when the move that reaches 25 also empties a side
    assert len(withdrawn) >= 3
    for r in withdrawn:
        assert r.margin == 1 and {r.first, r.second} == {25, 23}  # Kural 14.5: winner's withdrawal, "+1"
    loser = play_set(Policy.of_skill(0.5), Policy.of_skill(0.5), random.Random(2), withdraw_loser=1.0)
    assert loser.withdrawn_by is not None and loser.first + loser.second == 48
    assert loser.withdrawn_by != loser.winner


def test_simulation_is_seeded_and_reproducible(tiny_league):
    again = simulate_league(7, TINY)
    assert again.events == tiny_league.events
    other = simulate_league(8, TINY)
    assert other.events != tiny_league.events


def test_simulated_events_have_matches_byes_and_forfeits(tiny_league):
    sets = [s for e in tiny_league.events for s in e.sets]
    assert any(s.player_b is None for s in sets)  # odd fields give a bye
    assert any(s.forfeit for s in sets)
    played = [s for s in sets if s.rated]
    assert all(s.a_stones + s.b_stones == 48 for s in played if not (s.a_withdrew or s.b_withdrew))
    # matches of 2 or 3 sets, the starter alternating: set 2 has the players swapped
    ev = tiny_league.events[0]
    pair_sets = [s for s in ev.sets if s.rated and {s.player_a, s.player_b} == {ev.sets[0].player_a, ev.sets[0].player_b}]
    if len(pair_sets) >= 2 and ev.sets[0].rated:
        assert pair_sets[1].player_a == pair_sets[0].player_b


def test_walk_forward_predicts_before_rating(tiny_league):
    preds = walk_forward(tiny_league.events, MarginElo())
    first_event = [p for p in preds if p.event == 0]
    # nobody has a rating before the first event: every prediction is an even game
    assert first_event and all(p.expected == 0.5 for p in first_event)
    assert len(preds) == sum(1 for e in tiny_league.events for s in e.sets if s.rated)
    assert any(p.expected != 0.5 for p in preds if p.event > 0)


def test_prediction_layer_probabilities():
    layer = PredictionLayer(beta=1.0, alpha=0.0, delta=0.1)
    pw, pd, pl = layer.probabilities(0.5)
    assert (pw, pd, pl) == pytest.approx((0.45, 0.1, 0.45))
    for e in (1e-9, 0.01, 0.3, 0.77, 1 - 1e-9):
        probs = PredictionLayer(1.7, 0.3, 0.5).probabilities(e)
        assert min(probs) >= 0 and sum(probs) == pytest.approx(1.0)
        # q = p_win + p_draw / 2 stays the expected score
        q = probs[0] + probs[1] / 2
        assert 0 <= q <= 1


def test_fit_prediction_layer_recovers_draw_rate():
    preds = [_Pred(0, 0.5, o) for o in [0] * 45 + [1] * 10 + [2] * 45]
    layer = fit_prediction_layer(preds)
    assert layer.probabilities(0.5)[1] == pytest.approx(0.10, abs=0.01)
    assert layer.alpha == pytest.approx(0.0, abs=0.01)


def test_bootstrap_ci_brackets_the_mean():
    rng = random.Random(0)
    data = {i: [rng.gauss(-0.01, 0.05) for _ in range(30)] for i in range(40)}
    mean = math.fsum(math.fsum(v) for v in data.values()) / 1200
    lo, hi = _bootstrap_ci(data, 500, random.Random(1))
    assert lo < mean < hi
    assert hi - lo < 0.02


def test_same_budget_for_every_system():
    for name in ("margin", "elo", "glicko2"):
        cands = _candidates(name, 7, random.Random(3))
        assert len(cands) == 7 and cands[0] == {}


def test_evaluate_small_league_end_to_end(tiny_league):
    ev = evaluate(7, league=tiny_league, budget=2, bootstrap=200)
    # tuned on a separate league, scored on every event of this one after the burn-in
    assert ev.protocol == "separate" and ev.held_out_events == len(tiny_league.events) - ev.burn_in_events
    assert ev.sets == sum(1 for e in tiny_league.events[ev.burn_in_events:] for s in e.sets if s.rated)
    s = ev.summary()
    assert set(s) == {"sets", "logloss", "ci_margin_minus_elo", "ci_margin_minus_glicko2", "brier", "defaults",
                      "won_sets_lowering_rating"}
    assert s["won_sets_lowering_rating"] == {"margin": 0.0, "elo": 0.0, "glicko2": 0.0}
    assert set(s["defaults"]["logloss"]) == set(s["brier"]) == {"margin", "elo", "glicko2"}
    assert set(s["logloss"]) == {"margin", "elo", "glicko2"}
    assert s["sets"] == ev.sets > 0
    for v in s["logloss"].values():
        assert 0 < v < 3
    lo, hi = s["ci_margin_minus_elo"]
    assert lo <= hi
    md = render_table(ev)
    assert "| Federation rating |" in md and "95% CI" in md and "Gain by rating difference" in md
    # deterministic
    assert evaluate(7, league=tiny_league, budget=2, bootstrap=200).summary() == s


def test_evaluate_rejects_bad_arguments(tiny_league):
    with pytest.raises(ValueError, match="budget"):
        evaluate(1, league=tiny_league, budget=0)
    with pytest.raises(ValueError, match="tune_fraction"):
        evaluate(1, league=tiny_league, tune_fraction=1.0)
    with pytest.raises(ValueError, match="protocol"):
        evaluate(1, league=tiny_league, protocol="cv")


def test_time_split_protocol(tiny_league):
    ev = evaluate(7, league=tiny_league, budget=2, bootstrap=100, protocol="time", ablation=False)
    # 6 events: burn-in round(1.2) = 1, tuning events 1..2, held out events 3..5
    assert (ev.burn_in_events, ev.tuning_events, ev.held_out_events) == (1, 2, 3)
    assert ev.sets == sum(1 for e in tiny_league.events[3:] for s in e.sets if s.rated)
    assert "margin_w0" not in ev.systems


def test_elo_and_margin_walks_differ_only_through_margins(tiny_league):
    a = walk_forward(tiny_league.events, Elo())
    b = walk_forward(tiny_league.events, MarginElo())
    assert [p.outcome for p in a] == [p.outcome for p in b]
    assert [p.expected for p in a] != [p.expected for p in b]


def test_experimental_margin_glicko2_extra(tiny_league):
    ev = evaluate(7, league=tiny_league, budget=2, bootstrap=100, ablation=False, extras=("margin_glicko2",))
    assert ev.systems["margin_glicko2"].params.get("margin_weight", 0) > 0
    assert "margin_glicko2" in ev.comparisons
    assert set(ev.summary()["logloss"]) == {"margin", "elo", "glicko2"}  # the JSON shape is fixed
    assert "Margin Glicko-2 (blended score)" in render_table(ev)
    with pytest.raises(ValueError, match="unknown extra"):
        evaluate(7, league=tiny_league, extras=("trueskill",))
