"""Maximum-weight perfect matching with exact integer weights and warm starts.

Edmonds' primal-dual blossom algorithm in the O(n^3) form of Galil ("Efficient algorithms
for finding maximum matching in graphs", ACM Computing Surveys 18, 1986): alternating trees
grown from all exposed vertices, blossoms shrunk and expanded, dual variables adjusted by the
smallest of the four deltas.  Weights are arbitrary-size non-negative ``int`` (0 = no edge);
the Dutch system (C.04.3) encodes its criteria lexicographically in such weights.

The matcher is built in three layers: the graph and its state (:mod:`.matching_graph`: weights,
sparse neighbour lists, edge weights stored doubled so that all arithmetic stays integral), the
warm start (:mod:`.matching_warm`: after weight changes, a dual-feasible state from the last
solution) and, here, the search.  For the least-slack edge between two S-blossoms (delta 3)
every S-vertex keeps its own least-slack edge to another S-blossom, found when it is scanned; an
edge that later falls inside one blossom is replaced by a new look at that vertex's edges when
the deltas are computed (instead of merging per-blossom edge lists at every blossom made).

:class:`Matcher` keeps its matching, dual variables and blossoms between calls; the search
continues from the dual-feasible state left by the warm start; exposed vertices joined by a
tight edge are matched directly at the start of every stage.

Contract: the result is a maximum-weight *perfect* matching whenever the graph has one (the
Dutch system guarantees this by adding a dummy vertex for an odd number of players and by
its completion check).  Without a perfect matching the result has maximum cardinality but,
after a warm start, not necessarily maximum weight.  The dual solution (``dualvar``, with the
nesting ``blossomparent``) is left readable after :meth:`~Matcher.solve`: the Dutch system uses
it to check the edges it did not give the matcher.
"""
from __future__ import annotations

from heapq import heappop, heappush
from operator import eq

from .matching_graph import exposed_vertices
from .matching_warm import WarmStartMatcher

_INF = float("inf")

__all__ = ["Matcher"]


class Matcher(WarmStartMatcher):
    """Maximum-weight perfect matching on the vertex set ``0..n-1`` (see the module notes).

    ``set_weight(i, j, w)`` with ``w >= 0`` (``0`` removes the edge), ``set_row`` for many edges
    at one vertex; ``solve()`` returns ``mate`` with ``mate[v]`` the partner of ``v`` or ``-1``.
    ``isolate_pair(u, v)`` fixes a pair for good (used for finalised pairings).  Memory is
    O(n^2) (weights by edge number ``k = i*n + j``, ``i < j``); time per stage is O(n + edges).
    """

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

        def augment_blossom(b: int, v: int, up: list[int] | None = None) -> None:
            # up: the blossoms from v (included) up to b (excluded), found once for the whole
            # nesting (blossomparent does not change here); climbing again at every level
            # cost the square of the depth
            if up is None:
                up = []
                t = v
                while t != b:
                    up.append(t)
                    t = blossomparent[t]
            t = up.pop()
            if t >= n:
                augment_blossom(t, v, up)
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
            # every exposed vertex, in order: looked up once per stage (an O(n) pass)
            free = exposed_vertices(mate)
            if not free:
                break  # perfect: a stage would label nothing and find no delta
            # augmenting paths of length one: two exposed single vertices joined by a
            # tight edge (saves a whole stage each)
            exposed = [v for v in free if inblossom[v] == v]
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
            free = [v for v in free if mate[v] == -1]
            if not free:
                break  # the length-one augmentations made it perfect
            if any(map(self.label0.__getitem__, free)):
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
            for v in free:
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
        return [endpoint[p] for p in mate]  # (endpoint[-1] is -1)
