"""The tournaments REST API as a client uses it: create, enter, pair, publish, results, close, standings.

A 4-player Swiss runs through the HTTP API; values are worked out by hand from RULES.md and FIDE
C.04.3 (round 1: S1 = {1, 2} v S2 = {3, 4}, colours alternate from the coin toss).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory, UserFactory, organiser, referee
from tournaments.models import CoinToss, Entry, Match, Round, SetResult, Tournament

pytestmark = pytest.mark.django_db

SAMPLE_TRF = Path(__file__).resolve().parents[2] / "tournaments" / "sample_data" / "trf" / "national_juniors_2011.trf"

# A complete set record (first mover's view) ending 28–20, checked against an independent replay.
RECORD_28_20 = "1 2 4 5 1 4 3 5 4 4 1 4 6 6 4 4 6 1 3 4 6 1 1 3 2"
# Its first 21 plies: stores 25–18 with 5 stones in the pits, set not over.
RECORD_25_18 = " ".join(RECORD_28_20.split()[:21])


def client_for(user=None, lang="en") -> APIClient:
    """An API client speaking ``lang`` (messages are translated; the site default is Turkish)."""
    c = APIClient(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        c.force_authenticate(user)
    return c


def error_of(response) -> dict:
    body = response.json()
    assert set(body) == {"error"}, body
    assert {"code", "message", "field"} <= set(body["error"]) <= {"code", "message", "field", "current", "round"}, body
    return body["error"]


@pytest.fixture
def org():
    return organiser(username="orhan", first_name="Orhan", last_name="Organizatör")


@pytest.fixture
def ref():
    return referee(username="rana")


@pytest.fixture
def players():
    club = ClubFactory(name="Ankara Mangala Kulübü", short_name="AMK", city="Ankara")
    return [
        PlayerFactory(federation_id="TR001", last_name="Yılmaz", first_name="Ali", rating=1800, club=club),
        PlayerFactory(federation_id="TR002", last_name="Kaya", first_name="Ayşe", rating=1700, club=club),
        PlayerFactory(federation_id="TR003", last_name="Demir", first_name="Can", rating=1600, city="İzmir"),
        PlayerFactory(federation_id="TR004", last_name="Şahin", first_name="Deniz", rating=1500, city="Bursa"),
    ]


@pytest.fixture
def swiss(org, players):
    """A 3-round Swiss created and filled through the API (entered in reverse rating order)."""
    c = client_for(org)
    r = c.post("/api/tournaments/", {"name": "Ankara Açık 2026", "rounds_total": 3, "start_date": "2026-05-01",
                                      "end_date": "2026-05-02", "city": "Ankara"}, format="json")
    assert r.status_code == 201, r.content
    slug = r.json()["slug"]
    for p in reversed(players):
        r = c.post(f"/api/tournaments/{slug}/entries/", {"federation_id": p.federation_id}, format="json")
        assert r.status_code == 201, r.content
    return Tournament.objects.get(slug=slug)


def boards_of(body) -> list[tuple]:
    return [
        (b["board"], b["white"]["start_no"], b["black"]["start_no"] if b["black"] else None, b["bye_kind"])
        for b in body["boards"]
    ]


def pair_and_publish(t, user, seed="abc"):
    c = client_for(user)
    r = c.post(f"/api/tournaments/{t.slug}/rounds/", {"coin_seed": seed}, format="json")
    assert r.status_code == 201, r.content
    n = r.json()["number"]
    r = c.post(f"/api/tournaments/{t.slug}/rounds/{n}/publish/")
    assert r.status_code == 200, r.content
    return r.json()


def result(user, t, board, sets, version=None, n=1, forfeit=""):
    body = {"sets": sets, "forfeit": forfeit}
    if version is not None:
        body["version"] = version
    return client_for(user).post(f"/api/tournaments/{t.slug}/rounds/{n}/boards/{board}/result/", body, format="json")


def s(white, black, termination="completed", moves=""):
    return {"white_store": white, "black_store": black, "termination": termination, "moves": moves}


# --------------------------------------------------------------------------------------------
# Tournaments and entries
# --------------------------------------------------------------------------------------------


def test_create_tournament_returns_the_draft(org):
    r = client_for(org).post(
        "/api/tournaments/",
        {"name": "İzmir Gençler Şampiyonası", "rounds_total": 5, "sets_per_match": 5, "variant": "kale",
         "tiebreaks": ["buchholz", "wins"]},
        format="json",
    )
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["slug"] == "izmir-gencler-sampiyonasi"
    assert (body["status"], body["rounds_total"], body["sets_per_match"], body["variant"]) == ("draft", 5, 5, "kale")
    assert body["tiebreaks"] == ["buchholz", "wins"]
    assert body["bye_points"] == 1.0
    assert body["entries"] == [] and body["rounds"] == []
    assert Tournament.objects.get(slug="izmir-gencler-sampiyonasi").created_by == org


def test_create_tournament_with_even_sets_names_the_field(org):
    r = client_for(org).post("/api/tournaments/", {"name": "X", "rounds_total": 5, "sets_per_match": 4}, format="json")
    assert r.status_code == 400
    err = error_of(r)
    assert err["field"] == "sets_per_match"
    assert "odd" in err["message"]


def test_create_tournament_with_unknown_tiebreak(org):
    r = client_for(org).post("/api/tournaments/", {"name": "X", "rounds_total": 5, "tiebreaks": ["koya"]}, format="json")
    assert r.status_code == 400
    assert error_of(r)["field"] == "tiebreaks"


def test_messages_are_turkish_by_default(org):
    r = APIClient(HTTP_ACCEPT_LANGUAGE="tr")
    r.force_authenticate(org)
    r = r.post("/api/tournaments/", {"name": "X", "rounds_total": 5, "sets_per_match": 4}, format="json")
    assert r.status_code == 400
    assert error_of(r) == {"code": "invalid", "field": "sets_per_match",
                           "message": "Maç başına set sayısı tek olmalı (1, 3, 5 veya 7)."}


def test_create_tournament_missing_name_is_a_field_error(org):
    r = client_for(org).post("/api/tournaments/", {"rounds_total": 5}, format="json")
    assert r.status_code == 400
    assert error_of(r)["field"] == "name"


def test_anonymous_cannot_create(db):
    r = client_for().post("/api/tournaments/", {"name": "X", "rounds_total": 5}, format="json")
    assert r.status_code in (401, 403)
    assert error_of(r)["code"] == "not_authenticated"
    assert not Tournament.objects.exists()


def test_plain_user_cannot_create(db):
    r = client_for(UserFactory()).post("/api/tournaments/", {"name": "X", "rounds_total": 5}, format="json")
    assert r.status_code == 403
    assert error_of(r)["code"] == "permission_denied"


def test_referee_cannot_create(ref):
    r = client_for(ref).post("/api/tournaments/", {"name": "X", "rounds_total": 5}, format="json")
    assert r.status_code == 403


def test_list_filters_status_system_year(db):
    TournamentFactory(slug="a", name="A", start_date="2025-03-01", status="finished", system="swiss")
    TournamentFactory(slug="b", name="B", start_date="2026-04-01", status="running", system="round_robin")
    TournamentFactory(slug="c", name="C", start_date="2026-06-01", status="draft", system="swiss")
    c = client_for()

    def slugs(query):
        r = c.get("/api/tournaments/" + query)
        assert r.status_code == 200
        return [t["slug"] for t in r.json()["results"]]

    assert slugs("") == ["c", "b", "a"]
    assert slugs("?year=2026") == ["c", "b"]
    assert slugs("?status=finished") == ["a"]
    assert slugs("?system=round_robin") == ["b"]
    assert slugs("?system=swiss&year=2026") == ["c"]
    assert c.get("/api/tournaments/?status=paused").status_code == 400


def test_entries_are_numbered_by_rating(swiss):
    body = client_for().get(f"/api/tournaments/{swiss.slug}/").json()
    assert [(e["start_no"], e["federation_id"], e["name"], e["rating"]) for e in body["entries"]] == [
        (1, "TR001", "Yılmaz, Ali", 1800),
        (2, "TR002", "Kaya, Ayşe", 1700),
        (3, "TR003", "Demir, Can", 1600),
        (4, "TR004", "Şahin, Deniz", 1500),
    ]
    assert body["entries"][0]["club"] == "Ankara Mangala Kulübü"
    assert body["entries"][2]["club"] == "İzmir"


def test_entry_twice_is_a_conflict(swiss, org):
    r = client_for(org).post(f"/api/tournaments/{swiss.slug}/entries/", {"federation_id": "TR001"}, format="json")
    assert r.status_code == 409
    assert error_of(r)["field"] == "player"


def test_entry_of_unknown_player(swiss, org):
    r = client_for(org).post(f"/api/tournaments/{swiss.slug}/entries/", {"federation_id": "TR999"}, format="json")
    assert r.status_code == 404
    assert error_of(r)["field"] == "federation_id"


def test_referee_cannot_add_entries(swiss, ref):
    PlayerFactory(federation_id="TR005")
    r = client_for(ref).post(f"/api/tournaments/{swiss.slug}/entries/", {"federation_id": "TR005"}, format="json")
    assert r.status_code == 403
    assert swiss.entries.count() == 4


def test_withdraw_entry(swiss, org):
    r = client_for(org).post(f"/api/tournaments/{swiss.slug}/entries/3/withdraw/")
    assert r.status_code == 200, r.content
    assert (r.json()["start_no"], r.json()["withdrawn"], r.json()["withdrawn_after_round"]) == (3, True, 0)
    assert Entry.objects.get(tournament=swiss, start_no=3).withdrawn
    assert client_for(org).post(f"/api/tournaments/{swiss.slug}/entries/9/withdraw/").status_code == 404


def test_anonymous_cannot_withdraw(swiss):
    r = client_for().post(f"/api/tournaments/{swiss.slug}/entries/3/withdraw/")
    assert r.status_code in (401, 403)
    assert not Entry.objects.get(tournament=swiss, start_no=3).withdrawn


def test_unknown_tournament_is_404(db):
    r = client_for().get("/api/tournaments/no-such/")
    assert r.status_code == 404
    assert error_of(r)["code"] == "not_found"


# --------------------------------------------------------------------------------------------
# Rounds
# --------------------------------------------------------------------------------------------


def test_pair_round_one_with_coin_seed(swiss, org):
    r = client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/", {"coin_seed": "abc"}, format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    # SHA-256("abc") starts with 0xba = 186, even → the top seed is white on board 1; board 2 alternates.
    assert hashlib.sha256(b"abc").digest()[0] == 0xBA
    assert (body["number"], body["status"]) == (1, "paired")
    assert boards_of(body) == [(1, 1, 3, ""), (2, 4, 2, "")]
    assert body["boards"][0]["white"]["name"] == "Yılmaz, Ali"
    assert body["boards"][0]["black"]["name"] == "Demir, Can"
    toss = body["coin_toss"]
    # who pressed, by name (never the user name "orhan")
    assert (toss["seed"], toss["outcome"], toss["tossed_by"]) == ("abc", "w", "Orhan Organizatör")
    assert toss["tossed_at"]
    assert CoinToss.objects.get(round__tournament=swiss).outcome == "w"


def test_coin_seed_giving_black_reverses_colours(swiss, org):
    # SHA-256("x") starts with 0x2d = 45, odd → the top seed is black.
    assert hashlib.sha256(b"x").digest()[0] % 2 == 1
    body = client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/", {"coin_seed": "x"}, format="json").json()
    assert body["coin_toss"]["outcome"] == "b"
    assert boards_of(body) == [(1, 3, 1, ""), (2, 2, 4, "")]


def test_odd_field_gets_a_pairing_bye(swiss, org):
    client_for(org).post(f"/api/tournaments/{swiss.slug}/entries/4/withdraw/")
    body = client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/", {"coin_seed": "abc"}, format="json").json()
    # 3 players: the lowest (3) gets the pairing-allocated bye; 1 v 2 with 1 white.
    assert boards_of(body) == [(1, 1, 2, ""), (2, 3, None, "pab")]
    bye = body["boards"][1]
    assert (bye["kind"], bye["white_points"], bye["result"]) == ("bye", 1.0, "1")


def test_referee_cannot_pair(swiss, ref):
    r = client_for(ref).post(f"/api/tournaments/{swiss.slug}/rounds/", {"coin_seed": "abc"}, format="json")
    assert r.status_code == 403
    err = error_of(r)
    assert err["code"] == "permission_denied"
    assert "organiser" in err["message"]
    assert not Round.objects.exists()


def test_anonymous_cannot_pair(swiss):
    r = client_for().post(f"/api/tournaments/{swiss.slug}/rounds/", {}, format="json")
    assert r.status_code in (401, 403)
    assert not Round.objects.exists()


def test_pairing_twice_needs_the_round_closed(swiss, org):
    c = client_for(org)
    assert c.post(f"/api/tournaments/{swiss.slug}/rounds/", {}, format="json").status_code == 201
    r = c.post(f"/api/tournaments/{swiss.slug}/rounds/", {}, format="json")
    assert r.status_code == 409
    assert "Round 1" in error_of(r)["message"]


def test_unpublished_round_is_hidden_from_the_public(swiss, org, ref):
    client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/", {"coin_seed": "abc"}, format="json")
    url = f"/api/tournaments/{swiss.slug}/rounds/1/"
    assert client_for().get(url).status_code == 404
    assert client_for(UserFactory()).get(url).status_code == 404
    assert client_for().get(f"/api/tournaments/{swiss.slug}/").json()["rounds"] == []
    assert client_for(ref).get(url).status_code == 200
    assert client_for(org).get(url).json()["status"] == "paired"
    assert [x["number"] for x in client_for(org).get(f"/api/tournaments/{swiss.slug}/").json()["rounds"]] == [1]

    r = client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/1/publish/")
    assert r.status_code == 200
    assert r.json()["status"] == "published" and r.json()["published_at"]
    public = client_for().get(url)
    assert public.status_code == 200
    assert boards_of(public.json()) == [(1, 1, 3, ""), (2, 4, 2, "")]
    assert public.json()["coin_toss"]["seed"] == "abc"
    assert [x["status"] for x in client_for().get(f"/api/tournaments/{swiss.slug}/").json()["rounds"]] == ["published"]


def test_referee_cannot_publish(swiss, org, ref):
    client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/", {}, format="json")
    r = client_for(ref).post(f"/api/tournaments/{swiss.slug}/rounds/1/publish/")
    assert r.status_code == 403
    assert Round.objects.get().status == "paired"


def test_missing_round_is_404(swiss, org):
    assert client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/2/publish/").status_code == 404
    assert client_for(org).get(f"/api/tournaments/{swiss.slug}/rounds/2/").status_code == 404


# --------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------


def test_result_two_sets_decide_the_match(swiss, org, ref):
    pair_and_publish(swiss, org)
    r = result(ref, swiss, 1, [s(30, 18), s(26, 22)], version=1)
    assert r.status_code == 200, r.content
    body = r.json()
    assert (body["white_points"], body["black_points"], body["decided"], body["result"]) == (1.0, 0.0, True, "1-0")
    assert [(x["number"], x["starter"], x["white_stones"], x["black_stones"]) for x in body["sets"]] == [
        (1, "white", 30, 18), (2, "black", 26, 22),
    ]
    assert body["version"] == 2
    m = Match.objects.get(round__tournament=swiss, board=1)
    assert (m.white_points, m.black_points) == (1, 0)
    # the public pairing list shows it
    board = client_for().get(f"/api/tournaments/{swiss.slug}/rounds/1/").json()["boards"][0]
    assert (board["result"], board["white_points"], [x["white_stones"] for x in board["sets"]]) == ("1-0", 1.0, [30, 26])


def test_one_set_leaves_the_match_open(swiss, org, ref):
    pair_and_publish(swiss, org)
    body = result(ref, swiss, 1, [s(30, 18)]).json()
    assert (body["white_points"], body["black_points"], body["decided"], body["result"]) == (None, None, False, "")
    assert len(body["sets"]) == 1


def test_three_sets_with_a_draw_is_a_drawn_match(swiss, org, ref):
    pair_and_publish(swiss, org)
    body = result(ref, swiss, 2, [s(18, 30), s(24, 24), s(30, 18)]).json()
    # set points 0 + ½ + 1 = 1½ each → the match is drawn (003 "Turnuva maçı")
    assert (body["white_points"], body["black_points"], body["result"]) == (0.5, 0.5, "½-½")
    assert [x["starter"] for x in body["sets"]] == ["white", "black", "white"]


def test_a_third_set_after_two_nil_is_rejected(swiss, org, ref):
    pair_and_publish(swiss, org)
    r = result(ref, swiss, 1, [s(30, 18), s(26, 22), s(25, 23)])
    assert r.status_code == 400
    err = error_of(r)
    assert err["field"] == "sets"
    assert "set 3" in err["message"].lower()
    assert not SetResult.objects.exists()


def test_too_early_withdrawal_names_kural_14_5(swiss, org, ref):
    pair_and_publish(swiss, org)
    r = result(ref, swiss, 1, [s(20, 10, "black_withdrew")])
    assert r.status_code == 400
    err = error_of(r)
    assert err["field"] == "sets[1]"
    assert "Kural 14.5" in err["message"]
    assert "20-10" in err["message"]


def test_withdrawal_of_the_loser_credits_the_pits_with_the_record(swiss, org, ref):
    pair_and_publish(swiss, org)
    # set 1: white starts; after 21 plies 25–18, black withdraws → white gets the 5 stones: 30–18.
    # set 2: black starts and plays the full 28–20 record as first mover → white 20, black 28.
    # set 3: white 26–22 → white wins the match 2 sets to 1.
    body = result(ref, swiss, 1, [
        s(25, 18, "black_withdrew", RECORD_25_18),
        s(20, 28, "completed", RECORD_28_20),
        s(26, 22),
    ]).json()
    assert [(x["white_stones"], x["black_stones"], x["termination"], x["white_store"], x["black_store"])
            for x in body["sets"]] == [
        (30, 18, "black_withdrew", 25, 18),
        (20, 28, "completed", None, None),
        (26, 22, "completed", None, None),
    ]
    assert (body["white_points"], body["black_points"]) == (1.0, 0.0)
    assert body["sets"][1]["moves"] == RECORD_28_20


def test_a_record_that_does_not_match_the_stones(swiss, org, ref):
    pair_and_publish(swiss, org)
    r = result(ref, swiss, 1, [s(30, 18, "completed", RECORD_28_20)])
    assert r.status_code == 400
    err = error_of(r)
    assert err["field"] == "sets[1]"
    assert "28-20" in err["message"] and "30-18" in err["message"]


def test_bad_set_shape_names_the_set(swiss, org, ref):
    pair_and_publish(swiss, org)
    r = result(ref, swiss, 1, [s(30, 18), {"white_store": "many", "black_store": 22}])
    assert r.status_code == 400
    err = error_of(r)
    assert err["field"] == "sets[2]"
    assert err["message"].startswith("white_store:")


def test_stones_not_summing_to_48(swiss, org, ref):
    pair_and_publish(swiss, org)
    r = result(ref, swiss, 1, [s(30, 18), s(30, 17)])
    assert r.status_code == 400
    err = error_of(r)
    assert err["field"] == "sets[2]"
    assert "47" in err["message"]


def test_agreed_draw_is_rejected(swiss, org, ref):
    pair_and_publish(swiss, org)
    r = result(ref, swiss, 1, [s(24, 24, "agreed_draw")])
    assert r.status_code == 400
    assert "Kural 14.6" in error_of(r)["message"]


def test_forfeit(swiss, org, ref):
    pair_and_publish(swiss, org)
    body = result(ref, swiss, 2, [], forfeit="black").json()
    assert (body["white_points"], body["black_points"], body["result"], body["rated"], body["sets"]) == (
        1.0, 0.0, "+/-", False, [],
    )


def test_stale_version_is_a_conflict(swiss, org, ref):
    pair_and_publish(swiss, org)
    assert result(ref, swiss, 1, [s(30, 18), s(26, 22)], version=1).status_code == 200
    r = result(org, swiss, 1, [s(18, 30), s(22, 26)], version=1)
    assert r.status_code == 409
    assert error_of(r)["field"] == "version"
    assert Match.objects.get(round__tournament=swiss, board=1).white_points == 1


def test_results_need_a_published_round(swiss, org, ref):
    client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/", {"coin_seed": "abc"}, format="json")
    r = result(ref, swiss, 1, [s(30, 18), s(26, 22)])
    assert r.status_code == 409


def test_anonymous_and_plain_users_cannot_enter_results(swiss, org):
    pair_and_publish(swiss, org)
    assert result(None, swiss, 1, [s(30, 18), s(26, 22)]).status_code in (401, 403)
    r = result(UserFactory(), swiss, 1, [s(30, 18), s(26, 22)])
    assert r.status_code == 403
    assert error_of(r)["code"] == "permission_denied"
    assert Match.objects.get(round__tournament=swiss, board=1).white_points is None


def test_unknown_board_is_404(swiss, org, ref):
    pair_and_publish(swiss, org)
    assert result(ref, swiss, 7, [s(30, 18)]).status_code == 404


# --------------------------------------------------------------------------------------------
# Close and standings
# --------------------------------------------------------------------------------------------


def test_close_needs_every_result(swiss, org, ref):
    pair_and_publish(swiss, org)
    result(ref, swiss, 1, [s(30, 18), s(26, 22)])
    r = client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/1/close/")
    assert r.status_code == 409
    assert "2" in error_of(r)["message"]
    assert client_for(ref).post(f"/api/tournaments/{swiss.slug}/rounds/1/close/").status_code == 403


def test_round_one_close_and_standings(swiss, org, ref):
    pair_and_publish(swiss, org)
    result(ref, swiss, 1, [s(30, 18), s(26, 22)])          # 1 beats 3
    result(ref, swiss, 2, [s(18, 30), s(24, 24), s(30, 18)])  # 4 and 2 draw
    r = client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/1/close/")
    assert r.status_code == 200, r.content
    assert r.json()["status"] == "closed"

    url = f"/api/tournaments/{swiss.slug}/standings/"
    hidden = client_for().get(url)
    assert hidden.status_code == 404
    assert error_of(hidden)["code"] == "not_found"
    assert client_for(org).get(url).status_code == 200
    assert client_for(ref).post(f"/api/tournaments/{swiss.slug}/standings/publish/").status_code == 403

    r = client_for(org).post(f"/api/tournaments/{swiss.slug}/standings/publish/")
    assert r.status_code == 200, r.content
    assert r.json()["status"] == "running" and r.json()["standings_published_at"]

    body = client_for().get(url).json()
    assert body["rounds"] == 1
    assert [t["key"] for t in body["tiebreaks"]] == ["buchholz_cut1", "buchholz", "sonneborn_berger",
                                                     "direct_encounter", "wins"]
    assert body["tiebreaks"][0]["label"] == "Buchholz Cut-1"
    tr = client_for(lang="tr").get(url).json()
    assert tr["tiebreaks"][0]["label"] == "Buchholz (1 kesik)"
    assert client_for(lang="tr").get(url + "?lang=en").json()["tiebreaks"][0]["label"] == "Buchholz Cut-1"
    rows = {row["start_no"]: row for row in body["rows"]}
    assert [row["start_no"] for row in body["rows"]][0] == 1
    assert [row["start_no"] for row in body["rows"]][-1] == 3
    assert {n: rows[n]["points"] for n in rows} == {1: 1.0, 2: 0.5, 4: 0.5, 3: 0.0}
    assert (rows[1]["rank"], rows[3]["rank"]) == (1, 4)
    # Buchholz = sum of the opponents' points: 1 met 3 (0), 3 met 1 (1), 2 and 4 met each other (½).
    assert {n: rows[n]["buchholz"] for n in rows} == {1: 0.0, 2: 0.5, 4: 0.5, 3: 1.0}
    assert {n: rows[n]["wins"] for n in rows} == {1: 1, 2: 0, 4: 0, 3: 0}
    assert rows[1]["name"] == "Yılmaz, Ali" and rows[1]["club"] == "Ankara Mangala Kulübü"


def test_standings_publish_needs_a_closed_round(swiss, org):
    r = client_for(org).post(f"/api/tournaments/{swiss.slug}/standings/publish/")
    assert r.status_code == 409


def test_round_two_pairs_after_round_one(swiss, org, ref):
    pair_and_publish(swiss, org)
    result(ref, swiss, 1, [s(30, 18), s(26, 22)])
    result(ref, swiss, 2, [s(18, 30), s(24, 24), s(30, 18)])
    client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/1/close/")
    r = client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/", {}, format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["number"] == 2 and body["coin_toss"] is None
    pairs = {frozenset((b["white"]["start_no"], b["black"]["start_no"])) for b in body["boards"]}
    # nobody meets the same opponent twice
    assert not pairs & {frozenset((1, 3)), frozenset((2, 4))}
    assert sorted(n for p in pairs for n in p) == [1, 2, 3, 4]


# --------------------------------------------------------------------------------------------
# TRF import
# --------------------------------------------------------------------------------------------


def test_import_trf(org):
    upload = SimpleUploadedFile("national_juniors_2011.trf", SAMPLE_TRF.read_bytes(), content_type="text/plain")
    r = client_for(org).post("/api/tournaments/import-trf/", {"file": upload}, format="multipart")
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["slug"] == "national-juniors-championship-2011"
    assert (body["name"], body["rounds"], body["entries"]) == ("National Juniors Championship 2011", 5, 34)
    assert isinstance(body["notes"], list)
    t = Tournament.objects.get(slug=body["slug"])
    assert t.imported_from_trf and t.rounds.filter(status="closed").count() == 5
    # player 1 Öztürk, Elif scored 5.0 in the file
    entry = t.entries.get(start_no=1)
    assert entry.player.full_name == "Öztürk, Elif"
    won = Match.objects.filter(round__tournament=t, white=entry, white_points=1).count() + Match.objects.filter(
        round__tournament=t, black=entry, black_points=1
    ).count()
    assert won == 5


def test_import_trf_bad_line_names_the_line(org):
    lines = SAMPLE_TRF.read_text(encoding="utf-8").split("\n")
    assert lines[14].startswith("001    1")
    lines[14] = lines[14][:80] + " nan" + lines[14][84:]
    upload = SimpleUploadedFile("bad.trf", "\n".join(lines).encode(), content_type="text/plain")
    r = client_for(org).post("/api/tournaments/import-trf/", {"file": upload}, format="multipart")
    assert r.status_code == 400
    err = error_of(r)
    assert err["field"] == "file"
    assert "line 15" in err["message"]
    assert not Tournament.objects.exists()


def test_import_trf_without_a_file(org):
    r = client_for(org).post("/api/tournaments/import-trf/", {}, format="multipart")
    assert r.status_code == 400
    assert error_of(r)["field"] == "file"


def test_import_trf_needs_an_organiser(ref):
    upload = SimpleUploadedFile("x.trf", SAMPLE_TRF.read_bytes(), content_type="text/plain")
    r = client_for(ref).post("/api/tournaments/import-trf/", {"file": upload}, format="multipart")
    assert r.status_code == 403
    assert not Tournament.objects.exists()


# --------------------------------------------------------------------------------------------
# Round robin and per-tournament roles
# --------------------------------------------------------------------------------------------


@pytest.fixture
def round_robin(org, players):
    t = TournamentFactory(slug="berger", name="Berger", system="round_robin", rounds_total=3, created_by=org)
    for p in players:
        r = client_for(org).post(f"/api/tournaments/{t.slug}/entries/", {"federation_id": p.federation_id}, format="json")
        assert r.status_code == 201
    return t


def test_round_robin_round_one_is_the_berger_table(round_robin, org):
    body = client_for(org).post(f"/api/tournaments/{round_robin.slug}/rounds/", {"coin_seed": "abc"}, format="json").json()
    # FIDE C.05 Annex 1, 4 players, round 1: 1–4, 2–3
    assert boards_of(body) == [(1, 1, 4, ""), (2, 2, 3, "")]


def test_round_robin_coin_toss_black_reverses_the_table(round_robin, org):
    body = client_for(org).post(f"/api/tournaments/{round_robin.slug}/rounds/", {"coin_seed": "x"}, format="json").json()
    assert boards_of(body) == [(1, 4, 1, ""), (2, 3, 2, "")]


def test_tournament_roles_are_per_tournament(swiss, players):
    from tests.factories import TournamentRoleFactory

    other = TournamentFactory(slug="other")
    own_org = TournamentRoleFactory(tournament=swiss, role="organiser").user
    own_ref = TournamentRoleFactory(tournament=swiss, role="referee").user
    assert client_for(own_org).post(f"/api/tournaments/{other.slug}/standings/publish/").status_code == 403
    r = client_for(own_ref).post(f"/api/tournaments/{swiss.slug}/rounds/", {"coin_seed": "abc"}, format="json")
    assert r.status_code == 403
    r = client_for(own_org).post(f"/api/tournaments/{swiss.slug}/rounds/", {"coin_seed": "abc"}, format="json")
    assert r.status_code == 201
    assert client_for(own_ref).get(f"/api/tournaments/{swiss.slug}/rounds/1/").status_code == 200
    assert client_for(own_org).post(f"/api/tournaments/{swiss.slug}/rounds/1/publish/").status_code == 200
    assert result(own_ref, swiss, 1, [s(30, 18), s(26, 22)]).status_code == 200


# --------------------------------------------------------------------------------------------
# State rules seen through the API, and query counts
# --------------------------------------------------------------------------------------------


def test_late_entry_after_pairing_takes_the_next_starting_number(swiss, org, ref):
    """A late entrant keeps the starting numbers as they are (C.04.2); while round 1 is paired but not
    played the entry is refused (with the way out), once it is played they get a bye for it."""
    client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/", {"coin_seed": "abc"}, format="json")
    PlayerFactory(federation_id="TR005", rating=2500)
    r = client_for(org).post(f"/api/tournaments/{swiss.slug}/entries/", {"federation_id": "TR005"}, format="json")
    assert r.status_code == 409
    assert error_of(r)["code"] == "round_paired_not_played" and error_of(r)["round"] == 1
    pair_and_publish_done = client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/1/publish/")
    assert pair_and_publish_done.status_code == 200
    result(ref, swiss, 1, [s(30, 18), s(26, 22)])
    r = client_for(org).post(f"/api/tournaments/{swiss.slug}/entries/",
                             {"federation_id": "TR005", "missed_rounds": "half"}, format="json")
    assert r.status_code == 201, r.content
    assert r.json()["start_no"] == 5
    result(ref, swiss, 2, [s(30, 18), s(26, 22)])
    assert client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/1/close/").status_code == 200
    round_1 = client_for().get(f"/api/tournaments/{swiss.slug}/rounds/1/").json()
    byes = [b for b in round_1["boards"] if b["kind"] == "bye"]
    assert [(b["board"], b["white"]["start_no"], b["bye_kind"], b["white_points"]) for b in byes] == [(3, 5, "half", 0.5)]
    r2 = client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/", {}, format="json")
    assert r2.status_code == 201, r2.content
    paired = client_for(org).get(f"/api/tournaments/{swiss.slug}/rounds/2/").json()
    in_round_2 = {b["white"]["start_no"] for b in paired["boards"]} | {
        b["black"]["start_no"] for b in paired["boards"] if b.get("black")
    }
    assert in_round_2 == {1, 2, 3, 4, 5}


def test_closed_round_results_cannot_change(swiss, org, ref):
    pair_and_publish(swiss, org)
    result(ref, swiss, 1, [s(30, 18), s(26, 22)])
    result(ref, swiss, 2, [s(30, 18), s(26, 22)])
    assert client_for(org).post(f"/api/tournaments/{swiss.slug}/rounds/1/close/").status_code == 200
    r = result(ref, swiss, 1, [s(18, 30), s(22, 26)], version=2)
    assert r.status_code == 409
    assert "closed" in error_of(r)["message"] and error_of(r)["code"] == "round_closed"
    r = result(org, swiss, 1, [s(18, 30), s(22, 26)], version=2)
    assert r.status_code == 400 and error_of(r)["field"] == "reason"
    public = client_for().get(f"/api/tournaments/{swiss.slug}/").json()
    assert [(x["number"], x["status"]) for x in public["rounds"]] == [(1, "closed")]
    assert public["status"] == "running"


def test_pairing_past_the_last_round_is_a_conflict(org, players):
    t = TournamentFactory(slug="one-round", rounds_total=1, created_by=org)
    for p in players[:2]:
        client_for(org).post(f"/api/tournaments/{t.slug}/entries/", {"federation_id": p.federation_id}, format="json")
    pair_and_publish(t, org)
    result(org, t, 1, [s(30, 18), s(26, 22)])
    client_for(org).post(f"/api/tournaments/{t.slug}/rounds/1/close/")
    r = client_for(org).post(f"/api/tournaments/{t.slug}/rounds/", {}, format="json")
    assert r.status_code == 409
    r = client_for(org).post(f"/api/tournaments/{t.slug}/standings/publish/")
    assert r.json()["status"] == "finished"


def _queries_for(url: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        assert client_for().get(url).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("path", ["rounds/1/", "", "standings/"])
def test_reads_take_a_fixed_number_of_queries(org, path):
    counts = []
    for n in (4, 10):
        t = TournamentFactory(slug=f"t{n}", rounds_total=3, created_by=org)
        for _ in range(n):
            client_for(org).post(f"/api/tournaments/{t.slug}/entries/",
                                 {"federation_id": PlayerFactory().federation_id}, format="json")
        pair_and_publish(t, org)
        for board in range(1, n // 2 + 1):
            result(org, t, board, [s(30, 18), s(26, 22)])
        client_for(org).post(f"/api/tournaments/{t.slug}/rounds/1/close/")
        client_for(org).post(f"/api/tournaments/{t.slug}/standings/publish/")
        counts.append(_queries_for(f"/api/tournaments/{t.slug}/{path}"))
    assert counts[0] == counts[1]


def test_anonymous_write_is_401_with_a_challenge(swiss):
    """No credentials: 401 with WWW-Authenticate (Basic), in the error shape of every API error."""
    r = client_for().post(f"/api/tournaments/{swiss.slug}/rounds/", {}, format="json")
    assert r.status_code == 401
    assert r["WWW-Authenticate"].startswith("Basic")
    assert error_of(r)["code"] == "not_authenticated"
