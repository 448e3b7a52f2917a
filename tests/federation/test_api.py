"""Players and clubs through the REST API, the input helper's error paths, and the OpenAPI schema."""
from __future__ import annotations

import pytest
from django.core.management import call_command
from django.utils import translation
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers
from rest_framework.test import APIClient

from federation.api_views import validated_input
from federation.errors import ValidationFailed
from federation.models import Player
from tests.factories import ClubFactory, PlayerFactory


@pytest.fixture
def members(db):
    amk = ClubFactory(name="Ankara Mangala Kulübü", short_name="AMK", city="Ankara")
    izm = ClubFactory(name="İzmir Zeka Oyunları", short_name="IZO", city="İzmir")
    PlayerFactory(federation_id="TR001", last_name="Yılmaz", first_name="Ali", sex="m", rating=1800, club=amk, city="Ankara")
    PlayerFactory(federation_id="TR002", last_name="Kaya", first_name="Ayşe", sex="f", rating=1700, club=amk, city="Ankara")
    PlayerFactory(federation_id="TR003", last_name="Demir", first_name="Can", sex="m", rating=1600, club=izm, city="İzmir")
    PlayerFactory(federation_id="TR004", last_name="Kaya", first_name="Mehmet", sex="m", rating=1500, club=None, city="Bursa")
    return amk, izm


