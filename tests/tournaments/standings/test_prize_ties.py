"""Issue 25, prizes and categories: ties, shared money, the Hort system, lots, withdrawn and unrated
players (the pure core :mod:`tournaments.standings.prizes` and :mod:`tournaments.standings.categories`).
Every amount below is computed by hand in the comment beside it."""
from __future__ import annotations

import hashlib
from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings.categories import CategoryRule, PlayerFacts, is_member
from tournaments.standings.prizes import (
    POINTS_EQUAL,
    POINTS_HORT,
    SHARINGS,
    Outside,
    PassedOver,
    PrizeSpec,
    Ranked,
    distribute,
    lot_order,
)


def money(*values, category=None, start_id=1):
    return [PrizeSpec(id=start_id + i, place=i + 1, value=D(v), category=category, money=True)
            for i, v in enumerate(values)]


def trophies(*values, category=None, start_id=1):
    return [PrizeSpec(id=start_id + i, place=i + 1, value=D(v), category=category) for i, v in enumerate(values)]


def table(*rows):
    """``(id, rank, points)`` rows in standings order → Ranked (lot key = id)."""
    return [Ranked(id=i, rank=r, points=D(str(p))) for i, r, p in rows]


def by_prize(result):
    return {a.prize_id: a for a in result.awards}


def test_players_level_on_everything_share_the_money_prizes_they_jointly_occupy():
    # 1000 / 700 / 500 / 300; players 2 and 3 share overall rank 2 (level on points and every tie-break):
    # they pool the 2nd and 3rd prizes, 700 + 500 = 1200, 600 each; 1st and 4th go as usual.
    prizes = money(1000, 700, 500, 300)
    ranking = table((1, 1, 5), (2, 2, 4), (3, 2, 4), (4, 4, 3.5), (5, 5, 3))
    result = distribute(prizes, ranking=ranking, eligible={})
    awards = by_prize(result)
    assert awards[1].winner == 1
    assert awards[2].shares == awards[3].shares == ((2, D("600.00")), (3, D("600.00")))
    assert awards[2].pooled == (2, 3)
    assert awards[4].winner == 4
    assert result.amounts() == {2: D("600.00"), 3: D("600.00")}


def test_money_is_split_in_cents_rounded_down_among_three_level_players():
    # 1000 / 500 / 100 and three players level on everything at the top: 1600 / 3 = 533.333… → 533.33 each
    # (the cent left over is not paid out: 3 × 533.33 = 1599.99).
    result = distribute(money(1000, 500, 100), ranking=table((1, 1, 5), (2, 1, 5), (3, 1, 5), (4, 4, 1)), eligible={})
    assert result.amounts() == {1: D("533.33"), 2: D("533.33"), 3: D("533.33")}


def test_money_is_shared_among_all_tied_players_when_more_are_tied_than_prizes_are_left():
    # 1000 / 700 / 500; three players level on everything for 2nd: 700 + 500 = 1200 / 3 = 400 each;
    # nobody tied is left out.
    result = distribute(money(1000, 700, 500), ranking=table((1, 1, 5), (2, 2, 4), (3, 2, 4), (4, 2, 4)),
                        eligible={})
    assert result.amounts() == {2: D("400.00"), 3: D("400.00"), 4: D("400.00")}
    assert result.outside == ()


def test_an_indivisible_prize_among_players_level_on_everything_goes_by_a_recorded_lot():
    # a trophy for 1st, players 7 and 9 level on everything: the lot with the stored seed decides,
    # by the published rule (smallest SHA-256 of "seed:starting number" first); the loser is listed.
    seed = "5f2c0d"
    ranking = [Ranked(id=7, rank=1, points=D(5), lot_key=3), Ranked(id=9, rank=1, points=D(5), lot_key=8)]
    result = distribute(trophies(10), ranking=ranking, eligible={}, seed=seed)
    digest = {k: hashlib.sha256(f"{seed}:{k}".encode()).hexdigest() for k in (3, 8)}
    expected_winner = 7 if digest[3] < digest[8] else 9
    award = result.awards[0]
    assert (award.winner, award.by_lot, award.tied) == (expected_winner, True, (7, 9))
    loser = 9 if expected_winner == 7 else 7
    assert result.outside == (Outside(player=loser, prize_id=1, category=None, reason="lot"),)
    # re-checkable: the same seed gives the same outcome
    assert distribute(trophies(10), ranking=ranking, eligible={}, seed=seed) == result


