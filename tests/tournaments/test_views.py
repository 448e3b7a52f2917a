"""Organiser pages through the Django test client: entries (add, register), byes, tie-break order."""
from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import PASSWORD, PlayerFactory, organiser, referee
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.models import Absence

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert c.login(username=user.username, password=PASSWORD)
    return c


def test_entries_page_adds_players_in_turkish_order_and_registers_a_new_one():
    org = organiser()
    t = services.tournament_create(name="Kayıt", rounds_total=3, created_by=org)
    a = PlayerFactory(last_name="Koç", first_name="Çağrı", rating=1500)
    b = PlayerFactory(last_name="Kılıç", first_name="Ali", rating=1600)
    PlayerFactory(last_name="Akın", first_name="Ayşe", rating=1400)
    c = _client(org)
    page = c.get(f"/t/{t.slug}/entries/").content.decode()
    assert page.index("Kılıç, Ali") < page.index("Koç, Çağrı")  # ı before o in the Turkish alphabet
    r = c.post(f"/t/{t.slug}/entries/", {"players": [a.pk, b.pk]})
    assert r.status_code == 302
    assert [(e.start_no, e.player.last_name) for e in t.entries.order_by("start_no")] == [(1, "Kılıç"), (2, "Koç")]
    r = c.post(f"/t/{t.slug}/entries/", {
        "register": "1", "new-federation_id": "TMF-9001", "new-last_name": "Yeni", "new-first_name": "Oyuncu",
        "new-sex": "f", "new-birth_year": "2010", "new-rating": "1550",
    })
    assert r.status_code == 302
    assert [(e.start_no, e.player.last_name, e.rating) for e in t.entries.order_by("start_no")] == [
        (1, "Kılıç", 1600), (2, "Yeni", 1550), (3, "Koç", 1500),
    ]
    assert t.entries.get(player__federation_id="TMF-9001").start_no == 2  # 1600, 1550, 1500
    r = c.post(f"/t/{t.slug}/entries/", {
        "register": "1", "new-federation_id": "TMF-9001", "new-last_name": "İkinci", "new-rating": "0",
    })
    assert r.status_code == 200 and t.entries.count() == 3  # duplicate id refused, nothing added


def test_referee_cannot_open_the_entries_page():
    org = organiser()
    t = services.tournament_create(name="Yetki", rounds_total=3, created_by=org)
    r = _client(referee()).get(f"/t/{t.slug}/entries/")
    assert r.status_code == 403 and t.entries.count() == 0


def test_bye_request_and_tiebreak_order_forms():
    org = organiser()
    t = services.tournament_create(name="Formlar", rounds_total=3, created_by=org)
    for rating in (1900, 1800, 1700):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=rating))
    c = _client(org)
    c.post(f"/t/{t.slug}/byes/", {"start_no": "2", "round_number": "1", "kind": "half"})
    assert list(Absence.objects.values_list("entry__start_no", "round_number", "kind")) == [(2, 1, "half")]
    c.post(f"/t/{t.slug}/tiebreaks/", {"tiebreak": ["sonneborn_berger", "", "buchholz"]})
    t.refresh_from_db()
    assert t.tiebreaks == ["sonneborn_berger", "buchholz"]
    r = c.post(f"/t/{t.slug}/tiebreaks/", {"tiebreak": ["buchholz", "buchholz"]}, follow=True)
    assert "listed twice" in r.content.decode()
    t.refresh_from_db()
    assert t.tiebreaks == ["sonneborn_berger", "buchholz"]


def test_create_form_takes_the_tiebreak_order_from_choices():
    org = organiser()
    c = _client(org)
    data = {"name": "Form Açık", "system": "swiss", "rounds_total": "5", "sets_per_match": "3",
            "variant": "federation", "tiebreak_1": "set_points", "tiebreak_2": "", "tiebreak_3": "buchholz"}
    r = c.post("/t/new/", data)
    assert r.status_code == 302
    from tournaments.models import Tournament

    t = Tournament.objects.get(name="Form Açık")
    assert (t.tiebreaks, t.created_by) == (["set_points", "buchholz"], org)
    r = c.post("/t/new/", {**data, "name": "İkinci", "tiebreak_2": "set_points"})
    assert r.status_code == 200 and "listed twice" in r.content.decode()
    r = c.post("/t/new/", {**data, "name": "Üçüncü", "sets_per_match": "4"})
    assert r.status_code == 200 and "Sets per match must be odd" in r.content.decode()
    assert not Tournament.objects.filter(name__in=["İkinci", "Üçüncü"]).exists()
