"""The pure team core (tournaments/standings/teams.py): team match results, team standings with the
FIDE C.07 team tie-breaks, the team crosstable and board prizes — every expected value computed by hand
in the comments."""
from __future__ import annotations

import pytest

from tournaments.standings.teams import (
    BoardResult,
    Team,
    TeamMatchRecord,
    TeamStandingsError,
    board_prizes,
    default_min_games,
    team_crosstable,
    team_match_score,
    team_standings,
)


def match(rnd, first, second, points, *, players=None, played=None):
    """A team match whose boards give the first team ``points`` (1 / 0.5 / 0 / None = no result yet);
    players default to team id × 10 + board index."""
    boards = []
    for i, p in enumerate(points):
        fp, sp = players[i] if players else (first * 10 + i, second * 10 + i)
        boards.append(BoardResult(i + 1, fp, sp, p, None if p is None else 1 - p,
                                  True if played is None else played[i]))
    return TeamMatchRecord(rnd, first, second, tuple(boards))


# --------------------------------------------------------------------------------------------
# One team match
# --------------------------------------------------------------------------------------------


def test_team_match_score_as_the_boards_come_in():
    # no board yet
    s = team_match_score(match(1, 1, 2, [None, None, None, None]), boards=4)
    assert (s.first_bp, s.second_bp, s.complete, s.decided, s.first_mp) == (0, 0, False, False, None)
    # 1 - 0 after one board: not decided (three boards open)
    s = team_match_score(match(1, 1, 2, [1, None, None, None]), boards=4)
    assert (s.first_bp, s.second_bp, s.boards_done, s.decided) == (1, 0, 1, False)
    # 2.5 - 0.5 with one board open: the second team can reach 1.5 at most -> decided for the first
    s = team_match_score(match(1, 1, 2, [1, 0.5, 1, None]), boards=4)
    assert (s.first_bp, s.second_bp, s.decided, s.winner, s.complete, s.first_mp) == (2.5, 0.5, True, 1, False, None)
    # 2 - 1 with one open: 2 - 2 still possible -> not decided
    s = team_match_score(match(1, 1, 2, [1, 0, 1, None]), boards=4)
    assert (s.decided, s.winner) == (False, 0)
    # complete: 2.5 - 1.5 -> 2 : 0 match points
    s = team_match_score(match(1, 1, 2, [1, 0.5, 0, 1]), boards=4)
    assert (s.first_bp, s.second_bp, s.first_mp, s.second_mp, s.complete, s.winner) == (2.5, 1.5, 2, 0, True, 1)
    # 2 - 2 -> 1 : 1
    s = team_match_score(match(1, 1, 2, [1, 0, 0.5, 0.5]), boards=4)
    assert (s.first_mp, s.second_mp, s.winner) == (1, 1, 0)
    # the second team wins 3 - 1
    s = team_match_score(match(1, 1, 2, [0, 0, 1, 0]), boards=4)
    assert (s.first_mp, s.second_mp, s.winner) == (0, 2, 2)


def test_a_board_with_nobody_on_either_side_is_0_0_and_done():
    # boards 1-3 listed (2 - 1), board 4 empty on both sides: 2 - 1 final, 2 : 0
    s = team_match_score(match(1, 1, 2, [1, 0, 1]), boards=4)
    assert (s.first_bp, s.second_bp, s.complete, s.first_mp, s.boards) == (2, 1, True, 2, 4)


def test_a_bye_counts_its_match_points_and_its_bye_boards():
    bye = TeamMatchRecord(3, 5, None, tuple(BoardResult(b, 50 + b, None, 1, None, False) for b in (1, 2, 3, 4)))
    s = team_match_score(bye, boards=4)
    assert (s.first_bp, s.first_mp, s.complete) == (4, 2, True)
    assert team_match_score(bye, boards=4, bye_match_points=0).first_mp == 0  # a round robin's free round


def test_bad_board_points_are_refused():
    with pytest.raises(TeamStandingsError, match="board points"):
        team_match_score(match(1, 1, 2, [2, 0, 0, 0]), boards=4)


# --------------------------------------------------------------------------------------------
# Standings: a six-team, three-round event computed by hand
# --------------------------------------------------------------------------------------------

