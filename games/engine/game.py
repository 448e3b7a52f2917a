"""Positions and moves of a Mangala set: value objects, move generation, play, replay and perft.

Conventions (RULES.md "Board and notation"; Kural 1-3):

- A board is 14 ints: index 0..5 = first player's pits 1..6, 6 = first player's store, 7..12 = second
  player's pits 1..6, 13 = second player's store. Pit index ``i`` is opposite ``12 - i``.
- Players are ``0`` (the first mover of the set, the "white" side of the board, Kural 5) and ``1``.
  ``Position.to_move`` is ``None`` once the set is over.
- A move is a pit number 1..6 counted from the mover's own left (pit 6 is next to the mover's store).
- An extra turn is simply another move by the same player (Kural 13A): it counts as a ply.
- Variants: ``federation`` (Kural 10-14, the default) and ``kale`` (004 "Alternatif Oyun Şekli" as
  interpreted in RULES.md). In kale, ``Position.castles`` holds each player's castle cell (a pit index
  in the *opponent's* row) or -1.
"""
from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field

import games.engine._core as _core  # the module, not through the package (games.engine imports this one)
from .errors import EngineMessage as _m
from .errors import gettext_noop
from .errors import (
    IllegalMoveError,
    InvalidPositionError,
    SetOverError,
    UnknownVariantError,
)

__all__ = [
    "Variant",
    "Capture",
    "Move",
    "Outcome",
    "Position",
    "MoveResult",
    "legal_moves",
    "play",
    "replay",
    "perft",
    "player_name",
    "TOTAL_STONES",
]

#: Stones in a game (Kural 1).
TOTAL_STONES = 48
_PLAYER_NAMES = ("first", "second")


def player_name(player: int) -> str:
    """``"first"`` for 0, ``"second"`` for 1 — the words used in messages and results."""
    return _PLAYER_NAMES[player]


class Variant(enum.StrEnum):
    """Rule set of a set. ``FEDERATION``: Kural 10-14. ``KALE``: the castle variant of 004."""

    FEDERATION = "federation"
    KALE = "kale"

    @classmethod
    def parse(cls, value: Variant | str) -> Variant:
        """The variant named ``value`` (case-insensitive); :class:`UnknownVariantError` otherwise."""
        if isinstance(value, Variant):
            return value
        try:
            return cls(str(value).strip().lower())
        except ValueError:
            raise UnknownVariantError(
                _m(gettext_noop("unknown variant %(value)r: expected 'federation' or 'kale'"), value=value)
            ) from None


class Capture(enum.StrEnum):
    """What the last stone took (RULES.md "A move" 4; 004)."""

    EVEN = "even"  #: Kural 13B: an opponent pit made even is taken
    EMPTY_PIT = "empty-pit"  #: Kural 13E: own empty pit, the opposite pit and the last stone are taken
    CASTLE = "castle"  #: 004: an opponent pit made 3 becomes a castle, its stones are taken


_CAPTURE_OF_KIND = {
    _core.EVEN_CAPTURE: Capture.EVEN,
    _core.EMPTY_PIT_CAPTURE: Capture.EMPTY_PIT,
    _core.CASTLE_CAPTURE: Capture.CASTLE,
}


@dataclass(frozen=True, slots=True)
class Move:
    """A move: ``player`` (0 first, 1 second) sows pit ``pit`` (1..6 from the player's own left).

    ``index`` is the 14-cell index of the pit. ``str(move)`` is the pit number, as written in records.
    """

    player: int
    pit: int

    def __post_init__(self) -> None:
        if self.player not in (0, 1) or self.player.__class__ is not int:
            raise IllegalMoveError(f"player must be 0 or 1, not {self.player!r}")
        if self.pit.__class__ is not int or not 1 <= self.pit <= 6:
            raise IllegalMoveError(f"pit must be 1..6, not {self.pit!r}")

    @property
    def index(self) -> int:
        """Board index of the pit (0..5 or 7..12)."""
        return 7 * self.player + self.pit - 1

    @classmethod
    def from_index(cls, index: int) -> Move:
        """The move of pit ``index`` (0..5 or 7..12) by the row's owner."""
        if index.__class__ is not int or _core.ROW[index % 14] < 0 or not 0 <= index < 14:
            raise IllegalMoveError(f"index {index!r} is not a pit")
        return cls(_core.ROW[index], index % 7 + 1)

    def __str__(self) -> str:
        return str(self.pit)