def test_the_lot_rule_is_the_sha256_order_of_seed_and_starting_number():
    keys = [1, 2, 3, 4, 5]
    assert lot_order(keys, "abc") == sorted(keys, key=lambda k: hashlib.sha256(f"abc:{k}".encode()).hexdigest())


def test_an_indivisible_prize_waits_for_the_lot_until_its_seed_is_drawn():
    result = distribute(trophies(10, 5), ranking=table((1, 1, 5), (2, 1, 5), (3, 3, 4)), eligible={})
    awards = by_prize(result)
    assert awards[1].lot_pending and awards[2].lot_pending and awards[1].winner is None
    assert awards[1].tied == (1, 2)


def test_players_tied_just_outside_the_prizes_are_listed():
    # two prizes; players 3 and 4 have the 2nd prize winner's 4 points but lose on the tie-breaks.
    result = distribute(money(300, 200), ranking=table((1, 1, 5), (2, 2, 4), (3, 3, 4), (4, 4, 4), (5, 5, 3)),
                        eligible={})
    assert by_prize(result)[2].winner == 2
    assert [(o.player, o.reason) for o in result.outside] == [(3, "tiebreaks"), (4, "tiebreaks")]


def test_players_level_on_points_share_equally_when_the_event_chooses_it():
    # 1000 / 700 / 500 / 300; points 5, 4, 4, 4, 3 (tie-breaks separate 2, 3 and 4): equal shares of
    # 700 + 500 + 300 = 1500 / 3 = 500 each.
    result = distribute(money(1000, 700, 500, 300),
                        ranking=table((1, 1, 5), (2, 2, 4), (3, 3, 4), (4, 4, 4), (5, 5, 3)),
                        eligible={}, sharing=POINTS_EQUAL)
    assert by_prize(result)[1].winner == 1
    assert result.amounts() == {2: D("500.00"), 3: D("500.00"), 4: D("500.00")}


def test_players_level_on_points_share_by_the_hort_system():
    # The Hort-System article's example: 100/80/60/40/20/10; A, B on 8; C on 7½; D, E, F on 7.
    # A 100/2 + (50 + 40)/2 = 50 + 45 = 95; B 40 + 45 = 85; C alone 60;
    # D 20 + (20 + 10 + 5)/3 = 20 + 11.666… = 31.66; E 10 + 11.66 = 21.66; F 5 + 11.66 = 16.66.
    ranking = table((1, 1, 8), (2, 2, 8), (3, 3, 7.5), (4, 4, 7), (5, 5, 7), (6, 6, 7))
    result = distribute(money(100, 80, 60, 40, 20, 10), ranking=ranking, eligible={}, sharing=POINTS_HORT)
    assert by_prize(result)[3].winner == 3
    assert result.amounts() == {1: D("95.00"), 2: D("85.00"), 4: D("31.66"), 5: D("21.66"), 6: D("16.66")}


def test_hort_players_level_on_everything_average_their_own_halves():
    # 100 / 60 / 20; A, B level on everything, C behind on tie-breaks, all on 5 points:
    # halves 50, 30, 10; pot (50 + 30 + 10) / 3 = 30; A and B (50 + 30) / 2 + 30 = 70 each; C 10 + 30 = 40.
    result = distribute(money(100, 60, 20), ranking=table((1, 1, 5), (2, 1, 5), (3, 3, 5)), eligible={},
                        sharing=POINTS_HORT)
    assert result.amounts() == {1: D("70.00"), 2: D("70.00"), 3: D("40.00")}


def test_a_player_who_withdrew_before_the_last_round_is_passed_over_and_the_list_says_why():
    ranking = [Ranked(id=1, rank=1, points=D(5), withdrawn_early=True), *table((2, 2, 4), (3, 3, 3))]
    result = distribute(trophies(10, 5), ranking=ranking, eligible={})
    awards = by_prize(result)
    assert (awards[1].winner, awards[2].winner) == (2, 3)
    assert result.passed_over == (PassedOver(player=1, prize_id=1),)


