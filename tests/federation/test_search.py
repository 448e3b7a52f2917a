"""Searching names the way people type them on a phone: lower case, Turkish letters."""
from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def people():
    PlayerFactory(federation_id="S-1", last_name="Işık", first_name="İnci", rating=1700)
    PlayerFactory(federation_id="S-2", last_name="ŞİMŞEK", first_name="Özge", rating=1600)
    PlayerFactory(federation_id="S-3", last_name="Çakır", first_name="Ali", rating=1500)
    PlayerFactory(federation_id="S-4", last_name="Kaya", first_name="Deniz", rating=1400)


@pytest.mark.parametrize("term, expected", [
    ("ışık", {"S-1"}), ("IŞIK", {"S-1"}), ("inci", {"S-1"}), ("şimşek", {"S-2"}), ("özge", {"S-2"}),
    ("çakır", {"S-3"}), ("çakır ali", {"S-3"}), ("s-4", {"S-4"}), ("kaya zzz", set()),
])
def test_api_page_and_rating_search_fold_turkish_case(people, term, expected):
    api = {p["federation_id"] for p in APIClient().get("/api/players/", {"search": term}).json()["results"]}
    assert api == expected
    page = Client().get("/players/", {"q": term}).content.decode()
    assert {fid for fid in ("S-1", "S-2", "S-3", "S-4") if f"/players/{fid}/" in page} == expected
    ratings = {x["federation_id"] for x in APIClient().get("/api/ratings/", {"search": term}).json()["results"]}
    assert ratings == expected


def test_turkish_case_duplicates_are_refused_and_ids_are_found_in_any_case(people):
    from federation import services
    from federation.errors import Conflict
    from tests.factories import ClubFactory, UserFactory

    staff = UserFactory(username="staff-s", is_staff=True)
    ClubFactory(name="İstanbul Zeka Oyunları SK")
    with pytest.raises(Conflict) as err:  # a name already in use is a conflict (409), issue 23
        services.club_create(user=staff, name="istanbul  zeka oyunları sk")
    assert err.value.field == "name"
    with pytest.raises(Exception) as err:
        services.player_register(user=staff, federation_id="s-1", last_name="Yeni", first_name="Kayıt")
    assert "S-1" in str(err.value) or "s-1" in str(err.value)
    assert APIClient().get("/api/players/s-2/").json()["federation_id"] == "S-2"
    r = Client().get("/players/s-2/")
    assert r.status_code == 301 and r["Location"].endswith("/players/S-2/")
