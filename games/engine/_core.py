"""Fast move kernels on a plain 14-int list: the single implementation of sowing and of the last-stone
rules, used by :func:`games.engine.play` (rich results), :func:`games.engine.replay` and
:func:`games.engine.perft`.

Board convention (RULES.md "Board and notation"): index 0..5 = first player's pits 1..6, 6 = first
player's store, 7..12 = second player's pits 1..6, 13 = second player's store; pit index ``i`` is
opposite ``12 - i``. A pit ``k`` (1..6) of player ``p`` is index ``7 * p + k - 1``.

Sowing goes round a fixed cycle of cells that starts at the origin pit (precomputed per origin in
``*_CYCLE``): with ``n >= 2`` stones the first stone goes back into the origin and the rest into the
following cells (Kural 11A); a single stone goes to the next cell (Kural 11C, 13F). So ``n`` stones
increment the first ``n`` cells of the cycle starting at the origin (``n >= 2``) or the second cell
(``n == 1``); ``*_SOW[s][n]`` is that tuple of cells for every ``n`` below one lap, its last element
being the cell of the last stone (Kural 12). Longer sowings add whole laps: the origin receives a
stone on every lap like any other cell (003 "13'ten fazla taş").

- federation: the cycle has 13 cells (the opponent's store is skipped; RULES.md "A move").
- kale (004): the cycle has the 12 pits only (both stores skipped); castle pits stay on the cycle but
  whatever falls into them goes to the castle owner's store.

Nothing here validates input; the public functions do that first.
"""
from __future__ import annotations

FIRST_STORE = 6
SECOND_STORE = 13
STORE = (FIRST_STORE, SECOND_STORE)
PITS = (tuple(range(0, 6)), tuple(range(7, 13)))
#: Row owner of each cell: 0, 1, or -1 for a store.
ROW = tuple(0 if i < 6 else 1 if 7 <= i < 13 else -1 for i in range(14))
#: Index of the opponent's pit 6 for each mover (a castle may not be built there, 004).
OPPONENT_PIT6 = (12, 5)

# Flags returned by the step functions.
EXTRA = 1  #: the last stone fell into the mover's store: the mover plays again (Kural 13A)
OVER = 2  #: the set is over after this move (Kural 14, 4th basic rule; 004)

# Capture kinds (second item returned by the step functions).
NO_CAPTURE = 0
EVEN_CAPTURE = 1  #: Kural 13B
EMPTY_PIT_CAPTURE = 2  #: Kural 13E
CASTLE_CAPTURE = 3  #: 004: a castle is built, its three stones go to the builder's store


def _cycle(start: int, skip: tuple[int, ...]) -> tuple[int, ...]:
    cells = []
    i = start
    while len(cells) < 14 - len(skip):
        if i not in skip:
            cells.append(i)
        i = (i + 1) % 14
    return tuple(cells)


def _sow_table(cycles: dict[int, tuple[int, ...]]) -> list[tuple[tuple[int, ...], ...] | None]:
    table: list[tuple[tuple[int, ...], ...] | None] = [None] * 14
    for s, cyc in cycles.items():
        rows: list[tuple[int, ...]] = [()]  # n == 0 never happens (empty pit is illegal)
        rows.append((cyc[1],))  # single stone: next cell (Kural 11C, 13F)
        for n in range(2, len(cyc)):
            rows.append(cyc[:n])  # first stone back into the origin (Kural 11A)
        table[s] = tuple(rows)
    return table


FED_CYCLE: dict[int, tuple[int, ...]] = {
    s: _cycle(s, (STORE[1 - ROW[s]],)) for s in PITS[0] + PITS[1]
}
KALE_CYCLE: dict[int, tuple[int, ...]] = {s: _cycle(s, STORE) for s in PITS[0] + PITS[1]}
FED_SOW = _sow_table(FED_CYCLE)  # index [s][n] for 1 <= n <= 12
KALE_SOW = _sow_table(KALE_CYCLE)  # index [s][n] for 1 <= n <= 11


def _sow_laps(b: list[int], cyc: tuple[int, ...], n: int) -> int:
    """Sow ``n >= len(cyc)`` stones round ``cyc`` (origin first); return the last cell."""
    q, r = divmod(n, len(cyc))
    for i in cyc:
        b[i] += q
    for i in cyc[:r]:
        b[i] += 1
    return cyc[(n - 1) % len(cyc)]


