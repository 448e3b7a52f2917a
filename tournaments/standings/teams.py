"""Team championships (issue 14): team match results, team standings with FIDE C.07 team tie-breaks,
board prizes and the team crosstable — pure Python, no Django.

Vocabulary (FIDE C.07, 2023 text, "Ranking of tied participants (players or teams)"):

* A **team match** is ``boards`` board matches between the *first-named* team (white on the odd
  boards) and the *second-named* one. Each board is a normal Mangala match scored 1 / ½ / 0
  (RULES.md "Match and tournament scoring"); a board forfeit scores 1–0 (0–0 when both sides are
  missing). In C.07's words a team's **game points** are its board points here.
* **Board points** (BP, C.07 game points) of a team in a match: the sum of its board match points.
* **Match points** (MP): 2 for the team with more board points, 1 each when equal, 0 for the other
  (C.07 Art. 4/5: in team competitions the primary score is match points, the secondary game
  points). A team match counts only once every board has a result (:attr:`MatchScore.complete`).
* A **bye** (``second is None``): the team is not paired. Its match points are ``bye_match_points``
  (the organiser's value: 2 = a won match for a pairing-allocated bye of a Swiss, 0 for the free round
  of a round robin with an odd number of teams); its board points are what its bye boards give.

Team standings (:func:`team_standings`) rank by match points, then by the tie-breaks in order
(C.07 Art. 4.2), each applied only to the teams still tied:

=================  ===================================================================================
key                rule
=================  ===================================================================================
``board_points``   game points: Σ board points (C.07 team competitions: the secondary score)
``team_sb``        team Sonneborn-Berger (C.07 §9.1 applied to teams, as FIDE team events do): Σ over the
                   team matches played of (the opponent team's match points × the board points scored
                   against it). A bye contributes nothing; a match lost by forfeit on every board
                   counts against the scheduled opponent (pre-determined pairings, no C.07 Art. 16
                   dummy opponent: the team event's regulation replaces it)
``direct_encounter``  C.07 §6: the match points scored in the team matches between the tied teams
                   (average per opponent when they met more than once). When every encounter took
                   place the group is ranked by them and each smaller tied sub-group again among itself;
                   when some are missing (Swiss) a team is placed first only when no other team of the
                   group could reach its DE score by winning (2 MP) every encounter it did not play;
                   otherwise the group stays tied
=================  ===================================================================================

Teams equal on everything share the rank (1, 2, 2, 4) and ``shared`` is set.

Board prizes (:func:`board_prizes`, our rule, announced with the event): for each board number, the
players who played on that board (the board of the lineup, so a reserve moved up to board 3 counts on
board 3) ranked by **percentage** = points ÷ games, where only games *played over the board* count
(a forfeit or a bye is not a game — as for rating, FIDE B.02) and a player needs at least
``min_games`` of them on that board to be ranked (default: two thirds of the rounds, rounded up).
Equal percentages: more games first; still equal: the prize is shared (same place).
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.standings.tiebreaks import direct_encounter_groups

__all__ = [
    "BoardPrizeRow",
    "BoardPrizeTable",
    "BoardResult",
    "CrosstableCell",
    "MatchScore",
    "TEAM_TIEBREAKS",
    "Team",
    "TeamMatchRecord",
    "TeamStandingRow",
    "TeamStandingsError",
    "board_prizes",
    "default_min_games",
    "match_points_of",
    "team_crosstable",
    "team_match_score",
    "team_standings",
]

WIN_MP, DRAW_MP, LOSS_MP = 2, 1, 0

#: Team tie-breaks in their default order after match points (issue 14: game points, team
#: Sonneborn-Berger, direct encounter), with English and Turkish labels and their short names.
TEAM_TIEBREAKS: dict[str, tuple[str, str, str]] = {
    "board_points": ("Board points", "Tahta puanı", "BP"),
    "team_sb": ("Team Sonneborn-Berger", "Takım Sonneborn-Berger", "TSB"),
    "direct_encounter": ("Direct encounter", "Aralarındaki maç", "DE"),
}
DEFAULT_TEAM_TIEBREAKS = ("board_points", "team_sb", "direct_encounter")


class TeamStandingsError(ValueError):
    """Input the team core cannot use: an unknown tie-break key, a team met in a match that is not in
    the list, two matches of one team in one round, board points that are not 1 / ½ / 0."""


@dataclass(frozen=True, slots=True)
class BoardResult:
    """One board of a team match, seen from the first-named team.

    ``first_player``/``second_player``: the players' ids (``None``: that team had nobody on the
    board). ``first_points``/``second_points``: board match points (1, ½, 0); ``None`` while the
    board has no result, and for the side without a player (it scores 0 on that board). ``played``: the match was played over the board (False for a forfeit or a
    board with a missing player)."""

    board: int
    first_player: int | None
    second_player: int | None
    first_points: float | None
    second_points: float | None
    played: bool = True

    @property
    def has_result(self) -> bool:
        """Both sides' points are known (a side without a player scores 0 once the other side has its points)."""
        if self.first_player is None or self.second_player is None:
            return self.first_points is not None or self.second_points is not None
        return self.first_points is not None and self.second_points is not None

    @property
    def first_score(self) -> float:
        return self.first_points or 0.0

    @property
    def second_score(self) -> float:
        return self.second_points or 0.0


