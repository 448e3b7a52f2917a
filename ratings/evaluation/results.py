"""Results files for the evaluation: real recorded sets of Mangala or of other two-player contests
with a margin, mapped to the 48-stone scale (docs/ratings.md, "Evidence on real results").

Format (CSV, UTF-8, ``.csv`` or ``.csv.gz``), header exactly::

    date,event,first,second,first_stones,second_stones

- ``date``: ISO date (YYYY-MM-DD) of the event; ``event``: its name; every row of one event must carry
  the same date. Events are rating periods, rated in date order; events sharing a date are all
  predicted from the ratings before that date, then rated in file order.
- ``first`` / ``second``: player ids (any non-empty text, different from each other).
- ``first_stones`` / ``second_stones``: integers 0..48 adding up to 48 (the winner has more; 24-24 is
  a draw). A file from another game maps its margin to this scale (the converters in
  ``benchmarks/rating_data/`` document theirs).

Every line is read or refused: :class:`ResultsFileError` names the line and the reason.
"""
from __future__ import annotations

import csv
import datetime as dt
import gzip
import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from ratings.engine import TOTAL_STONES, Event, RatedSet

__all__ = ["HEADER", "ResultsData", "ResultsFileError", "load_results", "read_results"]

HEADER = ("date", "event", "first", "second", "first_stones", "second_stones")


class ResultsFileError(ValueError):
    """A results file that cannot be read; ``line`` is the 1-based line number of the (first) refused
    line (0: the whole file); ``errors`` every refused line as (line, reason), at most
    :data:`MAX_ERRORS`, so that one run names them all."""

    def __init__(self, source: str, line: int, reason: str, errors: tuple[tuple[int, str], ...] = ()) -> None:
        self.source, self.line, self.reason = source, line, reason
        self.errors = errors or ((line, reason),)
        if len(self.errors) > 1:
            listed = "; ".join(f"line {n}: {r}" for n, r in self.errors)
            super().__init__(f"{source}: {len(self.errors)} lines refused{' (the first ones)' if len(self.errors) >= MAX_ERRORS else ''}: {listed}")
        else:
            super().__init__(f"{source}, line {line}: {reason}" if line else f"{source}: {reason}")


MAX_ERRORS = 20
"""Refused lines named in one :class:`ResultsFileError` before reading stops."""


class _LineError(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


@dataclass(frozen=True, slots=True)
class ResultsData:
    """A read results file: ``events`` in rating order (date, then first appearance in the file),
    ``rows`` sets read, ``players`` distinct players, ``dates`` distinct dates, ``draws`` 24-24 sets."""

    source: str
    events: tuple[Event, ...]
    rows: int
    players: int
    dates: int
    draws: int


def read_results(lines: Iterable[str], source: str = "<input>") -> ResultsData:
    """Parse the CSV text ``lines`` (see the module docstring). Raises :class:`ResultsFileError`."""
    reader = csv.reader(lines)
    try:
        header = next(reader)
    except StopIteration:
        raise ResultsFileError(source, 0, "the file is empty") from None
    except csv.Error as exc:
        raise ResultsFileError(source, 1, f"not CSV: {exc}") from None
    if tuple(h.strip().lstrip("\ufeff") for h in header) != HEADER:
        raise ResultsFileError(source, 1, f"the header must be {','.join(HEADER)}, got {','.join(header)}")
    order: dict[str, int] = {}
    dates: dict[str, tuple[dt.date, int]] = {}
    sets: dict[str, list[RatedSet]] = {}
    players: set[str] = set()
    rows = draws = 0
    line = 1
    errors: list[tuple[int, str]] = []
    try:
        for row in reader:
            line = reader.line_num
            try:
                parsed = _parse_row(row)
            except _LineError as exc:
                errors.append((line, exc.reason))
                if len(errors) >= MAX_ERRORS:
                    break
                continue
            day, event, first, second, a, b = parsed
            known = dates.get(event)
            if known is None:
                dates[event] = (day, line)
                order[event] = len(order)
                sets[event] = []
            elif known[0] != day:
                errors.append((line, f"event {event!r} is dated {known[0]} on line {known[1]} and {day} here"))
                if len(errors) >= MAX_ERRORS:
                    break
                continue
            sets[event].append(RatedSet(event, first, second, a, b))
            players.add(first)
            players.add(second)
            rows += 1
            draws += a == b
    except csv.Error as exc:
        errors.append((line + 1, f"not CSV: {exc}"))
    if errors:
        raise ResultsFileError(source, errors[0][0], errors[0][1], tuple(errors))
    if not rows:
        raise ResultsFileError(source, 0, "no results after the header")
    names = sorted(order, key=lambda n: (dates[n][0], order[n]))
    events = tuple(Event(n, dates[n][0], tuple(sets[n])) for n in names)
    return ResultsData(source, events, rows, len(players), len({d for d, _l in dates.values()}), draws)


def _parse_row(row: list[str]) -> tuple[dt.date, str, str, str, int, int]:
    """One data row: (date, event, first, second, first stones, second stones); :class:`_LineError`."""
    if not row or all(not c.strip() for c in row):
        raise _LineError("empty line")
    if len(row) != len(HEADER):
        raise _LineError(f"{len(row)} fields, {len(HEADER)} expected")
    d, event, first, second, fs, ss = (c.strip() for c in row)
    try:
        day = dt.date.fromisoformat(d)
    except ValueError:
        raise _LineError(f"date {d!r} is not YYYY-MM-DD") from None
    if not event:
        raise _LineError("the event is empty")
    if not first or not second:
        raise _LineError("a player id is empty")
    if first == second:
        raise _LineError(f"{first!r} is on both sides")
    try:
        a, b = int(fs), int(ss)
    except ValueError:
        raise _LineError(f"stones {fs!r} and {ss!r} are not whole numbers") from None
    if not (0 <= a <= TOTAL_STONES and 0 <= b <= TOTAL_STONES) or a + b != TOTAL_STONES:
        raise _LineError(f"stones {a} and {b}: each must be 0..48 and together 48")
    return day, event, first, second, a, b


def load_results(path: str | Path) -> ResultsData:
    """Read a results file (``.csv`` or ``.csv.gz``, UTF-8). Raises :class:`ResultsFileError` for a file
    that cannot be opened or read, naming the line."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ResultsFileError(str(path), 0, exc.strerror or str(exc)) from None
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise ResultsFileError(str(path), 0, f"broken gzip file: {exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ResultsFileError(str(path), line, "not UTF-8 text") from None
    return read_results(io.StringIO(text, newline=""), str(path.name))
