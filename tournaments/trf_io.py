"""Import a TRF file as a tournament, and export a tournament as TRF.

The text format itself is :mod:`tournaments.trf` (pure, no Django). Here a parsed file becomes
players, a tournament, entries, closed rounds and match results in ONE transaction: any line that
cannot be read or does not fit raises :class:`federation.errors.ValidationFailed` naming the line,
and nothing is imported.

Mapping (TRF-16 result codes → matches): ``1``/``=``/``0`` a rated game; ``W``/``D``/``L`` an
unrated game; ``+``/``-`` against an opponent a forfeit; no opponent (``0000`` or blank) with
``U`` a pairing-allocated bye, ``H`` a half-point bye, ``F`` or ``+`` a full-point bye, ``Z`` or
``-`` a zero-point bye; a blank code takes the value the published points column implies
(:func:`tournaments.trf.infer_blank_codes`) — every such inference is reported.

Limits of the tables (every line is honoured or refused with its line number, never a 500):

* refused (``ValidationFailed``, ``field="file"``, "line N: ..."): more than 99 rounds (an ``XXR``
  line, a ``132`` line with more round dates, or a player line with a cell beyond round 99 —
  ``Tournament.rounds_total`` is 1..99); a player rating above 4000 (``Player.rating``); a birth
  year outside 1900..2100 (``Player.birth_year``; a date starting ``0000`` means unknown); a
  player name whose last or first name is longer than 60 characters (``Player.last_name`` /
  ``first_name``); the same FIDE id on two player lines (an id of zeros means none); a value to be
  stored holding a C1 control character (a Latin-1 file; :mod:`federation.validators`); and, from
  :func:`tournaments.trf.parse_trf`, other control characters (with their column), repeated starting
  numbers, more than 9999 players, numbers too long to be numbers;
* cut with a note in :attr:`ImportReport.notes`: header values longer than their field — ``012``
  name (160), ``022`` city (60), ``102`` chief arbiter (120), ``122`` time control (120).

A player line without a FIDE id gets a new player with the federation id ``<slug[:12]>-<start no>``,
or ``T<tournament id>-<start no>`` when that is taken (a second import of the same file). The export
(:func:`tournament_export_trf`) writes whatever is stored: control characters become spaces, fields
are fitted to their columns (``dump_trf(truncate=True)``), starting numbers beyond 9999 renumbered.
A file over ``settings.TRF_MAX_UPLOAD_BYTES`` is refused at upload (:func:`read_upload`); a file of
more than 2,000 players or 200,000 round cells is imported by a job (:func:`trf_import_queue`).
"""
from __future__ import annotations

import datetime as dt
import logging
import re
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction
from django.template.defaultfilters import filesizeformat
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from federation import roles
from federation.errors import ApplicationError, NotFound, ValidationFailed
from federation.models import Player
from federation.validators import first_control_character as no_control_characters_in
from federation.validators import without_control_characters
from tournaments import access
from tournaments import trf as trfmod
from tournaments.models import Entry, Match, Round, Tournament, TrfImport
from tournaments.pairing_adapter import match_codes
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
    "012": ("name", "tournament name"),
    "022": ("city", "city"),
    "102": ("chief_arbiter", "chief arbiter"),
    "122": ("time_control", "time control"),
}


@dataclass(slots=True)
class ImportReport:
    """What an import did: the tournament and one line per inference or note (for stderr / the UI)."""

    tournament: Tournament
    notes: list[str] = field(default_factory=list)


def parse_date(text: str) -> dt.date | None:
    """A date from the forms TRF files use: ``2018/10/05``, ``2011-07-02``, ``25.02.2011``, ``18/10/05``."""
    text = (text or "").strip()
    for fmt in ("%Y/%m/%d", "%Y-%m-%d", "%Y.%m.%d", "%d.%m.%Y", "%d/%m/%Y", "%y/%m/%d", "%y.%m.%d"):
        try:
            return dt.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


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
    where = f"line {line}" + (f", column {column}" if column else "")
    return ValidationFailed(f"{source}: {where}: {message}", field="file")


def _check_text(source: str, line: int, what: str, value: str) -> None:
    """Refuse a value to be stored that holds a control character (federation.validators; the TRF reader
    already refused C0 characters with their column, this catches e.g. C1 characters of a Latin-1 file)."""
    at = no_control_characters_in(value or "")
    if at is not None:
        raise _refuse(source, line, f"{what} {value[:80]!r} holds the control character U+{ord(value[at]):04X} "
                      f"(character {at + 1})")


