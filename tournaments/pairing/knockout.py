"""Knockout (single-elimination) brackets: the first round with standard seeding, later rounds from the
winners, the match for third place, the stage names and the final ranking (pure Python, no Django).

RULES.md "Knockout matches" (project interpretation): a knockout match always has a winner
(:func:`games.engine.knockout_match_result`); the bracket records the winner and every set, and the
final ranking is 1, 2, then 3 and 4 (a match for third place) or 3= (none), then by the round reached.

Players are identified by their seed numbers (1 = top seed) or any other integers; a slot is ``None``
when nobody holds it (a bye in round 1, or a winner who withdrew before the next round).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .base import PairingError

__all__ = [
    "BracketMatch",
    "RankLine",
    "knockout_bracket",
    "knockout_ranking",
    "knockout_rounds",
    "next_round_pairs",
    "round_key",
    "seed_order",
    "third_place_pair",
]


def seed_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a bracket of ``size`` (a power of 2).

    Standard seeding: built by doubling, each seed ``s`` being followed by ``2k + 1 - s``
    (``[1, 2]`` -> ``[1, 4, 2, 3]`` -> ``[1, 8, 4, 5, 2, 7, 3, 6]``), so that seeds 1 and 2
    can only meet in the final, seeds 1-4 only in the semi-finals, and so on.
    """
    if size < 1 or size & (size - 1):
        raise PairingError(f"bracket size must be a power of 2, not {size}")
    order = [1]
    while len(order) < size:
        k = 2 * len(order)
        order = [x for s in order for x in (s, k + 1 - s)]
    return order


def knockout_bracket(seeds: list[int]) -> list[tuple[int, int | None]]:
    """First-round matches for players listed in seeding order (``seeds[0]`` = seed 1).

    The bracket size is the next power of 2; seed ``i`` meets seed ``size + 1 - i`` (1 v N,
    2 v N-1, ...) in bracket order (see :func:`seed_order`).  Missing seeds beyond
    ``len(seeds)`` are byes, which therefore go to the top seeds: ``(player, None)``.
    Raises :class:`PairingError` for fewer than 2 players or a repeated player.
    """
    n = len(seeds)
    if n < 2:
        raise PairingError("a knockout needs at least 2 players")
    if len(set(seeds)) != n:
        raise PairingError("a player appears twice in the seeding list")
    size = 1
    while size < n:
        size *= 2
    order = seed_order(size)
    out: list[tuple[int, int | None]] = []
    for i in range(0, size, 2):
        a, b = order[i], order[i + 1]
        out.append((seeds[a - 1], seeds[b - 1] if b <= n else None))
    return out


def knockout_rounds(players: int) -> int:
    """The number of rounds of a bracket for ``players`` (the next power of 2: 5..8 players → 3 rounds).
    Raises :class:`PairingError` for fewer than 2 players."""
    if players < 2:
        raise PairingError("a knockout needs at least 2 players")
    return (players - 1).bit_length()


def next_round_pairs(winners: Sequence[int | None]) -> list[tuple[int | None, int | None]]:
    """The next round's matches from the winners of a round in bracket order (``winners[k]`` = the winner
    of the round's match k, ``None`` when nobody advances from it): the winners of matches 1 and 2 meet,
    those of 3 and 4, and so on, the first-listed winner first. ``(x, None)`` is a bye for ``x``;
    ``(None, None)`` an empty slot. Raises :class:`PairingError` for an odd number of matches (the round
    was the final) or a repeated player."""
    if len(winners) < 2 or len(winners) % 2:
        raise PairingError(f"a round of {len(winners)} match(es) has no next round to pair")
    present = [w for w in winners if w is not None]
    if len(set(present)) != len(present):
        raise PairingError("a player appears twice among the winners")
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]


def third_place_pair(semi_final_losers: Sequence[int | None]) -> tuple[int, int] | None:
    """The match for third place between the two losers of the semi-finals (in semi-final order), or
    ``None`` when it cannot be played (a semi-final was a bye or was forfeited by both)."""
    if len(semi_final_losers) != 2:
        raise PairingError("the match for third place needs the two semi-finals")
    a, b = semi_final_losers
    if a is None or b is None:
        return None
    return (a, b)


