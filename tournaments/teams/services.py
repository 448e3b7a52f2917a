"""Services of team championships (issue 14): team events, teams and their board order, pairing a
team round. Every write to teams goes through one of these functions (``<entity>_<action>``,
keyword-only, atomic, audited; a refusal raises a :class:`federation.errors.ApplicationError`).

* A **team event** is a :class:`~tournaments.models.Tournament` with ``format = "team"`` and
  ``boards_per_team`` boards (:func:`team_tournament_create`).
* A **team** (:func:`team_create`, :func:`team_update`) has members (:func:`team_member_add`,
  :func:`team_member_move`, :func:`team_member_remove`): each an entry of the tournament with a board
  number; the regulars come first (boards ``1..``), the reserves after them. The board order is fixed
  once round 1 is paired (as in FIDE team events).
* :func:`team_round_pair` pairs the teams — round robin (Berger tables, C.05 Annex 1) or Swiss (the
  FIDE Dutch core :mod:`tournaments.pairing.dutch` with the teams as the paired units and match
  points 2/1/0 as their scores, as FIDE team Swiss events do) — and creates the round, one
  :class:`~tournaments.models.TeamMatch` per pairing and one :class:`~tournaments.models.Match` per
  board, the first-named team white on the odd boards. **Lineups** follow the board order: the
  available members (not withdrawn, no absence recorded for the round) take boards 1, 2, … in order,
  so a reserve moves up when a regular is missing; a board where one team has nobody is a forfeit —
  the other team's player gets a bye board worth 1 (a win without an opponent) and the missing side
  scores 0; a board where neither has anybody has no row (0–0).
* Board results are entered with :func:`tournaments.results.services.match_result_enter` as in any event;
  the team result is computed when read (:mod:`tournaments.teams.selectors`).

A team's pairing-allocated bye (Swiss, odd number of teams): its players' boards are byes worth the
event's ``bye_points`` each, and the team scores match points ``2 × bye_points`` (a won match by
default). The free round of a round robin with an odd number of teams scores nothing.
"""
from __future__ import annotations

import functools

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.audit import audit_context
from federation.collation import turkish_lower, turkish_sort_key
from federation.errors import Conflict, NotFound, ValidationFailed
from federation.models import Club, Player
from tournaments import access
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.lots import services as lots
from tournaments.models import Absence, CoinToss, Entry, Match, Round, Team, TeamMatch, TeamMember, Tournament
from tournaments.pairing import PairingError, PairingPlayer, PointSystem, RoundRecord, berger_round, pair_dutch
from tournaments.teams.selectors import bye_match_points, team_match_records

#: boards a team match may have
MIN_BOARDS, MAX_BOARDS = 1, 12


def _tournament_id(kwargs: dict) -> int | None:
    if kwargs.get("tournament") is not None:
        return kwargs["tournament"].pk
    if kwargs.get("team") is not None:
        return kwargs["team"].tournament_id
    if kwargs.get("member") is not None:
        return kwargs["member"].team.tournament_id
    return None


def _audited(action: str):
    """One audited action (:func:`federation.audit.audit_context`) naming the team event."""

    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            user = kwargs.get("user") or kwargs.get("created_by")
            with audit_context(action=action, user=user, reason=kwargs.get("reason") or "",
                               tournament_id=_tournament_id(kwargs)):
                return func(*args, **kwargs)

        return wrapper

    return decorate


def _require_organiser(user, tournament: Tournament) -> None:
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can change the teams."))


def _require_team_event(tournament: Tournament) -> None:
    if tournament.format != Tournament.Format.TEAM:
        raise Conflict(_("%(t)s is not a team event.") % {"t": tournament.name}, code="not_team_event")


def _require_not_started(tournament: Tournament, message: str | None = None) -> None:
    if tournament.rounds.exists():
        raise Conflict(message or _("Round 1 is paired: the teams and their board order are fixed."),
                       code="team_event_started")