def _check_players(t, source: str) -> None:
    """Refuse a player line whose values do not fit the Player/Entry fields (see the module docstring)."""
    last_field = Player._meta.get_field("last_name").max_length
    first_field = Player._meta.get_field("first_name").max_length
    by_fed_id: dict[str, int] = {}
    for p in t.players:
        for what, value in (("name", p.name), ("federation", p.federation), ("FIDE id", p.fide_id)):
            _check_text(source, p.line, f"player {p.start_no}: {what}", value)
        last, first = _split_name(p.name)
        if len(last) > last_field or len(first) > first_field:
            raise _refuse(source, p.line, f"player {p.start_no}: the name {p.name[:80]!r} is longer than a last "
                          f"name of {last_field} and a first name of {first_field} characters", 15)
        if (p.rating or 0) > MAX_RATING:
            raise _refuse(source, p.line, f"player {p.start_no}: rating {p.rating} is above {MAX_RATING}", 49)
        year = _birth_year(p)
        if year is not None and not BIRTH_YEARS[0] <= year <= BIRTH_YEARS[1]:
            raise _refuse(source, p.line, f"player {p.start_no}: birth year {year} is not between "
                          f"{BIRTH_YEARS[0]} and {BIRTH_YEARS[1]}", 70)
        fed_id = (p.fide_id or "").strip()
        if fed_id.strip("0"):  # "0" / "00000000" is written for "no FIDE id" by some programs
            if fed_id in by_fed_id:
                raise _refuse(source, p.line, f"player {p.start_no}: FIDE id {fed_id} is repeated (first on line "
                              f"{by_fed_id[fed_id]}); one player cannot have two starting numbers", 58)
            by_fed_id[fed_id] = p.line
        last_round = max((c.round for c in p.results if not c.is_blank), default=0)
        if last_round > MAX_ROUNDS:
            raise _refuse(source, p.line, f"player {p.start_no} has a result in round {last_round}; a tournament "
                          f"has at most {MAX_ROUNDS} rounds", trfmod._FIRST_ROUND_COL + 10 * (last_round - 1))


def _check_rounds(t, source: str) -> None:
    """Refuse an XXR or 132 line asking for more than 99 rounds."""
    if t.total_rounds is not None and t.total_rounds > MAX_ROUNDS:
        raise _refuse(source, t.tag_lines.get("XXR", 0), f"XXR {t.total_rounds}: a tournament has at most "
                      f"{MAX_ROUNDS} rounds", 5)
    if len(t.round_dates or []) > MAX_ROUNDS:
        raise _refuse(source, t.tag_lines.get("132", 0), f"{len(t.round_dates)} round dates: a tournament has "
                      f"at most {MAX_ROUNDS} rounds")


def _header_values(t, title_override: str | None, source: str, notes: list[str]) -> dict[str, str]:
    """Tournament name, city, chief arbiter and time control from the header, each cut to its field
    (with a note naming the line)."""
    values = {}
    for tag, (attr, what) in _HEADER_FIELDS.items():
        value = (getattr(t, attr, "") or "").strip()
        _check_text(source, t.tag_lines.get(tag, 0), f"tag {tag}: {what}", value)
        if attr == "name":
            value = (title_override or value or without_control_characters(source)).strip()
        limit = Tournament._meta.get_field(attr).max_length
        if len(value) > limit:
            where = (f"line {t.tag_lines[tag]}: " if tag in t.tag_lines and not (attr == "name" and title_override)
                     else "")
            notes.append(f"{where}{what} is {len(value)} characters long; cut to the first {limit}")
            value = value[:limit].strip()
        values[attr] = value
    return values


def _free_federation_id(candidates: list[str], taken: set[str]) -> str:
    """The first candidate id not taken (in this file or the database)."""
    for fed_id in candidates:
        if fed_id not in taken and not Player.objects.filter(federation_id=fed_id).exists():
            return fed_id
    raise ValidationFailed("no free federation id for a generated player", field="file")  # pragma: no cover


