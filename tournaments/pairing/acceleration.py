"""Accelerated pairings: the Baku Acceleration Method (FIDE Handbook C.04.5.1).

Pure Python, no Django.  Virtual points are added to a player's score for pairing only
(:attr:`tournaments.pairing.base.PairingPlayer.accelerations`); standings never see them.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["baku_accelerations", "baku_group_a_size"]


def baku_group_a_size(n_players: int) -> int:
    """Players in group GA: the first half of the field rounded up to the nearest even number,
    ``2 * ceil(n / 4)`` (C.04.5.1 "Initial Groups Division"; 161 players -> 82), at most ``n``.

    Note: bbpPairings 6 puts ``ceil(n / 2)`` players in GA (81 of 161); the two agree when
    ``n mod 4`` is 0 or 3.  Raises ``ValueError`` for a negative ``n``.
    """
    if n_players < 0:
        raise ValueError(f"number of players {n_players} is negative")
    return min(n_players, 2 * math.ceil(n_players / 4))


def baku_accelerations(ids: Sequence[int], *, total_rounds: int, group_a: int | None = None,
                       win: float = 1.0, draw: float = 0.5) -> dict[int, tuple[float, ...]]:
    """Virtual points per round for the players ``ids`` (pairing ids in pairing order, top first).

    The accelerated rounds are the first half of the tournament rounded up
    (``ceil(total_rounds / 2)``); GA players (the first ``group_a`` ids, default
    :func:`baku_group_a_size`) get ``win`` (1) virtual point before each of the first half
    (rounded up) of them and ``draw`` (½) before the rest; GB players and later rounds get 0
    (C.04.5.1 "Virtual points": nine rounds -> 1, 1, 1, ½, ½, 0, 0, 0, 0).  ``group_a`` keeps the
    last GA player fixed after late entries (C.04.5.1 "Late entries").

    Returns ``{id: (vp round 1, ..., vp round total_rounds)}`` for every id.  Raises
    ``ValueError`` for ``total_rounds < 1`` or a ``group_a`` outside ``0..len(ids)``.
    """
    if total_rounds < 1:
        raise ValueError(f"total_rounds must be at least 1, not {total_rounds}")
    size = baku_group_a_size(len(ids)) if group_a is None else group_a
    if not 0 <= size <= len(ids):
        raise ValueError(f"group A of {size} players does not fit {len(ids)} players")
    accelerated = math.ceil(total_rounds / 2)
    full = math.ceil(accelerated / 2)
    per_round = tuple(win if r < full else draw if r < accelerated else 0.0 for r in range(total_rounds))
    zero = (0.0,) * total_rounds
    return {pid: (per_round if i < size else zero) for i, pid in enumerate(ids)}