_text = services._clean_text  # name fields: no control characters, stripped, a length limit


# --------------------------------------------------------------------------------------------
# Team events
# --------------------------------------------------------------------------------------------


@_audited("tournament.create")
@transaction.atomic
def team_tournament_create(*, name: str, rounds_total: int, boards_per_team: int = 4, created_by=None,
                           **settings) -> Tournament:
    """Create a team event (``format = "team"``) in status ``draft``: :func:`tournaments.services.tournament_create`
    with ``boards_per_team`` boards per team match (1..12). ``system``: ``swiss`` (Dutch on match
    points) or ``round_robin``; a knockout of teams is refused."""
    system = settings.get("system", Tournament.System.SWISS)
    if system not in (Tournament.System.SWISS, Tournament.System.ROUND_ROBIN):
        raise ValidationFailed(_("A team event is a Swiss or a round robin."), field="system")
    try:
        boards = int(boards_per_team)
    except (TypeError, ValueError):
        raise ValidationFailed(_("Boards per team match must be a number."), field="boards_per_team") from None
    if not MIN_BOARDS <= boards <= MAX_BOARDS:
        raise ValidationFailed(
            _("A team match has %(a)d to %(b)d boards.") % {"a": MIN_BOARDS, "b": MAX_BOARDS}, field="boards_per_team"
        )
    t = services.tournament_create(name=name, rounds_total=rounds_total, created_by=created_by, **settings)
    t.format = Tournament.Format.TEAM
    t.boards_per_team = boards
    t.save(update_fields=["format", "boards_per_team"])
    return t


# --------------------------------------------------------------------------------------------
# Teams
# --------------------------------------------------------------------------------------------


def _team_name_taken(tournament: Tournament, name: str, *, exclude: int | None = None) -> bool:
    """Is ``name`` the name of another team of ``tournament``, case not counted — in Turkish too
    ("İzmir" = "izmir", "IŞIK" = "ışık"), which the database's ``iexact`` does not know (SQLite folds
    ASCII letters only)?"""
    keys = {turkish_lower(name), name.casefold()}
    others = tournament.teams.exclude(pk=exclude) if exclude is not None else tournament.teams.all()
    return any({turkish_lower(n), n.casefold()} & keys for n in others.values_list("name", flat=True))


@_audited("team.create")
@transaction.atomic
def team_create(*, tournament: Tournament, name: str, short_name: str = "", club: Club | None = None,
                user=None) -> Team:
    """Add a team with the next starting number. Refused once round 1 is paired, for a name taken in the
    event, and outside team events."""
    _require_organiser(user, tournament)
    _require_team_event(tournament)
    tournament = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament.pk)
    _require_not_started(tournament)
    name = _text(name, "name", 120, required=True)
    short_name = _text(short_name, "short_name", 20)
    if _team_name_taken(tournament, name):
        raise ValidationFailed(_("There is already a team called %(n)s.") % {"n": name}, field="name")
    seed = (tournament.teams.aggregate(m=Max("seed_no"))["m"] or 0) + 1
    team = Team.objects.create(tournament=tournament, name=name, short_name=short_name, club=club, seed_no=seed)
    services.tournament_touch(tournament)
    return team


@_audited("team.edit")
@transaction.atomic
def team_update(*, team: Team, user=None, reason: str = "", **changes) -> Team:
    """Change ``name``, ``short_name``, ``club`` or ``withdrawn`` of a team (withdrawn: not paired in
    the following rounds of a Swiss; in a round robin its opponents win their boards)."""
    tournament = team.tournament
    _require_organiser(user, tournament)
    unknown = sorted(set(changes) - {"name", "short_name", "club", "withdrawn"})
    if unknown:
        raise ValidationFailed(_("%(f)s cannot be edited.") % {"f": unknown[0]}, field=unknown[0])
    team = Team.objects.select_for_update(of=("self",)).get(pk=team.pk)
    if "name" in changes:
        name = _text(changes["name"], "name", 120, required=True)
        if _team_name_taken(tournament, name, exclude=team.pk):
            raise ValidationFailed(_("There is already a team called %(n)s.") % {"n": name}, field="name")
        team.name = name
    if "short_name" in changes:
        team.short_name = _text(changes["short_name"], "short_name", 20)
    if "club" in changes:
        team.club = changes["club"]
    if "withdrawn" in changes:
        team.withdrawn = bool(changes["withdrawn"])
    team.save()
    services.tournament_touch(tournament)
    return team


