"""Forbidden pairs (players who must not be paired with each other in a range of rounds): the services
and their refusals, the pairing that avoids them, the history, the organiser's page and the API."""
from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from federation.errors import Conflict, PermissionDenied, ValidationFailed
from tests.factories import PASSWORD, PlayerFactory, UserFactory, organiser, referee
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.history import selectors as history
from tournaments.models import ForbiddenPair, Tournament
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db

WHITE_WINS = [SetInput(30, 18), SetInput(26, 22)]


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def org():
    return organiser(username="orhan", first_name="Orhan", last_name="Organizatör")


def make_swiss(org, *, n=4, rounds=3, name="Yasaklı Eşler Açık", system=Tournament.System.SWISS):
    t = services.tournament_create(name=name, rounds_total=rounds, created_by=org, system=system)
    for i in range(n):
        entry_services.entry_add(
            tournament=t, player=PlayerFactory(last_name=f"Oyuncu{i + 1}", first_name="Ali", rating=2000 - 100 * i)
        )
    return t


def entry(t, start_no):
    return t.entries.select_related("player").get(start_no=start_no)


def boards(rnd) -> list[tuple[int, int | None]]:
    return [(m.white.start_no, m.black.start_no if m.black_id else None) for m in rnd.matches.order_by("board")]


def met(rnd, a: int, b: int) -> bool:
    return any({w, k} == {a, b} for w, k in boards(rnd))


def play(rnd, org):
    round_services.round_publish(round=rnd, user=org)
    for m in rnd.matches.filter(kind="game"):
        result_services.match_result_enter(match=m, sets=WHITE_WINS, user=org)
    round_services.round_close(round=rnd, user=org)


# --------------------------------------------------------------------------------------------
# Services
# --------------------------------------------------------------------------------------------


def test_the_pairing_avoids_a_forbidden_pair_of_the_round(org):
    t = make_swiss(org)
    round_services.forbidden_pair_add(tournament=t, first=entry(t, 3), second=entry(t, 1), last_round=1,
                                      reason="kardeşler", user=org)
    pair = ForbiddenPair.objects.get(tournament=t)
    assert pair.first_id < pair.second_id  # stored in id order, whichever came first
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="w")
    # C.04.3 round 1 would pair 1-3 and 2-4 (S1 = {1, 2}, S2 = {3, 4}); the pair moves to the next best
    assert not met(rnd, 1, 3)
    assert sorted(tuple(sorted(b)) for b in boards(rnd)) == [(1, 4), (2, 3)]


def test_a_pair_outside_its_rounds_does_not_count(org):
    t = make_swiss(org)
    round_services.forbidden_pair_add(tournament=t, first=entry(t, 1), second=entry(t, 3), first_round=2, user=org)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="w")
    assert met(rnd, 1, 3)  # the forbidden rounds start at 2


def test_a_forbidden_pair_that_leaves_no_pairing_is_a_clear_400(org):
    t = make_swiss(org, n=2)
    round_services.forbidden_pair_add(tournament=t, first=entry(t, 1), second=entry(t, 2), user=org)
    with pytest.raises(ValidationFailed) as err:
        round_services.round_pair(tournament=t, user=org, coin_seed="w")
    assert err.value.code == "no_pairing"
    assert err.value.field == "forbidden_pairs"
    assert "forbidden pair" in err.value.message
    assert not t.rounds.exists()  # nothing half-saved

    r = api(org).post(f"/api/tournaments/{t.slug}/rounds/", {"coin_seed": "w"}, format="json")
    assert r.status_code == 400
    assert r.json()["error"]["field"] == "forbidden_pairs"
    assert "forbidden pair applies to round 1" in r.json()["error"]["message"]


def test_refusals_name_the_field(org):
    t = make_swiss(org)
    other = make_swiss(org, name="Başka Turnuva")
    a, b = entry(t, 1), entry(t, 2)
    cases = [
        (dict(first=a, second=a), "second"),
        (dict(first=a, second=entry(other, 2)), "second"),
        (dict(first=entry(other, 1), second=b), "first"),
        (dict(first=a, second=b, first_round=3, last_round=2), "last_round"),
        (dict(first=a, second=b, first_round=0), "first_round"),
        (dict(first=a, second=b, first_round=4), "first_round"),
        (dict(first=a, second=b, last_round=9), "last_round"),
        (dict(first=a, second=b, reason="x" * 201), "reason"),
    ]
    for kwargs, field in cases:
        with pytest.raises(ValidationFailed) as err:
            round_services.forbidden_pair_add(tournament=t, user=org, **kwargs)
        assert err.value.field == field, (kwargs, err.value.message)
    assert not ForbiddenPair.objects.exists()


