"""Search that forgives the keyboard: "gunes", "simsek", "aktas", "ISTANBUL" find Güneş, Şimşek, Aktaş,
İstanbul — in any case, with or without Turkish letters, on SQLite and on PostgreSQL alike.

Names and cities are compared through stored folded keys (``Player.search_key``, ``Club.search_key`` …,
:func:`federation.collation.search_fold`) kept in step by ``save``; the query is folded the same way.
Run this file on PostgreSQL too: ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres``.
"""
from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from federation.collation import search_fold
from federation.models import Club, Player
from federation.selectors import club_q, club_search_q, name_search_q
from tests.factories import ClubFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db

# (federation id, first name, last name, city): names stored as people write them, some in capitals
PEOPLE = [
    ("TS-1", "Ayşe", "Güneş", "İstanbul"),
    ("TS-2", "Özge", "ŞİMŞEK", "İzmir"),
    ("TS-3", "Mehmet", "Aktaş", "Iğdır"),
    ("TS-4", "İsmail", "Çelik", "Çanakkale"),
    ("TS-5", "İbrahim", "Işık", "istanbul"),
    ("TS-6", "Gülşen", "Ağaoğlu", "Muğla"),
    ("TS-7", "Ümit", "Doğan", "Şanlıurfa"),
    ("TS-8", "ilknur", "ÖZTÜRK", "Eskişehir"),
    ("TS-9", "Hâlâ", "Âlimoğlu", "Ankara"),
]


@pytest.fixture
def people():
    izo = ClubFactory(name="İstanbul Zeka Oyunları SK", short_name="İZO", city="İstanbul")
    cmk = ClubFactory(name="Çankaya Mangala Kulübü", short_name="ÇMK", city="Ankara")
    for i, (fid, first, last, city) in enumerate(PEOPLE):
        PlayerFactory(federation_id=fid, first_name=first, last_name=last, city=city, rating=1500 + i,
                      club=izo if i % 2 == 0 else cmk)
    return {"izo": izo, "cmk": cmk}


def _ids(qs) -> set[str]:
    return set(qs.values_list("federation_id", flat=True))


# Turkish-cased queries: what people type on a phone or a keyboard without Turkish letters
NAME_CASES = [
    ("gunes", {"TS-1"}), ("GUNES", {"TS-1"}), ("güneş", {"TS-1"}), ("GÜNEŞ", {"TS-1"}), ("Güneş", {"TS-1"}),
    ("simsek", {"TS-2"}), ("SIMSEK", {"TS-2"}), ("şimşek", {"TS-2"}), ("ŞİMŞEK", {"TS-2"}), ("Şimşek", {"TS-2"}),
    ("aktas", {"TS-3"}), ("AKTAŞ", {"TS-3"}), ("aktaş", {"TS-3"}),
    ("İSMAİL", {"TS-4"}), ("ismail", {"TS-4"}), ("ISMAIL", {"TS-4"}), ("ıSMAİL", {"TS-4"}),
    ("ibrahim", {"TS-5"}), ("İBRAHİM", {"TS-5"}), ("IBRAHIM", {"TS-5"}),
    ("ÇELİK", {"TS-4"}), ("celik", {"TS-4"}), ("CELIK", {"TS-4"}), ("çelik ismail", {"TS-4"}),
    ("ışık", {"TS-5"}), ("IŞIK", {"TS-5"}), ("isik", {"TS-5"}), ("ISIK", {"TS-5"}), ("Işık İbrahim", {"TS-5"}),
    ("agaoglu", {"TS-6"}), ("AĞAOĞLU", {"TS-6"}), ("gulsen", {"TS-6"}),
    ("ümit doğan", {"TS-7"}), ("UMIT DOGAN", {"TS-7"}), ("doğan, ümit", {"TS-7"}),
    ("İLKNUR", {"TS-8"}), ("ilknur", {"TS-8"}), ("ozturk", {"TS-8"}), ("Öztürk İlknur", {"TS-8"}),
    ("hala", {"TS-9"}), ("alimoglu", {"TS-9"}), ("ÂLİMOĞLU", {"TS-9"}),
    ("ts-3", {"TS-3"}), ("güneş zzz", set()), ("aktaşş", set()),
]


@pytest.mark.parametrize("term, expected", NAME_CASES, ids=[c[0] for c in NAME_CASES])
def test_name_search_forgives_case_and_missing_turkish_letters(people, term, expected):
    """The selector, the player list page, the players API and the rating list API agree."""
    assert _ids(Player.objects.filter(name_search_q(term))) == expected, connection.vendor
    api = {p["federation_id"] for p in APIClient().get("/api/players/", {"search": term}).json()["results"]}
    assert api == expected
    page = Client().get("/players/", {"q": term}).content.decode()
    assert {fid for fid, *_ in PEOPLE if f"/players/{fid}/" in page} == expected
    ratings = {x["federation_id"] for x in APIClient().get("/api/ratings/", {"search": term}).json()["results"]}
    assert ratings == expected


CITY_CASES = [
    ("ISTANBUL", {"TS-1", "TS-5"}), ("istanbul", {"TS-1", "TS-5"}), ("İstanbul", {"TS-1", "TS-5"}),
    ("izmir", {"TS-2"}), ("IZMIR", {"TS-2"}), ("IGDIR", {"TS-3"}), ("ığdır", {"TS-3"}),
    ("canakkale", {"TS-4"}), ("ÇANAKKALE", {"TS-4"}), ("SANLIURFA", {"TS-7"}), ("eskisehir", {"TS-8"}),
]


