"""``federation.validators.no_control_characters`` on the one-line texts of players, clubs and
tournaments: a name with a line break (which made every TRF export of its tournaments a 500) can no
longer be saved through a ModelForm — the admin, the site's forms — or ``full_clean``."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.forms import modelform_factory
from django.urls import reverse

from federation.models import Club, Player
from federation.validators import first_control_character, no_control_characters, without_control_characters
from tournaments.forms import PlayerRegisterForm, TournamentForm
from tournaments.models import Tournament

BAD = ["Ali\nVeli", "Ali\r", "\tAli", "A\x00li", "Al\x07i", "Ali\x7f", "Ali\x85", "Ali\u2028Veli", "Ali\ud800"]
GOOD = ["Ali Veli", "Çiğdem Öztürk-Şahin", "O'Brien", "İĞÜŞÖÇ ığüşöç", "Ali\u200dVeli", ""]


@pytest.mark.parametrize("value", BAD)
def test_the_validator_refuses_control_characters_naming_the_position(value):
    with pytest.raises(ValidationError) as err:
        no_control_characters(value)
    assert err.value.code == "control_characters"
    assert err.value.params["position"] == first_control_character(value) + 1
    assert first_control_character(without_control_characters(value)) is None


@pytest.mark.parametrize("value", GOOD)
def test_the_validator_lets_printable_text_pass(value):
    no_control_characters(value)
    assert first_control_character(value) is None


@pytest.mark.parametrize(("model", "fields"), [
    (Player, ["first_name", "last_name", "city"]),
    (Club, ["name", "short_name", "city"]),
    (Tournament, ["name", "venue", "city", "chief_arbiter", "time_control"]),
])
def test_the_one_line_text_fields_carry_the_validator(model, fields):
    for name in fields:
        assert no_control_characters in model._meta.get_field(name).validators, (model, name)
        history = model.history.model._meta.get_field(name)
        assert no_control_characters in history.validators, (model, name)


@pytest.mark.django_db
def test_full_clean_refuses_a_player_name_with_a_line_break():
    p = Player(federation_id="TR-CC-1", first_name="Ali\nVeli", last_name="Öztürk", city="Anka\x00ra")
    with pytest.raises(ValidationError) as err:
        p.full_clean()
    assert set(err.value.message_dict) == {"first_name", "city"}


@pytest.mark.django_db
@pytest.mark.parametrize(("form_class", "data", "field"), [
    (PlayerRegisterForm, {"federation_id": "TR-CC-2", "last_name": "Öztürk", "first_name": "Ali\nVeli", "rating": 0},
     "first_name"),
    (modelform_factory(Club, fields=["name", "short_name", "city"]), {"name": "Ankara\tKulübü"}, "name"),
    (TournamentForm, {"name": "Kış\r\nTurnuvası", "system": "swiss", "rounds_total": 5, "sets_per_match": 3,
                      "variant": "federation"}, "name"),
])
def test_model_forms_refuse_control_characters(form_class, data, field):
    form = form_class(data=data)
    assert not form.is_valid()
    assert field in form.errors


@pytest.mark.django_db
def test_the_admin_does_not_save_a_player_name_with_a_line_break(client):
    su = get_user_model().objects.create_superuser("cc-admin", "cc@example.org", "pw")
    client.force_login(su)
    r = client.post(reverse("admin:federation_player_add"), {
        "federation_id": "TR-CC-3", "last_name": "Öztürk", "first_name": "Ali\nVeli", "sex": "", "birth_year": "",
        "club": "", "city": "", "user": "", "active": "on",
    })
    assert r.status_code == 200  # the form again, with the error
    assert "first_name" in r.context["adminform"].form.errors
    assert not Player.objects.filter(federation_id="TR-CC-3").exists()