def _player_for(p, slug: str, tournament_id: int | None = None, taken: set[str] | None = None) -> Player:
    """The player of a 001 line: the stored one with its FIDE id, else a new one (a line without a FIDE id
    gets a generated federation id, ``<slug[:12]>-<start no>`` unless that is taken)."""
    taken = set() if taken is None else taken
    fed_id = (p.fide_id or "").strip()
    last, first = _split_name(p.name)
    if fed_id and fed_id.strip("0"):
        player = Player.objects.filter(federation_id=fed_id).first()
        if player is not None:
            return player
    else:
        fed_id = _free_federation_id(
            [f"{slug[:12]}-{p.start_no}", f"T{tournament_id}-{p.start_no}",
             *(f"T{tournament_id}-{p.start_no}-{k}" for k in range(2, 100))],
            taken,
        )
    taken.add(fed_id)
    birth_year = _birth_year(p)
    return Player.objects.create(
        federation_id=fed_id, first_name=first, last_name=last, sex=_sex(p.sex), birth_year=birth_year,
        city=(p.federation or "").strip(), rating=max(0, min(4000, p.rating or 0)),
    )


def _points_of(code: str, inferred: float | None, pab_points: float) -> float:
    if code == "":
        return inferred if inferred is not None else 0.0
    value = trfmod.code_points(code, pab_points=pab_points)
    return 0.0 if value is None else value


