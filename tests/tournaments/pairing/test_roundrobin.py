"""Berger tables against the published FIDE tables (Handbook C.05 Annex 1)."""
from __future__ import annotations

import pytest

from tournaments.pairing import PairingError, berger_round, round_robin_rounds


def _parse(table: str) -> list[list[tuple[int, int]]]:
    return [[tuple(int(x) for x in g.split("-")) for g in line.split()]
            for line in table.strip().splitlines()]


# C.05 Annex 1, rows = rounds, "white-black" in board order.
BERGER_4 = """
1-4 2-3
4-3 1-2
2-4 3-1
"""
BERGER_6 = """
1-6 2-5 3-4
6-4 5-3 1-2
2-6 3-1 4-5
6-5 1-4 2-3
3-6 4-2 5-1
"""
BERGER_8 = """
1-8 2-7 3-6 4-5
8-5 6-4 7-3 1-2
2-8 3-1 4-7 5-6
8-6 7-5 1-4 2-3
3-8 4-2 5-1 6-7
8-7 1-6 2-5 3-4
4-8 5-3 6-2 7-1
"""
BERGER_10 = """
1-10 2-9 3-8 4-7 5-6
10-6 7-5 8-4 9-3 1-2
2-10 3-1 4-9 5-8 6-7
10-7 8-6 9-5 1-4 2-3
3-10 4-2 5-1 6-9 7-8
10-8 9-7 1-6 2-5 3-4
4-10 5-3 6-2 7-1 8-9
10-9 1-8 2-7 3-6 4-5
5-10 6-4 7-3 8-2 9-1
"""


@pytest.mark.parametrize("n,table", [(4, BERGER_4), (6, BERGER_6), (8, BERGER_8), (10, BERGER_10)])
def test_published_tables(n, table):
    assert round_robin_rounds(n) == _parse(table)


def test_single_round():
    assert berger_round(8, 5) == [(3, 8), (4, 2), (5, 1), (6, 7)]


def test_odd_nine_uses_the_ten_table_with_byes():
    # 9 players: player 10 of the 10-table is the dummy; its opponent has the bye.
    rounds = round_robin_rounds(9)
    assert len(rounds) == 9
    assert rounds[0] == [(2, 9), (3, 8), (4, 7), (5, 6), (1, 0)]
    assert rounds[1] == [(7, 5), (8, 4), (9, 3), (1, 2), (6, 0)]
    byes = [p for rnd in rounds for p, o in rnd if o == 0]
    assert sorted(byes) == list(range(1, 10))  # everybody has exactly one bye


def test_every_pair_meets_once_and_colours_balance():
    for n in (4, 5, 6, 7, 8, 9, 10, 12, 14):
        rounds = round_robin_rounds(n)
        seen = [frozenset(p) for rnd in rounds for p in rnd if 0 not in p]
        assert len(seen) == len(set(seen)) == n * (n - 1) // 2
        whites = {i: 0 for i in range(1, n + 1)}
        for rnd in rounds:
            for w, b in rnd:
                if b:
                    whites[w] += 1
        games = n - 1 - (n & 1)
        assert all(abs(2 * w - games) <= 1 for w in whites.values()), (n, whites)


def test_double_round_robin_reverses_colours():
    rounds = round_robin_rounds(6, double=True)
    assert len(rounds) == 10
    assert rounds[5] == [(6, 1), (5, 2), (4, 3)]
    for r in range(5):
        assert rounds[r + 5] == [(b, w) for w, b in rounds[r]]
    assert berger_round(6, 7, double=True) == [(4, 6), (3, 5), (2, 1)]
    odd = round_robin_rounds(5, double=True)
    assert odd[5] == [(5, 2), (4, 3), (1, 0)]


@pytest.mark.parametrize("args", [(1, 1), (4, 0), (4, 4), (6, 6), (3, 4)])
def test_bad_arguments(args):
    with pytest.raises(PairingError):
        berger_round(*args)


def test_double_allows_second_cycle_only_when_asked():
    with pytest.raises(PairingError):
        berger_round(4, 4)
    assert berger_round(4, 4, double=True) == [(4, 1), (3, 2)]
