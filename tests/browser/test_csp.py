"""The pages under the strict Content-Security-Policy (no inline script or style) still behave as
before: the player filter on the entries page, the confirmations before a withdrawal and before
deleting a pairing, the rating chart's frame, Swagger UI — and the browser reports no violation."""
from __future__ import annotations

import pytest

from tests.browser.helpers import login as _login
from tests.factories import PlayerFactory, UserFactory, organiser
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.rounds import services as round_services
from tournaments.models import Entry, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]




def _watch(page) -> list[str]:
    """Collect CSP violations and script errors the page reports."""
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    return problems


@pytest.fixture
def event():
    org = organiser(username="orga")
    t = services.tournament_create(name="CSP Açık", rounds_total=3, created_by=org)
    for i, rating in enumerate((1900, 1800, 1700, 1600), start=1):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=rating, last_name=f"Oyuncu{i}", first_name="Ç"))
    for name in ("Şahin", "Işık", "Öztürk"):
        PlayerFactory(last_name=name, first_name="Deniz", rating=1500)
    return t, org


def test_entries_page_filter_works_from_the_static_script(live_server, new_page, event):
    t, _org = event
    page = new_page()
    problems = _watch(page)
    _login(page, live_server.url, "orga")
    response = page.goto(f"{live_server.url}/t/{t.slug}/entries/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    options = page.locator("#id_players option")
    total = options.count()
    assert total >= 3
    page.fill("#player-filter", "IŞIK")  # Turkish case rules: IŞIK matches Işık
    visible = [o.inner_text() for o in options.all() if not o.evaluate("o => o.hidden")]
    assert len(visible) == 1 and visible[0].startswith("Işık, Deniz")
    page.fill("#player-filter", "")
    assert all(not o.evaluate("o => o.hidden") for o in options.all())
    assert problems == []


def test_withdrawal_asks_first_and_cancel_keeps_the_player(live_server, new_page, event):
    t, _org = event
    page = new_page()
    problems = _watch(page)
    _login(page, live_server.url, "orga")
    page.goto(f"{live_server.url}/t/{t.slug}/")
    asked: list[str] = []

    def dismiss(dialog):
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    page.get_by_role("button", name="withdraw").first.click()
    page.wait_for_timeout(300)
    assert asked and asked[0].startswith("Withdraw ")
    assert not Entry.objects.filter(tournament=t, withdrawn=True).exists()

    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.get_by_role("button", name="withdraw").first.click()
    assert Entry.objects.filter(tournament=t, withdrawn=True).count() == 1
    assert problems == []


def test_deleting_a_pairing_asks_first(live_server, new_page, event):
    t, org = event
    round_services.round_pair(tournament=t, user=org, coin_seed="csp")
    page = new_page()
    problems = _watch(page)
    _login(page, live_server.url, "orga")
    page.goto(f"{live_server.url}/t/{t.slug}/round/1/")
    page.get_by_text("Delete this pairing").click()
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="Delete round 1 pairing").click()
    page.wait_for_timeout(300)
    assert Round.objects.filter(tournament=t, number=1).exists()
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.get_by_role("button", name="Delete round 1 pairing").click()
    assert not Round.objects.filter(tournament=t, number=1).exists()
    assert problems == []


def test_anonymise_asks_first(live_server, new_page, event):
    UserFactory(username="federasyon", is_staff=True)
    p = PlayerFactory(federation_id="TR-GONE", last_name="Ayrılan", first_name="Oyuncu")
    page = new_page()
    problems = _watch(page)
    _login(page, live_server.url, "federasyon")
    page.goto(f"{live_server.url}/players/TR-GONE/")
    page.get_by_text("Anonymise (player left)…").click()
    page.fill("#anonymise input[name=reason]", "left")
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="Anonymise", exact=True).click()
    page.wait_for_timeout(300)
    p.refresh_from_db()
    assert p.last_name == "Ayrılan"
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.get_by_role("button", name="Anonymise", exact=True).click()
    p.refresh_from_db()
    assert p.last_name == f"Anonim {p.pk}"
    assert problems == []


def test_swagger_ui_runs_under_the_policy(live_server, page):
    problems = _watch(page)
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector("#swagger-ui .information-container", timeout=15_000)
    assert "Mangala Federation API" in page.locator("#swagger-ui").inner_text()
    assert problems == []
