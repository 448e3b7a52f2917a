"""Maximum-weight perfect matching with exact integer weights and warm starts.

Edmonds' primal-dual blossom algorithm in the O(n^3) form of Galil ("Efficient algorithms
for finding maximum matching in graphs", ACM Computing Surveys 18, 1986): alternating trees
grown from all exposed vertices, blossoms shrunk and expanded, dual variables adjusted by the
smallest of the four deltas.  Weights are arbitrary-size non-negative ``int`` (0 = no edge);
the Dutch system (C.04.3) encodes its criteria lexicographically in such weights.

:class:`Matcher` keeps its matching, dual variables and blossoms between calls.  When the
weights of some edges change, the blossoms around the touched vertices are dissolved (their
dual moves to their vertices), the touched vertices get the smallest feasible dual (keeping
their matched edge when it can stay tight) and matched edges that are no longer tight are
released; the search then continues from that dual-feasible state.  Exposed vertices joined
by a tight edge are matched directly at the start of every stage.  Re-solving after a change
touching a few vertices costs a few O(n^2) stages instead of a full O(n^3) run.

Contract: the result is a maximum-weight *perfect* matching whenever the graph has one (the
Dutch system guarantees this by adding a dummy vertex for an odd number of players and by
its completion check).  Without a perfect matching the result has maximum cardinality but,
after a warm start, not necessarily maximum weight.

Edge weights are stored doubled and ``slack = dual[i] + dual[j] - 2*w`` (plus twice the dual
of every blossom containing both ends), so all arithmetic stays integral; exposed vertices
are kept at even duals so that the slack between two S-vertices is always even.
"""
from __future__ import annotations

from heapq import heappop, heappush

__all__ = ["Matcher"]