def ids(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [p["federation_id"] for p in response.json()["results"]]


def test_players_list_by_name(members):
    r = APIClient().get("/api/players/")
    assert ids(r) == ["TR003", "TR002", "TR004", "TR001"]
    assert r.json()["count"] == 4
    first = r.json()["results"][0]
    # the public sees the age category, not the birth year or the sex (KVKK: federation.privacy)
    assert first == {
        "federation_id": "TR003", "first_name": "Can", "last_name": "Demir", "full_name": "Demir, Can",
        "age_category": "open", "club": {"id": members[1].id, "name": "İzmir Zeka Oyunları", "short_name": "IZO",
                                         "city": "İzmir", "active": True},
        "city": "İzmir", "rating": 1600, "active": True, "merged_into": None,
    }


def test_players_filters(members):
    from federation import roles
    from tests.factories import UserFactory

    amk, izm = members
    c = APIClient()
    c.force_authenticate(UserFactory(groups=[roles.STAFF]))  # the sex filter is for staff (KVKK)
    assert ids(c.get(f"/api/players/?club={amk.id}")) == ["TR002", "TR001"]
    assert ids(c.get("/api/players/?club=izo")) == ["TR003"]
    assert ids(c.get("/api/players/?city=bursa")) == ["TR004"]
    assert ids(c.get("/api/players/?sex=f")) == ["TR002"]
    assert ids(c.get("/api/players/?search=kaya")) == ["TR002", "TR004"]
    assert ids(c.get("/api/players/?search=Kaya, Mehmet")) == ["TR004"]
    assert ids(c.get("/api/players/?search=TR003")) == ["TR003"]
    assert ids(c.get("/api/players/?search=nobody")) == []
    assert ids(c.get("/api/players/?sex=m&club=AMK")) == ["TR001"]


def test_players_ordering(members):
    c = APIClient()
    assert ids(c.get("/api/players/?ordering=-rating")) == ["TR001", "TR002", "TR003", "TR004"]
    assert ids(c.get("/api/players/?ordering=federation_id")) == ["TR001", "TR002", "TR003", "TR004"]


def test_players_bad_filter_is_400(members):
    r = APIClient().get("/api/players/?sex=x")
    assert r.status_code == 400
    assert r.json()["error"]["field"] == "sex"


def test_player_detail(members):
    r = APIClient().get("/api/players/TR002/")
    assert r.status_code == 200
    assert (r.json()["full_name"], r.json()["club"]["short_name"], r.json()["rating"]) == ("Kaya, Ayşe", "AMK", 1700)
    r = APIClient(HTTP_ACCEPT_LANGUAGE="en").get("/api/players/TR999/")
    assert r.status_code == 404
    assert r.json() == {"error": {"code": "not_found", "message": "No player with federation id TR999.",
                                  "field": "federation_id"}}


def test_clubs(members):
    r = APIClient().get("/api/clubs/")
    assert r.status_code == 200
    assert [c["short_name"] for c in r.json()["results"]] == ["AMK", "IZO"]
    assert [c["short_name"] for c in APIClient().get("/api/clubs/?city=İzmir").json()["results"]] == ["IZO"]
    assert [c["short_name"] for c in APIClient().get("/api/clubs/?city=ankara").json()["results"]] == ["AMK"]


def test_players_are_written_by_staff_only(members):
    """Organisers register players from a tournament's entries page; through the API only staff do
    (tests/federation/test_players_clubs.py covers the writes)."""
    from tests.factories import organiser

    c = APIClient()
    c.force_authenticate(organiser())
    r = c.post("/api/players/", {"federation_id": "TR9", "last_name": "Yeni"}, format="json")
    assert r.status_code == 403 and r.json()["error"]["code"] == "permission_denied"
    assert not Player.objects.filter(federation_id="TR9").exists()


# --- the input helper -------------------------------------------------------------------------


class _Item(serializers.Serializer):
    a = serializers.IntegerField()


class _Body(serializers.Serializer):
    name = serializers.CharField()
    items = _Item(many=True)
    tags = serializers.ListField(child=serializers.IntegerField(), required=False)


@pytest.mark.parametrize(
    "data, field, message",
    [
        ({"items": []}, "name", "This field is required."),
        ({"name": "x", "items": [{"a": 1}, {"a": "z"}]}, "items[2]", "a: A valid integer is required."),
        ({"name": "x", "items": "no"}, "items", 'Expected a list of items but got type "str".'),
        ({"name": "x", "items": [], "tags": [1, "q"]}, "tags[2]", "A valid integer is required."),
    ],
)
def test_validated_input_names_one_field(data, field, message):
    with translation.override("en"), pytest.raises(ValidationFailed) as info:
        validated_input(_Body, data)
    assert (info.value.field, info.value.message) == (field, message)


def test_validated_input_returns_data():
    assert validated_input(_Body, {"name": "x", "items": [{"a": "3"}]}) == {"name": "x", "items": [{"a": 3}]}


# --- OpenAPI ------------------------------------------------------------------------------------


def test_schema_has_every_endpoint(db):
    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    expected = {
        "/api/players/": {"get", "post"},
        "/api/players/{federation_id}/": {"get", "patch"},
        "/api/players/{federation_id}/deactivate/": {"post"},
        "/api/players/{federation_id}/activate/": {"post"},
        "/api/players/{federation_id}/merge/": {"post"},
        "/api/clubs/": {"get", "post"},
        "/api/clubs/{club_id}/": {"get", "patch"},
        "/api/clubs/{club_id}/deactivate/": {"post"},
        "/api/clubs/{club_id}/activate/": {"post"},
        "/api/tournaments/": {"get", "post"},
        "/api/tournaments/import-trf/": {"post"},
        "/api/tournaments/{slug}/": {"get", "patch", "delete"},
        "/api/tournaments/{slug}/restore/": {"post"},
        "/api/tournaments/{slug}/history/": {"get"},
        "/api/tournaments/{slug}/entries/": {"post"},
        "/api/tournaments/{slug}/entries/{start_no}/withdraw/": {"post"},
        "/api/tournaments/{slug}/entries/{start_no}/reinstate/": {"post"},
        "/api/tournaments/{slug}/byes/": {"post"},
        "/api/tournaments/{slug}/byes/{start_no}/{number}/": {"delete"},
        "/api/tournaments/{slug}/rounds/": {"post"},
        "/api/tournaments/{slug}/rounds/{number}/": {"get", "delete"},
        "/api/tournaments/{slug}/rounds/{number}/reopen/": {"post"},
        "/api/tournaments/{slug}/rounds/{number}/publish/": {"post"},
        "/api/tournaments/{slug}/rounds/{number}/close/": {"post"},
        "/api/tournaments/{slug}/rounds/{number}/boards/{board}/result/": {"post"},
        "/api/tournaments/{slug}/standings/": {"get"},
        "/api/tournaments/{slug}/standings/publish/": {"post"},
        "/api/games/validate-record/": {"post"},
    }
    for path, methods in expected.items():
        assert path in paths, path
        assert set(paths[path]) >= methods, (path, set(paths[path]))
    params = {p["name"] for p in paths["/api/players/"]["get"]["parameters"]}
    assert {"club", "city", "sex", "search", "active", "ordering", "limit", "offset"} <= params
    params = {p["name"] for p in paths["/api/tournaments/"]["get"]["parameters"]}
    assert {"status", "system", "year"} <= params
    assert "multipart/form-data" in paths["/api/tournaments/import-trf/"]["post"]["requestBody"]["content"]
    result = schema["components"]["schemas"]["MatchResultInputRequest"]
    # decider_starter: the lot for a knockout's first decider set (issue 14)
    assert set(result["properties"]) == {"sets", "forfeit", "version", "reason", "decider_starter"}


def test_schema_validates_without_warnings(db, tmp_path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    assert "/api/tournaments/{slug}/rounds/{number}/boards/{board}/result/" in text


def test_schema_endpoint_serves(db):
    r = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert r.status_code == 200
    assert "/api/games/validate-record/" in r.json()["paths"]
