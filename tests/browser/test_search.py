"""On a phone, people type names without Turkish letters: "gunes" finds Güneş, "ISTANBUL" finds the
İstanbul club (stored folded keys, federation.collation.search_fold)."""
from __future__ import annotations

import pytest

from tests.factories import ClubFactory, PlayerFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


@pytest.fixture
def people():
    club = ClubFactory(name="İstanbul Zeka Oyunları SK", short_name="İZO", city="İstanbul")
    ClubFactory(name="Çankaya Mangala Kulübü", short_name="ÇMK", city="Ankara")
    PlayerFactory(federation_id="BS-1", first_name="Ayşe", last_name="Güneş", club=club)
    PlayerFactory(federation_id="BS-2", first_name="Özge", last_name="Şimşek", club=club)
    PlayerFactory(federation_id="BS-3", first_name="Mehmet", last_name="Aktaş")


def _names(page) -> list[str]:
    return [t.strip() for t in page.locator("table.list tbody td a").all_inner_texts()]


@pytest.mark.parametrize("typed, found", [("gunes", "Güneş, Ayşe"), ("SIMSEK", "Şimşek, Özge"), ("aktas", "Aktaş, Mehmet")])
def test_a_name_typed_without_turkish_letters_is_found_on_a_phone(live_server, new_page, people, typed, found):
    page = new_page(locale="tr-TR", **PHONE)
    page.goto(live_server.url + "/players/")
    box = page.locator("input[name=q]")
    assert box.is_visible() and box.get_attribute("type") == "search"
    box.fill(typed)
    box.press("Enter")
    page.wait_for_url("**/players/?q=*")
    assert _names(page) == [found]
    # the result fits the phone's width (no sideways scrolling for the list)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def test_a_club_typed_in_capitals_without_dots_is_found(live_server, new_page, people):
    page = new_page(locale="tr-TR", **PHONE)
    page.goto(live_server.url + "/clubs/")
    page.locator("input[name=q]").fill("ISTANBUL")
    page.locator("input[name=q]").press("Enter")
    page.wait_for_url("**/clubs/?q=*")
    names = page.locator("table.list tbody td:first-child a").all_inner_texts()
    assert names == ["İstanbul Zeka Oyunları SK"]
