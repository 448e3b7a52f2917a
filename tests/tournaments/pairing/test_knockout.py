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
