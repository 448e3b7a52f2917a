"""Reader and writer for the FIDE Tournament Report File (TRF-16, "Krause" format).

Pure Python, no Django imports.  Source: FIDE Handbook C.04 Annex 2 "Format of Tournament
Report File" (TRF-16) and its 2026 revision (TRF-2026, which adds e.g. tag ``142`` = number
of rounds and ``###`` comment lines), plus the JaVaFo/bbpPairings in-tournament extensions
``XXR`` (total number of rounds) and ``XXC`` (configuration tokens such as ``white1``,
``black1`` and ``rank``).

Conventions
-----------
* Columns are **1-based character columns of the decoded text** (not bytes).  Bytes are decoded
  as UTF-8 (a BOM is dropped); when that fails, as cp1254 (Turkish Windows), and failing that,
  as Latin-1.  Line ends may be LF, CRLF or a lone CR (TRF-2026 ends every line with CR).
* Player line (tag ``001``), TRF-16 layout::

      1-3   "001"            5-8   starting number      10     sex
      11-13 title            15-47 name                 49-52  rating
      54-56 federation       58-68 FIDE id              70-79  birth date
      81-84 points           86-89 rank
      round i (1-based) occupies columns 92+10*(i-1) .. 99+10*(i-1):
          4-character opponent (starting number, "0000" or blank), space,
          colour ("w", "b", "-" or blank), space, result code.

* Result codes (TRF-16): ``1 0 =`` played win/loss/draw, ``+ -`` forfeit win/loss,
  ``W D L`` win/draw/loss of a game lasting less than one move (rated as unplayed),
  ``H`` half-point bye, ``F`` full-point bye, ``U`` pairing-allocated bye,
  ``Z`` zero-point bye, blank = unknown / not entered.  See :func:`code_points`.
* A :class:`TrfResult` with ``opponent=None`` is a bye / absence / blank cell; the cell text
  is kept in ``raw`` so that :func:`dump_trf` reproduces it byte for byte when unchanged.
* Lines this module does not interpret (tags 082, 142, 152, 162, 192, 013, 2xx, 3xx, ``XXP``,
  ``BB?``, ``DAT``, ``###`` comments, blank lines, ...) are kept verbatim (less trailing
  whitespace) in
  :attr:`TrfTournament.extra_lines` together with their position in the file.

Errors
------
Anything that cannot be read raises :class:`TrfError` (a ``ValueError``) whose ``str()`` is
``"line 17: <reason>"``; ``.line`` and ``.column`` are 1-based (``None`` when not about a
particular line/column).  Besides the field checks, the reader refuses: a control character
(NUL, the other C0 characters but tab, DEL, U+2028/U+2029) anywhere in a line, naming its
column; a number of more than :data:`MAX_NUMBER_DIGITS` digits (``XXR``, ``062``, ``072``); more
than :data:`MAX_PLAYERS` player lines.  Limits of a particular database (e.g. at most 99
rounds) are the importer's business (:mod:`tournaments.trf.exchange`).

Messages are English (``str(err)`` for logs).  Every reason, warning and note this module makes is
a :class:`TrfMessage`: the English ``str`` that also keeps its template (marked with
:func:`gettext_noop`, so ``makemessages`` extracts it) and params, which
:mod:`tournaments.trf.messages` renders in the user's language (``"satır 17: ..."``).
"""
from __future__ import annotations

import dataclasses
import math
import os
import re
import unicodedata
from dataclasses import dataclass, field

