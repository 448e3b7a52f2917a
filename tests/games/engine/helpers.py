"""Small builders shared by the engine tests."""
from __future__ import annotations

import random

from games.engine import Position, Variant, legal_moves, play


def board(first_pits, first_store, second_pits, second_store) -> tuple[int, ...]:
    """A 14-cell board from the two rows (pit 1 first) and the stores."""
    assert len(first_pits) == 6 and len(second_pits) == 6
    return (*first_pits, first_store, *second_pits, second_store)


def random_game(rng: random.Random, variant: str = "federation", max_plies: int = 5000):
    """A random complete set: (moves, positions after each ply)."""
    pos = Position.initial(variant)
    moves: list[int] = []
    positions = [pos]
    while not pos.is_over:
        move = rng.choice(legal_moves(pos))
        moves.append(move.pit)
        pos = play(pos, move).position
        positions.append(pos)
        assert len(moves) <= max_plies, "random set did not end"
    return moves, positions


def random_position(rng: random.Random, variant: str = "federation", sparse: bool = False) -> Position:
    """A random live position with 48 stones (both sides non-empty); kale: random castles.

    ``sparse``: most stones already in the stores (few in the pits), so that moves often end the set.
    """
    while True:
        cells = [0] * 14
        weights = [rng.random() ** 2 for _ in range(14)]
        in_stores = rng.randint(34, 46) if sparse else 0
        cells[6] = rng.randint(0, in_stores)
        cells[13] = in_stores - cells[6]
        for _ in range(48 - in_stores):
            cells[rng.choices(range(14), weights)[0]] += 1
        castles = [-1, -1]
        if variant == Variant.KALE:
            for owner, choices in ((0, range(7, 12)), (1, range(0, 5))):
                if rng.random() < 0.5:
                    c = rng.choice(list(choices))
                    cells[6 if owner == 0 else 13] += cells[c]
                    cells[c] = 0
                    castles[owner] = c
        if sum(cells[0:6]) and sum(cells[7:13]):
            return Position(tuple(cells), rng.randrange(2), Variant(variant), tuple(castles))
