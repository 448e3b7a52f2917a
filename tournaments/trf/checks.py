"""A parsed TRF file checked against the tables before the import writes anything, and the header values it
keeps: a value that does not fit is refused naming its line (:func:`_refuse`: ``ValidationFailed``,
``field="file"``), the system (``092``; ``field="system"``), the consistency of a round robin, the colour of
the top seed (``XXC``/``152``) and the pairing system (``192``) are read or refused here.

Limits of the tables (every line is honoured or refused with its line number, never a 500):

* refused (``ValidationFailed``, ``field="file"``, "line N: ..."): more than 99 rounds (an ``XXR``
  or ``142`` line, a ``132`` line with more round dates, or a player line with a cell beyond round 99
  — ``Tournament.rounds_total`` is 1..99); a player rating above 4000 (``Player.rating``); a birth
  year outside 1900..2100 (``Player.birth_year``; a date starting ``0000`` means unknown); a player
  name whose last or first name is longer than 60 characters; the same FIDE id on two player lines
  (an id of zeros means none); a value to be stored holding a C1 control character (a Latin-1 file;
  :mod:`federation.validators`); and, from :func:`tournaments.trf.reader.parse_trf`, other control
  characters (with their column), repeated starting numbers, more than 9999 players, numbers too
  long to be numbers;
* cut with a note in :attr:`tournaments.trf.services.ImportReport.notes`: header values longer than their
  field — ``012`` name (160), ``022`` city (60), ``032`` federation (60), ``102`` chief arbiter (120), ``122``
  time control (120).

A round date before the start date or after the end date and a rank given to several lines are noted.
"""
from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from federation.errors import ValidationFailed
from federation.models import Player
from federation.validators import first_control_character as no_control_characters_in
from federation.validators import without_control_characters
from tournaments.models import Tournament
from tournaments.trf.extensions import unread_lines
from tournaments.trf.mapping import (
    _PAIRING_SYSTEM,
    _POINTS,
    _birth_year,
    _split_name,
    declared_system,
    parse_round_date,
)
from tournaments.trf.messages import trf_error_message, trf_text
from tournaments.trf.model import STANDARD_POINTS, _FIRST_ROUND_COL, _LINE_SPLIT, _ROUND_WIDTH, TrfError
from tournaments.trf.reader import _decode
from tournaments.trf.scoring import declared_type

#: Most rounds a tournament may have (``Tournament.rounds_total``, constraint ``tournament_rounds_range``).
MAX_ROUNDS = 99
#: Highest rating a player may have (``Player.rating``, constraint ``player_rating_range``).
MAX_RATING = 4000
#: Birth years a player may have (``Player.birth_year``, constraint ``player_birth_year_range``).
BIRTH_YEARS = (1900, 2100)
#: Header tags cut to their field's length (with a note): tag → (Tournament field, what).
_HEADER_FIELDS = {
    "012": ("name", gettext_noop("tournament name")),
    "022": ("city", gettext_noop("city")),
    "032": ("federation", gettext_noop("federation")),
    "102": ("chief_arbiter", gettext_noop("chief arbiter")),
    "122": ("time_control", gettext_noop("time control")),
}


def _refuse(source: str, line: int, message: str, column: int | None = None):
    if column:
        text = _("%(source)s: line %(line)d, column %(column)d: %(message)s") % {
            "source": source, "line": line, "column": column, "message": message}
    else:
        text = _("%(source)s: line %(line)d: %(message)s") % {"source": source, "line": line, "message": message}
    return ValidationFailed(text, field="file")


def _reader_error(source: str, exc: TrfError) -> ValidationFailed:
    """A refusal of the TRF reader (:mod:`tournaments.trf.reader`) in the user's language: ``"<file>: line 17: <reason>"``."""
    return ValidationFailed(_("%(source)s: %(message)s") % {"source": source, "message": trf_error_message(exc)},
                            field="file")