__all__ = [
    "RESULT_CODES",
    "Inference",
    "TrfError",
    "TrfMessage",
    "TrfPlayer",
    "TrfResult",
    "TrfTournament",
    "TrfForbidden",
    "TrfBye",
    "code_points",
    "extension_lines",
    "read_extensions",
    "unread_lines",
    "computed_points",
    "declared_type",
    "dump_trf",
    "infer_blank_codes",
    "parse_trf",
    "played_rounds",
    "read_trf",
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
    ``source`` names the file (the ``source=`` given to :func:`parse_trf`), for callers that
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


#: Tags :func:`read_extensions` reads (besides what :func:`parse_trf` reads itself).
EXTENSION_TAGS = ("XXA", "XXP", "BBW", "BBD", "BBL", "BBZ", "BBF", "BBU", "142", "152", "162", "192",
                  "240", "250", "260")
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
    original line order for :func:`dump_trf`; ``tag_lines`` maps a tag (``"012"``, ``"XXR"``, ``"132"``, ...) to the
    1-based line it was read from, first occurrence (none of these four is compared).
    ``extra_line_numbers[i]`` is the line number of ``extra_lines[i]``.

    Extensions (read by :func:`read_extensions`, which :func:`parse_trf` calls; their lines stay
    in ``extra_lines`` too): ``forbidden`` (``XXP``/``260``), ``accelerations`` (``XXA``/``250``:
    starting number -> virtual points per round, index 0 = round 1), ``byes`` (``240``),
    ``point_system`` (``BBW``..``BBU``/``162``: only the values the file gives, keys
    :data:`POINT_KEYS`), ``initial_colour`` (``152``: ``"w"``/``"b"``), ``pairing_system`` (``192``
    text), ``rounds_142`` (``142``); ``line_of`` maps ``"XXA 4"``, ``"BBU"``, ``"152"`` ... to its line.
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
    # :func:`read_extensions`); a tournament built in code sets them and :func:`dump_trf` writes them.
    forbidden: list[TrfForbidden] = field(default_factory=list)
    accelerations: dict[int, list[float]] = field(default_factory=dict)
    byes: list[TrfBye] = field(default_factory=list)
    point_system: dict[str, float] = field(default_factory=dict)
    initial_colour: str | None = None
    pairing_system: str = ""
    rounds_142: int | None = None
    line_of: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def player(self, start_no: int) -> TrfPlayer | None:
        """The player with starting number ``start_no``, or ``None``."""
        for p in self.players:
            if p.start_no == start_no:
                return p
        return None


@dataclass(frozen=True, slots=True)
class Inference:
    """A value :func:`infer_blank_codes` assigns to a blank-coded cell.

    ``value`` is 0.0, 0.5 or 1.0 points for 1-based ``round`` of player ``start_no`` (whose
    ``001`` line is ``line``).  ``reason`` is a short English explanation for reports (a
    :class:`TrfMessage` when made by :func:`infer_blank_codes`); :meth:`message` is ``str()`` as a
    :class:`TrfMessage`.
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


# --------------------------------------------------------------------------------------------
# Points


def code_points(code: str, *, pab_points: float = 1.0) -> float | None:
    """Points a result code is worth (TRF-16 codes, standard 1-½-0 scoring).

    ``"1" "+" "W" "F"`` -> 1.0; ``"=" "D" "H"`` -> 0.5; ``"0" "-" "L" "Z"`` -> 0.0;
    ``"U"`` (pairing-allocated bye) -> ``pab_points``; ``""`` (blank) -> ``None`` (unknown).
    Raises :class:`TrfError` for anything else.
    """
    if code in _WIN_CODES:
        return 1.0
    if code in _DRAW_CODES:
        return 0.5
    if code in _LOSS_CODES:
        return 0.0
    if code == "U":
        return float(pab_points)
    if code == "":
        return None
    raise TrfError(_m(gettext_noop("%(code)r is not a TRF result code"), code=code))


def played_rounds(t: TrfTournament) -> int:
    """Number of rounds that have been played (or at least paired), 0 if none.

    The last round with a game in it: some cell names an opponent.  Cells without an opponent —
    byes of any kind (``U H F Z``, ``0000 - +``), absences, blank cells of withdrawn players — do
    not make a round played: byes written ahead for the round about to be paired (a
    pairing-allocated bye ``0000 - U`` included) belong to that round, so a file made to pair
    round N gives N-1 (issue 10: the round to pair is the first round with games to make).
    A file whose only "round" holds byes and no game gives 0.
    """
    last = 0
    for p in t.players:
        for r in p.results:
            if r.round > last and r.opponent is not None:
                last = r.round
    return last


def declared_type(text: str) -> tuple[str | None, bool, bool]:
    """``(system, double round robin, team event)`` that a ``092`` text declares: ``system`` is
    ``"swiss"``, ``"round_robin"`` or ``None`` when the text says neither (or is blank).

    Round robin: "Round robin", "Individual: Round-Robin", "Berger", "all-play-all", "RR", Turkish
    "devreli" ("double"/"DRR"/"çift" make it a double round robin); Swiss: "Swiss", "Individual:
    Swiss-System", "Dutch", "İsviçre"; a team event: "Team", "Takım".
    """
    low = unicodedata.normalize("NFC", (text or "").casefold()).replace("\u0307", "").replace("ı", "i")
    if re.search(r"\bteam|takim", low):
        return None, False, True
    if re.search(r"round[\s_-]*robin|berger|all[\s_-]*play[\s_-]*all|\b[d2]?rr\b|devreli", low):
        return "round_robin", bool(re.search(r"double|\b[d2]rr\b|çift|cift|two cycles", low)), False
    if re.search(r"swiss|isviçre|isvicre|dutch|dubov|burstein", low):
        return "swiss", False, False
    return None, False, False


def _fmt_points(x: float) -> str:
    return f"{x:.1f}"


def _is_step(x: float) -> bool:
    return any(math.isclose(x, v, abs_tol=1e-9) for v in (0.0, 0.5, 1.0))


def infer_blank_codes(t: TrfTournament, *, pab_points: float = 1.0) -> list[Inference]:
    """Values the published points column implies for blank-coded cells.

    For each player with cells whose result code is blank (``0000 -`` byes without a code,
    ``      -`` cells, blank cells of late entrants, paired games without a result):
    ``remaining = points - sum(code_points(known codes))``.

    * *Trailing absences* are blank-coded cells after the player's last cell with a known code
      whose opponent field is blank (withdrawn players).  The others are *interior* cells.
    * ``remaining`` is split equally over the interior cells, trailing absences counting 0.0;
      if that split is not 0, ½ or 1 each, it is split equally over all blank cells instead.
      (When the points already add up, every blank cell gets 0.0.)
    * If no equal split gives 0, ½ or 1 per cell, or the points column is blank, a
      :class:`TrfError` naming the player's line is raised.

    Returns the inferences in file order (player line, then round).  ``pab_points`` is what a
    ``U`` code is worth.
    """
    out: list[Inference] = []
    for p in sorted(t.players, key=lambda q: q.line):
        blanks = [r for r in p.results if r.code == ""]
        if not blanks:
            continue
        if p.points is None:
            raise TrfError(_m(gettext_noop("player %(player)s has blank result codes but a blank points column, "
                                           "so they cannot be inferred"), player=p.start_no),
                           line=p.line or None, column=81)
        known = sum(code_points(r.code, pab_points=pab_points) or 0.0 for r in p.results if r.code)
        remaining = p.points - known
        last_known = max((r.round for r in p.results if r.code), default=0)
        trailing = [r for r in blanks if r.round > last_known and r.opponent is None
                    and (r.raw[:4].strip() == "" if r.raw else True)]
        trailing_rounds = {r.round for r in trailing}
        interior = [r for r in blanks if r.round not in trailing_rounds]
        values: dict[int, tuple[float, str]] = {}
        if abs(remaining) < 1e-9:
            for r in blanks:
                why = (_m(gettext_noop("absent (withdrawn)")) if r.round in trailing_rounds
                       else _m(gettext_noop("points column already adds up")))
                values[r.round] = (0.0, why)
        else:
            done = False
            if interior:
                v = remaining / len(interior)
                if _is_step(v):
                    for r in interior:
                        values[r.round] = (round(v * 2) / 2, _why(r, remaining, len(interior)))
                    for r in trailing:
                        values[r.round] = (0.0, _m(gettext_noop("absent (withdrawn); points column already adds up")))
                    done = True
            if not done:
                v = remaining / len(blanks)
                if _is_step(v):
                    for r in blanks:
                        values[r.round] = (round(v * 2) / 2, _why(r, remaining, len(blanks)))
                    done = True
            if not done:
                rounds = ", ".join(str(r.round) for r in blanks)
                raise TrfError(_m(
                    gettext_noop("player %(player)s: points column %(points)s minus the known results "
                                 "%(known)s leaves %(remaining)s for the blank result codes of round(s) "
                                 "%(rounds)s, which is not 0, 1/2 or 1 point each"),
                    player=p.start_no, points=_fmt_points(p.points), known=_fmt_points(known),
                    remaining=f"{remaining:g}", rounds=rounds),
                    line=p.line or None, column=81)
        for r in blanks:
            v, why = values[r.round]
            out.append(Inference(p.start_no, r.round, v, p.line, why))
    return out


def computed_points(t: TrfTournament, inferences: list[Inference] | None = None, *,
                    pab_points: float = 1.0) -> dict[int, float]:
    """Points of each player (by starting number) from the round cells: the known codes
    (:func:`code_points`) plus the values of ``inferences`` (e.g. from :func:`infer_blank_codes`)
    for blank codes; blank codes without an inference count 0.  Compare with
    :attr:`TrfPlayer.points` to find lines whose points column disagrees with their results.
    """
    totals = {p.start_no: sum(code_points(r.code, pab_points=pab_points) or 0.0 for r in p.results)
              for p in t.players}
    for inf in inferences or ():
        if inf.start_no in totals:
            totals[inf.start_no] += inf.value
    return totals


def _why(r: TrfResult, remaining: float, n: int) -> TrfMessage:
    if r.opponent is not None:
        template = gettext_noop("game without a result; points column leaves %(remaining)s for %(n)s blank cell(s)")
    else:
        template = gettext_noop("bye without a code; points column leaves %(remaining)s for %(n)s blank cell(s)")
    return _m(template, remaining=f"{remaining:g}", n=n)


# --------------------------------------------------------------------------------------------
# Reading


def _decode(data: bytes) -> tuple[str, str]:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for enc in ("utf-8", "cp1254"):
        try:
            return data.decode(enc), enc
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1"), "latin-1"


def read_trf(path: str | os.PathLike[str]) -> TrfTournament:
    """Read and parse the TRF file at ``path`` (see :func:`parse_trf`).

    Raises ``OSError`` when the file cannot be read and :class:`TrfError` when it is malformed.
    """
    with open(path, "rb") as fh:
        data = fh.read()
    return parse_trf(data, source=os.fspath(path))


def parse_trf(data: bytes | str, *, source: str = "<trf>") -> TrfTournament:
    """Parse TRF-16 text (``str``) or file contents (``bytes``, decoded as described in the
    module docstring) into a :class:`TrfTournament`.

    Checks that no line holds a control character, that there is at least one and at most
    :data:`MAX_PLAYERS` ``001`` lines, every ``001`` line field by field, that
    starting numbers are unique, that every opponent exists and that pairings are symmetric
    (same round, each names the other, not the same colour).  Raises :class:`TrfError` with the line (and column) of the first
    problem; ``source`` is stored on the error.
    """
    if isinstance(data, bytes):
        text, encoding = _decode(data)
    else:
        text, encoding = data, "str"
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = _LINE_SPLIT.split(text)
    if lines and lines[-1].strip(" \t") == "":
        lines.pop()  # text ended with a line break
    t = TrfTournament(encoding=encoding)
    seen: dict[int, TrfPlayer] = {}
    try:
        if not any(line.startswith("001") for line in lines):
            raise TrfError(_no_player_lines(len(lines)))
        for no, raw_line in enumerate(lines, start=1):
            bad = _CONTROL.search(raw_line)
            if bad:
                ch = bad.group()
                raise TrfError(_m(gettext_noop("control character U+%(code)s in column %(column)s (a TRF line holds "
                                               "printable text only; is this a TRF file?)"),
                                  code=f"{ord(ch):04X}", column=bad.start() + 1), line=no, column=bad.start() + 1)
            line = raw_line.replace("\t", " ").rstrip(" ")  # a tab is one column, like a space
            tag = line[:3]
            if tag.upper() in ("XXR", "XXC", "132") or tag in _HEADER_TAGS:
                t.tag_lines.setdefault(tag.upper(), no)
            if tag == "001":
                if len(t.players) >= MAX_PLAYERS:
                    raise TrfError(_m(gettext_noop("more than %(n)s player lines (starting numbers have 4 columns)"),
                                      n=MAX_PLAYERS), line=no)
                p = _parse_player_tolerant(line, no, t)
                if p.start_no in seen:
                    raise TrfError(_m(gettext_noop("starting number %(n)s is repeated (first on line %(first)s)"),
                                      n=p.start_no, first=seen[p.start_no].line), line=no, column=5)
                seen[p.start_no] = p
                t.players.append(p)
                t.layout.append(("001", p.start_no))
            elif tag in _HEADER_TAGS and not any(k == tag for k, _ in t.layout):
                attr = _HEADER_TAGS[tag]
                value = line[3:].strip()
                if attr in ("num_players", "num_rated"):
                    setattr(t, attr, _parse_count(value, no, tag))
                else:
                    setattr(t, attr, value)
                t.layout.append((tag, 0))
            elif tag == "112":
                value = line[3:].strip()
                if value:
                    t.deputy_arbiters.append(value)
                t.layout.append(("112", 0))
            elif tag == "132" and not any(k == "132" for k, _ in t.layout):
                t.round_dates = line[3:].split()
                t.layout.append(("132", 0))
            elif tag.upper() == "XXR":
                value = line[3:].strip()
                if _is_number(value) and len(value) > MAX_NUMBER_DIGITS:
                    raise TrfError(_m(gettext_noop("XXR (total number of rounds) %(value)s... has more than "
                                                   "%(n)s digits"), value=value[:20], n=MAX_NUMBER_DIGITS),
                                   line=no, column=5)
                if not _is_number(value) or int(value) < 1:
                    raise TrfError(_m(gettext_noop("XXR (total number of rounds) %(value)r is not a positive number"),
                                      value=value[:40]), line=no, column=5)
                if t.total_rounds is not None:
                    t.extra_lines.append(line)
                    t.extra_line_numbers.append(no)
                    t.layout.append(("x", len(t.extra_lines) - 1))
                    continue
                t.total_rounds = int(value)
                t.layout.append(("XXR", 0))
            elif tag.upper() == "XXC":
                t.xxc.extend(line[3:].split())
                t.layout.append(("XXC", 0))
            else:
                t.extra_lines.append(line)
                t.extra_line_numbers.append(no)
                t.layout.append(("x", len(t.extra_lines) - 1))
        if not t.players:
            raise TrfError(_no_player_lines(len(lines)))
        _check_pairings(t, seen)
        read_extensions(t)
    except TrfError as err:
        err.source = source
        raise
    return t


def _no_player_lines(n: int) -> TrfMessage:
    """The reason for a text without player lines: how many lines were read, and that it is no TRF file."""
    return _m(gettext_noop("no player lines (tag 001) found (lines read: %(n)s); this does not look like a TRF file "
                           "(a TRF file has one line starting with 001 per player)"), n=n)


def _parse_player_tolerant(line: str, no: int, t: TrfTournament) -> TrfPlayer:
    """Parse a 001 line by character columns; if that fails on a UTF-8 line with non-ASCII
    letters, try byte columns (some programs pad names by bytes) and record a warning."""
    try:
        return _parse_player(line, no)
    except TrfError as err:
        if t.encoding not in ("utf-8", "str") or line.isascii():
            raise
        by_bytes = line.encode("utf-8").decode("latin-1")
        try:
            p = _parse_player(by_bytes, no)
            for attr in ("sex", "title", "name", "federation", "fide_id", "birth_date"):
                setattr(p, attr, getattr(p, attr).encode("latin-1").decode("utf-8"))
        except (TrfError, UnicodeDecodeError):
            raise err from None
        t.warnings.append(_at_line(no, _m(gettext_noop("columns are counted in UTF-8 bytes, not characters; "
                                                       "read by byte columns"))))
        return p


def _parse_count(value: str, no: int, tag: str) -> int | None:
    if value == "":
        return None
    if not _is_number(value):
        raise TrfError(_m(gettext_noop("tag %(tag)s: %(value)r is not a number"), tag=tag, value=value[:40]),
                       line=no, column=5)
    if len(value) > MAX_NUMBER_DIGITS:
        raise TrfError(_m(gettext_noop("tag %(tag)s: %(value)s... has more than %(n)s digits"), tag=tag,
                          value=value[:20], n=MAX_NUMBER_DIGITS), line=no, column=5)
    return int(value)


def _require_blank(line: str, col: int, no: int, before: str) -> None:
    ch = line[col - 1:col]
    if ch not in ("", " "):
        raise TrfError(_m(gettext_noop("column %(column)s (before the %(field)s) should be blank but holds "
                                       "%(char)r; is a field too long or the line misaligned?"),
                          column=col, field=before, char=ch), line=no, column=col)


# Names of the fields of a player line, in messages (the English text is the field's name).
_F_START_NO = _m(gettext_noop("starting number"))
_F_SEX = _m(gettext_noop("sex"))
_F_TITLE = _m(gettext_noop("title"))
_F_NAME = _m(gettext_noop("name"))
_F_RATING = _m(gettext_noop("rating"))
_F_FEDERATION = _m(gettext_noop("federation"))
_F_FIDE_ID = _m(gettext_noop("FIDE id"))
_F_BIRTH_DATE = _m(gettext_noop("birth date"))
_F_POINTS = _m(gettext_noop("points"))
_F_RANK = _m(gettext_noop("rank"))
_F_ROUND_1 = _m(gettext_noop("round 1 cell"))


def _parse_player(line: str, no: int) -> TrfPlayer:
    if "\t" in line:
        col = line.index("\t") + 1
        raise TrfError(_m(gettext_noop("tab character in a player line (TRF columns need spaces)")), line=no,
                       column=col)
    start_s = line[4:8].strip()
    if not start_s:
        raise TrfError(_m(gettext_noop("starting number (columns 5-8) is missing")), line=no, column=5)
    if not _is_number(start_s) or int(start_s) == 0:
        raise TrfError(_m(gettext_noop("starting number %(value)r is not a number"), value=start_s), line=no,
                       column=5)
    start_no = int(start_s)
    for col, before in ((4, _F_START_NO), (9, _F_SEX), (14, _F_NAME), (48, _F_RATING),
                        (53, _F_FEDERATION), (57, _F_FIDE_ID), (69, _F_BIRTH_DATE), (80, _F_POINTS),
                        (85, _F_RANK), (90, _F_ROUND_1), (91, _F_ROUND_1)):
        _require_blank(line, col, no, before)
    rating_s = line[48:52].strip()
    if rating_s and not _is_number(rating_s):
        raise TrfError(_m(gettext_noop("rating %(value)r is not a number"), value=rating_s), line=no, column=49)
    points_s = line[80:84].strip()
    points: float | None = None
    if points_s:
        if points_s.startswith("-") and _POINTS.fullmatch(points_s[1:].strip()):
            raise TrfError(_m(gettext_noop("points %(value)r is negative (a player's points are 0 or more)"),
                              value=points_s), line=no, column=81)
        if not _POINTS.fullmatch(points_s):
            raise TrfError(_m(gettext_noop("points %(value)r is not a number"), value=points_s), line=no,
                           column=81)
        points = float(points_s.replace(",", "."))
        if points > 99.5:  # TRF-16 writes points as "99.5" in columns 81-84
            raise TrfError(_m(gettext_noop("points %(value)r is more than a TRF points column holds (99.5)"),
                              value=points_s), line=no, column=81)
    rank_s = line[85:89].strip()
    if rank_s and not _is_number(rank_s):
        raise TrfError(_m(gettext_noop("rank %(value)r is not a number"), value=rank_s), line=no, column=86)
    p = TrfPlayer(
        start_no=start_no,
        sex=line[9:10].strip(),
        title=line[10:13].strip(),
        name=line[14:47].strip(),
        rating=int(rating_s) if rating_s else 0,
        federation=line[53:56].strip(),
        fide_id=line[57:68].strip(),
        birth_date=line[69:79].strip(),
        points=points,
        rank=int(rank_s) if rank_s else None,
        line=no,
    )
    start = _FIRST_ROUND_COL - 1
    rnd = 1
    while start < len(line):
        cell = line[start:start + 8]
        p.results.append(_parse_cell(cell, rnd, start + 1, start_no, no))
        for gap in (start + 9, start + 10):  # 1-based columns between this cell and the next
            if gap <= len(line) and line[gap - 1] != " ":
                raise TrfError(_m(gettext_noop("column %(column)s (between rounds %(round)s and %(next)s) should be "
                                               "blank but holds %(char)r; is the line misaligned?"),
                                  column=gap, round=rnd, next=rnd + 1, char=line[gap - 1]), line=no, column=gap)
        start += _ROUND_WIDTH
        rnd += 1
    return p


_ROUND_COLUMN_NOT_BLANK = gettext_noop("round %(round)s: column %(column)s should be blank but holds %(char)r")


def _parse_cell(cell: str, rnd: int, col: int, own: int, no: int) -> TrfResult:
    """Parse one 8-character round cell (shorter at the end of a line); ``col`` is its 1-based column."""
    cell8 = cell.ljust(8)
    opp_s, sep1, colour_c, sep2, code_c = cell8[0:4], cell8[4], cell8[5], cell8[6], cell8[7]
    if sep1 != " ":
        raise TrfError(_m(_ROUND_COLUMN_NOT_BLANK, round=rnd, column=col + 4, char=sep1), line=no, column=col + 4)
    if sep2 != " ":
        raise TrfError(_m(_ROUND_COLUMN_NOT_BLANK, round=rnd, column=col + 6, char=sep2), line=no, column=col + 6)
    o = opp_s.strip()
    opponent: int | None
    if o == "":
        opponent = None
    elif _is_number(o):
        opponent = int(o) or None
    else:
        raise TrfError(_m(gettext_noop("round %(round)s opponent %(opponent)r is not a starting number"),
                          round=rnd, opponent=o), line=no, column=col)
    if opponent == own:
        raise TrfError(_m(gettext_noop("round %(round)s: player %(player)s is paired with itself"), round=rnd,
                          player=own), line=no, column=col)
    c = colour_c.lower()
    if c in ("w", "b"):
        colour: str | None = c
    elif c in ("-", " "):
        colour = None
    else:
        raise TrfError(_m(gettext_noop("round %(round)s colour %(colour)r is not 'w', 'b' or '-'"), round=rnd,
                          colour=colour_c), line=no, column=col + 5)
    code = "" if code_c == " " else code_c.upper()
    if code not in RESULT_CODES:
        raise TrfError(_m(gettext_noop("round %(round)s result code %(code)r is not a TRF result code"), round=rnd,
                          code=code_c), line=no, column=col + 7)
    if opponent is not None and code in BYE_CODES:
        raise TrfError(_m(gettext_noop("round %(round)s: result code %(code)r is a bye but an opponent "
                                       "(%(opponent)s) is given"), round=rnd, code=code, opponent=opponent),
                       line=no, column=col + 7)
    if opponent is None and colour is not None:
        raise TrfError(_m(gettext_noop("round %(round)s: colour %(colour)r given without an opponent"), round=rnd,
                          colour=colour_c), line=no, column=col + 5)
    return TrfResult(rnd, opponent, colour, code, raw=cell)


def _describe_cell(r: TrfResult | None) -> TrfMessage:
    if r is None:
        return _m(gettext_noop("no entry"))
    if r.opponent is None:
        return _m(gettext_noop("no opponent"))
    if r.colour == "w":
        return _m(gettext_noop("opponent %(n)s with white"), n=r.opponent)
    if r.colour:
        return _m(gettext_noop("opponent %(n)s with black"), n=r.opponent)
    return _m(gettext_noop("opponent %(n)s"), n=r.opponent)


def _quoted_code(code: str) -> str:
    """A result code as ``repr`` shows it (``'1'``), or ``'blank'`` (translated) for a blank one."""
    return repr(code) if code else _m(gettext_noop("'blank'"))


def _check_pairings(t: TrfTournament, by_no: dict[int, TrfPlayer]) -> None:
    for p in t.players:
        for r in p.results:
            if r.opponent is None:
                continue
            q = by_no.get(r.opponent)
            col = _FIRST_ROUND_COL + _ROUND_WIDTH * (r.round - 1)
            if q is None:
                raise TrfError(_m(gettext_noop("round %(round)s opponent %(opponent)s does not exist (no 001 line "
                                               "with that starting number)"), round=r.round, opponent=r.opponent),
                               line=p.line, column=col)
            s = q.result(r.round)
            if s is None or s.opponent != p.start_no:
                raise TrfError(_m(
                    gettext_noop("round %(round)s: player %(player)s has %(cell)s, but player %(other)s (line "
                                 "%(other_line)s) has %(other_cell)s in round %(round)s"),
                    round=r.round, player=p.start_no, cell=_describe_cell(r), other=q.start_no, other_line=q.line,
                    other_cell=_describe_cell(s)), line=p.line, column=col)
            if p.start_no < q.start_no and (r.code, s.code) not in _MATCHING_CODES:
                t.warnings.append(_at_line(p.line, _m(
                    gettext_noop("round %(round)s: player %(player)s has result %(code)s against player "
                                 "%(other)s, who has %(other_code)s (line %(other_line)s)"),
                    round=r.round, player=p.start_no, code=_quoted_code(r.code), other=q.start_no,
                    other_code=_quoted_code(s.code), other_line=q.line)))
            if r.colour is not None and r.colour == s.colour:
                if r.colour == "w":
                    template = gettext_noop("round %(round)s: player %(player)s and player %(other)s (line "
                                            "%(other_line)s) both have white")
                else:
                    template = gettext_noop("round %(round)s: player %(player)s and player %(other)s (line "
                                            "%(other_line)s) both have black")
                raise TrfError(_m(template, round=r.round, player=p.start_no, other=q.start_no, other_line=q.line),
                               line=p.line, column=col + 5)


# --------------------------------------------------------------------------------------------
# Extensions: XXA XXP BBx (JaVaFo / bbpPairings) and TRF-2026 142 152 162 192 240 250 260


_NUM = re.compile(r"[0-9]+(?:\.[0-9]+)?")
# Templates shared by several tags of the extensions (``tag`` is e.g. "XXP", "260").
_TAG_START_NO = gettext_noop("%(tag)s: starting number")
_TAG_COLUMN_NOT_BLANK = gettext_noop("%(tag)s: column %(column)s should be blank but holds %(char)r")
_TAG_FIRST_ROUND = gettext_noop("%(tag)s: first round")
_TAG_LAST_ROUND = gettext_noop("%(tag)s: last round")
_TAG_FORBIDDEN_TWO = gettext_noop("%(tag)s: a forbidden pair needs at least two different players")


def _ext_number(text: str, what: str, no: int, column: int, *, integer: bool = False,
                positive: bool = False) -> float:
    value = text.strip()
    if value == "" and not integer:
        return 0.0
    if not (_is_number(value) if integer else _NUM.fullmatch(value)) or len(value) > MAX_NUMBER_DIGITS:
        if integer:
            template = gettext_noop("%(what)s %(value)r is not a whole number")
        else:
            template = gettext_noop("%(what)s %(value)r is not a number")
        raise TrfError(_m(template, what=what, value=value[:20]), line=no, column=column)
    number = int(value) if integer else float(value)
    if positive and number < 1:
        raise TrfError(_m(gettext_noop("%(what)s %(value)r must be at least 1"), what=what, value=value), line=no,
                       column=column)
    return number


def _ext_players(line: str, start: int, no: int, what: str) -> tuple[int, ...]:
    """Starting numbers in 4-column fields every 5 columns from 0-based index ``start``."""
    out = []
    i = start
    while i < len(line):
        field_ = line[i:i + 4]
        if field_.strip():
            out.append(int(_ext_number(field_, _m(_TAG_START_NO, tag=what), no, i + 1, integer=True,
                                       positive=True)))
        if i + 4 < len(line) and line[i + 4] != " ":
            raise TrfError(_m(_TAG_COLUMN_NOT_BLANK, tag=what, column=i + 5, char=line[i + 4]), line=no,
                           column=i + 5)
        i += 5
    return tuple(out)


#: The layout of the extension lines whose columns matter, added to a refusal of such a line
#: (``"...; expected `240 T RRR PPPP PPPP ...` (...)"``).
_LAYOUTS = {
    "240": ("240 T RRR PPPP PPPP ...", gettext_noop(
        "the bye type (H, F, Z or U) in column 5, the round in columns 7-9, starting numbers in columns 11-14, "
        "16-19, ...")),
    "250": ("250 MMMM GGGG RRR RRR PPPP PPPP", gettext_noop(
        "match points in columns 5-8 (blank), virtual game points in columns 10-13, the first and last round in "
        "columns 15-17 and 19-21, the first and last starting number in columns 23-26 and 28-31")),
    "260": ("260 RRR RRR PPPP PPPP ...", gettext_noop(
        "the first and last round in columns 5-7 and 9-11, starting numbers in columns 13-16, 18-21, ...")),
    "XXA": ("XXA NNNN pp.p pp.p ...", gettext_noop(
        "the starting number in columns 5-8, the virtual points of rounds 1, 2, ... in columns 10-13, 15-18, ...")),
}
#: Refusals that are not about the layout of the line (no layout added).
_NOT_LAYOUT = frozenset({gettext_noop("%(tag)s: player %(n)s has no 001 line"),
                         gettext_noop("XXA: player %(n)s has a second XXA line (first on line %(first)s)")})


def _with_layout(err: TrfError, tag: str) -> TrfError:
    """``err`` of an extension line of ``tag``, with the layout that line must have (:data:`_LAYOUTS`)."""
    if tag not in _LAYOUTS or err.template in _NOT_LAYOUT:
        return err
    layout, columns = _LAYOUTS[tag]
    reason = _m(gettext_noop("%(reason)s; expected `%(layout)s`: %(columns)s"), reason=err.reason, layout=layout,
                columns=_m(columns))
    return TrfError(reason, line=err.line, column=err.column, source=err.source)


def read_extensions(t: TrfTournament) -> None:
    """Fill the extension fields of ``t`` from its ``extra_lines`` (called by :func:`parse_trf`).

    Formats (columns 1-based):

    * ``XXP a b c ...`` — players who may not meet each other (any number >= 2, separated by
      blanks); all rounds.  ``260 RRR RRR PPPP PPPP ...`` — the same for rounds 5-7 .. 9-11,
      players at columns 13-16, 18-21, ...
    * ``XXA NNNN pp.p pp.p ...`` — virtual points of player NNNN (columns 5-8) for rounds 1, 2,
      ... (4 columns each from column 10, every 5 columns; blank = 0).  ``250 MMMM GGGG RRR RRR
      PPPP PPPP`` — GGGG virtual points (columns 10-13) in rounds 15-17 .. 19-21 for starting
      numbers 23-26 .. 28-31 (match points MMMM must be blank or 0).
    * ``BBW BBD BBL BBZ BBF BBU`` value — points of a win, draw, loss, zero-point bye, forfeit loss,
      pairing-allocated bye; ``162`` — the same as ``W``/``D``/``L``/``Z``/``P`` pairs.
    * ``142 N`` — number of rounds; ``152 W|B`` — colour of the top seed in round 1; ``192`` —
      pairing system text (e.g. ``FIDE_DUTCH_2025_BAKU``); ``240 T RRR PPPP ...`` — byes of code
      T (H F Z U) assigned ahead for round RRR (columns 7-9), players from column 11.

    Raises :class:`TrfError` naming the line and column of a malformed value, a player who has
    no ``001`` line, a player listed twice in one forbidden group, or a round range backwards.
    """
    known = {p.start_no for p in t.players}

    def player_ok(n: int, no: int, what: str) -> int:
        if n not in known:
            raise TrfError(_m(gettext_noop("%(tag)s: player %(n)s has no 001 line"), tag=what, n=n), line=no)
        return n

    for line, no in zip(t.extra_lines, t.extra_line_numbers or [0] * len(t.extra_lines)):
        tag = line[:3].upper()
        if tag not in EXTENSION_TAGS:
            continue
        try:
            if tag == "XXP":
                tokens = line[3:].split()
                players = tuple(player_ok(int(_ext_number(x, _m(_TAG_START_NO, tag="XXP"), no, 5, integer=True,
                                                            positive=True)), no, "XXP") for x in tokens)
                if len(players) < 2 or len(set(players)) != len(players):
                    raise TrfError(_m(_TAG_FORBIDDEN_TWO, tag="XXP"), line=no, column=5)
                t.forbidden.append(TrfForbidden(players, 1, None, no, "XXP"))
            elif tag == "260":
                first = int(_ext_number(line[4:7], _m(_TAG_FIRST_ROUND, tag="260"), no, 5, integer=True, positive=True))
                last = int(_ext_number(line[8:11], _m(_TAG_LAST_ROUND, tag="260"), no, 9, integer=True, positive=True))
                if last < first:
                    raise TrfError(_m(gettext_noop("%(tag)s: last round %(last)s is before first round %(first)s"),
                                      tag="260", last=last, first=first), line=no, column=9)
                players = tuple(player_ok(n, no, "260") for n in _ext_players(line, 12, no, "260"))
                if len(players) < 2 or len(set(players)) != len(players):
                    raise TrfError(_m(_TAG_FORBIDDEN_TWO, tag="260"), line=no, column=13)
                t.forbidden.append(TrfForbidden(players, first, last, no, "260"))
            elif tag == "XXA":
                n = player_ok(int(_ext_number(line[4:8], _m(_TAG_START_NO, tag="XXA"), no, 5, integer=True,
                                              positive=True)), no, "XXA")
                if n in t.accelerations:
                    raise TrfError(_m(gettext_noop("XXA: player %(n)s has a second XXA line (first on line %(first)s)"),
                                      n=n, first=t.line_of["XXA " + str(n)]), line=no, column=5)
                values = []
                i = 9
                while i < len(line):
                    values.append(_ext_number(line[i:i + 4], _m(gettext_noop("XXA: player %(n)s: round %(round)s points"),
                                                                n=n, round=len(values) + 1), no, i + 1))
                    if i + 4 < len(line) and line[i + 4] != " ":
                        raise TrfError(_m(_TAG_COLUMN_NOT_BLANK, tag="XXA", column=i + 5, char=line[i + 4]), line=no,
                                       column=i + 5)
                    i += 5
                t.accelerations[n] = values
                t.line_of[f"XXA {n}"] = no
            elif tag == "250":
                match_points = line[4:8].strip()
                if match_points and _ext_number(match_points, _m(gettext_noop("250: match points")), no, 5) != 0:
                    raise TrfError(_m(gettext_noop("250: accelerations in match points are not supported (columns 5-8 "
                                                   "must be blank)")), line=no, column=5)
                value = _ext_number(line[9:13], _m(gettext_noop("250: game points")), no, 10)
                first = int(_ext_number(line[14:17], _m(_TAG_FIRST_ROUND, tag="250"), no, 15, integer=True,
                                        positive=True))
                last = int(_ext_number(line[18:21], _m(_TAG_LAST_ROUND, tag="250"), no, 19, integer=True, positive=True))
                lo = int(_ext_number(line[22:26], _m(gettext_noop("250: first player")), no, 23, integer=True,
                                     positive=True))
                hi = int(_ext_number(line[27:31], _m(gettext_noop("250: last player")), no, 28, integer=True,
                                     positive=True))
                if last < first or hi < lo:
                    raise TrfError(_m(gettext_noop("250: a range is backwards")), line=no,
                                   column=15 if last < first else 23)
                if line[31:].strip():
                    raise TrfError(_m(gettext_noop("250: unexpected text after column 31")), line=no, column=32)
                for n in range(lo, hi + 1):
                    if n not in known:
                        continue
                    values = t.accelerations.setdefault(n, [])
                    if len(values) < last:
                        values.extend([0.0] * (last - len(values)))
                    for r in range(first, last + 1):
                        values[r - 1] = value
                    t.line_of.setdefault(f"XXA {n}", no)
            elif tag.startswith("BB"):
                key = tag[2]
                t.point_system[key] = _ext_number(line[3:], _m(gettext_noop("%(tag)s: points"), tag=tag), no, 5)
                t.line_of[tag] = no
            elif tag == "162":
                body = line[4:]
                pairs = re.findall(r"([A-Za-z])\s*([0-9]+(?:\.[0-9]+)?)", body)
                if not pairs or re.sub(r"([A-Za-z])\s*([0-9]+(?:\.[0-9]+)?)", "", body).strip():
                    raise TrfError(_m(gettext_noop("162: expected pairs like 'W 1.0 D 0.5 L 0.0'")), line=no, column=5)
                for letter, value in pairs:
                    key = {"P": "U"}.get(letter.upper(), letter.upper())
                    if key not in ("W", "D", "L", "Z", "U"):
                        raise TrfError(_m(gettext_noop("162: %(letter)r is not a result this program scores (W D L Z P)"),
                                          letter=letter), line=no, column=5)
                    t.point_system[key] = float(value)
                    if key == "Z":
                        t.point_system["F"] = float(value)
                t.line_of["162"] = no
            elif tag == "142":
                t.rounds_142 = int(_ext_number(line[3:], _m(gettext_noop("142: number of rounds")), no, 5, integer=True,
                                               positive=True))
                t.line_of["142"] = no
            elif tag == "152":
                c = line[3:].strip().upper()
                if c not in ("W", "B"):
                    raise TrfError(_m(gettext_noop("152: initial colour %(colour)r is not W or B"), colour=c[:10]),
                                   line=no, column=5)
                t.initial_colour = c.lower()
                t.line_of["152"] = no
            elif tag == "192":
                t.pairing_system = line[3:].strip()
                t.line_of["192"] = no
            elif tag == "240":
                kind = line[4:5].upper()
                if kind not in ("H", "F", "Z", "U"):
                    raise TrfError(_m(gettext_noop("240: bye type %(kind)r is not H, F, Z or U"), kind=kind), line=no,
                                   column=5)
                rnd = int(_ext_number(line[6:9], _m(gettext_noop("240: round")), no, 7, integer=True, positive=True))
                for n in _ext_players(line, 10, no, "240"):
                    t.byes.append(TrfBye(kind, rnd, player_ok(n, no, "240"), no))
        except TrfError as err:
            raise _with_layout(err, tag) from None


#: Lines that carry no data: comments (TRF-2026 ``###``) and blank lines.
_COMMENT = re.compile(r"(###.*)?")


def unread_lines(t: TrfTournament, *, also_read: frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    """The kept lines of ``t`` that no reader interprets: ``(line number, reason)`` in file order.

    Read (so not listed): blank and ``###`` comment lines, the tags :func:`parse_trf` reads
    (001, 012-132, XXR, XXC), :data:`EXTENSION_TAGS`, ``082`` when it says 0 teams, and the tags
    in ``also_read``.  Everything else is listed — team lines (``013``, ``082`` with teams,
    ``3xx``), abnormal points (``299``), other tags — so that a caller can refuse the file naming
    the line, instead of dropping the line silently (issue 10).  Reasons are short English texts
    (:class:`TrfMessage`: :func:`tournaments.trf.messages.trf_text` translates them).
    """
    out: list[tuple[int, str]] = []
    for line, no in zip(t.extra_lines, t.extra_line_numbers or [0] * len(t.extra_lines)):
        if _COMMENT.fullmatch(line.strip()):
            continue
        tag = line[:3].upper()
        if tag in EXTENSION_TAGS or tag in also_read:
            continue
        if tag == "082":
            if line[3:].strip() in ("", "0"):
                continue
            out.append((no, _m(gettext_noop("team tournaments are not supported (082: number of teams)"))))
        elif tag in ("013",) or tag.startswith("3"):
            out.append((no, _m(gettext_noop("team tournaments are not supported (tag %(tag)s)"), tag=tag)))
        elif tag == "299":
            out.append((no, _m(gettext_noop("abnormal points assignments (tag 299) are not supported"))))
        elif tag in ("XXR", "132") or tag in _HEADER_TAGS:
            out.append((no, _m(gettext_noop("a second %(tag)s line (the first one is read)"), tag=tag)))
        else:
            out.append((no, _m(gettext_noop("tag %(tag)r is not a TRF-16 tag or an extension this program reads"),
                               tag=line[:3])))
    return out


def extension_lines(t: TrfTournament) -> list[str]:
    """The lines that write the extension fields of a tournament built in code: ``BBx`` for each
    value of ``point_system`` (in :data:`POINT_KEYS` order), ``XXP`` (all rounds) or ``260`` (a
    round range) per forbidden group, ``XXA`` per accelerated player, ``240`` per bye assigned
    ahead.  Raises :class:`TrfError` for a value that does not fit its columns."""
    out = [f"BB{k} {t.point_system[k]:4.1f}" for k in POINT_KEYS if k in t.point_system]
    for f in t.forbidden:
        if f.first_round == 1 and f.last_round is None:
            out.append("XXP " + " ".join(str(n) for n in f.players))
        else:
            last = f.last_round if f.last_round is not None else max(t.total_rounds or 0, f.first_round)
            out.append(f"260 {f.first_round:>3} {last:>3} " + " ".join(f"{n:>4}" for n in f.players))
    for n in sorted(t.accelerations):
        values = t.accelerations[n]
        if any(v for v in values):
            if any(not 0 <= v <= 99.9 for v in values):
                raise TrfError(_m(gettext_noop("XXA: player %(n)s: virtual points do not fit 4 columns"), n=n))
            out.append((f"XXA {n:>4} " + " ".join(f"{v:4.1f}" for v in values)).rstrip())
    by_round: dict[tuple[str, int], list[int]] = {}
    for b in t.byes:
        by_round.setdefault((b.kind, b.round), []).append(b.start_no)
    for (kind, rnd), nos in sorted(by_round.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        out.append(f"240 {kind} {rnd:>3} " + " ".join(f"{n:>4}" for n in sorted(nos)))
    return out


# --------------------------------------------------------------------------------------------
# Writing


def _format_cell(r: TrfResult, start_no: int) -> str:
    if r.raw:
        try:
            again = _parse_cell(r.raw, r.round, 1, -1, 0)
        except TrfError:
            again = None
        if again is not None and (again.opponent, again.colour, again.code) == (r.opponent, r.colour, r.code):
            return r.raw.ljust(8)
    if r.code not in RESULT_CODES:
        raise TrfError(_m(gettext_noop("player %(player)s: round %(round)s: %(code)r is not a TRF result code"),
                          player=start_no, round=r.round, code=r.code))
    if r.colour not in (None, "w", "b"):
        raise TrfError(_m(gettext_noop("player %(player)s: round %(round)s: colour %(colour)r is not 'w', 'b' or "
                                       "None"), player=start_no, round=r.round, colour=r.colour))
    if r.is_blank:
        return " " * 8
    if r.opponent is None:
        opp = "0000"
    elif 1 <= r.opponent <= 9999:
        opp = f"{r.opponent:>4}"
    else:
        raise TrfError(_m(gettext_noop("player %(player)s: round %(round)s: opponent %(opponent)s does not fit in "
                                       "4 columns"), player=start_no, round=r.round, opponent=r.opponent))
    return f"{opp} {r.colour or '-'} {r.code or ' '}"


def _check_text(value: str, what: str) -> None:
    if any(c in value for c in "\r\n\t"):
        raise TrfError(_m(gettext_noop("%(what)s %(value)r contains a line break or tab"), what=what, value=value))


def _clean(value: str) -> str:
    """``value`` with every control character, tab and line break replaced by a space."""
    return _CONTROL_OR_TAB.sub(" ", value)


def _fit(value: str, width: int, what: str, p: TrfPlayer, *, right: bool = False,
         truncate: bool = False) -> str:
    if truncate:
        value = _clean(value)
    if any(c in value for c in "\r\n\t"):  # (the message is made only when needed: dump_trf's hot path)
        _check_text(value, _m(gettext_noop("player %(player)s: %(field)s"), player=p.start_no, field=what))
    if len(value) > width:
        if not truncate:
            raise TrfError(_m(gettext_noop("player %(player)s: %(field)s %(value)r is longer than %(width)s "
                                           "characters"), player=p.start_no, field=what, value=value, width=width))
        value = value[:width]
    return value.rjust(width) if right else value.ljust(width)


def _format_player(p: TrfPlayer, truncate: bool = False) -> str:
    if not 1 <= p.start_no <= 9999:
        raise TrfError(_m(gettext_noop("starting number %(n)s does not fit in columns 5-8"), n=p.start_no))
    rating = min(max(p.rating, 0), 9999) if truncate else p.rating
    if not 0 <= rating <= 9999:
        raise TrfError(_m(gettext_noop("player %(player)s: rating %(rating)s does not fit in columns 49-52"),
                          player=p.start_no, rating=p.rating))
    if p.points is None:
        points = ""
    else:
        value = min(max(p.points, 0.0), 99.5) if truncate else p.points
        if not 0 <= value <= 99.95:
            raise TrfError(_m(gettext_noop("player %(player)s: points %(points)s do not fit in columns 81-84"),
                              player=p.start_no, points=p.points))
        points = f"{value:.1f}"
    rank = "" if p.rank is None or (truncate and not 0 <= p.rank <= 9999) else str(p.rank)
    cut = {"truncate": truncate}
    head = (
        "001 "
        + f"{p.start_no:>4} "
        + _fit(p.sex, 1, _F_SEX, p, **cut)
        + _fit(p.title, 3, _F_TITLE, p, right=True, **cut) + " "
        + _fit(p.name, 33, _F_NAME, p, **cut) + " "
        + f"{rating:04d} "
        + _fit(p.federation, 3, _F_FEDERATION, p, **cut) + " "
        + _fit(p.fide_id, 11, _F_FIDE_ID, p, right=True, **cut) + " "
        + _fit(p.birth_date, 10, _F_BIRTH_DATE, p, **cut) + " "
        + _fit(points, 4, _F_POINTS, p, right=True) + " "
        + _fit(rank, 4, _F_RANK, p, right=True)
    )
    cells = []
    for r in p.results:
        if truncate and (r.round <= len(cells) or r.round < 1):
            continue  # a second cell for the same round: keep the first
        if r.round <= len(cells):
            raise TrfError(_m(gettext_noop("player %(player)s: results are not in increasing round order "
                                           "(round %(round)s after round %(previous)s)"),
                              player=p.start_no, round=r.round, previous=len(cells)))
        cells.extend(" " * 8 for _ in range(len(cells) + 1, r.round))  # missing rounds: blank cells
        cells.append(_format_cell(r, p.start_no))
    line = head + ("  " + "  ".join(cells) if cells else "")
    return line.rstrip()


_TAG_COLON = gettext_noop("tag %(tag)s:")


def _header_line(t: TrfTournament, tag: str, truncate: bool = False) -> list[str]:
    clean = _clean if truncate else (lambda v: v)
    if tag == "112":
        deputies = [clean(d) for d in t.deputy_arbiters]
        for d in deputies:
            _check_text(d, _m(_TAG_COLON, tag="112"))
        return [f"112 {d}".rstrip() for d in deputies] or ["112"]
    if tag == "132":
        if not t.round_dates:
            return ["132"]
        dates = [clean(d) for d in t.round_dates]
        return [("132" + " " * (_FIRST_ROUND_COL - 4) + "  ".join(d.ljust(8) for d in dates)).rstrip()]
    value = getattr(t, _HEADER_TAGS[tag])
    value = "" if value is None else clean(str(value))
    _check_text(value, _m(_TAG_COLON, tag=tag))
    return [f"{tag} {value}".rstrip()]


def _header_present(t: TrfTournament, tag: str) -> bool:
    if tag == "112":
        return bool(t.deputy_arbiters)
    if tag == "132":
        return bool(t.round_dates)
    value = getattr(t, _HEADER_TAGS[tag])
    return value not in (None, "")


def dump_trf(t: TrfTournament, *, truncate: bool = False) -> str:
    """TRF-16 text for ``t``, lines ending in ``"\\n"`` and without trailing spaces.

    A tournament read by :func:`parse_trf` is written in its original line order (unchanged
    round cells keep their exact text); new players go after the last player line, new header
    fields before the first player line, ``XXR``/``XXC`` at the end.  A tournament built in code
    gets tags 012-132, then the players by starting number, then ``XXR``, ``XXC`` and the extra
    lines.  Ratings are written with 4 digits (``0000`` = unrated); a player's missing rounds
    (results must be in increasing round order, gaps allowed) are written as blank cells.
    Raises :class:`TrfError` when a value does not fit its columns or contains a line break.

    ``truncate=True`` writes whatever is stored (an export must not fail on a name saved with a
    line break): over-long text fields of player lines (sex, title, name, federation, FIDE id,
    birth date) are cut to their width, control characters, tabs and line breaks in any text
    (header values, names, extra lines, XXC) become spaces, a rating is clamped to 0..9999,
    points to 0..99.5, a rank beyond 4 digits is left blank and a second cell for the same
    round is dropped.  Only starting numbers / opponents outside 1..9999 and unknown result
    codes still raise (a caller renumbers).
    """
    if truncate:
        t = dataclasses.replace(t, extra_lines=[_clean(x) for x in t.extra_lines],
                                xxc=[_clean(x) for x in t.xxc])
    players = {p.start_no: p for p in t.players}
    if len(players) != len(t.players):
        raise TrfError(_m(gettext_noop("two players have the same starting number")))
    out: list[str] = []
    emitted: set[tuple[str, int]] = set()
    first_player_at: int | None = None
    last_player_at: int | None = None
    if t.layout:
        for key in t.layout:
            kind, n = key
            if kind == "001":
                if n in players and key not in emitted:
                    if first_player_at is None:
                        first_player_at = len(out)
                    out.append(_format_player(players[n], truncate))
                    last_player_at = len(out)
            elif kind == "x":
                if n < len(t.extra_lines):
                    out.append(t.extra_lines[n].rstrip())
            elif kind == "XXR":
                if t.total_rounds is not None and key not in emitted:
                    out.append(f"XXR {t.total_rounds}")
            elif kind == "XXC":
                if t.xxc and key not in emitted:
                    out.append("XXC " + " ".join(t.xxc))
            elif key not in emitted:  # header tag
                out.extend(_header_line(t, kind, truncate))
            emitted.add(key)
        # Items not in the recorded layout.
        header_missing = [line for tag in _CANONICAL_HEADER_ORDER if (tag, 0) not in emitted
                          and _header_present(t, tag) for line in _header_line(t, tag, truncate)]
        new_players = [_format_player(p, truncate) for p in sorted(t.players, key=lambda q: q.start_no)
                       if ("001", p.start_no) not in emitted]
        if new_players:
            at = last_player_at if last_player_at is not None else len(out)
            out[at:at] = new_players
            if first_player_at is None:
                first_player_at = at
        if header_missing:
            at = first_player_at if first_player_at is not None else len(out)
            out[at:at] = header_missing
        tail = []
        if t.total_rounds is not None and ("XXR", 0) not in emitted:
            tail.append(f"XXR {t.total_rounds}")
        if t.xxc and ("XXC", 0) not in emitted:
            tail.append("XXC " + " ".join(t.xxc))
        tail.extend(line.rstrip() for i, line in enumerate(t.extra_lines) if ("x", i) not in emitted)
        if tail:
            at = len(out)
            while at > 0 and out[at - 1] == "":
                at -= 1
            out[at:at] = tail
    else:
        extra_headers = [(line[:3], line.rstrip()) for line in t.extra_lines
                         if re.fullmatch(r"\d\d2", line[:3])]
        others = [line.rstrip() for line in t.extra_lines if not re.fullmatch(r"\d\d2", line[:3])]
        heads: list[tuple[str, str]] = []
        for tag in _CANONICAL_HEADER_ORDER:
            if tag in ("112",) and not t.deputy_arbiters:
                continue
            heads.extend((tag, line) for line in _header_line(t, tag, truncate))
        heads.extend(extra_headers)
        heads.sort(key=lambda item: item[0])  # stable: keeps order within a tag
        out.extend(line for _, line in heads)
        out.extend(_format_player(p, truncate) for p in sorted(t.players, key=lambda q: q.start_no))
        if t.total_rounds is not None:
            out.append(f"XXR {t.total_rounds}")
        if t.xxc:
            out.append("XXC " + " ".join(t.xxc))
        if t.initial_colour in ("w", "b") and not any(x.lower() in ("white1", "black1") for x in t.xxc):
            out.append("XXC " + ("white1" if t.initial_colour == "w" else "black1"))
        out.extend(extension_lines(t))
        out.extend(others)
    return "\n".join(out) + "\n"
