"""Team championships (issue 14): the services (teams, board order and reserves, pairing team rounds with
lineups and colours, forfeits for missing players), the team result as board results come in through the
normal result entry, the team standings / crosstable / board prizes pages and PDF, the API (``format``,
``/standings/`` team rows, ``/teams/``), the TRF ``013`` lines, rating of the boards, and the sample
data's team championship."""
from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from federation.errors import Conflict, ValidationFailed
from tests.factories import PASSWORD, PlayerFactory, UserFactory, organiser, referee
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.teams import selectors as team_selectors
from tournaments.teams import services as teams
from tournaments.models import Match, Round, Team, TeamMatch, TeamMember, Tournament
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db

WHITE_WINS = [SetInput(30, 18), SetInput(26, 22)]
BLACK_WINS = [SetInput(18, 30), SetInput(22, 26)]
DRAWN = [SetInput(24, 24), SetInput(24, 24), SetInput(24, 24)]


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def make_event(org, *, n_teams=4, system=Tournament.System.ROUND_ROBIN, rounds=3, reserves=1, boards=4, slug=None):
    """A team event of ``n_teams`` teams (A, B, C, ...) of ``boards`` regulars and ``reserves`` reserves;
    ratings fall with the team letter and the board, so the seeds are A=1, B=2, ..."""
    t = teams.team_tournament_create(name="Takım Şampiyonası", rounds_total=rounds, system=system,
                                     boards_per_team=boards, created_by=org, slug=slug)
    for i in range(n_teams):
        letter = "ABCDEFGH"[i]
        team = teams.team_create(tournament=t, name=f"Takım {letter}", short_name=letter, user=org)
        for b in range(boards + reserves):
            p = PlayerFactory(first_name=f"{letter}{b + 1}", last_name="Oyuncu", rating=2000 - 100 * i - 10 * b,
                              federation_id=f"TK{t.pk}-{letter}{b + 1}")
            teams.team_member_add(team=team, player=p, reserve=b >= boards, user=org)
    t.refresh_from_db()
    return t


def board(rnd, table, team_board):
    return Match.objects.select_related("white__player", "black__player").get(
        round=rnd, team_match__number=table, team_board=team_board)


def names(team: Team) -> list[tuple[int, str, bool]]:
    return [(m.board, m.entry.player.first_name, m.reserve) for m in team.members.select_related("entry__player").order_by("board")]


# --------------------------------------------------------------------------------------------
# Teams and the board order
# --------------------------------------------------------------------------------------------


def test_team_event_teams_members_board_order_and_reserves():
    org = organiser()
    t = make_event(org, n_teams=2, reserves=1)
    assert (t.format, t.boards_per_team) == ("team", 4)
    a, b = t.teams.order_by("seed_no")
    assert (a.seed_no, b.seed_no) == (1, 2)
    assert names(a) == [(1, "A1", False), (2, "A2", False), (3, "A3", False), (4, "A4", False), (5, "A5", True)]
    # a fifth regular is refused: four boards
    with pytest.raises(ValidationFailed, match="4 regular boards"):
        teams.team_member_add(team=a, player=PlayerFactory(first_name="X"), user=org)
    assert t.entries.count() == 10  # the refused player was not entered either (one transaction)
    # a second reserve goes to the end; a reserve inserted at board 2 is placed after the regulars
    r2 = teams.team_member_add(team=a, player=PlayerFactory(first_name="A6"), reserve=True, user=org)
    assert r2.board == 6
    # move A4 to board 1: the others shift down
    a4 = a.members.get(entry__player__first_name="A4")
    teams.team_member_move(member=a4, board=1, user=org)
    assert [n for _b, n, _r in names(a)] == ["A4", "A1", "A2", "A3", "A5", "A6"]
    # make A3 a reserve and A5 a regular at board 4
    teams.team_member_move(member=a.members.get(entry__player__first_name="A3"), board=6, reserve=True, user=org)
    teams.team_member_move(member=a.members.get(entry__player__first_name="A5"), board=4, reserve=False, user=org)
    assert names(a) == [(1, "A4", False), (2, "A1", False), (3, "A2", False), (4, "A5", False), (5, "A6", True),
                        (6, "A3", True)]
    # removing a member closes the order and deletes the entry
    teams.team_member_remove(member=a.members.get(entry__player__first_name="A1"), user=org)
    assert [n for _b, n, _r in names(a)] == ["A4", "A2", "A5", "A6", "A3"]
    assert not t.entries.filter(player__first_name="A1").exists()
    # board numbers start at 1 when adding as when moving; nothing is entered on a refusal
    for bad in (-5, 0, "x"):
        with pytest.raises(ValidationFailed, match="numbered from 1") as exc:
            teams.team_member_add(team=b, player=PlayerFactory(first_name="Y"), board=bad, user=org)
        assert exc.value.field == "board"
    assert not t.entries.filter(player__first_name="Y").exists()
    # a player can be in one team only
    with pytest.raises(Conflict, match="already entered"):
        teams.team_member_add(team=b, player=a4.entry.player, user=org)
    # names are unique in the event
    with pytest.raises(ValidationFailed, match="already a team"):
        teams.team_create(tournament=t, name="takım b", user=org)
    # referees cannot change teams; individual events have no teams
    from federation.errors import PermissionDenied

    with pytest.raises(PermissionDenied):
        teams.team_create(tournament=t, name="Takım Z", user=referee())
    solo = services.tournament_create(name="Bireysel", rounds_total=3, created_by=org)
    with pytest.raises(Conflict, match="not a team event"):
        teams.team_create(tournament=solo, name="X", user=org)