def _check_text(source: str, line: int, what: str, value: str) -> None:
    """Refuse a value to be stored that holds a control character (federation.validators; the TRF reader
    already refused C0 characters with their column, this catches e.g. C1 characters of a Latin-1 file)."""
    at = no_control_characters_in(value or "")
    if at is not None:
        raise _refuse(source, line, _("%(what)s %(value)s holds the control character U+%(code)04X (character "
                                      "%(at)d)") % {"what": what, "value": repr(value[:80]), "code": ord(value[at]),
                                                    "at": at + 1})


def _check_players(t, source: str) -> None:
    """Refuse a player line whose values do not fit the Player/Entry fields (see the module docstring)."""
    last_field = Player._meta.get_field("last_name").max_length
    first_field = Player._meta.get_field("first_name").max_length
    by_fed_id: dict[str, int] = {}
    for p in t.players:
        for what, value in ((_("name"), p.name), (_("federation"), p.federation), (_("FIDE id"), p.fide_id)):
            _check_text(source, p.line, _("player %(no)d: %(what)s") % {"no": p.start_no, "what": what}, value)
        last, first = _split_name(p.name)
        if len(last) > last_field or len(first) > first_field:
            raise _refuse(source, p.line, _(
                "player %(no)d: the name %(name)s is longer than a last name of %(last)d and a first name of "
                "%(first)d characters") % {"no": p.start_no, "name": repr(p.name[:80]), "last": last_field,
                                           "first": first_field}, 15)
        if (p.rating or 0) > MAX_RATING:
            raise _refuse(source, p.line, _("player %(no)d: rating %(rating)d is above %(max)d")
                          % {"no": p.start_no, "rating": p.rating, "max": MAX_RATING}, 49)
        year = _birth_year(p)
        if year is not None and not BIRTH_YEARS[0] <= year <= BIRTH_YEARS[1]:
            raise _refuse(source, p.line, _("player %(no)d: birth year %(year)d is not between %(low)d and %(high)d")
                          % {"no": p.start_no, "year": year, "low": BIRTH_YEARS[0], "high": BIRTH_YEARS[1]}, 70)
        fed_id = (p.fide_id or "").strip()
        if fed_id.strip("0"):  # "0" / "00000000" is written for "no FIDE id" by some programs
            if fed_id in by_fed_id:
                raise _refuse(source, p.line, _(
                    "player %(no)d: FIDE id %(id)s is repeated (first on line %(first)d); one player cannot have "
                    "two starting numbers") % {"no": p.start_no, "id": fed_id, "first": by_fed_id[fed_id]}, 58)
            by_fed_id[fed_id] = p.line
        last_round = max((c.round for c in p.results if not c.is_blank), default=0)
        if last_round > MAX_ROUNDS:
            raise _refuse(source, p.line, _("player %(no)d has a result in round %(round)d; a tournament has at "
                                            "most %(max)d rounds") % {"no": p.start_no, "round": last_round,
                                                                       "max": MAX_ROUNDS},
                          _FIRST_ROUND_COL + 10 * (last_round - 1))


def _check_rounds(t, source: str) -> None:
    """Refuse an XXR, 142 or 132 line asking for more than 99 rounds, and XXR and 142 that disagree."""
    for tag, value in (("XXR", t.total_rounds), ("142", t.rounds_142)):
        line = t.tag_lines.get(tag) or t.line_of.get(tag, 0)
        if value is not None and value > MAX_ROUNDS:
            raise _refuse(source, line, _("%(tag)s %(n)d: a tournament has at most %(max)d rounds")
                          % {"tag": tag, "n": value, "max": MAX_ROUNDS}, 5)
    if t.total_rounds is not None and t.rounds_142 is not None and t.total_rounds != t.rounds_142:
        raise _refuse(source, t.line_of.get("142", 0), _(
            "142 says %(n142)d rounds but XXR (line %(line)d) says %(nxxr)d") % {
            "n142": t.rounds_142, "line": t.tag_lines.get("XXR", 0), "nxxr": t.total_rounds})
    if len(t.round_dates or []) > MAX_ROUNDS:
        raise _refuse(source, t.tag_lines.get("132", 0), _("%(n)d round dates: a tournament has at most %(max)d "
                                                           "rounds") % {"n": len(t.round_dates), "max": MAX_ROUNDS})


