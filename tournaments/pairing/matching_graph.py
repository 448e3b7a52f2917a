"""The graph and state of the blossom matcher (:class:`~.matching.Matcher`): edge weights and
neighbour lists, the matching, dual variables and blossoms kept between solves.

Graph: each vertex lists only the edges that were given a non-zero weight (``nbv``/``nbk``),
so a sparse graph is scanned in time proportional to its edges; edges set back to 0 leave the
lists at the next :meth:`~.matching.Matcher.solve`, edges to retired (isolated) pairs every so
often.  Changing a weight marks its first end *dirty* (and *raised* when the edge got heavier)
for the warm start (:mod:`.matching_warm`).

Edge weights are stored doubled and ``slack = dual[i] + dual[j] - 2*w`` (plus twice the dual
of every blossom containing both ends), so all arithmetic stays integral.
"""
from __future__ import annotations

from itertools import compress
from operator import gt, ne, not_

__all__ = ["MatcherGraph", "exposed_vertices"]


def exposed_vertices(mate: list[int]) -> list[int]:
    """The vertices ``v`` with ``mate[v] == -1``, in order (found by C scans: usually few)."""
    out = []
    v = -1
    try:
        while True:
            v = mate.index(-1, v + 1)
            out.append(v)
    except ValueError:
        return out