class Matcher:
    """Maximum-weight perfect matching on the vertex set ``0..n-1`` (see the module notes).

    ``set_weight(i, j, w)`` with ``w >= 0`` (``0`` removes the edge); ``solve()`` returns
    ``mate`` with ``mate[v]`` the partner of ``v`` or ``-1``.  ``isolate_pair(u, v)`` fixes a
    pair for good (used for finalised pairings).  Memory is O(n^2).
    """

    def __init__(self, n: int) -> None:
        self.n = n
        N = n
        self.wt = [0] * (N * N)  # twice the weight of edge k = i*N + j, i < j
        self.endpoint = [0] * (2 * N * N)
        for i in range(N):
            for j in range(i + 1, N):
                k = i * N + j
                self.endpoint[2 * k] = i
                self.endpoint[2 * k + 1] = j
        # neighbend[v]: remote endpoints of the edges at v
        self.neighbend = [[(2 * (v * N + u) + 1) if u > v else 2 * (u * N + v) for u in range(N) if u != v]
                          for v in range(N)]
        self.mate = [-1] * N  # remote endpoint of the matched edge
        self.label = [0] * (2 * N)
        self.labelend = [-1] * (2 * N)
        self.inblossom = list(range(N))
        self.blossomparent = [-1] * (2 * N)
        self.blossomchilds: list = [None] * (2 * N)
        self.blossombase = list(range(N)) + [-1] * N
        self.blossomendps: list = [None] * (2 * N)
        self.bestedge = [-1] * (2 * N)
        self.blossombestedges: list = [None] * (2 * N)
        self.unusedblossoms = list(range(N, 2 * N))
        self.dualvar = [0] * (2 * N)
        self.bleaves: list = [None] * (2 * N)
        self.allowedge = bytearray(N * N)
        self.dirty: set[int] = set()
        self.retired: set[int] = set()
        self._compacted_at = 0
        self.stages = 0

    # -- weights ---------------------------------------------------------------------------
    def set_weight(self, i: int, j: int, w: int) -> None:
        """Set the weight of edge ``{i, j}`` (``0`` = no edge).  Vertex ``i`` is the one whose
        dual is repaired at the next :meth:`solve` (repairing one end suffices)."""
        if i == j:
            raise ValueError("no loops")
        k = i * self.n + j if i < j else j * self.n + i
        w2 = 2 * w
        if self.wt[k] != w2:
            self.wt[k] = w2
            self.dirty.add(i)

    def isolate_pair(self, u: int, v: int) -> None:
        """Remove every edge at ``u`` and ``v`` except ``{u, v}`` itself (which must exist):
        the two will be matched together from now on."""
        n = self.n
        wt = self.wt
        for x in (u, v):
            for y in range(n):
                if y != u and y != v:
                    k = x * n + y if x < y else y * n + x
                    wt[k] = 0
            self.dirty.add(x)
        self.retired.add(u)
        self.retired.add(v)
        if len(self.retired) >= self._compacted_at + max(8, (n - self._compacted_at) // 4):
            self._compact()

    def _compact(self) -> None:
        """Drop the edges to isolated pairs from the neighbour lists (they are all 0)."""
        retired, endpoint = self.retired, self.endpoint
        for v in range(self.n):
            if v not in retired:
                self.neighbend[v] = [p for p in self.neighbend[v] if endpoint[p] not in retired]
        self._compacted_at = len(retired)

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
        for v in self._leaves(b):
            self.dualvar[v] += z
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
        self.blossombestedges[b] = None
        self.bestedge[b] = -1
        self.bleaves[b] = None
        self.unusedblossoms.append(b)

    def _make_trivial(self, v: int) -> None:
        while self.inblossom[v] != v:
            self._dissolve(self.inblossom[v])

    def _warm_start(self) -> None:
        """Restore a dual-feasible state after weight changes (see the module notes)."""
        n = self.n
        endpoint, mate, dualvar, wt = self.endpoint, self.mate, self.dualvar, self.wt
        Z = sorted(self.dirty)
        self.dirty = set()
        for z in Z:
            self._make_trivial(z)
        inblossom = self.inblossom
        neighbend = self.neighbend

        def need(v: int, skip: int) -> int | None:
            """Smallest dual of trivial vertex ``v`` covering its edges (but ``skip``)."""
            best = None
            for p in neighbend[v]:
                w = wt[p >> 1]
                if w:
                    y = endpoint[p]
                    if y != skip:
                        d = w - dualvar[y]
                        if best is None or d > best:
                            best = d
            return best

        done: set[int] = set()
        retired = self.retired
        for z in Z:
            if z in done:
                continue
            done.add(z)
            if z in retired and mate[z] != -1 and wt[mate[z] >> 1]:
                # an isolated pair: only its own edge is left, keep it tight
                m = endpoint[mate[z]]
                dualvar[z] = wt[mate[z] >> 1] - dualvar[m]
                done.add(m)
                continue
            if mate[z] != -1:
                m = endpoint[mate[z]]
                k = mate[z] >> 1
                if wt[k] and inblossom[m] == m:
                    # keep the pair (z, m) tight if both duals can cover their other edges
                    two_w = wt[k]
                    az, am = need(z, m), need(m, z)
                    dz = two_w - dualvar[m]  # leave m's dual alone if possible
                    if az is not None and dz < az:
                        dz = az  # else lower m's dual as little as possible
                    if am is not None and two_w - dz < am:
                        dz = None
                    if dz is not None:
                        dualvar[z] = dz
                        dualvar[m] = two_w - dz
                        done.add(m)
                        continue
                elif wt[k]:
                    az = need(z, m)
                    dz = wt[k] - dualvar[m]
                    if az is None or dz >= az:
                        dualvar[z] = dz
                        continue
                mate[m] = -1
                mate[z] = -1
            az = need(z, -1)
            if az is not None:
                dualvar[z] = az
        # release matched edges between top-level blossoms that are no longer tight
        for v in range(n):
            p = mate[v]
            if p == -1:
                continue
            u = endpoint[p]
            if u < v or self.inblossom[u] == self.inblossom[v]:
                continue
            k = p >> 1
            if wt[k] == 0 or self._slack(k) != 0:
                mate[u] = -1
                mate[v] = -1
        # exposed vertices become trivial roots with duals of one parity
        for v in range(n):
            if mate[v] == -1 and self.inblossom[v] != v:
                self._make_trivial(v)
        for v in range(n):
            if mate[v] == -1 and dualvar[v] & 1:
                dualvar[v] += 1

    # -- the algorithm -----------------------------------------------------------------------
    def solve(self) -> list[int]:
        """Return ``mate`` (partner or ``-1``): a maximum-weight perfect matching for the
        current weights when one exists (else a maximum-cardinality matching)."""
        if self.dirty:
            self._warm_start()
        n = self.n
        N2 = 2 * n
        wt = self.wt
        endpoint = self.endpoint
        neighbend = self.neighbend
        mate = self.mate
        label = self.label
        labelend = self.labelend
        inblossom = self.inblossom
        blossomparent = self.blossomparent
        blossomchilds = self.blossomchilds
        blossombase = self.blossombase
        blossomendps = self.blossomendps
        bestedge = self.bestedge
        blossombestedges = self.blossombestedges
        unusedblossoms = self.unusedblossoms
        dualvar = self.dualvar
        bleaves = self.bleaves

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
            bestedgeto: dict[int, int] = {}
            bestslackto: dict[int, int] = {}
            for bv in path:
                if blossombestedges[bv] is None:
                    for v in leaves(bv):
                        dv = dualvar[v]
                        for p in neighbend[v]:
                            kk = p >> 1
                            w2 = wt[kk]
                            if not w2:
                                continue
                            j = endpoint[p]
                            bj = inblossom[j]
                            if bj != b and label[bj] == 1:
                                sk = dv + dualvar[j] - w2
                                old = bestslackto.get(bj)
                                if old is None or sk < old:
                                    bestedgeto[bj] = kk
                                    bestslackto[bj] = sk
                    nblists = ()
                else:
                    nblists = (blossombestedges[bv],)
                for nblist in nblists:
                    for kk in nblist:
                        i, j = divmod(kk, n)
                        bj = inblossom[j]
                        if bj == b:
                            i, j = j, i
                            bj = inblossom[j]
                            if bj == b:
                                continue
                        if label[bj] == 1:
                            sk = dualvar[i] + dualvar[j] - wt[kk]
                            old = bestslackto.get(bj)
                            if old is None or sk < old:
                                bestedgeto[bj] = kk
                                bestslackto[bj] = sk
                blossombestedges[bv] = None
                bestedge[bv] = -1
            blossombestedges[b] = list(bestedgeto.values())
            bestedge[b] = -1
            for kk in blossombestedges[b]:
                if bestedge[b] == -1 or slack(kk) < slack(bestedge[b]):
                    bestedge[b] = kk

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
                    self.allowedge[blossomendps[b][j - endptrick] >> 1] = 1
                    j += jstep
                    p = blossomendps[b][j - endptrick] ^ endptrick
                    self.allowedge[p >> 1] = 1
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
            blossombestedges[b] = None
            bestedge[b] = -1
            bleaves[b] = None
            unusedblossoms.append(b)

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
            for v in range(n):
                if mate[v] == -1 and inblossom[v] == v:
                    dv = dualvar[v]
                    for p in neighbend[v]:
                        k = p >> 1
                        w8 = wt[k]
                        if w8:
                            u = endpoint[p]
                            if mate[u] == -1 and inblossom[u] == u and dv + dualvar[u] == w8:
                                mate[v] = p
                                mate[u] = p ^ 1
                                break
            label[:] = [0] * N2
            bestedge[:] = [-1] * N2
            blossombestedges[n:] = [None] * n
            allowedge = self.allowedge = bytearray(n * n)
            queue.clear()
            for v in range(n):
                if mate[v] == -1 and label[inblossom[v]] == 0:
                    assign_label(v, 1, -1)
            augmented = False
            while True:
                while queue and not augmented:
                    v = heappop(queue)
                    bv_ = inblossom[v]
                    dv = dualvar[v]
                    for p in neighbend[v]:
                        k = p >> 1
                        w8 = wt[k]
                        if not w8:
                            continue
                        w = endpoint[p]
                        bw = inblossom[w]
                        if bv_ == bw:
                            continue
                        kslack = 0
                        if not allowedge[k]:
                            kslack = dv + dualvar[w] - w8
                            if kslack <= 0:
                                allowedge[k] = 1
                        if allowedge[k]:
                            lw = label[bw]
                            if lw == 0:
                                assign_label(w, 2, p ^ 1)
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
                                labelend[w] = p ^ 1
                        elif label[bw] == 1:
                            bk = bestedge[bv_]
                            if bk == -1 or kslack < dualvar[bk // n] + dualvar[bk % n] - wt[bk]:
                                bestedge[bv_] = k
                        elif label[w] == 0:
                            bk = bestedge[w]
                            if bk == -1 or kslack < dualvar[bk // n] + dualvar[bk % n] - wt[bk]:
                                bestedge[w] = k
                if augmented:
                    break
                deltatype = -1
                delta = deltaedge = deltablossom = None
                for v in range(n):
                    if label[inblossom[v]] == 0 and bestedge[v] != -1:
                        d = slack(bestedge[v])
                        if deltatype == -1 or d < delta:
                            delta = d
                            deltatype = 2
                            deltaedge = bestedge[v]
                for b in range(N2):
                    if blossomparent[b] == -1 and label[b] == 1 and bestedge[b] != -1:
                        kslack = slack(bestedge[b])
                        if kslack & 1:
                            raise AssertionError("odd slack between S-blossoms")
                        d = kslack // 2
                        if deltatype == -1 or d < delta:
                            delta = d
                            deltatype = 3
                            deltaedge = bestedge[b]
                for b in range(n, N2):
                    if (blossombase[b] >= 0 and blossomparent[b] == -1 and label[b] == 2
                            and (deltatype == -1 or dualvar[b] < delta)):
                        delta = dualvar[b]
                        deltatype = 4
                        deltablossom = b
                if deltatype == -1:
                    break  # no augmenting path: maximum cardinality reached
                for v in range(n):
                    lb = label[inblossom[v]]
                    if lb == 1:
                        dualvar[v] -= delta
                    elif lb == 2:
                        dualvar[v] += delta
                for b in range(n, N2):
                    if blossombase[b] >= 0 and blossomparent[b] == -1:
                        if label[b] == 1:
                            dualvar[b] += delta
                        elif label[b] == 2:
                            dualvar[b] -= delta
                if deltatype == 2:
                    allowedge[deltaedge] = 1
                    i, j = deltaedge // n, deltaedge % n
                    if label[inblossom[i]] == 0:
                        i, j = j, i
                    heappush(queue, i)
                elif deltatype == 3:
                    allowedge[deltaedge] = 1
                    heappush(queue, deltaedge // n)
                else:
                    expand_blossom(deltablossom, False)
            if not augmented:
                break
            for b in range(n, N2):
                if blossomparent[b] == -1 and blossombase[b] >= 0 and label[b] == 1 and dualvar[b] == 0:
                    expand_blossom(b, True)
        return [endpoint[p] if p != -1 else -1 for p in mate]
