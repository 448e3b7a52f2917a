"""Prize allocation: who wins which prize of a tournament's prize list (pure Python, no Django).

The rule (source: US Chess Federation, *Official Rules of Chess*, rule 32B on cash prizes — one prize
per player, the largest one they are eligible for, a place prize before a class prize of equal value,
tied players share the cash prizes they jointly occupy — and the common practice of open tournaments
with category prizes, such as national youth championships):

1. A player takes **only one prize, the most valuable one they qualify for**.
2. So the prizes are handed out from the most valuable down: by ``value`` descending, then an
   **overall** prize before a **category** prize of the same value, then by ``place`` ascending, then
   by the category's position in the tournament's list (``order``), then by ``id``.
3. Each prize goes to the **best-ranked eligible player not awarded yet**. Rank = the final standings
   order, ties resolved by the tie-breaks.
4. **Players level on everything** (points and every tie-break: they share an overall rank) are treated
   alike (sharing :data:`TIEBREAKS`, the default). The prizes of the list that they jointly occupy — as
   many as there are tied players, from the prize at hand down the same list — are handled together:

   * all of them **money** (``PrizeSpec.money``): their values are pooled and split equally among all
     the tied players (also when there are more players than prizes left: nobody tied is left out);
   * otherwise (a trophy, a medal: indivisible) each prize goes by a **lot** (:func:`lot_order`, from
     the seed the organiser drew and the tournament stores); the players who lose the lot are listed as
     tied just outside the prizes and stay eligible for less valuable prizes. Without a seed the lot is
     **pending**: the tied players hold those prizes together until it is drawn.
5. An event may instead decide, before round 1, to share money among **all players level on points**:

   * :data:`POINTS_EQUAL` — the money prizes the group occupies are pooled and split equally;
   * :data:`POINTS_HORT` — the **Hort system** (named after GM Vlastimil Hort; as in Swiss-Manager and
     Vega; described in the German Wikipedia article *Hort-System*): each player of the group keeps 50 %
     of the prize of the place the tie-breaks give them, and the other 50 % of the group's prizes goes
     into a pot split equally among the players level on points. Example (that article's): prizes
     100/80/60/40/20/10, A and B on 8 points, C on 7½, D, E, F on 7 → A 50 + 45 = 95, B 40 + 45 = 85,
     C 60, D 20 + 11.66 = 31.66, E 21.66, F 16.66. Players level on everything within the group
     average their own halves (they are treated alike). A player beyond the last prize keeps no half
     but shares the pot.

   A group occupying an indivisible prize falls back to rule 4 for that prize.
6. **Withdrawn players**: unless the event allows it (``withdrawn_may_win``), a player who withdrew
   before the last round takes no prize; each time one is passed over for a prize they would have had,
   it is recorded (:class:`PassedOver`), so the prize list can say why.
7. A prize nobody eligible is left for (an empty category, or every member already awarded) stays
   **unawarded**: it does not pass to a player outside its category.
8. Players **tied just outside** a list's prizes are listed (:class:`Outside`): those who lost a lot
   (``reason="lot"``; unless they took a less valuable prize after it) and those level on points with
   the list's last prize winner but separated by the tie-breaks (``reason="tiebreaks"``).

A share counts as the player's prize: like any prize it takes them out of the prizes handed out after
it (the less valuable ones), so a sharer never also takes a category prize.

Money is shared in cents: each share is rounded down to 0.01 (the cents left over, fewer than the
number of sharers, are not paid out), so the shares never add up to more than the prizes pooled.

Example (the tests' hand-computed table): overall 1st-3rd worth 1000/700/500, U12 1st-2nd worth 300/200,
Girls 1st worth 300. The best U12 player finishes 2nd overall: they take the overall 2nd prize (700 >
300), and U12 1st goes to the next U12 player in the standings.

Within one list (the overall prizes, or one category's) a better place should be worth at least as much
as a worse one; ``tournaments.prizes.services`` refuses anything else, so places are handed out in
order.

Shapes::

    PrizeSpec(id=4, place=1, value=Decimal("300"), category="U12", order=0, money=True)
    Ranked(id=17, rank=3, points=Decimal("5.5"), lot_key=12, withdrawn_early=False)
    distribute(prizes, ranking=[Ranked...], eligible={"U12": {ids}}, sharing="tiebreaks", seed="…")
        -> Allocation(awards=(Award...), passed_over=(PassedOver...), outside=(Outside...))
"""
from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