SIX = [Team(i, f"T{i}", i) for i in range(1, 7)]
SIX_MATCHES = [
    # board points of the first-named team per board; the second team has 1 - p
    match(1, 1, 2, [0, 1, 0, 1]),        # 2   - 2    T1 1, T2 1
    match(1, 3, 4, [0, 0.5, 1, 1]),      # 2.5 - 1.5  T3 2, T4 0
    match(1, 5, 6, [0.5, 0.5, 1, 0.5]),  # 2.5 - 1.5  T5 2, T6 0
    match(2, 1, 3, [0.5, 1, 1, 0.5]),    # 3   - 1    T1 2, T3 0
    match(2, 2, 5, [1, 0.5, 0, 0.5]),    # 2   - 2    T2 1, T5 1
    match(2, 4, 6, [0.5, 0.5, 0.5, 1]),  # 2.5 - 1.5  T4 2, T6 0
    match(3, 1, 4, [0, 1, 0.5, 0]),      # 1.5 - 2.5  T1 0, T4 2
    match(3, 2, 6, [0.5, 0, 0.5, 0.5]),  # 1.5 - 2.5  T2 0, T6 2
    match(3, 3, 5, [0.5, 0, 0.5, 1]),    # 2   - 2    T3 1, T5 1
]
# match points: T1 1+2+0=3, T2 1+1+0=2, T3 2+0+1=3, T4 0+2+2=4, T5 2+1+1=4, T6 0+0+2=2
# board points: T1 2+3+1.5=6.5, T2 2+2+1.5=5.5, T3 2.5+1+2=5.5, T4 1.5+2.5+2.5=6.5, T5 2.5+2+2=6.5,
#               T6 1.5+1.5+2.5=5.5
# team SB (opponent's MP x board points scored against it):
#   T1: T2 2x2 + T3 3x3 + T4 4x1.5 = 4+9+6 = 19      T2: T1 3x2 + T5 4x2 + T6 2x1.5 = 6+8+3 = 17
#   T3: T4 4x2.5 + T1 3x1 + T5 4x2 = 10+3+8 = 21     T4: T3 3x1.5 + T6 2x2.5 + T1 3x2.5 = 4.5+5+7.5 = 17
#   T5: T6 2x2.5 + T2 2x2 + T3 3x2 = 5+4+6 = 15      T6: T5 4x1.5 + T4 4x1.5 + T2 2x2.5 = 6+6+5 = 17
# ranking: 4 MP: T4, T5 equal on BP (6.5) -> TSB 17 > 15: T4, T5
#          3 MP: T1 6.5 BP > T3 5.5
#          2 MP: T6, T2 equal on BP (5.5) and TSB (17) -> DE: T6 beat T2 in round 3: 2 against 0
EXPECTED = [
    # rank, team, MP, BP, (BP, TSB, DE), W, D, L
    (1, 4, 4, 6.5, (6.5, 17, 0), 2, 0, 1),
    (2, 5, 4, 6.5, (6.5, 15, 0), 1, 2, 0),
    (3, 1, 3, 6.5, (6.5, 19, 0), 1, 1, 1),
    (4, 3, 3, 5.5, (5.5, 21, 0), 1, 1, 1),
    (5, 6, 2, 5.5, (5.5, 17, 2), 1, 0, 2),
    (6, 2, 2, 5.5, (5.5, 17, 0), 0, 2, 1),
]


def test_team_standings_by_match_points_board_points_team_sb_and_direct_encounter():
    rows = team_standings(SIX, SIX_MATCHES, boards=4)
    got = [(r.rank, r.team_id, r.match_points, r.board_points, r.tiebreaks, r.won, r.drawn, r.lost) for r in rows]
    assert got == EXPECTED
    assert not any(r.shared for r in rows)


def test_the_tie_break_order_matters():
    # team SB first: among the 4-MP teams T4 (17) before T5 (15); among the 3-MP teams T3 (21) before T1 (19)
    rows = team_standings(SIX, SIX_MATCHES, boards=4, tiebreaks=["team_sb"])
    assert [r.team_id for r in rows] == [4, 5, 3, 1, 2, 6]
    # T2 and T6: equal on team SB alone -> shared 5th place, listed by starting number
    assert [(r.rank, r.shared) for r in rows[4:]] == [(5, True), (5, True)]
    # direct encounter alone: T4 and T5 did not meet (nobody can be placed first: each could still reach
    # 2), so they share 1st; T1 beat T3 in round 2 (2 against 0); T6 beat T2
    rows = team_standings(SIX, SIX_MATCHES, boards=4, tiebreaks=["direct_encounter"])
    assert [(r.rank, r.team_id, r.tiebreaks) for r in rows] == [
        (1, 4, (0,)), (1, 5, (0,)), (3, 1, (2,)), (4, 3, (0,)), (5, 6, (2,)), (6, 2, (0,)),
    ]
    # no tie-break at all: pairs share their places
    rows = team_standings(SIX, SIX_MATCHES, boards=4, tiebreaks=[])
    assert [r.rank for r in rows] == [1, 1, 3, 3, 5, 5]


