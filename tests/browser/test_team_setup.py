"""An organiser sets up a team championship in a real browser and publishes its final report (issue 14).

Through ``/teams/new/`` the organiser creates a round robin of two-board team matches, adds four school
teams (in the wrong order) and their players by federation id in board order — one player put in front of
a team-mate with "place in the board order", one reserve —, gives the starting numbers by rating, pairs
round 1 with a coin seed drawn in the hall and publishes the pairings. The board results are entered with
the services (the referee's phone journey is ``test_teams.py``); round 1 is closed in the browser, rounds 2
and 3 are paired, played and closed with the services. The organiser publishes the final standings; anyone
then reads the team standings (match points, board points and the team Sonneborn-Berger that separates
two teams level on both), the team crosstable and the board prizes, and downloads the team PDF.

The results (board results of the first team named here): A 2–0 B, A 1–1 C, A 1½–½ D, B 2–0 C, B 1–1 D,
D 1½–½ C. Match points: A 5, B 3, D 3, C 1; board points A 4½, B 3, D 3, C 1½. Team Sonneborn-Berger
(each opponent's match points × the board points scored against it): A = 3×2 + 1×1 + 3×1½ = 11½,
D = 5×½ + 1×1½ + 3×1 = 7, B = 5×0 + 1×2 + 3×1 = 5, C = 5×1 + 3×0 + 3×½ = 6½ — so D is second, B third.
"""
from __future__ import annotations

import io

import pytest
expect = pytest.importorskip("playwright.sync_api").expect

from tests.browser.helpers import login as _login
from tests.factories import PlayerFactory, organiser
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.teams import services as teams
from tournaments.models import Match, Round, Team, TeamMember, Tournament
from tournaments.results.services import SetInput

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}

WHITE_WINS = [SetInput(30, 18), SetInput(26, 22)]
BLACK_WINS = [SetInput(18, 30), SetInput(22, 26)]
DRAWN = [SetInput(24, 24), SetInput(24, 24), SetInput(24, 24)]

#: team short name -> (name, [(first name, last name, rating), ...] in board order; a third player is the reserve)
TEAMS = {
    "A": ("Atatürk Ortaokulu", [("Ali", "Akın", 1700), ("Ayla", "Ateş", 1650), ("Aras", "Acar", 1500)]),
    "B": ("Barbaros Ortaokulu", [("Barış", "Bulut", 1600), ("Begüm", "Bal", 1550)]),
    "C": ("Cumhuriyet Ortaokulu", [("Cem", "Cengiz", 1500), ("Ceren", "Coşkun", 1450)]),
    "D": ("Dumlupınar Ortaokulu", [("Deniz", "Duman", 1400), ("Derya", "Dinç", 1350)]),
}

#: board results of the first team of each pair: "1" won, "0" lost, "=" drawn (board 1, board 2)
RESULTS = {("A", "B"): "11", ("A", "C"): "10", ("A", "D"): "=1", ("B", "C"): "11", ("B", "D"): "==",
           ("D", "C"): "1="}
FLIP = {"1": "0", "0": "1", "=": "="}


def _get(page, url: str):
    """GET ``url`` with the page's cookies and its English language (Playwright's request context does not
    send the browser's Accept-Language)."""
    return page.request.get(url, headers={"Accept-Language": "en-US,en"})


def _submit(page, button) -> None:
    """Press a form's submit button and wait for the page the server answers with."""
    with page.expect_navigation():
        button.click()


def _enter_results(rnd: Round, user) -> None:
    """Enter every board of ``rnd`` from :data:`RESULTS` (the first-named team is white on odd boards)."""
    for tm in rnd.team_matches.select_related("white_team", "black_team"):
        first, second = tm.white_team.short_name, tm.black_team.short_name
        script = RESULTS.get((first, second)) or "".join(FLIP[r] for r in RESULTS[(second, first)])
        for m in tm.boards.filter(kind=Match.Kind.GAME):
            r = script[m.team_board - 1]
            first_is_white = m.team_board % 2 == 1
            sets = DRAWN if r == "=" else WHITE_WINS if (r == "1") == first_is_white else BLACK_WINS
            result_services.match_result_enter(match=m, sets=sets, user=user)


def _cells(row) -> list[str]:
    return [c.strip() for c in row.locator("td").all_inner_texts()]


