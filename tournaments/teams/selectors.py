"""Reads of team championships (issue 14), each with a fixed number of queries (no query per team,
match or board): the teams and their board order, a round's team matches with their boards and the
team result so far, the team standings (FIDE C.07 team tie-breaks), the team crosstable, the board
prizes and the TRF-16 team lines.

Results come from the board matches (:class:`~tournaments.models.Match` with ``team_match`` set) and
are computed by the pure core :mod:`tournaments.standings.teams`; nothing about a team result is stored.
What the public sees follows the publish gate (:mod:`tournaments.publication`): closed rounds up to
the round the standings were published after.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from tournaments.models import Match, Round, Team, TeamMatch, TeamMember, Tournament
from tournaments.standings.teams import (
    DEFAULT_TEAM_TIEBREAKS,
    TEAM_TIEBREAKS,
    BoardPrizeTable,
    BoardResult,
    MatchScore,
    TeamMatchRecord,
    board_prizes,
    team_crosstable,
    team_match_score,
    team_standings,
)
from tournaments.standings.teams import Team as TeamValue


def team_tiebreak_label(key: str, lang: str = "tr") -> str:
    en, tr, _short = TEAM_TIEBREAKS[key]
    return en if lang == "en" else tr


def team_tiebreak_short(key: str) -> str:
    return TEAM_TIEBREAKS[key][2]


def teams_with_members(*, tournament: Tournament) -> list[Team]:
    """The teams by starting number, each with ``members`` (entry and player, club) in board order:
    two queries."""
    members = TeamMember.objects.select_related("entry__player__club").order_by("board")
    return list(tournament.teams.select_related("club").prefetch_related(Prefetch("members", queryset=members))
                .order_by("seed_no"))


def bye_match_points(tournament: Tournament) -> int:
    """Match points of a team's bye: ``2 × bye_points`` in a Swiss (a pairing-allocated bye), 0 for the free
    round of a round robin."""
    if tournament.system == Tournament.System.ROUND_ROBIN:
        return 0
    return int(round(float(tournament.bye_points) * 2))


def _last_round_for(tournament: Tournament, *, public_only: bool) -> int | None:
    """The last round counted: for the public the round the standings were published after; ``None`` =
    every round."""
    if not public_only:
        return None
    from tournaments.publication import published_round

    return published_round(tournament)


def _team_matches(tournament: Tournament, *, max_round: int | None, public_only: bool) -> list[TeamMatch]:
    qs = TeamMatch.objects.filter(round__tournament=tournament).select_related("round")
    if public_only:
        qs = qs.filter(round__status=Round.Status.CLOSED)
    if max_round is not None:
        qs = qs.filter(round__number__lte=max_round)
    return list(qs.order_by("round__number", "number"))


def _board_rows(team_matches: list[TeamMatch]) -> dict[int, list[Match]]:
    rows: dict[int, list[Match]] = defaultdict(list)
    if not team_matches:
        return rows
    for m in Match.objects.filter(team_match__in=[tm.id for tm in team_matches]).order_by("team_board"):
        rows[m.team_match_id].append(m)
    return rows


def entry_teams(*, tournament: Tournament) -> dict[int, int]:
    """entry id -> team id (one query)."""
    return dict(TeamMember.objects.filter(team__tournament=tournament).values_list("entry_id", "team_id"))


def _record(tm: TeamMatch, boards: list[Match], entry_team: dict[int, int]) -> TeamMatchRecord:
    """A stored team match as the pure core's :class:`TeamMatchRecord` (seen from the first-named team)."""
    out = []
    for m in boards:
        wp = None if m.white_points is None else float(m.white_points)
        bp = None if m.black_points is None else float(m.black_points)
        if m.kind == Match.Kind.BYE:
            mine = entry_team.get(m.white_id) == tm.white_team_id or tm.black_team_id is None
            if mine:
                out.append(BoardResult(m.team_board, m.white_id, None, wp, None, False))
            else:
                out.append(BoardResult(m.team_board, None, m.white_id, None, wp, False))
            continue
        played = not m.forfeit
        if entry_team.get(m.white_id) == tm.white_team_id:
            out.append(BoardResult(m.team_board, m.white_id, m.black_id, wp, bp, played))
        else:
            out.append(BoardResult(m.team_board, m.black_id, m.white_id, bp, wp, played))
    return TeamMatchRecord(tm.round.number, tm.white_team_id, tm.black_team_id, tuple(out))


