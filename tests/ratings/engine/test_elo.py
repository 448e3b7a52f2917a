"""Margin Elo and plain Elo: hand-computed cases (to 0.01), provisional phase, first rating, K rules.

Hand computations use the formulas of docs/ratings.md. Most cases use the round parameters HALF
(margin weight w = 0.5, margin scale c = 6 stones, K 20 established):
  E(100 points) = 1 / (1 + 10**(-100/400))            = 0.640065
  S(win +12)    = 0.5 * 1 + 0.5 / (1 + exp(-12/6))    = 0.940399
  S(loss -1)    = 0.5 * 0 + 0.5 / (1 + exp(1/6))      = 0.229215
  S(loss -6)    = 0.5 * 0 + 0.5 / (1 + exp(6/6))      = 0.134471
and the defaults (w = 0.75, c = 6, K 40 provisional decaying to 20):
  S(win +12)    = 0.25 + 0.75 / (1 + exp(-2))         = 0.910598
  S(loss -1)    = 0.75 / (1 + exp(1/6))               = 0.343822
  S(loss -6)    = 0.75 / (1 + exp(1))                 = 0.201706
"""
from __future__ import annotations

import datetime as dt

import pytest

from ratings.engine import (
    Elo,
    EloParams,
    Event,
    MarginElo,
    MarginEloParams,
    PlayerRating,
    RatedSet,
    RatingInputError,
    expected_score,
    margin_score,
    performance_rating,
    rate_events,
    result_score,
)

D = dt.date(2026, 2, 1)
HALF = MarginEloParams(margin_weight=0.5, margin_scale=6.0)


def ev(eid, sets, day=0):
    return Event(eid, D + dt.timedelta(days=day), tuple(RatedSet(eid, *s) for s in sets))


def test_expected_score_on_the_400_scale_with_cap():
    assert expected_score(1600, 1500) == pytest.approx(0.640065, abs=1e-6)
    assert expected_score(1500, 1500) == 0.5
    # FIDE: differences beyond 400 count as 400 -> 10/11
    assert expected_score(2200, 1500) == pytest.approx(10 / 11, abs=1e-12)
    assert expected_score(2200, 1500, max_diff=None) == pytest.approx(0.982528, abs=1e-6)


def test_margin_score_is_logistic_and_symmetric():
    assert margin_score(0, 6) == 0.5
    assert margin_score(6, 6) == pytest.approx(0.731059, abs=1e-6)
    for m in range(-24, 25):
        assert margin_score(m, 6) + margin_score(-m, 6) == pytest.approx(1.0, abs=1e-15)
        s = 1.0 if m > 0 else 0.0 if m < 0 else 0.5
        assert result_score(s, m, 0.5, 6) + result_score(1 - s, -m, 0.5, 6) == pytest.approx(1.0, abs=1e-15)


def test_result_score_blend():
    assert result_score(1.0, 12, 0.5, 6) == pytest.approx(0.940399, abs=1e-6)
    assert result_score(0.0, -1, 0.5, 6) == pytest.approx(0.229215, abs=1e-6)
    assert result_score(0.5, 0, 0.5, 6) == 0.5
    assert result_score(1.0, 12, 0.0, 6) == 1.0


def test_hand_computed_margin_event():
    # A 1600, B 1500, both established (K 20). A wins 36-12 then loses 23-25.
    # set 1: 20 * (0.940399 - 0.640065) = +6.0067 ; set 2: 20 * (0.229215 - 0.640065) = -8.2170
    run = rate_events(
        [ev("E", [("A", "B", 36, 12), ("A", "B", 23, 25)])], MarginElo(HALF), {"A": 1600.0, "B": 1500.0}
    )
    assert run.rating("A") == pytest.approx(1597.79, abs=0.01)
    assert run.rating("B") == pytest.approx(1502.21, abs=0.01)
    lines = run.history["A"][0].lines
    assert [round(line.change, 2) for line in lines] == [6.01, -8.22]
    assert [round(line.score, 4) for line in lines] == [0.9404, 0.2292]
    assert lines[0].expected == pytest.approx(0.640065, abs=1e-6)
    assert [line.margin for line in lines] == [12, -1]
    assert run.history["B"][0].lines[0].margin == -12


