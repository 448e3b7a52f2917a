"""Round-robin schedules from the Berger tables (FIDE Handbook C.05 Annex 1).

Players are numbered ``1..n`` (pairing numbers drawn by lot).  With an odd ``n`` a dummy
player ``n+1`` is added; being paired with it means a bye, written ``(player, 0)``.

Double round robin: the second cycle repeats the first with colours reversed, and by default
the last two rounds of the *first* cycle are played in reverse order (C.05 Annex 1: "in double
round-robin tournaments it is recommended to reverse the order of the last two rounds of the
first cycle"; the Vega manual, appendix C "Round Robin", calls it the adjusted Berger table).
Without the swap the players 1 and ``n/2 + 1`` (even table of ``n``) get the same colour in the
last round of the first cycle and the first two rounds of the second (three in a row); with it
nobody, the dummy of an odd field included, gets three equal colours in consecutive rounds
(``tests/tournaments/pairing/test_roundrobin.py`` checks this for 3 to 24 players).
"""
from __future__ import annotations

from .base import PairingError

__all__ = ["berger_round", "round_robin_rounds", "cycle_round_order"]


def _check(n_players: int) -> int:
    if not isinstance(n_players, int) or isinstance(n_players, bool) or n_players < 2:
        raise PairingError(f"a round robin needs at least 2 players, not {n_players!r}")
    return n_players + (n_players & 1)


def cycle_round_order(n_players: int, *, double: bool = False, second_cycle_swap: bool = True) -> list[int]:
    """Berger-table round played in each round: element ``i`` is the table round (``1..m`` first
    cycle, ``m+1..2m`` second cycle, ``m`` = rounds of one cycle) played in round ``i + 1``.

    Single round robin: ``1..m``.  Double with ``second_cycle_swap`` (the default, C.05 Annex 1
    recommendation): ``1..m-2, m, m-1, m+1..2m``; plain: ``1..2m``.  (Two players: a
    one-round cycle has nothing to swap.)  Raises :class:`PairingError` for
    ``n_players < 2``.
    """
    m = _check(n_players) - 1
    order = list(range(1, m + 1))
    if double:
        if second_cycle_swap and m >= 2:
            order[m - 2], order[m - 1] = order[m - 1], order[m - 2]
        order += list(range(m + 1, 2 * m + 1))
    return order


def berger_round(n_players: int, round_no: int, *, double: bool = False,
                 second_cycle_swap: bool = True) -> list[tuple[int, int]]:
    """Pairings ``(white, black)`` of round ``round_no`` (1-based) of the Berger table.

    Board order is that of the published tables (C.05 Annex 1): board 1 is the game of the
    highest number ``n`` (white in even rounds, black in odd rounds), then the other boards.
    For ``n`` players (even) there are ``n-1`` rounds; in table round ``r`` players ``i`` and
    ``j`` (``< n``) meet when ``i + j ≡ r + 1 (mod n-1)``.  Odd ``n``: the dummy ``n+1`` is
    added and its "opponent" gets a bye, returned as ``(player, 0)`` at the end of the list.

    ``double=True`` allows rounds ``n..2(n-1)`` (second cycle): table round ``r`` again with
    colours reversed.  With ``second_cycle_swap`` (default) the last two rounds of the first
    cycle are played in reverse order (round ``m-1`` plays table round ``m`` and vice versa,
    ``m = n-1``; C.05 Annex 1 recommendation, so that nobody gets three equal colours in a row
    across the two cycles); ``second_cycle_swap=False`` gives the plain table order.  The swap
    only applies with ``double=True``.  Raises :class:`PairingError` for a bad ``n`` or round
    number.
    """
    n = _check(n_players)
    m = n - 1
    cycles = 2 if double else 1
    if not isinstance(round_no, int) or isinstance(round_no, bool) or not 1 <= round_no <= m * cycles:
        raise PairingError(f"round {round_no!r} does not exist with {n_players} players "
                           f"({m * cycles} rounds)")
    table_round = cycle_round_order(n_players, double=double, second_cycle_swap=second_cycle_swap)[round_no - 1]
    second = table_round > m
    r = table_round - m if second else table_round

    def norm(x: int) -> int:  # residue in 1..m
        return (x - 1) % m + 1

    partner_n = _half_mod(r + 1, m)
    first = (n, partner_n) if r % 2 == 0 else (partner_n, n)
    boards = [first]
    start = (r + 3) // 2 if r % 2 == 1 else r // 2 + n // 2 + 1
    for b in range(n // 2 - 1):
        w = norm(start + b)
        boards.append((w, norm(r + 1 - w)))
    if second:
        boards = [(b, w) for w, b in boards]
    if n != n_players:  # odd: the dummy n means a bye
        dummy = [(w if b == n else b) for w, b in boards if n in (w, b)][0]
        boards = [(w, b) for w, b in boards if n not in (w, b)] + [(dummy, 0)]
    return boards


def _half_mod(x: int, m: int) -> int:
    """The ``i`` in ``1..m`` with ``2i ≡ x (mod m)`` (``m`` odd)."""
    for i in range(1, m + 1):
        if (2 * i - x) % m == 0:
            return i
    raise AssertionError("m must be odd")


def round_robin_rounds(n: int, double: bool = False, second_cycle_swap: bool = True
                       ) -> list[list[tuple[int, int]]]:
    """All rounds of a (double) round robin for ``n`` players in playing order, see
    :func:`berger_round` (``second_cycle_swap``: C.05 Annex 1 recommendation, default on)."""
    rounds = (_check(n) - 1) * (2 if double else 1)
    return [berger_round(n, r, double=double, second_cycle_swap=second_cycle_swap) for r in range(1, rounds + 1)]
