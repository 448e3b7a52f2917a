"""POST /api/games/validate-record/: a set record replayed against its claimed stones."""
from __future__ import annotations

import pytest
from rest_framework.test import APIClient

URL = "/api/games/validate-record/"

# A complete set ending 28–20 for the first mover (checked against an independent replay of RULES.md).
RECORD_28_20 = "1 2 4 5 1 4 3 5 4 4 1 4 6 6 4 4 6 1 3 4 6 1 1 3 2"
# Its first 21 plies: stores 25–18, 5 stones still in the pits.
RECORD_25_18 = " ".join(RECORD_28_20.split()[:21])


def post(body):
    """The messages are in the request's language (Turkish by default): ask for the English ones."""
    return APIClient(HTTP_ACCEPT_LANGUAGE="en").post(URL, body, format="json")


def body(moves, first, second, withdrawn_by=None, variant="federation"):
    return {"moves": moves, "variant": variant, "first_stones": first, "second_stones": second,
            "withdrawn_by": withdrawn_by}


@pytest.mark.django_db
def test_complete_record_is_valid():
    r = post(body(RECORD_28_20, 28, 20))
    assert r.status_code == 200, r.content
    assert r.json() == {"valid": True, "plies": 25, "first": 28, "second": 20, "winner": "first", "margin": 4,
                        "withdrawn_by": None}


@pytest.mark.django_db
def test_loser_withdrawal_credits_the_pits():
    # Kural 14.5: the loser withdraws at 25–18 → the 5 stones in the pits go to the winner: 30–18, "+6".
    r = post(body(RECORD_25_18, 30, 18, "second"))
    assert r.status_code == 200, r.content
    assert (r.json()["first"], r.json()["second"], r.json()["winner"], r.json()["margin"]) == (30, 18, "first", 6)


@pytest.mark.django_db
def test_winner_withdrawal_is_25_23():
    r = post(body(RECORD_25_18, 25, 23, "first"))
    assert r.status_code == 200, r.content
    assert (r.json()["first"], r.json()["second"], r.json()["margin"]) == (25, 23, 1)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "payload, words",
    [
        (body("4 7", 28, 20), ["ply 2", "1..6"]),
        (body(RECORD_28_20 + " 1", 28, 20), ["ply 26", "already over"]),
        (body("4 1 1 1", 28, 20), ["ply 4", "before the set is over"]),
        (body(RECORD_28_20, 30, 18), ["28-20", "30-18"]),
        (body(" ".join(RECORD_28_20.split()[:20]), 24, 24, "second"), ["Kural 14.5"]),
    ],
)
def test_bad_records_name_the_ply_or_rule(payload, words):
    r = post(payload)
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["field"] == "moves"
    for w in words:
        assert w in err["message"], err["message"]


@pytest.mark.django_db
def test_shape_errors_name_their_field():
    r = post({"moves": "4 1", "first_stones": "x", "second_stones": 20})
    assert r.status_code == 400
    assert r.json()["error"]["field"] == "first_stones"
    r = post(body("4 1", 28, 20, variant="oware"))
    assert r.status_code == 400
    assert r.json()["error"]["field"] == "variant"


@pytest.mark.django_db
def test_get_is_not_allowed():
    assert APIClient().get(URL).status_code == 405
