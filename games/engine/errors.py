"""Errors raised by the Mangala rules engine.

Every error is a :class:`RulesError`, itself a :class:`ValueError`: callers that only care about
"bad input" catch ``ValueError``; callers that want to show *which* rule was broken catch a subclass.
Messages name the place ("ply 17: pit 3 of second player is empty", "set 3: ...", "line 12: ...")
and, where there is one, the rule (Kural N, 003 §N, 004).

Messages are English.  Those of a record check (replay, :func:`validate_record`, the notation) are
:class:`EngineMessage` objects: the English ``str`` plus the ``template`` (marked with
:func:`gettext_noop` for ``makemessages``) and ``params`` it was made from, so that the product can say
them in the user's language (:mod:`games.record_messages`); ``exc.args[0]`` is the message.
"""
from __future__ import annotations

__all__ = [
    "EngineMessage",
    "gettext_noop",
    "message_of",
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


def gettext_noop(s: str) -> str:
    """Mark a message template for translation (``makemessages`` extracts the literal); returns it
    unchanged — the engine stays free of Django."""
    return s


class EngineMessage(str):
    """An English message (the ``str`` itself) that keeps its ``template`` (``%(name)s`` placeholders)
    and ``params``; a parameter may itself be an :class:`EngineMessage`.  Rendered in the user's
    language by :func:`games.record_messages.engine_text`."""

    template: str
    params: dict

    def __new__(cls, template: str, /, **params: object) -> EngineMessage:
        obj = super().__new__(cls, template % params if params else template)
        obj.template = template
        obj.params = params
        return obj


def message_of(exc: BaseException) -> str:
    """The message an engine error was raised with (an :class:`EngineMessage` when it has one); for a
    :class:`NotationError`, without its ``line N:`` prefix."""
    if isinstance(exc, NotationError):
        return exc.message
    if isinstance(exc, RulesError) and len(exc.args) == 1 and isinstance(exc.args[0], str):
        return exc.args[0]
    return str(exc)


class RulesError(ValueError):
    """Base class: the input breaks a rule of the game or of the result format."""


class InvalidPositionError(RulesError):
    """A board that cannot occur: wrong length, negative counts, not 48 stones, a bad castle, a player to
    move on a finished board (Kural 1, 3, 14; 004)."""


class UnknownVariantError(RulesError):
    """A variant name other than ``federation`` or ``kale``."""


class IllegalMoveError(RulesError):
    """A move that is not allowed: pit outside 1..6, an empty pit (RULES.md "A move" 1), a castle pit (004)."""


class SetOverError(IllegalMoveError):
    """A move after the set has ended (Kural 14, 4th basic rule)."""


class InvalidStonesError(RulesError):
    """A stone count outside 0..48, or not an integer."""


class StonesNotConservedError(RulesError):
    """Stone counts that do not add up to the 48 stones of the game (Kural 1)."""


class WithdrawalTooEarlyError(RulesError):
    """A withdrawal before either player has 25 stones in the store (Kural 14.5.2)."""


class AgreedDrawError(RulesError):
    """A set recorded as drawn (or ended) by agreement: there are no agreed draws (Kural 14.6)."""


class MatchLengthError(RulesError):
    """A number of sets per match that is not a positive odd number (003 "Turnuva maçı")."""


class MatchSetsError(RulesError):
    """A list of set results that no match can produce: a set after the match was decided, too few or
    too many sets (003 "Turnuva maçı")."""


class IncompleteRecordError(RulesError):
    """A set record that stops before the set is over (and is not a valid withdrawal)."""


class RecordMismatchError(RulesError):
    """A set record whose moves do not give the recorded stones."""


class NotationError(RulesError):
    """A game record text that cannot be parsed; :attr:`line` is the 1-based line number (or 0)."""

    def __init__(self, message: str, line: int = 0) -> None:
        self.line = line
        self.message = message  #: without the "line N: " prefix (an EngineMessage when made by the engine)
        super().__init__(f"line {line}: {message}" if line else message)
