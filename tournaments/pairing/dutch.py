"""FIDE Dutch system (FIDE Handbook C.04.3, 2025 revision) by maximum-weight matching.

Sources: C.04.1 (basic rules: no rematch, one pairing-allocated bye, forfeits are not played
games), C.04.2 (general handling rules: board order), C.04.3 (Dutch system: definitions of
scores, colour preferences and floats; the pairing criteria [C1]-[C21]: absolute C1 no
rematch, C2 bye eligibility, C3 absolute colour preferences (relaxed for top scorers in the
last round), completion C4, quality C5 bye score, C6/C7 pairs and scores in the bracket, C8
next bracket, C9 unplayed games of the bye assignee, C10-C13 colour criteria, C14-C21 float
criteria; the transposition/exchange order of S1/S2; and the colour allocation rules E).

Behaviour reference: bbpPairings ``--dutch`` version 6.  This is an independent Python
implementation of the same method: every criterion is a bit field of one integer edge
weight, most important first, and the brackets are processed from the top score group down.
For each bracket a maximum-weight matching over *all* players still to be paired decides how
many and which players are paired in it (so the rest of the round stays completable); the
choices between equivalent candidates (which moved-down players, the S2 transpositions, the
S1/S2 exchanges) are then fixed one player at a time with small tie-breaking bonuses.  The
matching engine (:mod:`.matching`) is warm-started, so each of these steps costs little.

Most of the n^2/2 edges never carry more than the completion and bye fields (C.4, C.5, C.9),
whose value is a sum of one term per player: a pair outside the brackets being decided is
worth ``sep[u] + sep[v] + const`` whoever they are.  These *background* edges are not all
given to the matcher: each player starts with a few of them (its nearest compatible players)
and after every solve the dual solution is checked against all the others; any edge it does
not cover is added and the matching solved again, so the result is a maximum-weight matching
of the complete graph (LP duality) while the matcher scans a sparse one.  The edges between the
players of the bracket being decided (and the next score group) are set explicitly.  Edge
weights depend on the two players' types only (score, bye eligibility, games played, colour
and float data) and are computed once per pair of types.

Conventions: scores are handled internally in tenths of a point; the score that places a
player in a score group is the *accelerated* score (points plus the virtual points of the round
in question, FIDE C.04.5.1, TRF ``XXA``), in the current round as in the float history of past
rounds (bbpPairings v6 ``scoreWithAcceleration``); the board order of the result uses the real
points.  ``rank`` is the 0-based position of a player by pairing id among the players taking
part in the tournament (A.2).
"""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import compress
from operator import sub

from .base import Pairing, PairingError, PairingPlayer, PointSystem, RoundRecord
from .matching import Matcher

__all__ = ["pair_dutch", "board_order"]

_DOWN, _UP, _NONE = 0, 1, 2


def _other(colour: str | None) -> str | None:
    return {"w": "b", "b": "w"}.get(colour)  # type: ignore[arg-type]


@dataclass(slots=True)
class _P:
    """Per-player data derived from the history (C.04.3 A.6 colour preferences etc.)."""

    pid: int
    rank: int
    score: int  # tenths of a point, accelerated (virtual points of this round included)
    opponents: set[int] = field(default_factory=set)
    colours: list[str] = field(default_factory=list)  # colours of played games, in order
    imbalance: int = 0
    pref: str | None = None
    repeated: str | None = None  # colour played in the last two played games (if same)
    strong: bool = False
    played_games: int = 0
    bye_ok: bool = True
    float1: int = _NONE
    float2: int = _NONE
    abs_imbalance: bool = False  # colour difference beyond +-1
    abs_pref: bool = False  # absolute colour preference (A.6 a)
    not_bye_candidate: int = 0  # 1 when the player cannot take the bye at the bye score
    tid: int = 0  # type number (players of one type have the same edge weights)


def _tenths(x: float) -> int:
    """Points as an integer number of tenths (bbpPairings v6 keeps scores in tenths too)."""
    h = round(x * 10)
    if abs(h - x * 10) > 1e-6:
        raise PairingError(f"score {x} is not a multiple of 0.1")
    return h