@_audited("team.seed")
@transaction.atomic
def team_seeds_sort(*, tournament: Tournament, user=None) -> list[Team]:
    """Give the teams starting numbers 1..n by the mean rating of their regular boards (highest first),
    then by name in Turkish alphabetical order (Çelik before Öztürk before Şahin) — before round 1 only."""
    _require_organiser(user, tournament)
    _require_team_event(tournament)
    tournament = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament.pk)
    _require_not_started(tournament)
    teams = list(tournament.teams.prefetch_related("members__entry"))

    def strength(team: Team) -> float:
        ratings = [m.entry.rating for m in team.members.all() if not m.reserve]
        return sum(ratings) / len(ratings) if ratings else 0.0

    teams.sort(key=lambda t: (-strength(t), turkish_sort_key(t.name)))
    for i, team in enumerate(teams, start=1):  # two passes: (tournament, seed_no) stays unique
        Team.objects.filter(pk=team.pk).update(seed_no=1000 + i)
    for i, team in enumerate(teams, start=1):
        team.seed_no = i
        team.save(update_fields=["seed_no"])
    services.tournament_touch(tournament)
    return teams


# --------------------------------------------------------------------------------------------
# Members and the board order
# --------------------------------------------------------------------------------------------


def _ordered_members(team: Team) -> list[TeamMember]:
    return list(team.members.select_related("entry__player").order_by("board"))


def _write_order(team: Team, members: list[TeamMember]) -> None:
    """Boards 1..n in the given order (regulars first: a stable sort puts the reserves after them);
    two passes so (team, board) stays unique at every step."""
    members = sorted(members, key=lambda m: m.reserve)
    changed = [(i, m) for i, m in enumerate(members, start=1) if m.board != i]
    for i, m in changed:
        TeamMember.objects.filter(pk=m.pk).update(board=1000 + i)
    for i, m in changed:
        m.board = i
        m.save(update_fields=["board"])


def _check_regulars(team: Team, members: list[TeamMember]) -> None:
    n = team.tournament.boards_per_team
    if sum(1 for m in members if not m.reserve) > n:
        raise ValidationFailed(
            _("A team has %(n)d regular boards; add the player as a reserve.") % {"n": n}, field="reserve"
        )


@_audited("team.member_add")
@transaction.atomic
def team_member_add(*, team: Team, player: Player, reserve: bool = False, board: int | None = None,
                    user=None) -> TeamMember:
    """Enter ``player`` in the event (:func:`tournaments.entries.services.entry_add`) as a member of ``team``:
    at position ``board`` of the board order (1 = top board; ``None`` = after the regulars, or at the
    end for a reserve). At most ``boards_per_team`` regulars. Refused once round 1 is paired and for a
    player already in the event (in another team too)."""
    tournament = team.tournament
    _require_organiser(user, tournament)
    _require_team_event(tournament)
    _require_not_started(tournament)
    board = _board_number(board)
    members = _ordered_members(team)
    entry = entry_services.entry_add(tournament=tournament, player=player, user=user, team_member=True)
    member = TeamMember(team=team, entry=entry, board=10000 + len(members), reserve=bool(reserve))
    member.save()
    regulars = [m for m in members if not m.reserve]
    reserves = [m for m in members if m.reserve]
    order = regulars + reserves
    if board is None:
        position = len(order) if member.reserve else len(regulars)
    else:
        position = min(board - 1, len(order))
    order.insert(position, member)
    _check_regulars(team, order)
    _write_order(team, order)
    services.tournament_touch(tournament)
    return member


