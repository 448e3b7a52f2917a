"""Messages of the pure-Python modules in the user's language.

:mod:`tournaments.trf.reader` (the TRF reader) and :mod:`games.engine` (the rules engine and the game-record
notation) import nothing from Django, so their messages are English.  Each message they raise or
report is a ``str`` subclass (:class:`tournaments.trf.model.TrfMessage`, :class:`games.engine.errors.EngineMessage`)
whose text is the English one — what ``str(err)`` and the logs show — and that also keeps the
``template`` it was made from (marked with ``gettext_noop``, so ``makemessages`` puts it in the
catalogue) and its ``params``.  :func:`translated` renders such a message with the active language's
catalogue; anything else is returned as ``str()``.

The specific entry points are :func:`tournaments.trf.messages.trf_error_message` and
:func:`games.record_messages.engine_error_message`.
"""
from __future__ import annotations

from django.utils.translation import gettext

__all__ = ["is_templated", "translated"]


def is_templated(message: object) -> bool:
    """True for a message that carries its ``template`` and ``params`` (a pure module's message)."""
    return isinstance(message, str) and isinstance(getattr(message, "template", None), str)


def translated(message: object) -> str:
    """``message`` in the active language: its template translated (``gettext``) and filled with its
    params, a param that is itself such a message translated the same way.  A message without a
    template, or whose translation does not fit its params (a broken catalogue entry), is returned in
    English (``str(message)``)."""
    if not is_templated(message):
        return str(message)
    template = message.template  # type: ignore[attr-defined]
    params = getattr(message, "params", None) or {}
    text = gettext(template)
    if not params:
        return text
    values = {key: translated(value) if is_templated(value) else value for key, value in params.items()}
    try:
        return text % values
    except (KeyError, ValueError, TypeError):
        return str(message)
