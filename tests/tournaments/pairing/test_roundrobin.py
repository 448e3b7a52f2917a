"""Berger tables against the published FIDE tables (Handbook C.05 Annex 1)."""
from __future__ import annotations

import pytest

from tournaments.pairing import PairingError, berger_round, round_robin_rounds
from tournaments.pairing.roundrobin import cycle_round_order


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


def test_double_round_robin_plain_order_is_unchanged():
    """``second_cycle_swap=False`` is the table order of before: the second cycle is the first one
    with colours reversed, round for round."""
    rounds = round_robin_rounds(6, double=True, second_cycle_swap=False)
    assert len(rounds) == 10
    assert rounds[5] == [(6, 1), (5, 2), (4, 3)]
    for r in range(5):
        assert rounds[r + 5] == [(b, w) for w, b in rounds[r]]
    assert berger_round(6, 7, double=True, second_cycle_swap=False) == [(4, 6), (3, 5), (2, 1)]
    odd = round_robin_rounds(5, double=True, second_cycle_swap=False)
    assert odd[5] == [(5, 2), (4, 3), (1, 0)]
    for n in range(2, 25):
        single = round_robin_rounds(n)
        plain = round_robin_rounds(n, double=True, second_cycle_swap=False)
        assert plain[:len(single)] == single
        assert plain[len(single):] == [[(b, w) if b else (w, b) for w, b in rnd] for rnd in single]
        # the swap flag changes nothing in a single round robin
        assert round_robin_rounds(n, second_cycle_swap=False) == single


def test_double_round_robin_swaps_the_last_two_rounds_of_the_first_cycle():
    """Default (C.05 Annex 1): rounds m-1 and m of the first cycle are swapped; the second cycle is
    the plain first cycle with colours reversed."""
    for n in range(3, 25):
        m = n + (n & 1) - 1
        plain = round_robin_rounds(n, double=True, second_cycle_swap=False)
        swapped = round_robin_rounds(n, double=True)
        assert swapped == round_robin_rounds(n, double=True, second_cycle_swap=True)
        assert swapped[:m - 2] == plain[:m - 2]
        assert swapped[m - 2] == plain[m - 1] and swapped[m - 1] == plain[m - 2]
        assert swapped[m:] == plain[m:]
        assert [berger_round(n, r, double=True) for r in range(1, 2 * m + 1)] == swapped
        assert cycle_round_order(n, double=True)[m - 2:m] == [m, m - 1]
    rounds = round_robin_rounds(6, double=True)
    # 6 players: table round 5 is played in round 4 and table round 4 in round 5
    assert rounds[3] == [(3, 6), (4, 2), (5, 1)] and rounds[4] == [(6, 5), (1, 4), (2, 3)]
    assert rounds[5] == [(6, 1), (5, 2), (4, 3)]  # second cycle: table round 1 reversed
    assert round_robin_rounds(2, double=True) == [[(1, 2)], [(2, 1)]]  # nothing to swap


def _colour_runs(n: int, swap: bool) -> dict[int, list[str]]:
    """Colour sequence of every player of the even table (the dummy of an odd ``n`` included):
    ``"w"``/``"b"`` per round."""
    even = n + (n & 1)
    seq: dict[int, list[str]] = {i: [] for i in range(1, even + 1)}
    for rnd in round_robin_rounds(even, double=True, second_cycle_swap=swap):
        for w, b in rnd:
            seq[w].append("w")
            seq[b].append("b")
    return seq


def _longest(seq: list[str]) -> int:
    best = run = 0
    last = None
    for c in seq:
        run = run + 1 if c == last else 1
        last = c
        best = max(best, run)
    return best


@pytest.mark.parametrize("n", range(3, 25))
def test_no_three_equal_colours_in_a_row_with_the_swap(n):
    """What the C.05 Annex 1 recommendation guarantees, checked for 3..24 players: with the last two
    rounds of the first cycle swapped nobody (the dummy of an odd field included) has the same
    colour in three consecutive rounds; for an odd field the real players also never have three
    equal colours in consecutive *games* (the bye skipped).  Without the swap, exactly the
    players 1 and even/2 + 1 of the even table have three in a row, across the junction of the
    cycles (rounds m, m+1, m+2); with the dummy in the field those are the dummy's opponents of
    round 1, whose bye breaks the run."""
    even = n + (n & 1)
    m = even - 1
    swapped = _colour_runs(n, True)
    assert max(_longest(s) for s in swapped.values()) == 2
    plain = _colour_runs(n, False)
    three = sorted(p for p, s in plain.items() if _longest(s) >= 3)
    assert three == sorted({1, even // 2 + 1})
    for p in three:
        assert _longest(plain[p]) == 3
        assert len(set(plain[p][m - 1:m + 2])) == 1  # rounds m, m+1, m+2
    if n & 1:  # the real players, games only
        for rounds in (round_robin_rounds(n, double=True), round_robin_rounds(n, double=True, second_cycle_swap=False)):
            games: dict[int, list[str]] = {i: [] for i in range(1, n + 1)}
            for rnd in rounds:
                for w, b in rnd:
                    if b:
                        games[w].append("w")
                        games[b].append("b")
            assert max(_longest(s) for s in games.values()) == 2


@pytest.mark.parametrize("args", [(1, 1), (4, 0), (4, 4), (6, 6), (3, 4)])
def test_bad_arguments(args):
    with pytest.raises(PairingError):
        berger_round(*args)


def test_double_allows_second_cycle_only_when_asked():
    with pytest.raises(PairingError):
        berger_round(4, 4)
    assert berger_round(4, 4, double=True) == [(4, 1), (3, 2)]
