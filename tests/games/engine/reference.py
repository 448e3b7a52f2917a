"""A slow reference implementation of the rules, written plainly from RULES.md, stone by stone.

It shares no code with ``games.engine`` (no tables, no kernels): the hand holds the stones, each is
dropped into the next cell, and the last-stone rules are checked in the order RULES.md lists them.
Tests compare the engine with it (moves, random positions, perft to depth 5).
"""
from __future__ import annotations

from dataclasses import dataclass

FIRST_STORE, SECOND_STORE = 6, 13


@dataclass
class RefState:
    board: list[int]
    to_move: int | None
    kale: bool = False
    castles: list[int] | None = None  # [first's castle cell, second's] or -1

    def copy(self) -> "RefState":
        return RefState(list(self.board), self.to_move, self.kale, list(self.castles or [-1, -1]))


def own_store(player: int) -> int:
    return FIRST_STORE if player == 0 else SECOND_STORE


def side_of(cell: int) -> int | None:
    """0 for the first player's pits, 1 for the second's, None for a store."""
    if 0 <= cell <= 5:
        return 0
    if 7 <= cell <= 12:
        return 1
    return None


def next_cell(cell: int, player: int, kale: bool) -> int:
    """Counter-clockwise: the next cell, skipping the opponent's store (kale: both stores)."""
    cell = (cell + 1) % 14
    while cell == own_store(1 - player) or (kale and cell == own_store(player)):
        cell = (cell + 1) % 14
    return cell


def ref_legal(state: RefState) -> list[int]:
    """Pit numbers 1..6 the player to move may play."""
    if state.to_move is None:
        return []
    p = state.to_move
    return [k for k in range(1, 7) if state.board[p * 7 + k - 1] > 0]


def ref_play(state: RefState, pit: int) -> RefState:
    """Play one move; returns a new state."""
    s = state.copy()
    b = s.board
    p = s.to_move
    assert p is not None
    castles = s.castles if s.kale else [-1, -1]
    origin = p * 7 + pit - 1
    hand = b[origin]
    assert hand > 0, "empty pit"
    b[origin] = 0
    # Where the first stone goes: back into the origin, unless there is only one stone.
    cell = origin if hand >= 2 else next_cell(origin, p, s.kale)
    before_last = None
    while True:
        before_last = b[cell]
        if s.kale and cell in castles:
            owner = castles.index(cell)
            b[own_store(owner)] += 1  # stone dropped into a castle goes to the castle owner
        else:
            b[cell] += 1
        hand -= 1
        if hand == 0:
            break
        cell = next_cell(cell, p, s.kale)
    last = cell
    extra = False
    if s.kale:
        if last in castles:
            pass  # the stone went to the castle owner's store; nothing else happens
        elif side_of(last) == 1 - p:
            if b[last] % 2 == 0:
                b[own_store(p)] += b[last]
                b[last] = 0
            elif b[last] == 3 and castles[p] == -1 and last != (1 - p) * 7 + 5:
                b[own_store(p)] += b[last]
                b[last] = 0
                castles[p] = last
        # own pit: nothing (no empty-pit capture in kale)
        first_left = sum(b[0:6])
        second_left = sum(b[7:13])
        if first_left == 0 or second_left == 0:
            b[FIRST_STORE] += first_left
            b[SECOND_STORE] += second_left
            for i in list(range(0, 6)) + list(range(7, 13)):
                b[i] = 0
            s.to_move = None
        else:
            s.to_move = 1 - p
        s.castles = castles
        return s
    if last == own_store(p):
        extra = True
    elif side_of(last) == 1 - p:
        if b[last] in (2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46, 48):
            b[own_store(p)] += b[last]
            b[last] = 0
    elif side_of(last) == p and before_last == 0:
        opposite = 12 - last
        if b[opposite] > 0:
            b[own_store(p)] += b[opposite] + b[last]
            b[opposite] = 0
            b[last] = 0
    first_left = sum(b[0:6])
    second_left = sum(b[7:13])
    if first_left == 0 or second_left == 0:
        if first_left == 0:
            b[FIRST_STORE] += second_left
        else:
            b[SECOND_STORE] += first_left
        for i in list(range(0, 6)) + list(range(7, 13)):
            b[i] = 0
        s.to_move = None
    else:
        s.to_move = p if extra else 1 - p
    return s


def ref_perft(state: RefState, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(ref_perft(ref_play(state, pit), depth - 1) for pit in ref_legal(state))


def ref_initial(kale: bool = False) -> RefState:
    return RefState([4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0], 0, kale, [-1, -1])
