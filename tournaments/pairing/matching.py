"""Maximum-weight perfect matching with exact integer weights and warm starts.

Edmonds' primal-dual blossom algorithm in the O(n^3) form of Galil ("Efficient algorithms
for finding maximum matching in graphs", ACM Computing Surveys 18, 1986): alternating trees
grown from all exposed vertices, blossoms shrunk and expanded, dual variables adjusted by the
smallest of the four deltas.  Weights are arbitrary-size non-negative ``int`` (0 = no edge);
the Dutch system (C.04.3) encodes its criteria lexicographically in such weights.

Graph: each vertex lists only the edges that were given a non-zero weight (``nbv``/``nbk``),
so a sparse graph is scanned in time proportional to its edges; edges set back to 0 leave the
lists at the next :meth:`Matcher.solve`, edges to retired (isolated) pairs every so often.
For the least-slack edge between two S-blossoms (delta 3) every S-vertex keeps its own
least-slack edge to another S-blossom, found when it is scanned; an edge that later falls
inside one blossom is replaced by a new look at that vertex's edges when the deltas are
computed (instead of merging per-blossom edge lists at every blossom made).

:class:`Matcher` keeps its matching, dual variables and blossoms between calls.  When the
weights of some edges change (the *dirty* vertices are the first ends given to
:meth:`~Matcher.set_weight`), the blossoms around the dirty vertices are dissolved (their dual
moves to their vertices); a dirty vertex with a heavier edge raises its dual to the smallest
feasible value; a matched edge at a dirty vertex that is no longer tight is made tight again by
lowering the dual of one end by the slack when that end's other edges allow it (a potential
shift: after edges at one vertex got lighter by the same amount nothing else changes), else the
pair is released; exposed dirty vertices get the smallest feasible dual.  The search then
continues from that dual-feasible state; exposed vertices joined by a tight edge are matched
directly at the start of every stage.  Re-solving after a change touching a few vertices costs
a few stages instead of a full O(n^3) run.  When many vertices got heavier edges at once (a
whole score group's rows, at least ``_SPLIT_MIN``), their rises are computed from the old duals
and an edge between two of them is covered half by each end (one end taking the whole rise
would loosen every matched edge of the group); when the other ends of the edges left too heavy
are few (the players moved down into the group) they take the whole rise first; and a loose
matched edge may be made tight by lowering both ends in part.

Contract: the result is a maximum-weight *perfect* matching whenever the graph has one (the
Dutch system guarantees this by adding a dummy vertex for an odd number of players and by
its completion check).  Without a perfect matching the result has maximum cardinality but,
after a warm start, not necessarily maximum weight.  The dual solution (``dualvar``, with the
nesting ``blossomparent``) is left readable after :meth:`~Matcher.solve`: the Dutch system uses
it to check the edges it did not give the matcher.

Edge weights are stored doubled and ``slack = dual[i] + dual[j] - 2*w`` (plus twice the dual
of every blossom containing both ends), so all arithmetic stays integral; exposed vertices
are kept at even duals so that the slack between two S-vertices is always even.
"""
from __future__ import annotations

from heapq import heappop, heappush
from itertools import compress
from operator import eq, gt, ne, not_, sub

_IS_EXPOSED = (-1).__eq__
_INF = float("inf")
_SPLIT_MIN = 16  # raised vertices from which _warm_start splits the rises
_FAR_SHARE = 4  # ... and raises their few other ends first

__all__ = ["Matcher"]


