"""Knockout (single-elimination) first-round bracket with standard seeding."""
from __future__ import annotations

from .base import PairingError

__all__ = ["knockout_bracket", "seed_order"]


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