def test_team_seeds_by_mean_rating_of_the_regulars():
    org = organiser()
    t = make_event(org, n_teams=3, reserves=0, boards=2)
    a, b, c = (t.teams.get(short_name=x) for x in "ABC")
    # C's players get the best ratings: mean of its regulars 2500 -> seed 1
    for m in c.members.all():
        m.entry.rating = 2500
        m.entry.save()
    teams.team_seeds_sort(tournament=t, user=org)
    assert [x.short_name for x in t.teams.order_by("seed_no")] == ["C", "A", "B"]


# --------------------------------------------------------------------------------------------
# Pairing: round robin, colours, lineups, forfeits
# --------------------------------------------------------------------------------------------


def test_round_robin_team_round_colours_and_boards():
    org = organiser()
    t = make_event(org, n_teams=4)
    rnd = teams.team_round_pair(tournament=t, user=org, coin_seed="takim")
    t.refresh_from_db()
    assert t.rounds_total == 3 and t.status == "running"
    tms = list(rnd.team_matches.select_related("white_team", "black_team").order_by("number"))
    assert len(tms) == 2
    # the Berger table of four (C.05): round 1 is 4-1 and 2-3 (colours by the toss)
    pairs = {frozenset((tm.white_team.seed_no, tm.black_team.seed_no)) for tm in tms}
    assert pairs == {frozenset((1, 4)), frozenset((2, 3))}
    assert rnd.matches.count() == 8
    tm = tms[0]
    first, second = tm.white_team.short_name, tm.black_team.short_name
    for b in (1, 2, 3, 4):
        m = board(rnd, 1, b)
        assert m.board == b  # table 1 takes boards 1-4 of the round
        # the first-named team has white on the odd boards; each board is the teams' b-th players
        white_team, black_team = (first, second) if b % 2 else (second, first)
        assert (m.white.player.first_name, m.black.player.first_name) == (f"{white_team}{b}", f"{black_team}{b}")
    assert board(rnd, 2, 1).board == 5
    # the individual pairing refuses nothing here: the round is paired, so round 2 waits for round 1
    with pytest.raises(Conflict, match="not closed"):
        teams.team_round_pair(tournament=t, user=org)


