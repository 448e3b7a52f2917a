"""The weighted graph of the FIDE Dutch system (:mod:`.dutch`) on a warm-started matcher, with
its *background* edges checked against the dual solution instead of all given to the matcher.

Most of the n^2/2 edges never carry more than the completion and bye fields (C.4, C.5, C.9),
whose value is a sum of one term per player: a pair outside the brackets being decided is
worth ``sep[u] + sep[v] + const`` whoever they are.  These *background* edges are not all
given to the matcher: each player starts with a few of them (its nearest compatible players)
and after every solve the dual solution is checked against all the others; any edge it does
not cover is added and the matching solved again, so the result is a maximum-weight matching
of the complete graph (LP duality) while the matcher scans a sparse one.  The edges between the
players of the bracket being decided (and the next score group) are set explicitly.
"""
from __future__ import annotations

from operator import sub

from .matching import Matcher

__all__ = ["DutchGraph"]


class DutchGraph:
    """The weighted graph of the players to pair, on a warm-started :class:`Matcher`.

    With an odd number of players a dummy vertex joined to everybody by a constant weight
    makes the matching perfect; its partner is the unpaired player.  Finalised pairs keep
    only their own edge, which therefore stays in every later optimum.

    Background edges: every compatible pair (``compatible(u, v)``, C.1/C.3) not set explicitly
    weighs :meth:`bgw` ``= sep[u] + sep[v] + const`` (+1 for two ``top`` players).  The matcher
    starts with the ``K`` nearest compatible players of everybody; :meth:`compute` checks the
    dual solution against all the others after every solve and adds the ones it does not cover
    (:meth:`_violated`).  ``mark[k]`` (edge ``k = u*N + v``, ``u < v``): 1 set explicitly, 2 a
    background edge given to the matcher.  ``violations`` counts the background edges the check
    had to add.
    """

    K = 8  # background edges per player to start with

    def __init__(self, n: int, compatible) -> None:
        self.n = n
        self.odd = n & 1
        self.N = n + self.odd
        self.m = Matcher(n + self.odd)
        if self.odd:
            self.m.set_row(n, list(range(n)), [1] * n)
        self.active = [True] * n
        self.final: dict[int, int] = {}
        self.calls = 0
        self.compatible = compatible  # compatible(u, v) on vertex numbers
        self.sep = [0] * n
        self.const = 0
        self.top: list[int] | None = None
        self.mark = bytearray(self.N * self.N)  # 1 explicit, 2 active background
        self.bg: list[int] = []  # active background edges k
        self.violations = 0
        self._set_rbase()

    def bgw(self, u: int, v: int) -> int:
        """Background weight of the compatible pair ``{u, v}``."""
        w = self.sep[u] + self.sep[v] + self.const
        if self.top is not None:
            w += self.top[u] & self.top[v]
        return w

    def set_background(self, sep: list[int], const: int, top: list[int] | None = None) -> None:
        """Background weights ``sep[u] + sep[v] + const`` (plus 1 when ``top[u]`` and ``top[v]``
        are both 1) for every compatible pair not set explicitly."""
        self.sep = sep
        self.const = const
        self.top = top
        self._set_rbase()
        n, N, m, mark = self.n, self.N, self.m, self.mark
        compatible = self.compatible
        if not self.bg:
            # start with the K nearest compatible players of everybody (by rank order)
            for u in range(n):
                got = 0
                d = 1
                while got < self.K and d < n:
                    for v in (u - d, u + d):
                        if 0 <= v < n:
                            k = u * N + v if u < v else v * N + u
                            if mark[k] == 0 and compatible(u, v):
                                mark[k] = 2
                                self.bg.append(k)
                                got += 1
                            elif mark[k] == 2:
                                got += 1
                    d += 1
        bgw = self.bgw
        for k in self.bg:
            if mark[k] == 2:
                i, j = divmod(k, N)
                m.set_weight(i, j, bgw(i, j))

    def _set_rbase(self) -> None:
        """``rbase[u] = 2 sep[u] + const + top[u]`` for the active players, so that
        ``dual[u] - rbase[u]`` is the ``r[u]`` of :meth:`_violated`; a huge negative number for
        the finalised ones (whose ``r`` must never be negative)."""
        sep, c, top = self.sep, self.const, self.top
        self._huge = huge = 1 << (max(max(sep, default=0), c).bit_length() + 64)
        self.rbase = [(2 * sep[u] + c + (top[u] if top is not None else 0)) if self.active[u] else -huge
                      for u in range(self.n)]

    def set(self, u: int, v: int, w: int) -> None:
        """Set the weight of edge ``{u, v}``; ``u`` is the player whose edges change."""
        if self.active[u] and self.active[v]:
            self.mark[u * self.N + v if u < v else v * self.N + u] = 1
            self.m.set_weight(u, v, w)

    def set_row(self, u: int, vs: list[int], ws: list[int]) -> None:
        """:meth:`set` for the edges ``{u, vs[i]}``, weights ``ws[i]``."""
        active = self.active
        if not active[u]:
            return
        if not all(map(active.__getitem__, vs)):
            ws = [w for v, w in zip(vs, ws) if active[v]]
            vs = [v for v in vs if active[v]]
        self.m.set_row(u, vs, ws, self.mark)

    def finalize(self, u: int, v: int) -> None:
        if u == v:
            raise RuntimeError("Dutch pairing bug: finalising an unpaired player")
        if not self.m.weight(u, v):
            raise RuntimeError("Dutch pairing bug: finalising a pair without an edge")
        self.m.isolate_pair(u, v)
        self.active[u] = self.active[v] = False
        self.final[u] = v
        self.final[v] = u
        self.rbase[u] = self.rbase[v] = -self._huge

    def _violated(self) -> list[tuple[int, int]]:
        """The background edges not given to the matcher whose slack is negative under its dual
        solution (marked active; they must be given to it), found without looking at every
        pair: with ``r[u] = dual[u] - 2 sep[u] - const`` the slack of a background edge is
        ``r[u] + r[v]`` plus twice the duals of the blossoms holding both ends, so only players
        with ``r < 0`` can be on one, and only with partners of a small enough ``r``; inside a
        blossom the nested blossoms are walked down from the top."""
        m = self.m
        y = m.dualvar
        n = self.n
        # slack of background edge {u, v} (no blossom holding both) = r[u] + r[v] - 2 top[u] top[v]
        # >= r[u] + r[v] with r lowered by top: candidates from r, exact check in add()
        # r of the dummy and of finalised players is huge: never part of a background edge
        r = list(map(sub, y[:n], self.rbase))
        least = min(r)
        if least >= 0:
            return []  # no player with r < 0
        ib = m.inblossom
        bp = m.blossomparent
        N, mark, c, top = self.N, self.mark, self.const, self.top
        active = self.active
        r.extend([self._huge] * (N - n))
        neg = [u for u in range(n) if r[u] < 0]
        # only players with r < -least can be the partner of one of them: the groups (top-level
        # blossoms) of those, each sorted by r, in the order of their least r (ties: the order of
        # their first active player, as when every player was grouped)
        groups: dict[int, list[int]] = {}
        bound = -least
        for u in range(n):
            if r[u] < bound:
                g = groups.get(ib[u])
                if g is None:
                    groups[ib[u]] = [u]
                else:
                    g.append(u)
        key = r.__getitem__
        gmin = {}
        first = {}
        for t, g in groups.items():
            if len(g) > 1:
                g.sort(key=key)
            gmin[t] = r[g[0]]
            first[t] = t if t < N else min(u for u in m.bleaves[t] if u < n and active[u])
        gorder = sorted(groups, key=lambda t: (gmin[t], first[t]))
        compatible = self.compatible
        out = []

        def add(u: int, v: int, z: int = 0) -> None:
            """Activate {u, v} if it is a background edge with a negative slack (``z``: twice the
            duals of the blossoms holding both)."""
            k = u * N + v if u < v else v * N + u
            if mark[k] or not compatible(u, v):
                return
            if top is not None and r[u] + r[v] + z + top[u] + top[v] - 2 * (top[u] & top[v]) >= 0:
                return
            mark[k] = 2
            self.bg.append(k)
            out.append((u, v))

        # pairs in different top-level blossoms: slack r[u] + r[v]
        for u in neg:
            thr = -r[u]
            tu = ib[u]
            for t in gorder:
                if gmin[t] >= thr:
                    break
                if t == tu:
                    continue
                for v in groups[t]:
                    if r[v] >= thr:
                        break
                    add(u, v)
        # pairs inside one top-level blossom: slack r[u] + r[v] + 2 * (z of the blossoms
        # holding both); walk down the nested blossoms from the top
        childs = m.blossomchilds
        for t, g in groups.items():
            if len(g) < 2 or r[g[0]] + r[g[1]] + 2 * y[t] >= 0:
                continue
            minr: dict[int, int] = {}
            leaves: dict[int, list[int]] = {}
            order = []
            stack = [t]
            while stack:
                b = stack.pop()
                order.append(b)
                for ch in childs[b]:
                    if ch >= N:
                        stack.append(ch)
            for b in reversed(order):  # children first
                best = None
                ls: list[int] = []
                for ch in childs[b]:
                    if ch >= N:
                        mc = minr[ch]
                        ls.extend(leaves[ch])
                    else:
                        mc = r[ch]
                        ls.append(ch)
                    if best is None or mc < best:
                        best = mc
                minr[b] = best
                leaves[b] = ls
            stack2 = [(t, 2 * y[t])]
            while stack2:
                b, zb = stack2.pop()
                kids = childs[b]
                ms = sorted((minr[ch] if ch >= N else r[ch], i) for i, ch in enumerate(kids))
                if ms[0][0] + ms[1][0] + zb < 0:
                    for x in range(len(ms)):
                        mx, ix = ms[x]
                        if mx + ms[0][0] + zb >= 0:
                            break
                        cx = kids[ix]
                        lx = sorted(leaves[cx], key=key) if cx >= N else [cx]
                        for yy in range(x + 1, len(ms)):
                            my, iy = ms[yy]
                            if mx + my + zb >= 0:
                                break
                            cy = kids[iy]
                            ly = sorted(leaves[cy], key=key) if cy >= N else [cy]
                            for u in lx:
                                if r[u] + my + zb >= 0:
                                    break
                                for v in ly:
                                    if r[u] + r[v] + zb >= 0:
                                        break
                                    add(u, v, zb)
                for ch in kids:
                    if ch >= N:
                        zc = zb + 2 * y[ch]
                        if len(leaves[ch]) > 1 and minr[ch] * 2 + zc < 0:
                            stack2.append((ch, zc))
        return out

    def compute(self) -> list[int]:
        """``mate[v]``: partner of ``v``, or ``v`` itself when unpaired, in a maximum-weight
        matching of the whole graph: solved on the edges the matcher has, then checked against
        the background edges it has not (:meth:`_violated`) and solved again with the ones the
        dual solution does not cover, until none is left.  A matching that is not perfect is
        solved again with every background edge (max cardinality as before)."""
        self.calls += 1
        n = self.n
        while True:
            res = self.m.solve()
            bad = self._violated()
            if not bad and all(x >= 0 for x in res):
                break
            if not bad:
                # not perfect: give the matcher every background edge
                bad = []
                for u in range(n):
                    for v in range(u):
                        k = v * self.N + u
                        if not self.mark[k] and self.active[u] and self.active[v] and self.compatible(u, v):
                            self.mark[k] = 2
                            self.bg.append(k)
                            bad.append((u, v))
                if not bad:
                    break
            self.violations += len(bad)
            bgw = self.bgw
            for u, v in bad:
                self.m.set_weight(u, v, bgw(u, v))
        out = res[:n]
        for gone in (-1, n):  # unmatched, or matched to the dummy: unpaired
            v = -1
            while True:
                try:
                    v = out.index(gone, v + 1)
                except ValueError:
                    break
                out[v] = v
        return out