def team_match_records(*, tournament: Tournament, max_round: int | None = None,
                       public_only: bool = False) -> list[TeamMatchRecord]:
    """Every team match up to ``max_round`` as the pure core's records: three queries."""
    tms = _team_matches(tournament, max_round=max_round, public_only=public_only)
    rows = _board_rows(tms)
    entry_team = entry_teams(tournament=tournament)
    return [_record(tm, rows[tm.id], entry_team) for tm in tms]


# --------------------------------------------------------------------------------------------
# A round's team matches
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One board of a team match as the round page shows it, from the first-named team's side: the
    players' names (``None``: nobody on that side), the first team's colour (``w`` on odd boards, ``b`` on
    even ones, ``None`` on a board without an opponent), the points (``None`` before the result), the sets
    as ``"first–second"`` stones, and the stored :class:`Match` (its ``board`` is the round's board
    number, what the result form takes)."""

    match: Match
    team_board: int
    first_name: str | None
    second_name: str | None
    first_colour: str | None
    first_points: float | None
    second_points: float | None
    forfeit: bool
    bye: bool
    sets: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundTeamMatch:
    """A team match of a round page: table number, the teams (``second`` None: a bye), its boards in board
    order (:class:`BoardLine`) and the result so far."""

    number: int
    first: Team
    second: Team | None
    boards: tuple[Match, ...]
    lines: tuple[BoardLine, ...]
    score: MatchScore


def _board_line(m: Match, first_team_id: int, entry_team: dict[int, int], bye_team: bool) -> BoardLine:
    wp = None if m.white_points is None else float(m.white_points)
    bp = None if m.black_points is None else float(m.black_points)
    white_name = m.white.player.full_name
    if m.kind == Match.Kind.BYE:
        mine = bye_team or entry_team.get(m.white_id) == first_team_id
        return BoardLine(m, m.team_board or 0, white_name if mine else None, None if mine else white_name, None,
                         wp if mine else (0.0 if wp is not None else None), None if mine else wp,
                         True, True, ())
    black_name = m.black.player.full_name
    sets = tuple(f"{x.white_stones}–{x.black_stones}" for x in m.sets.all())
    if entry_team.get(m.white_id) == first_team_id:
        return BoardLine(m, m.team_board or 0, white_name, black_name, "w", wp, bp, bool(m.forfeit), False, sets)
    flipped = tuple(f"{x.black_stones}–{x.white_stones}" for x in m.sets.all())
    return BoardLine(m, m.team_board or 0, black_name, white_name, "b", bp, wp, bool(m.forfeit), False, flipped)


def round_team_matches(*, round: Round, boards: list[Match] | None = None) -> list[RoundTeamMatch]:
    """The team matches of ``round`` with their boards (the round page's ``boards`` when given: no second
    load of the matches, players and sets) and the team result from the boards with a result."""
    tournament = round.tournament
    tms = list(round.team_matches.select_related("white_team", "black_team", "round").order_by("number"))
    if boards is None:
        from tournaments.selectors import round_boards

        boards = round_boards(round=round)
    by_tm: dict[int, list[Match]] = defaultdict(list)
    for m in boards:
        if m.team_match_id is not None:
            by_tm[m.team_match_id].append(m)
    entry_team = entry_teams(tournament=tournament)
    bye_mp = bye_match_points(tournament)
    out = []
    for tm in tms:
        rows = sorted(by_tm[tm.id], key=lambda m: m.team_board or 0)
        score = team_match_score(_record(tm, rows, entry_team), boards=tournament.boards_per_team,
                                 bye_match_points=bye_mp)
        lines = tuple(_board_line(m, tm.white_team_id, entry_team, tm.black_team_id is None) for m in rows)
        out.append(RoundTeamMatch(tm.number, tm.white_team, tm.black_team, tuple(rows), lines, score))
    return out


# --------------------------------------------------------------------------------------------
# Standings, crosstable, board prizes
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeamStandingLine:
    rank: int
    shared: bool
    team_id: int
    seed_no: int
    name: str
    short_name: str
    match_points: int
    board_points: float
    tiebreaks: tuple[float, ...]
    won: int
    drawn: int
    lost: int
    played: int
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class TeamStandings:
    """The team standings after round ``rounds`` (``provisional``: a counted round is not closed yet)."""

    tournament_id: int
    rounds: int
    provisional: bool
    tiebreak_keys: tuple[str, ...]
    tiebreak_labels: tuple[str, ...]
    tiebreak_shorts: tuple[str, ...]
    lines: tuple[TeamStandingLine, ...]


def _rounds_counted(tournament: Tournament, records: list[TeamMatchRecord], statuses: dict[int, str],
                    *, public_only: bool) -> tuple[int, bool]:
    if public_only:
        published = _last_round_for(tournament, public_only=True) or 0
        return published, False
    closed = [n for n, s in statuses.items() if s == Round.Status.CLOSED]
    if closed:
        return max(closed), False
    done = [r.round for r in records if any(b.has_result for b in r.boards)]
    return max(done, default=0), bool(done)


def team_standings_table(*, tournament: Tournament, public_only: bool = False, lang: str = "tr",
                         tiebreaks=DEFAULT_TEAM_TIEBREAKS) -> TeamStandings:
    """The team standings (FIDE C.07: match points, then ``tiebreaks``): for the public the closed rounds
    up to the round the standings were published after; for organisers the last closed round (before any
    round is closed: the last round with a board result, ``provisional``)."""
    max_round = _last_round_for(tournament, public_only=public_only)
    records = team_match_records(tournament=tournament, max_round=max_round, public_only=public_only)
    statuses = dict(tournament.rounds.values_list("number", "status"))
    rounds, provisional = _rounds_counted(tournament, records, statuses, public_only=public_only)
    teams = list(tournament.teams.order_by("seed_no"))
    rows = team_standings(
        [TeamValue(t.id, t.name, t.seed_no) for t in teams], records, boards=tournament.boards_per_team,
        rounds=rounds, tiebreaks=tiebreaks, bye_match_points=bye_match_points(tournament),
    )
    by_id = {t.id: t for t in teams}
    lines = tuple(
        TeamStandingLine(
            rank=r.rank, shared=r.shared, team_id=r.team_id, seed_no=by_id[r.team_id].seed_no,
            name=by_id[r.team_id].name, short_name=by_id[r.team_id].short_name, match_points=r.match_points,
            board_points=r.board_points, tiebreaks=r.tiebreaks, won=r.won, drawn=r.drawn, lost=r.lost,
            played=r.played, withdrawn=by_id[r.team_id].withdrawn,
        )
        for r in rows
    )
    return TeamStandings(
        tournament_id=tournament.id, rounds=rounds, provisional=provisional, tiebreak_keys=tuple(tiebreaks),
        tiebreak_labels=tuple(team_tiebreak_label(k, lang) for k in tiebreaks),
        tiebreak_shorts=tuple(team_tiebreak_short(k) for k in tiebreaks), lines=lines,
    )


def team_standings_as_dicts(table: TeamStandings) -> list[dict]:
    """API rows: ``rank``, ``shared``, ``team`` {id, seed_no, name, short_name}, ``match_points``,
    ``board_points``, ``tiebreaks`` {key: value}, ``won``/``drawn``/``lost``/``played``, ``withdrawn``."""
    return [
        {
            "rank": line.rank, "shared": line.shared,
            "team": {"id": line.team_id, "seed_no": line.seed_no, "name": line.name, "short_name": line.short_name},
            "match_points": line.match_points, "board_points": line.board_points,
            "tiebreaks": dict(zip(table.tiebreak_keys, line.tiebreaks)),
            "won": line.won, "drawn": line.drawn, "lost": line.lost, "played": line.played,
            "withdrawn": line.withdrawn,
        }
        for line in table.lines
    ]


@dataclass(frozen=True, slots=True)
class CrosstableRow:
    """A team's row of the team crosstable: rank, team, the ``cells`` (round robin: one per team in
    standings order, ``None`` on the diagonal or when not met; Swiss: one per round) and totals."""

    rank: int
    team_id: int
    seed_no: int
    name: str
    cells: tuple
    match_points: int
    board_points: float


@dataclass(frozen=True, slots=True)
class TeamCrosstable:
    round_robin: bool
    rounds: int
    columns: tuple  # round robin: the teams' ranks (column headings); Swiss: the round numbers
    rows: tuple[CrosstableRow, ...]


def team_crosstable_table(*, tournament: Tournament, public_only: bool = True, lang: str = "tr") -> TeamCrosstable:
    """The team crosstable after the rounds the standings count. Round robin: team × team, each cell the
    board points scored against that team (a list when they met more than once). Swiss: per round the
    opponent's rank, ``w``/``b`` (first- or second-named) and the board points scored."""
    st = team_standings_table(tournament=tournament, public_only=public_only, lang=lang)
    records = team_match_records(tournament=tournament, max_round=st.rounds, public_only=public_only)
    cells = team_crosstable(records, boards=tournament.boards_per_team, rounds=st.rounds,
                            bye_match_points=bye_match_points(tournament))
    rank_of = {line.team_id: line.rank for line in st.lines}
    robin = tournament.system == Tournament.System.ROUND_ROBIN
    rows = []
    order = [line.team_id for line in st.lines]
    for line in st.lines:
        mine = cells.get(line.team_id, {})
        if robin:
            against: dict[int, list[float]] = defaultdict(list)
            for c in mine.values():
                if c.opponent is not None and c.match_points is not None:
                    against[c.opponent].append(c.board_points)
            row_cells = tuple(None if tid == line.team_id else (against.get(tid) or None) for tid in order)
        else:
            row_cells = tuple(
                (None if r not in mine else {
                    "opponent_rank": rank_of.get(mine[r].opponent) if mine[r].opponent else None,
                    "first": mine[r].first, "board_points": mine[r].board_points,
                    "match_points": mine[r].match_points,
                })
                for r in range(1, st.rounds + 1)
            )
        rows.append(CrosstableRow(line.rank, line.team_id, line.seed_no, line.name, row_cells, line.match_points,
                                  line.board_points))
    columns = tuple(line.rank for line in st.lines) if robin else tuple(range(1, st.rounds + 1))
    return TeamCrosstable(round_robin=robin, rounds=st.rounds, columns=columns, rows=tuple(rows))


