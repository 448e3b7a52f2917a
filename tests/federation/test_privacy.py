"""Personal data (KVKK): the public sees age categories, not birth years or sex; display names instead
of user names; a player downloads their own data; staff anonymise a player who left."""
from __future__ import annotations

import json

import pytest
from django.test import Client
from django.utils import timezone, translation
from rest_framework.test import APIClient

from federation import roles, services
from federation.errors import Conflict, PermissionDenied, ValidationFailed
from federation.models import Player
from federation.privacy import age_category, display_name
from ratings.models import RatingChange
from ratings.tasks import rate_tournament_task
from tests.factories import ClubFactory, PlayerFactory, UserFactory, organiser, referee
from tournaments import services as ts
from tournaments.trf.reader import parse_trf
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Entry, Match
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db

YEAR = timezone.localdate().year
CHILD_BORN = YEAR - 11  # U12 this year
SENIOR_BORN = YEAR - 55  # 50+ this year


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def staff():
    return UserFactory(username="federasyon", groups=[roles.STAFF])


@pytest.fixture
def ali_user():
    return UserFactory(username="ali-login", first_name="Ali", last_name="Yılmaz")


@pytest.fixture
def played(ali_user):
    """A rated one-round event: Ali (U12, linked to ``ali_user``) beat Ayşe (50+) 2–0."""
    org = organiser(username="orhan-login", first_name="Orhan", last_name="Organizatör")
    ref = referee(username="rana-login")
    club = ClubFactory(name="Ankara Mangala Kulübü", short_name="AMK", city="Ankara")
    ali = PlayerFactory(federation_id="TR-ALI", first_name="Ali", last_name="Yılmaz", birth_year=CHILD_BORN, sex="m",
                        rating=1600, club=club, city="Ankara", user=ali_user)
    ayse = PlayerFactory(federation_id="TR-AYSE", first_name="Ayşe", last_name="Kaya", birth_year=SENIOR_BORN, sex="f",
                         rating=1500, club=club, city="Ankara")
    t = ts.tournament_create(name="KVKK Kupası", rounds_total=1, created_by=org, slug="kvkk-kupasi")
    for p in (ali, ayse):
        entry_services.entry_add(tournament=t, player=p, user=org)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="kvkk")
    round_services.round_publish(round=rnd, user=org)
    m = rnd.matches.get(board=1)
    white_is_ali = m.white.player_id == ali.pk
    sets = [SetInput(30, 18), SetInput(26, 22)] if white_is_ali else [SetInput(18, 30), SetInput(22, 26)]
    result_services.match_result_enter(match=m, sets=sets, user=ref)
    round_services.round_close(round=rnd, user=org)
    ts.standings_publish(tournament=t, user=org)
    rate_tournament_task(t.pk)  # queued after the commit, which a test transaction never reaches
    return {"t": t, "org": org, "ali": ali, "ayse": ayse, "round": rnd}


def _api(user=None) -> APIClient:
    c = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        c.force_authenticate(user)
    return c


def _client(user=None) -> Client:
    c = Client(headers={"Accept-Language": "en"})
    if user is not None:
        c.force_login(user)
    return c


# --------------------------------------------------------------------------------------------
# B.1 age category instead of birth year and sex
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("age, group", [
    (8, "u10"), (10, "u10"), (11, "u12"), (12, "u12"), (13, "u14"), (16, "u16"), (17, "u18"), (20, "u20"),
    (21, "open"), (49, "open"), (50, "50plus"), (64, "50plus"), (65, "65plus"), (90, "65plus"),
])
def test_age_category_is_the_narrowest_rating_list_group(age, group):
    assert age_category(2026 - age, 2026) == group


def test_age_category_unknown_without_birth_year():
    assert age_category(None) is None