def test_winner_withdrawal_rated_as_plus_one():
    # A withdrew at 27 stones: +1. 20 * (0.5 + 0.5 * L(1) - 0.5) = 10 * (L(1) - 0.5) = 0.4158
    run = rate_events(
        [Event("E", D, (RatedSet("E", "A", "B", 27, 15, a_withdrew=True),))],
        MarginElo(HALF),
        {"A": 1500.0, "B": 1500.0},
    )
    assert run.rating("A") == pytest.approx(1505.42, abs=0.01)


def test_plain_elo_ignores_margin_and_uses_fide_k():
    base = {"A": 1600.0, "B": 1500.0}
    big = rate_events([ev("E", [("A", "B", 36, 12)])], Elo(), base)
    small = rate_events([ev("E", [("A", "B", 25, 23)])], Elo(), base)
    # 20 * (1 - 0.640065) = 7.1987
    assert big.rating("A") == pytest.approx(1607.20, abs=0.01)
    assert small.rating("A") == big.rating("A")


def test_elo_k10_once_2400_reached_and_cap_400():
    run = rate_events([ev("E", [("A", "B", 20, 28)])], Elo(), {"A": 2450.0, "B": 1900.0})
    # K 10 for A; cap: E = 10/11 -> 10 * (0 - 0.909091) = -9.09
    assert run.rating("A") == pytest.approx(2440.91, abs=0.01)
    # B has K 20: 20 * (1 - 1/11) = 18.18
    assert run.rating("B") == pytest.approx(1918.18, abs=0.01)


def test_margin_weight_zero_is_plain_elo():
    evs = [
        ev("E1", [("A", "B", 30, 18), ("B", "C", 24, 24), ("C", "A", 40, 8)]),
        ev("E2", [("A", "C", 20, 28), ("B", "A", 25, 23)], day=7),
    ]
    init = {"A": 1510.0, "B": 1480.0, "C": 1700.0}
    p = EloParams()
    m = MarginEloParams(
        k_provisional=p.k_provisional, k=p.k, k_top=p.k_top, top_rating=p.top_rating, margin_weight=0.0
    )
    a = rate_events(evs, Elo(p), init)
    b = rate_events(evs, MarginElo(m), init)
    for pl in init:
        assert a.rating(pl) == b.rating(pl)


def test_performance_rating_hand_computed():
    # 3 wins +12 (vs 1600, 1400, 1500) and 2 losses -6 (vs 1600, 1400), two draws vs 1500 added:
    # P = (3 * 0.940399 + 2 * 0.134471 + 1) / 7 = 0.584305 ; Ra = 1500 ; Ru = 1500 + 400 log10(P / (1-P))
    opp = [1600, 1400, 1500, 1600, 1400]
    sw = result_score(1.0, 12, 0.5, 6)
    sl = result_score(0.0, -6, 0.5, 6)
    assert performance_rating(opp, [sw, sw, sw, sl, sl]) == pytest.approx(1559.15, abs=0.01)
    assert performance_rating(opp, [1, 1, 1, 0, 0]) == pytest.approx(1549.98, abs=0.01)
    assert performance_rating([], []) == 1500.0
    assert performance_rating([1500] * 3, [1, 1, 1], hypothetical_draws=0) == 2300.0  # dp capped at 800


def test_first_rating_from_first_sets_and_unrated_phase():
    init = {p: 1500.0 + d for p, d in (("O1", 100), ("O2", -100), ("O3", 0))}
    first = ev("E1", [("N", "O1", 36, 12), ("O2", "N", 12, 36), ("N", "O3", 36, 12)])
    second = ev("E2", [("O1", "N", 30, 18), ("N", "O2", 18, 30)], day=10)
    run = rate_events([first], MarginElo(HALF), init)
    # three sets < 5: still unrated; opponents unchanged (sets against unrated players are not rated)
    n = run.ratings["N"]
    assert n.status == "unrated" and n.sets == 3
    assert run.rating("O1") == 1600.0 and run.rating("O2") == 1400.0 and run.rating("O3") == 1500.0
    assert all(line.change == 0.0 for line in run.history["O1"][0].lines)
    run2 = rate_events([first, second], MarginElo(HALF), init)
    n = run2.ratings["N"]
    assert n.status == "provisional" and n.sets == 5
    assert n.rating == pytest.approx(1559.15, abs=0.01)  # same sets as the hand case above


