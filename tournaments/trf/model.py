"""The TRF file as Python values: result codes, tags, columns, the dataclasses of a file (tournament,
player line, round cell, forbidden pair, bye ahead, inference), and the reader's messages and error.

Pure Python, no Django imports (the whole TRF-16 core is: :mod:`tournaments.trf.reader`,
:mod:`tournaments.trf.extensions`, :mod:`tournaments.trf.scoring`, :mod:`tournaments.trf.writer`).

Errors
------
Anything that cannot be read raises :class:`TrfError` (a ``ValueError``) whose ``str()`` is
``"line 17: <reason>"``; ``.line`` and ``.column`` are 1-based (``None`` when not about a
particular line/column).

Messages are English (``str(err)`` for logs).  Every reason, warning and note the reader makes is
a :class:`TrfMessage`: the English ``str`` that also keeps its template (marked with
:func:`gettext_noop`, so ``makemessages`` extracts it) and params, which
:mod:`tournaments.trf.messages` renders in the user's language (``"satır 17: ..."``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = [
    "BYE_CODES",
    "EXTENSION_TAGS",
    "MAX_NUMBER_DIGITS",
    "MAX_PLAYERS",
    "POINT_KEYS",
    "RESULT_CODES",
    "STANDARD_POINTS",
    "Inference",
    "TrfBye",
    "TrfError",
    "TrfForbidden",
    "TrfMessage",
    "TrfPlayer",
    "TrfResult",
    "TrfTournament",
    "gettext_noop",
]

#: Result codes accepted in a round cell ("" is a blank code).  TRF-16, C.04 Annex 2.
RESULT_CODES = frozenset({"1", "0", "=", "+", "-", "W", "D", "L", "H", "F", "U", "Z", ""})
#: Codes that only make sense without an opponent (byes); TRF-16.
BYE_CODES = frozenset({"H", "F", "U", "Z"})

_WIN_CODES = frozenset({"1", "+", "W", "F"})
_DRAW_CODES = frozenset({"=", "D", "H"})
_LOSS_CODES = frozenset({"0", "-", "L", "Z"})

# Single-valued header tags and the TrfTournament attribute each fills (TRF-16 "??2" tags).
# Result pairs of the two players of one game that agree with each other.
_MATCHING_CODES = frozenset({("1", "0"), ("0", "1"), ("=", "="), ("+", "-"), ("-", "+"), ("-", "-"),
                             ("W", "L"), ("L", "W"), ("D", "D"), ("0", "0"), ("", "")})

_HEADER_TAGS: dict[str, str] = {
    "012": "name",
    "022": "city",
    "032": "federation",
    "042": "start_date",
    "052": "end_date",
    "062": "num_players",
    "072": "num_rated",
    "092": "tournament_type",
    "102": "chief_arbiter",
    "122": "time_control",
}
_CANONICAL_HEADER_ORDER = ["012", "022", "032", "042", "052", "062", "072", "092", "102", "112", "122", "132"]

#: Player lines a file may hold: starting numbers have 4 columns (5-8).
MAX_PLAYERS = 9999
#: Digits a number of a header line (XXR, 062, 072) may have.
MAX_NUMBER_DIGITS = 9
#: Control characters refused in any line (a tab counts as one column and is allowed; line
#: breaks split lines): C0 but tab, DEL, and the Unicode line/paragraph separators.  C1
#: characters (U+0080-U+009F) are read: a Latin-1 file may hold them as bytes 0x80-0x9F.
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f\u2028\u2029]")
#: The same plus tab: replaced by a space when writing leniently (``dump_trf(truncate=True)``).
_CONTROL_OR_TAB = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")

_FIRST_ROUND_COL = 92  # 1-based column of round 1's opponent field
_ROUND_WIDTH = 10
_LINE_SPLIT = re.compile(r"\r\n|\r|\n")
_DIGITS = re.compile(r"[0-9]+")
_POINTS = re.compile(r"[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+")  # "3.5", "10", "3,5", ".5"


def _is_number(s: str) -> bool:
    """True for ASCII digits only (``str.isdigit`` also accepts e.g. superscripts)."""
    return _DIGITS.fullmatch(s) is not None


def gettext_noop(s: str) -> str:
    """Mark a message template for translation (``makemessages`` extracts the literal) and return it
    unchanged: this module stays free of Django, the templates are rendered in the user's language by
    :mod:`tournaments.trf.messages`."""
    return s


class TrfMessage(str):
    """A message in English (the ``str`` itself, for logs and for comparing) that also keeps its
    ``template`` (marked with :func:`gettext_noop`, ``%(name)s`` placeholders) and ``params``, so that a
    caller with a translation catalogue can render it in another language
    (:func:`tournaments.trf.messages.trf_text`).  A parameter may itself be a :class:`TrfMessage` (a
    field name, a cell description), rendered in the same language.  Numbers that need a format are
    given as formatted strings."""

    template: str
    params: dict

    def __new__(cls, template: str, /, **params: object) -> TrfMessage:
        obj = super().__new__(cls, template % params if params else template)
        obj.template = template
        obj.params = params
        return obj


_m = TrfMessage


def _at_line(no: int, reason: str) -> TrfMessage:
    """``"line 17: <reason>"`` as a message (the prefix of :class:`TrfError` and of the warnings)."""
    return _m(gettext_noop("line %(line)s: %(reason)s"), line=no, reason=reason)


class TrfError(ValueError):
    """A TRF file (or a value to be written as TRF) is malformed.

    ``line`` and ``column`` are 1-based or ``None``; ``reason`` is the bare message and
    ``str(err)`` is ``"line 17: <reason>"`` (just ``reason`` when ``line`` is ``None``), in English.
    ``reason`` is a :class:`TrfMessage` when raised here: ``template`` and ``params`` (also on the
    error) let :func:`tournaments.trf.messages.trf_error_message` say it in the user's language.
    ``source`` names the file (the ``source=`` given to :func:`tournaments.trf.reader.parse_trf`), for callers that
    want to prefix it.
    """

    def __init__(self, reason: str, *, line: int | None = None, column: int | None = None,
                 source: str | None = None) -> None:
        self.reason = reason
        self.template: str = getattr(reason, "template", str(reason))
        self.params: dict = dict(getattr(reason, "params", {}))
        self.line = line
        self.column = column
        self.source = source
        super().__init__(f"line {line}: {reason}" if line is not None else reason)


@dataclass(slots=True)
class TrfResult:
    """One round cell of a player line.

    ``round`` is 1-based; ``opponent`` is the opponent's starting number, ``None`` for
    ``0000`` or a blank opponent field; ``colour`` is ``"w"``, ``"b"`` or ``None`` (``-`` or
    blank); ``code`` is one of :data:`RESULT_CODES` (``""`` = blank code).  ``raw`` is the
    8-character cell text as read (``""`` when built in code); it is not compared.
    """

    round: int
    opponent: int | None
    colour: str | None
    code: str
    raw: str = field(default="", compare=False, repr=False)

    @property
    def is_blank(self) -> bool:
        """True for a cell with no opponent, no colour and no code (e.g. a late entrant's round)."""
        return self.opponent is None and self.colour is None and self.code == ""


@dataclass(slots=True)
class TrfPlayer:
    """A ``001`` line.  Text fields are stripped; ``rating`` 0 means unrated/blank.

    ``points`` is the published points column (``None`` if blank), ``rank`` the published
    rank (``None`` if blank), ``results`` the round cells in round order (``results[i].round
    == i + 1``; trailing empty cells are not listed), ``line`` the 1-based line number in the
    file (0 when built in code).
    """

    start_no: int
    sex: str = ""
    title: str = ""
    name: str = ""
    rating: int = 0
    federation: str = ""
    fide_id: str = ""
    birth_date: str = ""
    points: float | None = None
    rank: int | None = None
    results: list[TrfResult] = field(default_factory=list)
    line: int = field(default=0, compare=False)

    def result(self, round_: int) -> TrfResult | None:
        """The cell of 1-based round ``round_``, or ``None`` when the line has no such cell."""
        if 1 <= round_ <= len(self.results):
            return self.results[round_ - 1]
        return None


@dataclass(frozen=True, slots=True)
class TrfForbidden:
    """Players who may not be paired with each other (every two of ``players``), in rounds
    ``first_round`` .. ``last_round`` (1-based, ``None`` = to the end).

    From an ``XXP`` line (JaVaFo/bbpPairings extension: ``XXP 12 15 ...``, every round) or a
    TRF-2026 ``260`` line (``260 RRR RRR PPPP PPPP ...``: first and last round, then players in
    5-column steps).  ``line`` is the 1-based line number (0 when built in code).
    """

    players: tuple[int, ...]
    first_round: int = 1
    last_round: int | None = None
    line: int = field(default=0, compare=False)
    tag: str = field(default="XXP", compare=False)


@dataclass(frozen=True, slots=True)
class TrfBye:
    """A bye or absence assigned ahead (TRF-2026 ``240 T RRR PPPP PPPP ...``): ``kind`` is the
    result code it stands for (``"H"``, ``"F"``, ``"Z"`` or ``"U"``), ``round`` 1-based."""

    kind: str
    round: int
    start_no: int
    line: int = field(default=0, compare=False)


#: Tags :func:`tournaments.trf.extensions.read_extensions` reads (besides what
#: :func:`tournaments.trf.reader.parse_trf` reads itself).
EXTENSION_TAGS = ("XXA", "XXP", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU", "142", "152", "162", "192",
                  "240", "250", "260", "XXK", "XXM")
#: Keys of :attr:`TrfTournament.point_system`: W win, D draw, L loss, Z zero-point bye,
#: F forfeit loss, U pairing-allocated bye (``BBW`` .. ``BBU``; ``162`` uses ``P`` for U).
POINT_KEYS = ("W", "D", "L", "Z", "F", "U")
#: Standard values (1-½-0; RULES.md match scoring).
STANDARD_POINTS = {"W": 1.0, "D": 0.5, "L": 0.0, "Z": 0.0, "F": 0.0, "U": 1.0}


@dataclass(slots=True)
class TrfTournament:
    """A whole TRF file.

    Header fields are the stripped texts of tags 012 (name), 022 (city), 032 (federation),
    042/052 (start/end date, as written), 062/072 (numbers of players / rated players, ``None``
    if absent or blank), 092 (type), 102 (chief arbiter), 112 (deputy arbiters, one per line),
    122 (time control), 132 (round dates, as written).  ``total_rounds`` is the ``XXR`` value;
    ``xxc`` the tokens of all ``XXC`` lines.  ``extra_lines`` holds every other line verbatim
    (including blank lines and TRF-2026 tags such as ``142``).  ``encoding`` is the encoding the
    bytes were decoded with (``"str"`` for text input); ``warnings`` lists oddities that did not
    stop the parse (``"line 17: ..."``: lines laid out in byte columns, game results that do not
    match, e.g. both players scored ``1``; :class:`TrfMessage` texts); ``layout`` records the
    original line order for :func:`tournaments.trf.writer.dump_trf`; ``tag_lines`` maps a tag (``"012"``,
    ``"XXR"``, ``"132"``, ...) to the 1-based line it was read from, first occurrence (none of these four is compared).
    ``extra_line_numbers[i]`` is the line number of ``extra_lines[i]``.

    Extensions (read by :func:`tournaments.trf.extensions.read_extensions`, which
    :func:`tournaments.trf.reader.parse_trf` calls; their lines stay in ``extra_lines`` too): ``forbidden``
    (``XXP``/``260``), ``accelerations`` (``XXA``/``250``: starting number -> virtual points per round,
    index 0 = round 1), ``byes`` (``240``),
    ``point_system`` (``BBW``..``BBU``/``162``: only the values the file gives, keys
    :data:`POINT_KEYS`), ``initial_colour`` (``152``: ``"w"``/``"b"``), ``pairing_system`` (``192``
    text), ``rounds_142`` (``142``), ``knockout`` and ``knockout_matches`` (``XXK``/``XXM``:
    :mod:`tournaments.trf.bracket`); ``line_of`` maps ``"XXA 4"``, ``"BBU"``, ``"152"`` ... to its line.
    """

    name: str = ""
    city: str = ""
    federation: str = ""
    start_date: str = ""
    end_date: str = ""
    num_players: int | None = None
    num_rated: int | None = None
    tournament_type: str = ""
    chief_arbiter: str = ""
    deputy_arbiters: list[str] = field(default_factory=list)
    time_control: str = ""
    round_dates: list[str] = field(default_factory=list)
    players: list[TrfPlayer] = field(default_factory=list)
    total_rounds: int | None = None
    xxc: list[str] = field(default_factory=list)
    extra_lines: list[str] = field(default_factory=list)
    encoding: str = field(default="utf-8", compare=False, repr=False)
    warnings: list[str] = field(default_factory=list, compare=False, repr=False)
    layout: list[tuple[str, int]] = field(default_factory=list, compare=False, repr=False)
    tag_lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    extra_line_numbers: list[int] = field(default_factory=list, compare=False, repr=False)
    # Extensions read from lines that are also kept verbatim in ``extra_lines`` (see
    # :func:`tournaments.trf.extensions.read_extensions`); a tournament built in code sets them and
    # :func:`tournaments.trf.writer.dump_trf` writes them.
    forbidden: list[TrfForbidden] = field(default_factory=list)
    accelerations: dict[int, list[float]] = field(default_factory=dict)
    byes: list[TrfBye] = field(default_factory=list)
    point_system: dict[str, float] = field(default_factory=dict)
    initial_colour: str | None = None
    pairing_system: str = ""
    rounds_142: int | None = None
    #: a knockout (this program's ``XXK``/``XXM`` lines, :mod:`tournaments.trf.bracket`): its settings and the
    #: boards of its closed rounds
    knockout: dict | None = None
    knockout_matches: list = field(default_factory=list)
    line_of: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def player(self, start_no: int) -> TrfPlayer | None:
        """The player with starting number ``start_no``, or ``None``."""
        for p in self.players:
            if p.start_no == start_no:
                return p
        return None


@dataclass(frozen=True, slots=True)
class Inference:
    """A value :func:`tournaments.trf.scoring.infer_blank_codes` assigns to a blank-coded cell.

    ``value`` is 0.0, 0.5 or 1.0 points for 1-based ``round`` of player ``start_no`` (whose
    ``001`` line is ``line``).  ``reason`` is a short English explanation for reports (a
    :class:`TrfMessage` when made by :func:`tournaments.trf.scoring.infer_blank_codes`); :meth:`message` is
    ``str()`` as a :class:`TrfMessage`.
    """

    start_no: int
    round: int
    value: float
    line: int
    reason: str = ""

    def message(self) -> TrfMessage:
        """``"line 31: player 18 round 3: blank result code counted as 0.5 (...)"`` as a message."""
        return _at_line(self.line, _m(
            gettext_noop("player %(player)s round %(round)s: blank result code counted as %(value)s (%(why)s)"),
            player=self.start_no, round=self.round, value=_fmt_points(self.value), why=self.reason))

    def __str__(self) -> str:
        return str(self.message())


def _fmt_points(x: float) -> str:
    return f"{x:.1f}"
