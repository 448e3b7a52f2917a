"""The team section of a team championship's TRF (FIDE TRF-2026, "Team Section", "Bye Section").

Besides the TRF-16 ``082`` (number of teams) and one ``013`` line per team (kept for older readers), the
file carries what another program needs to score the teams as this one does:

* ``362 TW  2.0   TD  1.0   TL  0.0`` — the team scoring system (match points of a won, drawn and lost
  team match; columns 5-6 the code, 7-10 the points, every 9 columns);
* ``310`` — one line per team (TRF-2026, replaces ``013``): team pairing number (the team's starting
  number, columns 5-7), name (9-40), short name (42-46), strength (mean rating of the regular boards,
  48-53), match points (55-60), game (board) points (62-67) and rank (69-71) after the exported rounds,
  then its members' starting numbers in board order (74-77, 79-82, …);
* ``320`` — the team's pairing-allocated bye: the match points (columns 5-8) and game points (10-13) a
  bye gives, then per round the team that had it (15-17 round 1, 19-21 round 2, …; ``000``: none). A
  Swiss bye gives ``2 × bye_points`` match points and ``bye_points`` on every regular board; the free
  round of a round robin gives nothing (``0.0 0.0``). Without this record a reader sees a bye team's
  board byes only and scores the team's bye as a drawn match.
"""
from __future__ import annotations

from tournaments.models import Tournament
from tournaments.standings.teams import DRAW_MP, LOSS_MP, WIN_MP, team_standings
from tournaments.standings.teams import Team as TeamValue


def _points(value: float, width: int) -> str:
    return f"{value:{width}.1f}"


def team_scoring_line() -> str:
    """``362``: the match points of a won, drawn and lost team match (2 / 1 / 0)."""
    return "362 " + "   ".join(f"T{code}{_points(pts, 4)}" for code, pts in (("W", WIN_MP), ("D", DRAW_MP),
                                                                              ("L", LOSS_MP)))


def team_bye_points(tournament: Tournament) -> tuple[float, float]:
    """``(match points, game points)`` of a team's bye: a Swiss's pairing-allocated bye gives
    ``2 × bye_points`` and ``bye_points`` per regular board; a round robin's free round gives 0 and 0."""
    from tournaments.teams.selectors import bye_match_points

    if tournament.system == Tournament.System.ROUND_ROBIN:
        return 0.0, 0.0
    return float(bye_match_points(tournament)), float(tournament.bye_points) * tournament.boards_per_team


def team_trf_records(*, tournament: Tournament, renumber: dict[int, int] | None = None,
                     up_to_round: int | None = None) -> list[str]:
    """The team lines of :func:`tournaments.trf.selectors.tournament_export_trf`: ``082``, ``013``, ``362``,
    ``310`` and ``320`` (module docstring) after the closed rounds up to ``up_to_round`` (``None``: every
    closed round). ``renumber`` maps stored starting numbers to those the file uses."""
    from tournaments.teams.selectors import bye_match_points, team_match_records, team_trf_lines

    lines_013 = team_trf_lines(tournament=tournament, renumber=renumber)
    out = [f"082 {len(lines_013)}", *lines_013, team_scoring_line()]
    records = team_match_records(tournament=tournament, max_round=up_to_round, public_only=True)
    last = max((r.round for r in records), default=0)
    teams = list(tournament.teams.prefetch_related("members__entry").order_by("seed_no"))
    rows = team_standings([TeamValue(t.id, t.name, t.seed_no) for t in teams], records,
                          boards=tournament.boards_per_team, rounds=last, tiebreaks=(),
                          bye_match_points=bye_match_points(tournament))
    by_team = {r.team_id: r for r in rows}
    for team in teams:
        members = sorted(team.members.all(), key=lambda m: m.board)
        if not members:
            continue
        numbers = [renumber.get(m.entry.start_no, m.entry.start_no) if renumber else m.entry.start_no
                   for m in members]
        regular = [m.entry.rating for m in members if not m.reserve]
        strength = round(sum(regular) / len(regular)) if regular else 0
        row = by_team.get(team.id)
        name = " ".join(team.name.split())[:32]
        nick = " ".join(team.short_name.split())[:5]
        out.append(
            f"310 {team.seed_no:>3} {name:<32} {nick:<5} {strength:>6} {_points(row.match_points if row else 0, 6)}"
            f" {_points(row.board_points if row else 0, 6)} {row.rank if row else 0:>3}  "
            + " ".join(f"{n:>4}" for n in numbers)
        )
    seed = {t.id: t.seed_no for t in teams}
    bye_of = {r.round: seed.get(r.first, 0) for r in records if r.second is None}
    mp, gp = team_bye_points(tournament)
    out.append(f"320 {_points(mp, 4)} {_points(gp, 4)}" + "".join(f" {bye_of.get(n, 0):03d}" for n in range(1, last + 1)))
    return out
