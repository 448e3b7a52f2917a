"""Official rating lists in a real browser: staff publish this month's list from the form (its date is
proposed), the public rating page links to it, a visitor filters it, staff withdraw it with a reason and
the archive says so."""
from __future__ import annotations

import pytest
from django.core.cache import cache
from django.utils import timezone

from tests.browser.helpers import login
from tests.factories import PlayerFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def test_staff_publish_and_withdraw_a_list_visitors_read_it(live_server, new_page):
    UserFactory(username="federasyon", is_staff=True)
    PlayerFactory(federation_id="TMF-0001", last_name="Şahin", first_name="İlkay", rating=1810, birth_year=2015)
    PlayerFactory(federation_id="TMF-0002", last_name="Çelik", first_name="Ömer", rating=1650, birth_year=1980)
    first_of_month = timezone.localdate().replace(day=1)

    staff = new_page(locale="tr-TR")
    errors: list[str] = []
    staff.on("pageerror", lambda exc: errors.append(str(exc)))
    login(staff, live_server.url, "federasyon")
    staff.goto(f"{live_server.url}/ratings/lists/")
    staff.click("[data-testid=publish-list]")
    assert staff.input_value("input[name=published_on]") == first_of_month.isoformat()
    staff.fill("input[name=title]", "Bu ayın listesi")
    staff.click("main form button[type=submit]")
    staff.wait_for_url(f"**/ratings/lists/{first_of_month.isoformat()}/")
    assert staff.locator("[data-testid=official-list] tbody tr").count() == 2

    visitor = new_page(locale="tr-TR")
    visitor.goto(f"{live_server.url}/ratings/")
    box = visitor.locator("[data-testid=official-list-box]")
    assert "Bu ayın listesi" in box.inner_text()
    box.locator(f"a[href='/ratings/lists/{first_of_month.isoformat()}/']").click()
    visitor.select_option("select[name=category]", "u12")
    visitor.click("main form.filters button[type=submit]")
    rows = visitor.locator("[data-testid=official-list] tbody tr")
    assert rows.count() == 1 and "Şahin, İlkay" in rows.first.inner_text()
    assert visitor.locator("[data-testid=withdraw]").count() == 0  # staff only

    staff.click("[data-testid=withdraw]")
    staff.fill("textarea[name=reason]", "Bir turnuvanın sonucu düzeltildi")
    staff.click("main form button[type=submit]")
    staff.wait_for_url("**/ratings/lists/")
    archive = staff.locator("[data-testid=list-archive]").inner_text()
    assert "Bir turnuvanın sonucu düzeltildi" in archive
    assert not errors, errors