@dataclass(frozen=True, slots=True)
class TeamMatchRecord:
    """A team match of round ``round``: ``first`` (white on the odd boards) v ``second`` (team ids;
    ``second is None``: a bye of ``first``) and its boards. Boards of ``1..boards`` missing from
    ``boards`` had nobody on either side: 0–0."""

    round: int
    first: int
    second: int | None
    boards: tuple[BoardResult, ...] = ()


@dataclass(frozen=True, slots=True)
class Team:
    """A team: id (unique in the event), name and starting number (1 = top seed)."""

    id: int
    name: str
    seed: int


@dataclass(frozen=True, slots=True)
class MatchScore:
    """The result of a team match so far.

    ``first_bp``/``second_bp``: board points of the boards with a result. ``complete``: every
    board has a result; only then ``first_mp``/``second_mp`` are set (2/1/0; ``None`` before).
    ``decided``: the winner is known already — the leader's board points cannot be caught with the
    boards still open (``winner`` 1 = first, 2 = second; 0 = a draw or not decided)."""

    first_bp: float
    second_bp: float
    first_mp: int | None
    second_mp: int | None
    complete: bool
    decided: bool
    winner: int
    boards_done: int
    boards: int


def match_points_of(own_bp: float, other_bp: float) -> int:
    """Match points of a finished team match: 2 for more board points, 1 when equal, 0 for fewer."""
    if own_bp > other_bp:
        return WIN_MP
    if own_bp == other_bp:
        return DRAW_MP
    return LOSS_MP


def _check_points(x: float | None, where: str) -> None:
    if x is not None and x not in (0, 0.5, 1):
        raise TeamStandingsError(f"{where}: board points must be 1, 0.5 or 0, not {x!r}")


def team_match_score(match: TeamMatchRecord, *, boards: int, bye_match_points: int = WIN_MP) -> MatchScore:
    """Board points and match points of ``match`` with ``boards`` boards (see the module docstring).

    A board of ``1..boards`` that ``match.boards`` does not list had nobody on either side (0–0, done).
    A bye is complete at once: ``bye_match_points`` and the board points of its bye boards.
    """
    by_board = {b.board: b for b in match.boards}
    if len(by_board) != len(match.boards):
        raise TeamStandingsError(f"round {match.round}: a board of team {match.first}'s match is listed twice")
    first_bp = second_bp = 0.0
    open_boards = 0
    for b in match.boards:
        _check_points(b.first_points, f"round {match.round} board {b.board}")
        _check_points(b.second_points, f"round {match.round} board {b.board}")
        if b.has_result:
            first_bp += b.first_score
            second_bp += b.second_score
        else:
            open_boards += 1
    total = max(boards, len(match.boards))
    done = total - open_boards
    if match.second is None:
        return MatchScore(first_bp, 0.0, bye_match_points, None, True, True, 1 if bye_match_points > DRAW_MP else 0,
                          done, total)
    complete = open_boards == 0
    if complete:
        fmp, smp = match_points_of(first_bp, second_bp), match_points_of(second_bp, first_bp)
        winner = 1 if fmp == WIN_MP else 2 if smp == WIN_MP else 0
        return MatchScore(first_bp, second_bp, fmp, smp, True, True, winner, done, total)
    # each open board gives at most 1 point to one side
    if first_bp > second_bp + open_boards:
        return MatchScore(first_bp, second_bp, None, None, False, True, 1, done, total)
    if second_bp > first_bp + open_boards:
        return MatchScore(first_bp, second_bp, None, None, False, True, 2, done, total)
    return MatchScore(first_bp, second_bp, None, None, False, False, 0, done, total)


