"""Mangala rules engine (pure Python, no Django): positions, moves, results, records.

Sources: the federation rules (Kural 1-14), the how-to-play guide (003 §1-§6, "Turnuva maçı") and the
children's sheet's castle variant (004), as digested in RULES.md. Board convention: 14 cells, index
0..5 first player's pits 1..6, 6 first store, 7..12 second player's pits 1..6, 13 second store.
See :mod:`games.engine.game` for positions and moves, :mod:`games.engine.results` for set/match
results, :mod:`games.engine.knockout` for who advances from a knockout match,
:mod:`games.engine.validate` for checking submitted records, :mod:`games.engine.notation`
for the game record format and ``python -m games.engine --help`` for the command line.

Interpretations made by the engine where RULES.md is silent (each has a test):

- Federation: a move whose last stone ends in the store *and* empties the mover's side (a single stone
  from pit 6) ends the set at once; the extra turn is not played (Kural 14 "immediately").
- A finished position is always swept: every stone is in a store and ``to_move`` is ``None``; a live
  position must have stones on both sides.
- Kale: castle pits stay on the sowing path; every stone falling into one (including the origin
  player's own stones and the last stone) goes to the castle owner's store. When the *last* stone falls
  into a castle nothing else happens (no even capture, no new castle).
- Kale: with the stores skipped a single stone from pit 6 goes to the opponent's pit 1; laps cover the
  12 pits.
- Kale: a set can repeat forever (stones circulate without reaching a store); 004 has no rule for this
  and the engine does not stop such a set (see ``test_kale_set_can_repeat_forever``).
- Results: a completed set whose stores are level but do not hold all 48 stones is an agreed draw and
  rejected (:class:`AgreedDrawError`, Kural 14.6); a withdrawal is allowed with any stores summing to at
  most 48 once someone has 25, but :func:`validate_record` rejects a withdrawal claimed after the set
  had ended on the board.
- Matches: ``decided_after`` is the number of sets after which the result could no longer change (the
  number of sets played when all were needed); a set beyond ``sets_per_match`` is an error.
- Records: ``[Result "W-B"]`` is in White-Black order like PGN (and like :func:`match_result`), while
  ``Termination`` names the set's first/second mover like :func:`set_result`.
"""
from __future__ import annotations

from .errors import (
    AgreedDrawError,
    IllegalMoveError,
    IncompleteRecordError,
    InvalidPositionError,
    InvalidStonesError,
    MatchLengthError,
    MatchSetsError,
    NotationError,
    RecordMismatchError,
    RulesError,
    SetOverError,
    StonesNotConservedError,
    UnknownVariantError,
    WithdrawalTooEarlyError,
)
from .game import (
    TOTAL_STONES,
    Capture,
    Move,
    MoveResult,
    Outcome,
    Position,
    Variant,
    legal_moves,
    perft,
    play,
    replay,
)
from .results import (
    DECIDING_STONES,
    MatchResult,
    SetResult,
    match_result,
    set_result,
    set_starter,
    set_stones_for_match,
)
from .validate import validate_record
from .knockout import (
    LEVEL_MATCH_RULES,
    DeciderNotAllowedError,
    DeciderNotNeededError,
    KnockoutResult,
    KnockoutSetsError,
    KnockoutSettingsError,
    knockout_match_result,
    knockout_set_starter,
)

__all__ = [
    "TOTAL_STONES",
    "DECIDING_STONES",
    "Variant",
    "Capture",
    "Move",
    "MoveResult",
    "Outcome",
    "Position",
    "legal_moves",
    "play",
    "replay",
    "perft",
    "SetResult",
    "MatchResult",
    "set_result",
    "match_result",
    "set_starter",
    "set_stones_for_match",
    "validate_record",
    "LEVEL_MATCH_RULES",
    "KnockoutResult",
    "knockout_match_result",
    "knockout_set_starter",
    "KnockoutSetsError",
    "KnockoutSettingsError",
    "DeciderNotNeededError",
    "DeciderNotAllowedError",
    "RulesError",
    "InvalidPositionError",
    "UnknownVariantError",
    "IllegalMoveError",
    "SetOverError",
    "InvalidStonesError",
    "StonesNotConservedError",
    "WithdrawalTooEarlyError",
    "AgreedDrawError",
    "MatchLengthError",
    "MatchSetsError",
    "IncompleteRecordError",
    "RecordMismatchError",
    "NotationError",
]
