"""Game record notation: a PGN-like text format for Mangala sets.

Format
======

A file holds one or more *set records*. Each record is a block of tag pairs followed by the move
text; records are separated by blank lines (a blank line between a record's tags and its moves is
allowed too)::

    [Event "Ankara Open 2026"]
    [Round "3"]
    [White "Ayşe Yılmaz"]
    [Black "Mehmet Kaya"]
    [Set "2"]
    [Starter "Mehmet Kaya"]
    [Variant "federation"]
    [Result "12-36"]
    [Termination "completed"]

    4 1 3 6 2 ...

Tag pairs
    One per line: ``[Name "value"]``; inside the value ``\\"`` is a quote and ``\\\\`` a backslash.
    Names are letters, digits and ``_``; a name may appear only once per record.

    - ``Event``, ``Round``: free text (optional).
    - ``White``, ``Black``: the match's players; White is player A, who starts sets 1, 3, 5, … and
      Black is player B (003 "Turnuva maçı"). Optional (default ``?``).
    - ``Set``: the set number in the match, 1, 2, 3, … (optional).
    - ``Starter``: who moved first in this set: the White or Black name, or the word ``White`` /
      ``Black``. Optional: defaults to the starter of ``Set`` (White in odd sets, Black in even sets), or
      White without a ``Set``. A Starter that contradicts the Set number is an error.
    - ``Variant``: ``federation`` (default) or ``kale`` (004).
    - ``Result``: the recorded stones ``W-B`` in **White-Black order** (like PGN, and like the ``(A, B)``
      pairs of :func:`games.engine.match_result`) — e.g. ``36-12``; the two must sum to 48. ``*`` means
      no result yet. Required.
    - ``Termination``: ``completed`` (default), ``first_withdrew`` or ``second_withdrew`` — *first* and
      *second* are the set's first and second mover (the Starter and the other player), Kural 14.5.
    - Any other tag is kept as it is (``GameRecord.extra_tags``).

Move text
    The pits played, in order, as numbers 1..6 counted from the mover's own left, separated by spaces
    or line breaks; an extra turn is just the next number (the same player moves again, Kural 13A).
    The move text may end with the result token (``36-12`` or ``*``), which must then equal the
    ``Result`` tag. ``;`` starts a comment running to the end of the line.

Errors raise :class:`games.engine.NotationError` whose message starts with ``line N:`` (1-based).
Moves are only checked against the rules by :meth:`GameRecord.validate` (or ``parse(..., validate=True)``),
whose errors also name the line of the offending move.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from .errors import EngineMessage as _m
from .errors import IncompleteRecordError, NotationError, RulesError, gettext_noop, message_of
from .game import Variant
from .results import SetResult, Side, set_starter
from .validate import validate_record

__all__ = ["GameRecord", "Termination", "parse", "write", "write_record"]

_TAG_RE = re.compile(r'^\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]$')
_RESULT_RE = re.compile(r"^(\d{1,2})-(\d{1,2})$")
_KNOWN = ("Event", "Round", "White", "Black", "Set", "Starter", "Variant", "Result", "Termination")
_PIT_RANGE = gettext_noop("move %(n)s: pit must be 1..6, not %(pit)s")


class Termination:
    """Values of the ``Termination`` tag (Kural 14.5)."""

    COMPLETED = "completed"
    FIRST_WITHDREW = "first_withdrew"
    SECOND_WITHDREW = "second_withdrew"
    ALL = (COMPLETED, FIRST_WITHDREW, SECOND_WITHDREW)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One set record.

    ``result``: recorded stones (White, Black), or ``None`` for ``*``. ``starter``: ``"white"`` or
    ``"black"`` — who moved first in this set; ``None`` on construction means the starter of
    ``set_number`` (White without one). ``moves``: pit numbers 1..6. ``line``: line number of the
    record's first line when parsed (0 otherwise); ``move_lines``: the line of each move.
    Raises :class:`NotationError` for inconsistent fields (a starter contradicting the set number,
    a result not summing to 48, an unknown termination, a pit outside 1..6).
    """

    def __post_init__(self) -> None:
        by_set = None
        if self.set_number is not None:
            if self.set_number.__class__ is not int or self.set_number < 1:
                raise NotationError(_m(gettext_noop("set number must be a positive integer, not %(value)r"),
                                       value=self.set_number), self.line)
            by_set = "white" if set_starter(self.set_number) == 0 else "black"
        if self.starter is None:
            object.__setattr__(self, "starter", by_set or "white")
        elif self.starter not in ("white", "black"):
            raise NotationError(_m(gettext_noop("starter must be 'white' or 'black', not %(value)r"),
                                   value=self.starter), self.line)
        elif by_set is not None and self.starter != by_set:
            if self.starter == "white":
                template = gettext_noop("white cannot start set %(n)s: black does (003 \"Turnuva maçı\")")
            else:
                template = gettext_noop("black cannot start set %(n)s: white does (003 \"Turnuva maçı\")")
            raise NotationError(_m(template, n=self.set_number), self.line)
        object.__setattr__(self, "variant", Variant.parse(self.variant))
        if self.result is not None:
            w, b = self.result
            if not (w.__class__ is int and b.__class__ is int and 0 <= w <= 48 and 0 <= b <= 48 and w + b == 48):
                raise NotationError(_m(gettext_noop("result %(w)s-%(b)s must be stones summing to 48 (Kural 1)"),
                                       w=w, b=b), self.line)
        if self.termination not in Termination.ALL:
            raise NotationError(_m(gettext_noop("unknown termination %(value)r"), value=self.termination), self.line)
        object.__setattr__(self, "moves", tuple(self.moves))
        for n, pit in enumerate(self.moves, start=1):
            if pit.__class__ is not int or not 1 <= pit <= 6:
                raise NotationError(_m(_PIT_RANGE, n=n, pit=repr(pit)), self.line)

    white: str = "?"
    black: str = "?"
    result: tuple[int, int] | None = None
    moves: tuple[int, ...] = ()
    event: str = ""
    round: str = ""
    set_number: int | None = None
    starter: str | None = None
    variant: Variant = Variant.FEDERATION
    termination: str = Termination.COMPLETED
    extra_tags: tuple[tuple[str, str], ...] = ()
    line: int = field(default=0, compare=False)
    move_lines: tuple[int, ...] = field(default=(), compare=False)

    @property
    def withdrawn_by(self) -> Side | None:
        """``"first"``/``"second"`` mover who withdrew, or ``None``."""
        if self.termination == Termination.FIRST_WITHDREW:
            return "first"
        if self.termination == Termination.SECOND_WITHDREW:
            return "second"
        return None

    @property
    def first_second_stones(self) -> tuple[int, int] | None:
        """The recorded stones in set order (first mover, second mover)."""
        if self.result is None:
            return None
        w, b = self.result
        return (w, b) if self.starter == "white" else (b, w)

    def validate(self) -> SetResult:
        """Replay the moves and check the Result/Termination (:func:`games.engine.validate_record`).

        Errors are :class:`NotationError` prefixed with the line of the offending move (the last move
        for a record that stops early; the record's first line for a stone mismatch), the original rule
        error chained as ``__cause__``.
        """
        if self.result is None:
            raise NotationError(_m(gettext_noop("the record has no result (Result \"*\")")), self.line)
        first, second = self.first_second_stones  # type: ignore[misc]
        try:
            return validate_record(
                self.moves,
                variant=self.variant,
                first_stones=first,
                second_stones=second,
                withdrawn_by=self.withdrawn_by,
            )
        except RulesError as exc:
            line = self.line
            m = re.match(r"ply (\d+):", str(exc))
            if m and self.move_lines:  # the line of the offending move
                ply = int(m.group(1))
                line = self.move_lines[min(ply, len(self.move_lines)) - 1]
            elif isinstance(exc, IncompleteRecordError) and self.move_lines:  # where the moves stop
                line = self.move_lines[-1]
            raise NotationError(message_of(exc), line) from exc


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _result_text(result: tuple[int, int] | None) -> str:
    return "*" if result is None else f"{result[0]}-{result[1]}"


