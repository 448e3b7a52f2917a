"""Maximum-weight matching on a general graph with exact (arbitrary-size) integer weights.

Used by the Dutch system (C.04.3), whose criteria are encoded lexicographically in huge
integer edge weights.  Backed by :func:`networkx.max_weight_matching` (Edmonds' blossom
algorithm, integer arithmetic only when all weights are ``int``).
"""
from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

__all__ = ["max_weight_matching"]


def max_weight_matching(vertices: Iterable[int], weights: dict[tuple[int, int], int]) -> dict[int, int]:
    """Maximum-weight (not necessarily maximum-cardinality) matching.

    ``vertices``: the vertex ids; ``weights``: ``{(u, v): w}`` with ``u < v`` and ``w > 0``
    (absent or zero = no edge).  Returns ``mate`` with ``mate[v]`` the partner of ``v`` or
    ``v`` itself when unmatched.
    """
    g = nx.Graph()
    vs = list(vertices)
    g.add_nodes_from(vs)
    g.add_weighted_edges_from((u, v, w) for (u, v), w in weights.items() if w > 0)
    mate = {v: v for v in vs}
    for u, v in nx.max_weight_matching(g, maxcardinality=False):
        mate[u] = v
        mate[v] = u
    return mate
