"""Reader of the FIDE Tournament Report File (TRF-16, "Krause" format): text to :class:`TrfTournament`.

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
  ``Z`` zero-point bye, blank = unknown / not entered.  See :func:`tournaments.trf.scoring.code_points`.
* A :class:`TrfResult` with ``opponent=None`` is a bye / absence / blank cell; the cell text
  is kept in ``raw`` so that :func:`tournaments.trf.writer.dump_trf` reproduces it byte for byte when unchanged.
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
rounds) are the importer's business (:mod:`tournaments.trf.checks`).

Messages are English (``str(err)`` for logs).  Every reason, warning and note this module makes is
a :class:`TrfMessage`: the English ``str`` that also keeps its template (marked with
:func:`gettext_noop`, so ``makemessages`` extracts it) and params, which
:mod:`tournaments.trf.messages` renders in the user's language (``"satır 17: ..."``).
"""
from __future__ import annotations

import os

from .extensions import read_extensions
from .model import (
    _CONTROL,
    _FIRST_ROUND_COL,
    _HEADER_TAGS,
    _LINE_SPLIT,
    _MATCHING_CODES,
    _POINTS,
    _ROUND_WIDTH,
    BYE_CODES,
    MAX_NUMBER_DIGITS,
    MAX_PLAYERS,
    RESULT_CODES,
    TrfError,
    TrfMessage,
    TrfPlayer,
    TrfResult,
    TrfTournament,
    _at_line,
    _is_number,
    _m,
    gettext_noop,
)

__all__ = ["parse_trf", "read_trf"]


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