def _colour_data(p: _P) -> None:
    """C.04.3 A.6: colour difference, absolute / strong / mild preference."""
    white = black = 0
    consecutive = 0
    last: str | None = None
    for c in p.colours:
        if c == "w":
            white += 1
        else:
            black += 1
        consecutive = consecutive + 1 if (consecutive and c == last) else 1
        last = c
    p.played_games = len(p.colours)
    lower = "b" if white > black else "w"
    p.imbalance = abs(white - black)
    if p.imbalance > 1:
        p.pref = lower
    elif consecutive > 1:
        p.pref = _other(last)
    elif p.imbalance > 0:
        p.pref = lower
    elif consecutive:
        p.pref = _other(last)
    else:
        p.pref = None
    p.repeated = last if consecutive > 1 else None
    p.abs_imbalance = p.imbalance > 1
    p.abs_pref = p.imbalance > 1 or p.repeated is not None
    p.strong = (not p.abs_pref) and p.imbalance > 0


def _prefs_compatible(a: str | None, b: str | None) -> bool:
    return a != b or a is None or b is None


def _first_colour_difference(a: _P, b: _P) -> tuple[str | None, str | None]:
    """Colours of a and b in the latest round (counting back over each one's played games)
    in which they differed (C.04.3 E.3)."""
    i, j = len(a.colours) - 1, len(b.colours) - 1
    while i >= 0 and j >= 0 and a.colours[i] == b.colours[j]:
        i -= 1
        j -= 1
    return (a.colours[i] if i >= 0 else None, b.colours[j] if j >= 0 else None)


def _neutral_colour(p: _P, o: _P) -> str | None:
    """Colour for ``p`` against ``o`` by C.04.3 E.1-E.4, ``None`` if undecided there."""
    if _prefs_compatible(p.pref, o.pref):
        if p.pref is not None:
            return p.pref
        if o.pref is not None:
            return _other(o.pref)
        return None
    if p.abs_pref and (p.imbalance > o.imbalance or not o.abs_pref):
        return p.pref
    if o.abs_pref and (o.imbalance > p.imbalance or not p.abs_pref):
        return _other(o.pref)
    if p.strong and not o.strong:
        return p.pref
    if o.strong and not p.strong:
        return _other(o.pref)
    pc, oc = _first_colour_difference(p, o)
    if pc is not None and oc is not None:
        return oc
    return None


def _ranks_higher(a: _P, b: _P) -> bool:
    """True if ``a`` is placed before ``b`` (higher score, then smaller pairing number; A.2)."""
    return (a.score, -a.rank) > (b.score, -b.rank)


def _choose_colour(p: _P, o: _P, first: str) -> str:
    """Colour of ``p`` against ``o`` (C.04.3 E.1-E.5)."""
    c = _neutral_colour(p, o)
    if c is not None:
        return c
    if p.pref is None:
        # E.5: the higher ranked player gets the colour determined by its rank parity.
        if _ranks_higher(o, p):
            return first if o.rank & 1 else _other(first)  # type: ignore[return-value]
        return _other(first) if p.rank & 1 else first  # type: ignore[return-value]
    # E.4: the higher ranked player gets his preference.
    if _ranks_higher(o, p):
        return _other(o.pref)  # type: ignore[return-value]
    return p.pref


def board_order(pairs: list[Pairing], points: dict[int, float]) -> list[Pairing]:
    """Sort boards for publication (C.04.2 D.9 / bbpPairings order): the bye last; then by the
    score of the higher player of the board, then the score of the lower player, both
    descending; then by the pairing id of the higher player."""

    def key(pr: Pairing) -> tuple:
        if pr.black is None:
            return (1, -points[pr.white], 0.0, pr.white)
        a, b = pr.white, pr.black
        hi, lo = (a, b) if (points[a], -a) > (points[b], -b) else (b, a)
        return (0, -points[hi], -points[lo], hi)

    return sorted(pairs, key=key)


class _Graph:
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
        neg = list(compress(range(n), map((0).__gt__, r)))
        # only players with r < -least can be the partner of one of them: the groups (top-level
        # blossoms) of those, each sorted by r, in the order of their least r (ties: the order of
        # their first active player, as when every player was grouped)
        groups: dict[int, list[int]] = {}
        for u in compress(range(n), map((-least).__gt__, r)):
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