def _parse_result(text: str, line: int) -> tuple[int, int] | None:
    if text.strip() == "*":
        return None
    m = _RESULT_RE.match(text.strip())
    if not m:
        raise NotationError(_m(gettext_noop("Result must look like 36-12 (White-Black stones) or *, not %(value)r"),
                               value=text), line)
    w, b = int(m.group(1)), int(m.group(2))
    if w + b != 48:
        raise NotationError(_m(gettext_noop("Result %(w)s-%(b)s sums to %(sum)s, not 48 stones (Kural 1)"),
                               w=w, b=b, sum=w + b), line)
    return (w, b)


class _Builder:
    def __init__(self, line: int) -> None:
        self.line = line
        self.tags: dict[str, tuple[str, int]] = {}
        self.moves: list[int] = []
        self.move_lines: list[int] = []
        self.result_token: tuple[str, int] | None = None

    def add_tag(self, name: str, value: str, line: int) -> None:
        if name in self.tags:
            raise NotationError(_m(gettext_noop("tag %(name)s appears twice in one record"), name=name), line)
        self.tags[name] = (value, line)

    def add_moves(self, text: str, line: int) -> None:
        for token in text.split():
            if self.result_token is not None:
                raise NotationError(_m(gettext_noop("%(token)r after the result token %(result)r"), token=token,
                                       result=self.result_token[0]), line)
            if token.isascii() and token.isdigit():
                pit = int(token)
                if not 1 <= pit <= 6:
                    raise NotationError(_m(_PIT_RANGE, n=len(self.moves) + 1, pit=token), line)
                self.moves.append(pit)
                self.move_lines.append(line)
            elif token == "*" or _RESULT_RE.match(token):
                self.result_token = (token, line)
            else:
                raise NotationError(_m(gettext_noop("move %(n)s: %(token)r is not a pit number 1..6"),
                                       n=len(self.moves) + 1, token=token), line)

    def build(self) -> GameRecord:
        tags = self.tags

        def get(name: str, default: str = "") -> str:
            return tags[name][0] if name in tags else default

        def line_of(name: str) -> int:
            return tags[name][1] if name in tags else self.line

        if "Result" not in tags:
            raise NotationError(_m(gettext_noop("the record has no [Result] tag")), self.line)
        result = _parse_result(get("Result"), line_of("Result"))
        if self.result_token is not None:
            token, tline = self.result_token
            if _parse_result(token, tline) != result:
                raise NotationError(_m(gettext_noop("result token %(token)s differs from the Result tag %(tag)r"),
                                       token=token, tag=get("Result")), tline)
        try:
            variant = Variant.parse(get("Variant", "federation"))
        except RulesError as exc:
            raise NotationError(message_of(exc), line_of("Variant")) from None
        set_number = None
        if "Set" in tags:
            text = get("Set").strip()
            if not text.isdigit() or int(text) < 1:
                raise NotationError(_m(gettext_noop("Set must be a positive number, not %(value)r"), value=get("Set")),
                                    line_of("Set"))
            set_number = int(text)
        white, black = get("White", "?"), get("Black", "?")
        by_set = None if set_number is None else ("white" if set_starter(set_number) == 0 else "black")
        if "Starter" in tags:
            value = get("Starter")
            candidates = set()
            if value == white or value.lower() == "white":
                candidates.add("white")
            if value == black or value.lower() == "black":
                candidates.add("black")
            if not candidates:
                raise NotationError(_m(gettext_noop("Starter %(value)r is neither White %(white)r nor Black %(black)r"),
                                       value=value, white=white, black=black), line_of("Starter"))
            if by_set is not None and by_set not in candidates:
                if by_set == "white":
                    template = gettext_noop("Starter %(value)r contradicts Set %(n)s: set %(n)s is started by White "
                                            "(003 \"Turnuva maçı\")")
                else:
                    template = gettext_noop("Starter %(value)r contradicts Set %(n)s: set %(n)s is started by Black "
                                            "(003 \"Turnuva maçı\")")
                raise NotationError(_m(template, value=value, n=set_number), line_of("Starter"))
            starter = next(iter(candidates)) if len(candidates) == 1 else (by_set or "white")
        else:
            starter = by_set or "white"
        termination = get("Termination", Termination.COMPLETED).strip().lower()
        if termination not in Termination.ALL:
            if termination in ("agreed", "draw", "agreed_draw"):
                raise NotationError(
                    _m(gettext_noop("there are no agreed draws (Kural 14.6): Termination must be completed, "
                                    "first_withdrew or second_withdrew")),
                    line_of("Termination"),
                )
            raise NotationError(
                _m(gettext_noop("Termination must be completed, first_withdrew or second_withdrew, not %(value)r"),
                   value=termination),
                line_of("Termination"),
            )
        extra = tuple((k, v) for k, (v, _) in tags.items() if k not in _KNOWN)
        return GameRecord(
            white=white,
            black=black,
            result=result,
            moves=tuple(self.moves),
            event=get("Event"),
            round=get("Round"),
            set_number=set_number,
            starter=starter,
            variant=variant,
            termination=termination,
            extra_tags=extra,
            line=self.line,
            move_lines=tuple(self.move_lines),
        )


