"""Smoke test: the home page loads in a real browser, in both languages."""
from __future__ import annotations

import pytest
from django.utils import translation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _site_title(lang: str) -> str:
    with translation.override(lang):
        return translation.gettext("Mangala Federation")


def test_home_page_shows_site_title(live_server, page):
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    response = page.goto(live_server.url + "/")
    assert response is not None and response.status == 200
    assert page.title() == "Mangala Federation"
    assert page.locator("header a.brand").inner_text() == "Mangala Federation"
    assert page.locator("html").get_attribute("lang") == "en"
    assert errors == []


def test_home_page_in_turkish(live_server, new_page):
    page = new_page(locale="tr-TR")
    page.goto(live_server.url + "/")
    assert page.locator("html").get_attribute("lang") == "tr"
    assert page.title() == _site_title("tr")
    assert page.locator("header a.brand").inner_text() == _site_title("tr")


def test_stylesheet_is_served(live_server, page):
    page.goto(live_server.url + "/")
    href = page.locator("link[rel=stylesheet]").first.get_attribute("href")
    response = page.request.get(live_server.url + href)
    assert response.status == 200, href
