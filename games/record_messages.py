"""The rules engine's and the game-record notation's messages (:mod:`games.engine`, pure Python,
English) in the user's language.

``str(exc)`` stays English (for logs and the command line).  :func:`engine_error_message` says the
same in the active language: a move error keeps its ply (``"hamle 17: ..."``), a notation error its
line (``"satır 12: ..."``, or without it for a caller that shows the line apart).
"""
from __future__ import annotations

from django.utils.translation import gettext

from federation.message_text import translated
from games.engine.errors import NotationError, message_of

__all__ = ["engine_error_message", "engine_text"]


def engine_text(message: object) -> str:
    """A message of the engine (an :class:`games.engine.errors.EngineMessage`) in the active language;
    any other text unchanged."""
    return translated(message)


def engine_error_message(exc: BaseException, *, line: bool = True) -> str:
    """``exc`` (a :class:`games.engine.RulesError`, or any error) in the active language; in English
    ``str(exc)``. A :class:`NotationError` names its line (``"line 12: ..."``) unless ``line=False``
    (the import's report shows the line in a column of its own)."""
    text = engine_text(message_of(exc))
    if isinstance(exc, NotationError) and exc.line and line:
        return gettext("line %(line)s: %(reason)s") % {"line": exc.line, "reason": text}
    return text
