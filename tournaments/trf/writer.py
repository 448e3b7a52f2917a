"""Writer of the FIDE Tournament Report File (TRF-16): a :class:`~tournaments.trf.model.TrfTournament` as
text (:func:`dump_trf`), in its original line order when it was read, fields fitted to their columns.

Pure Python, no Django imports.
"""
from __future__ import annotations

import dataclasses
import re

from .extensions import extension_lines
from .model import (
    _CANONICAL_HEADER_ORDER,
    _CONTROL_OR_TAB,
    _FIRST_ROUND_COL,
    _HEADER_TAGS,
    RESULT_CODES,
    TrfError,
    TrfPlayer,
    TrfResult,
    TrfTournament,
    _m,
    gettext_noop,
)
from .reader import (
    _F_BIRTH_DATE,
    _F_FEDERATION,
    _F_FIDE_ID,
    _F_NAME,
    _F_POINTS,
    _F_RANK,
    _F_SEX,
    _F_TITLE,
    _parse_cell,
)

__all__ = ["dump_trf"]


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

    A tournament read by :func:`tournaments.trf.reader.parse_trf` is written in its original line order (unchanged
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
