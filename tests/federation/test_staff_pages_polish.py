"""Polish of the member and staff pages: account and change history labels translated and naming who
acted, club drop-downs in Turkish order, the player search matching city and club, organisers
registering walk-in players, and the player page's margin legend and even decimals."""
from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils import translation

from federation import accounts, roles, services
from federation.forms import PlayerCreateForm, PlayerForm
from federation.models import Player
from federation.selectors import ACCOUNT_LABELS, _ACTION_LABELS, _DETAIL_WORDS, player_search_q
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tests.ratings.test_product import four, rated_event  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def _client(user=None, lang: str = "en") -> Client:
    c = Client(headers={"Accept-Language": lang})
    if user is not None:
        c.force_login(user)
    return c


# 1. history labels and who acted --------------------------------------------------------------


def test_every_history_label_has_a_turkish_translation():
    """The labels are gettext'd where they are built; each needs a Turkish entry in locale/tr (else the
    Turkish page shows "account created (hakem)")."""
    labels = [*ACCOUNT_LABELS.values(), *_ACTION_LABELS.values(), *_DETAIL_WORDS.values()]
    english = [str(label) for label in labels]  # English is the msgid
    with translation.override("tr"):
        untranslated = sorted({en for en, label in zip(english, labels, strict=True) if str(label) == en})
    assert untranslated == []


def test_account_history_names_the_actor_by_user_name_when_it_has_no_name():
    nameless = UserFactory(username="kurul-uyesi", first_name="", last_name="", is_staff=True)
    account = accounts.user_create(user=nameless, username="hakem9", first_name="H", last_name="K",
                                   email="h9@example.org", kind="referee")
    page = _client(nameless).get(reverse("user-detail", args=[account.pk])).content.decode()
    table = page[page.index('data-testid="account-history"'):]
    row = re.search(r"<tbody><tr>(.*?)</tr>", table, re.S).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    assert cells[1] == "kurul-uyesi"
    assert "account created" in cells[2]


def test_player_change_history_names_the_actor_like_the_account_page():
    named = UserFactory(username="fk", first_name="Fatma", last_name="Kurul", is_staff=True)
    nameless = UserFactory(username="isimsiz", first_name="", last_name="", is_staff=True)
    p = services.player_register(federation_id="TMF-0777", first_name="Ali", last_name="Koç", user=named)
    services.player_update(player=p, user=nameless, city="Bursa")
    page = _client(named).get(reverse("player-detail", args=[p.federation_id])).content.decode()
    history = page[page.index('id="history"'):]
    assert "Fatma Kurul" in history and "isimsiz" in history


# 2. club drop-downs in Turkish order ------------------------------------------------------------

_CLUBS = ["Trabzon Mangala", "İzmir Mangala", "Gaziantep Mangala", "İstanbul Mangala", "Çorum Mangala",
          "Ankara Mangala"]
_TURKISH_ORDER = ["Ankara Mangala", "Çorum Mangala", "Gaziantep Mangala", "İstanbul Mangala", "İzmir Mangala",
                  "Trabzon Mangala"]


@pytest.fixture
def clubs():
    return [ClubFactory(name=n, short_name=f"K{i}") for i, n in enumerate(_CLUBS)]


def _option_order(html: str, names: list[str]) -> list[str]:
    return sorted(names, key=lambda n: html.index(f">{n}</option>"))


def test_club_filter_of_the_player_list_is_in_turkish_order(clubs):
    html = _client().get(reverse("player-list")).content.decode()
    assert _option_order(html, _CLUBS) == _TURKISH_ORDER
    html = _client().get(reverse("rating-list")).content.decode()
    assert _option_order(html, _CLUBS) == _TURKISH_ORDER


def test_club_select_of_the_player_forms_is_in_turkish_order(clubs):
    staff = UserFactory(username="st", is_staff=True)
    for form in (PlayerCreateForm(), PlayerForm(instance=PlayerFactory())):
        labels = [label for value, label in form.fields["club"].choices if value != ""]
        assert labels == _TURKISH_ORDER
    html = _client(staff).get(reverse("player-create")).content.decode()
    assert _option_order(html, _CLUBS) == _TURKISH_ORDER
    # the choice still validates against the queryset
    form = PlayerForm({"federation_id": "X1", "last_name": "A", "first_name": "B", "club": clubs[1].pk}, instance=PlayerFactory())
    assert form.is_valid(), form.errors
    assert form.cleaned_data["club"] == clubs[1]


# 3. search by city and club ---------------------------------------------------------------------


@pytest.fixture
def cities():
    izmir = ClubFactory(name="İzmir Mangala Kulübü", short_name="İZMK", city="İzmir")
    return {
        "ist": [PlayerFactory(city="İstanbul", last_name=f"Boğaz{i}", rating=1500 + i) for i in range(3)],
        "ank": PlayerFactory(city="Ankara", last_name="Başkent", rating=1400),
        "izm": PlayerFactory(city="", club=izmir, last_name="Körfez", rating=1450),
    }