@pytest.mark.parametrize("term, expected", CITY_CASES, ids=[c[0] for c in CITY_CASES])
def test_city_filters_fold_too(people, term, expected):
    api = {p["federation_id"] for p in APIClient().get("/api/players/", {"city": term}).json()["results"]}
    assert api == expected
    ratings = {x["federation_id"] for x in APIClient().get("/api/ratings/", {"city": term}).json()["results"]}
    assert ratings == expected


@pytest.mark.parametrize("value", ["İZO", "izo", "IZO", "ızo"])
def test_club_short_name_folds(people, value):
    assert _ids(Player.objects.filter(club_q(value))) == {"TS-1", "TS-3", "TS-5", "TS-7", "TS-9"}
    api = {p["federation_id"] for p in APIClient().get("/api/players/", {"club": value}).json()["results"]}
    assert api == {"TS-1", "TS-3", "TS-5", "TS-7", "TS-9"}


@pytest.mark.parametrize("term, expected", [
    ("istanbul", {"İstanbul Zeka Oyunları SK"}), ("ISTANBUL ZEKA", {"İstanbul Zeka Oyunları SK"}),
    ("oyunlari", {"İstanbul Zeka Oyunları SK"}), ("cankaya", {"Çankaya Mangala Kulübü"}),
    ("KULUBU", {"Çankaya Mangala Kulübü"}), ("cmk", {"Çankaya Mangala Kulübü"}), ("ankara", {"Çankaya Mangala Kulübü"}),
    ("mangala zzz", set()),
])
def test_club_search_page_and_api(people, term, expected):
    assert set(Club.objects.filter(club_search_q(term)).values_list("name", flat=True)) == expected
    api = {c["name"] for c in APIClient().get("/api/clubs/", {"search": term}).json()["results"]}
    assert api == expected
    page = Client().get("/clubs/", {"q": term}).content.decode()
    assert {n for n in ("İstanbul Zeka Oyunları SK", "Çankaya Mangala Kulübü") if n in page} == expected


def test_keys_follow_every_write(people):
    """Edits, anonymising and club changes through the services keep the stored keys in step."""
    from federation import services

    staff = UserFactory(username="staff-keys", is_staff=True)
    p = Player.objects.get(federation_id="TS-1")
    assert (p.search_key, p.city_key) == ("ayse gunes", "istanbul")
    services.player_update(player=p, user=staff, last_name="Yıldız", city="Iğdır", reason="evlilik")
    p.refresh_from_db()
    assert (p.search_key, p.city_key) == ("ayse yildiz", "igdir")
    assert _ids(Player.objects.filter(name_search_q("yildiz"))) == {"TS-1"}
    assert not Player.objects.filter(name_search_q("gunes")).exists()
    # a save limited to some fields still writes the keys of the fields it names
    p.first_name = "Şule"
    p.save(update_fields=["first_name"])
    assert Player.objects.get(pk=p.pk).search_key == "sule yildiz"
    # anonymising removes the name from the key too
    services.player_anonymise(player=p, user=staff, reason="KVKK")
    p.refresh_from_db()
    assert "sule" not in p.search_key and "yildiz" not in p.search_key and p.city_key == ""
    club = people["izo"]
    services.club_update(club=club, user=staff, short_name="İZOK", city="Üsküdar")
    club.refresh_from_db()
    assert (club.short_key, club.city_key) == ("izok", "uskudar")
    assert Player.objects.filter(club_q("izok")).count() == 5  # the anonymised player stays in the club


def test_fold_of_turkish_letters():
    assert search_fold("  Çağrı   ÖZDEMİR ") == "cagri ozdemir"
    assert search_fold("IĞDIR") == search_fold("Iğdır") == search_fold("ığdır") == "igdir"
    assert search_fold("İSTANBUL") == search_fold("istanbul") == search_fold("ISTANBUL") == "istanbul"
    assert search_fold("Hâlâ Âşık") == "hala asik"
    assert search_fold("I\u0307nci") == "inci"  # a decomposed İ


def test_migration_fills_keys_of_existing_rows(people):
    """Rows written around ``save`` (a queryset update) get their keys from the migration's function."""
    import importlib

    Player.objects.filter(federation_id="TS-2").update(search_key="", city_key="")
    migration = importlib.import_module("federation.migrations.0004_search_keys")
    from django.apps import apps

    migration.fill_keys(apps, None)
    p = Player.objects.get(federation_id="TS-2")
    assert (p.search_key, p.city_key) == ("ozge simsek", "izmir")


@pytest.mark.parametrize("term, expected", [("gunes", {"TS-1"}), ("IGDIR", {"TS-3"}), ("çelik", {"TS-4"}),
                                            ("ISTANBUL", {"TS-1", "TS-3", "TS-5", "TS-7", "TS-9"}),  # city or club
                                            ("zeka oyunlari", {"TS-1", "TS-3", "TS-5", "TS-7", "TS-9"})])
def test_admin_search_forgives_the_keyboard_too(people, term, expected):
    admin_user = UserFactory(username="admin-search", is_staff=True, is_superuser=True)
    c = Client()
    c.force_login(admin_user)
    page = c.get("/admin/federation/player/", {"q": term}).content.decode()
    assert {fid for fid, *_ in PEOPLE if f">{fid}</a>" in page} == expected
