"""Every bad input is a 4xx, never a 500 (found by schemathesis and by hand; issue "Hardening")."""
from __future__ import annotations

import base64

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory

pytestmark = pytest.mark.django_db

BAD_URLS = [
    "/api/tournaments/?year=0",
    "/api/tournaments/?year=1e29",
    "/api/tournaments/?year=99999999999999999999999",
    "/api/tournaments/?limit=99999999999999999999999",
    "/api/tournaments/?offset=99999999999999999999999",
    "/api/tournaments/?limit=-1",
    "/api/players/?club=99999999999999999999999",
    "/api/players/?search=%00",
    "/api/players/?search=" + "a%20" * 2000,
    "/api/players/?ordering=%00",
    "/api/players/?sex=%00",
    "/api/clubs/?city=%00",
    "/api/ratings/?q=%00",
    "/api/ratings/?club=99999999999999999999999",
    "/api/tournaments/nope/rounds/abc/",
    "/api/tournaments/%00/",
    "/api/players/%00/",
    "/players/?q=%00",
    "/ratings/?q=%00",
    "/ratings/?page=%00",
    "/t/%00/",
    "/players/%00/",
]


ODD_PAGE_URLS = [  # pages ignore a filter they cannot use; never a 500
    "/players/?club=abc",
    "/players/?club=99999999999999999999999",
    "/players/?page=99999999999999999999999",
    "/players/?q=" + "a" * 5000,
    "/ratings/?club=abc",
    "/ratings/?club=99999999999999999999999",
    "/ratings/?year=99999999999999999999999",
    "/ratings/?q=" + "a%20" * 900,
    "/api/players/?club=abc",
]


@pytest.mark.parametrize("url", ODD_PAGE_URLS)
def test_odd_filters_on_pages_are_never_a_500(data, url):
    r = Client().get(url)
    assert r.status_code < 500, (url, r.status_code)


@pytest.fixture
def data():
    club = ClubFactory(short_name="AMK")
    PlayerFactory(club=club, rating=1500)
    TournamentFactory(slug="kupa")


@pytest.mark.parametrize("url", BAD_URLS)
def test_bad_query_parameters_are_a_4xx(data, url):
    r = Client().get(url)
    assert 400 <= r.status_code < 500, (url, r.status_code)
    if url.startswith("/api/"):
        body = r.json()
        assert set(body) == {"error"} and {"code", "message", "field"} <= set(body["error"]), body


def test_api_404_and_405_use_the_error_envelope(data):
    r = Client().get("/api/no-such-thing/")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = APIClient().put("/api/tournaments/", {}, format="json")
    assert r.status_code in (401, 405) and "error" in r.json()


@pytest.mark.parametrize("user", ["a\x00b", "\x00", "x" * 5000])
def test_nul_in_basic_auth_is_a_401(data, user):
    token = base64.b64encode(f"{user}:secret".encode()).decode()
    r = Client().get("/api/tournaments/", HTTP_AUTHORIZATION=f"Basic {token}")
    assert r.status_code == 401, r.status_code
    assert r.json()["error"]["code"] in ("authentication_failed", "not_authenticated")


@pytest.mark.parametrize("url", ["/api/players/?active=AAA", "/api/players/?active=0.5",
                                 "/api/clubs/?active=null", "/api/clubs/?active=2"])
def test_a_non_boolean_active_filter_is_a_400_naming_it(data, url):
    """The schema says ``active`` is a boolean; anything else was read as "no filter" (schemathesis)."""
    r = Client().get(url)
    assert r.status_code == 400, (url, r.status_code)
    assert r.json()["error"]["field"] == "active", r.json()


@pytest.mark.parametrize("value,count", [("true", 1), ("false", 0), ("1", 1), ("0", 0), ("", 1)])
def test_a_boolean_active_filter_still_filters(data, value, count):
    r = Client().get(f"/api/players/?active={value}")
    assert r.status_code == 200 and r.json()["count"] == count, r.json()