def test_lineup_skips_withdrawn_and_absent_players_with_a_forfeit_on_the_last_board():
    org = organiser()
    t = make_event(org, n_teams=2, reserves=1, rounds=1)
    a, b = t.teams.order_by("seed_no")
    # A: board 2 withdrawn, board 3 absent this round -> A1, A4, A5 (reserve) play boards 1-3, board 4 empty
    entry_services.entry_withdraw(entry=a.members.get(board=2).entry, user=org)
    entry_services.entry_request_bye(entry=a.members.get(board=3).entry, round_number=1, kind="zero", user=org)
    rnd = teams.team_round_pair(tournament=t, user=org, coin_seed="x")
    tm = rnd.team_matches.get()
    a_first = tm.white_team_id == a.id
    lineup = {}
    for m in rnd.matches.select_related("white__player", "black__player").order_by("team_board"):
        players = [m.white.player.first_name] + ([m.black.player.first_name] if m.black_id else [])
        lineup[m.team_board] = (sorted(players), m.kind, m.bye_kind, m.white_points)
    assert lineup[1][0] == ["A1", "B1"] and lineup[2][0] == ["A4", "B2"] and lineup[3][0] == ["A5", "B3"]
    # board 4: only B4 is there -> a bye board worth 1 (a forfeit win), A scores 0 on it
    assert lineup[4] == (["B4"], "bye", "full", 1)
    assert a_first in (True, False)
    rows = team_selectors.round_team_matches(round=rnd)
    assert (rows[0].score.boards_done, rows[0].score.complete) == (1, False)


# --------------------------------------------------------------------------------------------
# The team result as the boards come in, standings, crosstable, board prizes
# --------------------------------------------------------------------------------------------


def _enter(rnd, table, team_board, first_scores: str, ref):
    """Enter a board result from the first-named team's view: "1", "0", "=", "+" (the second team forfeits)."""
    m = board(rnd, table, team_board)
    first_is_white = team_board % 2 == 1
    if first_scores == "+":
        result_services.match_result_enter(match=m, forfeit="black" if first_is_white else "white", user=ref)
        return
    sets = {"=": DRAWN, "1": WHITE_WINS if first_is_white else BLACK_WINS,
            "0": BLACK_WINS if first_is_white else WHITE_WINS}[first_scores]
    result_services.match_result_enter(match=m, sets=sets, user=ref)


def play(t, org, ref, script):
    """Pair, publish, enter and close each round: ``script[round][table]`` is a string of board results from
    the first-named team's view."""
    for n, tables in enumerate(script, start=1):
        rnd = teams.team_round_pair(tournament=t, user=org, coin_seed="seed" if n == 1 else None)
        round_services.round_publish(round=rnd, user=org)
        for table, results in enumerate(tables, start=1):
            for b, r in enumerate(results, start=1):
                _enter(rnd, table, b, r, ref)
        round_services.round_close(round=rnd, user=org)


def test_team_match_result_follows_the_boards():
    org, ref = organiser(), referee()
    t = make_event(org, n_teams=2, rounds=1)
    rnd = teams.team_round_pair(tournament=t, user=org, coin_seed="x")
    round_services.round_publish(round=rnd, user=org)

    def score():
        (row,) = team_selectors.round_team_matches(round=rnd)
        s = row.score
        return s.first_bp, s.second_bp, s.complete, s.decided, s.first_mp

    assert score() == (0, 0, False, False, None)
    _enter(rnd, 1, 1, "1", ref)
    assert score() == (1, 0, False, False, None)
    _enter(rnd, 1, 2, "=", ref)
    _enter(rnd, 1, 3, "1", ref)
    assert score() == (2.5, 0.5, False, True, None)  # decided: 2.5 cannot be caught with one board left
    _enter(rnd, 1, 4, "0", ref)
    assert score() == (2.5, 1.5, True, True, 2)