# --------------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TeamStandingRow:
    """One line of the team standings: rank (shared ranks skip: 1, 2, 2, 4), team id, match points,
    board points, one value per requested tie-break (in order), ``shared``, and the counts of team
    matches won / drawn / lost (byes not counted) and played (byes not counted)."""

    rank: int
    team_id: int
    match_points: int
    board_points: float
    tiebreaks: tuple[float, ...]
    shared: bool
    won: int
    drawn: int
    lost: int
    played: int


@dataclass(slots=True)
class _Line:
    team: Team
    mp: int = 0
    bp: float = 0.0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    # opponent id -> list of (own match points, own board points) of each encounter
    met: dict = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        self.met = defaultdict(list)


def _complete_matches(teams: Sequence[Team], matches: Sequence[TeamMatchRecord], *, boards: int, rounds: int | None,
                      bye_match_points: int) -> tuple[dict[int, _Line], int]:
    ids = {t.id for t in teams}
    if len(ids) != len(teams):
        raise TeamStandingsError("two teams have the same id")
    lines = {t.id: _Line(t) for t in teams}
    seen: set[tuple[int, int]] = set()
    last = 0
    for m in matches:
        if rounds is not None and m.round > rounds:
            continue
        for tid in (m.first, m.second):
            if tid is None:
                continue
            if tid not in ids:
                raise TeamStandingsError(f"round {m.round}: team {tid} is not in the list of teams")
            if (tid, m.round) in seen:
                raise TeamStandingsError(f"round {m.round}: team {tid} has two team matches")
            seen.add((tid, m.round))
        score = team_match_score(m, boards=boards, bye_match_points=bye_match_points)
        if not score.complete:
            continue  # a team match counts once every board has a result
        last = max(last, m.round)
        first = lines[m.first]
        first.mp += score.first_mp or 0
        first.bp += score.first_bp
        if m.second is None:
            continue
        second = lines[m.second]
        second.mp += score.second_mp or 0
        second.bp += score.second_bp
        for line, mp in ((first, score.first_mp), (second, score.second_mp)):
            if mp == WIN_MP:
                line.won += 1
            elif mp == DRAW_MP:
                line.drawn += 1
            else:
                line.lost += 1
        first.met[m.second].append((score.first_mp, score.first_bp))
        second.met[m.first].append((score.second_mp, score.second_bp))
    return lines, last


def _team_sb(lines: dict[int, _Line]) -> dict[int, float]:
    """Team Sonneborn-Berger: Σ opponent's match points × board points scored against it."""
    return {
        tid: sum(lines[opp].mp * bp for opp, games in line.met.items() for _mp, bp in games)
        for tid, line in lines.items()
    }


def _de_scores(lines: dict[int, _Line], members: list[int]) -> tuple[dict[int, float], dict[int, int]]:
    """Per member: match points scored against the other members (mean per opponent over repeated
    encounters) and how many of them it met."""
    scores: dict[int, float] = {}
    met: dict[int, int] = {}
    group = set(members)
    for m in members:
        total, count = 0.0, 0
        for opp, games in lines[m].met.items():
            if opp in group and games:
                total += sum(mp for mp, _bp in games) / len(games)
                count += 1
        scores[m], met[m] = total, count
    return scores, met


