"""Prize allocation: who wins which prize of a tournament's prize list (pure Python, no Django).

The rule (source: US Chess Federation, *Official Rules of Chess*, rule 32B on cash prizes — one prize
per player, the largest one they are eligible for, a place prize before a class prize of equal value —
and the common practice of open tournaments with category prizes, such as national youth
championships):

1. A player takes **only one prize, the most valuable one they qualify for**.
2. So the prizes are handed out from the most valuable down: by ``value`` descending, then an
   **overall** prize before a **category** prize of the same value, then by ``place`` ascending, then
   by the category's position in the tournament's list (``order``), then by ``id``.
3. Each prize goes to the **best-ranked eligible player not awarded yet**. Rank = the final standings
   order, ties already resolved by the tie-breaks; players equal on everything stay in the standings'
   order (prize money is not shared out between them — the Hort system is not applied).
4. A prize nobody eligible is left for (an empty category, or every member already awarded) stays
   **unawarded**: it does not pass to a player outside its category.

Example (the tests' hand-computed table): overall 1st-3rd worth 1000/700/500, U12 1st-2nd worth 300/200,
Girls 1st worth 300. The best U12 player finishes 2nd overall: they take the overall 2nd prize (700 >
300), and U12 1st goes to the next U12 player in the standings.

Within one list (the overall prizes, or one category's) a better place should be worth at least as much
as a worse one; ``tournaments.prizes.services`` refuses anything else, so places are handed out in
order.

Shapes::

    PrizeSpec(id=4, place=1, value=Decimal("300"), category="U12", order=0)
    allocate(prizes, ranking=[entry ids in standings order], eligible={"U12": {ids}, "KIZ": {ids}})
        -> tuple[Award(prize_id, winner or None), ...] in the order handed out (:func:`allocation_order`)
"""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True, slots=True)
class PrizeSpec:
    """One prize: ``id`` (the caller's), ``place`` (1 = first) in its list, ``value`` (money, or points
    the organiser gives a trophy; ranks the prizes), ``category`` (a category code; None = overall) and
    ``order`` (the category's position in the tournament's list: equal prizes of two categories go in
    that order)."""

    id: int
    place: int
    value: Decimal
    category: str | None = None
    order: int = 0


@dataclass(frozen=True, slots=True)
class Award:
    """The outcome of one prize: ``winner`` is a player id, or None when the prize stays unawarded."""

    prize_id: int
    winner: int | None


def allocation_order(prizes: Sequence[PrizeSpec]) -> list[PrizeSpec]:
    """``prizes`` in the order they are handed out (rule 2 of the module docstring)."""
    return sorted(prizes, key=lambda p: (-Decimal(p.value), p.category is not None, p.place, p.order, p.id))


def allocate(
    prizes: Sequence[PrizeSpec], *, ranking: Sequence[int], eligible: Mapping[str, Collection[int]]
) -> tuple[Award, ...]:
    """Hand out ``prizes`` (module docstring).

    ``ranking``: player ids in final standings order (every participant). ``eligible``: category code
    → the ids of its members (:func:`tournaments.standings.categories.members`); an overall prize is
    open to everyone in ``ranking``. Returns one :class:`Award` per prize, in the order handed out.

    Raises ValueError for a player listed twice in ``ranking``, a prize whose category is not in
    ``eligible``, or two prizes with the same id.
    """
    if len(set(ranking)) != len(ranking):
        raise ValueError("a player is listed twice in the ranking")
    if len({p.id for p in prizes}) != len(prizes):
        raise ValueError("two prizes share an id")
    missing = sorted({p.category for p in prizes if p.category is not None and p.category not in eligible})
    if missing:
        raise ValueError(f"no members given for category {missing[0]!r}")
    pools = {code: frozenset(ids) for code, ids in eligible.items()}
    awarded: set[int] = set()
    out: list[Award] = []
    for prize in allocation_order(prizes):
        pool = None if prize.category is None else pools[prize.category]
        winner = next(
            (pid for pid in ranking if pid not in awarded and (pool is None or pid in pool)), None
        )
        if winner is not None:
            awarded.add(winner)
        out.append(Award(prize_id=prize.id, winner=winner))
    return tuple(out)
