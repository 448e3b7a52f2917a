"""Reads of the TRF capability: a tournament as a TRF file (:func:`tournament_export_trf`) and a TRF import
job as its user may see it (:func:`trf_import_get`).

The export writes whatever is stored: control characters become spaces, fields are fitted to their
columns (``dump_trf(truncate=True)``), starting numbers beyond 9999 renumbered. The rank column is
``Entry.official_rank`` (the imported file's) while no round has been paired here since the import
(:func:`_file_ranks_apply`).
"""
from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext as _

from federation import roles
from federation.errors import NotFound
from tournaments.models import Absence, CoinToss, Entry, ForbiddenPair, Match, Round, SetResult, Tournament, TrfImport
from tournaments.trf.bracket import TrfKnockoutMatch, TrfSet, knockout_lines
from tournaments.pairing_adapter import match_codes
from tournaments.trf.mapping import BAKU_PAIRING_SYSTEM, _KIND_CODES, format_round_date, type_text
from tournaments.trf.model import STANDARD_POINTS, TrfBye, TrfForbidden, TrfPlayer, TrfResult, TrfTournament
from tournaments.trf.teams import team_trf_records
from tournaments.trf.writer import dump_trf

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
    FIDE_DUTCH_2025_BAKU`` (Baku acceleration); a team championship adds its team section
    (:mod:`tournaments.trf.teams`: ``082``, ``013``, the team scoring system ``362``, ``310`` and the team byes
    ``320``). Byes entered ahead (absences of rounds not closed yet):
    the next round's in its cells (``0000 - H``, what bbpPairings and JaVaFo read), later rounds' and a
    withdrawn player's as ``240`` lines. A knockout adds ``XXK`` (its settings) and ``XXM`` (each board of the
    exported rounds: its place in the bracket, the match for third place, how it was decided, its sets), which
    :func:`tournaments.trf.services.tournament_import_trf` reads back (:mod:`tournaments.trf.bracket`).
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
    if tournament.system == Tournament.System.KNOCKOUT:  # the bracket, its settings and sets (XXK, XXM)
        number = {e.id: p.start_no for e, p in zip(entries, players)}
        extra += _knockout_lines(tournament, matches, number)
    if tournament.format == Tournament.Format.TEAM:  # team championships: 082, 013, 362, 310, 320 (trf.teams)
        extra += team_trf_records(tournament=tournament, up_to_round=up_to_round,
                                  renumber={e.start_no: p.start_no for e, p in zip(entries, players)})
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


def _knockout_lines(tournament: Tournament, matches: list[Match], number: dict[int, int]) -> list[str]:
    """``XXK`` (the knockout's settings) and an ``XXM`` line per board of ``matches`` (:mod:`tournaments.trf.bracket`),
    starting numbers as written (``number``: entry id → starting number)."""
    sets: dict[int, list[SetResult]] = defaultdict(list)
    for row in SetResult.objects.filter(match__in=[m.id for m in matches]).order_by("match_id", "number"):
        sets[row.match_id].append(row)
    settings = {"sets": list(tournament.knockout_sets or []), "third": tournament.third_place_match,
                "level": tournament.level_match_rule, "deciders": tournament.max_deciders,
                "spm": tournament.sets_per_match}
    boards = [
        TrfKnockoutMatch(
            round=m.round.number, board=m.board, white=number[m.white_id],
            black=number[m.black_id] if m.black_id else None, third_place=m.third_place, decided_by=m.decided_by,
            decider_starter=m.decider_starter, bye_kind=m.bye_kind if m.kind == Match.Kind.BYE else "",
            sets=tuple(TrfSet(starter=x.starter, white=x.white_stones, black=x.black_stones, termination=x.termination,
                              white_store=x.white_store, black_store=x.black_store) for x in sets[m.id]),
        )
        for m in matches
    ]
    return knockout_lines(settings, boards)


def trf_import_get(*, import_id: int, user) -> TrfImport:
    """The import ``import_id`` as ``user`` may see it: its creator and federation staff; NotFound otherwise."""
    row = TrfImport.objects.select_related("tournament", "created_by").defer("data").filter(pk=import_id).first()
    if row is None or not getattr(user, "is_authenticated", False) or not (
        roles.is_staff(user) or row.created_by_id == user.id
    ):
        raise NotFound(_("No such TRF import."))
    return row
