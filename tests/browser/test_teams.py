"""A team match entered board by board in a real browser (issue 14).

A referee on a phone opens the round page of a team championship: table 1 shows the two teams, 0 – 0 and
"0 of 4 boards". Board by board they open the normal result form, enter the sets and come back to the
round page, where the team score follows the boards: 1 – 0, then 1.5 – 0.5, then the match is decided
(2.5 – 0.5, "has won the match") and, with the last board, the final result 2.5 – 1.5 with the match points
(2–0). Board 2 is played with the first-named team on black: its result is shown from the team's side.
"""
from __future__ import annotations

import pytest
expect = pytest.importorskip("playwright.sync_api").expect

from tests.browser.helpers import login as _login
from tests.factories import PlayerFactory, TournamentRoleFactory, UserFactory, organiser
from tournaments.rounds import services
from tournaments.teams import services as teams
from tournaments.models import Match, Tournament, TournamentRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def team_event():
    """Two teams of four boards, round 1 paired and published; "hakem" referees the event."""
    org = organiser(username="takim-orga")
    hakem = UserFactory(username="hakem")
    t = teams.team_tournament_create(name="Okullar Takım Kupası", rounds_total=1, system=Tournament.System.ROUND_ROBIN,
                                     boards_per_team=4, created_by=org)
    for letter, school in (("A", "Atatürk Ortaokulu"), ("B", "Barbaros Ortaokulu")):
        team = teams.team_create(tournament=t, name=school, short_name=letter, user=org)
        for b in range(1, 5):
            player = PlayerFactory(first_name=f"{letter}{b}", last_name="Öğrenci", federation_id=f"BR-{letter}{b}",
                                   rating=1800 - 10 * b - (0 if letter == "A" else 100))
            teams.team_member_add(team=team, player=player, user=org)
    TournamentRoleFactory(tournament=t, user=hakem, role=TournamentRole.Role.REFEREE)
    rnd = teams.team_round_pair(tournament=t, user=org, coin_seed="okul")
    services.round_publish(round=rnd, user=org)
    return t


def test_referee_enters_a_team_match_board_by_board(live_server, new_page, team_event):
    t = team_event
    base = live_server.url
    tm = t.rounds.get(number=1).team_matches.select_related("white_team", "black_team").get()
    first, second = tm.white_team.name, tm.black_team.name
    page = new_page(viewport=PHONE)
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if "Content Security Policy" in msg.text else None)
    _login(page, base, "hakem")
    page.goto(f"{base}/t/{t.slug}/round/1/")
    table = page.locator('[data-testid="team-match"][data-table="1"]')
    expect(table.locator("h2")).to_contain_text(first)
    expect(table.locator("h2")).to_contain_text(second)
    expect(table.locator('[data-testid="team-score"]')).to_have_text("0 – 0")
    expect(table.locator('[data-testid="team-result"]')).to_have_text("0 of 4 boards")
    assert table.locator('[data-testid="team-board"]').count() == 4

    def enter(team_board: int, stores: list[tuple[str, str]]):
        """Open the board's result form from the round page, fill the sets, save, back on the round page."""
        row = table.locator(f'[data-testid="team-board"][data-team-board="{team_board}"]')
        row.locator('[data-testid="enter-board"]').click()
        page.wait_for_url(lambda url: "/board/" in url)
        for n, (w, b) in enumerate(stores, start=1):
            page.fill(f"input[name=set{n}_white]", w)
            page.fill(f"input[name=set{n}_black]", b)
        page.get_by_role("button", name="Save result").click()
        page.wait_for_url(f"{base}/t/{t.slug}/round/1/")

    # board 1: the first-named team has white and wins 2-0 in sets
    enter(1, [("30", "18"), ("26", "22")])
    expect(table.locator('[data-testid="team-score"]')).to_have_text("1 – 0")
    expect(table.locator('[data-testid="team-result"]')).to_have_text("1 of 4 boards")
    row1 = table.locator('[data-team-board="1"]')
    expect(row1.locator("td.result strong")).to_have_text("1 – 0")
    # board 2: the first-named team has black; a drawn match (three drawn sets)
    enter(2, [("24", "24"), ("24", "24"), ("24", "24")])
    expect(table.locator('[data-testid="team-score"]')).to_have_text("1.5 – 0.5")
    # board 3: the first-named team (white) wins -> 2.5 - 0.5 with one board left: decided
    enter(3, [("31", "17"), ("25", "23")])
    expect(table.locator('[data-testid="team-score"]')).to_have_text("2.5 – 0.5")
    expect(table.locator('[data-testid="team-result"]')).to_contain_text(f"{first} has won the match")
    # board 4: the first-named team is black and loses (white wins both sets): 2.5 - 1.5, match points 2-0
    enter(4, [("28", "20"), ("27", "21")])
    expect(table.locator('[data-testid="team-score"]')).to_have_text("2.5 – 1.5")
    expect(table.locator('[data-testid="team-result"]')).to_have_text(f"{first} won (2–0)")
    row4 = table.locator('[data-team-board="4"]')
    expect(row4.locator("td.result strong")).to_have_text("0 – 1")  # from the first-named team's side
    expect(row4.locator("small.sets")).to_contain_text("20–28")  # stones from the first team's side too
    assert Match.objects.filter(round__tournament=t, white_points__isnull=True).count() == 0
    assert problems == []
