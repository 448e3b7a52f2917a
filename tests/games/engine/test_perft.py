"""perft node counts from the initial position (extra turns count as plies; a finished set has no children).

Depths 1..5 are recomputed by the plain reference in ``test_reference.py``; depths 6..8 extend the same
engine whose counts agree there and on random positions.
"""
from __future__ import annotations

import pytest

from games.engine import Position, legal_moves, perft, play

FEDERATION = {1: 6, 2: 36, 3: 213, 4: 1233, 5: 6956, 6: 38116, 7: 204921, 8: 1087622}
KALE = {1: 6, 2: 36, 3: 210, 4: 1197, 5: 6468, 6: 34751, 7: 181332, 8: 953582}


@pytest.mark.parametrize("depth", sorted(FEDERATION))
def test_perft_federation_initial(depth):
    """Kural 10-14: leaf counts of the federation rules from the initial position."""
    assert perft(Position.initial(), depth) == FEDERATION[depth]


@pytest.mark.parametrize("depth", sorted(KALE))
def test_perft_kale_initial(depth):
    """004 kale: leaf counts from the initial position."""
    assert perft(Position.initial("kale"), depth) == KALE[depth]


def test_perft_depth_2_by_hand():
    """Kural 13A: of the six first moves only pit 4 gives an extra turn, after which the first player still
    has six non-empty pits; the other five pass the turn to a second player with six moves: 6 * 6."""
    pos = Position.initial()
    after_4 = play(pos, 4).position
    assert after_4.to_move == 0
    assert perft(after_4, 1) == 6
    assert perft(pos, 2) == 6 * 6


def test_perft_of_finished_set_and_depth_zero():
    """A finished set has no children; depth 0 counts the position itself."""
    over = Position((0,) * 6 + (30,) + (0,) * 6 + (18,), None)
    assert perft(over, 0) == 1
    assert perft(over, 1) == 0
    with pytest.raises(ValueError):
        perft(Position.initial(), -1)


def test_perft_divide_sums_to_total():
    """perft(d) is the sum over the legal moves of perft(d - 1) of the child."""
    pos = Position.initial()
    assert sum(perft(play(pos, m).position, 4) for m in legal_moves(pos)) == FEDERATION[5]