def fed_step(b: list[int], s: int) -> tuple[int, int, int, int, tuple[int, int] | None]:
    """Play the federation move from pit index ``s`` (non-empty, mover = ``ROW[s]``) on ``b`` in place.

    Returns ``(flags, capture_kind, captured, last, sweep)``: ``flags`` is ``EXTRA``/``OVER`` bits,
    ``captured`` the stones the capture put into the mover's store (0 when none), ``last`` the cell of
    the last stone, ``sweep`` the stones the end-of-set rule (Kural 14 4th basic rule) moved into
    (first, second) store — already applied — or ``None`` while the set goes on.
    """
    n = b[s]
    b[s] = 0
    if n < 13:
        path = FED_SOW[s][n]
        for i in path:
            b[i] += 1
        last = path[-1]
    else:
        last = _sow_laps(b, FED_CYCLE[s], n)
    p = ROW[s]
    store = 6 if p == 0 else 13
    if last == store:  # Kural 13A
        # Only a single stone from pit 6 can leave the mover's own side empty here.
        if n == 1:
            sweep = fed_sweep(b)
            if sweep is not None:
                return EXTRA | OVER, NO_CAPTURE, 0, last, sweep
        return EXTRA, NO_CAPTURE, 0, last, None
    if ROW[last] != p:
        c = b[last]
        if c & 1:  # Kural 13C: odd, nothing happens
            return 0, NO_CAPTURE, 0, last, None
        b[store] += c  # Kural 13B: even, take the pit
        b[last] = 0
        kind = EVEN_CAPTURE
    else:
        # Without a capture the mover's side keeps a stone (the origin's, or the one just moved)
        # and the opponent's side lost nothing: the set cannot end.
        if b[last] != 1:  # Kural 13D
            return 0, NO_CAPTURE, 0, last, None
        o = 12 - last
        c = b[o]
        if not c:  # 003 §5: opposite pit empty, the stone stays
            return 0, NO_CAPTURE, 0, last, None
        c += 1  # Kural 13E: opposite stones and the own last stone
        b[store] += c
        b[o] = 0
        b[last] = 0
        kind = EMPTY_PIT_CAPTURE
    sweep = fed_sweep(b)
    return (0 if sweep is None else OVER), kind, c, last, sweep


def fed_sweep(b: list[int]) -> tuple[int, int] | None:
    """End-of-set check and sweep for the federation rules (Kural 14 4th basic rule, 003 §6).

    If a side is empty, the player whose side is empty takes every stone left on the other side
    into their own store (both sides empty: nothing moves). Returns the stones added to
    ``(first store, second store)``, or ``None`` when the set goes on.
    """
    first = b[0] + b[1] + b[2] + b[3] + b[4] + b[5]
    second = b[7] + b[8] + b[9] + b[10] + b[11] + b[12]
    if first and second:
        return None
    if first:  # second side is empty: the second player takes the first side
        b[13] += first
        b[0] = b[1] = b[2] = b[3] = b[4] = b[5] = 0
        return (0, first)
    if second:
        b[6] += second
        b[7] = b[8] = b[9] = b[10] = b[11] = b[12] = 0
        return (second, 0)
    return (0, 0)


def kale_step(
    b: list[int], s: int, castles: list[int]
) -> tuple[int, int, int, int, tuple[int, int] | None, tuple[int, int]]:
    """Play the kale move from pit index ``s`` on ``b`` in place (004 as read in RULES.md).

    ``castles`` is ``[first player's castle cell, second's]`` (-1 = none) and is updated in place when
    a castle is built. Returns ``(flags, capture_kind, captured, last, sweep, castle_stones)`` like
    :func:`fed_step`, plus the stones that fell into castles while sowing and went to (first, second)
    store (not part of ``captured``). ``flags`` never contains ``EXTRA``: stores are skipped, so there
    are no extra turns.
    """
    n = b[s]
    b[s] = 0
    if n < 12:
        path = KALE_SOW[s][n]
        for i in path:
            b[i] += 1
        last = path[-1]
    else:
        last = _sow_laps(b, KALE_CYCLE[s], n)
    c0, c1 = castles
    k0 = k1 = 0
    if c0 >= 0 and b[c0]:
        k0 = b[c0]
        b[6] += k0
        b[c0] = 0
    if c1 >= 0 and b[c1]:
        k1 = b[c1]
        b[13] += k1
        b[c1] = 0
    p = ROW[s]
    kind = NO_CAPTURE
    c = 0
    if ROW[last] != p and last != c0 and last != c1:  # an opponent pit that is not a castle
        c = b[last]
        if not c & 1:  # even rule (004: 2nd basic rule applies)
            kind = EVEN_CAPTURE
        elif c == 3 and castles[p] < 0 and last != OPPONENT_PIT6[p]:  # 004: build a castle
            kind = CASTLE_CAPTURE
            castles[p] = last
        if kind:
            b[6 if p == 0 else 13] += c
            b[last] = 0
        else:
            c = 0
    sweep = kale_sweep(b)
    return (0 if sweep is None else OVER), kind, c, last, sweep, (k0, k1)