def _check_unread(t, source: str) -> None:
    """Refuse the first line no reader interprets (team lines, 299, unknown tags, a repeated header)."""
    unread = unread_lines(t)
    if unread:
        line, reason = unread[0]
        raise _refuse(source, line, _("%(reason)s; the line cannot be honoured, so nothing is imported")
                      % {"reason": trf_text(reason)})


def _check_point_system(t, source: str) -> Decimal:
    """The value of a pairing-allocated bye (``BBU``/``162 P``: 0, 0.5 or 1; default 1). Other values than
    the federation's 1-½-0 scoring (RULES.md) are refused naming their line."""
    what = {"W": _("a win"), "D": _("a draw"), "L": _("a loss"), "Z": _("a zero-point bye"),
            "F": _("a forfeit loss"), "U": _("a pairing-allocated bye")}
    bye = Decimal("1")
    for key, value in t.point_system.items():
        line = t.line_of.get(f"BB{key}") or t.line_of.get("162", 0)
        if key == "U":
            if not any(abs(value - v) < 1e-9 for v in (0.0, 0.5, 1.0)):
                raise _refuse(source, line, _("%(what)s worth %(value)s points: a pairing-allocated bye is worth 0, "
                                              "½ or 1 point") % {"what": what[key], "value": f"{value:g}"})
            bye = _POINTS[round(value * 2) / 2]
        elif abs(value - STANDARD_POINTS[key]) > 1e-9:
            raise _refuse(source, line, _(
                "%(what)s worth %(value)s points: the federation's match scoring is fixed (win 1, draw ½, loss, "
                "forfeit loss and zero-point bye 0)") % {"what": what[key], "value": f"{value:g}"})
    return bye


def _header_values(t, title_override: str | None, source: str, notes: list[str]) -> dict[str, str]:
    """Tournament name, city, federation, chief arbiter and time control from the header, each cut to
    its field (with a note naming the line)."""
    values = {}
    for tag, (attr, what) in _HEADER_FIELDS.items():
        what = _(what)
        value = (getattr(t, attr, "") or "").strip()
        _check_text(source, t.tag_lines.get(tag, 0), _("tag %(tag)s: %(what)s") % {"tag": tag, "what": what}, value)
        if attr == "name":
            value = (title_override or value or without_control_characters(source)).strip()
        limit = Tournament._meta.get_field(attr).max_length
        if len(value) > limit:
            if tag in t.tag_lines and not (attr == "name" and title_override):
                notes.append(_("line %(line)d: %(what)s is %(n)d characters long; cut to the first %(limit)d")
                             % {"line": t.tag_lines[tag], "what": what, "n": len(value), "limit": limit})
            else:
                notes.append(_("%(what)s is %(n)d characters long; cut to the first %(limit)d")
                             % {"what": what, "n": len(value), "limit": limit})
            value = value[:limit].strip()
        values[attr] = value
    return values


def _raw_line(data: bytes | str, number: int) -> str:
    """Line ``number`` (1-based) of the file as :func:`tournaments.trf.reader.parse_trf` split it."""
    text = _decode(data)[0] if isinstance(data, bytes) else data
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = _LINE_SPLIT.split(text)
    return lines[number - 1].replace("\t", " ") if 1 <= number <= len(lines) else ""


