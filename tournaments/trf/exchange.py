"""Import a TRF file as a tournament, and export a tournament as TRF.

The text format itself is :mod:`tournaments.trf.fileformat` (pure, no Django). Here a parsed file becomes
players, a tournament, entries, closed rounds, match results, byes entered ahead, forbidden pairs
and accelerations in ONE transaction: any line that cannot be read, does not fit or cannot be
honoured raises :class:`federation.errors.ValidationFailed` naming the line, and nothing is imported.
Whatever the tables cannot keep is listed in :attr:`ImportReport.notes`.

Mapping (TRF-16 result codes → matches): ``1``/``=``/``0`` a rated game; ``W``/``D``/``L`` an
unrated game; ``+``/``-`` against an opponent a forfeit; no opponent (``0000`` or blank) with
``U`` a pairing-allocated bye (worth ``BBU``, default 1: ``Tournament.bye_points``), ``H`` a
half-point bye, ``F`` or ``+`` a full-point bye, ``Z`` or ``-`` a zero-point bye; a blank code takes
the value the published points column implies (:func:`tournaments.trf.scoring.infer_blank_codes`) — every
such inference is reported. A 1-point bye without the ``U`` code (``0000 - +`` or a blank code counted
as 1: how TRF-16 programs wrote the pairing-allocated bye before ``U``) in a Swiss round is the
pairing-allocated bye when it is the round's only one, nobody has the round's ``U``, a pairing-allocated
bye is worth 1 and the player had neither one nor a forfeit win before (C.04.1 c); else a full-point bye
(:func:`_byes_without_u`, with a note saying which and why). A round is played when some cell of it names an opponent
(:func:`tournaments.trf.scoring.played_rounds`); byes written in cells of later rounds and ``240`` lines are
byes entered ahead: :class:`~tournaments.models.Absence` rows of that round (kinds ``half``,
``full``, ``zero``, ``pab``), not a closed round.

Header and extension lines: ``012`` name, ``022`` city, ``032`` federation, ``042``/``052`` dates,
``092`` type (Swiss, round robin or double round robin; team events refused; a type this module
cannot classify, or no ``092`` line, needs ``system=``; a round robin whose played rounds are not one
is refused, ``system="swiss"`` imports it as what it is: :func:`_check_round_robin`), ``102`` chief arbiter, ``122`` time control,
``132`` round dates (``Tournament.round_dates``: ISO dates, the text when it is no date), ``XXR`` or
``142`` number of rounds, ``XXC white1``/``black1`` or ``152`` colour of the top seed in round 1 (the
round-1 :class:`~tournaments.models.CoinToss`), ``192`` pairing system (FIDE Dutch; ``*_BAKU`` sets
``Tournament.acceleration = "baku"``; any other system is refused), ``BBW``..``BBU``/``162`` point
system (only the federation's 1-½-0 scoring; ``BBU`` 0, 0.5 or 1), ``XXP``/``260`` forbidden pairs
(:class:`~tournaments.models.ForbiddenPair`), ``XXA``/``250`` virtual points
(``Entry.accelerations``, ``Tournament.acceleration = "manual"``), ``240`` byes ahead. Player lines
give ``Entry.federation`` (columns 54-56: TUR, or a club or city code), ``Entry.official_rank`` (the
rank column) and ``Entry.rating``. Lines no reader interprets (team lines, ``299``, unknown tags, a
second header line: :func:`tournaments.trf.extensions.unread_lines`) are refused with their number.

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
* cut with a note in :attr:`ImportReport.notes`: header values longer than their field — ``012``
  name (160), ``022`` city (60), ``032`` federation (60), ``102`` chief arbiter (120), ``122`` time
  control (120).

Players: a line with a FIDE id is the player with that federation id (registered when new); when that
stored player has another name (compared in Turkish lower case without marks, in any word order) or
another birth year, the import is refused naming the line (:class:`PlayerConflicts`) unless
``player_matches={start_no: that FIDE id}`` confirms that they are the same person (a dry run lists the
line, ``how == "conflict"``). Whatever a matched line says otherwise than its stored player (name
spelling, birth year, sex) is noted; the stored values are kept. A full birth date is kept as the birth
year (one note). The rank column is ``Entry.official_rank``; the export writes it back while no round has
been paired here since the import (:func:`_file_ranks_apply`). A round date before the start date or
after the end date and a rank given to several lines are noted. A line
without one is matched to a known player with the same name (Turkish case rules), the same birth
year and — when the line gives a federation/club code — that code (their club's short name or the
code of an earlier entry); a unique match is reused and reported ("line 3: Kılıç, Ayşe matched to
known player F-000123"). ``match_players=False`` refuses every match, ``player_matches={start_no:
federation_id or None}`` decides line by line. Any other line gets a new player with the federation
id ``T<tournament id>-<start no>`` (unique: the tournament id is; a taken id gets a suffix, each
insert in a savepoint). ``dry_run=True`` runs the whole import and rolls it back: the report says
what would be imported (the preview of the page and the API).

The export (:func:`tournament_export_trf`) writes whatever is stored: control characters become
spaces, fields are fitted to their columns (``dump_trf(truncate=True)``), starting numbers beyond
9999 renumbered. A file over ``settings.TRF_MAX_UPLOAD_BYTES`` is refused at upload
(:func:`read_upload`); a file of more than 250 players or 2,500 round cells is imported by a job
(:func:`trf_import_queue`).
"""
from __future__ import annotations

import datetime as dt
import logging
import re
import time
import unicodedata
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, IntegrityError, connections, transaction
from django.db.models import Q
from django.template.defaultfilters import filesizeformat
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from federation import roles
from federation.collation import turkish_case_variants, turkish_lower, turkish_upper
from federation.errors import ApplicationError, NotFound, ValidationFailed
from federation.jobs import pause
from federation.models import Player
from federation.validators import first_control_character as no_control_characters_in
from federation.validators import without_control_characters
from tournaments import access
from tournaments.trf.extensions import unread_lines
from tournaments.trf.model import (
    STANDARD_POINTS,
    TrfBye,
    TrfError,
    TrfForbidden,
    TrfPlayer,
    TrfResult,
    TrfTournament,
    _FIRST_ROUND_COL,
    _LINE_SPLIT,
    _ROUND_WIDTH,
)
from tournaments.trf.reader import _decode, parse_trf
from tournaments.trf.scoring import code_points, declared_type, infer_blank_codes, played_rounds
from tournaments.trf.writer import dump_trf
from tournaments.models import Absence, CoinToss, Entry, ForbiddenPair, Match, Round, Tournament, TrfImport
from tournaments.pairing_adapter import match_codes
from tournaments.trf.messages import trf_error_message, trf_text
from tournaments.services import unique_slug

_POINTS = {1.0: Decimal("1"), 0.5: Decimal("0.5"), 0.0: Decimal("0")}

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
#: Bye result codes → ``Match.bye_kind`` / ``Absence.kind``.
_BYE_KINDS = {"U": "pab", "H": "half", "F": "full", "+": "full", "Z": "zero", "-": "zero"}
#: ``Absence.kind`` → the code written in a cell ahead or a ``240`` line.
_KIND_CODES = {"pab": "U", "half": "H", "full": "F", "zero": "Z"}
#: The pairing systems (192) this program pairs with; ``*_BAKU`` is Baku acceleration.
_PAIRING_SYSTEM = re.compile(r"FIDE[_ ]DUTCH(?:[_ ]\d{4})?(?:[_ ](BAKU))?", re.IGNORECASE)
#: What the export writes in 192 for a tournament with Baku acceleration.
BAKU_PAIRING_SYSTEM = "FIDE_DUTCH_2025_BAKU"


@dataclass(slots=True)
class PlayerChoice:
    """How one player line got its player: ``how`` is ``"fide_id"`` (the player with the line's FIDE id),
    ``"matched"`` (a known player with the same name, birth year and code, reused), ``"chosen"`` (the
    caller chose it: ``player_matches``), ``"new"`` (registered by the import) or, after a dry run only,
    ``"conflict"`` (the line's FIDE id belongs to a stored player with another name or birth year: the
    import is refused unless ``player_matches`` confirms it, ``{start_no: that id}``). ``candidates`` is
    the number of known players with the line's name, birth year and code (more than one: none is reused
    unless chosen); ``options`` describes them (``federation_id``, ``name``, ``club``, ``birth_year``).
    ``conflict`` is the text of a FIDE id conflict ("" when none; kept when confirmed)."""

    line: int
    start_no: int
    name: str
    federation_id: str
    how: str
    candidates: int = 0
    options: list[dict] = field(default_factory=list)
    conflict: str = ""

    def as_dict(self) -> dict:
        return {"line": self.line, "start_no": self.start_no, "name": self.name,
                "federation_id": self.federation_id, "how": self.how, "candidates": self.candidates,
                "candidate_ids": [o["federation_id"] for o in self.options], "conflict": self.conflict or None}


class PlayerConflicts(ValidationFailed):
    """Lines whose FIDE id belongs to a stored player with another name or birth year, not confirmed by
    ``player_matches``: nothing is imported. ``conflicts`` are their :class:`PlayerChoice` rows (``how ==
    "conflict"``); ``field`` is ``"player_matches"``."""

    def __init__(self, message: str, conflicts: list[PlayerChoice]) -> None:
        super().__init__(message, field="player_matches")
        self.conflicts = conflicts


