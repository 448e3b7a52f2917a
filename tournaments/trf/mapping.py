"""How TRF values map to the tables, both ways (the import and the export): result codes to bye kinds and
points, dates and round dates, the ``092`` tournament type, the ``192`` pairing system, names, sexes and
birth years of player lines.
"""
from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal

from tournaments.models import Tournament
from tournaments.trf.model import _LINE_SPLIT
from tournaments.trf.reader import _decode
from tournaments.trf.scoring import code_points, declared_type

_POINTS = {1.0: Decimal("1"), 0.5: Decimal("0.5"), 0.0: Decimal("0")}


#: Bye result codes → ``Match.bye_kind`` / ``Absence.kind``.
_BYE_KINDS = {"U": "pab", "H": "half", "F": "full", "+": "full", "Z": "zero", "-": "zero"}
#: ``Absence.kind`` → the code written in a cell ahead or a ``240`` line.
_KIND_CODES = {"pab": "U", "half": "H", "full": "F", "zero": "Z"}
#: The pairing systems (192) this program pairs with; ``*_BAKU`` is Baku acceleration.
_PAIRING_SYSTEM = re.compile(r"FIDE[_ ]DUTCH(?:[_ ]\d{4})?(?:[_ ](BAKU))?", re.IGNORECASE)
#: What the export writes in 192 for a tournament with Baku acceleration.
BAKU_PAIRING_SYSTEM = "FIDE_DUTCH_2025_BAKU"


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


def declared_system_quick(data: bytes | str) -> str | None:
    """The system the first ``092`` line of ``data`` declares (``None``: no such line, or a text that is
    neither Swiss nor round robin), read without parsing the file (for the job queue)."""
    text = _decode(data)[0] if isinstance(data, bytes) else data
    for line in _LINE_SPLIT.split(text.lstrip("\ufeff")):
        if line.startswith("092"):
            return declared_system(line[3:])[0]
    return None