def _round_dates_in_the_event(t, round_dates: list[str], start: dt.date | None, end: dt.date | None,
                              notes: list[str]) -> None:
    """A note for each round date (132) before the start date (042) or after the end date (052): kept as
    the file says."""
    line = t.tag_lines.get("132", 0)
    for number, value in enumerate(round_dates, start=1):
        try:
            day = dt.date.fromisoformat(value)
        except (TypeError, ValueError):
            continue
        if start is not None and day < start:
            notes.append(_("line %(line)d: round %(round)d is dated %(date)s, before the start date %(start)s (line "
                           "%(start_line)d); kept as the file says") % {
                "line": line, "round": number, "date": day.isoformat(), "start": start.isoformat(),
                "start_line": t.tag_lines.get("042", 0)})
        elif end is not None and day > end:
            notes.append(_("line %(line)d: round %(round)d is dated %(date)s, after the end date %(end)s (line "
                           "%(end_line)d); kept as the file says") % {
                "line": line, "round": number, "date": day.isoformat(), "end": end.isoformat(),
                "end_line": t.tag_lines.get("052", 0)})


def _rank_ties(t, notes: list[str]) -> None:
    """A note for each rank the rank column (86-89) gives to more than one player (a tie may be legitimate)."""
    by_rank: dict[int, list[int]] = defaultdict(list)
    for p in t.players:
        if p.rank:
            by_rank[p.rank].append(p.line)
    for rank, lines in sorted(by_rank.items()):
        if len(lines) > 1:
            notes.append(_("lines %(lines)s all have rank %(rank)d in the rank column (a tie is possible); kept as the "
                           "file says") % {"lines": ", ".join(str(n) for n in sorted(lines)), "rank": rank})


def _round_date_texts(t, data: bytes | str) -> list[str]:
    """The round dates of the ``132`` line, one text per round: read by columns (round i at columns
    92+10(i-1) .. 99+10(i-1), like the round cells, so a blank field keeps its place) when the line is laid
    out so, else split at blanks."""
    if "132" not in t.tag_lines:
        return list(t.round_dates or [])
    line = _raw_line(data, t.tag_lines["132"]).rstrip()
    start = _FIRST_ROUND_COL - 1
    if len(line) <= start or line[3:start].strip():
        return list(t.round_dates or [])
    out = []
    i = start
    while i < len(line):
        if line[i + 8:i + 10].strip():
            return list(t.round_dates or [])
        out.append(line[i:i + 8].strip())
        i += _ROUND_WIDTH
    return out


def _round_dates(t, data, source: str, near: dt.date | None, notes: list[str]) -> list[str]:
    """``Tournament.round_dates`` from the 132 line: ISO dates; a text that is no date is kept as it is,
    with a note."""
    out = []
    line = t.tag_lines.get("132", 0)
    for number, text in enumerate(_round_date_texts(t, data), start=1):
        _check_text(source, line, _("tag 132: round %(round)d") % {"round": number}, text)
        if not text:
            out.append("")
            continue
        day = parse_round_date(text, near)
        if day is None:
            notes.append(_("line %(line)d: the date of round %(round)d, %(text)s, is not a date; kept as text")
                         % {"line": line, "round": number, "text": repr(text)})
            out.append(text)
        else:
            out.append(day.isoformat())
    return out