@dataclass(slots=True)
class ImportReport:
    """What an import did (or, with ``dry_run``, would do): the tournament, one note per inference or
    value not kept (for stderr / the UI), how each player line got its player, and the numbers of
    rounds and entries imported. After a dry run ``tournament`` is not in the database."""

    tournament: Tournament
    notes: list[str] = field(default_factory=list)
    players: list[PlayerChoice] = field(default_factory=list)
    dry_run: bool = False
    rounds: int = 0
    entries: int = 0

    @property
    def matches(self) -> list[PlayerChoice]:
        """The lines given a known player by name (or by the caller's choice)."""
        return [p for p in self.players if p.how in ("matched", "chosen")]

    @property
    def single_matches(self) -> list[PlayerChoice]:
        """The lines matched to their one known player (or given it by the caller): a box to refuse it."""
        return [p for p in self.players if p.how == "matched"
                or (p.how == "chosen" and p.candidates <= 1)]

    @property
    def several(self) -> list[PlayerChoice]:
        """The lines with several known players of their name, birth year and code: the caller chooses."""
        return [p for p in self.players if p.candidates > 1 and p.how in ("new", "chosen")]

    @property
    def conflicts(self) -> list[PlayerChoice]:
        """The lines whose FIDE id belongs to a stored player with another name or birth year (confirmed
        ones too: ``how`` is then ``"fide_id"``)."""
        return [p for p in self.players if p.conflict]


def parse_date(text: str) -> dt.date | None:
    """A date from the forms TRF files use: ``2018/10/05``, ``2011-07-02``, ``25.02.2011``, ``18/10/05``."""
    text = (text or "").strip()
    for fmt in ("%Y/%m/%d", "%Y-%m-%d", "%Y.%m.%d", "%d.%m.%Y", "%d/%m/%Y", "%y/%m/%d", "%y.%m.%d"):
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


#: Forms of a round date (132): TRF-16 writes ``YY/MM/DD``; programs also write the others.
_ROUND_DATE_FORMATS = ("%y/%m/%d", "%Y/%m/%d", "%Y-%m-%d", "%Y.%m.%d", "%d.%m.%Y", "%d/%m/%Y", "%d-%m-%Y",
                       "%y.%m.%d", "%y-%m-%d", "%d.%m.%y", "%d/%m/%y", "%y.%d.%m", "%y/%d/%m")


def _with_year(day: dt.date, year: int) -> dt.date | None:
    try:
        return day.replace(year=year)
    except ValueError:  # 29 February
        return None


def parse_round_date(text: str, near: dt.date | None = None) -> dt.date | None:
    """The date a round date of a ``132`` line means, or ``None``.

    Every form of :data:`_ROUND_DATE_FORMATS` that reads the text is a candidate (a two-digit year in
    the century nearest ``near``); the candidate nearest ``near`` (the event's start) within a year wins
    — so ``11.25.02`` of an event starting 25.02.2011 is 2011-02-25 — else the first form that reads it.
    """
    text = (text or "").strip()
    found: list[dt.date] = []
    for fmt in _ROUND_DATE_FORMATS:
        try:
            day = dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
        if "%y" in fmt and near is not None:
            options = [d for d in (_with_year(day, day.year + k) for k in (-100, 0, 100)) if d is not None]
            day = min(options, key=lambda d: abs((d - near).days))
        found.append(day)
    if not found:
        return None
    if near is not None:
        close = [d for d in found if abs((d - near).days) <= 366]
        if close:
            return min(close, key=lambda d: abs((d - near).days))
    return found[0]


def format_round_date(value: str) -> str:
    """A stored round date as a ``132`` field: an ISO date as ``YY/MM/DD`` (TRF-16), any other text as
    it is (at most 8 characters, the width of the field)."""
    try:
        day = dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        return (value or "")[:8]
    return day.strftime("%y/%m/%d")


def declared_system(text: str) -> tuple[str | None, bool, bool]:
    """``(system, double round robin, team event)`` that a ``092`` text declares; ``system`` is ``None``
    when the text says neither Swiss nor round robin (or is blank).

    Round robin: "Round robin", "Individual: Round-Robin", "Berger", "all-play-all", "RR", Turkish
    "devreli" ("double"/"DRR"/"çift" make it a double round robin); Swiss: "Swiss", "Individual:
    Swiss-System", "Dutch", "İsviçre"; a team event: "Team", "Takım".
    """
    system, double, team = declared_type(text)
    return (Tournament.System(system) if system else None), double, team


def type_text(tournament: Tournament) -> str:
    """The ``092`` text the export writes (read back by :func:`declared_system`): "Individual: …" or,
    for a team championship, "Team: …" (FIDE C.04 Annex 2); a knockout section says "Knockout"."""
    kind = "Team" if tournament.format == Tournament.Format.TEAM else "Individual"
    if tournament.system == Tournament.System.ROUND_ROBIN:
        return f"{kind}: Double Round-Robin" if tournament.double_round_robin else f"{kind}: Round-Robin"
    if tournament.system == Tournament.System.KNOCKOUT:
        return f"{kind}: Knockout"
    return f"{kind}: Swiss-System"


def _split_name(name: str) -> tuple[str, str]:
    if "," in name:
        last, first = name.split(",", 1)
        return last.strip(), first.strip()
    parts = name.strip().rsplit(" ", 1)
    return (parts[-1], parts[0]) if len(parts) == 2 else (name.strip(), "")


def _sex(code: str) -> str:
    c = (code or "").strip().lower()
    return {"m": "m", "w": "f", "f": "f"}.get(c, "")


def _birth_year(p) -> int | None:
    """The year a player line's birth date starts with; ``None`` for none or ``0000`` (unknown)."""
    m = re.match(r"(\d{4})", (p.birth_date or "").strip())
    if m and int(m.group(1)) != 0:
        return int(m.group(1))
    return None


def _refuse(source: str, line: int, message: str, column: int | None = None):
    if column:
        text = _("%(source)s: line %(line)d, column %(column)d: %(message)s") % {
            "source": source, "line": line, "column": column, "message": message}
    else:
        text = _("%(source)s: line %(line)d: %(message)s") % {"source": source, "line": line, "message": message}
    return ValidationFailed(text, field="file")


def _reader_error(source: str, exc: TrfError) -> ValidationFailed:
    """A refusal of :mod:`tournaments.trf.fileformat` in the user's language: ``"<file>: line 17: <reason>"``."""
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


# --------------------------------------------------------------------------------------------
# Players: the known player of a line, or a new one


def _norm(text: str) -> str:
    return " ".join(turkish_lower(unicodedata.normalize("NFC", text or "")).split())


def _codes_of(player: Player) -> set[str]:
    """The federation/club codes a known player is known by: their club's short name and the codes of
    their entries (TRF columns 54-56)."""
    codes = {turkish_upper(c.strip()) for c in Entry.objects.filter(player=player).exclude(federation="")
             .values_list("federation", flat=True)}
    if player.club is not None and player.club.short_name:
        codes.add(turkish_upper(player.club.short_name.strip()))
    return codes


def _known_players(p) -> list[Player]:
    """Known players (active, not merged away) with the name of line ``p`` (Turkish case rules), its birth
    year (none = none) and, when the line gives a code (columns 54-56), that code."""
    last, first = _split_name(p.name)
    if not last:
        return []
    q_last, q_first = Q(), Q()
    for form in turkish_case_variants(last):
        q_last |= Q(last_name__iexact=form)
    for form in turkish_case_variants(first):
        q_first |= Q(first_name__iexact=form)
    year = _birth_year(p)
    qs = Player.objects.filter(q_last, q_first, active=True, merged_into__isnull=True).select_related("club")
    qs = qs.filter(birth_year=year) if year is not None else qs.filter(birth_year__isnull=True)
    found = [pl for pl in qs[:50] if _norm(pl.last_name) == _norm(last) and _norm(pl.first_name) == _norm(first)]
    code = turkish_upper((p.federation or "").strip())
    if code:
        found = [pl for pl in found if code in _codes_of(pl)]
    return found


def _create_player(fields: dict, candidates) -> Player:
    """A new player with the first free federation id of ``candidates``; each insert in a savepoint, so an
    id taken meanwhile (another import, a registration) moves on to the next one instead of failing."""
    for fed_id in candidates:
        if not _id_free(fed_id):
            continue
        try:
            with transaction.atomic():
                return Player.objects.create(federation_id=fed_id, **fields)
        except IntegrityError:
            if Player.objects.filter(federation_id=fed_id).exists():
                continue
            raise
    raise ValidationFailed(_("No free federation id for a new player."), field="file")  # pragma: no cover


def _id_free(fed_id: str) -> bool:
    return not Player.objects.filter(federation_id=fed_id).exists()


def _generated_ids(tournament_id: int, start_no: int):
    base = f"T{tournament_id}-{start_no}"
    yield base
    for k in range(2, 1000):
        yield f"{base}-{k}"


