"""Round-robin schedules from the Berger tables (FIDE Handbook C.05 Annex 1).

Players are numbered ``1..n`` (pairing numbers drawn by lot).  With an odd ``n`` a dummy
player ``n+1`` is added; being paired with it means a bye, written ``(player, 0)``.
"""
from __future__ import annotations

from .base import PairingError

__all__ = ["berger_round", "round_robin_rounds"]


def _check(n_players: int) -> int:
    if not isinstance(n_players, int) or isinstance(n_players, bool) or n_players < 2:
        raise PairingError(f"a round robin needs at least 2 players, not {n_players!r}")
    return n_players + (n_players & 1)


def berger_round(n_players: int, round_no: int, *, double: bool = False) -> list[tuple[int, int]]:
    """Pairings ``(white, black)`` of round ``round_no`` (1-based) of the Berger table.

    Board order is that of the published tables (C.05 Annex 1): board 1 is the game of the
    highest number ``n`` (white in even rounds, black in odd rounds), then the other boards.
    For ``n`` players (even) there are ``n-1`` rounds; in round ``r`` players ``i`` and
    ``j`` (``< n``) meet when ``i + j ≡ r + 1 (mod n-1)``.  Odd ``n``: the dummy ``n+1`` is
    added and its "opponent" gets a bye, returned as ``(player, 0)`` at the end of the list.
    ``double=True`` allows rounds ``n..2(n-1)`` (second cycle): the first cycle again with
    colours reversed (the organiser may still swap the last two rounds of the first cycle,
    as the Berger-table notes recommend against three equal colours in a row; this function
    returns the plain tables).  Raises :class:`PairingError` for a bad ``n`` or round number.
    """
    n = _check(n_players)
    m = n - 1
    cycles = 2 if double else 1
    if not isinstance(round_no, int) or not 1 <= round_no <= m * cycles:
        raise PairingError(f"round {round_no!r} does not exist with {n_players} players "
                           f"({m * cycles} rounds)")
    second = round_no > m
    r = round_no - m if second else round_no

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


def round_robin_rounds(n: int, double: bool = False) -> list[list[tuple[int, int]]]:
    """All rounds of a (double) round robin for ``n`` players, see :func:`berger_round`."""
    rounds = (n + (n & 1) - 1) * (2 if double else 1)
    return [berger_round(n, r, double=double) for r in range(1, rounds + 1)]
