"""The extension lines of a TRF file: ``XXA XXP BBx`` (JaVaFo / bbpPairings) and TRF-2026 ``142 152 162
192 240 250 260`` — reading them into a :class:`~tournaments.trf.model.TrfTournament`, listing the lines no
reader interprets, and writing them for a tournament built in code.

Pure Python, no Django imports.
"""
from __future__ import annotations

import re

from .bracket import read_knockout_line
from .model import (
    _HEADER_TAGS,
    EXTENSION_TAGS,
    MAX_NUMBER_DIGITS,
    POINT_KEYS,
    TrfBye,
    TrfError,
    TrfForbidden,
    TrfTournament,
    _is_number,
    _m,
    gettext_noop,
)

__all__ = ["extension_lines", "read_extensions", "unread_lines"]


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
    """Fill the extension fields of ``t`` from its ``extra_lines`` (called by :func:`tournaments.trf.reader.parse_trf`).

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
    * ``XXK`` / ``XXM`` — a knockout's settings and boards (this program's own lines:
      :mod:`tournaments.trf.bracket`).

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
            elif tag in ("XXK", "XXM"):
                read_knockout_line(t, tag, line, no, player_ok)
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

    Read (so not listed): blank and ``###`` comment lines, the tags :func:`tournaments.trf.reader.parse_trf` reads
    (001, 012-132, XXR, XXC), :data:`EXTENSION_TAGS`, ``082`` when it says 0 teams, and the tags
    in ``also_read``.  Everything else is listed — team lines (``013``, ``082`` with teams,
    ``3xx``), abnormal points (``299``), other tags — so that a caller can refuse the file naming
    the line, instead of dropping the line silently (issue 10).  Reasons are short English texts
    (:class:`tournaments.trf.model.TrfMessage`: :func:`tournaments.trf.messages.trf_text` translates them).
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