def _resolve_choices(t, source: str, player_matches: dict | None) -> tuple[dict[int, Player | None], set[int]]:
    """``player_matches`` checked: ``(choices, confirmed)``. ``choices`` maps the start number of a line
    without FIDE id to the chosen known player, or None for a new one; ``confirmed`` holds the start numbers
    of lines with a FIDE id whose value is that FIDE id: the caller confirms that the stored player with
    that id is the line's player even when the name or birth year differ (:func:`_fide_conflict`)."""
    out: dict[int, Player | None] = {}
    confirmed: set[int] = set()
    if not player_matches:
        return out, confirmed
    from federation.selectors import player_resolve

    by_no = {p.start_no: p for p in t.players}
    used: dict[int, int] = {}
    for key, fed_id in player_matches.items():
        try:
            start_no = int(key)
        except (TypeError, ValueError):
            raise ValidationFailed(_("%(key)s is not a starting number.") % {"key": repr(key)},
                                   field="player_matches") from None
        p = by_no.get(start_no)
        if p is None:
            raise ValidationFailed(_("The file has no player with starting number %(no)d.") % {"no": start_no},
                                   field="player_matches")
        fed_id = (fed_id or "").strip() if isinstance(fed_id, str) or fed_id is None else str(fed_id)
        fide = (p.fide_id or "").strip()
        if fide.strip("0"):
            if fed_id != fide:
                raise ValidationFailed(_("Line %(line)d (starting number %(no)d) has the FIDE id %(id)s: its player is "
                                         "the one with that id. Give that id to confirm that the stored player is "
                                         "the same person.") % {"line": p.line, "no": start_no, "id": fide},
                                       field="player_matches")
            confirmed.add(start_no)
            continue
        if not fed_id:
            out[start_no] = None
            continue
        try:
            player = player_resolve(fed_id)
        except NotFound:
            raise ValidationFailed(_("Line %(line)d (starting number %(no)d): no player with federation id %(id)s.")
                                   % {"line": p.line, "no": start_no, "id": fed_id},
                                   field="player_matches") from None
        if player.pk in used:
            raise ValidationFailed(_("%(id)s is chosen for starting numbers %(a)d and %(b)d; a player has one "
                                     "starting number.") % {"id": player.federation_id, "a": used[player.pk],
                                                            "b": start_no}, field="player_matches")
        used[player.pk] = start_no
        out[start_no] = player
    return out, confirmed


#: Letters NFKD does not split into a base letter and a mark (ı is the Turkish dotless i).
_FOLD_EXTRA = str.maketrans({"ı": "i", "ø": "o", "đ": "d", "ł": "l", "ß": "ss", "æ": "ae", "œ": "oe"})


def _name_key(name: str) -> list[str]:
    """The words of a name in Turkish lower case without marks (ç→c, ğ→g, ı→i, ö→o, ş→s, ü→u), sorted: two
    names with the same key are the same name however they are written ("ÖZTÜRK, Elif", "Elif Ozturk")."""
    low = turkish_lower(unicodedata.normalize("NFC", name or ""))
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", low) if not unicodedata.combining(ch))
    return sorted(w for w in re.split(r"[\s,]+", plain.translate(_FOLD_EXTRA)) if w)


def _who(name: str, year: int | None) -> str:
    """``"Öztürk, Elif (1998)"``, or the name alone without a birth year."""
    return f"{name} ({year})" if year else name


def _fide_conflict(p, player: Player) -> str:
    """"" when the stored ``player`` (the one with line ``p``'s FIDE id) has the line's name (compared by
    :func:`_name_key`) and birth year (when both give one); else why they look like two people, naming the
    line."""
    file_year, stored_year = _birth_year(p), player.birth_year
    if _name_key(p.name) == _name_key(player.full_name) and not (file_year and stored_year
                                                                 and file_year != stored_year):
        return ""
    return _("line %(line)d: FIDE id %(id)s belongs to %(stored)s; the file says %(file)s") % {
        "line": p.line, "id": player.federation_id, "stored": _who(player.full_name, stored_year),
        "file": _who(p.name, file_year)}


def _sex_label(code: str) -> str:
    return str(Player.Sex(code).label) if code in Player.Sex.values else "—"


def _difference_note(p, player: Player, notes: list[str]) -> None:
    """A note listing what line ``p`` says that differs from the stored ``player`` it is given (name
    spelling, birth year, sex): the stored values are kept."""
    parts = []
    last, first = _split_name(p.name)
    written = f"{last}, {first}" if first else last
    if " ".join(written.split()) != " ".join(player.full_name.split()):
        parts.append(_("name %(file)s (stored: %(stored)s)") % {"file": written, "stored": player.full_name})
    year = _birth_year(p)
    if year is not None and year != player.birth_year:
        parts.append(_("birth year %(file)s (stored: %(stored)s)") % {"file": year,
                                                                       "stored": player.birth_year or "—"})
    sex = _sex(p.sex)
    if sex and sex != player.sex:
        parts.append(_("sex %(file)s (stored: %(stored)s)") % {"file": _sex_label(sex),
                                                                "stored": _sex_label(player.sex)})
    if parts:
        notes.append(_("line %(line)d: the file differs from the stored player %(id)s: %(differences)s; the stored "
                       "values are kept") % {"line": p.line, "id": player.federation_id,
                                             "differences": ", ".join(parts)})


def _option(player: Player) -> dict:
    """A known player offered for a line: federation id, name, club, birth year."""
    club = player.club
    return {"federation_id": player.federation_id, "name": player.full_name,
            "club": (club.short_name or club.name) if club is not None else "", "birth_year": player.birth_year}


def _full_birth_date(text: str) -> bool:
    """True for a birth date with a month or day (``1990/01/01``), not a year alone (``1990``, ``1990/00/00``)."""
    m = re.fullmatch(r"(\d{4})[/.\-](\d{1,2})[/.\-](\d{1,2})", (text or "").strip())
    return bool(m) and int(m.group(1)) != 0 and (int(m.group(2)) != 0 or int(m.group(3)) != 0)


def _birth_date_note(t, notes: list[str]) -> None:
    """One note for the lines giving a full birth date (``1990/01/01``): a player keeps a birth year only."""
    full = [p for p in t.players if _full_birth_date(p.birth_date)]
    if full:
        notes.append(ngettext(
            "%(n)d line gives a full birth date (line %(line)d: %(date)s); only the birth year is kept",
            "%(n)d lines give a full birth date (the first, line %(line)d: %(date)s); only the birth year is kept",
            len(full)) % {"n": len(full), "line": full[0].line, "date": full[0].birth_date})


def _players_for(t, source: str, tournament: Tournament, *, match_players: bool,
                 choices: dict[int, Player | None], confirmed: set[int], notes: list[str],
                 dry_run: bool = False) -> tuple[dict[int, Player], list[PlayerChoice]]:
    """The player of every line (see the module docstring) and how it was found.

    A line whose FIDE id belongs to a stored player with another name or birth year (:func:`_fide_conflict`)
    is refused (:class:`PlayerConflicts`, all such lines at once) unless its start number is in
    ``confirmed``; a dry run reports it (``how == "conflict"``) instead."""
    players: dict[int, Player] = {}
    report: list[PlayerChoice] = []
    taken: dict[int, int] = {}  # player pk → start no, so no player gets two lines
    chosen_pks = {pl.pk: n for n, pl in choices.items() if pl is not None}
    proposals: dict[int, tuple[Player | None, int]] = {}
    wanted: dict[int, list[int]] = defaultdict(list)
    by_fide: dict[int, Player] = {}
    found_of: dict[int, list[Player]] = {}
    for p in t.players:
        fide = (p.fide_id or "").strip()
        if fide.strip("0"):
            known = Player.objects.filter(federation_id=fide).first()
            if known is not None:
                if known.pk in chosen_pks:
                    raise ValidationFailed(_("%(id)s is chosen for starting number %(a)d but line %(line)d "
                                             "(starting number %(b)d) has it as FIDE id.")
                                           % {"id": fide, "a": chosen_pks[known.pk], "line": p.line, "b": p.start_no},
                                           field="player_matches")
                by_fide[p.start_no] = known
                taken[known.pk] = p.start_no
            continue
        if not match_players:
            continue
        found = _known_players(p)
        found_of[p.start_no] = found
        if p.start_no in choices:
            continue
        proposals[p.start_no] = (found[0] if len(found) == 1 else None, len(found))
        if len(found) == 1:
            wanted[found[0].pk].append(p.start_no)
    conflicts: list[PlayerChoice] = []
    for p in t.players:
        last, first = _split_name(p.name)
        fide = (p.fide_id or "").strip()
        if p.start_no in by_fide:
            player = by_fide[p.start_no]
            conflict = _fide_conflict(p, player)
            choice = PlayerChoice(p.line, p.start_no, p.name, player.federation_id, "fide_id", conflict=conflict)
            if conflict and p.start_no not in confirmed:
                choice.how = "conflict"
                conflicts.append(choice)
            else:
                if conflict:
                    notes.append(_("line %(line)d: FIDE id %(id)s: the stored player %(stored)s is this line's player, "
                                   "as confirmed") % {"line": p.line, "id": player.federation_id,
                                                      "stored": _who(player.full_name, player.birth_year)})
                _difference_note(p, player, notes)
            players[p.start_no] = player
            report.append(choice)
            continue
        options = [_option(pl) for pl in found_of.get(p.start_no, [])]
        how, candidates = "new", len(options)
        player = None
        if p.start_no in choices:
            player = choices[p.start_no]
            how = "chosen" if player is not None else "new"
        elif p.start_no in proposals:
            match, candidates = proposals[p.start_no]
            if match is not None:
                if len(wanted[match.pk]) > 1:
                    lines = ", ".join(str(t.player(n).line) for n in wanted[match.pk])
                    text = (_("line %(line)d: %(name)s: lines %(lines)s all match the known player %(id)s; none would "
                              "be matched, each would get a new player") if dry_run else
                            _("line %(line)d: %(name)s: lines %(lines)s all match the known player %(id)s; none is "
                              "matched, each gets a new player"))
                    notes.append(text % {"line": p.line, "name": p.name, "id": match.federation_id, "lines": lines})
                elif match.pk in taken or match.pk in chosen_pks:
                    text = (_("line %(line)d: %(name)s matches the known player %(id)s, who has another line; a new "
                              "player would be registered") if dry_run else
                            _("line %(line)d: %(name)s matches the known player %(id)s, who has another line; a new "
                              "player is registered"))
                    notes.append(text % {"line": p.line, "name": p.name, "id": match.federation_id})
                else:
                    player, how = match, "matched"
            elif candidates > 1:
                text = (_("line %(line)d: %(name)s: %(n)d known players have this name and birth year; a new player "
                          "would be registered (choose one to use a known player)") if dry_run else
                        _("line %(line)d: %(name)s: %(n)d known players have this name and birth year; a new "
                          "player is registered (choose one to use a known player)"))
                notes.append(text % {"line": p.line, "name": p.name, "n": candidates})
        if player is None:
            fields = {"first_name": first, "last_name": last, "sex": _sex(p.sex), "birth_year": _birth_year(p),
                      "rating": max(0, min(MAX_RATING, p.rating or 0))}
            ids = [fide] if fide.strip("0") else _generated_ids(tournament.pk, p.start_no)
            player = _create_player(fields, ids)
        elif how == "matched":
            notes.append(_("line %(line)d: %(name)s matched to known player %(id)s")
                         % {"line": p.line, "name": p.name, "id": player.federation_id})
            _difference_note(p, player, notes)
        elif how == "chosen":
            notes.append(_("line %(line)d: %(name)s is the known player %(id)s (as chosen)")
                         % {"line": p.line, "name": p.name, "id": player.federation_id})
            _difference_note(p, player, notes)
        taken[player.pk] = p.start_no
        players[p.start_no] = player
        report.append(PlayerChoice(p.line, p.start_no, p.name, player.federation_id, how, candidates, options))
    if conflicts:
        if not dry_run:
            shown = "; ".join(c.conflict for c in conflicts[:5])
            more = len(conflicts) - 5
            if more > 0:
                shown += "; " + ngettext("and %(n)d more line", "and %(n)d more lines", more) % {"n": more}
            raise PlayerConflicts(_("%(source)s: %(conflicts)s. Nothing is imported: confirm that the stored player "
                                    "is the same person, or correct the file.")
                                  % {"source": source, "conflicts": shown}, conflicts)
        for c in conflicts:
            notes.append(_("%(conflict)s: the import would be refused unless you confirm that they are the same "
                           "person") % {"conflict": c.conflict})
    return players, report