def test_public_player_api_shows_age_category_not_birth_year_or_sex(played, staff, ali_user):
    body = _api().get("/api/players/TR-ALI/").json()
    assert "birth_year" not in body and "sex" not in body
    assert body["age_category"] == "u12"
    listed = {p["federation_id"]: p for p in _api().get("/api/players/").json()["results"]}
    assert "birth_year" not in listed["TR-AYSE"] and "sex" not in listed["TR-AYSE"]
    assert listed["TR-AYSE"]["age_category"] == "50plus"
    # another logged-in user is the public too
    assert "birth_year" not in _api(UserFactory()).get("/api/players/TR-ALI/").json()
    # staff, and the player's own account, see them
    for user in (staff, ali_user):
        body = _api(user).get("/api/players/TR-ALI/").json()
        assert (body["birth_year"], body["sex"], body["age_category"]) == (CHILD_BORN, "m", "u12")
    listed = {p["federation_id"]: p for p in _api(staff).get("/api/players/").json()["results"]}
    assert (listed["TR-AYSE"]["birth_year"], listed["TR-AYSE"]["sex"]) == (SENIOR_BORN, "f")


def test_public_cannot_filter_or_order_players_by_sex_or_birth_year(played, staff):
    r = _api().get("/api/players/?sex=f")
    assert (r.status_code, r.json()["error"]["code"], r.json()["error"]["field"]) == (403, "permission_denied", "sex")
    r = _api().get("/api/players/?ordering=-birth_year")
    assert (r.status_code, r.json()["error"]["field"]) == (403, "ordering")
    assert _api().get("/api/players/?sex=x").status_code == 400  # still a bad value first
    assert [p["federation_id"] for p in _api(staff).get("/api/players/?sex=f").json()["results"]] == ["TR-AYSE"]
    assert _api(staff).get("/api/players/?ordering=birth_year").status_code == 200


def test_rating_list_api_public_and_staff(played, staff):
    rows = {r["federation_id"]: r for r in _api().get("/api/ratings/").json()["results"]}
    assert set(rows) == {"TR-ALI", "TR-AYSE"}
    assert "birth_year" not in rows["TR-ALI"] and "sex" not in rows["TR-ALI"]
    assert (rows["TR-ALI"]["age_category"], rows["TR-AYSE"]["age_category"]) == ("u12", "50plus")
    # the age group filter stays public (it is what the public sees), counted in this year only
    assert [r["federation_id"] for r in _api().get("/api/ratings/?age=u12").json()["results"]] == ["TR-ALI"]
    assert _api().get(f"/api/ratings/?age=u12&year={YEAR}").status_code == 200
    r = _api().get(f"/api/ratings/?age=u12&year={YEAR - 1}")
    assert (r.status_code, r.json()["error"]["field"]) == (403, "year")
    r = _api().get("/api/ratings/?sex=f")
    assert (r.status_code, r.json()["error"]["field"]) == (403, "sex")
    staff_rows = {r["federation_id"]: r for r in _api(staff).get("/api/ratings/?sex=f").json()["results"]}
    assert set(staff_rows) == {"TR-AYSE"}
    assert (staff_rows["TR-AYSE"]["birth_year"], staff_rows["TR-AYSE"]["sex"]) == (SENIOR_BORN, "f")
    assert _api(staff).get(f"/api/ratings/?age=u12&year={YEAR - 1}").status_code == 200


def test_tournament_entries_api_public_and_organiser(played):
    t, org = played["t"], played["org"]
    entries = {e["federation_id"]: e for e in _api().get(f"/api/tournaments/{t.slug}/").json()["entries"]}
    assert "birth_year" not in entries["TR-ALI"] and "sex" not in entries["TR-ALI"]
    assert (entries["TR-ALI"]["age_category"], entries["TR-AYSE"]["age_category"]) == ("u12", "50plus")
    entries = {e["federation_id"]: e for e in _api(org).get(f"/api/tournaments/{t.slug}/").json()["entries"]}
    assert (entries["TR-AYSE"]["birth_year"], entries["TR-AYSE"]["sex"]) == (SENIOR_BORN, "f")