class Matcher:
    """Maximum-weight perfect matching on the vertex set ``0..n-1`` (see the module notes).

    ``set_weight(i, j, w)`` with ``w >= 0`` (``0`` removes the edge), ``set_row`` for many edges
    at one vertex; ``solve()`` returns ``mate`` with ``mate[v]`` the partner of ``v`` or ``-1``.
    ``isolate_pair(u, v)`` fixes a pair for good (used for finalised pairings).  Memory is
    O(n^2) (weights by edge number ``k = i*n + j``, ``i < j``); time per stage is O(n + edges).
    """

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
        ks = [ni + j if i < j else j * n + i for j in js]
        if mark is not None and list(map(mark.__getitem__, ks)).count(1) != len(ks):
            for k in ks:
                mark[k] = 1
        w2s = [w << 1 for w in ws]
        olds = list(map(wt.__getitem__, ks))
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
        isin = list(map(listed.__getitem__, ks))
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

    def _dissolve(self, b: int) -> None:
        """Dissolve top-level blossom ``b`` keeping every slack valid: its dual moves to its
        vertices (inner edges unchanged, edges leaving ``b`` get looser)."""
        n = self.n
        z = self.dualvar[b]
        lv = self.bleaves[b]
        if z:
            self.touched.extend(lv)
            dualvar = self.dualvar
            for v in lv:
                dualvar[v] += z
        self.dualvar[b] = 0
        for s in self.blossomchilds[b]:
            self.blossomparent[s] = -1
            if s < n:
                self.inblossom[s] = s
            else:
                for v in self._leaves(s):
                    self.inblossom[v] = s
        self.label[b] = 0
        self.labelend[b] = -1
        self.blossomchilds[b] = None
        self.blossomendps[b] = None
        self.blossombase[b] = -1
        self.bestedge[b] = -1
        self.bleaves[b] = None
        self.unusedblossoms.append(b)
        self.used.discard(b)

    def _make_trivial(self, v: int) -> None:
        while self.inblossom[v] != v:
            self._dissolve(self.inblossom[v])

    def _warm_start(self) -> None:
        """Restore a dual-feasible state after weight changes (see the module notes)."""
        n = self.n
        endpoint, mate, dualvar, wt = self.endpoint, self.mate, self.dualvar, self.wt
        Z = sorted(self.dirty)
        self.dirty = set()
        self.touched = touched = list(Z)
        for z in Z:
            self._make_trivial(z)
        inblossom = self.inblossom
        nbv, nbk = self.nbv, self.nbk
        raised = self.raised
        self.raised = set()

        getw, gety = wt.__getitem__, dualvar.__getitem__

        arg1: dict[int, int] = {}  # vertex -> the neighbour that gave its need(v, -1)
        hints = self.hints  # vertex -> its two neighbours of largest wt - dual when last looked at

        def need(v: int, skip: int) -> int | None:
            """Smallest dual of trivial vertex ``v`` covering its edges (but ``skip``); with
            ``skip < 0`` the neighbour giving it is kept in ``arg1[v]``."""
            ks = nbk[v]
            if not ks:
                return None
            ends = nbv[v]
            ds = list(map(sub, map(getw, ks), map(gety, ends)))
            j = -1
            if skip >= 0:
                try:
                    j = ends.index(skip)
                except ValueError:
                    pass
                else:
                    if len(ds) == 1:
                        return None
                    ds[j] = ds[j - 1] if j else ds[1]  # leave the maximum of the others
            best = max(ds)
            i = ds.index(best)
            if i == j:
                i = j - 1 if j else 1
            if wt[ks[i]]:
                if skip < 0:
                    arg1[v] = ends[i]
                    if len(ds) > 1:  # keep the two heaviest neighbours as hints
                        ds[i] = ds[i - 1] if i else ds[1]
                        hints[v] = (ends[i], ends[ds.index(max(ds))])
                return best
            # an edge to a finalised pair (weight 0, not dropped yet) gave the maximum
            best = None
            for u, k in zip(ends, ks):
                w = wt[k]
                if w and u != skip:
                    d = w - dualvar[u]
                    if best is None or d > best:
                        best = d
                        if skip < 0:
                            arg1[v] = u
            return best

        def edge_value(v: int, u: int) -> int | None:
            """``wt - dual[u]`` of edge ``{v, u}``, ``None`` without that edge."""
            w = wt[v * n + u if v < u else u * n + v]
            return w - dualvar[u] if w else None

        # duals changed in steps 1-3, in order; needs[z] was computed when changed had at[z] items
        changed: list[int] = []
        at: dict[int, int] = {}

        # 1. feasibility: a dirty vertex whose edges got heavier raises its dual
        needs: dict[int, int | None] = {}
        R = [z for z in Z if z in raised]
        bulk = len(R) >= _SPLIT_MIN
        if bulk:
            # many rows at once (a whole score group): each raise is computed from the old
            # duals, an edge between two raised vertices split between its ends (both raise by
            # at least half its deficit), so that a matched edge whose weight rose with its
            # neighbours' stays (nearly) tight instead of one end taking the whole rise
            inR = bytearray(n)
            for z in R:
                inR[z] = 1
            # the other ends of the edges left too heavy: when they are few (the players moved
            # down into a score group whose rows all changed), they take the whole rise first
            far: dict[int, int] = {}
            for z in R:
                yz = dualvar[z]
                for u, k in zip(nbv[z], nbk[z]):
                    if not inR[u]:
                        w = wt[k]
                        if w:
                            e = w - yz - dualvar[u]
                            if e > 0 and e > far.get(u, 0):
                                far[u] = e
            if far and len(far) * _FAR_SHARE <= len(R):
                for u in far:
                    self._make_trivial(u)
                for u, e in far.items():
                    dualvar[u] += e + (e & 1)
                    touched.append(u)
            rise = []
            for z in R:
                yz = dualvar[z]
                d = 0
                for u, k in zip(nbv[z], nbk[z]):
                    w = wt[k]
                    if w:
                        e = w - yz - dualvar[u]
                        if e > 0:
                            if inR[u]:
                                e = ((e + 3) >> 2) << 1
                            elif e & 1:
                                e += 1
                            if e > d:
                                d = e
                rise.append(d)
            for z, d in zip(R, rise):
                if d:
                    dualvar[z] += d
                    changed.append(z)
            R = []
        for z in R:
            at[z] = len(changed)
            a = needs[z] = need(z, -1)
            if a is not None and dualvar[z] < a:
                dualvar[z] = a
                changed.append(z)
        lowered = False
        # 2. a matched edge at a dirty vertex that is no longer tight: lower the dual of one
        # end (the higher-ranked first) by the slack when its other edges allow it (a
        # potential shift), else release the pair
        done: set[int] = set()
        for z in Z:
            if z in done or mate[z] == -1:
                continue
            m = endpoint[mate[z]]
            k = mate[z] >> 1
            done.add(z)
            done.add(m)
            if wt[k]:
                s = dualvar[z] + dualvar[m] - wt[k]
                if s == 0:
                    continue
                for a, b in ((z, m), (m, z)) if z < m else ((m, z), (z, m)):
                    if inblossom[a] == a:
                        # one edge other than {a, b} that stays too heavy refuses the shift
                        # without looking at the others
                        refused = False
                        for h in hints.get(a, ()):
                            if h != b:
                                e = edge_value(a, h)
                                if e is not None and e > dualvar[a] - s:
                                    refused = True
                                    break
                        if refused and not bulk:
                            continue
                        r = need(a, b)
                        if r is None or dualvar[a] - s >= r:
                            dualvar[a] -= s
                            changed.append(a)
                            s = 0
                            lowered = True
                            break
                        if bulk and r < dualvar[a] - 1:
                            # part of the slack (an even amount: parities kept)
                            d = (dualvar[a] - r) & ~1
                            dualvar[a] -= d
                            changed.append(a)
                            s -= d
                            lowered = True
                if s == 0:
                    continue
            mate[m] = -1
            mate[z] = -1
        # 3. exposed dirty vertices: the smallest feasible dual (the value of step 1 is still
        # feasible as long as no dual went down since then)
        for z in Z:
            if mate[z] == -1:
                if not lowered and z in needs:
                    a = needs[z]
                elif z in needs and z in arg1 and len(changed) - at[z] <= 64:
                    # need(z, -1) again: only the duals changed since needs[z] was computed can
                    # move it (and only up, unless its maximiser changed)
                    since = set(changed[at[z]:])
                    if arg1[z] in since:
                        a = need(z, -1)
                    else:
                        a = needs[z]
                        for u in since:
                            if u != z:
                                e = edge_value(z, u)
                                if e is not None and e > a:
                                    a = e
                else:
                    a = need(z, -1)
                if a is not None:
                    if a < dualvar[z]:
                        lowered = True
                    if a != dualvar[z]:
                        changed.append(z)
                    dualvar[z] = a
        # release matched edges between top-level blossoms that are no longer tight: every
        # matched edge was tight after the last solve, so only those at a vertex whose edges or
        # dual changed here (a dirty vertex or a vertex of a dissolved blossom) can be loose
        for v in set(touched):
            p = mate[v]
            if p == -1:
                continue
            u = endpoint[p]
            if inblossom[u] == inblossom[v]:
                continue
            k = p >> 1
            w = wt[k]
            if w == 0 or dualvar[u] + dualvar[v] != w:
                mate[u] = -1
                mate[v] = -1
        # exposed vertices become trivial roots with duals of one parity
        exposed = list(compress(range(n), map(_IS_EXPOSED, mate)))
        for v in exposed:
            if inblossom[v] != v:
                self._make_trivial(v)
        for v in exposed:
            if dualvar[v] & 1:
                dualvar[v] += 1

    # -- the algorithm -----------------------------------------------------------------------
    def solve(self) -> list[int]:
        """Return ``mate`` (partner or ``-1``): a maximum-weight perfect matching for the
        current weights when one exists (else a maximum-cardinality matching)."""
        if self.zeroed:
            self._drop_zero_edges()
        if self.dirty:
            self._warm_start()
        n = self.n
        N2 = 2 * n
        wt = self.wt
        endpoint = self.endpoint
        nbv, nbk = self.nbv, self.nbk
        mate = self.mate
        label = self.label
        labelend = self.labelend
        inblossom = self.inblossom
        blossomparent = self.blossomparent
        blossomchilds = self.blossomchilds
        blossombase = self.blossombase
        blossomendps = self.blossomendps
        bestedge = self.bestedge
        unusedblossoms = self.unusedblossoms
        dualvar = self.dualvar
        bleaves = self.bleaves
        used = self.used
        best3 = [-1] * n  # per S-vertex: least-slack edge to another S-blossom
        # per stage, so that the deltas and dual changes look at the tree only: the vertices
        # scanned (every S-vertex is), the leaves of blossoms labelled T, the vertices given a
        # best edge
        scanned: list[int] = []
        tleaves: list[int] = []
        becand: list[int] = []

        def leaves(b: int) -> list[int]:
            return bleaves[b] if b >= n else [b]

        def slack(k: int) -> int:
            return dualvar[k // n] + dualvar[k % n] - wt[k]

        queue: list[int] = []

        def assign_label(w: int, t: int, p: int) -> None:
            b = inblossom[w]
            label[w] = label[b] = t
            labelend[w] = labelend[b] = p
            bestedge[w] = bestedge[b] = -1
            if t == 1:
                for v in leaves(b):
                    heappush(queue, v)
            elif t == 2:
                tleaves.extend(leaves(b))
                base = blossombase[b]
                assign_label(endpoint[mate[base]], 1, mate[base] ^ 1)

        def scan_blossom(v: int, w: int) -> int:
            path = []
            base = -1
            while v != -1 or w != -1:
                b = inblossom[v]
                if label[b] & 4:
                    base = blossombase[b]
                    break
                path.append(b)
                label[b] = 5
                if labelend[b] == -1:
                    v = -1
                else:
                    v = endpoint[labelend[b]]
                    b = inblossom[v]
                    v = endpoint[labelend[b]]
                if w != -1:
                    v, w = w, v
            for b in path:
                label[b] = 1
            return base

        def add_blossom(base: int, k: int) -> None:
            v, w = k // n, k % n
            bb = inblossom[base]
            bv = inblossom[v]
            bw = inblossom[w]
            b = unusedblossoms.pop()
            used.add(b)
            blossombase[b] = base
            blossomparent[b] = -1
            blossomparent[bb] = b
            blossomchilds[b] = path = []
            blossomendps[b] = endps = []
            while bv != bb:
                blossomparent[bv] = b
                path.append(bv)
                endps.append(labelend[bv])
                v = endpoint[labelend[bv]]
                bv = inblossom[v]
            path.append(bb)
            path.reverse()
            endps.reverse()
            endps.append(2 * k)
            while bw != bb:
                blossomparent[bw] = b
                path.append(bw)
                endps.append(labelend[bw] ^ 1)
                w = endpoint[labelend[bw]]
                bw = inblossom[w]
            label[b] = 1
            labelend[b] = labelend[bb]
            dualvar[b] = 0
            lv: list[int] = []
            for t in path:
                lv.extend(leaves(t))
            bleaves[b] = lv
            for v in lv:
                if label[inblossom[v]] == 2:
                    heappush(queue, v)
                inblossom[v] = b
            bestedge[b] = -1

        def expand_blossom(b: int, endstage: bool) -> None:
            for s in blossomchilds[b]:
                blossomparent[s] = -1
                if s < n:
                    inblossom[s] = s
                elif endstage and dualvar[s] == 0:
                    expand_blossom(s, endstage)
                else:
                    for v in leaves(s):
                        inblossom[v] = s
            if (not endstage) and label[b] == 2:
                entrychild = inblossom[endpoint[labelend[b] ^ 1]]
                j = blossomchilds[b].index(entrychild)
                if j & 1:
                    j -= len(blossomchilds[b])
                    jstep = 1
                    endptrick = 0
                else:
                    jstep = -1
                    endptrick = 1
                p = labelend[b]
                while j != 0:
                    label[endpoint[p ^ 1]] = 0
                    label[endpoint[blossomendps[b][j - endptrick] ^ endptrick ^ 1]] = 0
                    assign_label(endpoint[p ^ 1], 2, p)
                    j += jstep
                    p = blossomendps[b][j - endptrick] ^ endptrick
                    j += jstep
                bv = blossomchilds[b][j]
                label[endpoint[p ^ 1]] = label[bv] = 2
                labelend[endpoint[p ^ 1]] = labelend[bv] = p
                bestedge[bv] = -1
                j += jstep
                while blossomchilds[b][j] != entrychild:
                    bv = blossomchilds[b][j]
                    if label[bv] == 1:
                        j += jstep
                        continue
                    for v in leaves(bv):
                        if label[v] != 0:
                            break
                    if label[v] != 0:
                        label[v] = 0
                        label[endpoint[mate[blossombase[bv]]]] = 0
                        assign_label(v, 2, labelend[v])
                    j += jstep
            label[b] = labelend[b] = -1
            blossomchilds[b] = blossomendps[b] = None
            blossombase[b] = -1
            bestedge[b] = -1
            bleaves[b] = None
            unusedblossoms.append(b)
            used.discard(b)

        def augment_blossom(b: int, v: int) -> None:
            t = v
            while blossomparent[t] != b:
                t = blossomparent[t]
            if t >= n:
                augment_blossom(t, v)
            i = j = blossomchilds[b].index(t)
            if i & 1:
                j -= len(blossomchilds[b])
                jstep = 1
                endptrick = 0
            else:
                jstep = -1
                endptrick = 1
            while j != 0:
                j += jstep
                t = blossomchilds[b][j]
                p = blossomendps[b][j - endptrick] ^ endptrick
                if t >= n:
                    augment_blossom(t, endpoint[p])
                j += jstep
                t = blossomchilds[b][j]
                if t >= n:
                    augment_blossom(t, endpoint[p ^ 1])
                mate[endpoint[p]] = p ^ 1
                mate[endpoint[p ^ 1]] = p
            blossomchilds[b] = blossomchilds[b][i:] + blossomchilds[b][:i]
            blossomendps[b] = blossomendps[b][i:] + blossomendps[b][:i]
            blossombase[b] = blossombase[blossomchilds[b][0]]

        def augment_matching(k: int) -> None:
            v, w = k // n, k % n
            for s, p in ((v, 2 * k + 1), (w, 2 * k)):
                while True:
                    bs = inblossom[s]
                    if bs >= n:
                        augment_blossom(bs, s)
                    mate[s] = p
                    if labelend[bs] == -1:
                        break
                    t = endpoint[labelend[bs]]
                    bt = inblossom[t]
                    s = endpoint[labelend[bt]]
                    j = endpoint[labelend[bt] ^ 1]
                    if bt >= n:
                        augment_blossom(bt, j)
                    mate[j] = labelend[bt]
                    p = labelend[bt] ^ 1

        while True:  # stages
            self.stages += 1
            # augmenting paths of length one: two exposed single vertices joined by a
            # tight edge (saves a whole stage each)
            exposed = [v for v in compress(range(n), map(_IS_EXPOSED, mate)) if inblossom[v] == v]
            if len(exposed) * len(exposed) < 2 * sum(len(nbk[v]) for v in exposed):
                # the first exposed u after v with a tight edge {v, u}: weights and sums of the
                # duals compared in bulk, candidates checked in order
                dex = list(map(dualvar.__getitem__, exposed))
                for x, v in enumerate(exposed):
                    if mate[v] != -1:
                        continue
                    rest = exposed[x + 1:]
                    if not rest:
                        break
                    nv = v * n
                    ws_ = list(map(wt.__getitem__, map(nv.__add__, rest)))
                    eqs = list(map(eq, ws_, map(dex[x].__add__, dex[x + 1:])))
                    j = -1
                    while True:
                        try:
                            j = eqs.index(True, j + 1)
                        except ValueError:
                            break
                        u = rest[j]
                        if ws_[j] and mate[u] == -1:
                            k = nv + u
                            mate[v] = 2 * k + 1
                            mate[u] = 2 * k
                            break
            else:
                for v in exposed:
                    if mate[v] == -1:
                        dv = dualvar[v]
                        for k, u in zip(nbk[v], nbv[v]):
                            w8 = wt[k]
                            if w8 and mate[u] == -1 and inblossom[u] == u and dv + dualvar[u] == w8:
                                mate[v] = 2 * k + (u > v)
                                mate[u] = 2 * k + (v > u)
                                break
            if any(map(self.label0.__getitem__, compress(range(n), map(_IS_EXPOSED, mate)))):
                # an isolated pair to be matched again (not the Dutch system's use): no edge
                # of weight 0 may stay in the lists, no label 3
                self._compact(all_zero=True)
                label[:] = [0] * N2
            else:
                label[:] = self.label0
            bestedge[:] = [-1] * N2
            best3[:] = [-1] * n
            queue.clear()
            scanned.clear()
            tleaves.clear()
            becand.clear()
            for v in compress(range(n), map(_IS_EXPOSED, mate)):
                if label[inblossom[v]] == 0:
                    assign_label(v, 1, -1)
            augmented = False
            while True:
                while queue and not augmented:
                    v = heappop(queue)
                    scanned.append(v)
                    bv_ = inblossom[v]
                    dv = dualvar[v]
                    b3k = -1
                    b3s = _INF
                    # Edges of weight 0 in the lists lead to isolated pairs (the others were
                    # dropped at the start), labelled 3: no effect whatever their slack.  No
                    # allowed-edge marks are kept: an edge is used when its slack is 0.
                    for k, w in zip(nbk[v], nbv[v]):
                        bw = inblossom[w]
                        if bv_ == bw:
                            continue
                        w8 = wt[k]
                        kslack = dv + dualvar[w] - w8
                        if kslack > 0:
                            if label[bw] == 1:
                                if kslack < b3s:
                                    b3s = kslack
                                    b3k = k
                            elif label[w] == 0:
                                bk = bestedge[w]
                                if bk == -1:
                                    bestedge[w] = k
                                    becand.append(w)
                                elif kslack < dualvar[bk // n] + dualvar[bk % n] - wt[bk]:
                                    bestedge[w] = k
                            continue
                        lw = label[bw]
                        if lw == 0:
                            assign_label(w, 2, 2 * k + (v > w))
                        elif lw == 1:
                            base = scan_blossom(v, w)
                            if base >= 0:
                                add_blossom(base, k)
                                bv_ = inblossom[v]
                            else:
                                augment_matching(k)
                                augmented = True
                                break
                        elif label[w] == 0:
                            label[w] = 2
                            labelend[w] = 2 * k + (v > w)
                    best3[v] = b3k
                if augmented:
                    break
                deltatype = -1
                delta = deltaedge = deltablossom = None
                for v in sorted(set(becand)):
                    if label[inblossom[v]] == 0 and bestedge[v] != -1:
                        d = slack(bestedge[v])
                        if deltatype == -1 or d < delta:
                            delta = d
                            deltatype = 2
                            deltaedge = bestedge[v]
                sset = set(scanned)
                for v in sorted(sset):
                    bv = inblossom[v]
                    if label[bv] != 1:
                        continue
                    k = best3[v]
                    if k == -1:
                        continue
                    u = k // n
                    if u == v:
                        u = k - u * n
                    bu = inblossom[u]
                    if label[bu] != 1 or bu == bv:
                        # the best edge of v went inside its blossom: look again
                        k = -1
                        dv = dualvar[v]
                        bs = None
                        for kk, u in zip(nbk[v], nbv[v]):
                            w8 = wt[kk]
                            if w8:
                                bu = inblossom[u]
                                if bu != bv and label[bu] == 1:
                                    sk = dv + dualvar[u] - w8
                                    if bs is None or sk < bs:
                                        bs = sk
                                        k = kk
                        best3[v] = k
                        if k == -1:
                            continue
                    kslack = slack(k)
                    if kslack & 1:
                        raise AssertionError("odd slack between S-blossoms")
                    d = kslack // 2
                    if deltatype == -1 or d < delta:
                        delta = d
                        deltatype = 3
                        deltaedge = k
                for b in sorted(used):
                    if (blossombase[b] >= 0 and blossomparent[b] == -1 and label[b] == 2
                            and (deltatype == -1 or dualvar[b] < delta)):
                        delta = dualvar[b]
                        deltatype = 4
                        deltablossom = b
                if deltatype == -1:
                    break  # no augmenting path: maximum cardinality reached
                sset.update(tleaves)
                for v in sset:
                    lb = label[inblossom[v]]
                    if lb == 1:
                        dualvar[v] -= delta
                    elif lb == 2:
                        dualvar[v] += delta
                for b in used:
                    if blossombase[b] >= 0 and blossomparent[b] == -1:
                        if label[b] == 1:
                            dualvar[b] += delta
                        elif label[b] == 2:
                            dualvar[b] -= delta
                if deltatype == 2:
                    i, j = deltaedge // n, deltaedge % n
                    if label[inblossom[i]] == 0:
                        i, j = j, i
                    heappush(queue, i)
                elif deltatype == 3:
                    heappush(queue, deltaedge // n)
                else:
                    expand_blossom(deltablossom, False)
            if not augmented:
                break
            for b in sorted(used):
                if blossomparent[b] == -1 and blossombase[b] >= 0 and label[b] == 1 and dualvar[b] == 0:
                    expand_blossom(b, True)
        return list(map(endpoint.__getitem__, mate))  # (endpoint[-1] is -1)
