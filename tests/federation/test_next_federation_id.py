"""The next federation id offered when registering a player (issue 11; split from the people tests,
tests/tournaments/people/test_people.py)."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from federation import roles
from federation.forms import PlayerCreateForm
from federation.models import Player
from federation.selectors import player_next_federation_id
from tests.factories import PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """Messages are asserted in English (the msgids); pages asked for in Turkish say so."""
    with translation.override("en"):
        yield


def _client(user=None, lang: str = "en") -> Client:
    c = Client(headers={"Accept-Language": lang})
    if user is not None:
        c.force_login(user)
    return c


@pytest.fixture
def staff():
    return UserFactory(username="federasyon", first_name="Fatma", last_name="Kurul", groups=[roles.STAFF])


# --------------------------------------------------------------------------------------------
# The next federation id
# --------------------------------------------------------------------------------------------


def test_next_federation_id_follows_the_federation_pattern():
    assert player_next_federation_id() == "TMF-0001"
    PlayerFactory(federation_id="TMF-0040")
    PlayerFactory(federation_id="tmf-0007")
    PlayerFactory(federation_id="TR10000")  # not the federation's pattern: ignored
    PlayerFactory(federation_id="T12-4")  # an imported player's generated id: ignored
    PlayerFactory(federation_id="12345678")  # a FIDE id: ignored
    assert player_next_federation_id() == "TMF-0041"


def test_next_federation_id_grows_past_four_digits_and_skips_taken_spellings():
    PlayerFactory(federation_id="TMF-9999")
    assert player_next_federation_id() == "TMF-10000"
    PlayerFactory(federation_id="TMF-12345")
    assert player_next_federation_id() == "TMF-12346"


def test_merged_and_anonymised_records_keep_their_numbers():
    kept = PlayerFactory(federation_id="TMF-0002")
    PlayerFactory(federation_id="TMF-0003", merged_into=kept, active=False)
    assert player_next_federation_id() == "TMF-0004"


def test_player_form_suggests_the_next_id_and_explains_unrated(staff):
    PlayerFactory(federation_id="TMF-0040")
    form = PlayerCreateForm()
    assert form.initial["federation_id"] == "TMF-0041"
    assert "unrated" in str(form.fields["rating"].help_text)
    assert "first, provisional rating after their first rated tournament" in str(form.fields["rating"].help_text)
    page = _client(staff).get(reverse("player-create")).content.decode()
    assert 'value="TMF-0041"' in page
    assert "Unrated players are seeded below rated ones" in page
    tr = _client(staff, "tr").get(reverse("player-create")).content.decode()
    assert 'value="TMF-0041"' in tr


def test_registering_with_a_taken_id_offers_the_next_free_one(staff):
    PlayerFactory(federation_id="TMF-0041", last_name="Önce")
    response = _client(staff).post(reverse("player-create"), {
        "federation_id": "TMF-0041", "last_name": "Yeni", "first_name": "Oyuncu", "rating": "0",
    })
    assert response.status_code == 200
    page = response.content.decode()
    assert "Federation id TMF-0041 is already Önce" in page
    assert "The next free federation id is TMF-0042." in page
    response = _client(staff).post(reverse("player-create"), {
        "federation_id": "TMF-0042", "last_name": "Yeni", "first_name": "Oyuncu", "rating": "",
    })
    assert response.status_code == 302
    assert Player.objects.get(federation_id="TMF-0042").rating == 0