def test_player_page_shows_age_group_and_hides_birth_year_from_the_public(played, staff, ali_user):
    html = _client().get("/players/TR-AYSE/").content.decode()
    assert "Age group" in html and "50+" in html
    assert "Birth year" not in html and f"<dd>{SENIOR_BORN}</dd>" not in html
    assert "female" not in html
    assert "my-data.json" not in html  # not her account
    for user in (staff,):
        html = _client(user).get("/players/TR-AYSE/").content.decode()
        assert f"<dd>{SENIOR_BORN}</dd>" in html and "female" in html
    html = _client(ali_user).get("/players/TR-ALI/").content.decode()
    assert f"<dd>{CHILD_BORN}</dd>" in html
    assert "/players/TR-ALI/my-data.json" in html


def test_player_list_page_sex_filter_is_for_staff(played, staff):
    r = _client().get("/players/?sex=f")
    names = [p.federation_id for p in r.context["page"]]
    assert set(names) == {"TR-ALI", "TR-AYSE"}  # ignored for the public
    assert 'name="sex"' not in r.content.decode()
    assert "U12" in r.content.decode()
    r = _client(staff).get("/players/?sex=f")
    assert [p.federation_id for p in r.context["page"]] == ["TR-AYSE"]
    assert 'name="sex"' in r.content.decode()


def test_rating_list_page_public_and_staff(played, staff):
    r = _client().get(f"/ratings/?sex=f&year={YEAR - 30}")
    html = r.content.decode()
    assert {line.player.federation_id for line in r.context["lines"]} == {"TR-ALI", "TR-AYSE"}
    assert r.context["f"]["year"] == YEAR
    assert "Birth year" not in html and str(SENIOR_BORN) not in html
    assert 'name="sex"' not in html
    assert "U12" in html and "50+" in html
    r = _client(staff).get("/ratings/?sex=f")
    html = r.content.decode()
    assert [line.player.federation_id for line in r.context["lines"]] == ["TR-AYSE"]
    assert "Birth year" in html and str(SENIOR_BORN) in html


def _trf_players(text: str) -> dict:
    return {p.name: p for p in parse_trf(text).players}


def test_public_trf_export_has_no_birth_dates_or_sex(played):
    t, org = played["t"], played["org"]
    public = _client().get(f"/t/{t.slug}/export.trf")
    assert public.status_code == 200
    players = _trf_players(public.content.decode())
    assert {(p.sex.strip(), p.birth_date.strip()) for p in players.values()} == {("", "")}
    own = _trf_players(_client(org).get(f"/t/{t.slug}/export.trf").content.decode())
    assert (own["Kaya, Ayşe"].sex, own["Kaya, Ayşe"].birth_date.strip()) == ("w", str(SENIOR_BORN))
    assert (own["Yılmaz, Ali"].sex, own["Yılmaz, Ali"].birth_date.strip()) == ("m", str(CHILD_BORN))


# --------------------------------------------------------------------------------------------
# B.2 display names, not user names
# --------------------------------------------------------------------------------------------


def test_display_name():
    assert display_name(UserFactory(username="u1", first_name="Eda", last_name="Şen")) == "Eda Şen"
    assert display_name(UserFactory(username="u2")) == "—"
    assert display_name(None) == "—"


def test_coin_toss_names_who_pressed_not_their_user_name(played):
    t = played["t"]
    toss = _api().get(f"/api/tournaments/{t.slug}/rounds/1/").json()["coin_toss"]
    assert toss["tossed_by"] == "Orhan Organizatör"
    html = _client().get(f"/t/{t.slug}/round/1/").content.decode()
    assert "Orhan Organizatör" in html
    assert "orhan-login" not in html