def test_organiser_sets_up_a_team_championship_and_publishes_its_standings(live_server, new_page):
    org_user = organiser(username="takim-orga")
    for short, (_name, members) in TEAMS.items():
        for board, (first, last, rating) in enumerate(members, start=1):
            PlayerFactory(first_name=first, last_name=last, rating=rating, federation_id=f"OKT-{short}{board}")
    base = live_server.url
    problems: list[str] = []

    def watch(pg):
        pg.on("console", lambda msg: problems.append(msg.text) if "Content Security Policy" in msg.text else None)
        return pg

    orga = watch(new_page())
    _login(orga, base, "takim-orga")

    # --- the championship -------------------------------------------------------------------------------------
    orga.goto(f"{base}/teams/new/")
    form = orga.get_by_test_id("team-event-form")
    form.locator("input[name=name]").fill("Eskişehir Okullar Takım Şampiyonası")
    form.locator("input[name=start_date]").fill("2026-05-23")
    form.locator("input[name=city]").fill("Eskişehir")
    form.locator("select[name=system]").select_option("round_robin")
    form.locator("input[name=rounds_total]").fill("3")
    form.locator("input[name=boards_per_team]").fill("2")
    form.locator("select[name=sets_per_match]").select_option("3")
    _submit(orga, form.get_by_role("button", name="Create"))
    t = Tournament.objects.get(name="Eskişehir Okullar Takım Şampiyonası")
    assert (t.format, t.system, t.boards_per_team, t.sets_per_match) == ("team", "round_robin", 2, 3)
    assert orga.url == f"{base}/t/{t.slug}/teams/"
    expect(orga.locator(".messages")).to_contain_text("Team event created. Now add its teams.")

    # --- four teams, added weakest first ----------------------------------------------------------------------
    for short in ("D", "C", "B", "A"):
        add = orga.get_by_test_id("team-add")
        add.locator("input[name=name]").fill(TEAMS[short][0])
        add.locator("input[name=short_name]").fill(short)
        _submit(orga, add.get_by_role("button", name="Add team"))
        expect(orga.locator(".messages")).to_contain_text("Team added.")
    team_cards = orga.get_by_test_id("team")
    expect(team_cards).to_have_count(4)

    def card(short: str):
        return team_cards.filter(has=orga.locator("h2", has_text=TEAMS[short][0]))

    def add_member(short: str, fid: str, *, board: str = "", reserve: bool = False) -> None:
        form = card(short).get_by_test_id("member-add")
        form.locator("input[name=federation_id]").fill(fid)
        if board:
            form.locator("input[name=board]").fill(board)
        if reserve:
            form.locator("input[name=reserve]").check()
        _submit(orga, form.get_by_role("button", name="Add player"))

    # players in board order; Barbaros's board-2 player registers first, board 1 is put in front of her
    for short in ("A", "C", "D"):
        add_member(short, f"OKT-{short}1")
        add_member(short, f"OKT-{short}2")
    add_member("A", "OKT-A3", reserve=True)
    add_member("B", "OKT-B2")
    add_member("B", "OKT-B1", board="1")
    expect(orga.locator(".messages")).to_contain_text("Bulut, Barış added to Barbaros Ortaokulu.")

    def board_order(short: str) -> list[tuple[str, str]]:
        return [tuple(_cells(row)[:2]) for row in card(short).locator("tbody tr").all()]

    assert board_order("B") == [("1", "Bulut, Barış"), ("2", "Bal, Begüm")]
    assert board_order("A") == [("1", "Akın, Ali"), ("2", "Ateş, Ayla"), ("R", "Acar, Aras (reserve)")]
    a = Team.objects.get(tournament=t, short_name="A")
    assert list(TeamMember.objects.filter(team=a).order_by("board").values_list(
        "entry__player__first_name", "reserve")) == [("Ali", False), ("Ayla", False), ("Aras", True)]

    # --- starting numbers by rating (mean of the regular boards) ------------------------------------------------
    expect(team_cards.first.locator("h2")).to_contain_text("1. Dumlupınar Ortaokulu")
    _submit(orga, orga.get_by_role("button", name="Starting numbers by rating (mean of the regular boards)"))
    expect(orga.locator(".messages")).to_contain_text("Starting numbers given by rating.")
    assert [h.strip() for h in team_cards.locator("h2").all_inner_texts()] == [
        "1. Atatürk Ortaokulu (A)", "2. Barbaros Ortaokulu (B)", "3. Cumhuriyet Ortaokulu (C)",
        "4. Dumlupınar Ortaokulu (D)"]

    # --- round 1: paired in the browser with a coin seed drawn in the hall, published --------------------------
    orga.goto(f"{base}/t/{t.slug}/")
    orga.fill("input[name=coin_seed]", "salon-takim")
    _submit(orga, orga.get_by_role("button", name="Pair round 1"))
    assert orga.url == f"{base}/t/{t.slug}/round/1/"
    assert "salon-takim" in orga.get_by_test_id("coin-toss").inner_text()
    t.refresh_from_db()
    assert t.rounds_total == 3  # a round robin of four teams
    tables = orga.get_by_test_id("team-match")
    expect(tables).to_have_count(2)
    r1 = t.rounds.get(number=1)
    for tm in r1.team_matches.select_related("white_team", "black_team"):
        heading = tables.nth(tm.number - 1).locator("h2")
        expect(heading).to_contain_text(tm.white_team.name)
        expect(heading).to_contain_text(tm.black_team.name)
    assert not r1.matches.filter(white__player__first_name="Aras").exists()  # the reserve waits
    assert not r1.matches.filter(black__player__first_name="Aras").exists()
    _submit(orga, orga.get_by_role("button", name="Publish pairings"))
    assert Round.objects.get(pk=r1.pk).status == Round.Status.PUBLISHED

    # results by the services; the organiser sees the match results on the round page and closes it
    _enter_results(r1, org_user)
    orga.reload()
    for tm in r1.team_matches.select_related("white_team", "black_team"):
        first, second = tm.white_team.short_name, tm.black_team.short_name
        script = RESULTS.get((first, second)) or "".join(FLIP[r] for r in RESULTS[(second, first)])
        value = {"1": 1.0, "=": 0.5, "0": 0.0}
        fp = sum(value[r] for r in script)
        expect(tables.nth(tm.number - 1).get_by_test_id("team-score")).to_have_text(f"{fp:g} – {2 - fp:g}")
    _submit(orga, orga.get_by_role("button", name="Close round"))
    assert Round.objects.get(pk=r1.pk).status == Round.Status.CLOSED

    # rounds 2 and 3 with the services
    for _n in (2, 3):
        rnd = teams.team_round_pair(tournament=t, user=org_user)
        round_services.round_publish(round=rnd, user=org_user)
        _enter_results(rnd, org_user)
        round_services.round_close(round=rnd, user=org_user)

    # before publication: the public sees neither the standings nor the PDF
    anon = watch(new_page(viewport=PHONE))
    assert _get(anon, f"{base}/t/{t.slug}/teams/standings/").status == 404
    assert _get(anon, f"{base}/t/{t.slug}/teams.pdf").status == 404

    # --- the organiser publishes the final standings ---------------------------------------------------------------
    orga.goto(f"{base}/t/{t.slug}/")
    _submit(orga, orga.get_by_role("button", name="Publish standings"))
    t.refresh_from_db()
    assert t.status == "finished" and t.standings_published

    # --- anyone: team standings, crosstable, board prizes, PDF ------------------------------------------------------
    anon.goto(f"{base}/t/{t.slug}/")
    anon.get_by_test_id("team-links").get_by_role("link", name="Team standings").click()
    anon.wait_for_url(f"{base}/t/{t.slug}/teams/standings/")
    table = anon.get_by_test_id("team-standings")
    assert table.get_attribute("data-rounds") == "3"
    heads = [h.strip() for h in table.locator("thead th").all_inner_texts()]
    lines = {row.get_attribute("data-team"): _cells(row) for row in table.locator("tbody tr").all()}
    order = [row.get_attribute("data-team") for row in table.locator("tbody tr").all()]
    assert order == ["A", "D", "B", "C"]
    col = {h: i for i, h in enumerate(heads)}
    mp = col["Match points"]
    assert [(lines[s][0], lines[s][2], lines[s][3], lines[s][mp]) for s in order] == [
        ("1", "Atatürk Ortaokulu", "2-1-0", "5"), ("2", "Dumlupınar Ortaokulu", "1-1-1", "3"),
        ("3", "Barbaros Ortaokulu", "1-1-1", "3"), ("4", "Cumhuriyet Ortaokulu", "0-1-2", "1")]
    # the tie-break columns follow match points: board points, team Sonneborn-Berger, direct encounter
    bp, tsb = mp + 1, mp + 2
    assert [lines[s][bp] for s in order] == ["4.5", "3", "3", "1.5"]
    assert [lines[s][tsb] for s in order] == ["11.5", "7", "5", "6.5"]  # D before B: 7 > 5
    board1 = anon.locator('[data-testid="board-prize"][data-board="1"] tbody tr')
    assert _cells(board1.first)[:6] == ["1", "Akın, Ali", "Atatürk Ortaokulu", "2.5", "3", "83.3"]

    anon.goto(f"{base}/t/{t.slug}/teams/crosstable/")
    rows = anon.get_by_test_id("team-crosstable").locator("tbody tr")
    expect(rows).to_have_count(4)
    # rows and columns in standings order A, D, B, C: the board points the row's team scored against each
    assert [_cells(rows.nth(i)) for i in range(4)] == [
        ["1", "Atatürk Ortaokulu", "×", "1.5", "2", "1", "5", "4.5"],
        ["2", "Dumlupınar Ortaokulu", "0.5", "×", "1", "1.5", "3", "3"],
        ["3", "Barbaros Ortaokulu", "0", "1", "×", "2", "3", "3"],
        ["4", "Cumhuriyet Ortaokulu", "1", "0.5", "0", "×", "1", "1.5"],
    ]

    anon.goto(f"{base}/t/{t.slug}/")
    href = anon.get_by_test_id("team-links").get_by_role("link", name="Team results (PDF)").get_attribute("href")
    assert href == f"/t/{t.slug}/teams.pdf"
    pdf = _get(anon, f"{base}{href}")
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf"
    assert pdf.body().startswith(b"%PDF")
    from pypdf import PdfReader

    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.body())).pages)
    for name in ("Atatürk Ortaokulu", "Dumlupınar Ortaokulu", "Barbaros Ortaokulu", "Cumhuriyet Ortaokulu",
                 "Akın, Ali"):
        assert name in text
    assert text.index("Dumlupınar Ortaokulu") < text.index("Barbaros Ortaokulu")
    assert problems == []