def kale_sweep(b: list[int]) -> tuple[int, int] | None:
    """End-of-set check for kale (004): when either side's pits are all empty, each player puts the
    stones left on their own side into their own store. Returns the stones added to
    ``(first store, second store)``, or ``None`` when the set goes on."""
    first = b[0] + b[1] + b[2] + b[3] + b[4] + b[5]
    second = b[7] + b[8] + b[9] + b[10] + b[11] + b[12]
    if first and second:
        return None
    b[6] += first
    b[13] += second
    for i in (0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12):
        b[i] = 0
    return (first, second)


class PlyError(Exception):
    """Internal: raised by the fast replay loops with the 0-based ply and a reason code."""

    def __init__(self, ply: int, reason: str, player: int | None, pit: object) -> None:
        super().__init__(ply, reason, player, pit)
        self.ply = ply
        self.reason = reason
        self.player = player
        self.pit = pit


def fed_replay(b: list[int], p: int | None, moves) -> int | None:
    """Play ``moves`` (pit numbers 1..6 of the mover) from ``b`` (in place) with ``p`` to move.

    Returns the player to move afterwards, ``None`` once the set is over. Raises :class:`PlyError`
    for a bad pit ("range"), an empty pit ("empty") or a move after the end ("over").

    This is :func:`fed_step` written out inside the loop (same tables, same order of the rules, no
    call or result tuple per move): record replay is the hot path of result validation. The tests
    check it against :func:`fed_step` (via ``play``) and against the stone-by-stone reference.
    """
    sow = FED_SOW
    row = ROW
    sweep = fed_sweep
    for ply, pit in enumerate(moves):
        if p is None:
            raise PlyError(ply, "over", None, pit)
        if pit.__class__ is not int or not 0 < pit < 7:
            raise PlyError(ply, "range", p, pit)
        if p:
            s = pit + 6
            store = 13
        else:
            s = pit - 1
            store = 6
        n = b[s]
        if not n:
            raise PlyError(ply, "empty", p, pit)
        b[s] = 0
        if n < 13:
            path = sow[s][n]
            for i in path:
                b[i] += 1
            last = path[-1]
        else:
            last = _sow_laps(b, FED_CYCLE[s], n)
        if last == store:  # Kural 13A: same player again (a single stone from pit 6 may end the set)
            if n == 1 and sweep(b) is not None:
                p = None
            continue
        if row[last] != p:
            c = b[last]
            if c & 1:  # Kural 13C
                p = 1 - p
                continue
            b[store] += c  # Kural 13B
            b[last] = 0
        else:
            if b[last] != 1:  # Kural 13D
                p = 1 - p
                continue
            o = 12 - last
            c = b[o]
            if not c:  # 003 §5: the stone stays
                p = 1 - p
                continue
            b[store] += c + 1  # Kural 13E
            b[o] = 0
            b[last] = 0
        p = None if sweep(b) is not None else 1 - p  # only a capture can end the set here
    return p


def kale_replay(b: list[int], p: int | None, castles: list[int], moves) -> int | None:
    """Like :func:`fed_replay` for kale; ``castles`` is updated in place. Extra reason: "castle"."""
    step = kale_step
    for ply, pit in enumerate(moves):
        if p is None:
            raise PlyError(ply, "over", None, pit)
        if pit.__class__ is not int or not 1 <= pit <= 6:
            raise PlyError(ply, "range", p, pit)
        s = pit - 1 if p == 0 else pit + 6
        if not b[s]:
            raise PlyError(ply, "castle" if s == castles[1 - p] else "empty", p, pit)
        if step(b, s, castles)[0]:
            p = None
        else:
            p = 1 - p
    return p


def fed_perft(b: list[int], p: int, depth: int) -> int:
    """Leaf count below a live federation position (depth >= 1)."""
    base = 0 if p == 0 else 7
    if depth == 1:
        return (b[base] > 0) + (b[base + 1] > 0) + (b[base + 2] > 0) + (b[base + 3] > 0) + (
            b[base + 4] > 0
        ) + (b[base + 5] > 0)
    total = 0
    d = depth - 1
    for s in range(base, base + 6):
        if b[s]:
            c = b[:]
            flags = fed_step(c, s)[0]
            if not flags & OVER:
                total += fed_perft(c, p if flags else 1 - p, d)
    return total


def kale_perft(b: list[int], p: int, castles: list[int], depth: int) -> int:
    """Leaf count below a live kale position (depth >= 1)."""
    base = 0 if p == 0 else 7
    if depth == 1:
        return sum(1 for s in range(base, base + 6) if b[s])
    total = 0
    d = depth - 1
    q = 1 - p
    for s in range(base, base + 6):
        if b[s]:
            c = b[:]
            cs = castles[:]
            if not kale_step(c, s, cs)[0] & OVER:
                total += kale_perft(c, q, cs, d)
    return total