#: A four-team round robin played through: per round, per table, the board results of the first-named team
#: ("+": the second team's player did not come). With the coin seed "seed" the Berger table gives
#: round 1: D-A, C-B; round 2: C-D, B-A; round 3: D-B, A-C.
SCRIPT = [
    ["1=10", "=0=1"],   # D 2.5 - 1.5 A (D 2 MP);  C 2 - 2 B (1 each)
    ["11=0", "0=0="],   # C 2.5 - 1.5 D (C 2);     B 1 - 3 A (A 2)
    ["1+0=", "==10"],   # D 2.5 - 1.5 B (D 2; board 2 won by forfeit);  A 2 - 2 C (1 each)
]
# MP: A 0+2+1 = 3, B 1+0+0 = 1, C 1+2+1 = 4, D 2+0+2 = 4
# BP: A 1.5+3+2 = 6.5, B 2+1+1.5 = 4.5, C 2+2.5+2 = 6.5, D 2.5+1.5+2.5 = 6.5
# team SB: C = B 1x2 + D 4x2.5 + A 3x2 = 18; D = A 3x2.5 + C 4x1.5 + B 1x2.5 = 16;
#          A = D 4x1.5 + B 1x3 + C 4x2 = 17; B = C 4x2 + A 3x1 + D 4x1.5 = 17
# C and D: 4 MP, 6.5 BP each -> team SB 18 > 16: C first. (They met in round 2, C won: DE would agree.)
EXPECTED_STANDINGS = [
    # rank, team, MP, BP, (BP, TSB, DE), won, drawn, lost
    (1, "C", 4, 6.5, (6.5, 18, 0), 1, 2, 0),
    (2, "D", 4, 6.5, (6.5, 16, 0), 2, 0, 1),
    (3, "A", 3, 6.5, (6.5, 17, 0), 1, 1, 1),
    (4, "B", 1, 4.5, (4.5, 17, 0), 0, 1, 2),
]


@pytest.fixture
def played():
    """The four-team round robin of :data:`SCRIPT`, every round closed, standings published."""
    org, ref = organiser(username="takim-org"), referee(username="takim-ref")
    t = make_event(org, n_teams=4, reserves=0, slug="takim-sampiyonasi")
    play(t, org, ref, SCRIPT)
    services.standings_publish(tournament=t, user=org)
    t.refresh_from_db()
    return t


def test_the_stored_pairings_of_the_script(played):
    got = [(tm.round.number, tm.number, tm.white_team.short_name, tm.black_team.short_name)
           for tm in TeamMatch.objects.filter(round__tournament=played).select_related("round", "white_team",
                                                                                        "black_team")
           .order_by("round__number", "number")]
    assert got == [(1, 1, "D", "A"), (1, 2, "C", "B"), (2, 1, "C", "D"), (2, 2, "B", "A"), (3, 1, "D", "B"),
                   (3, 2, "A", "C")]
    assert played.status == "finished"


def test_team_standings_of_a_played_event(played):
    st = team_selectors.team_standings_table(tournament=played, public_only=True, lang="en")
    assert (st.rounds, st.provisional, st.tiebreak_keys) == (3, False, ("board_points", "team_sb", "direct_encounter"))
    got = [(line.rank, line.short_name, line.match_points, line.board_points, line.tiebreaks, line.won, line.drawn,
            line.lost) for line in st.lines]
    assert got == EXPECTED_STANDINGS


def test_team_crosstable_of_a_played_event(played):
    ct = team_selectors.team_crosstable_table(tournament=played)
    assert ct.round_robin and ct.columns == (1, 2, 3, 4)
    # rows and columns in standings order C, D, A, B; each cell the board points scored against that team
    assert [(row.name[-1], row.cells) for row in ct.rows] == [
        ("C", (None, [2.5], [2.0], [2.0])),
        ("D", ([1.5], None, [2.5], [2.5])),
        ("A", ([2.0], [1.5], None, [3.0])),
        ("B", ([2.0], [1.5], [1.0], None)),
    ]