def test_provisional_k_until_30_sets():
    params = MarginEloParams(margin_weight=0.5, margin_scale=6.0, provisional_decay=False)  # FIDE-style step
    n_sets = 29
    # established opponent at 1500; the player P starts with a provisional PlayerRating of 29 sets
    init = {"P": PlayerRating("P", 1500.0, n_sets, "provisional"), "Q": 1500.0}
    e1 = ev("E1", [("P", "Q", 36, 12), ("P", "Q", 36, 12)])
    e2 = ev("E2", [("P", "Q", 36, 12)], day=1)
    run = rate_events([e1, e2], MarginElo(params), init)
    h = run.history["P"]
    gain = 0.940399 - 0.5
    # event 1: K 40 for P (29 sets at its start, both sets at K 40), K 20 for Q
    assert h[0].change == pytest.approx(2 * 40 * gain, abs=0.01)
    assert run.history["Q"][0].change == pytest.approx(-2 * 20 * gain, abs=0.01)
    # event 2: 31 sets at its start -> K 20
    assert h[1].lines[0].change == pytest.approx(20 * (0.940399 - expected_score(h[1].rating_before, h[1].lines[0].opponent_rating)), abs=0.01)
    assert h[0].status_after == "established"


def test_bad_params_rejected():
    with pytest.raises(RatingInputError, match="margin_weight"):
        MarginEloParams(margin_weight=1.5)
    with pytest.raises(RatingInputError, match="margin_scale"):
        MarginEloParams(margin_scale=0)
    with pytest.raises(RatingInputError, match="k must be"):
        EloParams(k=float("nan"))
    with pytest.raises(RatingInputError, match="initial rating"):
        rate_events([ev("E", [("A", "B", 30, 18)])], Elo(), {"A": float("inf")})


@pytest.mark.parametrize(
    "k_prov, sets, k",
    [(80, 0, 80.0), (80, 3, 80.0), (80, 5, 80.0), (80, 10, 46.67), (80, 20, 25.45), (80, 27, 20.0), (80, 40, 20.0),
     (40, 5, 40.0), (40, 6, 35.0), (40, 10, 23.33), (40, 12, 20.0)],
)
def test_decaying_provisional_k(k_prov, sets, k):
    # K = max(20, K_prov * min(1, (5 + 2) / (n + 2))) below 30 sets, then 20 (default K_prov 40)
    system = MarginElo(MarginEloParams(k_provisional=k_prov))
    st = system.new_state("P", PlayerRating("P", 1500.0, sets, "provisional"))
    assert system.k_factor(st) == pytest.approx(k, abs=0.01)


def test_decaying_k_applied_in_an_event():
    init = {"P": PlayerRating("P", 1500.0, 10, "provisional"), "Q": 1500.0}
    run = rate_events([ev("E", [("P", "Q", 36, 12)])], MarginElo(), init)
    # defaults: K 40 * 7/12 = 23.33 for P (10 sets), 20 for Q; S = 0.910598, E = 0.5
    # 23.33 * 0.410598 = 9.58 ; 20 * 0.410598 = 8.21
    assert run.rating("P") == pytest.approx(1509.58, abs=0.01)
    assert run.rating("Q") == pytest.approx(1491.79, abs=0.01)
    assert run.ratings["P"].status == "provisional" and run.ratings["P"].sets == 11


def test_hand_computed_event_with_default_parameters():
    # A 1600, B 1500 established (K 20), w 0.75, c 6: A wins 36-12 then loses 23-25
    # 20 * (0.910598 - 0.640065) = +5.4107 ; 20 * (0.343822 - 0.640065) = -5.9249
    run = rate_events(
        [ev("E", [("A", "B", 36, 12), ("A", "B", 23, 25)])], MarginElo(), {"A": 1600.0, "B": 1500.0}
    )
    assert run.rating("A") == pytest.approx(1599.49, abs=0.01)
    assert run.rating("B") == pytest.approx(1500.51, abs=0.01)
    assert [round(line.change, 2) for line in run.history["A"][0].lines] == [5.41, -5.92]


def test_first_rating_with_default_parameters():
    # P = (3 * 0.910598 + 2 * 0.201706 + 1) / 7 = 0.590744 -> 1500 + 400 log10(P / (1 - P)) = 1563.76
    init = {p: 1500.0 + d for p, d in (("O1", 100), ("O2", -100), ("O3", 0))}
    evs = [
        ev("E1", [("N", "O1", 36, 12), ("O2", "N", 12, 36), ("N", "O3", 36, 12)]),
        ev("E2", [("O1", "N", 30, 18), ("N", "O2", 18, 30)], day=10),
    ]
    run = rate_events(evs, MarginElo(), init)
    assert run.rating("N") == pytest.approx(1563.76, abs=0.01)