def _board_number(board) -> int | None:
    """A position in the board order: None stays None; a whole number from 1; anything else is refused
    (ValidationFailed, field ``board``)."""
    if board in (None, ""):
        return None
    try:
        number = int(board)
    except (TypeError, ValueError):
        raise ValidationFailed(_("Boards are numbered from 1."), field="board") from None
    if number < 1:
        raise ValidationFailed(_("Boards are numbered from 1."), field="board")
    return number


@_audited("team.member_move")
@transaction.atomic
def team_member_move(*, member: TeamMember, board: int, reserve: bool | None = None, user=None) -> TeamMember:
    """Move ``member`` to position ``board`` of its team's board order (the others shift), and make it a
    reserve or a regular (``reserve``; ``None`` keeps it). Regulars stay before reserves. Refused once
    round 1 is paired."""
    team = member.team
    tournament = team.tournament
    _require_organiser(user, tournament)
    _require_not_started(tournament)
    position = _board_number(board)
    if position is None:
        raise ValidationFailed(_("Boards are numbered from 1."), field="board")
    members = _ordered_members(team)
    me = next(m for m in members if m.pk == member.pk)
    members.remove(me)
    if reserve is not None:
        me.reserve = bool(reserve)
        me.save(update_fields=["reserve"])
    members.insert(min(position - 1, len(members)), me)
    _check_regulars(team, members)
    _write_order(team, members)
    services.tournament_touch(tournament)
    me.refresh_from_db()
    return me


@_audited("team.member_remove")
@transaction.atomic
def team_member_remove(*, member: TeamMember, user=None) -> None:
    """Take ``member`` off its team and out of the event (its entry is deleted) before round 1; the
    board order closes up."""
    team = member.team
    tournament = team.tournament
    _require_organiser(user, tournament)
    _require_not_started(tournament, _("Round 1 is paired: withdraw the player instead."))
    entry = member.entry
    member.delete()
    entry.delete()
    _write_order(team, _ordered_members(team))
    services.tournament_touch(tournament)


# --------------------------------------------------------------------------------------------
# Pairing a round
# --------------------------------------------------------------------------------------------


def lineup(team: Team, *, boards: int, absent: set[int]) -> list[Entry]:
    """The players of ``team`` for a round: its members in board order (regulars, then reserves) who are
    not withdrawn and not in ``absent`` (entry ids), at most ``boards`` of them; fewer when not enough
    are available (the bottom boards are then empty)."""
    if team.withdrawn:
        return []
    members = sorted(team.members.all(), key=lambda m: (m.reserve, m.board))
    out = [m.entry for m in members if not m.entry.withdrawn and m.entry_id not in absent]
    return out[:boards]


def _history(tournament: Tournament, teams: list[Team], before_round: int) -> tuple[dict[int, list[RoundRecord]], dict[int, int]]:
    """Per team id: a :class:`RoundRecord` per round before ``before_round`` (opponent = starting number,
    colour ``w`` when first-named, code 1/=/0, ``+``/``-`` when no board was played, ``U`` a bye, ``Z``
    no team match) and its match points."""
    from tournaments.standings.teams import team_match_score

    seed = {t.id: t.seed_no for t in teams}
    per: dict[int, dict[int, RoundRecord]] = {t.id: {} for t in teams}
    points = {t.id: 0 for t in teams}
    bye_mp = bye_match_points(tournament)
    for rec in team_match_records(tournament=tournament, max_round=before_round - 1):
        s = team_match_score(rec, boards=tournament.boards_per_team, bye_match_points=bye_mp)
        if rec.second is None:
            per[rec.first][rec.round] = RoundRecord(opponent=None, colour=None, code="U" if bye_mp else "Z")
            points[rec.first] += s.first_mp or 0
            continue
        played = any(b.played for b in rec.boards)
        codes = {2: "1", 1: "=", 0: "0"} if played else {2: "+", 1: "=", 0: "-"}
        fc = codes.get(s.first_mp, "") if s.complete else ""
        sc = codes.get(s.second_mp, "") if s.complete else ""
        colour_ok = played
        per[rec.first][rec.round] = RoundRecord(opponent=seed[rec.second], colour="w" if colour_ok else None, code=fc)
        per[rec.second][rec.round] = RoundRecord(opponent=seed[rec.first], colour="b" if colour_ok else None, code=sc)
        points[rec.first] += s.first_mp or 0
        points[rec.second] += s.second_mp or 0
    absent = RoundRecord(opponent=None, colour=None, code="Z")
    return ({tid: [per[tid].get(r, absent) for r in range(1, before_round)] for tid in per}, points)