def _system_of(t, source: str, system: str | None, notes: list[str], *,
               dry_run: bool = False) -> tuple[str, bool | None]:
    """The system to import as and whether it is a double round robin (``None``: the file does not say)."""
    if system is not None and system not in Tournament.System.values:
        raise ValidationFailed(_("The system is %(choices)s.") % {"choices": " or ".join(Tournament.System.values)},
                               field="system")
    if getattr(t, "knockout", None) is not None and system in (None, Tournament.System.KNOCKOUT):
        return Tournament.System.KNOCKOUT, False  # this program's own knockout (XXK: tournaments.trf.bracket)
    line = t.tag_lines.get("092")
    text = (t.tournament_type or "").strip()
    declared, double, team = declared_system(text)
    if team:
        raise _refuse(source, line or 0, _("092 %(text)s: team tournaments are not supported") % {"text": repr(text)})
    if system is None:
        if declared is not None:
            return declared, double if declared == Tournament.System.ROUND_ROBIN else False
        if line is None or not text:
            raise ValidationFailed(_("%(source)s: the file has no 092 line (tournament type), so it does not say "
                                     "whether the event is a Swiss or a round robin; choose the system.")
                                   % {"source": source}, field="system")
        raise ValidationFailed(_("%(source)s: line %(line)d: the tournament type %(text)s (092) is neither Swiss nor "
                                 "round robin; choose the system.") % {"source": source, "line": line,
                                                                      "text": repr(text)}, field="system")
    if line is not None and text and declared != system:
        note = (_("line %(line)d: the file's tournament type is %(text)s; it would be imported as %(system)s, as "
                  "chosen") if dry_run else
                _("line %(line)d: the file's tournament type is %(text)s; imported as %(system)s, as chosen"))
        notes.append(note % {"line": line, "text": repr(text), "system": Tournament.System(system).label})
    if system == Tournament.System.ROUND_ROBIN and declared == system:
        return system, double
    return system, None


def _round_robin_field(t, rounds_played: int) -> int:
    """The number of players of a round robin: the lines with a cell in a played round (a line without one
    withdrew before round 1 and is no part of the Berger table); every line when no round is played."""
    if rounds_played == 0:
        return len(t.players)
    return sum(1 for p in t.players if any(not c.is_blank for c in p.results if c.round <= rounds_played)) or len(
        t.players)


def _check_round_robin(t, source: str, double: bool | None, declared_rounds: int | None, rounds_played: int,
                       round_dates: list[str], notes: list[str]) -> bool | None:
    """Refuse a file imported as a round robin whose played rounds are not one (``field="system"``, naming
    the 092 line and the first inconsistent line): two players who meet twice in a single round robin
    (three times in a double one), more rounds played than the field needs (``n - 1`` for an even number of
    players ``n``, ``n`` for an odd one; twice that for a double round robin), ``XXR``/``142`` (or more
    round dates) than that, a pairing-allocated bye (``U``) with an even number of players. ``XXR`` giving
    the rounds of a double round robin makes it one (with a note). Returns whether it is a double round
    robin (``None``: not known). The number of players is :func:`_round_robin_field`; before round 1 is
    played only the meetings are checked (the rounds follow the field when round 1 is paired)."""
    n = _round_robin_field(t, rounds_played)
    cycle = n if n % 2 else n - 1
    xxr_line = t.tag_lines.get("XXR") or t.line_of.get("142", 0)
    xxr_tag = "XXR" if t.total_rounds is not None else "142"
    if declared_rounds is not None and double is not True and cycle and declared_rounds == 2 * cycle:
        if double is False:
            notes.append(_("line %(line)d: %(tag)s says %(n)d rounds, two cycles of %(players)d players: imported as a "
                           "double round robin") % {"line": xxr_line, "tag": xxr_tag, "n": declared_rounds,
                                                    "players": n})
        double = True
    meetings = 2 if double in (True, None) else 1
    most = cycle * meetings
    problem = ""
    if rounds_played and declared_rounds is not None and declared_rounds != cycle * (2 if double else 1) and (
            double is not None or declared_rounds not in (cycle, 2 * cycle)):
        problem = _("line %(line)d: %(tag)s says %(n)d rounds, but %(players)d players need %(single)d rounds "
                    "(%(double)d for a double round robin)") % {
            "line": xxr_line, "tag": xxr_tag, "n": declared_rounds, "players": n, "single": cycle,
            "double": 2 * cycle}
    if not problem and rounds_played and declared_rounds is None and len(round_dates) > most:
        problem = _("line %(line)d: %(n)d round dates, but %(players)d players need %(rounds)d rounds") % {
            "line": t.tag_lines.get("132", 0), "n": len(round_dates), "players": n, "rounds": most}
    if not problem:
        met: dict[tuple[int, int], list[int]] = defaultdict(list)
        for p in sorted(t.players, key=lambda q: q.line):
            for c in p.results:
                if c.round > rounds_played:
                    continue
                if c.opponent is not None and p.start_no < c.opponent:
                    rounds = met[(p.start_no, c.opponent)]
                    rounds.append(c.round)
                    if len(rounds) > meetings:
                        problem = _("line %(line)d: players %(a)d and %(b)d meet in rounds %(rounds)s; in a round robin "
                                    "two players meet once (twice in a double round robin)") % {
                            "line": p.line, "a": p.start_no, "b": c.opponent,
                            "rounds": ", ".join(str(r) for r in sorted(rounds))}
                elif c.code == "U" and c.opponent is None and n % 2 == 0:
                    problem = _("line %(line)d: round %(round)d has a pairing-allocated bye (U), but a round robin of "
                                "an even number of players (%(n)d) has no bye") % {
                        "line": p.line, "round": c.round, "n": n}
                elif c.round > most and (c.opponent is not None or c.code):
                    problem = _("line %(line)d: round %(round)d is played, but %(players)d players need %(rounds)d "
                                "rounds") % {"line": p.line, "round": c.round, "players": n, "rounds": most}
                if problem:
                    break
            if problem:
                break
    if not problem:
        return double
    line = t.tag_lines.get("092")
    text = (t.tournament_type or "").strip()
    if line is not None and declared_type(text)[0] == Tournament.System.ROUND_ROBIN:
        message = _("%(source)s: line %(line)d (092 %(text)s) says the event is a round robin, but the played rounds "
                    "are not one: %(problem)s. To import it as what it is, choose the system Swiss (--system swiss); "
                    "or correct the file.") % {"source": source, "line": line, "text": repr(text), "problem": problem}
    else:
        message = _("%(source)s: the played rounds are not a round robin: %(problem)s. To import it as what it is, "
                    "choose the system Swiss (--system swiss); or correct the file.") % {
            "source": source, "problem": problem}
    raise ValidationFailed(message, field="system")