#: How players level on points share (``tournaments.models.Tournament.PrizeSharing``).
TIEBREAKS, POINTS_EQUAL, POINTS_HORT = "tiebreaks", "points", "hort"
SHARINGS = (TIEBREAKS, POINTS_EQUAL, POINTS_HORT)

CENT = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class PrizeSpec:
    """One prize: ``id`` (the caller's), ``place`` (1 = first) in its list, ``value`` (money, or points
    the organiser gives a trophy; ranks the prizes), ``category`` (a category code; None = overall),
    ``order`` (the category's position in the tournament's list: equal prizes of two categories go in
    that order) and ``money`` (True: a cash prize, shared among tied players; False: indivisible, by lot)."""

    id: int
    place: int
    value: Decimal
    category: str | None = None
    order: int = 0
    money: bool = False


@dataclass(frozen=True, slots=True)
class Ranked:
    """One player of the final standings: ``id``, ``rank`` (overall; players level on points and every
    tie-break share it), ``points``, ``lot_key`` (what the lot hashes: the starting number, which anyone
    can read on the standings; defaults to ``id``) and ``withdrawn_early`` (withdrew before the last round)."""

    id: int
    rank: int
    points: Decimal = Decimal("0")
    lot_key: int | None = None
    withdrawn_early: bool = False


@dataclass(frozen=True, slots=True)
class Award:
    """The outcome of one prize. ``winner``: the player who takes it (None when unawarded, shared or
    pending a lot). ``shares``: ``(player id, amount)`` of each player sharing the money of ``pooled``
    (the ids of the prizes pooled together, this one included). ``tied``: the players level on
    everything who drew lots for it (``by_lot``) or still have to (``lot_pending``)."""

    prize_id: int
    winner: int | None
    shares: tuple[tuple[int, Decimal], ...] = ()
    pooled: tuple[int, ...] = ()
    tied: tuple[int, ...] = ()
    by_lot: bool = False
    lot_pending: bool = False


@dataclass(frozen=True, slots=True)
class PassedOver:
    """``player`` would have had ``prize_id`` but withdrew before the last round (rule 6)."""

    player: int
    prize_id: int


@dataclass(frozen=True, slots=True)
class Outside:
    """``player`` is tied just outside the prizes of ``category`` (None = overall): ``reason`` ``"lot"``
    (lost the lot for ``prize_id``) or ``"tiebreaks"`` (level on points with the winner of ``prize_id``,
    the list's last prize, behind on the tie-breaks)."""

    player: int
    prize_id: int
    category: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class Allocation:
    """:func:`distribute`'s answer: ``awards`` in the order handed out, ``passed_over`` and ``outside``."""

    awards: tuple[Award, ...]
    passed_over: tuple[PassedOver, ...] = ()
    outside: tuple[Outside, ...] = ()

    def amounts(self) -> dict[int, Decimal]:
        """Player id → the money they take from shared prizes (players sharing a pool)."""
        out: dict[int, Decimal] = {}
        seen: set[tuple[int, ...]] = set()
        for a in self.awards:
            if a.shares and a.pooled not in seen:
                seen.add(a.pooled)
                for pid, amount in a.shares:
                    out[pid] = out.get(pid, Decimal("0")) + amount
        return out