def test_board_prizes_of_a_played_event(played):
    # board 1: C1 = 0.5 (v B1) + 1 (v D1) + 0.5 (v A1) = 2/3; D1 = 1 (v A1) + 0 + 1 (v B1) = 2/3 -> shared;
    #          A1 = 0 + 1 + 0.5 = 1.5/3; B1 = 0.5 + 0 + 0 = 0.5/3
    # board 2: B2 = 1 (v C2) + 0.5 (v A2), then forfeited against D (not a game) = 1.5/2 = 75 %;
    #          A2 = C2 = 1.5/3; D2 = 0.5 + 0 (+ a forfeit win, not a game) = 0.5/2
    prizes = team_selectors.board_prize_tables(tournament=played)
    assert [t.min_games for t, _lines in prizes] == [2, 2, 2, 2]
    (_t1, lines1), (_t2, lines2) = prizes[0], prizes[1]
    assert [(x.rank, x.shared, x.name, x.points, x.games, x.percentage) for x in lines1] == [
        (1, True, "Oyuncu, C1", 2, 3, 66.7), (1, True, "Oyuncu, D1", 2, 3, 66.7),
        (3, False, "Oyuncu, A1", 1.5, 3, 50.0), (4, False, "Oyuncu, B1", 0.5, 3, 16.7),
    ]
    assert [(x.rank, x.name, x.points, x.games, x.percentage, x.team) for x in lines2] == [
        (1, "Oyuncu, B2", 1.5, 2, 75.0, "Takım B"), (2, "Oyuncu, A2", 1.5, 3, 50.0, "Takım A"),
        (2, "Oyuncu, C2", 1.5, 3, 50.0, "Takım C"), (4, "Oyuncu, D2", 0.5, 2, 25.0, "Takım D"),
    ]


# --------------------------------------------------------------------------------------------
# Swiss: the Dutch core with teams as the paired units and match points as their scores
# --------------------------------------------------------------------------------------------


def test_swiss_team_rounds_pair_by_match_points_with_a_bye():
    org, ref = organiser(), referee()
    t = make_event(org, n_teams=5, system=Tournament.System.SWISS, rounds=3, reserves=0, boards=2)
    # round 1 (FIDE Dutch, C.04.3): 5 teams, the lowest (E) gets the bye; 1 v 3 and 2 v 4 (top half v bottom half)
    rnd = teams.team_round_pair(tournament=t, user=org, coin_seed="w")
    tms = list(rnd.team_matches.select_related("white_team", "black_team").order_by("number"))
    got = [(tm.white_team.short_name, tm.black_team.short_name if tm.black_team else None) for tm in tms]
    assert sorted(frozenset(x for x in g if x) for g in got) == sorted([frozenset("AC"), frozenset("BD"), frozenset("E")])
    bye = rnd.team_matches.get(black_team__isnull=True)
    assert bye.white_team.short_name == "E"
    # the bye team's players get pairing-allocated byes worth bye_points (1) each: 2 board points, 2 match points
    assert sorted(bye.boards.values_list("kind", "bye_kind", "white_points")) == [("bye", "pab", 1), ("bye", "pab", 1)]
    round_services.round_publish(round=rnd, user=org)
    # A beats C 2-0, B and D draw 1-1
    for tm in tms:
        if tm.black_team is None:
            continue
        pair = {tm.white_team.short_name, tm.black_team.short_name}
        for b in (1, 2):
            _enter(rnd, tm.number, b, ("1" if tm.white_team.short_name == "A" else "0") if pair == {"A", "C"} else "=",
                   ref)
    round_services.round_close(round=rnd, user=org)
    st = team_selectors.team_standings_table(tournament=t)
    assert [(line.short_name, line.match_points) for line in st.lines][:2] == [("A", 2), ("E", 2)]
    # round 2: scores A 2, E 2 (bye), B 1, D 1, C 0. The bye goes to C (lowest score, C.04.3 C.5; E had one
    # already, C.04.1 c). A-E and B-D would leave B-D a rematch (C.1), so the 2-MP teams each take a 1-MP
    # team: A (white in round 1) is second-named against B, E first-named against D
    rnd2 = teams.team_round_pair(tournament=t, user=org)
    got2 = [(tm.white_team.short_name, tm.black_team.short_name if tm.black_team else None)
            for tm in rnd2.team_matches.select_related("white_team", "black_team").order_by("number")]
    assert got2 == [("B", "A"), ("E", "D"), ("C", None)]


# --------------------------------------------------------------------------------------------
# Pages and the referee's flow (the team result shows as the boards come in)
# --------------------------------------------------------------------------------------------


def _client(user) -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(user)
    return c