def _de_order(lines: dict[int, _Line], members: list[int]) -> list[list[int]]:
    """C.07 §6 on a tied group of teams: sub-groups, best first (see the module docstring), by the
    players' rule with match points (a won team match = 2)."""
    return direct_encounter_groups(members, lambda ms: _de_scores(lines, ms), WIN_MP)


def _split(group: list[int], value: dict[int, float]) -> list[list[int]]:
    out: list[list[int]] = []
    for tid in sorted(group, key=lambda t: -value[t]):
        if out and value[out[-1][0]] == value[tid]:
            out[-1].append(tid)
        else:
            out.append([tid])
    return out


def team_standings(
    teams: Sequence[Team],
    matches: Sequence[TeamMatchRecord],
    *,
    boards: int,
    rounds: int | None = None,
    tiebreaks: Sequence[str] = DEFAULT_TEAM_TIEBREAKS,
    bye_match_points: int = WIN_MP,
) -> list[TeamStandingRow]:
    """Team standings after ``rounds`` (``None``: every round given), FIDE C.07 (module docstring).

    Only complete team matches count (every board has a result). ``tiebreaks``: keys of
    :data:`TEAM_TIEBREAKS` in order. Rows are in rank order; teams equal on everything are listed by
    starting number. Raises :class:`TeamStandingsError` for bad input.
    """
    unknown = [k for k in tiebreaks if k not in TEAM_TIEBREAKS]
    if unknown:
        raise TeamStandingsError(f"unknown team tie-break {unknown[0]!r}; valid keys: {', '.join(TEAM_TIEBREAKS)}")
    lines, _last = _complete_matches(teams, matches, boards=boards, rounds=rounds, bye_match_points=bye_match_points)
    mp = {tid: float(line.mp) for tid, line in lines.items()}
    columns: dict[str, dict[int, float]] = {
        "board_points": {tid: line.bp for tid, line in lines.items()},
        "team_sb": _team_sb(lines),
    }
    groups = _split(sorted(lines, key=lambda t: lines[t].team.seed), mp)
    #: per tie-break position: the DE value of each team in the group it was tied in (0 when not tied)
    de_values_by_position: list[dict[int, float]] = []
    for key in tiebreaks:
        refined: list[list[int]] = []
        values = {tid: 0.0 for tid in lines}
        for g in groups:
            if len(g) == 1:
                refined.append(g)
                continue
            if key == "direct_encounter":
                scores, _met = _de_scores(lines, g)
                values.update(scores)
                refined.extend(_de_order(lines, g))
            else:
                refined.extend(_split(g, columns[key]))
        de_values_by_position.append(values)
        groups = refined
    rows: list[TeamStandingRow] = []
    position = 1
    for g in groups:
        shared = len(g) > 1
        for tid in sorted(g, key=lambda t: lines[t].team.seed):
            line = lines[tid]
            tb = tuple(
                de_values_by_position[i][tid] if key == "direct_encounter" else columns[key][tid]
                for i, key in enumerate(tiebreaks)
            )
            rows.append(TeamStandingRow(
                rank=position, team_id=tid, match_points=line.mp, board_points=line.bp, tiebreaks=tb, shared=shared,
                won=line.won, drawn=line.drawn, lost=line.lost, played=line.won + line.drawn + line.lost,
            ))
        position += len(g)
    return rows


# --------------------------------------------------------------------------------------------
# Crosstable
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CrosstableCell:
    """One team's result in one round: the opponent (``None``: a bye), whether it was first-named,
    its board points and match points (``None`` while the match is not complete)."""

    round: int
    opponent: int | None
    first: bool
    board_points: float
    match_points: int | None