def lot_order(keys: Sequence[int], seed: str) -> list[int]:
    """The order a lot puts ``keys`` in (the published rule, re-checkable by anyone): sort the keys by
    the SHA-256 hex digest of ``"<seed>:<key>"`` (UTF-8), smallest first; the first wins. ``seed`` is the
    secret the organiser drew and the tournament stores; ``keys`` are starting numbers.

    >>> lot_order([3, 7], "abc") == sorted([3, 7], key=lambda k: hashlib.sha256(f"abc:{k}".encode()).hexdigest())
    True
    """
    return sorted(keys, key=lambda k: (hashlib.sha256(f"{seed}:{k}".encode()).hexdigest(), k))


def allocation_order(prizes: Sequence[PrizeSpec]) -> list[PrizeSpec]:
    """``prizes`` in the order they are handed out (rule 2 of the module docstring)."""
    return sorted(prizes, key=lambda p: (-Decimal(p.value), p.category is not None, p.place, p.order, p.id))


def _down(amount: Decimal) -> Decimal:
    return Decimal(amount).quantize(CENT, rounding=ROUND_DOWN)


def _equal_shares(group: Sequence[Ranked], occupied: Sequence[PrizeSpec]) -> list[tuple[int, Decimal]]:
    total = sum((Decimal(p.value) for p in occupied), Decimal("0"))
    share = _down(total / len(group))
    return [(r.id, share) for r in group]


def _hort_shares(group: Sequence[Ranked], occupied: Sequence[PrizeSpec]) -> list[tuple[int, Decimal]]:
    """Rule 5, Hort: half of the prize of each player's own place (averaged among players level on
    everything), plus an equal part of the pot (the other halves)."""
    values = [Decimal(p.value) for p in occupied] + [Decimal("0")] * (len(group) - len(occupied))
    halves = [v / 2 for v in values]
    pot = sum(halves, Decimal("0")) / len(group)
    by_rank: dict[int, list[int]] = defaultdict(list)
    for i, r in enumerate(group):
        by_rank[r.rank].append(i)
    out = []
    for i, r in enumerate(group):
        same = by_rank[r.rank]
        own = sum((halves[j] for j in same), Decimal("0")) / len(same)
        out.append((r.id, _down(own + pot)))
    return out