def round_key(round_no: int, total_rounds: int) -> str:
    """The stage of round ``round_no`` of ``total_rounds``: ``"final"``, ``"semi_final"``,
    ``"quarter_final"``, else ``"round_of_<n>"`` (n = players the round starts with, e.g. ``round_of_16``)."""
    if not 1 <= round_no <= total_rounds:
        raise PairingError(f"round {round_no} is not a round of a {total_rounds}-round bracket")
    left = total_rounds - round_no
    return {0: "final", 1: "semi_final", 2: "quarter_final"}.get(left, f"round_of_{2 ** (left + 1)}")


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One match of a bracket as the ranking reads it: ``a`` and ``b`` (``b`` None: a bye for ``a``),
    ``winner`` (``None``: nobody advances, e.g. both forfeited) and ``decided`` (False while undecided)."""

    a: int
    b: int | None
    winner: int | None = None
    decided: bool = False

    @property
    def loser(self) -> int | None:
        if not self.decided or self.b is None or self.winner is None:
            return None
        return self.b if self.winner == self.a else self.a


@dataclass(frozen=True, slots=True)
class RankLine:
    """A player's place in a knockout: ``rank`` (``None`` while not known: still in, or waiting for the
    match for third place), ``shared`` (several players share the rank, e.g. the quarter-final losers
    5=), ``out_in`` (the round the player was knocked out in, ``None`` for the winner and players still
    in) and ``reached`` (the last round the player was paired in)."""

    player: int
    rank: int | None
    shared: bool
    out_in: int | None
    reached: int


def knockout_ranking(
    rounds: Sequence[Sequence[BracketMatch]], total_rounds: int, third_place: BracketMatch | None = None,
    *, third_place_planned: bool = False,
) -> list[RankLine]:
    """The final ranking of a knockout (RULES.md "Knockout matches"): the winner 1, the other finalist
    2; the semi-final losers 3 and 4 by the match for third place (``third_place``), or 3= when there is
    none (``third_place_planned`` false, or it could not be played); everyone else by the round reached:
    the players knocked out in round r share the rank 1 + the number of players left after round r
    (the quarter-final losers of 8 are 5=).

    ``rounds``: the matches of rounds 1..k paired so far, each in bracket order (a bye is
    ``BracketMatch(a, None, winner=a, decided=True)``). A player who won a round but is not paired in
    the next one (withdrew) is out in that next round. Players still in, and the semi-final losers
    waiting for the match for third place, have ``rank`` None. Lines are in order: players still in
    (by player number, i.e. seed), ranks 1 and 2, the players waiting for the match for third place,
    then ranks 3, 4, … (a shared rank by player number).
    """
    last_round: dict[int, int] = {}
    state: dict[int, str] = {}  # "won", "lost", "open"
    for r, matches in enumerate(rounds, start=1):
        for m in matches:
            for p in (m.a, m.b):
                if p is None:
                    continue
                last_round[p] = r
                state[p] = "open" if not m.decided else ("won" if m.winner == p else "lost")
    paired = len(rounds)
    out_in: dict[int, int | None] = {}
    for p, r in last_round.items():
        if state[p] == "lost":
            out_in[p] = r
        elif state[p] == "won" and r < paired:
            out_in[p] = r + 1  # won, then not paired in the next round: withdrew
        else:
            out_in[p] = None  # the winner, or still in
    players = sorted(last_round)
    final_done = paired == total_rounds and all(m.decided for m in rounds[-1]) if rounds else False
    semi = total_rounds - 1
    ranks: dict[int, int | None] = {}
    shared: dict[int, bool] = {}
    waiting: list[int] = []
    for p in players:
        r = out_in[p]
        shared[p] = False
        if r is None:
            ranks[p] = 1 if final_done and state[p] == "won" else None
            continue
        if third_place_planned and semi >= 1 and r == semi:
            if third_place is not None and p in (third_place.a, third_place.b):
                if not third_place.decided:
                    ranks[p] = None
                    waiting.append(p)
                elif third_place.winner is None:  # neither played it: they share 3
                    ranks[p], shared[p] = 3, True
                else:
                    ranks[p] = 3 if third_place.winner == p else 4
                continue
            if third_place is None and paired < total_rounds:
                ranks[p] = None  # the final round (with the match for third place) is not paired yet
                waiting.append(p)
                continue
        left = sum(1 for q in players if out_in[q] is None or out_in[q] > r)
        ranks[p] = left + 1
        shared[p] = sum(1 for q in players if out_in[q] == r) > 1
    still_in = [p for p in players if ranks[p] is None and p not in waiting]
    ranked = sorted((p for p in players if ranks[p] is not None), key=lambda p: (ranks[p], p))
    ordered = still_in + [p for p in ranked if ranks[p] <= 2] + waiting + [p for p in ranked if ranks[p] > 2]
    return [
        RankLine(player=p, rank=ranks[p], shared=shared[p], out_in=out_in[p], reached=last_round[p])
        for p in ordered
    ]