def test_direct_encounter_with_a_missing_encounter():
    teams = [Team(i, f"T{i}", i) for i in (1, 2, 3, 4)]
    # T1 beats T2 and T3 and loses to T4; T2 and T3 each beat T4; T2 - T3 is not played yet
    matches = [
        match(1, 1, 2, [1, 1, 0, 0.5]),   # T1 2.5 - 1.5
        match(1, 3, 4, [1, 1, 1, 1]),     # T3 4 - 0
        match(2, 1, 3, [1, 0.5, 0.5, 0.5]),  # T1 2.5 - 1.5
        match(2, 2, 4, [1, 1, 1, 0]),     # T2 3 - 1
        match(3, 4, 1, [1, 1, 1, 1]),     # T4 4 - 0 against T1
        match(3, 2, 3, [None, None, None, None]),  # T2 - T3 not played yet: does not count
    ]
    # MP: T1 2+2+0 = 4, T2 0+2 = 2, T3 2+0 = 2, T4 0+0+2 = 2
    rows = team_standings(teams, matches, boards=4, tiebreaks=["direct_encounter"])
    # 2-MP group T2, T3, T4: T4 lost to T3 (round 1) and T2 (round 2): T2 2 (met 1 of 2), T3 2 (met 1),
    # T4 0 (met 2); T2 and T3 could each reach 4 -> nobody is placed first: all three share 2nd place
    assert [(r.rank, r.team_id, r.match_points, r.tiebreaks[0]) for r in rows] == [
        (1, 1, 4, 0), (2, 2, 2, 2), (2, 3, 2, 2), (2, 4, 2, 0),
    ]
    # once T2 - T3 is played (T2 wins 2.5 - 1.5): T1 4, T2 4, T3 2, T4 2 MP; T1 beat T2 (2 against 0) and
    # T3 beat T4 -> T1, T2, T3, T4
    done = matches[:-1] + [match(3, 2, 3, [1, 1, 0.5, 0])]
    rows = team_standings(teams, done, boards=4, tiebreaks=["direct_encounter"])
    assert [(r.rank, r.team_id, r.match_points, r.tiebreaks[0]) for r in rows] == [
        (1, 1, 4, 2), (2, 2, 4, 0), (3, 3, 2, 2), (4, 4, 2, 0),
    ]


def test_byes_and_unknown_teams():
    teams = [Team(1, "A", 1), Team(2, "B", 2), Team(3, "C", 3)]
    bye = TeamMatchRecord(1, 3, None, tuple(BoardResult(b, 30 + b, None, 1, None, False) for b in (1, 2)))
    rows = team_standings(teams, [match(1, 1, 2, [1, 0.5]), bye], boards=2)
    # A 1.5 - 0.5: 2 MP; C's bye: 2 MP and 2 board points -> C first on board points; bye not a match played
    assert [(r.team_id, r.match_points, r.board_points, r.played) for r in rows] == [
        (3, 2, 2, 0), (1, 2, 1.5, 1), (2, 0, 0.5, 1),
    ]
    # a bye gives no team SB
    assert rows[0].tiebreaks[1] == 0
    with pytest.raises(TeamStandingsError, match="team 9"):
        team_standings(teams, [match(1, 1, 9, [1, 1])], boards=2)
    with pytest.raises(TeamStandingsError, match="two team matches"):
        team_standings(teams, [match(1, 1, 2, [1, 1]), match(1, 1, 3, [1, 1])], boards=2)
    with pytest.raises(TeamStandingsError, match="unknown team tie-break"):
        team_standings(teams, [], boards=2, tiebreaks=["buchholz"])


def test_standings_after_a_round():
    rows = team_standings(SIX, SIX_MATCHES, boards=4, rounds=1)
    # round 1 only: T3, T5 2 MP (2.5 BP each; TSB T3 = T4's 0 x 2.5 = 0, T5 = T6's 0 x 2.5 = 0; they did not
    # meet) -> shared 1st; T1, T2 1 MP (2 BP, TSB 1x2 = 2 each, drawn against each other: DE 1 each) shared 3rd
    assert [(r.rank, r.team_id, r.match_points) for r in rows] == [
        (1, 3, 2), (1, 5, 2), (3, 1, 1), (3, 2, 1), (5, 4, 0), (5, 6, 0),
    ]


def test_team_crosstable_cells():
    cells = team_crosstable(SIX_MATCHES, boards=4)
    assert cells[1][2].opponent == 3 and cells[1][2].first and cells[1][2].board_points == 3 and cells[1][2].match_points == 2
    assert cells[3][2].opponent == 1 and not cells[3][2].first and cells[3][2].board_points == 1 and cells[3][2].match_points == 0
    assert sorted(cells[6]) == [1, 2, 3]


