"""rate_events / Rater: rating periods, order independence, zero-sum, idempotence, forfeits and byes."""
from __future__ import annotations

import datetime as dt
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine import (
    Elo,
    Event,
    Glicko2,
    InvalidEventError,
    MarginElo,
    RatedSet,
    Rater,
    rate_events,
)

D = dt.date(2026, 2, 1)
PLAYERS = ["p%d" % i for i in range(8)]
SYSTEMS = [MarginElo, Elo, Glicko2]

margins = st.integers(min_value=-24, max_value=24)
pairs = st.tuples(st.sampled_from(PLAYERS), st.sampled_from(PLAYERS)).filter(lambda t: t[0] != t[1])
set_lists = st.lists(st.tuples(pairs, margins), min_size=1, max_size=40)


def build(eid, items, day=0):
    return Event(eid, D + dt.timedelta(days=day), tuple(RatedSet.from_margin(eid, a, b, m) for (a, b), m in items))


INITIAL = {p: 1400.0 + 30 * i for i, p in enumerate(PLAYERS)}


@settings(max_examples=60, deadline=None)
@given(set_lists, st.randoms(use_true_random=False), st.sampled_from(SYSTEMS))
def test_order_of_sets_inside_an_event_does_not_matter(items, rnd, system):
    shuffled = list(items)
    rnd.shuffle(shuffled)
    a = rate_events([build("E", items)], system(), INITIAL, history=False)
    b = rate_events([build("E", shuffled)], system(), INITIAL, history=False)
    assert a.ratings == b.ratings  # bit for bit (math.fsum)


@settings(max_examples=60, deadline=None)
@given(set_lists, set_lists)
def test_margin_elo_is_zero_sum_between_established_players(items1, items2):
    # all players established with the same K: the rating total never moves (no inflation)
    run = rate_events([build("E1", items1), build("E2", items2, day=7)], MarginElo(), INITIAL)
    total = sum(r.rating for r in run.ratings.values()) + sum(
        v for p, v in INITIAL.items() if p not in run.ratings
    )
    assert total == pytest.approx(sum(INITIAL.values()), abs=1e-9)


def test_every_set_line_pair_is_zero_sum():
    run = rate_events([build("E", [(("p0", "p1"), 7), (("p2", "p1"), -24), (("p3", "p0"), 0)])], MarginElo(), INITIAL)
    for pl, entries in run.history.items():
        for line in entries[0].lines:
            mirror = [
                x for x in run.history[line.opponent][0].lines if x.opponent == pl and x.margin == -line.margin
            ][0]
            assert line.score + mirror.score == pytest.approx(1.0, abs=1e-15)
            assert line.expected + mirror.expected == pytest.approx(1.0, abs=1e-15)
            assert line.change == pytest.approx(-mirror.change, abs=1e-12)


@pytest.mark.parametrize("system", SYSTEMS)
def test_ratings_fixed_at_start_of_event(system):
    # inside one event the second set uses the same ratings as the first: both lines show the
    # same expected score and opponent rating
    run = rate_events([build("E", [(("p0", "p1"), 10), (("p0", "p1"), 10)])], system(), INITIAL)
    l1, l2 = run.history["p0"][0].lines
    assert l1.expected == l2.expected and l1.opponent_rating == l2.opponent_rating
    # whereas as two events the second set sees the updated ratings
    run2 = rate_events([build("E", [(("p0", "p1"), 10)]), build("F", [(("p0", "p1"), 10)], day=1)], system(), INITIAL)
    assert run2.history["p0"][1].lines[0].expected > run2.history["p0"][0].lines[0].expected


@pytest.mark.parametrize("system", SYSTEMS)
def test_idempotent_and_independent_of_event_input_order(system):
    rng = random.Random(5)
    evs = []
    for k in range(6):
        items = [((a, b), rng.randint(-24, 24)) for a, b in (rng.sample(PLAYERS, 2) for _ in range(12))]
        evs.append(build(f"E{k}", items, day=k // 2))
    r1 = rate_events(evs, system(), INITIAL)
    r2 = rate_events(evs, system(), INITIAL)
    r3 = rate_events(list(reversed(evs)), system(), INITIAL)
    assert r1 == r2 == r3
    assert r1.rated_sets == 72 and r1.events == 6


@pytest.mark.parametrize("system", SYSTEMS)
def test_forfeits_and_byes_are_unrated(system):
    played = [RatedSet("E", "p0", "p1", 30, 18), RatedSet("E", "p2", "p3", 20, 28)]
    extra = [RatedSet("E", "p0", "p2", 48, 0, forfeit=True), RatedSet("E", "p4", None)]
    a = rate_events([Event("E", D, tuple(played))], system(), INITIAL)
    b = rate_events([Event("E", D, tuple(played + extra))], system(), INITIAL)
    assert a.ratings == b.ratings
    assert b.unrated_sets == 2 and b.rated_sets == 2
    assert "p4" not in b.ratings  # a bye alone does not put a player on the list
    assert len(b.history["p0"][0].lines) == 1


def test_duplicate_and_out_of_order_events_rejected():
    e = build("E", [(("p0", "p1"), 3)])
    with pytest.raises(InvalidEventError, match="rated twice"):
        rate_events([e, e])
    r = Rater(MarginElo())
    r.rate(build("L", [(("p0", "p1"), 3)], day=5))
    with pytest.raises(InvalidEventError, match="comes after"):
        r.rate(build("K", [(("p0", "p1"), 3)], day=1))


def test_rater_expected_matches_history_line():
    r = Rater(MarginElo(), INITIAL)
    e = r.expected("p7", "p0")
    entries = r.rate(build("E", [(("p7", "p0"), 3)]))
    assert entries["p7"].lines[0].expected == e
    assert r.rating("p7") == entries["p7"].rating_after


@pytest.mark.parametrize("system", SYSTEMS)
def test_history_off_gives_the_same_ratings(system):
    rng = random.Random(9)
    evs = [
        build(f"E{k}", [((a, b), rng.randint(-24, 24)) for a, b in (rng.sample(PLAYERS, 2) for _ in range(10))], day=k)
        for k in range(4)
    ]
    with_h = rate_events(evs, system())
    without = rate_events(evs, system(), history=False)
    assert with_h.ratings == without.ratings
    assert without.history == {} and len(with_h.history["p0"]) >= 1
    # every player's history chains: rating_after of one event is rating_before of the next
    for entries in with_h.history.values():
        for e1, e2 in zip(entries, entries[1:]):
            assert e2.rating_before == e1.rating_after