@dataclass(frozen=True, slots=True)
class Outcome:
    """Result of a finished set: stones in each store (summing to 48) and the winner.

    ``winner`` is 0, 1, or ``None`` for 24-24 (the only draw, Kural 14.1/14.6). ``margin`` is the winner's
    stones − 24 (Kural 14.4 "kaç taş fazla"), 0 for a draw.
    """

    first: int
    second: int

    @property
    def winner(self) -> int | None:
        if self.first == self.second:
            return None
        return 0 if self.first > self.second else 1

    @property
    def margin(self) -> int:
        return max(self.first, self.second) - TOTAL_STONES // 2


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable position: ``board`` (14 ints, see module doc), ``to_move`` (0, 1, or ``None`` when
    the set is over), ``variant`` and, for kale, ``castles`` = (first player's castle cell, second's),
    -1 for none.

    Validated on construction (:class:`InvalidPositionError`): 14 non-negative ints summing to 48
    (Kural 1); ``to_move`` is ``None`` exactly when all twelve pits are empty (a finished set is swept,
    Kural 14); a live position has stones on both sides; a first player's castle is one of the second
    player's pits 1..5 (7..11) and vice versa (0..4), and castle pits are empty (004); federation
    positions have no castles.
    """

    board: tuple[int, ...]
    to_move: int | None
    variant: Variant = Variant.FEDERATION
    castles: tuple[int, int] = (-1, -1)

    def __post_init__(self) -> None:
        b = self.board
        if not isinstance(b, tuple):
            object.__setattr__(self, "board", b := tuple(b))
        if len(b) != 14:
            raise InvalidPositionError(f"a board has 14 cells, not {len(b)}")
        for i, v in enumerate(b):
            if v.__class__ is not int or v < 0:
                raise InvalidPositionError(f"cell {i} holds {v!r}: stone counts are non-negative integers")
        if sum(b) != TOTAL_STONES:
            raise InvalidPositionError(f"the board holds {sum(b)} stones, not 48 (Kural 1)")
        object.__setattr__(self, "variant", Variant.parse(self.variant))
        if not isinstance(self.castles, tuple):
            object.__setattr__(self, "castles", tuple(self.castles))
        c = self.castles
        if len(c) != 2 or any(x.__class__ is not int for x in c):
            raise InvalidPositionError(f"castles must be two cell indices or -1, not {c!r}")
        if self.variant is Variant.FEDERATION and c != (-1, -1):
            raise InvalidPositionError("castles exist only in the kale variant (004)")
        for owner, cell in enumerate(c):
            allowed = range(7, 12) if owner == 0 else range(0, 5)
            if cell != -1 and cell not in allowed:
                raise InvalidPositionError(
                    f"{player_name(owner)} player's castle must be one of the opponent's pits 1..5 "
                    f"(cells {allowed.start}..{allowed.stop - 1}) or -1, not {cell} (004)"
                )
            if cell != -1 and b[cell]:
                raise InvalidPositionError(f"castle cell {cell} must be empty, it holds {b[cell]} (004)")
        first = sum(b[0:6])
        second = sum(b[7:13])
        if self.to_move is None:
            if first or second:
                raise InvalidPositionError(
                    "to_move is None but stones are still in the pits: a finished set is swept (Kural 14)"
                )
        elif self.to_move not in (0, 1) or self.to_move.__class__ is not int:
            raise InvalidPositionError(f"to_move must be 0, 1 or None, not {self.to_move!r}")
        elif not first or not second:
            side = "first" if not first else "second"
            raise InvalidPositionError(
                f"{side} player's pits are all empty: the set is over, to_move must be None (Kural 14)"
            )

    @classmethod
    def initial(cls, variant: Variant | str = Variant.FEDERATION) -> Position:
        """4 stones in every pit, empty stores, first player to move (Kural 3, 5)."""
        return cls((4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0), 0, Variant.parse(variant))

    @classmethod
    def _trusted(
        cls, board: tuple[int, ...], to_move: int | None, variant: Variant, castles: tuple[int, int]
    ) -> Position:
        """Build without validation (the kernels keep the invariants)."""
        pos = object.__new__(cls)
        object.__setattr__(pos, "board", board)
        object.__setattr__(pos, "to_move", to_move)
        object.__setattr__(pos, "variant", variant)
        object.__setattr__(pos, "castles", castles)
        return pos

    @property
    def is_over(self) -> bool:
        """True when the set has ended (Kural 14 4th basic rule; 004)."""
        return self.to_move is None

    @property
    def stores(self) -> tuple[int, int]:
        """(first player's store, second player's store)."""
        return self.board[6], self.board[13]

    def pits(self, player: int) -> tuple[int, ...]:
        """The six pits of ``player`` (0 or 1), pit 1 first."""
        return self.board[7 * player : 7 * player + 6]

    def outcome(self) -> Outcome | None:
        """The :class:`Outcome` of a finished set, ``None`` while it goes on."""
        if self.to_move is not None:
            return None
        return Outcome(self.board[6], self.board[13])

    def __str__(self) -> str:
        """Two rows as seen by the first player: second player's pits 6..1 on top, stores at the ends."""
        b = self.board
        top = " ".join(f"{b[i]:2d}" for i in range(12, 6, -1))
        bottom = " ".join(f"{b[i]:2d}" for i in range(0, 6))
        return f"   {top}\n{b[13]:2d}{' ' * 18}{b[6]:2d}\n   {bottom}"


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What :func:`play` did.

    - ``position``: the position after the move.
    - ``extra_turn``: the last stone fell into the mover's store (Kural 13A); the same player moves
      again (unless the set ended).
    - ``capture``: :class:`Capture` kind or ``None``; ``captured``: stones that capture put into the
      mover's store (for an empty-pit capture this includes the mover's own last stone, Kural 13E).
    - ``castle_built``: cell of the castle built by this move (kale), else ``None``.
    - ``castle_stones``: stones that fell into castles while sowing and went to (first, second) store.
    - ``set_over``: the set ended with this move; ``sweep``: stones moved from the pits into
      (first, second) store by the end-of-set rule (Kural 14 4th basic rule / 004), (0, 0) otherwise.
    - ``last_index``: cell of the last stone (Kural 12).
    """

    move: Move
    position: Position
    extra_turn: bool
    capture: Capture | None
    captured: int
    castle_built: int | None
    castle_stones: tuple[int, int]
    set_over: bool
    sweep: tuple[int, int]
    last_index: int = field(default=-1)


def _check_position(position: Position) -> Position:
    if not isinstance(position, Position):
        raise TypeError(f"expected a Position, not {type(position).__name__}")
    return position


def legal_moves(position: Position) -> tuple[Move, ...]:
    """Moves of the player to move: every own non-empty pit, pit 1 first (Kural 7; RULES.md "A move" 1).

    A finished set has none. In kale an opponent's castle in your row is always empty, so never legal.
    """
    p = _check_position(position).to_move
    if p is None:
        return ()
    b = position.board
    return tuple(Move(p, k) for k in range(1, 7) if b[7 * p + k - 1])


def _pit_of(position: Position, pit: int | Move) -> int:
    """Validate ``pit`` for the player to move and return its board index."""
    p = position.to_move
    if isinstance(pit, Move):
        if p is not None and pit.player != p:
            raise IllegalMoveError(_m(
                gettext_noop("it is the first player's turn, not the second player's") if p == 0
                else gettext_noop("it is the second player's turn, not the first player's")))
        pit = pit.pit
    if p is None:
        raise SetOverError(_m(gettext_noop("the set is already over (Kural 14)")))
    if pit.__class__ is not int or not 1 <= pit <= 6:
        raise IllegalMoveError(_m(gettext_noop("pit must be a number 1..6, not %(pit)r"), pit=pit))
    s = 7 * p + pit - 1
    if not position.board[s]:
        if s == position.castles[1 - p]:
            raise IllegalMoveError(_m(
                gettext_noop("pit %(pit)s of first player is the second player's castle (004)") if p == 0
                else gettext_noop("pit %(pit)s of second player is the first player's castle (004)"), pit=pit))
        raise IllegalMoveError(_m(
            gettext_noop("pit %(pit)s of first player is empty") if p == 0
            else gettext_noop("pit %(pit)s of second player is empty"), pit=pit))
    return s


def play(position: Position, pit: int | Move) -> MoveResult:
    """Play pit ``pit`` (1..6 from the mover's own view, or a :class:`Move`) for the player to move.

    Returns a :class:`MoveResult` holding the new :class:`Position`; ``position`` is unchanged.
    Raises :class:`SetOverError` after the end of the set and :class:`IllegalMoveError` for a pit
    outside 1..6, an empty pit (or, in kale, a castle), or a Move of the wrong player.
    Sources: Kural 10-14, 003 §2-§6, 004.
    """
    _check_position(position)
    s = _pit_of(position, pit)
    p = position.to_move
    assert p is not None
    b = list(position.board)
    if position.variant is Variant.FEDERATION:
        castles = position.castles
        flags, kind, captured, last, sweep = _core.fed_step(b, s)
        castle_built = None
        castle_stones = (0, 0)
    else:
        cs = list(position.castles)
        flags, kind, captured, last, sweep, castle_stones = _core.kale_step(b, s, cs)
        castles = (cs[0], cs[1])
        castle_built = last if kind == _core.CASTLE_CAPTURE else None
    over = sweep is not None
    extra = bool(flags & _core.EXTRA)
    to_move = None if over else (p if extra else 1 - p)
    return MoveResult(
        move=Move(p, s % 7 + 1),
        position=Position._trusted(tuple(b), to_move, position.variant, castles),
        extra_turn=extra,
        capture=_CAPTURE_OF_KIND.get(kind),
        captured=captured,
        castle_built=castle_built,
        castle_stones=castle_stones,
        set_over=over,
        sweep=sweep if sweep is not None else (0, 0),
        last_index=last,
    )


def _move_number(m: object) -> object:
    """A record entry as a pit number: ints and :class:`Move` objects as they are, digit strings parsed."""
    if m.__class__ is int:
        return m
    if isinstance(m, Move):
        return m.pit
    if isinstance(m, str) and m.strip().isdigit():
        return int(m)
    return m


def _ply_message(err: _core.PlyError, start_ply: int = 1) -> str:
    ply = err.ply + start_ply
    if err.reason == "over":
        return _m(gettext_noop("ply %(ply)s: the set is already over after ply %(previous)s (Kural 14)"), ply=ply,
                  previous=ply - 1)
    if err.player not in (0, 1):  # the kernels always name the mover here: plain English otherwise
        if err.reason == "range":
            return f"ply {ply}: pit must be a number 1..6, not {err.pit!r} (? player to move)"
        return f"ply {ply}: pit {err.pit} of ? player is empty"
    first = err.player == 0
    if err.reason == "range":
        template = (gettext_noop("ply %(ply)s: pit must be a number 1..6, not %(pit)r (first player to move)") if first
                    else gettext_noop("ply %(ply)s: pit must be a number 1..6, not %(pit)r (second player to move)"))
    elif err.reason == "castle":
        template = (gettext_noop("ply %(ply)s: pit %(pit)s of first player is the second player's castle (004)")
                    if first else
                    gettext_noop("ply %(ply)s: pit %(pit)s of second player is the first player's castle (004)"))
    else:
        template = (gettext_noop("ply %(ply)s: pit %(pit)s of first player is empty") if first
                    else gettext_noop("ply %(ply)s: pit %(pit)s of second player is empty"))
    return _m(template, ply=ply, pit=err.pit)


_INITIAL: dict[object, Position] = {}


def replay(
    moves: Iterable[int | Move | str],
    variant: Variant | str | None = None,
    *,
    start: Position | None = None,
) -> Position:
    """Play a set record from the initial position of ``variant`` (default federation) or from ``start``
    (whose variant is used; a different explicit ``variant`` is an error) and return the final position.

    ``moves`` are pit numbers 1..6 of the mover, in play order; an extra turn is just the next entry
    (RULES.md "Board and notation"). Digit strings and :class:`Move` objects are accepted too.
    Raises :class:`IllegalMoveError` ("ply 17: pit 3 of second player is empty") or
    :class:`SetOverError` ("ply 43: the set is already over after ply 42") naming the 1-based ply.
    This is the fast path: it runs the kernels of ``_core`` on a plain list.
    """
    if start is None:
        position = _INITIAL.get(variant) or Position.initial(variant or Variant.FEDERATION)
    else:
        position = _check_position(start)
        if variant is not None and Variant.parse(variant) is not position.variant:
            raise UnknownVariantError(
                f"variant {variant!r} differs from the start position's {position.variant.value!r}"
            )
    seq = moves if isinstance(moves, (list, tuple)) else list(moves)
    try:
        return _replay_kernel(position, seq)
    except _core.PlyError as err:
        if err.reason == "range" and not isinstance(err.pit, int):  # strings or Move objects: convert
            converted = [_move_number(m) for m in seq]
            if converted != seq:
                try:
                    return _replay_kernel(position, converted)
                except _core.PlyError as err2:
                    err = err2
        cls = SetOverError if err.reason == "over" else IllegalMoveError
        raise cls(_ply_message(err)) from None


def _replay_kernel(position: Position, seq: list | tuple) -> Position:
    b = list(position.board)
    if position.variant is Variant.FEDERATION:
        p = _core.fed_replay(b, position.to_move, seq)
        castles = position.castles
    else:
        cs = list(position.castles)
        p = _core.kale_replay(b, position.to_move, cs, seq)
        castles = (cs[0], cs[1])
    return Position._trusted(tuple(b), p, position.variant, castles)


def perft(position: Position, depth: int) -> int:
    """Number of move sequences of exactly ``depth`` plies from ``position`` (leaf nodes).

    An extra turn counts as a ply; a finished set has no children, so sets that end earlier add
    nothing (``perft(p, 0) == 1`` always). Raises :class:`ValueError` for a negative depth.
    """
    _check_position(position)
    if depth.__class__ is not int or depth < 0:
        raise ValueError(f"depth must be a non-negative integer, not {depth!r}")
    if depth == 0:
        return 1
    if position.to_move is None:
        return 0
    b = list(position.board)
    if position.variant is Variant.FEDERATION:
        return _core.fed_perft(b, position.to_move, depth)
    return _core.kale_perft(b, position.to_move, list(position.castles), depth)


_INITIAL[None] = Position.initial()
for _v in Variant:
    _INITIAL[_v] = _INITIAL[_v.value] = Position.initial(_v)
del _v