def _initial_colour(t, source: str, notes: list[str]) -> tuple[str | None, str]:
    """The colour of the top seed in round 1 (``XXC white1``/``black1`` or ``152``) and where it was read."""
    xxc = [x.lower() for x in t.xxc]
    xxc_colour = "w" if "white1" in xxc else "b" if "black1" in xxc else None
    if "white1" in xxc and "black1" in xxc:
        raise _refuse(source, t.tag_lines.get("XXC", 0) or 0, _("XXC says both white1 and black1"))
    for token in t.xxc:
        if token.lower() not in ("white1", "black1"):
            notes.append(_("XXC %(token)s is not used (this program reads white1 and black1)") % {"token": token})
    if t.initial_colour and xxc_colour and t.initial_colour != xxc_colour:
        raise _refuse(source, t.line_of.get("152", 0), _("152 and XXC give different colours to the top seed in "
                                                        "round 1"))
    if xxc_colour:
        return xxc_colour, f"XXC {'white1' if xxc_colour == 'w' else 'black1'}"
    if t.initial_colour:
        return t.initial_colour, f"152 {t.initial_colour.upper()}"
    return None, ""


def _pairing_system(t, source: str, system: str) -> bool:
    """Whether the 192 line asks for Baku acceleration; refuse a pairing system other than FIDE Dutch."""
    text = (t.pairing_system or "").strip()
    if not text:
        return False
    m = _PAIRING_SYSTEM.fullmatch(text)
    if m is None:
        if system == Tournament.System.ROUND_ROBIN:
            return False
        raise _refuse(source, t.line_of.get("192", 0), _(
            "192: the pairing system %(text)s is not the FIDE Dutch system this program pairs with "
            "(FIDE_DUTCH_2025, or FIDE_DUTCH_2025_BAKU with Baku acceleration)") % {"text": repr(text[:60])})
    return bool(m.group(1))