def parse(text: str, *, validate: bool = False) -> list[GameRecord]:
    """Parse every record in ``text`` (see the module docstring for the format).

    With ``validate=True`` each record is also replayed and checked (:meth:`GameRecord.validate`).
    Raises :class:`NotationError` ("line 12: ...") for the first problem found.
    """
    records: list[GameRecord] = []
    current: _Builder | None = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.split(";", 1)[0].strip()
        if lineno == 1:
            line = line.lstrip("\ufeff")
        if not line:
            continue
        if line.startswith("["):
            m = _TAG_RE.match(line)
            if not m:
                raise NotationError(_m(gettext_noop('malformed tag pair %(line)r: expected [Name "value"]'), line=line),
                                    lineno)
            if current is not None and (current.moves or current.result_token):
                records.append(current.build())
                current = None
            if current is None:
                current = _Builder(lineno)
            current.add_tag(m.group(1), _unescape(m.group(2)), lineno)
        else:
            if current is None:
                raise NotationError(_m(gettext_noop("move text before any tag pair (a record starts with its tags)")),
                                    lineno)
            current.add_moves(line, lineno)
    if current is not None:
        records.append(current.build())
    if validate:
        for record in records:
            record.validate()
    return records


def write_record(record: GameRecord, *, width: int = 79) -> str:
    """The text of one record (tags, a blank line, the moves wrapped at ``width``, the result token),
    ending with a newline. ``parse(write_record(r)) == [r]``."""
    tags: list[tuple[str, str]] = []
    if record.event:
        tags.append(("Event", record.event))
    if record.round:
        tags.append(("Round", record.round))
    tags.append(("White", record.white))
    tags.append(("Black", record.black))
    if record.set_number is not None:
        tags.append(("Set", str(record.set_number)))
    tags.append(("Starter", record.white if record.starter == "white" else record.black))
    if record.white == record.black:  # a name cannot tell them apart
        tags[-1] = ("Starter", record.starter.capitalize())
    tags.append(("Variant", Variant.parse(record.variant).value))
    tags.append(("Result", _result_text(record.result)))
    tags.append(("Termination", record.termination))
    tags.extend(record.extra_tags)
    lines = [f'[{name} "{_escape(value)}"]' for name, value in tags]
    lines.append("")
    tokens = [str(m) for m in record.moves] + [_result_text(record.result)]
    current = ""
    for token in tokens:
        if current and len(current) + 1 + len(token) > width:
            lines.append(current)
            current = token
        else:
            current = f"{current} {token}" if current else token
    lines.append(current)
    return "\n".join(lines) + "\n"


def write(records: Iterable[GameRecord]) -> str:
    """Several records, separated by blank lines."""
    return "\n".join(write_record(r) for r in records)
