"""Regressions found by probing the issue-14 features (events, categories and prizes, knockout, teams) as a
fresh user and as an attacker: odd input must be refused with a message, never a 500 or a half-saved write."""
from __future__ import annotations

import pytest
from django.urls import reverse

from federation.errors import ValidationFailed
from tests.factories import organiser
from tournaments.knockout import settings as knockout

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("text", ["²", "3, ³", "①"])
def test_knockout_sets_with_non_ascii_digits_are_refused(text):
    # str.isdigit() is true for "²" but int("²") raises: refused as a bad value, not a ValueError (HTTP 500)
    with pytest.raises(ValidationFailed) as exc:
        knockout.clean_knockout_sets(text)
    assert exc.value.field == "knockout_sets"


def test_the_create_form_refuses_superscript_sets_per_round(client):
    client.force_login(organiser(username="ko-attack"))
    response = client.post(reverse("tournament-create"), {
        "name": "Eleme ²", "system": "knockout", "rounds_total": 1, "sets_per_match": 3, "variant": "federation",
        "knockout_sets": "²", "level_match_rule": "deciders", "max_deciders": "", "tiebreak_1": "buchholz",
    })
    assert response.status_code == 200
    assert "knockout_sets" in response.context["form"].errors


@pytest.mark.parametrize("first, second", [("İzmir Gençlik", "izmir gençlik"), ("IŞIK SK", "ışık sk"),
                                           ("Şahin Kulübü", "ŞAHİN KULÜBÜ"), ("Alfa", "ALFA")])
def test_a_team_name_taken_in_another_case_is_refused_in_turkish_too(first, second):
    from tournaments.teams import services as teams

    org = organiser(username="team-attack")
    t = teams.team_tournament_create(name="Takım Adları", rounds_total=3, boards_per_team=2, created_by=org)
    teams.team_create(tournament=t, name=first, user=org)
    with pytest.raises(ValidationFailed) as exc:
        teams.team_create(tournament=t, name=second, user=org)
    assert exc.value.field == "name"
    other = teams.team_create(tournament=t, name="Başka", user=org)
    with pytest.raises(ValidationFailed):
        teams.team_update(team=other, name=second, user=org)
    assert t.teams.count() == 2


def test_a_team_event_takes_players_only_as_team_members(client):
    """The entries page and the entries API used to enter a player in a team event without a team: an
    entry the team pairing never places, on the player list and in the TRF file."""
    import json

    from federation.errors import Conflict
    from tests.factories import PlayerFactory
    from tournaments.entries import services as entry_services
    from tournaments.teams import services as teams

    org = organiser(username="team-orphan")
    t = teams.team_tournament_create(name="Yetim Oyuncu", rounds_total=2, boards_per_team=2, created_by=org)
    team = teams.team_create(tournament=t, name="Alfa", user=org)
    member = teams.team_member_add(team=team, player=PlayerFactory(), user=org)
    assert member.entry.tournament_id == t.pk
    loose = PlayerFactory(federation_id="TMF-9901")
    with pytest.raises(Conflict):
        entry_services.entry_add(tournament=t, player=loose, user=org)
    client.force_login(org)
    client.post(reverse("tournament-entries", args=[t.slug]), {"players": [loose.pk]})
    response = client.post(f"/api/tournaments/{t.slug}/entries/", json.dumps({"federation_id": "TMF-9901"}),
                           content_type="application/json")
    assert response.status_code == 409
    assert list(t.entries.values_list("player_id", flat=True)) == [member.entry.player_id]


@pytest.mark.parametrize("path, status", [
    ("/t/{slug}/live.json?round=²", 404),
    ("/api/tournaments/{slug}/history/?round=²", 400),
    ("/api/players/?limit=²", 400),
    ("/players/?club=²", 200),
    ("/ratings/?club=²", 200),
    ("/api/ratings/?club=²", 200),
])
def test_superscript_digits_in_query_parameters_are_not_a_server_error(client, path, status):
    # "²".isdigit() is true but int("²") raises ValueError: these answered 500
    from tests.factories import UserFactory
    from tournaments import services

    t = services.tournament_create(name="Üst Simge", rounds_total=3)
    client.force_login(UserFactory(username="sup-staff", groups=["staff"]))
    assert client.get(path.format(slug=t.slug)).status_code == status


def test_superscript_if_match_is_refused_not_a_server_error():
    from tournaments.results.api import _if_match_version

    with pytest.raises(ValidationFailed) as exc:
        _if_match_version('"²"')
    assert exc.value.field == "If-Match"
    assert _if_match_version('W/"3"') == 3


def test_trf_import_choices_with_superscript_numbers_are_ignored():
    from django.http import QueryDict

    from tournaments.views import _trf_page_choices

    choices, refused = _trf_page_choices(QueryDict("offered=²&offered=2&choose_²=X&choose_3=TMF-1"))
    assert (choices, refused) == ({2: None, 3: "TMF-1"}, {2})


def test_team_changes_are_in_the_tournament_history():
    """Withdrawing a team, adding a member and changing the board order were kept by django-simple-history
    but missing from the tournament's history (page and API): Team and TeamMember were not read."""
    from tests.factories import PlayerFactory
    from tournaments.history import selectors as history
    from tournaments.teams import services as teams

    org = organiser(username="team-history")
    t = teams.team_tournament_create(name="Takım Geçmişi", rounds_total=2, boards_per_team=2, created_by=org)
    team = teams.team_create(tournament=t, name="Alfa", user=org)
    first = teams.team_member_add(team=team, player=PlayerFactory(last_name="Birinci"), user=org)
    teams.team_member_add(team=team, player=PlayerFactory(last_name="İkinci"), user=org)
    teams.team_member_move(member=first, board=2, user=org)
    teams.team_update(team=team, withdrawn=True, user=org, reason="gelmedi")
    items = history.tournament_history(tournament=t)
    actions = [i.action for i in items]
    for action in ("team.create", "team.member_add", "team.member_move", "team.edit"):
        assert action in actions, (action, actions)
    withdrawn = next(i for i in items if i.action == "team.edit")
    assert (withdrawn.object, withdrawn.reason, withdrawn.before, withdrawn.after) == (
        "Alfa", "gelmedi", {"withdrawn": False}, {"withdrawn": True})