def test_a_paired_round_never_changes(org):
    t = make_swiss(org)
    play(round_services.round_pair(tournament=t, user=org, coin_seed="w"), org)
    with pytest.raises(ValidationFailed) as err:
        round_services.forbidden_pair_add(tournament=t, first=entry(t, 1), second=entry(t, 4), user=org)
    assert err.value.field == "first_round"
    assert "round 2 or later" in err.value.message
    with pytest.raises(ValidationFailed) as err:
        round_services.forbidden_pair_add(tournament=t, first=entry(t, 1), second=entry(t, 4), first_round=1,
                                          last_round=1, user=org)
    assert err.value.field == "last_round"
    pair = round_services.forbidden_pair_add(tournament=t, first=entry(t, 1), second=entry(t, 4), first_round=2, user=org)
    assert (pair.first_round, pair.last_round) == (2, None)


def test_overlapping_pairs_of_the_same_players_are_refused(org):
    t = make_swiss(org, rounds=5)
    round_services.forbidden_pair_add(tournament=t, first=entry(t, 1), second=entry(t, 2), first_round=1, last_round=2,
                                      user=org)
    with pytest.raises(Conflict):
        round_services.forbidden_pair_add(tournament=t, first=entry(t, 2), second=entry(t, 1), first_round=2, user=org)
    round_services.forbidden_pair_add(tournament=t, first=entry(t, 2), second=entry(t, 1), first_round=4, user=org)
    assert ForbiddenPair.objects.filter(tournament=t).count() == 2


def test_round_robins_and_other_users_are_refused(org):
    rr = make_swiss(org, system=Tournament.System.ROUND_ROBIN, name="Berger")
    with pytest.raises(Conflict):
        round_services.forbidden_pair_add(tournament=rr, first=entry(rr, 1), second=entry(rr, 2), user=org)
    t = make_swiss(org)
    for user in (referee(username="rana"), UserFactory(username="plain")):
        with pytest.raises(PermissionDenied):
            round_services.forbidden_pair_add(tournament=t, first=entry(t, 1), second=entry(t, 2), user=user)
    pair = round_services.forbidden_pair_add(tournament=t, first=entry(t, 1), second=entry(t, 2), user=org)
    with pytest.raises(PermissionDenied):
        round_services.forbidden_pair_remove(pair=pair, user=referee(username="rana"))


def test_history_shows_who_when_why_before_and_after(org):
    t = make_swiss(org)
    v0 = Tournament.objects.get(pk=t.pk).version
    pair = round_services.forbidden_pair_add(tournament=t, first=entry(t, 2), second=entry(t, 4), first_round=1,
                                             last_round=2, reason="aynı kulüp", user=org)
    assert Tournament.objects.get(pk=t.pk).version == v0 + 1
    round_services.forbidden_pair_remove(pair=pair, user=org, reason="kulüp değiştirdi")
    assert not ForbiddenPair.objects.filter(pk=pair.pk).exists()

    removed, added = history.tournament_history(tournament=t, limit=2)
    assert added.action == "forbidden_pair.add" and added.action_label == "forbidden pair added"
    assert added.user == "Orhan Organizatör" and added.reason == "aynı kulüp"
    assert added.before is None
    assert added.after["first_round"] == 1 and added.after["last_round"] == 2
    assert added.after["first"].startswith("2. ") and added.after["second"].startswith("4. ")
    assert added.object.startswith("Forbidden pair 2. ")
    assert removed.action == "forbidden_pair.remove" and removed.reason == "kulüp değiştirdi"
    assert removed.after is None and removed.before["reason"] == "aynı kulüp"


# --------------------------------------------------------------------------------------------
# API
# --------------------------------------------------------------------------------------------


def api(user=None) -> APIClient:
    c = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        c.force_authenticate(user)
    return c