def _pair_swiss(tournament: Tournament, teams: list[Team], number: int, first_colour: str) -> list[tuple[int, int | None]]:
    hist, points = _history(tournament, teams, number)
    bye_mp = bye_match_points(tournament)
    players = []
    for t in teams:
        ratings = sorted((m.entry.rating for m in t.members.all() if not m.reserve), reverse=True)
        players.append(PairingPlayer(
            id=t.seed_no, rating=int(sum(ratings) / len(ratings)) if ratings else 0, points=float(points[t.id]),
            history=tuple(hist[t.id]), available=not t.withdrawn,
        ))
    system = PointSystem(win=2.0, draw=1.0, loss=0.0, zero_bye=0.0, forfeit_loss=0.0, pab=float(bye_mp))
    pairs = pair_dutch(players, round_no=number, total_rounds=tournament.rounds_total, first_colour=first_colour,
                       point_system=system)
    out = [(p.white, p.black) for p in pairs if p.black is not None]
    return out + [(p.white, None) for p in pairs if p.black is None]


def _pair_round_robin(tournament: Tournament, teams: list[Team], number: int, first_colour: str) -> list[tuple[int, int | None]]:
    pairs = berger_round(len(teams), number, double=tournament.double_round_robin,
                         second_cycle_swap=tournament.second_cycle_swap)
    out, byes = [], []
    for white, black in pairs:
        if black == 0:
            byes.append((white, None))  # the Berger dummy: a free round
            continue
        if first_colour == "b":
            white, black = black, white
        out.append((white, black))
    return out + byes