def team_crosstable(
    matches: Sequence[TeamMatchRecord], *, boards: int, rounds: int | None = None, bye_match_points: int = WIN_MP
) -> dict[int, dict[int, CrosstableCell]]:
    """Per team id, per round: its :class:`CrosstableCell` (a round without a team match is absent)."""
    out: dict[int, dict[int, CrosstableCell]] = defaultdict(dict)
    for m in matches:
        if rounds is not None and m.round > rounds:
            continue
        s = team_match_score(m, boards=boards, bye_match_points=bye_match_points)
        out[m.first][m.round] = CrosstableCell(m.round, m.second, True, s.first_bp, s.first_mp)
        if m.second is not None:
            out[m.second][m.round] = CrosstableCell(m.round, m.first, False, s.second_bp, s.second_mp)
    return dict(out)


# --------------------------------------------------------------------------------------------
# Board prizes
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardPrizeRow:
    """A player's record on one board: points and games over the board there, ``percentage``
    (0..100, one decimal), ``eligible`` (at least the minimum of games), ``rank`` among the eligible
    players (``None`` when not eligible; shared ranks skip) and ``shared``."""

    player_id: int
    team_id: int
    points: float
    games: int
    percentage: float
    eligible: bool
    rank: int | None
    shared: bool


@dataclass(frozen=True, slots=True)
class BoardPrizeTable:
    """The board-prize ranking of board ``board``; ``min_games`` is the minimum applied."""

    board: int
    min_games: int
    rows: tuple[BoardPrizeRow, ...]

    @property
    def winners(self) -> tuple[BoardPrizeRow, ...]:
        """The rows ranked first (several when the prize is shared)."""
        return tuple(r for r in self.rows if r.rank == 1)


def default_min_games(rounds: int) -> int:
    """The default minimum of games on a board for its prize: two thirds of the rounds, rounded up."""
    return max(1, math.ceil(rounds * 2 / 3))


def board_prizes(
    matches: Sequence[TeamMatchRecord], *, boards: int, rounds: int | None = None, min_games: int | None = None
) -> list[BoardPrizeTable]:
    """The board prizes of boards ``1..boards`` after ``rounds`` (module docstring: the rule).

    ``min_games``: the minimum of games over the board on that board (``None``:
    :func:`default_min_games` of the rounds counted). Only boards with a result count.
    """
    counted_rounds = rounds if rounds is not None else max((m.round for m in matches), default=0)
    need = default_min_games(counted_rounds) if min_games is None else min_games
    # (board, player) -> [points, games, team]
    acc: dict[tuple[int, int], list] = {}
    for m in matches:
        if rounds is not None and m.round > rounds:
            continue
        for b in m.boards:
            if not b.has_result or not b.played:
                continue
            for pid, pts, team in ((b.first_player, b.first_score, m.first), (b.second_player, b.second_score, m.second)):
                if pid is None or team is None:
                    continue
                rec = acc.setdefault((b.board, pid), [0.0, 0, team])
                rec[0] += pts
                rec[1] += 1
    tables = []
    for board in range(1, boards + 1):
        records = [(pid, *rec) for (bd, pid), rec in acc.items() if bd == board]
        rows_data = []
        for pid, pts, games, team in records:
            pct = round(100.0 * pts / games, 1) if games else 0.0
            rows_data.append((pid, team, pts, games, pct, games >= need))
        eligible = sorted((r for r in rows_data if r[5]), key=lambda r: (-r[2] / r[3], -r[3], r[0]))
        rows: list[BoardPrizeRow] = []
        position = 0
        i = 0
        while i < len(eligible):
            j = i
            key = (eligible[i][2] / eligible[i][3], eligible[i][3])
            while j < len(eligible) and (eligible[j][2] / eligible[j][3], eligible[j][3]) == key:
                j += 1
            position = len(rows) + 1
            for r in eligible[i:j]:
                rows.append(BoardPrizeRow(r[0], r[1], r[2], r[3], r[4], True, position, j - i > 1))
            i = j
        others = sorted((r for r in rows_data if not r[5]), key=lambda r: (-r[3], -r[2], r[0]))
        rows += [BoardPrizeRow(r[0], r[1], r[2], r[3], r[4], False, None, False) for r in others]
        tables.append(BoardPrizeTable(board=board, min_games=need, rows=tuple(rows)))
    return tables