# --------------------------------------------------------------------------------------------
# Board prizes
# --------------------------------------------------------------------------------------------

# Four teams of two boards, three rounds. Players: A 11, 12 and reserve 13; B 21, 22; C 31, 32; D 41, 42.
PRIZE_MATCHES = [
    match(1, 1, 2, [1, 0.5], players=[(11, 21), (12, 22)]),
    match(1, 3, 4, [0, 1], players=[(31, 41), (32, 42)]),
    # A's board-2 player 12 is absent: the reserve 13 plays board 2
    match(2, 1, 3, [0.5, 1], players=[(11, 31), (13, 32)]),
    # D's 42 does not come: B's 22 wins board 2 by forfeit (not a game)
    match(2, 2, 4, [0, 1], players=[(21, 41), (22, 42)], played=[True, False]),
    match(3, 1, 4, [0, 1], players=[(11, 41), (12, 42)]),
    match(3, 2, 3, [1, 0], players=[(21, 31), (22, 32)]),
]
# board 1: 11 1+0.5+0 = 1.5/3 = 50 %; 21 0+0+1 = 1/3 = 33.3 %; 31 0+0.5+0 = 0.5/3 = 16.7 %; 41 1+1+1 = 3/3 = 100 %
# board 2: 12 0.5+1 = 1.5/2 = 75 %; 13 1/1 = 100 % (one game: below the minimum of 2 = two thirds of 3 rounds);
#          22 0.5 + (forfeit, not a game) + 0 = 0.5/2 = 25 %; 32 1+0+1 = 2/3 = 66.7 %; 42 0 + (forfeit) + 0 = 0/2 = 0 %


def test_board_prizes_best_percentage_with_a_minimum_of_games():
    assert default_min_games(3) == 2 and default_min_games(7) == 5 and default_min_games(1) == 1
    b1, b2 = board_prizes(PRIZE_MATCHES, boards=2)
    assert b1.min_games == 2
    assert [(r.rank, r.player_id, r.points, r.games, r.percentage) for r in b1.rows] == [
        (1, 41, 3, 3, 100.0), (2, 11, 1.5, 3, 50.0), (3, 21, 1, 3, 33.3), (4, 31, 0.5, 3, 16.7),
    ]
    assert [(r.rank, r.player_id, r.points, r.games, r.percentage, r.eligible) for r in b2.rows] == [
        (1, 12, 1.5, 2, 75.0, True), (2, 32, 2, 3, 66.7, True), (3, 22, 0.5, 2, 25.0, True),
        (4, 42, 0, 2, 0.0, True), (None, 13, 1, 1, 100.0, False),
    ]
    assert [r.player_id for r in b1.winners] == [41] and [r.player_id for r in b2.winners] == [12]
    assert {r.player_id: r.team_id for r in b2.rows} == {12: 1, 13: 1, 22: 2, 32: 3, 42: 4}


def test_board_prizes_ties_more_games_first_then_shared():
    # with a minimum of one game the reserve 13 (100 %, 1 game) leads board 2
    _b1, b2 = board_prizes(PRIZE_MATCHES, boards=2, min_games=1)
    assert [r.player_id for r in b2.winners] == [13]
    # equal percentages: 4/4 beats 1/1 (more games); two players with 1/2 each share the place
    matches = [
        match(1, 1, 2, [1], players=[(11, 21)]),
        match(2, 1, 3, [1], players=[(11, 31)]),
        match(3, 1, 2, [1], players=[(11, 21)]),
        match(4, 1, 3, [1], players=[(11, 31)]),
        match(1, 3, 4, [0.5], players=[(31, 41)]),
        match(2, 2, 4, [0.5], players=[(21, 41)]),
        match(3, 3, 4, [1], players=[(31, 41)]),
        match(4, 2, 4, [1], players=[(21, 42)]),
    ]
    # 11: 4/4 = 100 %; 42: 0/1 (lost round 4) ; 21: 0 + 0.5 + 0 + 1 = 1.5/4; 31: 0 + 0.5 + 1 + 0 = 1.5/4;
    # 41: 0.5 + 0.5 + 0 = 1/3 = 33.3 %
    (b1,) = board_prizes(matches, boards=1, min_games=1)
    assert [(r.rank, r.player_id, r.shared) for r in b1.rows] == [
        (1, 11, False), (2, 21, True), (2, 31, True), (4, 41, False), (5, 42, False),
    ]
