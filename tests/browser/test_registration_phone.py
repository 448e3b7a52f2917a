"""Issue 25, a fresh user's trial: the event registration page was wider than a 390 px phone. The page
(``/events/<slug>/registrations/``) with a search answered, unplaced players and a section list must fit
the phone's width: nothing scrolls sideways."""
from __future__ import annotations

import datetime as dt

import pytest

from tests.browser.helpers import login as _login
from tests.factories import PlayerFactory, organiser
from tournaments.events import services as events

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def event():
    org = organiser(username="orga")
    event = events.event_create(name="İl Okullar Mangala Şampiyonası Eskişehir", user=org,
                                start_date=dt.date(2026, 5, 16))
    events.event_section_add(event=event, user=org, name="İlkokul Kız Öğrenciler", rounds_total=3,
                             birth_year_min=2015, birth_year_max=2018, sex="f")
    events.event_section_add(event=event, user=org, name="Açık", rounds_total=3, birth_year_max=2014)
    for first, last, sex, year in [("Ayşe Nur", "Yılmazoğlu", "f", 2016), ("Can", "Yıldız", "m", 2017),
                                   ("Mehmet", "Demirkıranoğulları", "m", 1990)]:
        player = PlayerFactory(first_name=first, last_name=last, sex=sex, birth_year=year, rating=1400)
        events.event_register(event=event, player=player, user=org)
    for first, last in [("Zeynep", "Karaosmanoğlu"), ("Elif", "Şahin")]:
        PlayerFactory(first_name=first, last_name=last, sex="f", birth_year=2016, rating=1300)
    return event


def _width(page) -> int:
    return page.evaluate("document.scrollingElement.scrollWidth")


def test_registration_page_wider_than_a_phone_fits_390_px(live_server, new_page, event):
    page = new_page(viewport=PHONE)
    _login(page, live_server.url, "orga")
    page.goto(f"{live_server.url}/events/{event.slug}/registrations/")
    assert page.locator("h1").first.is_visible()
    assert _width(page) <= PHONE["width"], "the registration list scrolls sideways"
    # a search answered: each found player has a section choice, a note and the button to register
    page.goto(f"{live_server.url}/events/{event.slug}/registrations/?q=o%C4%9Flu")
    assert page.locator("table.found tbody tr").count() >= 1
    assert _width(page) <= PHONE["width"], "the search answer scrolls sideways"
    # the move form of a registered player, opened
    page.locator("details.move summary").first.click()
    assert page.locator("details.move[open] select[name=section]").first.is_visible()
    assert _width(page) <= PHONE["width"], "the open move form scrolls sideways"