def _points_of(code: str, inferred: float | None, pab_points: float) -> float:
    if code == "":
        return inferred if inferred is not None else 0.0
    value = code_points(code, pab_points=pab_points)
    return 0.0 if value is None else value


def _cell_bye_kind(code: str, value: float) -> str:
    kind = _BYE_KINDS.get(code)
    if kind is None:
        kind = {1.0: "full", 0.5: "half", 0.0: "zero"}[value] if code in ("", "=", "1", "0", "W", "D", "L") else "zero"
    return kind


# --------------------------------------------------------------------------------------------
# The import


class _DryRun(Exception):
    """Raised inside the import's transaction to roll a dry run back."""

    def __init__(self, report: ImportReport) -> None:
        super().__init__("dry run")
        self.report = report


def tournament_import_trf(*, data: bytes | str, source: str = "<trf>", user=None, name: str | None = None,
                          progress: Callable[[int, int], None] | None = None, system: str | None = None,
                          publish: bool = True, match_players: bool = True,
                          player_matches: dict[int, str | None] | None = None,
                          dry_run: bool = False) -> ImportReport:
    """Create a tournament from TRF ``data``: its played rounds closed, byes entered ahead as absences.

    Returns an :class:`ImportReport`. Raises ValidationFailed (``field="file"``) with the line number
    for anything unreadable, inconsistent or that cannot be honoured; nothing is saved then.

    * ``system``: ``"swiss"`` or ``"round_robin"``; ``None`` takes the file's ``092`` line. When the
      file does not say (no ``092`` line, or a text that is neither) and ``system`` is ``None``:
      ValidationFailed with ``field="system"``. Given, it wins over the file (with a note).
    * ``publish``: a finished event's standings are published after its last round (the public sees
      them); ``False`` leaves them private.
    * ``match_players``: reuse a known player with the same name, birth year and code (module
      docstring); ``player_matches`` = ``{start_no: federation_id or None}`` decides per line (None: a
      new player) — ValidationFailed ``field="player_matches"`` for an unknown id or start number.
    * ``dry_run``: do everything, then roll back; the report says what would be imported.

    ``progress(done, total)`` is called once the file is read and checked (``done = 0``), after every
    100 entries and the last one (``done`` = entries made) and after each round r (``done = n + r * n``),
    with ``total = n + rounds * n`` for ``n`` players: the job of :func:`trf_import_run` reports it.
    """
    options = {"data": data, "source": source, "user": user, "name": name, "progress": progress,
               "system": system or None, "publish": publish, "match_players": match_players,
               "player_matches": player_matches, "dry_run": dry_run}
    if not dry_run:
        with transaction.atomic():
            return _import(**options)
    try:
        with transaction.atomic():
            report = _import(**options)
            report.dry_run = True
            raise _DryRun(report)
    except _DryRun as stop:
        return stop.report


def declared_system_quick(data: bytes | str) -> str | None:
    """The system the first ``092`` line of ``data`` declares (``None``: no such line, or a text that is
    neither Swiss nor round robin), read without parsing the file (for the job queue)."""
    text = _decode(data)[0] if isinstance(data, bytes) else data
    for line in _LINE_SPLIT.split(text.lstrip("\ufeff")):
        if line.startswith("092"):
            return declared_system(line[3:])[0]
    return None


def _system_of(t, source: str, system: str | None, notes: list[str], *,
               dry_run: bool = False) -> tuple[str, bool | None]:
    """The system to import as and whether it is a double round robin (``None``: the file does not say)."""
    if system is not None and system not in Tournament.System.values:
        raise ValidationFailed(_("The system is %(choices)s.") % {"choices": " or ".join(Tournament.System.values)},
                               field="system")
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