def test_round_page_shows_team_matches_and_the_result_form_updates_the_team_score():
    org = organiser(username="sayfa-org")
    ref = UserFactory(username="sayfa-hakem", groups=["referee"])
    t = make_event(org, n_teams=2, rounds=1)
    c = _client(org)
    resp = c.post(f"/t/{t.slug}/pair/", {"coin_seed": "sayfa"})  # the tournament page's button pairs the teams
    assert resp.status_code == 302
    rnd = t.rounds.get(number=1)
    assert rnd.team_matches.count() == 1 and rnd.matches.count() == 4
    c.post(f"/t/{t.slug}/round/1/publish/")
    r = _client(ref)
    page = r.get(f"/t/{t.slug}/round/1/").content.decode()
    assert page.count('data-testid="team-match"') == 1 and page.count('data-testid="team-board"') == 4
    assert "0 of 4 boards" in page
    tm = rnd.team_matches.select_related("white_team", "black_team").get()
    m1 = board(rnd, 1, 1)  # board 1: the first-named team's player has white
    resp = r.post(f"/t/{t.slug}/round/1/board/{m1.board}/", {
        "version": m1.version, "set1_white": "30", "set1_black": "18", "set1_termination": "completed",
        "set2_white": "26", "set2_black": "22", "set2_termination": "completed",
    })
    assert resp.status_code == 302, resp.content.decode()[:3000]
    page = r.get(f"/t/{t.slug}/round/1/").content.decode()
    assert "1 of 4 boards" in page
    assert f"{tm.white_team.name} <strong data-testid=\"team-score\">1 – 0</strong> {tm.black_team.name}" in page


