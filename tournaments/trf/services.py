"""Import a TRF file as a tournament (:func:`tournament_import_trf`; its dry run is the preview).

The text format itself is read by :mod:`tournaments.trf.reader` (pure, no Django). Here a parsed file becomes
players, a tournament, entries, closed rounds, match results, byes entered ahead, forbidden pairs
and accelerations in ONE transaction: any line that cannot be read, does not fit or cannot be
honoured raises :class:`federation.errors.ValidationFailed` naming the line, and nothing is imported
(the checks: :mod:`tournaments.trf.checks`; the players of the lines: :mod:`tournaments.trf.players`).
Whatever the tables cannot keep is listed in :attr:`ImportReport.notes`.

Mapping (TRF-16 result codes → matches, :mod:`tournaments.trf.mapping`): ``1``/``=``/``0`` a rated game;
``W``/``D``/``L`` an unrated game; ``+``/``-`` against an opponent a forfeit; no opponent (``0000`` or blank) with
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
is refused, ``system="swiss"`` imports it as what it is: :func:`tournaments.trf.checks._check_round_robin`),
``102`` chief arbiter, ``122`` time control,
``132`` round dates (``Tournament.round_dates``: ISO dates, the text when it is no date), ``XXR`` or
``142`` number of rounds, ``XXC white1``/``black1`` or ``152`` colour of the top seed in round 1 (the
round-1 :class:`~tournaments.models.CoinToss`), ``192`` pairing system (FIDE Dutch; ``*_BAKU`` sets
``Tournament.acceleration = "baku"``; any other system is refused), ``BBW``..``BBU``/``162`` point
system (only the federation's 1-½-0 scoring; ``BBU`` 0, 0.5 or 1), ``XXP``/``260`` forbidden pairs
(:class:`~tournaments.models.ForbiddenPair`), ``XXA``/``250`` virtual points
(``Entry.accelerations``, ``Tournament.acceleration = "manual"``), ``240`` byes ahead, ``XXK``/``XXM`` a
knockout's settings and boards as its own export writes them (the file is imported as that knockout, its
rounds' boards, match for third place, sets and how each match was decided from the ``XXM`` lines:
:mod:`tournaments.trf.bracket_import`). Player lines
give ``Entry.federation`` (columns 54-56: TUR, or a club or city code), ``Entry.official_rank`` (the
rank column) and ``Entry.rating``. Lines no reader interprets (team lines, ``299``, unknown tags, a
second header line: :func:`tournaments.trf.extensions.unread_lines`) are refused with their number.
The limits of the tables: :mod:`tournaments.trf.checks`; the players: :mod:`tournaments.trf.players`.
``dry_run=True`` runs the whole import and rolls it back: the report says what would be imported (the
preview of the page and the API).

The export is :func:`tournaments.trf.selectors.tournament_export_trf`; big files are imported by a job
(:mod:`tournaments.trf.jobs`).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.errors import ValidationFailed
from federation.validators import first_control_character as no_control_characters_in
from tournaments import access
from tournaments.models import Absence, CoinToss, Entry, ForbiddenPair, Match, Round, Tournament
from tournaments.services import unique_slug
from tournaments.trf.bracket_import import knockout_fields, knockout_round_create
from tournaments.trf.checks import (
    MAX_ROUNDS,
    _check_players,
    _check_point_system,
    _check_round_robin,
    _check_rounds,
    _check_unread,
    _header_values,
    _initial_colour,
    _pairing_system,
    _rank_ties,
    _reader_error,
    _refuse,
    _round_dates,
    _round_dates_in_the_event,
    _round_robin_field,
    _system_of,
)
from tournaments.trf.mapping import _BYE_KINDS, _POINTS, _cell_bye_kind, _points_of, parse_date
from tournaments.trf.messages import trf_text
from tournaments.trf.model import TrfError
from tournaments.trf.players import PlayerChoice, _birth_date_note, _players_for, _resolve_choices, _resolve_values
from tournaments.trf.reader import parse_trf
from tournaments.trf.scoring import code_points, infer_blank_codes, played_rounds

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

    @property
    def differing(self) -> list[PlayerChoice]:
        """The lines whose stored player has another sex or birth year than the file (``value`` is the
        choice made: ``"stored"``, ``"file"``, ``"new"``, or "" when none was made)."""
        return [p for p in self.players if p.differs]


class _DryRun(Exception):
    """Raised inside the import's transaction to roll a dry run back."""

    def __init__(self, report: ImportReport) -> None:
        super().__init__("dry run")
        self.report = report


def tournament_import_trf(*, data: bytes | str, source: str = "<trf>", user=None, name: str | None = None,
                          progress: Callable[[int, int], None] | None = None, system: str | None = None,
                          publish: bool = True, match_players: bool = True,
                          player_matches: dict[int, str | None] | None = None,
                          dry_run: bool = False, player_values: dict[int, str] | None = None) -> ImportReport:
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
    * ``player_values`` = ``{start_no: "stored" | "file" | "new"}``: for a stored player whose sex or birth
      year differs from its line, keep the stored values, take the file's, or register a new player. Without
      a choice such a line is refused (PlayerConflicts, ``field="player_values"``, naming the line and field).

    ``progress(done, total)`` is called once the file is read and checked (``done = 0``), after every
    100 entries and the last one (``done`` = entries made) and after each round r (``done = n + r * n``),
    with ``total = n + rounds * n`` for ``n`` players: the job of :func:`tournaments.trf.jobs.trf_import_run`
    reports it.
    """
    options = {"data": data, "source": source, "user": user, "name": name, "progress": progress,
               "system": system or None, "publish": publish, "match_players": match_players,
               "player_matches": player_matches, "dry_run": dry_run, "player_values": player_values}
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


def _import(*, data, source, user, name, progress, system, publish, match_players, player_matches,
            dry_run: bool = False, player_values: dict | None = None) -> ImportReport:
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
    boards_from_file = system == Tournament.System.KNOCKOUT and t.knockout is not None
    if not boards_from_file and (t.knockout is not None or t.knockout_matches):
        notes.append(_("line %(line)d: the knockout's settings and boards (XXK, XXM) are not kept: the file is "
                       "imported as %(system)s") % {
            "line": t.line_of.get("XXK") or min(m.line for m in t.knockout_matches),
            "system": Tournament.System(system).label})
    fields = dict(
        name=title, start_date=start_date, end_date=end_date, city=header["city"], federation=header["federation"],
        system=system, double_round_robin=bool(double), rounds_total=rounds_total, sets_per_match=3,
        chief_arbiter=header["chief_arbiter"], time_control=header["time_control"], round_dates=round_dates,
        bye_points=bye_points, acceleration=acceleration,
        status=(Tournament.Status.DRAFT if rounds_played == 0 else Tournament.Status.FINISHED
                if rounds_played >= rounds_total else Tournament.Status.RUNNING),
        imported_from_trf=True, created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    if boards_from_file:  # a knockout's own export: its settings (XXK)
        fields.update(knockout_fields(t, source))
    tournament = _create_tournament(title, fields)
    slug = tournament.slug

    choices, confirmed = _resolve_choices(t, source, player_matches)
    players, choices_report = _players_for(t, source, tournament, match_players=match_players, choices=choices,
                                           confirmed=confirmed, notes=notes, dry_run=dry_run,
                                           values=_resolve_values(t, player_values))
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
        if boards_from_file:  # a knockout's boards as its export wrote them (XXM)
            knockout_round_create(t, source, rnd, entries, by_no, pab)
            report_progress(n_players * (1 + r), work)
            continue
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