def test_api_lists_adds_and_removes_pairs_for_organisers(org):
    t = make_swiss(org)
    url = f"/api/tournaments/{t.slug}/forbidden-pairs/"
    assert api(org).get(url).json() == []
    r = api(org).post(url, {"first": 4, "second": 2, "last_round": 2, "reason": "kardeşler"}, format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    assert (body["first"]["start_no"], body["second"]["start_no"]) in ((2, 4), (4, 2))
    assert (body["first_round"], body["last_round"], body["reason"]) == (1, 2, "kardeşler")
    assert body["created_by"] == "Orhan Organizatör"
    listed = api(org).get(url).json()
    assert [p["id"] for p in listed] == [body["id"]]

    play(round_services.round_pair(tournament=t, user=org, coin_seed="w"), org)
    r = api(org).post(url, {"first": 1, "second": 3}, format="json")  # default: from the next round
    assert r.status_code == 201 and r.json()["first_round"] == 2

    r = api(org).delete(f"{url}{body['id']}/", {"reason": "yanlış"}, format="json")
    assert r.status_code == 204
    assert api(org).delete(f"{url}{body['id']}/").status_code == 404
    assert len(api(org).get(url).json()) == 1


def test_api_errors_are_400_with_field_and_reason(org):
    t = make_swiss(org)
    url = f"/api/tournaments/{t.slug}/forbidden-pairs/"
    for payload, field in [
        ({"first": 1, "second": 1}, "second"),
        ({"first": 1, "second": 9}, "second"),
        ({"first": 1, "second": 2, "first_round": 3, "last_round": 1}, "last_round"),
        ({"first": 1}, "second"),
    ]:
        r = api(org).post(url, payload, format="json")
        assert r.status_code == 400, (payload, r.content)
        error = r.json()["error"]
        assert error["field"] == field and error["message"], (payload, error)


def test_api_is_for_organisers_only(org):
    t = make_swiss(org)
    pair = round_services.forbidden_pair_add(tournament=t, first=entry(t, 1), second=entry(t, 2), user=org)
    url = f"/api/tournaments/{t.slug}/forbidden-pairs/"
    assert api().get(url).status_code in (401, 403)
    assert api().post(url, {"first": 1, "second": 3}, format="json").status_code in (401, 403)
    assert api().delete(f"{url}{pair.pk}/").status_code in (401, 403)
    for user in (referee(username="rana"), UserFactory(username="plain")):
        assert api(user).get(url).status_code == 403
        assert api(user).post(url, {"first": 1, "second": 3}, format="json").status_code == 403
        assert api(user).delete(f"{url}{pair.pk}/").status_code == 403
    assert api(org).get("/api/tournaments/yok-boyle-turnuva/forbidden-pairs/").status_code == 404
    assert ForbiddenPair.objects.filter(tournament=t).count() == 1


def test_api_schema_documents_the_endpoints(db):
    from drf_spectacular.generators import SchemaGenerator

    paths = SchemaGenerator().get_schema(request=None, public=True)["paths"]
    assert set(paths["/api/tournaments/{slug}/forbidden-pairs/"]) >= {"get", "post"}
    assert "delete" in paths["/api/tournaments/{slug}/forbidden-pairs/{pair_id}/"]
    assert "400" in paths["/api/tournaments/{slug}/forbidden-pairs/"]["post"]["responses"]


# --------------------------------------------------------------------------------------------
# The organiser's page
# --------------------------------------------------------------------------------------------


def _client(user=None) -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        assert c.login(username=user.username, password=PASSWORD)
    return c


def test_organiser_page_adds_lists_and_removes_a_pair(org):
    t = make_swiss(org)
    c = _client(org)
    assert f'href="/t/{t.slug}/forbidden-pairs/"' in c.get(f"/t/{t.slug}/").content.decode()
    page = c.get(f"/t/{t.slug}/forbidden-pairs/")
    assert page.status_code == 200
    assert "No forbidden pairs." in page.content.decode()

    r = c.post(f"/t/{t.slug}/forbidden-pairs/", {"first": "1", "second": "1", "first_round": "1"})
    assert r.status_code == 200 and "Choose two different players." in r.content.decode()
    r = c.post(f"/t/{t.slug}/forbidden-pairs/",
               {"first": "1", "second": "3", "first_round": "1", "last_round": "2", "reason": "kardeşler"})
    assert r.status_code == 302
    pair = ForbiddenPair.objects.get(tournament=t)
    body = c.get(f"/t/{t.slug}/forbidden-pairs/").content.decode()
    assert "kardeşler" in body and "1–2" in body
    assert f'action="/t/{t.slug}/forbidden-pairs/{pair.pk}/delete/"' in body
    assert "data-confirm=" in body  # the browser asks first (static/js/site.js; no inline script)

    r = c.post(f"/t/{t.slug}/forbidden-pairs/{pair.pk}/delete/")
    assert r.status_code == 302 and not ForbiddenPair.objects.filter(pk=pair.pk).exists()
    r = c.post(f"/t/{t.slug}/forbidden-pairs/{pair.pk}/delete/", follow=True)  # a double tap
    assert "no longer exists" in r.content.decode()


def test_organiser_page_is_not_public(org):
    t = make_swiss(org)
    round_services.forbidden_pair_add(tournament=t, first=entry(t, 1), second=entry(t, 2), reason="gizli", user=org)
    r = _client().get(f"/t/{t.slug}/forbidden-pairs/")
    assert r.status_code == 302 and "/login" in r["Location"]
    ref = referee(username="rana")
    r = _client(ref).get(f"/t/{t.slug}/forbidden-pairs/")
    assert r.status_code == 403 and "gizli" not in r.content.decode()
    pair = ForbiddenPair.objects.get(tournament=t)
    _client(ref).post(f"/t/{t.slug}/forbidden-pairs/{pair.pk}/delete/")
    assert ForbiddenPair.objects.filter(pk=pair.pk).exists()
    assert "gizli" not in _client().get(f"/t/{t.slug}/").content.decode()