def test_user_without_a_name_is_a_dash(db):
    anonymous_org = organiser(username="isimsiz-login")
    t = ts.tournament_create(name="İsimsiz", rounds_total=1, created_by=anonymous_org, slug="isimsiz")
    for i in range(2):
        entry_services.entry_add(tournament=t, player=PlayerFactory(), user=anonymous_org)
    rnd = round_services.round_pair(tournament=t, user=anonymous_org, coin_seed="x")
    round_services.round_publish(round=rnd, user=anonymous_org)
    assert _api().get(f"/api/tournaments/{t.slug}/rounds/1/").json()["coin_toss"]["tossed_by"] == "—"
    assert "isimsiz-login" not in _client().get(f"/t/{t.slug}/round/1/").content.decode()


# --------------------------------------------------------------------------------------------
# B.3 my data; anonymising a player who left
# --------------------------------------------------------------------------------------------


def test_player_downloads_everything_stored_about_them(played, ali_user):
    assert RatingChange.objects.filter(player=played["ali"]).exists()
    r = _client(ali_user).get("/players/TR-ALI/my-data.json")
    assert r.status_code == 200
    assert r["Content-Type"].startswith("application/json")
    assert "attachment" in r["Content-Disposition"]
    data = json.loads(r.content)
    assert data["player"]["federation_id"] == "TR-ALI"
    assert (data["player"]["birth_year"], data["player"]["sex"], data["player"]["login"]) == (CHILD_BORN, "m",
                                                                                              "ali-login")
    assert [e["tournament"]["slug"] for e in data["entries"]] == ["kvkk-kupasi"]
    (result,) = data["results"]
    assert (result["tournament"], result["round"], result["points"]) == ("kvkk-kupasi", 1, 1.0)
    assert result["opponent"] == {"federation_id": "TR-AYSE", "name": "Kaya, Ayşe"}
    assert [(s["own_stones"], s["opponent_stones"]) for s in result["sets"]] == [(30, 18), (26, 22)]
    (event,) = data["rating"]["history"]
    assert event["tournament"] == "kvkk-kupasi" and event["rating_after"] > event["rating_before"]
    assert len(event["lines"]) == 2
    assert data["change_history"][0]["action"] in ("create", "+", "created")


def test_my_data_is_for_the_player_and_staff_only(played, staff):
    r = _client().get("/players/TR-ALI/my-data.json")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
    assert _client(UserFactory()).get("/players/TR-ALI/my-data.json").status_code == 403
    assert _client(played["org"]).get("/players/TR-ALI/my-data.json").status_code == 403
    r = _client(staff).get("/players/TR-AYSE/my-data.json")
    assert r.status_code == 200 and json.loads(r.content)["player"]["birth_year"] == SENIOR_BORN
    assert _client(staff).get("/players/NOBODY/my-data.json").status_code == 404


