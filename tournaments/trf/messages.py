"""The TRF reader's messages (pure Python, English: :mod:`tournaments.trf.reader`) in the user's language.

``str(err)`` of a :class:`tournaments.trf.model.TrfError` stays English (``"line 17: <reason>"``, for logs);
:func:`trf_error_message` says the same in the active language (``"satır 17: ..."``).  The reader's
other texts — the warnings of :attr:`TrfTournament.warnings`, the reasons of
:func:`tournaments.trf.extensions.unread_lines`, :class:`tournaments.trf.model.Inference` notes — are translated by
:func:`trf_text`, :func:`unread_line_message` and :func:`inference_message`.  In English every one of
them equals the reader's own text.
"""
from __future__ import annotations

from django.utils.translation import gettext

from federation.message_text import translated
from tournaments.trf.model import Inference, TrfError

__all__ = ["inference_message", "trf_error_message", "trf_text", "unread_line_message"]


def trf_text(message: object) -> str:
    """A message of the reader (a :class:`tournaments.trf.model.TrfMessage`: a warning, a reason, a
    ``TrfError.reason``) in the active language; any other text unchanged."""
    return translated(message)


def trf_error_message(exc: TrfError, *, column: bool = False) -> str:
    """``exc`` in the active language, naming its line: ``"satır 17: ..."`` (``str(exc)`` in English).

    ``column=True`` names the column too when the error has one (``"line 17, column 93: ..."``; then
    the English differs from ``str(exc)``).  An error without a line is its reason alone.  The file
    name (``exc.source``) is not included: a caller prefixes it.
    """
    reason = trf_text(exc.reason)
    if exc.line is None:
        return reason
    if column and exc.column is not None:
        return gettext("line %(line)s, column %(column)s: %(reason)s") % {
            "line": exc.line, "column": exc.column, "reason": reason}
    return gettext("line %(line)s: %(reason)s") % {"line": exc.line, "reason": reason}


def unread_line_message(line: int, reason: object) -> str:
    """An entry ``(line, reason)`` of :func:`tournaments.trf.extensions.unread_lines` as ``"satır 17: ..."``."""
    return gettext("line %(line)s: %(reason)s") % {"line": line, "reason": trf_text(reason)}


def inference_message(inference: Inference) -> str:
    """``str(inference)`` (``"line 31: player 18 round 3: blank result code counted as 0.5 (...)"``) in
    the active language."""
    return trf_text(inference.message())