@transaction.atomic
def tournament_import_trf(*, data: bytes | str, source: str = "<trf>", user=None, name: str | None = None,
                          progress: Callable[[int, int], None] | None = None) -> ImportReport:
    """Create a closed-rounds tournament from TRF ``data``.

    Returns an :class:`ImportReport`. Raises ValidationFailed (``field="file"``) with the line number
    for anything unreadable or inconsistent; nothing is saved then. ``progress(done, total)`` is called
    once the file is read and checked (``done = 0``), after every 100 entries and the last one (``done``
    = entries made) and after each round r (``done = n + r * n``), with ``total = n + rounds * n`` for
    ``n`` players: the job of :func:`trf_import_run` reports it.
    """
    if user is not None:
        access.require(access.can_create_tournament(user), _("Only organisers can import tournaments."))
    if name and no_control_characters_in(name) is not None:
        raise ValidationFailed(_("Control characters are not allowed in a name."), field="name")
    try:
        t = trfmod.parse_trf(data, source=source)
    except trfmod.TrfError as exc:
        raise ValidationFailed(f"{source}: {exc}", field="file") from exc
    _check_rounds(t, source)
    _check_players(t, source)
    try:
        inferences = trfmod.infer_blank_codes(t)
    except trfmod.TrfError as exc:
        raise ValidationFailed(f"{source}: {exc}", field="file") from exc
    mismatches = [w for w in getattr(t, "warnings", []) if " who has " in w]
    if mismatches:
        raise ValidationFailed(
            f"{source}: {mismatches[0]} — the two players' results of a game must agree", field="file"
        )
    if not t.players:
        raise ValidationFailed(_("%(s)s: no player lines (001) found.") % {"s": source}, field="file")
    inferred = {(i.start_no, i.round): i for i in inferences}
    by_no = {p.start_no: p for p in t.players}
    rounds_played = trfmod.played_rounds(t)
    report_progress = progress or (lambda done, total: None)
    n_players = len(t.players)
    work = n_players * (1 + rounds_played)
    report_progress(0, work)
    rounds_total = max(t.total_rounds or 0, rounds_played, len(t.round_dates or []), 1)
    header_notes: list[str] = []
    header = _header_values(t, name, source, header_notes)
    title = header["name"] or "TRF"
    slug = unique_slug(title)
    same = Tournament.objects.filter(name=title).first()
    tournament = Tournament.objects.create(
        slug=slug, name=title, start_date=parse_date(t.start_date), end_date=parse_date(t.end_date),
        city=header["city"], system=Tournament.System.SWISS, rounds_total=rounds_total, sets_per_match=3,
        chief_arbiter=header["chief_arbiter"], time_control=header["time_control"],
        status=Tournament.Status.FINISHED if rounds_played >= rounds_total else Tournament.Status.RUNNING,
        imported_from_trf=True, created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    if tournament.start_date and tournament.end_date and tournament.end_date < tournament.start_date:
        tournament.end_date = tournament.start_date
        tournament.save(update_fields=["end_date"])
    entries: dict[int, Entry] = {}
    taken_ids = {p.fide_id.strip() for p in t.players if p.fide_id.strip()}  # generated ids avoid these
    for p in t.players:
        entries[p.start_no] = Entry.objects.create(
            tournament=tournament, player=_player_for(p, slug, tournament.pk, taken_ids), start_no=p.start_no,
            rating=max(0, p.rating or 0),
        )
        if len(entries) % 100 == 0:
            report_progress(len(entries), work)
    report_progress(n_players, work)
    notes = header_notes + [
        f"line {i.line}: start no {i.start_no}, round {i.round}: blank result code counted as "
        f"{i.value:g} (from the points column)"
        for i in inferences
    ]
    if same is not None:
        notes.insert(0, f"a tournament named {title!r} already exists ({same.slug}); imported as {slug}")
    pab = float(tournament.bye_points)
    score_before = {p.start_no: 0.0 for p in t.players}  # points before round r (cells of rounds < r)
    for r in range(1, rounds_played + 1):
        rnd = Round.objects.create(tournament=tournament, number=r, status=Round.Status.CLOSED)
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
            if cell is None:
                if p.results and len(p.results) < r:
                    byes.append((p, "zero", 0.0))  # withdrawn: absent from later rounds
                continue
            inf = inferred.get((p.start_no, r))
            if cell.opponent:
                if p.start_no in seen:
                    continue
                opp = by_no.get(cell.opponent)
                if opp is None:
                    raise ValidationFailed(
                        f"{source}: line {p.line}: round {r} opponent {cell.opponent} does not exist", field="file"
                    )
                seen.update({p.start_no, opp.start_no})
                ocell = opp.result(r)
                if cell.colour == "b":
                    games.append((opp, ocell, p, cell))
                else:
                    games.append((p, cell, opp, ocell))
            else:
                value = _points_of(cell.code, inf.value if inf else None, pab)
                kind = {"U": "pab", "H": "half", "F": "full", "+": "full", "Z": "zero", "-": "zero"}.get(cell.code)
                if kind is None:
                    kind = {1.0: "full", 0.5: "half", 0.0: "zero"}[value] if cell.code in ("", "=", "1", "0", "W", "D", "L") else "zero"
                byes.append((p, kind, value))
        games.sort(key=lambda g: (-max(score_before[g[0].start_no], score_before[g[2].start_no]), min(g[0].start_no, g[2].start_no)))
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
            else:
                wv = trfmod.code_points(wcode, pab_points=pab)
                if wv is None:
                    raise ValidationFailed(f"{source}: line {wp.line}: round {r} has no result", field="file")
                bv = trfmod.code_points(bcode, pab_points=pab) if bcode else 1.0 - wv
                if bv is None or wv + bv != 1.0:
                    raise ValidationFailed(
                        f"{source}: line {wp.line}: round {r}: player {wp.start_no} has result {wcode!r} but "
                        f"player {bp.start_no} (line {bp.line}) has {bcode!r} — the two players' results of a "
                        "game must agree (a game not played by either is '-' '-')",
                        field="file",
                    )
                m.white_points, m.black_points = _POINTS[wv], _POINTS[1.0 - wv]
                m.rated = wcode in ("1", "=", "0")
            m.save()
        for p, kind, value in sorted(byes, key=lambda b: b[0].start_no):
            board += 1
            Match.objects.create(
                round=rnd, board=board, white=entries[p.start_no], kind=Match.Kind.BYE, bye_kind=kind,
                white_points=_POINTS[value if kind != "pab" else pab],
            )
        report_progress(n_players * (1 + r), work)
    withdrawn_by_inference = {i.start_no for i in inferences if "withdrawn" in (getattr(i, "reason", "") or "")}
    for e in entries.values():
        p = by_no[e.start_no]
        if e.start_no in withdrawn_by_inference:
            e.withdrawn = True
            played = [c.round for c in p.results if c.opponent or c.code not in ("", "-", "Z")]
            e.withdrawn_after_round = max(played, default=0)
            e.save(update_fields=["withdrawn", "withdrawn_after_round"])
        elif p.results and max(c.round for c in p.results) < rounds_played:
            e.withdrawn = True
            e.withdrawn_after_round = max(c.round for c in p.results)
            e.save(update_fields=["withdrawn", "withdrawn_after_round"])
    return ImportReport(tournament=tournament, notes=notes)


def tournament_export_trf(*, tournament: Tournament, up_to_round: int | None = None, personal: bool = True) -> str:
    """TRF-16 text of ``tournament``: player lines with every CLOSED round (a round still being played
    is left out, so the file is consistent and can be paired from), XXR with the number of rounds.
    ``up_to_round`` keeps the closed rounds up to that one (the public's file stops at the round the
    standings were published after: :func:`tournaments.publication.published_round`).
    ``personal=False`` leaves the birth date and sex columns blank (the public's file, KVKK:
    :mod:`federation.privacy`); the organisers' file and ``manage.py export_trf`` keep them.

    Points column = match points after the last closed round; rank column = standings rank then.
    A closed round in which an entry had no board (late entry, absence) is written ``0000 - Z``.
    """
    from tournaments.selectors import tournament_standings

    entries = list(tournament.entries.select_related("player").order_by("start_no"))
    qs = Match.objects.filter(round__tournament=tournament, round__status=Round.Status.CLOSED).select_related("round")
    if up_to_round is not None:
        qs = qs.filter(round__number__lte=up_to_round)
    matches = list(qs)
    closed = sorted({m.round.number for m in matches})
    standings = tournament_standings(tournament=tournament, after_round=closed[-1] if closed else 0)
    rank = {line.start_no: line.rank for line in standings.lines}
    points = {line.start_no: line.points for line in standings.lines}
    by_id = {e.id: e for e in entries}
    cells: dict[int, list] = defaultdict(list)
    for m in matches:
        r = m.round.number
        wc, bc = match_codes(m)
        if m.black_id is None:
            cells[m.white_id].append(trfmod.TrfResult(round=r, opponent=None, colour=None, code=wc))
        else:
            cells[m.white_id].append(trfmod.TrfResult(round=r, opponent=by_id[m.black_id].start_no, colour="w", code=wc))
            cells[m.black_id].append(trfmod.TrfResult(round=r, opponent=by_id[m.white_id].start_no, colour="b", code=bc))
    for e in entries:  # closed rounds an entry has no board in (late entry, absence): zero-point bye
        have = {c.round for c in cells[e.id]}
        cells[e.id] += [trfmod.TrfResult(round=r, opponent=None, colour=None, code="Z") for r in closed if r not in have]
    players = []
    for e in entries:
        pl = e.player
        players.append(
            trfmod.TrfPlayer(
                start_no=e.start_no, sex={"m": "m", "f": "w"}.get(pl.sex, " ") if personal else " ", title="", name=pl.full_name,
                rating=e.rating, federation=pl.city if len(pl.city or "") <= 3 else "",
                fide_id=pl.federation_id if pl.federation_id.isdigit() else "",
                birth_date=str(pl.birth_year or "") if personal else "", points=points.get(e.start_no, 0.0), rank=rank.get(e.start_no),
                results=sorted(cells[e.id], key=lambda c: c.round), line=0,
            )
        )
    if any(p.start_no > 9999 for p in players):  # stored data TRF cannot hold (4 columns): renumber 1..n
        new_no = {p.start_no: i for i, p in enumerate(players, start=1)}
        for p in players:
            p.start_no = new_no[p.start_no]
            for c in p.results:
                c.opponent = new_no.get(c.opponent) if c.opponent is not None else None
    fmt = lambda d: d.strftime("%Y/%m/%d") if d else ""  # noqa: E731
    data = trfmod.TrfTournament(
        name=tournament.name, city=tournament.city, federation="TUR", start_date=fmt(tournament.start_date),
        end_date=fmt(tournament.end_date), num_players=len(entries), num_rated=sum(1 for e in entries if e.rating),
        tournament_type="Swiss" if tournament.system == Tournament.System.SWISS else "Round robin",
        chief_arbiter=tournament.chief_arbiter, deputy_arbiters=[], time_control=tournament.time_control,
        round_dates=[], players=players, total_rounds=tournament.rounds_total, xxc=[], extra_lines=[],
    )
    return trfmod.dump_trf(data, truncate=True)


# --------------------------------------------------------------------------------------------
# Uploads: bounded size; big files imported by a Celery job (tournaments.tasks.import_trf_task)
# --------------------------------------------------------------------------------------------

#: A file with more player lines than this, or more round cells than :data:`JOB_MIN_CELLS`, is imported
#: by a job with a progress page (202) instead of within the web request (201). Settings
#: ``TRF_JOB_MIN_PLAYERS`` / ``TRF_JOB_MIN_CELLS`` override them.
JOB_MIN_PLAYERS = 2000
JOB_MIN_CELLS = 200_000

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
    text = trfmod._decode(data)[0] if isinstance(data, bytes) else data
    players = cells = 0
    first = trfmod._FIRST_ROUND_COL - 1
    for line in trfmod._LINE_SPLIT.split(text):
        if line.startswith("001"):
            players += 1
            rest = len(line.rstrip()) - first
            if rest > 0:
                cells += (rest + trfmod._ROUND_WIDTH - 1) // trfmod._ROUND_WIDTH
    return players, cells


def needs_job(data: bytes | str) -> bool:
    """True when the file has more players than ``TRF_JOB_MIN_PLAYERS`` (2000) or more round cells than
    ``TRF_JOB_MIN_CELLS`` (200,000): it is imported by :func:`trf_import_queue`."""
    players, cells = trf_size(data)
    return (players > getattr(settings, "TRF_JOB_MIN_PLAYERS", JOB_MIN_PLAYERS)
            or cells > getattr(settings, "TRF_JOB_MIN_CELLS", JOB_MIN_CELLS))


def trf_import_queue(*, data: bytes, source: str = "upload.trf", user=None, name: str | None = None) -> TrfImport:
    """Store ``data`` as a queued :class:`TrfImport` and send ``tournaments.import_trf`` for it.

    Refuses like :func:`tournament_import_trf` what can be refused at once (no organiser; a name with a
    control character; a file over the size limit). With Celery eager (the embedded mode) the job runs
    at once and the returned row is finished; with a broker it is queued when the row is committed.
    Raises :class:`QueueUnavailable` (503) when the broker cannot be reached; the row is then failed.
    """
    from tournaments.tasks import import_trf_task

    if user is not None:
        access.require(access.can_create_tournament(user), _("Only organisers can import tournaments."))
    if name and no_control_characters_in(name) is not None:
        raise ValidationFailed(_("Control characters are not allowed in a name."), field="name")
    check_upload_size(len(data))
    players, cells = trf_size(data)
    lang = translation.get_language() or ""
    row = TrfImport.objects.create(
        created_by=user if getattr(user, "is_authenticated", False) else None, data=bytes(data),
        source=without_control_characters(source or "")[:200], name=(name or "")[:160], players=players,
        cells=cells, lang=lang[:10],
    )
    if settings.CELERY_TASK_ALWAYS_EAGER:
        import_trf_task.delay(row.id, lang)
        row.refresh_from_db()
        return row

    def send():
        try:
            import_trf_task.delay(row.id, lang)
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


def trf_import_run(*, import_id: int) -> TrfImport:
    """Run a queued :class:`TrfImport`: :func:`tournament_import_trf` on its bytes, as its creator.

    Ends ``done`` with the tournament and the notes, or ``failed`` with the refusal (its message names
    the line; nothing is imported) or, for an internal error, a short message (logged in full). A row
    that is not queued is returned unchanged (a task delivered twice runs once).
    """
    claimed = TrfImport.objects.filter(pk=import_id, status=TrfImport.Status.QUEUED).update(
        status=TrfImport.Status.RUNNING, progress=1
    )
    row = TrfImport.objects.select_related("created_by").get(pk=import_id)
    if not claimed:
        return row
    writer = _ProgressWriter(row.pk)
    result: dict = {"status": TrfImport.Status.FAILED, "finished_at": None}
    try:
        report = tournament_import_trf(
            data=bytes(row.data), source=row.source or "upload.trf", user=row.created_by, name=row.name or None,
            progress=writer,
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
    result["finished_at"] = timezone.now()
    TrfImport.objects.filter(pk=row.pk).update(**result)
    row.refresh_from_db()
    return row


def trf_import_sweep(*, now=None) -> int:
    """Fail the TRF imports that have been queued or running for more than
    ``settings.TRF_IMPORT_STUCK_MINUTES`` (a lost worker or message). The import is one transaction, so
    such a job imported nothing; the reason says so. Returns how many were marked failed."""
    import datetime as _dt

    from django.conf import settings as dj_settings

    now = now or timezone.now()
    limit = now - _dt.timedelta(minutes=dj_settings.TRF_IMPORT_STUCK_MINUTES)
    return TrfImport.objects.filter(
        status__in=[TrfImport.Status.QUEUED, TrfImport.Status.RUNNING], created_at__lt=limit
    ).update(
        status=TrfImport.Status.FAILED, finished_at=now,
        error=_("The import was interrupted (its worker stopped); nothing was imported. Upload the file again."),
    )


def trf_import_get(*, import_id: int, user) -> TrfImport:
    """The import ``import_id`` as ``user`` may see it: its creator and federation staff; NotFound otherwise."""
    row = TrfImport.objects.select_related("tournament", "created_by").defer("data").filter(pk=import_id).first()
    if row is None or not getattr(user, "is_authenticated", False) or not (
        roles.is_staff(user) or row.created_by_id == user.id
    ):
        raise NotFound(_("No such TRF import."))
    return row