def test_withdrawn_players_take_prizes_when_the_event_allows_it():
    ranking = [Ranked(id=1, rank=1, points=D(5), withdrawn_early=True), *table((2, 2, 4))]
    result = distribute(trophies(10), ranking=ranking, eligible={}, withdrawn_may_win=True)
    assert result.awards[0].winner == 1 and result.passed_over == ()


@pytest.mark.parametrize(("rule", "rated", "unrated"), [
    (CategoryRule(code="U1600", kind="rating", rating_max=1599), True, False),
    (CategoryRule(code="1200-1599", kind="rating", rating_min=1200, rating_max=1599), True, False),
    (CategoryRule(code="U1600", kind="rating", rating_max=1599, includes_unrated=True), True, True),
])
def test_unrated_players_are_not_in_a_rating_band_category_unless_it_says_so(rule, rated, unrated):
    assert is_member(PlayerFacts(id=1, rating=1400), rule, year=2026) is rated
    assert is_member(PlayerFacts(id=2, rating=0), rule, year=2026) is unrated


def test_category_prizes_after_a_shared_overall_prize():
    # overall 700 / 500 money; U12 1st 300; players 1 (U12) and 2 level on everything: 600 each; U12 1st
    # passes to the next U12 player, 3.
    prizes = [*money(700, 500), PrizeSpec(id=9, place=1, value=D(300), category="U12", money=True)]
    result = distribute(prizes, ranking=table((1, 1, 5), (2, 1, 5), (3, 3, 4)), eligible={"U12": {1, 3}})
    assert result.amounts() == {1: D("600.00"), 2: D("600.00")}
    assert by_prize(result)[9].winner == 3


@st.composite
def tied_problems(draw):
    n = draw(st.integers(0, 10))
    points = sorted((D(draw(st.integers(0, 6))) / 2 for _ in range(n)), reverse=True)
    ranking, rank = [], 0
    for i, p in enumerate(points):
        level = i and p == points[i - 1] and draw(st.booleans())  # level on everything with the one above
        rank = rank if level else i + 1
        ranking.append(Ranked(id=i + 1, rank=rank, points=p, lot_key=i + 1, withdrawn_early=draw(st.booleans())
                              and draw(st.booleans())))
    ids = [r.id for r in ranking]
    eligible = {c: frozenset(draw(st.sets(st.sampled_from(ids), max_size=n)) if n else set()) for c in ("A", "B")}
    prizes, pid = [], 0
    for category in (None, "A", "B"):
        values = sorted(draw(st.lists(st.sampled_from([0, 50, 100, 300, 1000]), max_size=4)), reverse=True)
        for place, v in enumerate(values, start=1):
            pid += 1
            prizes.append(PrizeSpec(id=pid, place=place, value=D(v), category=category, money=draw(st.booleans())))
    return prizes, ranking, eligible


@settings(max_examples=300, deadline=None)
@given(tied_problems(), st.sampled_from(SHARINGS), st.sampled_from(["", "tohum"]), st.booleans())
def test_prize_distribution_properties(problem, sharing, seed, withdrawn_may_win):
    prizes, ranking, eligible = problem
    result = distribute(prizes, ranking=ranking, eligible=eligible, sharing=sharing, seed=seed,
                        withdrawn_may_win=withdrawn_may_win)
    value = {p.id: p.value for p in prizes}
    assert sorted(a.prize_id for a in result.awards) == sorted(value), "one outcome per prize"
    holders: dict[int, object] = {}
    barred = {r.id for r in ranking if r.withdrawn_early} if not withdrawn_may_win else set()
    for a in result.awards:
        takers = [a.winner] if a.winner is not None else [pid for pid, _x in a.shares]
        if a.lot_pending:
            takers = list(a.tied)
        key = a.pooled or (a.tied if a.lot_pending else (a.prize_id,))
        for pid in takers:
            assert pid not in barred, "a player who withdrew early takes nothing"
            assert holders.setdefault(pid, key) == key, "one prize (or one pool) per player"
        if a.shares:
            pooled = sum(value[q] for q in a.pooled)
            total = sum(amount for _pid, amount in a.shares)
            assert pooled - D("0.01") * len(a.shares) <= total <= pooled, "the shares add up to the pooled money"
        if a.lot_pending:
            assert not seed
    for o in result.outside:
        assert o.player not in holders