@dataclass(frozen=True, slots=True)
class BoardPrizeLine:
    rank: int | None
    shared: bool
    name: str
    federation_id: str
    team: str
    points: float
    games: int
    percentage: float
    eligible: bool


def board_prize_tables(*, tournament: Tournament, public_only: bool = True,
                       min_games: int | None = None) -> list[tuple[BoardPrizeTable, tuple[BoardPrizeLine, ...]]]:
    """The board prizes (:func:`tournaments.standings.teams.board_prizes`: best percentage on each board
    with at least ``min_games`` games over the board, default two thirds of the rounds) after the rounds
    the standings count; per board the pure table and its lines with names."""
    st_round = _last_round_for(tournament, public_only=public_only)
    records = team_match_records(tournament=tournament, max_round=st_round, public_only=public_only)
    if not public_only:
        closed = list(tournament.rounds.filter(status=Round.Status.CLOSED).values_list("number", flat=True))
        st_round = max(closed, default=max((r.round for r in records), default=0))
    tables = board_prizes(records, boards=tournament.boards_per_team, rounds=st_round, min_games=min_games)
    entries = {e.id: e for e in tournament.entries.select_related("player")}
    teams = dict(tournament.teams.values_list("id", "name"))
    out = []
    for table in tables:
        lines = tuple(
            BoardPrizeLine(r.rank, r.shared, entries[r.player_id].player.full_name,
                           entries[r.player_id].player.federation_id, teams.get(r.team_id, ""), r.points, r.games,
                           r.percentage, r.eligible)
            for r in table.rows
        )
        out.append((table, lines))
    return out