def distribute(
    prizes: Sequence[PrizeSpec], *, ranking: Sequence[Ranked], eligible: Mapping[str, Collection[int]],
    sharing: str = TIEBREAKS, seed: str = "", withdrawn_may_win: bool = False,
) -> Allocation:
    """Hand out ``prizes`` (module docstring).

    ``ranking``: every participant in final standings order. ``eligible``: category code → the ids of
    its members (:func:`tournaments.standings.categories.members`); an overall prize is open to
    everyone in ``ranking``. ``sharing``: one of :data:`SHARINGS`. ``seed``: the stored lot seed (""
    = not drawn yet). ``withdrawn_may_win``: the event lets players who withdrew before the last round
    take prizes.

    Raises ValueError for a player listed twice in ``ranking``, a prize whose category is not in
    ``eligible``, two prizes with the same id or an unknown ``sharing``.
    """
    if len({r.id for r in ranking}) != len(ranking):
        raise ValueError("a player is listed twice in the ranking")
    if len({p.id for p in prizes}) != len(prizes):
        raise ValueError("two prizes share an id")
    if sharing not in SHARINGS:
        raise ValueError(f"unknown sharing {sharing!r}; valid: {', '.join(SHARINGS)}")
    missing = sorted({p.category for p in prizes if p.category is not None and p.category not in eligible})
    if missing:
        raise ValueError(f"no members given for category {missing[0]!r}")
    pools = {code: frozenset(ids) for code, ids in eligible.items()}
    barred = set() if withdrawn_may_win else {r.id for r in ranking if r.withdrawn_early}
    order = allocation_order(prizes)
    done: dict[int, Award] = {}
    awarded: set[int] = set()
    passed: dict[int, PassedOver] = {}
    outside: list[Outside] = []

    for prize in order:
        if prize.id in done:
            continue
        pool = None if prize.category is None else pools[prize.category]
        candidates = [r for r in ranking if r.id not in awarded and (pool is None or r.id in pool)]
        first = next((r for r in candidates if r.id not in barred), None)
        for r in candidates:
            if r is first:
                break
            passed.setdefault(r.id, PassedOver(player=r.id, prize_id=prize.id))
        if first is None:
            done[prize.id] = Award(prize_id=prize.id, winner=None)
            continue
        open_ = [r for r in candidates if r.id not in barred]
        same_list = sorted(
            (q for q in order if q.id not in done and q.category == prize.category), key=lambda q: q.place
        )
        if sharing != TIEBREAKS:
            group = [r for r in open_ if r.points == first.points]
            occupied = same_list[:len(group)]
            if len(group) > 1 and all(q.money for q in occupied):
                shares = (_equal_shares if sharing == POINTS_EQUAL else _hort_shares)(group, occupied)
                _pool(done, awarded, group, occupied, shares)
                continue
        group = [r for r in open_ if r.rank == first.rank]
        occupied = same_list[:len(group)]
        if len(group) == 1:
            done[prize.id] = Award(prize_id=prize.id, winner=first.id)
            awarded.add(first.id)
        elif all(q.money for q in occupied):
            _pool(done, awarded, group, occupied, _equal_shares(group, occupied))
        elif not seed:
            tied = tuple(r.id for r in group)
            for q in occupied:
                done[q.id] = Award(prize_id=q.id, winner=None, tied=tied, lot_pending=True)
            awarded.update(tied)
        else:
            key_of = {(r.lot_key if r.lot_key is not None else r.id): r.id for r in group}
            drawn = [key_of[k] for k in lot_order(list(key_of), seed)]
            tied = tuple(r.id for r in group)
            for q, pid in zip(occupied, drawn):
                done[q.id] = Award(prize_id=q.id, winner=pid, tied=tied, by_lot=True)
                awarded.add(pid)
            outside.extend(
                Outside(player=pid, prize_id=occupied[-1].id, category=prize.category, reason="lot")
                for pid in drawn[len(occupied):]
            )

    outside = [o for o in outside if o.player not in awarded]  # a lot's loser may take a later prize
    listed = {(o.player, o.category) for o in outside}
    outside.extend(
        o for o in _tied_outside(prizes, ranking, pools, done, awarded, barred) if (o.player, o.category) not in listed
    )
    return Allocation(
        awards=tuple(done[p.id] for p in order), passed_over=tuple(passed.values()), outside=tuple(outside)
    )


def _pool(done, awarded, group, occupied, shares) -> None:
    pooled = tuple(q.id for q in occupied)
    for q in occupied:
        done[q.id] = Award(prize_id=q.id, winner=None, shares=tuple(shares), pooled=pooled)
    awarded.update(r.id for r in group)


def _tied_outside(prizes, ranking, pools, done, awarded, barred) -> list[Outside]:
    """Rule 8, ``tiebreaks``: per list, the players with no prize level on points with the winner of
    the list's last prize."""
    points = {r.id: r.points for r in ranking}
    out: list[Outside] = []
    lists: dict[str | None, list[PrizeSpec]] = defaultdict(list)
    for p in prizes:
        lists[p.category].append(p)
    for code, items in lists.items():
        last = max(items, key=lambda p: p.place)
        award = done[last.id]
        holders = [award.winner] if award.winner is not None else [pid for pid, _a in award.shares]
        if not holders:
            continue
        level = {points[pid] for pid in holders}
        pool = None if code is None else pools[code]
        out.extend(
            Outside(player=r.id, prize_id=last.id, category=code, reason="tiebreaks")
            for r in ranking
            if r.id not in awarded and r.id not in barred and (pool is None or r.id in pool) and r.points in level
        )
    return out
