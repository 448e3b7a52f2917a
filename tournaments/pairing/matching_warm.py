"""Warm starts of the blossom matcher (:class:`~.matching.Matcher`): restore a dual-feasible
state after some edge weights changed, keeping the matching, duals and blossoms of the last solve.

When the weights of some edges change (the *dirty* vertices are the first ends given to
:meth:`~.matching_graph.MatcherGraph.set_weight`), the blossoms around the dirty vertices are
dissolved (their dual moves to their vertices); a dirty vertex with a heavier edge raises its dual
to the smallest feasible value; a matched edge at a dirty vertex that is no longer tight is made
tight again by lowering the dual of one end by the slack when that end's other edges allow it (a
potential shift: after edges at one vertex got lighter by the same amount nothing else changes),
else the pair is released; exposed dirty vertices get the smallest feasible dual.  The search then
continues from that dual-feasible state.  Re-solving after a change touching a few vertices costs
a few stages instead of a full O(n^3) run.  When many vertices got heavier edges at once (a
whole score group's rows, at least ``_SPLIT_MIN``), their rises are computed from the old duals
and an edge between two of them is covered half by each end (one end taking the whole rise
would loosen every matched edge of the group); when the other ends of the edges left too heavy
are few (the players moved down into the group) they take the whole rise first; and a loose
matched edge may be made tight by lowering both ends in part.

Exposed vertices are left trivial and at even duals, so that the slack between two S-vertices
is always even.
"""
from __future__ import annotations

from .matching_graph import MatcherGraph, exposed_vertices

_SPLIT_MIN = 16  # raised vertices from which _warm_start splits the rises
_FAR_SHARE = 4  # ... and raises their few other ends first

__all__ = ["WarmStartMatcher"]


class WarmStartMatcher(MatcherGraph):
    """:class:`~.matching_graph.MatcherGraph` with the dual repair done before a solve."""

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

        arg1: dict[int, int] = {}  # vertex -> the neighbour that gave its need(v, -1)
        hints = self.hints  # vertex -> its two neighbours of largest wt - dual when last looked at

        def need(v: int, skip: int) -> int | None:
            """Smallest dual of trivial vertex ``v`` covering its edges (but ``skip``); with
            ``skip < 0`` the neighbour giving it is kept in ``arg1[v]``."""
            ks = nbk[v]
            if not ks:
                return None
            ends = nbv[v]
            ds = [wt[k] - dualvar[u] for k, u in zip(ks, ends)]
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
            # one pass over the rows: for each raised vertex the largest deficit of its edges to
            # raised vertices and to the others (from the old duals), the far ends' deficits;
            # after the far ends took their whole rise, no edge to them is left too heavy
            far: dict[int, int] = {}
            tops = []
            for z in R:
                yz = dualvar[z]
                er = en = 0
                for u, k in zip(nbv[z], nbk[z]):
                    w = wt[k]
                    if w:
                        e = w - yz - dualvar[u]
                        if e > 0:
                            if inR[u]:
                                if e > er:
                                    er = e
                            else:
                                if e > en:
                                    en = e
                                if e > far.get(u, 0):
                                    far[u] = e
                tops.append((er, en))
            moved = far and len(far) * _FAR_SHARE <= len(R)
            if moved:
                for u in far:
                    self._make_trivial(u)
                for u, e in far.items():
                    dualvar[u] += e + (e & 1)
                    touched.append(u)
            # the rise: half the deficit (rounded up to even) to a raised vertex, the whole
            # deficit (rounded up to even) to the others
            rise = []
            for er, en in tops:
                d = ((er + 3) >> 2) << 1 if er else 0
                if en and not moved:
                    en += en & 1
                    if en > d:
                        d = en
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
        exposed = exposed_vertices(mate)
        for v in exposed:
            if inblossom[v] != v:
                self._make_trivial(v)
        for v in exposed:
            if dualvar[v] & 1:
                dualvar[v] += 1