def test_anonymise_keeps_results_and_ratings_and_purges_the_history(played, staff, ali_user):
    ali, t = played["ali"], played["t"]
    services.player_update(player=ali, user=staff, reason="moved", city="İzmir", birth_year=CHILD_BORN - 1)
    ratings_before = list(RatingChange.objects.filter(player=ali).values_list("rating_before", "rating_after"))
    rating_now = Player.objects.get(pk=ali.pk).rating
    entry = Entry.objects.get(player=ali)
    from games.models import RecordImport

    imp = RecordImport.objects.create(text='[White "Yılmaz, Ali"]\n[Black "Kaya, Ayşe"]\n[White "Yılmaz, Alican"]\n')

    p = services.player_anonymise(player=ali, user=staff, reason="Left the federation, asked for erasure")

    assert (p.first_name, p.last_name, p.full_name) == ("", f"Anonim {ali.pk}", f"Anonim {ali.pk}")
    assert (p.birth_year, p.sex, p.city, p.user_id, p.active) == (None, "", "", None, False)
    assert (p.federation_id, p.club_id, p.rating) == ("TR-ALI", ali.club_id, rating_now)
    assert Entry.objects.get(pk=entry.pk).player_id == ali.pk
    assert Match.objects.filter(round__tournament=t, white__player=ali).exists() or \
        Match.objects.filter(round__tournament=t, black__player=ali).exists()
    assert list(RatingChange.objects.filter(player=ali).values_list("rating_before", "rating_after")) == ratings_before
    # the history keeps the action but none of the old values
    rows = list(Player.history.filter(id=ali.pk).order_by("history_date", "history_id"))
    assert rows[-1].audit_action == "player.anonymise"
    assert rows[-1].history_change_reason == "Left the federation, asked for erasure"
    assert rows[-1].history_user_id == staff.pk
    for row in rows:
        assert (row.first_name, row.last_name, row.birth_year, row.sex, row.city, row.user_id) == (
            "", f"Anonim {ali.pk}", None, "", "", None)
    imp.refresh_from_db()
    assert imp.text == f'[White "Anonim {ali.pk}"]\n[Black "Kaya, Ayşe"]\n[White "Yılmaz, Alican"]\n'
    # the public pages name the anonymised player only
    html = _client().get(f"/t/{t.slug}/round/1/").content.decode()
    assert f"Anonim {ali.pk}" in html and "Yılmaz" not in html


def test_anonymise_refusals(played, staff):
    ali = played["ali"]
    with pytest.raises(PermissionDenied):
        services.player_anonymise(player=ali, user=played["org"], reason="x")
    with pytest.raises(ValidationFailed) as exc:
        services.player_anonymise(player=ali, user=staff, reason="  ")
    assert exc.value.field == "reason"
    other = PlayerFactory(federation_id="TR-DUP")
    services.player_merge(keep=played["ayse"], merge=other, user=staff, reason="same person")
    with pytest.raises(Conflict):
        services.player_anonymise(player=Player.objects.get(pk=other.pk), user=staff, reason="x")
    # anonymising the survivor covers the merged record too
    services.player_anonymise(player=played["ayse"], user=staff, reason="left")
    merged = Player.objects.get(pk=other.pk)
    assert (merged.last_name, merged.birth_year) == (f"Anonim {other.pk}", None)


def test_anonymise_api(played, staff):
    url = "/api/players/TR-AYSE/anonymise/"
    assert _api().post(url, {"reason": "left"}, format="json").status_code == 401
    assert _api(played["org"]).post(url, {"reason": "left"}, format="json").status_code == 403
    r = _api(staff).post(url, {}, format="json")
    assert (r.status_code, r.json()["error"]["field"]) == (400, "reason")
    r = _api(staff).post(url, {"reason": "Left the federation"}, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    aysel = played["ayse"]
    assert (body["full_name"], body["birth_year"], body["sex"], body["city"], body["active"]) == (
        f"Anonim {aysel.pk}", None, "", "", False)
    assert _api(staff).post("/api/players/NOBODY/anonymise/", {"reason": "x"}, format="json").status_code == 404


def test_anonymise_button_on_the_player_page_for_staff(played, staff):
    assert "/players/TR-AYSE/anonymise/" not in _client().get("/players/TR-AYSE/").content.decode()
    c = _client(staff)
    html = c.get("/players/TR-AYSE/").content.decode()
    assert 'action="/players/TR-AYSE/anonymise/"' in html and "data-confirm=" in html
    r = c.post("/players/TR-AYSE/anonymise/", {"reason": "Left the federation"}, follow=True)
    assert r.status_code == 200
    assert f"Anonim {played['ayse'].pk}" in r.content.decode()
    assert "anonymised" in r.content.decode()  # the change history names the action
    # a referee or organiser cannot
    r = _client(played["org"]).post("/players/TR-ALI/anonymise/", {"reason": "x"})
    assert r.status_code == 403  # permission before validation (issue 23)
    assert Player.objects.get(federation_id="TR-ALI").last_name == "Yılmaz"
