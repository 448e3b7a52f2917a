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
"""
from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext as _

from federation.errors import ValidationFailed
from federation.models import Player
from tournaments import access
from tournaments import trf as trfmod
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.pairing_adapter import match_codes
from tournaments.services import unique_slug

_POINTS = {1.0: Decimal("1"), 0.5: Decimal("0.5"), 0.0: Decimal("0")}


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


def _player_for(p, slug: str) -> Player:
    fed_id = (p.fide_id or "").strip()
    last, first = _split_name(p.name)
    if fed_id:
        player = Player.objects.filter(federation_id=fed_id).first()
        if player is not None:
            return player
    else:
        fed_id = f"{slug[:12]}-{p.start_no}"
    birth_year = None
    m = re.match(r"(\d{4})", (p.birth_date or "").strip())
    if m and 1900 <= int(m.group(1)) <= 2100:
        birth_year = int(m.group(1))
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
def tournament_import_trf(*, data: bytes | str, source: str = "<trf>", user=None, name: str | None = None) -> ImportReport:
    """Create a closed-rounds tournament from TRF ``data``.

    Returns an :class:`ImportReport`. Raises ValidationFailed (``field="file"``) with the line number
    for anything unreadable or inconsistent; nothing is saved then.
    """
    if user is not None:
        access.require(access.can_create_tournament(user), _("Only organisers can import tournaments."))
    try:
        t = trfmod.parse_trf(data, source=source)
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
    rounds_played = trfmod.played_rounds(t)
    rounds_total = max(t.total_rounds or 0, rounds_played, len(t.round_dates or []), 1)
    title = (name or t.name or source).strip()[:160]
    slug = unique_slug(title)
    same = Tournament.objects.filter(name=title).first()
    tournament = Tournament.objects.create(
        slug=slug, name=title, start_date=parse_date(t.start_date), end_date=parse_date(t.end_date),
        city=(t.city or "").strip(), system=Tournament.System.SWISS, rounds_total=rounds_total, sets_per_match=3,
        chief_arbiter=(t.chief_arbiter or "").strip(), time_control=(t.time_control or "").strip(),
        status=Tournament.Status.FINISHED if rounds_played >= rounds_total else Tournament.Status.RUNNING,
        imported_from_trf=True, created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    if tournament.start_date and tournament.end_date and tournament.end_date < tournament.start_date:
        tournament.end_date = tournament.start_date
        tournament.save(update_fields=["end_date"])
    entries: dict[int, Entry] = {}
    for p in t.players:
        entries[p.start_no] = Entry.objects.create(
            tournament=tournament, player=_player_for(p, slug), start_no=p.start_no, rating=max(0, p.rating or 0)
        )
    notes = [
        f"line {i.line}: start no {i.start_no}, round {i.round}: blank result code counted as "
        f"{i.value:g} (from the points column)"
        for i in inferences
    ]
    if same is not None:
        notes.insert(0, f"a tournament named {title!r} already exists ({same.slug}); imported as {slug}")
    pab = float(tournament.bye_points)
    for r in range(1, rounds_played + 1):
        rnd = Round.objects.create(tournament=tournament, number=r, status=Round.Status.CLOSED)
        games, byes = [], []
        seen = set()
        score_before = {}
        for p in t.players:
            score_before[p.start_no] = sum(
                _points_of(c.code, getattr(inferred.get((p.start_no, c.round)), "value", None), pab)
                for c in p.results if c.round < r
            )
        for p in t.players:
            cell = next((c for c in p.results if c.round == r), None)
            if cell is None:
                if p.results and max(c.round for c in p.results) < r:
                    byes.append((p, "zero", 0.0))  # withdrawn: absent from later rounds
                continue
            inf = inferred.get((p.start_no, r))
            if cell.opponent:
                if p.start_no in seen:
                    continue
                opp = next((q for q in t.players if q.start_no == cell.opponent), None)
                if opp is None:
                    raise ValidationFailed(
                        f"{source}: line {p.line}: round {r} opponent {cell.opponent} does not exist", field="file"
                    )
                seen.update({p.start_no, opp.start_no})
                ocell = next((c for c in opp.results if c.round == r), None)
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
    withdrawn_by_inference = {i.start_no for i in inferences if "withdrawn" in (getattr(i, "reason", "") or "")}
    for e in entries.values():
        p = next(q for q in t.players if q.start_no == e.start_no)
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


def tournament_export_trf(*, tournament: Tournament, up_to_round: int | None = None) -> str:
    """TRF-16 text of ``tournament``: player lines with every CLOSED round (a round still being played
    is left out, so the file is consistent and can be paired from), XXR with the number of rounds.
    ``up_to_round`` keeps the closed rounds up to that one (the public's file stops at the round the
    standings were published after: :func:`tournaments.publication.published_round`).

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
                start_no=e.start_no, sex={"m": "m", "f": "w"}.get(pl.sex, " "), title="", name=pl.full_name,
                rating=e.rating, federation=pl.city if len(pl.city or "") <= 3 else "",
                fide_id=pl.federation_id if pl.federation_id.isdigit() else "",
                birth_date=str(pl.birth_year or ""), points=points.get(e.start_no, 0.0), rank=rank.get(e.start_no),
                results=sorted(cells[e.id], key=lambda c: c.round), line=0,
            )
        )
    fmt = lambda d: d.strftime("%Y/%m/%d") if d else ""  # noqa: E731
    data = trfmod.TrfTournament(
        name=tournament.name, city=tournament.city, federation="TUR", start_date=fmt(tournament.start_date),
        end_date=fmt(tournament.end_date), num_players=len(entries), num_rated=sum(1 for e in entries if e.rating),
        tournament_type="Swiss" if tournament.system == Tournament.System.SWISS else "Round robin",
        chief_arbiter=tournament.chief_arbiter, deputy_arbiters=[], time_control=tournament.time_control,
        round_dates=[], players=players, total_rounds=tournament.rounds_total, xxc=[], extra_lines=[],
    )
    return trfmod.dump_trf(data, truncate=True)
