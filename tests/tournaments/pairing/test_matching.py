"""The blossom matcher (tournaments.pairing.matching) against networkx, cold and warm."""
from __future__ import annotations

import random

import networkx as nx
import pytest

from tournaments.pairing.matching import Matcher


def _reference(n: int, weights: dict[tuple[int, int], int]) -> tuple[int, int]:
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_weighted_edges_from((i, j, w) for (i, j), w in weights.items() if w > 0)
    m = nx.max_weight_matching(g, maxcardinality=True)
    return len(m), sum(weights[min(a, b), max(a, b)] for a, b in m)


def _value(n: int, weights: dict[tuple[int, int], int], mate: list[int]) -> tuple[int, int]:
    count = total = 0
    for v, u in enumerate(mate):
        if u != -1:
            assert mate[u] == v
            if v < u:
                assert weights.get((v, u), 0) > 0, "matched a missing edge"
                count += 1
                total += weights[v, u]
    return count, total


def test_small_known_optimum():
    # path 0-1-2-3: the two outer edges (2 + 2) beat the heavy middle edge only with
    # maximum cardinality.
    m = Matcher(4)
    for (i, j), w in {(0, 1): 2, (1, 2): 3, (2, 3): 2}.items():
        m.set_weight(i, j, w)
    assert m.solve() == [1, 0, 3, 2]
    # a triangle (blossom) plus a pendant: the pendant edge forces 0-1 and 2-3
    m = Matcher(4)
    for (i, j), w in {(0, 1): 10, (1, 2): 10, (0, 2): 10, (2, 3): 1}.items():
        m.set_weight(i, j, w)
    assert m.solve() == [1, 0, 3, 2]


def test_huge_integer_weights_are_exact():
    big = 1 << 300
    m = Matcher(4)
    for (i, j), w in {(0, 1): big + 1, (2, 3): big + 1, (0, 2): big + 1, (1, 3): big + 2}.items():
        m.set_weight(i, j, w)
    assert m.solve() == [2, 3, 0, 1]  # 0-2 + 1-3 = 2 big + 3 beats 0-1 + 2-3 = 2 big + 2


@pytest.mark.parametrize("seed", range(6))
def test_random_warm_starts_match_networkx(seed):
    rnd = random.Random(seed)
    for _ in range(25):
        n = 2 * rnd.randrange(1, 8)
        big = rnd.choice([10, 1000, 1 << 90])
        density = rnd.random()
        m = Matcher(n)
        weights: dict[tuple[int, int], int] = {}
        for step in range(5):
            touched = range(n) if step == 0 else rnd.sample(range(n), rnd.randrange(1, n + 1))
            for i in touched:
                for j in range(n):
                    if i == j or (step and rnd.random() < 0.5):
                        continue
                    w = rnd.randrange(1, big) if rnd.random() < density else 0
                    if rnd.random() < 0.3:
                        w = rnd.choice([0, big // 2, big // 2 + 1])  # ties
                    if abs(i - j) == 1 and min(i, j) % 2 == 0 and w == 0:
                        w = 1  # keep a perfect matching possible
                    weights[min(i, j), max(i, j)] = w
                    m.set_weight(i, j, w)
            assert _value(n, weights, m.solve()) == _reference(n, weights)


def test_isolated_pairs_stay_together_and_lists_are_compacted():
    n = 40
    rnd = random.Random(7)
    m = Matcher(n)
    weights = {}
    for i in range(n):
        for j in range(i + 1, n):
            weights[i, j] = rnd.randrange(1, 50)
            m.set_weight(i, j, weights[i, j])
    mate = m.solve()
    assert _value(n, weights, mate) == _reference(n, weights)
    # retire pairs one by one (the Dutch system finalises pairs this way)
    alive = set(range(n))
    while len(alive) > 2:
        u = min(alive)
        v = mate[u]
        m.isolate_pair(u, v)
        alive -= {u, v}
        for x in alive:  # change some weights of the others
            y = rnd.choice(sorted(alive - {x}))
            w = rnd.randrange(1, 50)
            weights[min(x, y), max(x, y)] = w
            m.set_weight(x, y, w)
        mate = m.solve()
        assert mate[u] == v and mate[v] == u
        sub = {k: w for k, w in weights.items() if k[0] in alive and k[1] in alive}
        got = sum(sub[min(a, mate[a]), max(a, mate[a])] for a in alive if a < mate[a])
        assert got == _reference(n, sub)[1]
    assert m._compacted_at > 0


@pytest.mark.parametrize("seed", range(4))
def test_isolating_a_pair_that_is_not_matched(seed):
    """isolate_pair() on two players matched elsewhere: both pairs are released, the two are matched
    together and the rest is a maximum-weight matching again (the search then leaves out the weight-0
    edges of the isolated pair that stay in the lists)."""
    rnd = random.Random(seed)
    n = 14
    m = Matcher(n)
    weights = {}
    for i in range(n):
        for j in range(i + 1, n):
            weights[i, j] = rnd.randrange(1, 40)
            m.set_weight(i, j, weights[i, j])
    mate = m.solve()
    alive = set(range(n))
    for _ in range(3):
        u = min(alive)
        v = max(x for x in alive if x not in (u, mate[u]))
        m.isolate_pair(u, v)
        alive -= {u, v}
        mate = m.solve()
        assert mate[u] == v and mate[v] == u
        sub = {k: w for k, w in weights.items() if k[0] in alive and k[1] in alive}
        assert all(mate[a] in alive for a in alive)
        got = sum(sub[min(a, mate[a]), max(a, mate[a])] for a in alive if a < mate[a])
        assert got == _reference(n, sub)[1]
