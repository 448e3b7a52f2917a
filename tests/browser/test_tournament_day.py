"""A tournament day in a real browser: the organiser pairs and publishes, the referee enters results
on a phone-sized screen, the organiser closes the round and publishes standings, anyone downloads
the crosstable PDF; and an organiser imports a TRF file through the web form."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.helpers import login as _login
from tests.factories import PlayerFactory, organiser, referee
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.models import Match, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
TRF = Path(__file__).resolve().parents[2] / "tournaments" / "sample_data" / "trf" / "autumn_congress_2018_major.trf"




@pytest.fixture
def four_player_event():
    org = organiser(username="orga")
    ref = referee(username="hakem")
    t = services.tournament_create(name="Tarayıcı Açık", rounds_total=3, created_by=org)
    for i, rating in enumerate((1900, 1800, 1700, 1600), start=1):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=rating, last_name=f"Oyuncu{i}", first_name="Ç"))
    return t, org, ref


def test_pair_enter_close_publish_download(live_server, new_page, four_player_event):
    t, org, ref = four_player_event
    base = live_server.url

    # organiser: pair round 1 with a seed drawn in the hall, then publish
    orga = new_page()
    _login(orga, base, "orga")
    orga.goto(f"{base}/t/{t.slug}/")
    orga.fill("input[name=coin_seed]", "salon-2026")
    orga.get_by_role("button", name="Pair round 1").click()
    orga.wait_for_url(f"{base}/t/{t.slug}/round/1/")
    toss = orga.get_by_test_id("coin-toss")
    assert "salon-2026" in toss.inner_text()
    boards = orga.locator("table.pairing tbody tr")
    assert boards.count() == 2
    orga.get_by_role("button", name="Publish pairings").click()
    assert "Pairings published." in orga.locator(".messages").inner_text()

    # referee on a phone: a refused withdrawal first, then two real results
    phone = new_page(viewport=PHONE)
    _login(phone, base, "hakem")
    phone.goto(f"{base}/t/{t.slug}/round/1/")
    phone.locator("#board-1").get_by_role("link", name="Enter result").click()
    phone.fill("input[name=set1_white]", "20")
    phone.fill("input[name=set1_black]", "10")
    phone.select_option("select[name=set1_termination]", "white_withdrew")
    phone.get_by_role("button", name="Save result").click()
    error = phone.locator(".error[role=alert]").inner_text()
    assert "Set 1" in error and "25" in error
    assert Match.objects.get(round__tournament=t, board=1).sets.count() == 0  # nothing half-saved

    phone.fill("input[name=set1_white]", "30")
    phone.fill("input[name=set1_black]", "18")
    phone.select_option("select[name=set1_termination]", "completed")
    phone.fill("input[name=set2_white]", "26")
    phone.fill("input[name=set2_black]", "22")
    phone.get_by_role("button", name="Save result").click()
    phone.wait_for_url(f"{base}/t/{t.slug}/round/1/")
    assert "1 – 0" in phone.locator("#board-1 td.result").inner_text()
    assert "30–18, 26–22" in phone.locator("#board-1 td.result").inner_text()

    phone.locator("#board-2").get_by_role("link", name="Enter result").click()
    for field, value in (("set1_white", "18"), ("set1_black", "30"), ("set2_white", "28"), ("set2_black", "20"),
                         ("set3_white", "24"), ("set3_black", "24")):
        phone.fill(f"input[name={field}]", value)
    phone.get_by_role("button", name="Save result").click()
    phone.wait_for_url(f"{base}/t/{t.slug}/round/1/")
    assert "0.5 – 0.5" in phone.locator("#board-2 td.result").inner_text()

    # organiser: close the round, publish standings
    orga.reload()
    orga.get_by_role("button", name="Close round").click()
    assert Round.objects.get(tournament=t, number=1).status == "closed"
    orga.goto(f"{base}/t/{t.slug}/")
    orga.get_by_role("button", name="Publish standings").click()
    assert Tournament.objects.get(pk=t.pk).standings_published

    # anyone: standings and the crosstable PDF
    anon = new_page()
    anon.goto(f"{base}/t/{t.slug}/standings/")
    rows = anon.get_by_test_id("standings").locator("tbody tr")
    assert rows.count() == 4
    assert rows.nth(0).locator("td").nth(4).inner_text() == "1"
    response = anon.request.get(f"{base}/t/{t.slug}/crosstable.pdf")
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    assert response.body().startswith(b"%PDF")


def test_import_a_trf_file_through_the_web(live_server, new_page):
    organiser(username="orga")
    page = new_page()
    _login(page, live_server.url, "orga")
    page.goto(f"{live_server.url}/t/import/")
    page.set_input_files("input[name=file]", str(TRF))
    page.get_by_role("button", name="Import").click()
    page.wait_for_url(lambda url: "/t/autumn-congress-2018-major/" in url)
    assert page.locator("h1").inner_text() == "Autumn Congress 2018 - Major"
    assert page.locator("ul.rounds li").count() == 6


def test_a_broken_trf_file_is_refused_with_its_line(live_server, new_page, tmp_path):
    organiser(username="orga")
    lines = TRF.read_text(encoding="utf-8").splitlines()
    lines[17] = lines[17][:98] + "X" + lines[17][99:]
    bad = tmp_path / "bad.trf"
    bad.write_text("\n".join(lines), encoding="utf-8")
    page = new_page()
    _login(page, live_server.url, "orga")
    page.goto(f"{live_server.url}/t/import/")
    page.set_input_files("input[name=file]", str(bad))
    page.get_by_role("button", name="Import").click()
    assert "line 18" in page.locator("main form").inner_text()
    assert Tournament.objects.count() == 0