@pytest.mark.parametrize("term", ["ISTANBUL", "istanbul", "İstanbul", "ıstanbul"])
def test_player_and_rating_search_match_the_city(cities, term):
    expected = {p.federation_id for p in cities["ist"]}
    assert set(Player.objects.filter(player_search_q(term)).values_list("federation_id", flat=True)) == expected
    resp = _client().get(reverse("player-list"), {"q": term})
    assert {p.federation_id for p in resp.context["page"]} == expected
    resp = _client().get(reverse("rating-list"), {"q": term})
    assert {ln.player.federation_id for ln in resp.context["lines"]} == expected


def test_player_search_matches_the_club_and_still_the_name(cities):
    izm = cities["izm"].federation_id
    assert list(Player.objects.filter(player_search_q("IZMIR")).values_list("federation_id", flat=True)) == [izm]
    assert list(Player.objects.filter(player_search_q("izmk")).values_list("federation_id", flat=True)) == [izm]
    assert list(Player.objects.filter(player_search_q("baskent")).values_list("federation_id", flat=True)) == [
        cities["ank"].federation_id]
    assert not Player.objects.filter(player_search_q("istanbul baskent")).exists()  # every word must match


def test_search_box_says_what_it_searches():
    for name in ("player-list", "rating-list"):
        html = _client().get(reverse(name)).content.decode()
        assert 'placeholder="Name, federation id, city or club"' in html


# 4. organisers register walk-in players ---------------------------------------------------------


def test_an_organiser_registers_a_walk_in_player(clubs):
    org = UserFactory(username="org1", groups=[roles.ORGANISER])
    assert roles.can_register_players(org)
    c = _client(org)
    page = c.get(reverse("player-list")).content.decode()
    assert reverse("player-create") in page
    assert c.get(reverse("player-create")).status_code == 200
    resp = c.post(reverse("player-create"), {"federation_id": "TMF-0901", "last_name": "Gelen",
                                            "first_name": "Yeni", "rating": 0, "city": "Konya"})
    assert resp.status_code == 302
    player = Player.objects.get(federation_id="TMF-0901")
    assert resp["Location"] == reverse("player-detail", args=[player.federation_id])
    # creating only: editing another player stays with the staff
    resp = c.post(reverse("player-edit", args=[player.federation_id]), {"federation_id": "TMF-0901",
                                                                        "last_name": "Başka"})
    assert resp.status_code == 403
    player.refresh_from_db()
    assert player.last_name == "Gelen"


def test_a_referee_cannot_register_players():
    ref = UserFactory(username="ref1", groups=[roles.REFEREE])
    assert not roles.can_register_players(ref)
    c = _client(ref)
    assert reverse("player-create") not in c.get(reverse("player-list")).content.decode()
    resp = c.post(reverse("player-create"), {"federation_id": "TMF-0902", "last_name": "Gelen", "rating": 0})
    assert resp.status_code == 403  # before the form is read (issue 23)
    assert "Only federation staff and organisers can register players." in resp.content.decode()
    assert not Player.objects.filter(federation_id="TMF-0902").exists()
    assert _client().get(reverse("player-create")).status_code == 302  # anonymous: the login page


# 5. margins explained, even decimals ------------------------------------------------------------


def test_fixed_decimal_filters():
    t = Template("{% load formatting %}{{ a|fixed:2 }} {{ b|signed_fixed:2 }} {{ c|signed_fixed:2 }} "
                 "{{ z|signed_fixed:2 }} {{ r|fixed:1 }}")
    out = t.render(Context({"a": 0.5, "b": -7.8, "c": 0.17, "z": 0, "r": 1500}))
    assert out == "0.50 −7.80 +0.17 0.00 1500.0"
    with translation.override("tr"):
        assert t.render(Context({"a": 0.5, "b": -7.8, "c": 0.17, "z": 0, "r": 1500})) == "0,50 −7,80 +0,17 0,00 1500,0"


def test_player_page_explains_margins_and_lines_up_decimals(rated_event):  # noqa: F811
    _t, players = rated_event
    html = _client().get(reverse("player-detail", args=[players[0].federation_id])).content.decode()
    assert "the stones over 24 at the end of the set (Kural 14.4)" in html
    table = html[html.index('id="event-'):]
    table = table[table.index("<tbody>"):table.index("</tbody>")]
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        opp_rating, score, expected, delta = cells[3], cells[6], cells[7], cells[8]
        assert re.fullmatch(r"\d+\.\d", opp_rating), opp_rating
        assert re.fullmatch(r"\d\.\d\d", score) and re.fullmatch(r"\d\.\d\d", expected), (score, expected)
        assert re.fullmatch(r"[+−]?\d+\.\d\d", delta), delta
