"""The forbidden-pairs page in a browser under the strict CSP: add a pair with the two player selects,
then remove it — the browser asks first (static/js/site.js), Cancel keeps the pair."""
from __future__ import annotations

import pytest

from tests.browser.helpers import login as _login
from tests.factories import PlayerFactory, organiser
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.models import ForbiddenPair

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]




def test_organiser_adds_and_removes_a_forbidden_pair(live_server, new_page):
    org = organiser(username="orga")
    t = services.tournament_create(name="Kardeşler Açık", rounds_total=5, created_by=org)
    for i, rating in enumerate((1900, 1800, 1700, 1600), start=1):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=rating, last_name=f"Oyuncu{i}", first_name="Ali"))
    page = new_page()
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    _login(page, live_server.url, "orga")
    page.goto(f"{live_server.url}/t/{t.slug}/")
    with page.expect_navigation():
        page.get_by_role("link", name="Forbidden pairs").click()
    page.select_option("#id_first", "1")
    page.select_option("#id_second", "3")
    page.fill("#id_last_round", "2")
    page.fill("#id_reason", "kardeşler")
    with page.expect_navigation():
        page.get_by_role("button", name="Add", exact=True).click()
    pair = ForbiddenPair.objects.get(tournament=t)
    assert (pair.first_round, pair.last_round, pair.reason) == (1, 2, "kardeşler")
    assert "kardeşler" in page.locator("[data-testid=forbidden-pairs]").inner_text()

    page.once("dialog", lambda dialog: dialog.dismiss())
    page.get_by_role("button", name="remove").click()
    page.wait_for_timeout(300)
    assert ForbiddenPair.objects.filter(pk=pair.pk).exists()
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.get_by_role("button", name="remove").click()
    assert not ForbiddenPair.objects.filter(pk=pair.pk).exists()
    assert problems == []