class MatcherGraph:
    """Edge weights, neighbour lists and the search state of a matcher on ``0..n-1`` (memory
    O(n^2): weights by edge number ``k = i*n + j``, ``i < j``)."""

    def __init__(self, n: int) -> None:
        self.n = n
        N = n
        self.wt = [0] * (N * N)  # twice the weight of edge k = i*N + j, i < j
        # endpoint[2k] = i, endpoint[2k + 1] = j for edge k = i*N + j
        self.endpoint = endpoint = [0] * (2 * N * N)
        cols = list(range(N))
        for i in range(N):
            endpoint[2 * i * N:2 * (i + 1) * N:2] = [i] * N
            endpoint[2 * i * N + 1:2 * (i + 1) * N:2] = cols
        endpoint.append(-1)  # endpoint[-1]: the partner of an exposed vertex (mate -1)
        # the edges at v: nbv[v][x] is the other end of edge nbk[v][x] (edges of weight 0 are
        # dropped lazily); listed[k]: edge k is in these lists
        self.nbv: list[list[int]] = [[] for _ in range(N)]
        self.nbk: list[list[int]] = [[] for _ in range(N)]
        self.listed = bytearray(N * N)
        self.raised: set[int] = set()  # dirty vertices with an edge that got heavier
        self.mate = [-1] * N  # remote endpoint of the matched edge
        self.label = [0] * (2 * N)
        self.labelend = [-1] * (2 * N)
        self.inblossom = list(range(N))
        self.blossomparent = [-1] * (2 * N)
        self.blossomchilds: list = [None] * (2 * N)
        self.blossombase = list(range(N)) + [-1] * N
        self.blossomendps: list = [None] * (2 * N)
        self.bestedge = [-1] * (2 * N)  # least-slack edge from an S-vertex to a free vertex
        self.unusedblossoms = list(range(N, 2 * N))
        self.used: set[int] = set()  # blossom numbers in use (not in unusedblossoms)
        self.touched: list[int] = []  # vertices whose dual the warm start changed
        self.hints: dict[int, tuple[int, int]] = {}  # see _warm_start
        self.dualvar = [0] * (2 * N)
        self.bleaves: list = [None] * (2 * N)
        self.dirty: set[int] = set()
        self.zeroed: set[int] = set()  # vertices whose lists may hold edges set to 0
        self.retired: set[int] = set()
        # labels at the start of a stage: 3 (never a label of the search) for the vertices of
        # isolated pairs, whose other edges all weigh 0, so a scan needs no weight test
        self.label0 = [0] * (2 * N)
        self._compacted_at = 0
        self.stages = 0

    # -- weights ---------------------------------------------------------------------------
    def set_weight(self, i: int, j: int, w: int) -> None:
        """Set the weight of edge ``{i, j}`` (``0`` = no edge).  Vertex ``i`` is the one whose
        dual is repaired at the next :meth:`solve` (repairing one end suffices)."""
        if i == j:
            raise ValueError("no loops")
        if i < j:
            k = i * self.n + j
        else:
            k = j * self.n + i
        w2 = 2 * w
        old = self.wt[k]
        if old != w2:
            self.wt[k] = w2
            self.dirty.add(i)
            if w2 > old:
                self.raised.add(i)
            if not w2:
                self.zeroed.add(i)
                self.zeroed.add(j)
            elif not self.listed[k]:
                self.listed[k] = 1
                self.nbv[i].append(j)
                self.nbk[i].append(k)
                self.nbv[j].append(i)
                self.nbk[j].append(k)

    def set_row(self, i: int, js: list[int], ws: list[int], mark: bytearray | None = None) -> None:
        """``set_weight(i, js[x], ws[x])`` for every ``x``; with ``mark``, also ``mark[k] = 1``
        for every edge ``k`` set."""
        n, wt, listed, nbv, nbk = self.n, self.wt, self.listed, self.nbv, self.nbk
        ni = i * n
        if js and min(js) > i:  # (the usual case: the edge numbers in bulk)
            ks = [ni + j for j in js]
        else:
            ks = [ni + j if i < j else j * n + i for j in js]
        if mark is not None and [mark[k] for k in ks].count(1) != len(ks):
            for k in ks:
                mark[k] = 1
        w2s = [2 * w for w in ws]
        olds = [wt[k] for k in ks]
        if olds == w2s:
            return
        diff = list(map(ne, olds, w2s))
        for k, w2 in zip(compress(ks, diff), compress(w2s, diff)):
            wt[k] = w2
        if 0 in w2s:
            for j, w2, d in zip(js, w2s, diff):
                if d and not w2:
                    self.zeroed.add(i)
                    self.zeroed.add(j)
        # an edge not in the lists weighed 0: it changed if it weighs something now
        isin = [listed[k] for k in ks]
        if 0 in isin:
            nbvi, nbki = nbv[i], nbk[i]
            out = list(map(not_, isin))
            for j, k, w2 in zip(compress(js, out), compress(ks, out), compress(w2s, out)):
                if w2:
                    listed[k] = 1
                    nbvi.append(j)
                    nbki.append(k)
                    nbv[j].append(i)
                    nbk[j].append(k)
        self.dirty.add(i)
        if any(map(gt, w2s, olds)):
            self.raised.add(i)

    def isolate_pair(self, u: int, v: int) -> None:
        """Remove every edge at ``u`` and ``v`` except ``{u, v}`` itself (which must exist):
        the two will be matched together from now on."""
        n = self.n
        wt = self.wt
        keep = u * n + v if u < v else v * n + u
        w = wt[keep]
        for x in (u, v):
            for k in self.nbk[x]:
                wt[k] = 0
            self.dirty.add(x)
        wt[keep] = w
        self.retired.add(u)
        self.retired.add(v)
        self.label0[u] = self.label0[v] = 3
        if len(self.retired) >= self._compacted_at + max(8, (n - self._compacted_at) // 4):
            self._compact()

    def _compact(self, all_zero: bool = False) -> None:
        """Drop the edges to isolated pairs from the neighbour lists (they are all 0); with
        ``all_zero`` also the edges of weight 0 in the lists of the isolated pairs."""
        retired, nbv, nbk, wt = self.retired, self.nbv, self.nbk, self.wt
        alive = [1] * self.n
        for u in retired:
            alive[u] = 0
        keep_alive, weight = alive.__getitem__, wt.__getitem__
        for v in range(self.n):
            if alive[v]:
                keep = list(map(keep_alive, nbv[v]))
            elif all_zero:
                keep = list(map(weight, nbk[v]))
            else:
                continue
            if 0 in keep:
                nbv[v] = list(compress(nbv[v], keep))
                nbk[v] = list(compress(nbk[v], keep))
        self._compacted_at = len(retired)

    def _drop_zero_edges(self) -> None:
        """Take the edges set to 0 out of the neighbour lists of both their ends."""
        wt, listed, nbv, nbk = self.wt, self.listed, self.nbv, self.nbk
        getw = wt.__getitem__
        unlist = listed.__setitem__
        for v in self.zeroed:
            ks = nbk[v]
            ws = list(map(getw, ks))
            if 0 not in ws:
                continue
            nbv[v] = list(compress(nbv[v], ws))
            nbk[v] = list(compress(ks, ws))
            for k in compress(ks, map(not_, ws)):
                unlist(k, 0)
        self.zeroed = set()

    def weight(self, i: int, j: int) -> int:
        """Current weight of edge ``{i, j}``."""
        if i > j:
            i, j = j, i
        return self.wt[i * self.n + j] // 2

    # -- helpers ---------------------------------------------------------------------------
    def _leaves(self, b: int) -> list[int]:
        """The vertices inside (top-level or nested) blossom ``b``."""
        return self.bleaves[b] if b >= self.n else [b]

    def _slack(self, k: int) -> int:
        n = self.n
        return self.dualvar[k // n] + self.dualvar[k % n] - self.wt[k]
