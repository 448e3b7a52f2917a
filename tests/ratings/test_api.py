"""The rating API through HTTP as a client uses it: ``/api/ratings/`` (list, filters, pages, errors)
and ``/api/ratings/players/<federation_id>/history/`` (each event's calculation)."""
from __future__ import annotations

import datetime as dt

import pytest
from django.urls import include, path

from ratings.models import RatingChange
from tests.ratings.test_product import _publish, _two_round_event, four  # noqa: F401  (fixture)

# the lead mounts ratings.urls_api at /api/ratings/; this URLconf makes the tests independent of it
urlpatterns = [
    path("api/ratings/", include("ratings.urls_api")),
    path("", include("federation.urls")),
]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


@pytest.fixture
def rated(four):  # noqa: F811
    t, org, _ = _two_round_event(
        four, "Bahar Açık", dt.date(2026, 4, 5),
        {1: [(30, 18), (20, 28), (36, 12)], 2: [(24, 24), (31, 17), (22, 26)]},
        {1: [(26, 22), (25, 23)], 2: [(10, 38), (40, 8), (25, 23)]},
    )
    _publish(t, org)
    for p in four:
        p.refresh_from_db()
    return t, four


def test_rating_list_in_rating_order_with_sets_and_status(client, rated):
    t, four = rated
    resp = client.get("/api/ratings/")
    assert resp.status_code == 200
    body = resp.json()
    assert body["count"] == 4
    got = [(r["last_name"], r["rating"], r["sets"], r["status"]) for r in body["results"]]
    sets = {c.player_id: c.sets for c in RatingChange.objects.all()}
    want = sorted(((p.last_name, p.rating, sets[p.pk], "established") for p in four), key=lambda x: -x[1])
    assert got == want
    assert [r["rank"] for r in body["results"]] == [1, 2, 3, 4]
    assert body["results"][0]["last_rated"] == "2026-04-05"


def test_rating_list_filters_and_turkish_name_order(client, rated):
    from tests.factories import UserFactory

    t, four = rated
    client.force_login(UserFactory(is_staff=True))  # sex and the year of the age groups: staff filters (KVKK)
    names = lambda params: [r["last_name"] for r in client.get("/api/ratings/", params).json()["results"]]  # noqa: E731
    assert names({"order": "name"}) == ["Cengiz", "Çelik", "Işık", "İnce"]
    assert names({"order": "name", "club": "AMK"}) == ["Çelik", "Işık"]
    assert names({"order": "name", "sex": "f"}) == ["Cengiz", "İnce"]
    assert names({"order": "name", "city": "İzmir"}) == ["Cengiz", "İnce"]
    assert names({"age": "u12", "year": 2026}) == ["Cengiz"]
    assert names({"age": "50plus", "year": 2026}) == ["Çelik"]
    assert names({"order": "name", "search": "ayşe"}) == ["Cengiz"]
    assert names({"order": "name", "search": "Ayşe"}) == ["Cengiz"]
    page = client.get("/api/ratings/", {"order": "name", "limit": 2, "offset": 2}).json()
    assert [r["last_name"] for r in page["results"]] == ["Işık", "İnce"] and page["count"] == 4


def test_rating_list_rejects_an_unknown_age_group(client, rated):
    resp = client.get("/api/ratings/", {"age": "u13"})
    assert resp.status_code == 400
    err = resp.json()["error"]
    assert err["code"] == "invalid" and err["field"] == "age"


def test_player_history_gives_every_line_of_the_calculation(client, rated):
    t, four = rated
    p = four[0]
    c = RatingChange.objects.get(player=p)
    resp = client.get(f"/api/ratings/players/{p.federation_id}/history/")
    assert resp.status_code == 200
    body = resp.json()
    assert body["player"] == {"federation_id": p.federation_id, "full_name": p.full_name, "rating": p.rating}
    assert body["rated_sets"] == c.sets
    (ev,) = body["events"]
    assert ev["tournament"] == {"slug": t.slug, "name": t.name}
    assert ev["period"] == "2026-04-05"
    assert ev["rating_before"] == pytest.approx(1900.0) and ev["rating_after"] == pytest.approx(c.rating_after, abs=0.01)
    assert ev["change"] == pytest.approx(c.rating_after - 1900.0, abs=0.01)
    assert len(ev["lines"]) == c.sets
    assert sum(ln["delta"] for ln in ev["lines"]) == pytest.approx(ev["change"], abs=0.01)
    for ln in ev["lines"]:
        assert ln["own_stones"] + ln["opponent_stones"] == 48
        assert ln["margin"] == ln["own_stones"] - 24
        assert ln["score"] == (1.0 if ln["margin"] > 0 else 0.0 if ln["margin"] < 0 else 0.5)
    rounds = [(ln["round"], ln["set_number"]) for ln in ev["lines"]]
    assert rounds == sorted(rounds)


def test_history_of_an_unknown_player_is_404(client, rated):
    resp = client.get("/api/ratings/players/TR-YOK/history/")
    assert resp.status_code == 404
    assert resp.json()["error"]["field"] == "federation_id"


def test_schema_documents_the_rating_operations(client):
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator(patterns=urlpatterns[:1]).get_schema(request=None, public=True)
    ops = {op["operationId"] for item in schema["paths"].values() for op in item.values()}
    assert {"ratings_list", "ratings_player_history"} <= ops
