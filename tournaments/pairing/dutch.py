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

Most of the n^2/2 edges never carry more than the completion and bye fields (C.4, C.5, C.9):
these *background* edges are checked against the dual solution instead of all given to the
matcher (:mod:`.dutch_graph`).  The edges between the players of the bracket being decided (and
the next score group) are set explicitly.  Edge weights depend on the two players' types only
(score, bye eligibility, games played, colour and float data) and are computed once per pair of
types.  The player data comes from :mod:`.dutch_players`, the colours of the pairs found from
:mod:`.dutch_colours`.

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

from .base import Pairing, PairingError, PairingPlayer, PointSystem
from .dutch_colours import choose_colour, prefs_compatible
from .dutch_graph import DutchGraph
from .dutch_players import DOWN, UP, DutchPlayer, build_players, other_colour, tenths

__all__ = ["pair_dutch", "board_order"]


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
    S, by_id = build_players(list(players), round_no, ps)
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
    top_threshold = (played_rounds * max(tenths(ps.win), tenths(ps.draw))) >> 1

    forbidden = {frozenset(pair) for pair in forbidden_pairs}
    if any(len(pair) != 2 for pair in forbidden):
        raise PairingError("a forbidden pair must name two different players")
    no_pairing = "no pairing satisfies the absolute criteria (C.04.3 C.1-C.3)"
    if forbidden:
        no_pairing += f" with the {len(forbidden)} forbidden pair(s)"

    forbidden_ids = {(min(pair), max(pair)) for pair in forbidden}

    def compatible(a: DutchPlayer, b: DutchPlayer) -> bool:
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

    def edge_weight(h: DutchPlayer, lo: DutchPlayer, in_cur: bool, in_next: bool) -> int:
        """Edge weight encoding C.04.3 C.4-C.21 for ``h`` (higher) v ``lo`` (lower)."""
        if not compatible(h, lo):
            return 0
        return compatible_weight(h, lo, in_cur, in_next)

    def compatible_weight(h: DutchPlayer, lo: DutchPlayer, in_cur: bool, in_next: bool) -> int:
        """:func:`edge_weight` of two players known to be compatible (memo by types)."""
        key = ((h.tid * ntypes[0] + lo.tid) << 2) + (in_cur << 1) + in_next
        w = memo.get(key)
        if w is None:
            w = memo[key] = type_weight(h, lo, in_cur, in_next)
        return w

    def type_weight(h: DutchPlayer, lo: DutchPlayer, in_cur: bool, in_next: bool) -> int:
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
            cond = (o if p.imbalance > o.imbalance else p).repeated != other_colour(p.pref)
        if not p.abs_pref or not o.abs_pref or not same or cond:
            r += 1 << P_C2
        if prefs_compatible(p.pref, o.pref):
            r += 1 << P_C3
        if ((not p.strong and not p.abs_pref) or (not o.strong and not o.abs_pref)
                or (p.abs_pref and o.abs_pref) or not same):
            r += 1 << P_C4
        # C.14-C.21 float criteria
        for k, p_down, p_up, p_sdown, p_sup in P_FL:
            fl = lo.float1 if k == 1 else lo.float2
            fh = h.float1 if k == 1 else h.float2
            c = (fl == DOWN) + (hs <= ls and fh == DOWN)
            if c:
                r += c << p_down
            if not (hs > ls and fl == UP):
                r += (1 << p_up) + (1 << (p_sup + shift[hs]))
            if fl == DOWN:
                r += 1 << (p_sdown + shift[ls])
            if fh == DOWN:
                r += 1 << (p_sdown + shift[hs])
        return r

    assign_types()
    G = DutchGraph(n, lambda u, v: compatible(S[u], S[v]))
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
        rep_of: dict[int, DutchPlayer] = {}
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
                c = choose_colour(p, o, first_colour)
                result.append(Pairing(p.pid, o.pid) if c == "w" else Pairing(o.pid, p.pid))
        else:
            if not p.bye_ok:
                raise PairingError(f"player {p.pid} would get a second bye (C.04.3 C.2)")
            result.append(Pairing(p.pid, None))
    if sum(1 for r in result if r.black is None) > 1:
        raise PairingError(no_pairing)
    return board_order(result, points)