def test_team_pages_follow_the_publish_gate(played, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    anon = Client(HTTP_ACCEPT_LANGUAGE="en")
    for url in (f"/t/{played.slug}/teams/", f"/t/{played.slug}/teams/standings/", f"/t/{played.slug}/teams/crosstable/"):
        assert anon.get(url).status_code == 200, url
    page = anon.get(f"/t/{played.slug}/teams/standings/").content.decode()
    assert page.count('data-testid="board-prize"') == 4
    assert page.index('data-team="C"') < page.index('data-team="D"') < page.index('data-team="A"') < page.index(
        'data-team="B"')
    detail = anon.get(f"/t/{played.slug}/").content.decode()
    assert 'data-testid="team-links"' in detail and f"/t/{played.slug}/teams/standings/" in detail
    pdf = anon.get(f"/t/{played.slug}/teams.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content)[:4] == b"%PDF"  # embedded mode: built by the task, run eagerly
    # before publication the public gets 404, organisers see a provisional table
    org = organiser(username="gate-org")
    t = make_event(org, n_teams=2, rounds=1, slug="kapali-takim")
    assert anon.get(f"/t/{t.slug}/teams/standings/").status_code == 404
    assert _client(org).get(f"/t/{t.slug}/teams/standings/").status_code == 200
    # an individual event has no team pages
    solo = services.tournament_create(name="Bireysel Açık", rounds_total=3, created_by=org)
    assert anon.get(f"/t/{solo.slug}/teams/").status_code == 404


def test_organiser_pages_create_a_team_event_teams_and_members():
    org = organiser(username="form-org")
    c = _client(org)
    resp = c.post("/teams/new/", {"name": "Okul Takımları", "system": "round_robin", "rounds_total": 3,
                                  "boards_per_team": 2, "sets_per_match": 3})
    assert resp.status_code == 302
    t = Tournament.objects.get(name="Okul Takımları")
    assert (t.format, t.boards_per_team, t.system) == ("team", 2, "round_robin")
    c.post(f"/t/{t.slug}/teams/add/", {"name": "Atatürk İlkokulu", "short_name": "ATA"})
    team = t.teams.get()
    for i in range(3):
        PlayerFactory(federation_id=f"OK-{i}", first_name=f"Öğrenci{i}")
        c.post(f"/t/{t.slug}/teams/{team.id}/members/add/", {"federation_id": f"ok-{i}", "reserve": "1" if i == 2 else ""})
    assert names(team) == [(1, "Öğrenci0", False), (2, "Öğrenci1", False), (3, "Öğrenci2", True)]
    member = team.members.get(board=2)
    c.post(f"/t/{t.slug}/teams/members/{member.id}/move/", {"board": "1", "reserve_sent": "1"})
    assert [n for _b, n, _r in names(team)] == ["Öğrenci1", "Öğrenci0", "Öğrenci2"]
    resp = c.post(f"/t/{t.slug}/teams/{team.id}/members/add/", {"federation_id": "YOK-1"}, follow=True)
    assert 'class="msg error" role="alert">' in resp.content.decode() and "YOK-1" in resp.content.decode()
    page = c.get(f"/t/{t.slug}/teams/").content.decode()
    assert "Atatürk İlkokulu" in page and 'data-testid="member-add"' in page


# --------------------------------------------------------------------------------------------
# API
# --------------------------------------------------------------------------------------------


def test_api_format_team_standings_rows_and_teams(played):
    api = APIClient()
    items = api.get("/api/tournaments/").json()
    items = items["results"] if isinstance(items, dict) else items
    row = next(x for x in items if x["slug"] == played.slug)
    assert row["format"] == "team"
    assert all(x["format"] == "individual" for x in items if x["slug"] != played.slug)
    detail = api.get(f"/api/tournaments/{played.slug}/").json()
    assert (detail["format"], detail["boards_per_team"]) == ("team", 4)
    st = api.get(f"/api/tournaments/{played.slug}/standings/?lang=en").json()
    assert st["format"] == "team" and st["rounds"] == 3
    assert [t["key"] for t in st["tiebreaks"]] == ["board_points", "team_sb", "direct_encounter"]
    assert [(r["rank"], r["team"]["short_name"], r["match_points"], r["board_points"], r["tiebreaks"]["team_sb"])
            for r in st["rows"]] == [(1, "C", 4, 6.5, 18), (2, "D", 4, 6.5, 16), (3, "A", 3, 6.5, 17),
                                     (4, "B", 1, 4.5, 17)]
    assert [p["board"] for p in st["board_prizes"]] == [1, 2, 3, 4]
    assert st["board_prizes"][1]["rows"][0]["name"] == "Oyuncu, B2"
    teams_json = api.get(f"/api/tournaments/{played.slug}/teams/").json()
    assert teams_json["boards_per_team"] == 4
    assert [x["short_name"] for x in teams_json["teams"]] == ["A", "B", "C", "D"]
    assert [p["board"] for p in teams_json["teams"][0]["players"]] == [1, 2, 3, 4]
    tm = api.get(f"/api/tournaments/{played.slug}/rounds/1/team-matches/").json()
    assert [(x["first_team"], x["second_team"], x["first_board_points"], x["second_board_points"],
             x["first_match_points"]) for x in tm["team_matches"]] == [
        ("Takım D", "Takım A", 2.5, 1.5, 2), ("Takım C", "Takım B", 2.0, 2.0, 1)]
    assert [b["first_white"] for b in tm["team_matches"][0]["boards"]] == [True, False, True, False]
    # individual events: 404 on the team endpoints
    solo = services.tournament_create(name="Bireysel API", rounds_total=3, created_by=organiser(username="api-org"))
    assert api.get(f"/api/tournaments/{solo.slug}/teams/").status_code == 404


def test_api_creates_a_team_with_its_players():
    org = organiser(username="api-team-org")
    t = teams.team_tournament_create(name="API Takım", rounds_total=3, boards_per_team=2, created_by=org)
    for i in range(3):
        PlayerFactory(federation_id=f"API-{i}")
    api = APIClient()
    api.force_authenticate(org)
    resp = api.post(f"/api/tournaments/{t.slug}/teams/", {"name": "Kulüp", "players": ["API-0", "API-1", "API-2"]},
                    format="json")
    assert resp.status_code == 201, resp.json()
    players = resp.json()["teams"][0]["players"]
    assert [(p["federation_id"], p["board"], p["reserve"]) for p in players] == [
        ("API-0", 1, False), ("API-1", 2, False), ("API-2", 3, True)]
    resp = api.post(f"/api/tournaments/{t.slug}/teams/", {"name": "Yok", "players": ["NOPE"]}, format="json")
    assert resp.status_code == 400 and resp.json()["error"]["field"] == "players[1]"
    assert not t.teams.filter(name="Yok").exists()
    anon = APIClient()
    assert anon.post(f"/api/tournaments/{t.slug}/teams/", {"name": "X"}, format="json").status_code in (401, 403)


# --------------------------------------------------------------------------------------------
# TRF export and rating
# --------------------------------------------------------------------------------------------


def test_trf_export_has_team_lines(played):
    from tournaments.trf.selectors import tournament_export_trf

    text = tournament_export_trf(tournament=played)
    lines = text.splitlines()
    assert "082 4" in lines
    assert [x for x in lines if x.startswith("092 ")][0].startswith("092 Team: ")
    team_lines = [x for x in lines if x.startswith("013 ")]
    assert len(team_lines) == 4
    start = {m.entry.player.first_name: m.entry.start_no for m in TeamMember.objects.filter(team__tournament=played)
             .select_related("entry__player")}
    first = team_lines[0]
    # columns 5-36 the name, then each starting number right-aligned in 4 columns and a blank (37-40, 42-45, ...)
    assert first[4:36].rstrip() == "Takım A"
    assert [int(first[36 + 5 * i:40 + 5 * i]) for i in range(4)] == [start[f"A{b}"] for b in (1, 2, 3, 4)]
    # an individual event has none
    solo = services.tournament_create(name="Bireysel TRF", rounds_total=3, created_by=organiser(username="trf-org"))
    solo_text = tournament_export_trf(tournament=solo)
    assert "013 " not in solo_text and "092 Individual: Swiss-System" in solo_text.splitlines()


def test_board_results_of_a_team_event_are_rated(played):
    from ratings.models import RatingEvent
    from ratings.services import ratings_recompute_from

    ratings_recompute_from(tournament=played)
    event = RatingEvent.objects.get(tournament=played)
    # 6 team matches x 4 boards = 24 boards, one forfeit: 23 matches of 2 or 3 sets rated
    from tournaments.models import SetResult

    assert event.rated_sets == SetResult.objects.filter(match__round__tournament=played).count() > 40
    assert event.forfeits == 1


# --------------------------------------------------------------------------------------------
# The sample data's team championship
# --------------------------------------------------------------------------------------------


def test_sample_team_championship_is_played_through_with_real_sets():
    from federation import sample_data
    from tournaments.models import SetResult

    users = sample_data._users()
    players = sample_data._members()
    t = sample_data._team_championship(users, players, lambda s: None)
    assert (t.format, t.boards_per_team, t.system, t.rounds_total, t.status) == ("team", 4, "round_robin", 7, "finished")
    assert t.standings_published and t.teams.count() == 8
    assert all(team.members.count() == 5 and team.members.filter(reserve=True).count() == 1 for team in t.teams.all())
    assert TeamMatch.objects.filter(round__tournament=t).count() == 28  # 8 teams, every pair once
    games = Match.objects.filter(round__tournament=t, kind="game")
    assert games.count() == 112 and not games.filter(white_points__isnull=True).exists()
    sets = SetResult.objects.filter(match__round__tournament=t)
    assert all(len(s.moves.split()) > 10 and s.white_stones + s.black_stones == 48 for s in sets)
    # round 5: the top seed's board 2 is absent, its reserve plays and the lineup moves up
    top = t.teams.get(seed_no=1)
    reserve = top.members.get(reserve=True).entry
    r5 = Match.objects.filter(round__tournament=t, round__number=5).filter(
        models_q(reserve)).get()
    assert r5.team_board == 4
    st = team_selectors.team_standings_table(tournament=t, public_only=True)
    assert st.rounds == 7 and sum(line.match_points for line in st.lines) == 28 * 2
    assert sum(line.board_points for line in st.lines) == 112
    # idempotent
    assert sample_data._team_championship(users, players, lambda s: None).pk == t.pk


def models_q(entry):
    from django.db.models import Q

    return Q(white=entry) | Q(black=entry)