def _build(players: list[PairingPlayer], round_no: int, ps: PointSystem
           ) -> tuple[list[_P], dict[int, PairingPlayer]]:
    by_id: dict[int, PairingPlayer] = {}
    for pl in players:
        if pl.id in by_id:
            raise PairingError(f"pairing id {pl.id} appears twice")
        if pl.id < 1:
            raise PairingError(f"pairing id {pl.id} must be positive")
        by_id[pl.id] = pl
    r = round_no - 1
    for pl in players:
        if len(pl.history) > r:
            raise PairingError(
                f"player {pl.id} has {len(pl.history)} rounds of history but round {round_no} is to be paired")
        for i, rec in enumerate(pl.history, 1):
            if rec.opponent is not None and rec.opponent not in by_id:
                raise PairingError(f"player {pl.id}, round {i}: unknown opponent {rec.opponent}")
            if rec.opponent == pl.id:
                raise PairingError(f"player {pl.id}, round {i}: paired against himself")
            if rec.code not in ("1", "0", "=", "+", "-", "W", "D", "L", "H", "F", "U", "Z", ""):
                raise PairingError(f"player {pl.id}, round {i}: unknown result code {rec.code!r}")

    def hist(pl: PairingPlayer) -> tuple[RoundRecord, ...]:
        h = pl.history
        if len(h) < r:
            h = h + (RoundRecord(None, None, ""),) * (r - len(h))
        return h

    hists = {pid: hist(pl) for pid, pl in by_id.items()}

    def participated(pl: PairingPlayer) -> bool:
        return any(rec.opponent is not None or rec.code in ("U", "+") for rec in pl.history)

    valid = sorted(pid for pid, pl in by_id.items() if pl.available or participated(pl))
    rank = {pid: i for i, pid in enumerate(valid)}

    def acc(pid: int, index: int) -> int:
        """Virtual points (tenths) of player ``pid`` in round ``index + 1``."""
        a = by_id[pid].accelerations
        return _tenths(a[index]) if index < len(a) else 0

    def score_back(pid: int, k: int) -> int:
        """Accelerated score (tenths) before round r+1-k (bbpPairings ``scoreWithAcceleration``):
        the points less those of the last ``k`` rounds, plus the virtual points of that round."""
        h = hists[pid]
        score = _tenths(by_id[pid].points)
        if k:
            score -= sum(_tenths(ps.points(rec)) for rec in h[r - k:])
        return score + acc(pid, r - k)

    loss = _tenths(ps.loss)
    win = _tenths(ps.win)

    def flt(pid: int, k: int) -> int:
        rec = hists[pid][r - k]
        if not rec.played:
            return _DOWN if _tenths(ps.points(rec)) > loss else _NONE
        a, b = score_back(pid, k), score_back(rec.opponent, k)  # type: ignore[arg-type]
        return _DOWN if a > b else _UP if a < b else _NONE

    out: list[_P] = []
    for pl in players:
        if not pl.available:
            continue
        p = _P(pid=pl.id, rank=rank[pl.id], score=score_back(pl.id, 0))
        for rec in hists[pl.id]:
            if rec.played:
                p.opponents.add(rec.opponent)  # type: ignore[arg-type]
                p.colours.append(rec.colour)  # type: ignore[arg-type]
            elif _tenths(ps.points(rec)) >= win or (rec.opponent is None and rec.code in ("U", "+")):
                # C.04.1 f / C.04.3 C.2: a player who already received a pairing-allocated
                # bye, or scored the points of a win without playing (forfeit win, full-point
                # bye), gets no pairing-allocated bye (bbpPairings v6 ``eligibleForBye``).
                p.bye_ok = False
        _colour_data(p)
        if r >= 1:
            p.float1 = flt(pl.id, 1)
        if r >= 2:
            p.float2 = flt(pl.id, 2)
        out.append(p)
    # Played games are mutual: make the "already met" relation symmetric.
    idset = {p.pid: p for p in out}
    for p in out:
        for o in list(p.opponents):
            if o in idset:
                idset[o].opponents.add(p.pid)
    out.sort(key=lambda p: (-p.score, p.rank))
    return out, by_id