def _import(*, data, source, user, name, progress, system, publish, match_players, player_matches,
            dry_run: bool = False) -> ImportReport:
    if user is not None:
        access.require(access.can_create_tournament(user), _("Only organisers can import tournaments."))
    if name and no_control_characters_in(name) is not None:
        raise ValidationFailed(_("Control characters are not allowed in a name."), field="name")
    try:
        t = parse_trf(data, source=source)
    except TrfError as exc:
        raise _reader_error(source, exc) from exc
    _check_unread(t, source)
    _check_rounds(t, source)
    _check_players(t, source)
    bye_points = _check_point_system(t, source)
    pab = float(bye_points)
    try:
        inferences = infer_blank_codes(t, pab_points=pab)
    except TrfError as exc:
        raise _reader_error(source, exc) from exc
    mismatches = [w for w in getattr(t, "warnings", []) if " who has " in w]
    if mismatches:
        raise ValidationFailed(
            _("%(source)s: %(problem)s — the two players' results of a game must agree")
            % {"source": source, "problem": trf_text(mismatches[0])}, field="file"
        )
    if not t.players:
        raise ValidationFailed(_("%(s)s: no player lines (001) found.") % {"s": source}, field="file")
    notes: list[str] = []
    colour, colour_from = _initial_colour(t, source, notes)
    inferred = {(i.start_no, i.round): i for i in inferences}
    by_no = {p.start_no: p for p in t.players}
    rounds_played = played_rounds(t)
    declared_rounds = t.total_rounds or t.rounds_142

    # byes entered ahead: cells of rounds after the last played one, and 240 lines
    ahead: dict[tuple[int, int], tuple[str, int]] = {}
    for p in t.players:
        for c in p.results:
            if c.round <= rounds_played or c.opponent is not None or c.code == "":
                continue
            kind = _cell_bye_kind(c.code, code_points(c.code, pab_points=pab) or 0.0)
            ahead[(p.start_no, c.round)] = (kind, p.line)
    for b in t.byes:
        kind = _BYE_KINDS[b.kind]
        if b.round <= rounds_played:
            cell = by_no[b.start_no].result(b.round)
            have = (None if cell is None or cell.opponent is not None
                    else _cell_bye_kind(cell.code, _points_of(cell.code, getattr(inferred.get((b.start_no, b.round)),
                                                                                 "value", None), pab)))
            if have != kind:
                raise _refuse(source, b.line, _(
                    "240: player %(no)d has a bye (%(code)s) for round %(round)d, which is played, but the player's line "
                    "(line %(line)d) does not show it") % {"no": b.start_no, "code": b.kind, "round": b.round,
                                                           "line": by_no[b.start_no].line})
            continue
        earlier = ahead.get((b.start_no, b.round))
        if earlier is not None and earlier[0] != kind:
            raise _refuse(source, b.line, _("240: player %(no)d has a bye (%(code)s) for round %(round)d, but "
                                            "line %(line)d gives another one") % {
                "no": b.start_no, "code": b.kind, "round": b.round, "line": earlier[1]})
        ahead[(b.start_no, b.round)] = (kind, b.line)
    for (start_no, rnd), (kind, line) in sorted(ahead.items(), key=lambda kv: kv[1][1]):
        if rnd > MAX_ROUNDS or (declared_rounds is not None and rnd > max(declared_rounds, rounds_played)):
            raise _refuse(source, line, _("player %(no)d has a bye for round %(round)d, after the last round "
                                          "(%(rounds)d)") % {"no": start_no, "round": rnd,
                                                             "rounds": declared_rounds or MAX_ROUNDS})

    header = _header_values(t, name, source, notes)
    start_date, end_date = parse_date(t.start_date), parse_date(t.end_date)
    for tag, text, day in (("042", t.start_date, start_date), ("052", t.end_date, end_date)):
        if text.strip() and day is None:
            notes.append(_("line %(line)d: %(text)s is not a date; not kept") % {"line": t.tag_lines.get(tag, 0),
                                                                               "text": repr(text.strip())})
    if start_date and end_date and end_date < start_date:
        notes.append(_("line %(line)d: the end date is before the start date; the start date is kept as the end "
                       "date") % {"line": t.tag_lines.get("052", 0)})
        end_date = start_date
    round_dates = _round_dates(t, data, source, start_date or end_date, notes)
    _round_dates_in_the_event(t, round_dates, start_date, end_date, notes)
    _rank_ties(t, notes)

    system, double = _system_of(t, source, system, notes, dry_run=dry_run)
    baku = _pairing_system(t, source, system)
    n_players = len(t.players)
    rounds_total = max(declared_rounds or 0, rounds_played, len(round_dates), max((r for _n, r in ahead), default=0), 1)
    if system == Tournament.System.ROUND_ROBIN:
        double = _check_round_robin(t, source, double, declared_rounds, rounds_played, round_dates, notes)
        field_size = _round_robin_field(t, rounds_played)
        cycle = field_size if field_size % 2 else field_size - 1
        if double is None:  # the file does not say: two cycles when the rounds say so
            double = cycle > 0 and rounds_total == 2 * cycle
        if declared_rounds is None:
            rounds_total = max(rounds_total, cycle * (2 if double else 1), 1)
    if declared_rounds is not None and rounds_played > declared_rounds:
        notes.append(_("line %(line)d: %(n)d rounds are declared but %(played)d are played; the tournament has "
                       "%(played)d rounds") % {"line": t.tag_lines.get("XXR") or t.line_of.get("142", 0),
                                               "n": declared_rounds, "played": rounds_played})
    round_dates = (round_dates + [""] * rounds_total)[:rounds_total] if any(round_dates) else []
    acceleration = Tournament.Acceleration.NONE
    virtual = {n: [float(v) for v in values] for n, values in t.accelerations.items() if any(values)}  # zeros: none
    if virtual:
        acceleration = Tournament.Acceleration.MANUAL
        if baku:
            notes.append(_("line %(line)d: 192 asks for Baku acceleration but the file gives virtual points (XXA); "
                           "the file's points are used") % {"line": t.line_of.get("192", 0)})
    elif baku:
        acceleration = Tournament.Acceleration.BAKU
    if system == Tournament.System.ROUND_ROBIN:
        for what, present, line in (
            (_("forbidden pairs"), t.forbidden, min((f.line for f in t.forbidden), default=0)),
            (_("virtual points (accelerated pairing)"), virtual,
             min((t.line_of.get(f"XXA {n}", 0) for n in virtual), default=0)),
        ):
            if present:
                notes.append(_("line %(line)d: %(what)s are kept but do not change a round robin's pairing")
                             % {"line": line, "what": what})
    if any(p.title for p in t.players):
        notes.append(_("titles (columns 11-13) are not kept"))
    if t.deputy_arbiters:
        notes.append(_("line %(line)d: deputy arbiters (112) are not kept") % {"line": _tag_line(t, "112")})

    rounds_for_work = rounds_played
    report_progress = progress or (lambda done, total: None)
    work = n_players * (1 + rounds_for_work)
    report_progress(0, work)
    title = header["name"] or "TRF"
    same = Tournament.objects.filter(name=title).first()
    fields = dict(
        name=title, start_date=start_date, end_date=end_date, city=header["city"], federation=header["federation"],
        system=system, double_round_robin=bool(double), rounds_total=rounds_total, sets_per_match=3,
        chief_arbiter=header["chief_arbiter"], time_control=header["time_control"], round_dates=round_dates,
        bye_points=bye_points, acceleration=acceleration,
        status=(Tournament.Status.DRAFT if rounds_played == 0 else Tournament.Status.FINISHED
                if rounds_played >= rounds_total else Tournament.Status.RUNNING),
        imported_from_trf=True, created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    tournament = _create_tournament(title, fields)
    slug = tournament.slug

    choices, confirmed = _resolve_choices(t, source, player_matches)
    players, choices_report = _players_for(t, source, tournament, match_players=match_players, choices=choices,
                                           confirmed=confirmed, notes=notes, dry_run=dry_run)
    _birth_date_note(t, notes)
    entries: dict[int, Entry] = {}
    for p in t.players:
        entries[p.start_no] = Entry.objects.create(
            tournament=tournament, player=players[p.start_no], start_no=p.start_no, rating=max(0, p.rating or 0),
            federation=(p.federation or "").strip()[:3], official_rank=p.rank or None,
            accelerations=virtual.get(p.start_no, []),
        )
        if len(entries) % 100 == 0:
            report_progress(len(entries), work)
    report_progress(n_players, work)
    notes += [
        _("line %(line)d: start no %(no)d, round %(round)d: blank result code counted as %(value)s (from the "
          "points column)") % {"line": i.line, "no": i.start_no, "round": i.round, "value": f"{i.value:g}"}
        for i in inferences if i.round <= rounds_played
    ]
    if same is not None:
        text = (_("a tournament named %(name)s already exists (%(slug)s); it would be imported as %(new)s") if dry_run
                else _("a tournament named %(name)s already exists (%(slug)s); imported as %(new)s"))
        notes.insert(0, text % {"name": repr(title), "slug": same.slug, "new": slug})
    score_before = {p.start_no: 0.0 for p in t.players}  # points before round r (cells of rounds < r)
    had_pab: dict[int, int] = {}  # start no → the first round of a pairing-allocated bye
    forfeit_won: dict[int, int] = {}  # start no → the first round won by forfeit
    first_round = None
    for r in range(1, rounds_played + 1):
        rnd = Round.objects.create(tournament=tournament, number=r, status=Round.Status.CLOSED)
        first_round = first_round or rnd
        games, byes = [], []
        seen = set()
        if r > 1:
            for p in t.players:
                c = p.result(r - 1)
                if c is not None:
                    score_before[p.start_no] += _points_of(
                        c.code, getattr(inferred.get((p.start_no, c.round)), "value", None), pab)
        for p in t.players:
            cell = p.result(r)
            if cell is None:  # beyond the line's last cell: withdrawn, no board (as the product pairs)
                continue
            inf = inferred.get((p.start_no, r))
            if cell.opponent:
                if p.start_no in seen:
                    continue
                opp = by_no.get(cell.opponent)
                if opp is None:
                    raise _refuse(source, p.line, _("round %(round)d opponent %(opp)d does not exist")
                                  % {"round": r, "opp": cell.opponent})
                seen.update({p.start_no, opp.start_no})
                ocell = opp.result(r)
                if cell.colour == "b":
                    games.append((opp, ocell, p, cell))
                else:
                    games.append((p, cell, opp, ocell))
            else:
                value = _points_of(cell.code, inf.value if inf else None, pab)
                byes.append((p, _cell_bye_kind(cell.code, value), value))
        if system == Tournament.System.SWISS:
            byes = _byes_without_u(r, len(games), byes, had_pab, forfeit_won, pab, notes)
        games.sort(key=lambda g: (-max(score_before[g[0].start_no], score_before[g[2].start_no]),
                                  min(g[0].start_no, g[2].start_no)))
        board = 0
        for wp, wc, bp, bc in games:
            board += 1
            m = Match(round=rnd, board=board, white=entries[wp.start_no], black=entries[bp.start_no])
            wcode = wc.code if wc else ""
            bcode = bc.code if bc else ""
            if wcode == "" and bcode == "":
                w_inf = inferred.get((wp.start_no, r))
                wcode = {1.0: "1", 0.5: "=", 0.0: "0"}[w_inf.value] if w_inf else "0"
            if wcode in ("+", "-") or bcode in ("+", "-"):
                m.forfeit = "both" if (wcode == "-" and bcode == "-") else ("black" if wcode == "+" else "white")
                m.white_points, m.black_points = {"both": (0, 0), "black": (1, 0), "white": (0, 1)}[m.forfeit]
                m.rated = False
                if m.forfeit in ("black", "white"):
                    forfeit_won.setdefault((wp if m.forfeit == "black" else bp).start_no, r)
            else:
                wv = code_points(wcode, pab_points=pab)
                if wv is None:
                    raise _refuse(source, wp.line, _("round %(round)d has no result") % {"round": r})
                bv = code_points(bcode, pab_points=pab) if bcode else 1.0 - wv
                if bv is None or wv + bv != 1.0:
                    raise _refuse(source, wp.line, _(
                        "round %(round)d: player %(white)d has result %(wcode)s but player %(black)d (line %(bline)d) "
                        "has %(bcode)s — the two players' results of a game must agree (a game not played by either "
                        "is '-' '-')") % {"round": r, "white": wp.start_no, "wcode": repr(wcode),
                                          "black": bp.start_no, "bline": bp.line, "bcode": repr(bcode)})
                m.white_points, m.black_points = _POINTS[wv], _POINTS[1.0 - wv]
                m.rated = wcode in ("1", "=", "0")
            m.save()
        for p, kind, value in sorted(byes, key=lambda b: b[0].start_no):
            if kind == "pab":
                had_pab.setdefault(p.start_no, r)
            board += 1
            Match.objects.create(
                round=rnd, board=board, white=entries[p.start_no], kind=Match.Kind.BYE, bye_kind=kind,
                white_points=_POINTS[value if kind != "pab" else pab],
            )
        report_progress(n_players * (1 + r), work)

    by_user = user if getattr(user, "is_authenticated", False) else None
    for (start_no, rnd), (kind, _line) in sorted(ahead.items()):
        Absence.objects.create(entry=entries[start_no], round_number=rnd, kind=kind, created_by=by_user)
    _forbidden_pairs(t, tournament, entries, rounds_total, by_user)
    if colour:
        if first_round is not None:
            CoinToss.objects.create(round=first_round, seed=f"TRF {colour_from}", outcome=colour,
                                    tossed_at=timezone.now())
        else:
            notes.append(_("%(what)s: the colour of the top seed in round 1 is not kept (no round is played; the "
                           "coin toss of round 1 decides)") % {"what": colour_from})
    withdrawn_by_inference = {i.start_no for i in inferences if "withdrawn" in (getattr(i, "reason", "") or "")}
    for e in entries.values():
        p = by_no[e.start_no]
        cells = [c for c in p.results if c.round <= rounds_played]
        if e.start_no in withdrawn_by_inference:
            e.withdrawn = True
            played = [c.round for c in cells if c.opponent or c.code not in ("", "-", "Z")]
            e.withdrawn_after_round = max(played, default=0)
            e.save(update_fields=["withdrawn", "withdrawn_after_round"])
        elif p.results and max(c.round for c in p.results) < rounds_played:
            e.withdrawn = True
            e.withdrawn_after_round = max(c.round for c in p.results)
            e.save(update_fields=["withdrawn", "withdrawn_after_round"])
    _points_notes(t, inferences, rounds_played, pab, notes)
    for (start_no, rnd), (kind, line) in sorted(ahead.items()):
        notes.append(_("line %(line)d: player %(no)d has a %(kind)s entered ahead for round %(round)d (not played "
                       "yet)") % {"line": line, "no": start_no, "kind": Match.ByeKind(kind).label, "round": rnd})
    if tournament.status == Tournament.Status.FINISHED and publish:
        tournament.standings_published_at = timezone.now()
        tournament.standings_round = rounds_played
        tournament.save(update_fields=["standings_published_at", "standings_round"])
    elif publish and rounds_played and tournament.status != Tournament.Status.FINISHED:
        notes.append(_("the event is not finished (%(played)d of %(total)d rounds played): its standings are not "
                       "published") % {"played": rounds_played, "total": rounds_total})
    return ImportReport(tournament=tournament, notes=notes, players=choices_report, rounds=rounds_played,
                        entries=len(entries))


def _byes_without_u(r: int, games: int, byes: list, had_pab: dict[int, int], forfeit_won: dict[int, int],
                    pab: float, notes: list[str]) -> list:
    """The byes of Swiss round ``r`` with a 1-point bye written without the ``U`` code (``0000 - +``, or a blank
    code the points column counts as 1) decided: TRF-16 had no ``U`` code and programs wrote the
    pairing-allocated bye so. It is the pairing-allocated bye when it is the only such bye of the round, no
    other player has the round's pairing-allocated bye (``U``), the players paired (``2 * games`` + 1) are
    an odd number, the bye is worth what a pairing-allocated bye is worth (1 point) and the player had
    neither a pairing-allocated bye nor a forfeit win before (C.04.1 c); otherwise a full-point bye. A note
    says which and why. ``byes`` are ``(player line, kind, value)``."""
    unmarked = [b for b in byes if b[2] == 1.0 and b[0].result(r).code in ("+", "") and b[1] == "full"]
    if not unmarked:
        return byes
    explicit = [b[0] for b in byes if b[0].result(r).code == "U"]
    paired = 2 * games + len(unmarked)
    unmarked_nos = {b[0].start_no for b in unmarked}
    out = []
    for b in byes:
        if b[0].start_no not in unmarked_nos:
            out.append(b)
            continue
        p = b[0]
        cell = (p.result(r).raw or "0000 - " + p.result(r).code).strip()
        reason = ""
        if abs(pab - 1.0) > 1e-9:
            reason = _("a pairing-allocated bye is worth %(value)s in this file (BBU)") % {"value": f"{pab:g}"}
        elif explicit:
            reason = _("player %(no)d has the pairing-allocated bye (U) of this round") % {"no": explicit[0].start_no}
        elif len(unmarked) > 1:
            reason = _("%(n)d players have such a bye in this round, and a round has one pairing-allocated bye") % {
                "n": len(unmarked)}
        elif paired % 2 == 0:
            reason = _("%(n)d players were paired, an even number") % {"n": paired}
        elif p.start_no in had_pab:
            reason = _("the player had the pairing-allocated bye in round %(round)d, and a player gets it once "
                       "(C.04.1)") % {"round": had_pab[p.start_no]}
        elif p.start_no in forfeit_won:
            reason = _("the player won round %(round)d by forfeit, and then gets no pairing-allocated bye "
                       "(C.04.1)") % {"round": forfeit_won[p.start_no]}
        if reason:
            notes.append(_("line %(line)d: round %(round)d: the 1-point bye without a U code (%(cell)s) is taken as a "
                           "full-point bye: %(reason)s") % {"line": p.line, "round": r, "cell": repr(cell),
                                                           "reason": reason})
            out.append(b)
            continue
        notes.append(_("line %(line)d: round %(round)d: the 1-point bye without a U code (%(cell)s) is taken as the "
                       "pairing-allocated bye: %(n)d players were paired (an odd number), nobody else had the "
                       "round's pairing-allocated bye and it is the player's first (C.04.1)")
                     % {"line": p.line, "round": r, "cell": repr(cell), "n": paired})
        out.append((p, "pab", b[2]))
    return out


def _tag_line(t, tag: str) -> int:
    for no, (kind, _n) in enumerate(t.layout, start=1):
        if kind == tag:
            return no
    return 0


def _create_tournament(title: str, fields: dict) -> Tournament:
    """A new tournament with a free slug; each insert in a savepoint, so a slug taken meanwhile by a
    concurrent import moves on to the next one instead of failing."""
    for _attempt in range(20):
        slug = unique_slug(title)
        try:
            with transaction.atomic():
                return Tournament.objects.create(slug=slug, **fields)
        except IntegrityError:
            if not Tournament.objects.filter(slug=slug).exists():
                raise
    raise ValidationFailed(_("No free short name for the tournament; try again."), field="name")  # pragma: no cover


def _forbidden_pairs(t, tournament: Tournament, entries: dict[int, Entry], rounds_total: int, user) -> None:
    """ForbiddenPair rows of the XXP/260 lines: every two players of a group, the lower entry id first; a
    range to the last round is open (``last_round=None``); the same pair twice keeps the widest range."""
    rows: dict[tuple[int, int, int], int | None] = {}
    for f in t.forbidden:
        last = None if f.last_round is None or f.last_round >= rounds_total else f.last_round
        for i, a in enumerate(f.players):
            for b in f.players[i + 1:]:
                ids = sorted((entries[a].id, entries[b].id))
                key = (ids[0], ids[1], f.first_round)
                if key in rows:
                    old = rows[key]
                    last = None if old is None or last is None else max(old, last)
                rows[key] = last
    for (first, second, first_round), last in sorted(rows.items()):
        ForbiddenPair.objects.create(tournament=tournament, first_id=first, second_id=second, first_round=first_round,
                                     last_round=last, created_by=user)


def _points_notes(t, inferences, rounds_played: int, pab: float, notes: list[str]) -> None:
    """A note for each player whose points column is neither the points of his played rounds nor those plus
    his byes entered ahead (the points column is not kept: the standings count the results)."""
    values = defaultdict(float)
    ahead = defaultdict(float)
    for i in inferences:
        if i.round <= rounds_played:
            values[i.start_no] += i.value
    for p in t.players:
        for c in p.results:
            v = code_points(c.code, pab_points=pab) if c.code else None
            if v is None:
                continue
            if c.round <= rounds_played:
                values[p.start_no] += v
            else:
                ahead[p.start_no] += v
    for p in t.players:
        if p.points is None:
            continue
        got = values[p.start_no]
        if abs(p.points - got) > 1e-9 and abs(p.points - got - ahead[p.start_no]) > 1e-9:
            notes.append(_("line %(line)d: player %(no)d: the points column says %(file)s but the results give "
                           "%(ours)s; the results count") % {"line": p.line, "no": p.start_no,
                                                            "file": f"{p.points:g}", "ours": f"{got:g}"})


def _file_ranks_apply(tournament: Tournament, entries: list[Entry], last_closed: int) -> bool:
    """True when the rank column of an export is the imported file's (``Entry.official_rank``): some entry has
    one, the export reaches the tournament's last closed round and every exported round came from the file
    (none was paired here after the import: the file's ranks are the ranks after those rounds)."""
    if not any(e.official_rank for e in entries):
        return False
    closed = tournament.rounds.filter(status=Round.Status.CLOSED)
    if last_closed < (closed.order_by("-number").values_list("number", flat=True).first() or 0):
        return False
    return not closed.filter(number__lte=last_closed, paired_at__isnull=False).exists()


def tournament_export_trf(*, tournament: Tournament, up_to_round: int | None = None, personal: bool = True) -> str:
    """TRF-16 text of ``tournament``: player lines with every CLOSED round (a round still being played
    is left out, so the file is consistent and can be paired from), XXR with the number of rounds.
    ``up_to_round`` keeps the closed rounds up to that one (the public's file stops at the round the
    standings were published after: :func:`tournaments.publication.published_round`).
    ``personal=False`` leaves the birth date and sex columns blank and writes no forbidden pairs nor
    byes entered ahead (the public's file, KVKK: :mod:`federation.privacy`); the organisers' file and
    ``manage.py export_trf`` keep them.

    Points column = match points after the last closed round; rank column = standings rank then, or the
    imported file's own ranks (``Entry.official_rank``, so they survive a round trip) when the tournament has
    them and no round was paired here since the import (:func:`_file_ranks_apply`);
    federation column = ``Entry.federation``. A closed round in which an entry had no board (late entry,
    absence) is written ``0000 - Z``, but not the rounds after a withdrawal (blank: the reader sees the
    withdrawal). Header: 032 (``Tournament.federation``, TUR when blank), 092 (:func:`type_text`), 132
    (round dates, ``YY/MM/DD``), ``XXC white1``/``black1`` (round 1's coin toss), ``BBW``..``BBU`` (the
    point system: ``BBU`` is ``Tournament.bye_points``), ``XXP``/``260`` (forbidden pairs; their reasons
    have no place), ``XXA`` (virtual points of a manually accelerated event), ``192
    FIDE_DUTCH_2025_BAKU`` (Baku acceleration). Byes entered ahead (absences of rounds not closed yet):
    the next round's in its cells (``0000 - H``, what bbpPairings and JaVaFo read), later rounds' and a
    withdrawn player's as ``240`` lines.
    """
    from tournaments.selectors import tournament_standings

    entries = list(tournament.entries.select_related("player").order_by("start_no"))
    qs = Match.objects.filter(round__tournament=tournament, round__status=Round.Status.CLOSED).select_related("round")
    if up_to_round is not None:
        qs = qs.filter(round__number__lte=up_to_round)
    matches = list(qs)
    closed = sorted({m.round.number for m in matches})
    last_closed = closed[-1] if closed else 0
    standings = tournament_standings(tournament=tournament, after_round=last_closed)
    rank = {line.start_no: line.rank for line in standings.lines}
    if _file_ranks_apply(tournament, entries, last_closed):
        rank = {e.start_no: e.official_rank for e in entries}
    points = {line.start_no: line.points for line in standings.lines}
    by_id = {e.id: e for e in entries}
    cells: dict[int, list] = defaultdict(list)
    for m in matches:
        r = m.round.number
        wc, bc = match_codes(m)
        if m.black_id is None:
            cells[m.white_id].append(TrfResult(round=r, opponent=None, colour=None, code=wc))
        else:
            cells[m.white_id].append(TrfResult(round=r, opponent=by_id[m.black_id].start_no, colour="w", code=wc))
            cells[m.black_id].append(TrfResult(round=r, opponent=by_id[m.white_id].start_no, colour="b", code=bc))
    for e in entries:  # closed rounds an entry has no board in (late entry, absence): zero-point bye
        have = {c.round for c in cells[e.id]}
        gone = e.withdrawn_after_round if e.withdrawn and e.withdrawn_after_round is not None else None
        cells[e.id] += [TrfResult(round=r, opponent=None, colour=None, code="Z") for r in closed
                        if r not in have and (gone is None or r <= gone)]
    byes: list[TrfBye] = []
    forbidden: list[TrfForbidden] = []
    if personal and up_to_round is None:
        for a in Absence.objects.filter(entry__tournament=tournament, round_number__gt=last_closed,
                                        round_number__lte=max(tournament.rounds_total, last_closed)
                                        ).order_by("round_number", "entry_id"):
            e = by_id[a.entry_id]
            code = _KIND_CODES.get(a.kind, "Z")
            have = {c.round for c in cells[e.id]}
            if a.round_number == last_closed + 1 and not e.withdrawn and have >= set(closed):
                cells[e.id].append(TrfResult(round=a.round_number, opponent=None, colour=None, code=code))
            else:
                byes.append(TrfBye(code, a.round_number, e.start_no))
        for f in ForbiddenPair.objects.filter(tournament=tournament).order_by("first_round", "id"):
            if f.first_id in by_id and f.second_id in by_id:
                forbidden.append(TrfForbidden(
                    tuple(sorted((by_id[f.first_id].start_no, by_id[f.second_id].start_no))), f.first_round,
                    f.last_round))
        forbidden.sort(key=lambda f: (f.first_round, f.players, f.last_round or 0))
    accelerations: dict[int, list[float]] = {}
    if tournament.acceleration == Tournament.Acceleration.MANUAL:
        for e in entries:
            values = [min(max(round(float(v or 0), 1), 0.0), 99.9) for v in (e.accelerations or [])
                      if isinstance(v, (int, float))]
            if any(values):
                accelerations[e.start_no] = values
    players = []
    for e in entries:
        pl = e.player
        players.append(
            TrfPlayer(
                start_no=e.start_no, sex={"m": "m", "f": "w"}.get(pl.sex, " ") if personal else " ", title="",
                name=pl.full_name, rating=e.rating, federation=e.federation or "",
                fide_id=pl.federation_id if pl.federation_id.isdigit() else "",
                birth_date=str(pl.birth_year or "") if personal else "", points=points.get(e.start_no, 0.0),
                rank=rank.get(e.start_no), results=sorted(cells[e.id], key=lambda c: c.round), line=0,
            )
        )
    if any(p.start_no > 9999 for p in players):  # stored data TRF cannot hold (4 columns): renumber 1..n
        new_no = {p.start_no: i for i, p in enumerate(players, start=1)}
        for p in players:
            p.start_no = new_no[p.start_no]
            for c in p.results:
                c.opponent = new_no.get(c.opponent) if c.opponent is not None else None
        byes = [TrfBye(b.kind, b.round, new_no[b.start_no]) for b in byes]
        forbidden = [TrfForbidden(tuple(new_no[n] for n in f.players), f.first_round, f.last_round)
                     for f in forbidden]
        accelerations = {new_no[n]: v for n, v in accelerations.items()}
    toss = CoinToss.objects.filter(round__tournament=tournament, round__number=1).first()
    colour = toss.outcome if toss is not None and (up_to_round is None or up_to_round >= 1) else None
    fmt = lambda d: d.strftime("%Y/%m/%d") if d else ""  # noqa: E731
    dates = [format_round_date(d) for d in (tournament.round_dates or []) if isinstance(d, str)]
    extra = [f"192 {BAKU_PAIRING_SYSTEM}"] if tournament.acceleration == Tournament.Acceleration.BAKU else []
    if tournament.format == Tournament.Format.TEAM:  # team championships: 082 (teams) and a 013 line per team
        from tournaments.teams.selectors import team_trf_lines

        team_lines = team_trf_lines(tournament=tournament,
                                    renumber={e.start_no: p.start_no for e, p in zip(entries, players)})
        extra += [f"082 {len(team_lines)}", *team_lines]
    data = TrfTournament(
        name=tournament.name, city=tournament.city, federation=tournament.federation or "TUR",
        start_date=fmt(tournament.start_date), end_date=fmt(tournament.end_date), num_players=len(entries),
        num_rated=sum(1 for e in entries if e.rating), tournament_type=type_text(tournament),
        chief_arbiter=tournament.chief_arbiter, deputy_arbiters=[], time_control=tournament.time_control,
        round_dates=dates if any(dates) else [], players=players, total_rounds=tournament.rounds_total, xxc=[],
        extra_lines=extra, forbidden=forbidden, accelerations=accelerations, byes=byes,
        point_system={**STANDARD_POINTS, "U": float(tournament.bye_points)}, initial_colour=colour,
    )
    return dump_trf(data, truncate=True)


# --------------------------------------------------------------------------------------------
# Uploads: bounded size; big files imported by a Celery job (tournaments.tasks.import_trf_task)
# --------------------------------------------------------------------------------------------

#: A file with more player lines than this, or more round cells than :data:`JOB_MIN_CELLS`, is imported
#: by a job with a progress page (202) instead of within the web request (201). Settings
#: ``TRF_JOB_MIN_PLAYERS`` / ``TRF_JOB_MIN_CELLS`` override them (0 and 0: every import is a job).
#: Measured (issue 23): an import costs about 0.45 ms a round cell on SQLite here (400 players x 11
#: rounds, 4,400 cells: 2.0 s; 200 x 9: 0.8 s; a 1,998-player, 180,000-cell file ran 366 s in
#: production), so a file imported in the request stays around a second; what is smaller keeps its
#: synchronous 400 naming the line, its preview and its player choices.
JOB_MIN_PLAYERS = 250
JOB_MIN_CELLS = 2_500

logger = logging.getLogger(__name__)


class QueueUnavailable(ApplicationError):
    """The job queue (the Celery broker) cannot be reached: try again later. HTTP 503."""

    status = 503
    default_code = "unavailable"


def max_upload_bytes() -> int:
    """The largest TRF file accepted from the page and the API: ``settings.TRF_MAX_UPLOAD_BYTES`` (2 MB)."""
    return int(getattr(settings, "TRF_MAX_UPLOAD_BYTES", 2 * 1024 * 1024))


def check_upload_size(size: int | None) -> None:
    """ValidationFailed (``field="file"``) when ``size`` bytes are more than :func:`max_upload_bytes`."""
    limit = max_upload_bytes()
    if size is not None and size > limit:
        raise ValidationFailed(
            _("The file is larger than %(limit)s (%(size)s); split it or ask the federation to import it.")
            % {"limit": filesizeformat(limit), "size": filesizeformat(size)},
            field="file",
        )


def read_upload(upload) -> bytes:
    """The bytes of an uploaded file; refused (``field="file"``) when larger than :func:`max_upload_bytes`
    (never reads more than that plus one byte)."""
    check_upload_size(getattr(upload, "size", None))
    data = upload.read(max_upload_bytes() + 1)
    check_upload_size(len(data))
    return data


def trf_size(data: bytes | str) -> tuple[int, int]:
    """``(player lines, round cells)`` of a TRF file, counted on the raw lines without parsing it: what
    decides whether it is imported by a job."""
    text = _decode(data)[0] if isinstance(data, bytes) else data
    players = cells = 0
    first = _FIRST_ROUND_COL - 1
    for line in _LINE_SPLIT.split(text):
        if line.startswith("001"):
            players += 1
            rest = len(line.rstrip()) - first
            if rest > 0:
                cells += (rest + _ROUND_WIDTH - 1) // _ROUND_WIDTH
    return players, cells


def needs_job(data: bytes | str) -> bool:
    """True when the file has more players than ``TRF_JOB_MIN_PLAYERS`` (250) or more round cells than
    ``TRF_JOB_MIN_CELLS`` (2,500): it is imported by :func:`trf_import_queue`."""
    players, cells = trf_size(data)
    return (players > getattr(settings, "TRF_JOB_MIN_PLAYERS", JOB_MIN_PLAYERS)
            or cells > getattr(settings, "TRF_JOB_MIN_CELLS", JOB_MIN_CELLS))


def _job_options(*, system: str | None, publish: bool, match_players: bool,
                 player_matches: dict | None) -> dict:
    """The import options a job carries in its message (JSON: start numbers as text); only those that
    differ from the defaults."""
    out: dict = {}
    if system:
        out["system"] = system
    if not publish:
        out["publish"] = False
    if not match_players:
        out["match_players"] = False
    if player_matches:
        out["player_matches"] = {str(k): v for k, v in player_matches.items()}
    return out


def trf_import_queue(*, data: bytes, source: str = "upload.trf", user=None, name: str | None = None,
                     system: str | None = None, publish: bool = True, match_players: bool = True,
                     player_matches: dict | None = None) -> TrfImport:
    """Store ``data`` as a queued :class:`TrfImport` and send ``tournaments.import_trf`` for it, with the
    options of :func:`tournament_import_trf` (in the task's message).

    Refuses like :func:`tournament_import_trf` what can be refused at once (no organiser; a name with a
    control character; a file over the size limit; a file that does not say its system, 092, when
    ``system`` is not given). With Celery eager (the embedded mode) the job runs at once and the returned
    row is finished; with a broker it is queued when the row is committed. Raises
    :class:`QueueUnavailable` (503) when the broker cannot be reached; the row is then failed.
    """
    from tournaments.tasks import import_trf_task

    if user is not None:
        access.require(access.can_create_tournament(user), _("Only organisers can import tournaments."))
    if name and no_control_characters_in(name) is not None:
        raise ValidationFailed(_("Control characters are not allowed in a name."), field="name")
    if system and system not in Tournament.System.values:
        raise ValidationFailed(_("The system is %(choices)s.") % {"choices": " or ".join(Tournament.System.values)},
                               field="system")
    check_upload_size(len(data))
    if not system and declared_system_quick(data) is None:
        raise ValidationFailed(_("%(source)s: the file does not say (092 line) whether the event is a Swiss or a "
                                 "round robin; choose the system.") % {"source": source}, field="system")
    players, cells = trf_size(data)
    lang = translation.get_language() or ""
    options = _job_options(system=system, publish=publish, match_players=match_players,
                           player_matches=player_matches)
    args = (lang, options) if options else (lang,)
    row = TrfImport.objects.create(
        created_by=user if getattr(user, "is_authenticated", False) else None, data=bytes(data),
        source=without_control_characters(source or "")[:200], name=(name or "")[:160], players=players,
        cells=cells, lang=lang[:10], options=options,
    )
    if settings.CELERY_TASK_ALWAYS_EAGER:
        import_trf_task.delay(row.id, *args)
        row.refresh_from_db()
        return row

    def send():
        try:
            import_trf_task.delay(row.id, *args)
        except Exception as exc:  # broker unreachable: say so now, do not leave the row queued for ever
            logger.warning("TRF import %s: could not queue the job: %s", row.id, exc)
            TrfImport.objects.filter(pk=row.pk).update(
                status=TrfImport.Status.FAILED, finished_at=timezone.now(),
                error=_("The job queue cannot be reached; try again in a few minutes."),
            )
            raise QueueUnavailable(_("The job queue cannot be reached; try again in a few minutes.")) from exc

    transaction.on_commit(send)
    return row


class _ProgressWriter:
    """``progress(done, total)`` of a running import, written where other connections can read it.

    The import is one transaction, which hides its writes until it ends; so the percentage is written
    through a connection of its own (autocommit), at most every half second. Not on SQLite, where that
    connection would wait for the import's write lock, and not inside an outer transaction (tests, an
    eager job within one): there the progress moves at the start and at the end only.
    """

    def __init__(self, import_id: int) -> None:
        self.import_id = import_id
        self.percent = 1
        self.last = 0.0
        self.conn = None
        default = connections[DEFAULT_DB_ALIAS]
        if default.vendor != "sqlite" and not default.in_atomic_block:
            self.conn = connections.create_connection(DEFAULT_DB_ALIAS)
            if self.conn.vendor == "postgresql":
                with self.conn.cursor() as cursor:  # never wait long on a lock: progress is a courtesy
                    cursor.execute("SET lock_timeout = '2s'")

    def __call__(self, done: int, total: int) -> None:
        percent = min(99, 1 + 98 * done // max(total, 1))
        now = time.monotonic()
        if self.conn is None or percent <= self.percent or now - self.last < 0.5:
            return
        self.percent, self.last = percent, now
        table = self.conn.ops.quote_name(TrfImport._meta.db_table)
        try:
            with self.conn.cursor() as cursor:
                cursor.execute(f"UPDATE {table} SET progress = %s WHERE id = %s AND status = %s",  # noqa: S608
                               [percent, self.import_id, TrfImport.Status.RUNNING])
        except DatabaseError:  # progress is a courtesy: the import goes on without it
            logger.warning("TRF import %s: could not write the progress", self.import_id, exc_info=True)
            self.close()

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def trf_import_run(*, import_id: int, options: dict | None = None) -> TrfImport:
    """Run a queued :class:`TrfImport`: :func:`tournament_import_trf` on its bytes, as its creator, with
    ``options`` (``system``, ``publish``, ``match_players``, ``player_matches``: :func:`_job_options`;
    None: the options stored on the row).

    Ends ``done`` with the tournament and the notes, or ``failed`` with the refusal (its message names
    the line; nothing is imported) or, for an internal error, a short message (logged in full). The row
    is claimed by :func:`tournaments.trf.lease.trf_import_claim`: a queued row, or a running one whose
    worker died (no heartbeat for ``TRF_IMPORT_LEASE_SECONDS``), which is restarted from the stored file.
    A row finished or held by a live run is returned unchanged (a task delivered twice runs once).
    """
    from tournaments.trf.lease import Heartbeat, trf_import_claim

    row, token = trf_import_claim(import_id=import_id)
    if token is None:
        return row
    beat = Heartbeat(row.pk, token)
    writer = _ProgressWriter(row.pk)
    result: dict = {"status": TrfImport.Status.FAILED, "finished_at": None}
    try:
        pause("TEST_TASK_DELAY")  # test-only (federation/jobs.py): time to kill the worker mid-import
        opts = dict(row.options if options is None else options)
        if opts.get("player_matches"):
            opts["player_matches"] = {int(k): v for k, v in opts["player_matches"].items()}
        report = tournament_import_trf(
            data=bytes(row.data), source=row.source or "upload.trf", user=row.created_by, name=row.name or None,
            progress=writer, **{k: v for k, v in opts.items()
                                if k in ("system", "publish", "match_players", "player_matches")},
        )
    except ApplicationError as exc:
        result.update(error=exc.message, error_field=exc.field or "")
    except Exception:  # a bug: the transaction is rolled back; say so on the row, keep the details in the log
        logger.exception("TRF import %s failed", import_id)
        result.update(error=_("The import failed because of an internal error; nothing was imported."))
    else:
        result.update(status=TrfImport.Status.DONE, tournament=report.tournament, notes=report.notes, progress=100)
    finally:
        writer.close()
        beat.stop()
    result["finished_at"] = timezone.now()
    # only while this run still holds the row (a run taken over after a lost lease writes nothing)
    TrfImport.objects.filter(pk=row.pk, status=TrfImport.Status.RUNNING, attempts=token).update(**result)
    row.refresh_from_db()
    return row


def trf_import_sweep(*, now=None) -> int:
    """:func:`tournaments.trf.lease.trf_import_sweep` (restart orphaned runs, fail lost messages); returns
    how many imports it re-queued or failed."""
    from tournaments.trf.lease import trf_import_sweep as sweep

    out = sweep(now=now)
    return len(out["requeued"]) + len(out["failed"])


def trf_import_get(*, import_id: int, user) -> TrfImport:
    """The import ``import_id`` as ``user`` may see it: its creator and federation staff; NotFound otherwise."""
    row = TrfImport.objects.select_related("tournament", "created_by").defer("data").filter(pk=import_id).first()
    if row is None or not getattr(user, "is_authenticated", False) or not (
        roles.is_staff(user) or row.created_by_id == user.id
    ):
        raise NotFound(_("No such TRF import."))
    return row