@_audited("round.pair")
@transaction.atomic
def team_round_pair(*, tournament: Tournament, user=None, coin_seed: str | None = None) -> Round:
    """Pair the next round of a team event (status ``paired``, not public yet): the team matches and their
    boards with the lineups (module docstring).

    Round 1 starts with a recorded coin toss (the secret committed when the event was created, revealed now:
    :func:`tournaments.lots.services.coin_toss_lot`; ``coin_seed`` for a seeded toss), whose outcome is the
    colour of the top seed's side on table 1 (``w``: first-named). A round robin follows the Berger table
    of the teams by starting number (``rounds_total`` is set to n − 1, n for an odd number, twice for a
    double round robin); a Swiss pairs the teams not withdrawn by the FIDE Dutch system on match points.
    Raises Conflict when the previous round is not closed, all rounds are paired, fewer than two teams
    are available or a team has no member; ValidationFailed (code ``no_pairing``) when no legal pairing
    exists.
    """
    _require_organiser(user, tournament)
    _require_team_event(tournament)
    tournament = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament.pk)
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.CLOSED:
        raise Conflict(_("Round %(n)d is not closed yet.") % {"n": last.number})
    number = (last.number if last else 0) + 1
    if number > tournament.rounds_total:
        raise Conflict(_("All %(n)d rounds are already paired.") % {"n": tournament.rounds_total})
    teams = list(tournament.teams.prefetch_related("members__entry__player").order_by("seed_no"))
    if len([t for t in teams if not t.withdrawn]) < 2:
        raise Conflict(_("At least two teams are needed to pair a round."))
    empty = [t.name for t in teams if not t.withdrawn and not t.members.all()]
    if empty:
        raise Conflict(_("Team %(t)s has no players yet.") % {"t": empty[0]}, code="team_without_players")
    robin = tournament.system == Tournament.System.ROUND_ROBIN
    if number == 1 and robin:
        n = len(teams)
        needed = (n if n % 2 else n - 1) * (2 if tournament.double_round_robin else 1)
        if tournament.rounds_total != needed:
            tournament.rounds_total = needed  # C.05: n − 1 rounds (n odd: n), twice for a double round robin
            tournament.save(update_fields=["rounds_total"])
    toss = None
    if number == 1:
        lot = lots.coin_toss_lot(tournament=tournament, coin_seed=coin_seed, user=user)  # committed before, revealed now
        toss = (lot.secret, lot.outcome)
        first_colour = toss[1]
    else:
        first_toss = CoinToss.objects.filter(round__tournament=tournament, round__number=1).first()
        first_colour = first_toss.outcome if first_toss else "w"
    try:
        if robin:
            pairs = _pair_round_robin(tournament, teams, number, first_colour)
        else:
            pairs = _pair_swiss(tournament, teams, number, first_colour)
    except PairingError as exc:
        raise ValidationFailed(_("No pairing possible: %(r)s") % {"r": exc}, code="no_pairing") from exc

    rnd = Round.objects.create(tournament=tournament, number=number, status=Round.Status.PAIRED,
                               paired_at=timezone.now())
    if toss:
        CoinToss.objects.create(round=rnd, seed=toss[0], outcome=toss[1], tossed_at=timezone.now(),
                                tossed_by=user if getattr(user, "is_authenticated", False) else None)
    absent = set(Absence.objects.filter(entry__tournament=tournament, round_number=number).values_list("entry_id", flat=True))
    by_seed = {t.seed_no: t for t in teams}
    boards = tournament.boards_per_team
    bye_kind, bye_value = ("zero", services.ZERO) if robin else ("pab", tournament.bye_points)
    for table, (first_no, second_no) in enumerate(pairs, start=1):
        first = by_seed[first_no]
        second = by_seed[second_no] if second_no is not None else None
        tm = TeamMatch.objects.create(round=rnd, number=table, white_team=first, black_team=second)
        base = (table - 1) * boards
        a = lineup(first, boards=boards, absent=absent)
        if second is None:
            for b, entry in enumerate(a, start=1):
                Match.objects.create(round=rnd, board=base + b, kind=Match.Kind.BYE, bye_kind=bye_kind, white=entry,
                                     white_points=bye_value, team_match=tm, team_board=b)
            continue
        z = lineup(second, boards=boards, absent=absent)
        for b in range(1, boards + 1):
            fp = a[b - 1] if b <= len(a) else None
            sp = z[b - 1] if b <= len(z) else None
            if fp is None and sp is None:
                continue  # nobody on either side: 0-0, no row
            if fp is None or sp is None:  # a forfeit: the player present wins the board without an opponent
                Match.objects.create(round=rnd, board=base + b, kind=Match.Kind.BYE, bye_kind="full",
                                     white=fp or sp, white_points=services.ONE, team_match=tm, team_board=b)
                continue
            white, black = (fp, sp) if b % 2 == 1 else (sp, fp)  # first-named team white on odd boards
            Match.objects.create(round=rnd, board=base + b, white=white, black=black, team_match=tm, team_board=b)
    if tournament.status == Tournament.Status.DRAFT:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    services.tournament_touch(tournament)
    return rnd


def get_team(tournament: Tournament, team_id: int) -> Team:
    """The team ``team_id`` of ``tournament``; NotFound otherwise."""
    team = tournament.teams.filter(pk=team_id).first()
    if team is None:
        raise NotFound(_("No such team."))
    return team