def pair_dutch(players: list[PairingPlayer] | tuple[PairingPlayer, ...], *, round_no: int,
               total_rounds: int, first_colour: str = "w",
               forbidden_pairs: Iterable[tuple[int, int]] = (),
               pab_points: float | None = None,
               point_system: PointSystem | None = None) -> list[Pairing]:
    """Pair round ``round_no`` by the FIDE Dutch system (C.04.3, 2025 revision).

    ``players``: every player of the tournament (unavailable ones with ``available=False``;
    their histories are needed for the float history of their past opponents).
    ``total_rounds``: the planned number of rounds (C.04.3 C.3 relaxes the absolute colour
    criterion for top scorers in the last round).  ``first_colour``: colour of the top seed
    in round 1 (``"w"`` or ``"b"``), used by E.5.  ``forbidden_pairs``: pairs of pairing ids that
    must not meet in this round (TRF ``XXP`` / TRF-2026 ``260``; treated like C.1, an absolute
    criterion, as bbpPairings v6 does).

    Scores: ``PairingPlayer.points`` is the real score before the round; the score used for
    pairing adds ``PairingPlayer.accelerations[round_no - 1]`` (virtual points, FIDE C.04.5.1,
    TRF ``XXA``/``250``), and the scores of past rounds that the float history (A.4) compares
    are rebuilt from the history with the virtual points of those rounds (bbpPairings v6
    ``scoreWithAcceleration``).  ``point_system`` (default 1-½-0) values the history records
    when scores are rebuilt, and decides "scored the points of a win without playing" (no
    pairing-allocated bye, C.2) and the downfloat of an unplayed round that scored more than a
    loss; ``pab_points`` (default ``point_system.pab``, i.e. the value of a win) is the value of
    a pairing-allocated bye ``U`` (e.g. 0.5 from ``BBU 0.5``).  The top-scorer threshold of C.3
    is half the maximum of the win and draw values times the rounds played (bbpPairings v6).
    Scores, virtual points and point values must be multiples of 0.1.

    Returns the boards in publication order (see :func:`board_order`); a
    ``Pairing(white=id, black=None)`` is the pairing-allocated bye (C.04.1 c, C.04.3 C.2).
    Raises :class:`PairingError` when the input is inconsistent or no pairing satisfies the
    absolute criteria C.1-C.3 (no rematch of a played game, at most one bye to an eligible
    player, no two players with the same absolute colour preference).  A ``RuntimeError``
    means a bug in this module, never bad input.
    """
    if first_colour not in ("w", "b"):
        raise PairingError(f"first_colour must be 'w' or 'b', not {first_colour!r}")
    if round_no < 1:
        raise PairingError(f"round_no must be >= 1, not {round_no}")
    if total_rounds < round_no:
        raise PairingError(f"round {round_no} cannot be paired in a {total_rounds}-round tournament")
    ps = point_system if point_system is not None else PointSystem()
    if pab_points is not None:
        ps = dataclasses.replace(ps, pab=float(pab_points))
    S, by_id = _build(list(players), round_no, ps)
    played_rounds = round_no - 1
    n = len(S)
    if n == 0:
        return []
    points = {pid: pl.points for pid, pl in by_id.items()}
    if n == 1:
        if not S[0].bye_ok:
            raise PairingError(f"player {S[0].pid} is the only one to pair and may not get a bye (C.04.3 C.2)")
        return [Pairing(S[0].pid, None)]

    last_round = played_rounds >= total_rounds - 1
    # tenths: more than 50 % of the maximum score (C.04.3 C.3; bbpPairings v6 compares the
    # accelerated score with rounds played * max(win, draw) / 2, rounded down).
    top_threshold = (played_rounds * max(_tenths(ps.win), _tenths(ps.draw))) >> 1

    forbidden = {frozenset(pair) for pair in forbidden_pairs}
    if any(len(pair) != 2 for pair in forbidden):
        raise PairingError("a forbidden pair must name two different players")
    no_pairing = "no pairing satisfies the absolute criteria (C.04.3 C.1-C.3)"
    if forbidden:
        no_pairing += f" with the {len(forbidden)} forbidden pair(s)"

    forbidden_ids = {(min(pair), max(pair)) for pair in forbidden}

    def compatible(a: _P, b: _P) -> bool:
        """Absolute criteria C.1 (no rematch, no forbidden pair) and C.3 (absolute colour preferences)."""
        if b.pid in a.opponents:
            return False
        if forbidden_ids and ((a.pid, b.pid) if a.pid < b.pid else (b.pid, a.pid)) in forbidden_ids:
            return False
        if a.abs_pref and b.abs_pref and a.pref == b.pref:
            return last_round and (a.score > top_threshold or b.score > top_threshold)
        return True

    # Score groups and bit widths of the weight fields.
    shift: dict[int, int] = {}
    total_shift = 0
    max_group = 0
    i = n - 1
    while i >= 0:
        j = i
        while j > 0 and S[j - 1].score == S[i].score:
            j -= 1
        size = i - j + 1
        shift[S[i].score] = total_shift
        total_shift += size.bit_length()
        max_group = max(max_group, size)
        i = j - 1
    B = max_group.bit_length()
    SG = total_shift
    top_score = S[0].score

    state = {"bye_score": 0, "single": False, "ranks": {}}

    def set_bye_score(score: int) -> None:
        """C.5: only eligible players at or below the bye score are bye candidates."""
        state["bye_score"] = score
        for p in S:
            p.not_bye_candidate = 0 if (p.bye_ok and p.score <= score) else 1
        memo.clear()

    memo: dict[int, int] = {}
    set_bye_score(0)

    # Bit fields of an edge weight, most significant first (C.04.3 C.4-C.21 in order),
    # then room for the ordering bonuses of B.2-B.8.
    ks = (1, 2) if played_rounds > 1 else (1,) if played_rounds else ()
    layout = [("cur_pairs", B), ("cur_scores", SG), ("next_pairs", B), ("next_scores", SG),
              ("bye_unplayed", 2 * B), ("col1", B), ("col2", B), ("col3", B), ("col4", B)]
    for k in ks:
        layout += [(f"down{k}", B), (f"up{k}", B)]
    for k in ks:
        layout += [(f"sdown{k}", SG), (f"sup{k}", SG)]
    layout.append(("order", 3 * B + 1))
    pos: dict[str, int] = {}
    at = 0
    for name, width in reversed(layout):
        pos[name] = at
        at += width
    P_TOP = at
    P_CUR, P_CURS, P_NEXT, P_NEXTS = pos["cur_pairs"], pos["cur_scores"], pos["next_pairs"], pos["next_scores"]
    P_BYE = pos["bye_unplayed"]
    P_C1, P_C2, P_C3, P_C4 = pos["col1"], pos["col2"], pos["col3"], pos["col4"]
    P_FL = [(k, pos[f"down{k}"], pos[f"up{k}"], pos[f"sdown{k}"], pos[f"sup{k}"]) for k in ks]

    # The weight of a compatible pair depends on the two players' types only (score, bye
    # eligibility, games played, colour and float data): computed once per pair of types.
    ntypes = [1]

    def assign_types() -> None:
        """Type numbers for the memo (again after every change of the bye candidates)."""
        types: dict[tuple, int] = {}
        for p in S:
            key = (p.not_bye_candidate, p.score, p.played_games, p.pref, p.abs_imbalance, p.imbalance,
                   p.repeated, p.abs_pref, p.strong, p.float1, p.float2)
            p.tid = types.setdefault(key, len(types))
        ntypes[0] = len(types)
        memo.clear()

    def edge_weight(h: _P, lo: _P, in_cur: bool, in_next: bool) -> int:
        """Edge weight encoding C.04.3 C.4-C.21 for ``h`` (higher) v ``lo`` (lower)."""
        if not compatible(h, lo):
            return 0
        return compatible_weight(h, lo, in_cur, in_next)

    def compatible_weight(h: _P, lo: _P, in_cur: bool, in_next: bool) -> int:
        """:func:`edge_weight` of two players known to be compatible (memo by types)."""
        key = ((h.tid * ntypes[0] + lo.tid) << 2) + (in_cur << 1) + in_next
        w = memo.get(key)
        if w is None:
            w = memo[key] = type_weight(h, lo, in_cur, in_next)
        return w

    def type_weight(h: _P, lo: _P, in_cur: bool, in_next: bool) -> int:
        """:func:`edge_weight` of two compatible players."""
        # C.4 completion, C.5 bye
        r = (1 + h.not_bye_candidate + lo.not_bye_candidate) << P_TOP
        hs, ls = h.score, lo.score
        if in_cur:
            r += (1 << P_CUR) + (1 << (P_CURS + shift[hs]))  # C.6, C.7
        elif in_next:
            r += (1 << P_NEXT) + (1 << (P_NEXTS + shift[hs]))  # C.8
        if state["single"]:  # C.9: unplayed games of the bye assignee
            bs = state["bye_score"]
            if hs == bs:
                r += state["ranks"][h.played_games] << P_BYE
            if ls == bs:
                r += state["ranks"][lo.played_games] << P_BYE
        if not in_cur:
            return r
        # C.10-C.13 colour criteria (p = lower player, o = higher)
        p, o = lo, h
        same = p.pref == o.pref
        if not (p.abs_imbalance and o.abs_imbalance and same):
            r += 1 << P_C1
        if p.imbalance == o.imbalance:
            cond = p.repeated is None or p.repeated != o.repeated
        else:
            cond = (o if p.imbalance > o.imbalance else p).repeated != _other(p.pref)
        if not p.abs_pref or not o.abs_pref or not same or cond:
            r += 1 << P_C2
        if _prefs_compatible(p.pref, o.pref):
            r += 1 << P_C3
        if ((not p.strong and not p.abs_pref) or (not o.strong and not o.abs_pref)
                or (p.abs_pref and o.abs_pref) or not same):
            r += 1 << P_C4
        # C.14-C.21 float criteria
        for k, p_down, p_up, p_sdown, p_sup in P_FL:
            fl = lo.float1 if k == 1 else lo.float2
            fh = h.float1 if k == 1 else h.float2
            c = (fl == _DOWN) + (hs <= ls and fh == _DOWN)
            if c:
                r += c << p_down
            if not (hs > ls and fl == _UP):
                r += (1 << p_up) + (1 << (p_sup + shift[hs]))
            if fl == _DOWN:
                r += 1 << (p_sdown + shift[ls])
            if fh == _DOWN:
                r += 1 << (p_sdown + shift[hs])
        return r

    assign_types()
    G = _Graph(n, lambda u, v: compatible(S[u], S[v]))
    odd = n & 1
    # Completion (C.4) and bye (C.5) check on the whole round.
    if odd:
        # ((1 + not bye_ok (both)) << SG | shift (both)) << B | 1 when both are top scorers
        sep = [((not p.bye_ok) << (SG + B)) + (shift[p.score] << B) for p in S]
        top = [int(p.score >= top_score) for p in S]
        if all(top):
            G.set_background(sep, (1 << (SG + B)) + 1)
        else:
            G.set_background(sep, 1 << (SG + B), top)
    else:
        G.set_background([p.not_bye_candidate << P_TOP for p in S], 1 << P_TOP)
    mate = G.compute()
    unmatched = [v for v in range(n) if mate[v] == v]
    if len(unmatched) > 1 or (unmatched and not S[unmatched[0]].bye_ok):
        raise PairingError(no_pairing)
    if odd:
        bye_score = S[unmatched[0]].score
        set_bye_score(bye_score)
        single = False
        if bye_score >= top_score:
            single = True
            for v in range(n):
                if S[v].score < top_score:
                    break
                if S[mate[v]].score < top_score:
                    single = False
                    break
        state["single"] = single
        counts = sorted((p.played_games for p in S if p.score == bye_score), reverse=True)
        ranks: dict[int, int] = {}
        for k, c in enumerate(counts):
            ranks[c] = k
        state["ranks"] = ranks
        assign_types()
        sep = []
        for p in S:
            x = p.not_bye_candidate << P_TOP
            if single and p.score == bye_score:
                x += ranks[p.played_games] << P_BYE
            sep.append(x)
        G.set_background(sep, 1 << P_TOP)

    matched = [False] * n
    # current bracket: pb = moved-down players, residents, then the next score group
    it = 0
    pb: list[int] = []
    while it < n and S[it].score >= top_score:
        pb.append(it)
        it += 1
    sgb = 0  # number of moved-down players in pb
    sgbv = 0  # vertex of the first resident
    guard = 0
    while len(pb) > 1 or it < n:
        guard += 1
        if guard > 4 * n + 10:
            raise RuntimeError("Dutch pairing bug: bracket processing does not progress")
        nsgb = len(pb)
        nsgbv = sgbv + (nsgb - sgb)
        sg_it = it
        while it < n and S[it].score >= S[sg_it].score:
            pb.append(it)
            it += 1
        # base weights: base[li][si] for li >= sgb
        base: dict[int, list[int]] = {}
        pbp = [S[v] for v in pb]
        # A row is the weight of each type against the lower player's (one per type in pb),
        # then 0 for the pairs that are not compatible: past opponents and, between two
        # absolute preferences for one colour, the pairs compatible() refuses.
        tids = [p.tid for p in pbp]
        rep_of: dict[int, _P] = {}
        for p in pbp:
            rep_of.setdefault(p.tid, p)
        at_of = {p.pid: i for i, p in enumerate(pbp)}
        abs_at = {"w": [], "b": []}
        for i, p in enumerate(pbp):
            if p.abs_pref:
                abs_at[p.pref].append(i)  # type: ignore[index]
        type_rows: dict[tuple[int, bool], dict[int, int]] = {}
        for li in range(sgb, len(pb)):
            lp = pbp[li]
            in_cur = li < nsgb
            if forbidden_ids:
                row = [edge_weight(hp, lp, in_cur, not in_cur) for hp in pbp[:li]]
            else:
                trow = type_rows.get((lp.tid, in_cur))
                if trow is None:
                    trow = type_rows[lp.tid, in_cur] = {
                        t: compatible_weight(h, lp, in_cur, not in_cur) for t, h in rep_of.items()}
                row = list(map(trow.__getitem__, tids[:li]))
                for o in lp.opponents:
                    i = at_of.get(o, li)
                    if i < li:
                        row[i] = 0
                if lp.abs_pref:
                    for i in abs_at[lp.pref]:  # type: ignore[index]
                        if i >= li:
                            break
                        if not compatible(pbp[i], lp):
                            row[i] = 0
            G.set_row(pb[li], pb[:li], row)  # every player of pb is still unpaired
            base[li] = row

        def ewc(si: int, li: int, sri: int, rp: int) -> int:
            w = base[li][si]
            if w:
                add = 1 if sri < rp else 0  # minimise the number of exchanges (B.5)
                add <<= 2 * B
                add -= sri  # minimise the difference of the exchanged BSNs (B.6)
                add <<= 1
                w += add
            return w

        mate = G.compute()

        # Choose the moved-down players to pair in this bracket (B.2, C.7 ordering).
        mds_score = None
        rem_md = 0
        rem_matched = 0
        for pi in range(sgb):
            if pi == 0 or S[pb[pi]].score < mds_score:
                mds_score = S[pb[pi]].score
                rem_md = 0
                rem_matched = 0
                j = pi
                while j < len(pb) and S[pb[j]].score >= mds_score:
                    rem_md += 1
                    if sgbv <= mate[pb[j]] < nsgbv:
                        rem_matched += 1
                    j += 1
            if not rem_matched:
                continue
            pv = pb[pi]
            if rem_md <= rem_matched:
                matched[pv] = True
                continue
            rem_md -= 1
            if not (sgbv <= mate[pv] < nsgbv):
                vs, ws = [], []
                for oi in range(sgb, nsgb):
                    w = base[oi][pi]
                    if w:
                        vs.append(pb[oi])
                        ws.append(w | 1)
                G.set_row(pv, vs, ws)
                mate = G.compute()
            if sgbv <= mate[pv] < nsgbv:
                matched[pv] = True
                rem_matched -= 1
                vs, ws = [], []
                for oi in range(sgb, nsgb):
                    w = base[oi][pi]
                    if w:
                        vs.append(pb[oi])
                        ws.append((w | (nsgb - sgb)) + 1)
                G.set_row(pv, vs, ws)

        # Choose the opponents of the moved-down players (S2 order, B.3).
        for pi in range(sgb):
            pv = pb[pi]
            if not matched[pv]:
                continue
            add = len(pb)
            vs, ws = [], []
            for oi in range(nsgb - 1, sgb - 1, -1):
                ov = pb[oi]
                if matched[ov]:
                    continue
                w = base[oi][pi]
                if w:
                    vs.append(ov)
                    ws.append(w + add)
                    add += 1
            G.set_row(pv, vs, ws)
            mate = G.compute()
            mv = mate[pv]
            matched[mv] = True
            G.finalize(pv, mv)

        # The remainder (homogeneous part).
        remainder: list[int] = []
        rpairs = 0
        for pi in range(sgb, nsgb):
            pv = pb[pi]
            if mate[pv] < sgbv:
                continue
            remainder.append(pi)
            if mate[pv] < pv:
                rpairs += 1
        for ri, pi in enumerate(remainder):
            below = remainder[ri + 1:]
            G.set_row(pb[pi], [pb[oi] for oi in below], [ewc(pi, oi, ri, rpairs) for oi in below])
        mate = G.compute()

        exchange_count = 0
        for pi in remainder[:rpairs]:
            pv = pb[pi]
            exchange_count += mate[pv] <= pv or mate[pv] >= nsgbv

        # S1 players (from the bottom of S1) to be exchanged where possible (B.6).
        exr = exchange_count
        pri = rpairs
        k = rpairs
        while k > 0 and exr:
            start = k
            pri -= 1
            k -= 1
            pi = remainder[k]
            pv = pb[pi]
            if pv < mate[pv] < nsgbv:
                vs, ws = [], []
                for q in range(start, len(remainder)):
                    w = ewc(pi, remainder[q], pri, rpairs)
                    if w:
                        vs.append(pb[remainder[q]])
                        ws.append(w - 1)
                G.set_row(pv, vs, ws)
                mate = G.compute()
            exchange = mate[pv] <= pv or mate[pv] >= nsgbv
            exr -= exchange
            vs, ws = [], []
            for q in range(k + 1, len(remainder)):
                if exchange:
                    base[remainder[q]][pi] = 0
                vs.append(pb[remainder[q]])
                ws.append(ewc(pi, remainder[q], pri, rpairs))
            G.set_row(pv, vs, ws)

        # S2 players (from the top of S2) to be exchanged where possible (B.6).
        exr = exchange_count
        ri = rpairs
        for k in range(rpairs, len(remainder)):
            if not exr > 1:
                break
            pi = remainder[k]
            pv = pb[pi]
            already = pv < mate[pv] < nsgbv
            if not already:
                vs, ws = [], []
                for q in range(k + 1, len(remainder)):
                    w = ewc(pi, remainder[q], ri, rpairs)
                    if w:
                        vs.append(pb[remainder[q]])
                        ws.append(w + 1)
                G.set_row(pv, vs, ws)
                mate = G.compute()
            if pv < mate[pv] < nsgbv:
                exr -= 1
                vs = []
                for q in range(k):
                    base[pi][remainder[q]] = 0
                    vs.append(pb[remainder[q]])
                for oi in range(nsgb, len(pb)):
                    base[oi][pi] = 0
                    vs.append(pb[oi])
                G.set_row(pv, vs, [0] * len(vs))
            if not already:
                below = remainder[k + 1:]
                G.set_row(pv, [pb[oi] for oi in below], [ewc(pi, oi, ri, rpairs) for oi in below])
            ri += 1

        # Fix the exchanges: only S1 (higher) v S2 (lower) pairs remain possible.
        for k, pi in enumerate(remainder):
            pv = pb[pi]
            s1 = pv < mate[pv] < nsgbv
            vs, ws = [], []
            for q in range(k + 1, len(remainder)):
                oi = remainder[q]
                ov = pb[oi]
                if not s1 or (ov < mate[ov] < nsgbv):
                    base[oi][pi] = 0
                vs.append(ov)
                ws.append(base[oi][pi])
            G.set_row(pv, vs, ws)

        # Pair S1 in order with the first possible S2 player (transpositions, B.3/B.4).
        for pi in remainder:
            pv = pb[pi]
            if pv < mate[pv] < nsgbv:
                add = 0
                vs, ws = [], []
                for oi in reversed(remainder):
                    ov = pb[oi]
                    if oi <= pi or matched[ov]:
                        continue
                    w = base[oi][pi]
                    if w:
                        vs.append(ov)
                        ws.append(w + add)
                    add += 1
                G.set_row(pv, vs, ws)
                mate = G.compute()
                mv = mate[pv]
                matched[pv] = True
                matched[mv] = True
                G.finalize(pv, mv)

        # Next bracket: unpaired players of this bracket move down.
        new_pb: list[int] = []
        new_sgb = 0
        single = bool(odd) and sg_it < n and state["bye_score"] >= S[sg_it].score
        for pi, pv in enumerate(pb):
            if pi < nsgb and matched[pv]:
                continue
            new_pb.append(pv)
            if pi < nsgb:
                new_sgb += 1
            if single and S[mate[pv]].score < S[sg_it].score:
                single = False
        if state["single"] != single:
            state["single"] = single
            memo.clear()
        pb = new_pb
        sgb = new_sgb
        sgbv = nsgbv

    # Result with colours (C.04.3 E).
    result: list[Pairing] = []
    for v in range(n):
        p = S[v]
        if v in G.final:
            o = S[G.final[v]]
            if p.pid < o.pid:
                c = _choose_colour(p, o, first_colour)
                result.append(Pairing(p.pid, o.pid) if c == "w" else Pairing(o.pid, p.pid))
        else:
            if not p.bye_ok:
                raise PairingError(f"player {p.pid} would get a second bye (C.04.3 C.2)")
            result.append(Pairing(p.pid, None))
    if sum(1 for r in result if r.black is None) > 1:
        raise PairingError(no_pairing)
    return board_order(result, points)
