"""Knockout seeding: 1 v N, 2 v N-1 ..., byes to the top seeds."""
from __future__ import annotations

import pytest

from tournaments.pairing import PairingError, knockout_bracket, seed_order


def test_seed_order():
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_power_of_two():
    assert knockout_bracket([1, 2, 3, 4, 5, 6, 7, 8]) == [(1, 8), (4, 5), (2, 7), (3, 6)]


def test_byes_go_to_top_seeds():
    assert knockout_bracket([11, 12, 13, 14, 15, 16]) == [(11, None), (14, 15), (12, None), (13, 16)]
    assert knockout_bracket([7, 3, 5]) == [(7, None), (3, 5)]


def test_seeds_one_and_two_in_opposite_halves():
    for n in range(3, 40):
        br = knockout_bracket(list(range(1, n + 1)))
        half = len(br) // 2
        top = {x for m in br[:half] for x in m}
        assert 1 in top and 2 not in top, n
        assert sum(1 for _, b in br if b is None) == (1 << (n - 1).bit_length()) - n
        assert sorted(x for m in br for x in m if x is not None) == list(range(1, n + 1))


@pytest.mark.parametrize("seeds", [[], [1], [1, 2, 1]])
def test_bad_input(seeds):
    with pytest.raises(PairingError):
        knockout_bracket(seeds)


# --- later rounds, the match for third place, stages and the final ranking ----------------------

from tournaments.pairing import (  # noqa: E402
    BracketMatch,
    knockout_ranking,
    knockout_rounds,
    next_round_pairs,
    round_key,
    third_place_pair,
)


def test_rounds_of_a_bracket():
    assert [knockout_rounds(n) for n in (2, 3, 4, 5, 8, 9, 16, 17)] == [1, 2, 2, 3, 3, 4, 4, 5]
    with pytest.raises(PairingError):
        knockout_rounds(1)


def test_next_round_from_the_winners_in_bracket_order():
    # quarter-finals 1v8, 4v5, 2v7, 3v6 won by 1, 5, 2, 6: semi-finals 1v5 and 2v6
    assert next_round_pairs([1, 5, 2, 6]) == [(1, 5), (2, 6)]
    assert next_round_pairs([1, None, 2, 6]) == [(1, None), (2, 6)]  # nobody advanced from one match
    with pytest.raises(PairingError):
        next_round_pairs([1])  # the final has no next round
    with pytest.raises(PairingError):
        next_round_pairs([1, 1])


def test_third_place_from_the_semi_final_losers():
    assert third_place_pair([5, 6]) == (5, 6)
    assert third_place_pair([5, None]) is None
    with pytest.raises(PairingError):
        third_place_pair([5])


def test_round_keys():
    assert [round_key(r, 4) for r in (1, 2, 3, 4)] == ["round_of_16", "quarter_final", "semi_final", "final"]
    assert round_key(1, 1) == "final"
    assert round_key(1, 6) == "round_of_64"


def _played(a, b, winner):
    return BracketMatch(a, b, winner, True)


EIGHT = [
    [_played(1, 8, 1), _played(4, 5, 5), _played(2, 7, 2), _played(3, 6, 6)],
    [_played(1, 5, 1), _played(2, 6, 6)],
    [_played(1, 6, 6)],
]


def ranks(lines):
    return [(x.player, x.rank, x.shared) for x in lines]


def test_final_ranking_without_a_third_place_match():
    assert ranks(knockout_ranking(EIGHT, 3)) == [
        (6, 1, False), (1, 2, False), (2, 3, True), (5, 3, True), (3, 5, True), (4, 5, True), (7, 5, True),
        (8, 5, True),
    ]


def test_final_ranking_with_a_third_place_match():
    lines = knockout_ranking(EIGHT, 3, _played(5, 2, 2), third_place_planned=True)
    assert ranks(lines)[:5] == [(6, 1, False), (1, 2, False), (2, 3, False), (5, 4, False), (3, 5, True)]
    assert [x.out_in for x in lines] == [None, 3, 2, 2, 1, 1, 1, 1]


def test_ranking_while_the_final_is_being_played():
    rounds = EIGHT[:2] + [[BracketMatch(1, 6)]]
    lines = knockout_ranking(rounds, 3, BracketMatch(5, 2), third_place_planned=True)
    # finalists still in, semi-final losers waiting for the match for third place, quarter-final losers 5=
    assert ranks(lines) == [(1, None, False), (6, None, False), (2, None, False), (5, None, False),
                            (3, 5, True), (4, 5, True), (7, 5, True), (8, 5, True)]
    lines = knockout_ranking(EIGHT[:2], 3, None, third_place_planned=True)  # final round not paired yet
    assert [x.rank for x in lines] == [None, None, None, None, 5, 5, 5, 5]


def test_byes_and_a_withdrawal():
    # six players: 1 and 2 have byes in round 1; 4 wins round 1 but withdraws before round 2
    rounds = [
        [BracketMatch(1, None, 1, True), _played(4, 5, 4), BracketMatch(2, None, 2, True), _played(3, 6, 3)],
        [BracketMatch(1, None, 1, True), _played(2, 3, 2)],
        [_played(1, 2, 1)],
    ]
    lines = knockout_ranking(rounds, 3)
    assert ranks(lines) == [(1, 1, False), (2, 2, False), (3, 3, True), (4, 3, True), (5, 5, True), (6, 5, True)]
    assert {x.player: x.out_in for x in lines}[4] == 2  # out in the round it did not play


def test_both_forfeit_the_third_place_match():
    lines = knockout_ranking(EIGHT, 3, BracketMatch(5, 2, None, True), third_place_planned=True)
    assert ranks(lines)[2:4] == [(2, 3, True), (5, 3, True)]