# --------------------------------------------------------------------------------------------
# TRF-16 team lines
# --------------------------------------------------------------------------------------------


def team_trf_lines(*, tournament: Tournament, renumber: dict[int, int] | None = None) -> list[str]:
    """The TRF-16 team section (FIDE C.04 Annex 2, "Team section"): one ``013`` line per team — the team
    name in columns 5-36, then the starting numbers of its members in board order (reserves after the
    regulars), each right-aligned in 4 columns followed by a blank (columns 37-40, 42-45, ...); a team
    without members has no line. ``renumber`` maps stored starting numbers to those the file uses."""
    rows = (TeamMember.objects.filter(team__tournament=tournament)
            .order_by("team__seed_no", "board").values_list("team_id", "entry__start_no"))
    numbers: dict[int, list[int]] = defaultdict(list)
    for team_id, start_no in rows:
        numbers[team_id].append(renumber.get(start_no, start_no) if renumber else start_no)
    out = []
    for team in tournament.teams.order_by("seed_no"):
        if not numbers.get(team.id):
            continue
        name = " ".join(team.name.split())[:32]
        out.append(f"013 {name:<32}" + " ".join(f"{n:>4}" for n in numbers[team.id]))
    return out


def team_match_title(first: Team, second: Team | None) -> str:
    if second is None:
        return _("%(t)s – bye") % {"t": first.name}
    return f"{first.name} – {second.name}"
