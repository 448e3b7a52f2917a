"""Staff edit the member register: players and clubs (create, edit, deactivate/activate) and merging
two player records of the same person — services, REST API and pages, with the change history."""
from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from federation import roles, services
from federation.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from federation.models import Club, Player
from federation.pagecache import GenerationBump
from federation.privacy import age_category
from federation.selectors import club_change_history, player_change_history, player_resolve
from ratings.models import InitialRating, RatingChange, RatingGameLine
from ratings.tasks import rate_tournament_task
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory, UserFactory, organiser
from tournaments import services as ts
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Entry, Match
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """Messages are asserted in English (the msgids); Turkish translations are filled in separately."""
    with translation.override("en"):
        yield


@pytest.fixture
def client():
    """A browser asking for English pages."""
    return Client(headers={"Accept-Language": "en"})


@pytest.fixture
def staff():
    return UserFactory(username="federasyon", groups=[roles.STAFF])


@pytest.fixture
def club():
    return ClubFactory(name="Ankara Mangala Kulübü", short_name="AMK", city="Ankara")


@pytest.fixture
def player(club):
    return PlayerFactory(federation_id="TR100", last_name="Yılmaz", first_name="Ali", club=club, city="Ankara",
                         birth_year=1990, sex="m", rating=1600)


def _api(user=None) -> APIClient:
    c = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        c.force_authenticate(user)
    return c


def _refusal(exc_type, func, **kwargs):
    with pytest.raises(exc_type) as info:
        func(**kwargs)
    return info.value


# --------------------------------------------------------------------------------------------
# a rated one-round event of two players, played through the tournament services
# --------------------------------------------------------------------------------------------


def _rated_event(name: str, a: Player, b: Player, *, end: dt.date):
    """``a`` and ``b`` play one 3-set match (30–18, 20–28, 26–22 from white's side); the final standings
    are published and the event is rated. Returns the tournament."""
    org = organiser()
    t = ts.tournament_create(name=name, rounds_total=1, created_by=org, start_date=end, end_date=end)
    entry_services.entry_add(tournament=t, player=a)
    entry_services.entry_add(tournament=t, player=b)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="merge")
    round_services.round_publish(round=rnd, user=org)
    m = rnd.matches.get(kind=Match.Kind.GAME)
    result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(20, 28), SetInput(26, 22)], user=org)
    round_services.round_close(round=rnd, user=org)
    ts.standings_publish(tournament=t, user=org)
    rate_tournament_task(t.pk)
    return t


# --------------------------------------------------------------------------------------------
# services: players
# --------------------------------------------------------------------------------------------


def test_player_update_saves_the_fields_and_a_history_row_with_user_and_reason(staff, player):
    izmir = ClubFactory(name="İzmir Zeka Oyunları", short_name="IZO", city="İzmir")
    p = services.player_update(
        player=player, user=staff, reason="  Nüfus kaydına göre düzeltildi ",
        last_name=" Yılmazer ", first_name="Ali Can", club=izmir, city="İzmir", birth_year=1991, sex="m",
    )
    p.refresh_from_db()
    assert (p.last_name, p.first_name, p.club, p.city, p.birth_year, p.rating) == (
        "Yılmazer", "Ali Can", izmir, "İzmir", 1991, 1600,
    )
    row = p.history.order_by("-history_id").first()
    assert (row.history_type, row.audit_action, row.history_user, row.history_change_reason) == (
        "~", "player.edit", staff, "Nüfus kaydına göre düzeltildi",
    )
    changes = {c.field: (c.old, c.new) for c in row.diff_against(row.prev_record).changes}
    assert changes == {
        "last_name": ("Yılmaz", "Yılmazer"), "first_name": ("Ali", "Ali Can"), "club": (player.club_id, izmir.pk),
        "city": ("Ankara", "İzmir"), "birth_year": (1990, 1991),
    }
    # the page's reading of the same row
    newest = player_change_history(p)[0]
    assert (newest.user, newest.action, newest.reason) == (staff, "player.edit", "Nüfus kaydına göre düzeltildi")
    assert {(c.field, c.old, c.new) for c in newest.changes} == {
        ("last_name", "Yılmaz", "Yılmazer"), ("first_name", "Ali", "Ali Can"),
        ("club", "Ankara Mangala Kulübü", "İzmir Zeka Oyunları"), ("city", "Ankara", "İzmir"),
        ("birth_year", "1990", "1991"),
    }


def test_player_update_of_nothing_writes_no_history(staff, player):
    before = player.history.count()
    services.player_update(player=player, user=staff, last_name="Yılmaz", city=" Ankara ")
    assert player.history.count() == before


def test_player_update_changes_the_federation_id(staff, player):
    services.player_update(player=player, user=staff, federation_id="TR-0100")
    assert Player.objects.get(pk=player.pk).federation_id == "TR-0100"


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"rating": 2000}, "rating"),
        ({"first_name": "Al\x00i"}, "first_name"),
        ({"last_name": "Yıl\x07maz"}, "last_name"),
        ({"city": "Ankara\nİzmir"}, "city"),
        ({"last_name": "Y" * 61}, "last_name"),
        ({"first_name": "A" * 61}, "first_name"),
        ({"city": "C" * 61}, "city"),
        ({"last_name": "   "}, "last_name"),
        ({"federation_id": ""}, "federation_id"),
        ({"federation_id": "TR 100"}, "federation_id"),
        ({"federation_id": "TR/100"}, "federation_id"),
        ({"federation_id": "T" * 21}, "federation_id"),
        ({"birth_year": 1899}, "birth_year"),
        ({"birth_year": 2101}, "birth_year"),
        ({"birth_year": "1990"}, "birth_year"),
        ({"sex": "x"}, "sex"),
        ({"club": "AMK"}, "club"),
        ({"merged_into": None}, "merged_into"),
    ],
)
def test_player_update_refusals_name_the_field(staff, player, fields, field):
    PlayerFactory(federation_id="TR200")
    before = (Player.objects.filter(pk=player.pk).values().get(), player.history.count())
    exc = _refusal(ValidationFailed, services.player_update, player=player, user=staff, **fields)
    assert exc.field == field
    assert (Player.objects.filter(pk=player.pk).values().get(), player.history.count()) == before


def test_player_update_a_federation_id_in_use_is_a_conflict(staff, player):
    from federation.errors import Conflict

    PlayerFactory(federation_id="TR200")
    before = (Player.objects.filter(pk=player.pk).values().get(), player.history.count())
    exc = _refusal(Conflict, services.player_update, player=player, user=staff, federation_id="TR200")
    assert (exc.status, exc.field) == (409, "federation_id")
    assert (Player.objects.filter(pk=player.pk).values().get(), player.history.count()) == before


def test_player_update_refuses_a_deactivated_club_but_keeps_a_current_one(staff, player, club):
    old = ClubFactory(name="Eski Kulüp", active=False)
    exc = _refusal(ValidationFailed, services.player_update, player=player, user=staff, club=old)
    assert (exc.field, exc.message) == ("club", "Club Eski Kulüp is deactivated.")
    services.club_deactivate(club=club, user=staff)
    services.player_update(player=player, user=staff, club=club, city="Polatlı")  # unchanged club: fine
    assert Player.objects.get(pk=player.pk).city == "Polatlı"


def test_player_writes_are_for_staff_only(player):
    for user in (None, organiser(), UserFactory()):
        for func, kwargs in (
            (services.player_update, {"last_name": "X"}),
            (services.player_deactivate, {}),
            (services.player_activate, {}),
        ):
            _refusal(PermissionDenied, func, player=player, user=user, **kwargs)
        _refusal(PermissionDenied, services.player_merge, keep=PlayerFactory(), merge=player, user=user, reason="x")
    player.refresh_from_db()
    assert (player.last_name, player.active, player.merged_into) == ("Yılmaz", True, None)


def test_django_staff_flag_counts_as_staff(player):
    services.player_update(player=player, user=UserFactory(is_staff=True), city="Konya")
    assert Player.objects.get(pk=player.pk).city == "Konya"


def test_deactivate_and_activate_with_history(staff, player):
    services.player_deactivate(player=player, user=staff, reason="Lisans yenilenmedi")
    assert Player.objects.get(pk=player.pk).active is False
    services.player_deactivate(player=player, user=staff)  # already inactive: unchanged, no row
    services.player_activate(player=player, user=staff, reason="Lisans yenilendi")
    assert Player.objects.get(pk=player.pk).active is True
    rows = list(player.history.order_by("history_id").values_list("audit_action", "history_change_reason",
                                                                  "active", "history_user"))
    assert rows[-2:] == [
        ("player.deactivate", "Lisans yenilenmedi", False, staff.pk),
        ("player.activate", "Lisans yenilendi", True, staff.pk),
    ]


def test_player_register_refuses_control_characters_and_long_names(staff):
    exc = _refusal(ValidationFailed, services.player_register, user=staff, federation_id="TR9", first_name="",
                   last_name="A\x00")
    assert exc.field == "last_name"
    exc = _refusal(ValidationFailed, services.player_register, user=staff, federation_id="TR9", last_name="A",
                   first_name="B" * 61)
    assert exc.field == "first_name"
    exc = _refusal(ValidationFailed, services.player_register, user=staff, federation_id="TR 9", first_name="",
                   last_name="A")
    assert exc.field == "federation_id"
    p = services.player_register(user=staff, federation_id="TR9", first_name="", last_name="Kaya",
                                 reason="Yeni lisans")
    row = p.history.get()
    assert (row.audit_action, row.history_user, row.history_change_reason) == ("player.create", staff, "Yeni lisans")


# --------------------------------------------------------------------------------------------
# services: merging
# --------------------------------------------------------------------------------------------


def test_merge_moves_entries_and_rating_history(staff, django_capture_on_commit_callbacks):
    keep = PlayerFactory(federation_id="TR100", last_name="Şahin", first_name="Eda", rating=1600)
    merge = PlayerFactory(federation_id="TR200", last_name="Sahin", first_name="Eda", rating=1600)
    rival = PlayerFactory(federation_id="TR300", last_name="Koç", first_name="Can", rating=1500)
    t1 = _rated_event("Ocak Turnuvası", keep, rival, end=dt.date(2026, 1, 10))
    t2 = _rated_event("Şubat Turnuvası", merge, rival, end=dt.date(2026, 2, 10))
    merge_entry = Entry.objects.get(tournament=t2, player=merge)
    rival_t2 = RatingChange.objects.get(player=rival, event__tournament=t2)
    assert rival_t2.lines.filter(opponent=merge).count() == 3
    merge_t2_before = RatingChange.objects.get(player=merge, event__tournament=t2)
    assert merge_t2_before.rating_before == 1600.0

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services.player_merge(keep=keep, merge=merge, user=staff, reason="Aynı kişi, iki kez kaydedilmiş")
    # the full re-rating (the other callback moves the finished public pages of the two events on)
    assert len([c for c in callbacks if not isinstance(c, GenerationBump)]) == 1

    merge.refresh_from_db()
    keep.refresh_from_db()
    assert (merge.merged_into, merge.active, merge.rating) == (keep, False, 0)
    assert list(Entry.objects.filter(player=keep).order_by("tournament__end_date").values_list("tournament", flat=True)) == [t1.pk, t2.pk]
    assert not Entry.objects.filter(player=merge).exists()
    # the moved entry's history says who moved it and why
    moved = merge_entry.history.order_by("-history_id").first()
    assert (moved.player_id, moved.audit_action, moved.history_user, moved.history_change_reason) == (
        keep.pk, "player.merge", staff, "Aynı kişi, iki kez kaydedilmiş",
    )
    # keep's rating history holds both events, one after the other
    changes = list(RatingChange.objects.filter(player=keep).order_by("period"))
    assert [c.event.tournament_id for c in changes] == [t1.pk, t2.pk]
    assert changes[1].rating_before == pytest.approx(changes[0].rating_after)
    assert changes[1].rating_before != pytest.approx(1600.0)  # T2 now starts from keep's rating after T1
    assert keep.rating == int(changes[1].rating_after + 0.5)
    assert not RatingChange.objects.filter(player=merge).exists()
    assert not RatingGameLine.objects.filter(opponent=merge).exists()
    assert RatingChange.objects.get(player=rival, event__tournament=t2).lines.filter(opponent=keep).count() == 3
    assert not InitialRating.objects.filter(player=merge).exists()
    assert InitialRating.objects.get(player=keep).rating == 1600
    # the merge's own history row
    row = merge.history.order_by("-history_id").first()
    assert (row.audit_action, row.history_user, row.history_change_reason, row.merged_into_id, row.active) == (
        "player.merge", staff, "Aynı kişi, iki kez kaydedilmiş", keep.pk, False,
    )


def test_merge_moves_the_login_and_initial_rating_when_keep_has_none(staff):
    login = UserFactory(username="eda")
    keep = PlayerFactory(federation_id="TR100", rating=0)
    merge = PlayerFactory(federation_id="TR200", rating=1750, user=login)
    captured = InitialRating.objects.create(player=merge, rating=1750).captured_at
    services.player_merge(keep=keep, merge=merge, user=staff, reason="Aynı kişi")
    keep.refresh_from_db()
    merge.refresh_from_db()
    assert (keep.user, merge.user) == (login, None)
    ir = InitialRating.objects.get(player=keep)
    assert (ir.rating, ir.captured_at) == (1750, captured)
    assert not InitialRating.objects.filter(player=merge).exists()


def test_merge_leaves_the_login_when_keep_has_one(staff):
    keep = PlayerFactory(federation_id="TR100", user=UserFactory(username="a"))
    merge = PlayerFactory(federation_id="TR200", user=UserFactory(username="b"))
    InitialRating.objects.create(player=keep, rating=1500)
    InitialRating.objects.create(player=merge, rating=1700)
    services.player_merge(keep=keep, merge=merge, user=staff, reason="Aynı kişi")
    keep.refresh_from_db()
    assert keep.user.username == "a"
    assert list(InitialRating.objects.values_list("player_id", "rating")) == [(keep.pk, 1500)]


def test_merge_chain_points_earlier_records_to_keep(staff, client):
    a = PlayerFactory(federation_id="TR-A")
    b = PlayerFactory(federation_id="TR-B")
    x = PlayerFactory(federation_id="TR-X")
    services.player_merge(keep=b, merge=x, user=staff, reason="X = B")
    services.player_merge(keep=a, merge=b, user=staff, reason="B = A")
    x.refresh_from_db()
    b.refresh_from_db()
    assert (x.merged_into, b.merged_into) == (a, a)
    assert player_resolve("TR-X") == a
    assert player_resolve("TR-B") == a
    assert player_resolve("TR-A") == a
    assert x.history.order_by("-history_id").first().history_change_reason == "B = A"
    r = client.get("/players/TR-X/")
    assert (r.status_code, r["Location"]) == (301, "/players/TR-A/")
    # keep's page shows the history of the records merged into it
    client.force_login(staff)
    page = client.get("/players/TR-A/").content.decode()
    assert "TR-B, TR-X" in page and "X = B" in page and "B = A" in page


def test_player_resolve_unknown_id():
    with pytest.raises(NotFound):
        player_resolve("TR-NONE")


def test_merge_refused_when_both_played_in_one_tournament(staff):
    keep = PlayerFactory(federation_id="TR100")
    merge = PlayerFactory(federation_id="TR200")
    t = TournamentFactory(name="Mart Açık")
    EntryFactory(tournament=t, player=keep)
    EntryFactory(tournament=t, player=merge)
    EntryFactory(player=merge)
    exc = _refusal(Conflict, services.player_merge, keep=keep, merge=merge, user=staff, reason="Aynı kişi")
    assert exc.message == "TR100 and TR200 both played in Mart Açık: they cannot be the same person."
    assert Entry.objects.filter(player=merge).count() == 2
    merge.refresh_from_db()
    assert (merge.merged_into, merge.active) == (None, True)


def test_merge_refusals(staff):
    keep = PlayerFactory(federation_id="TR100")
    merge = PlayerFactory(federation_id="TR200")
    gone = PlayerFactory(federation_id="TR300")
    exc = _refusal(ValidationFailed, services.player_merge, keep=keep, merge=merge, user=staff, reason="  ")
    assert exc.field == "reason"
    exc = _refusal(ValidationFailed, services.player_merge, keep=keep, merge=merge, user=staff, reason="x" * 501)
    assert exc.field == "reason"
    exc = _refusal(Conflict, services.player_merge, keep=keep, merge=keep, user=staff, reason="Aynı")
    assert exc.message == "A record cannot be merged into itself."
    services.player_merge(keep=keep, merge=gone, user=staff, reason="Aynı kişi")
    exc = _refusal(Conflict, services.player_merge, keep=merge, merge=gone, user=staff, reason="Tekrar")
    assert exc.message == "TR300 was already merged into TR100."
    exc = _refusal(Conflict, services.player_merge, keep=gone, merge=merge, user=staff, reason="Tekrar")
    assert (exc.message, exc.field) == ("TR300 was already merged into TR100.", "into")
    # a merged record can be neither edited nor activated
    _refusal(Conflict, services.player_update, player=gone, user=staff, last_name="X")
    _refusal(Conflict, services.player_activate, player=gone, user=staff)
    assert Player.objects.get(pk=merge.pk).merged_into is None


# --------------------------------------------------------------------------------------------
# services: clubs
# --------------------------------------------------------------------------------------------


def test_club_create_update_deactivate_with_history(staff):
    c = services.club_create(user=staff, name=" Konya Mangala ", short_name="KMK", city="Konya", reason="Yeni üye")
    assert (c.name, c.short_name, c.city, c.active) == ("Konya Mangala", "KMK", "Konya", True)
    services.club_update(club=c, user=staff, reason="Adı değişti", name="Konya Mangala Kulübü")
    services.club_deactivate(club=c, user=staff, reason="Kapandı")
    c.refresh_from_db()
    assert (c.name, c.active) == ("Konya Mangala Kulübü", False)
    services.club_activate(club=c, user=staff)
    assert Club.objects.get(pk=c.pk).active is True
    rows = list(c.history.order_by("history_id").values_list("audit_action", "history_change_reason", "history_user"))
    assert rows == [
        ("club.create", "Yeni üye", staff.pk), ("club.edit", "Adı değişti", staff.pk),
        ("club.deactivate", "Kapandı", staff.pk), ("club.activate", None, staff.pk),
    ]
    newest_edit = club_change_history(c)[2]
    assert [(x.field, x.old, x.new) for x in newest_edit.changes] == [("name", "Konya Mangala", "Konya Mangala Kulübü")]


@pytest.mark.parametrize(
    "fields, field, status",
    [
        ({"name": "ankara mangala kulübü"}, "name", 409),  # taken (case-insensitive for ASCII): a conflict
        ({"name": ""}, "name", 400),
        ({"name": "N" * 121}, "name", 400),
        ({"short_name": "S" * 13}, "short_name", 400),
        ({"city": "Kon\x00ya"}, "city", 400),
        ({"active": False}, "active", 400),
    ],
)
def test_club_update_refusals_name_the_field(staff, club, fields, field, status):
    from federation.errors import ApplicationError

    other = ClubFactory(name="Konya Mangala")
    exc = _refusal(ApplicationError, services.club_update, club=other, user=staff, **fields)
    assert (exc.field, exc.status) == (field, status)
    assert Club.objects.get(pk=other.pk).name == "Konya Mangala"


def test_club_writes_are_for_staff_only(club):
    for user in (None, organiser()):
        _refusal(PermissionDenied, services.club_create, user=user, name="Yeni")
        _refusal(PermissionDenied, services.club_update, club=club, user=user, name="Yeni")
        _refusal(PermissionDenied, services.club_deactivate, club=club, user=user)
        _refusal(PermissionDenied, services.club_activate, club=club, user=user)
    assert list(Club.objects.values_list("name", "active")) == [("Ankara Mangala Kulübü", True)]


# --------------------------------------------------------------------------------------------
# API
# --------------------------------------------------------------------------------------------


def test_api_player_create(staff, club):
    body = {"federation_id": "TR500", "last_name": "Demir", "first_name": "Zeynep", "sex": "f",
            "birth_year": 2004, "club": club.pk, "rating": 1450}
    r = _api(staff).post("/api/players/", body, format="json")
    assert r.status_code == 201, r.content
    assert r.json() == {
        "federation_id": "TR500", "first_name": "Zeynep", "last_name": "Demir", "full_name": "Demir, Zeynep",
        "sex": "f", "birth_year": 2004, "age_category": age_category(2004),  # staff see the birth year and sex
        "club": {"id": club.pk, "name": "Ankara Mangala Kulübü", "short_name": "AMK", "city": "Ankara", "active": True},
        "city": "Ankara", "rating": 1450, "active": True, "merged_into": None,
    }
    assert _api().post("/api/players/", body, format="json").status_code == 401
    r = _api(organiser()).post("/api/players/", {**body, "federation_id": "TR501"}, format="json")
    assert r.status_code == 403
    r = _api(staff).post("/api/players/", body, format="json")
    assert (r.status_code, r.json()["error"]["field"]) == (409, "federation_id")
    r = _api(staff).post("/api/players/", {**body, "federation_id": "TR502", "birth_year": 1800}, format="json")
    assert (r.status_code, r.json()["error"]["field"]) == (400, "birth_year")
    r = _api(staff).post("/api/players/", {**body, "federation_id": "TR503", "club": 9999}, format="json")
    assert (r.status_code, r.json()["error"]["field"]) == (400, "club")
    assert Player.objects.filter(federation_id__startswith="TR50").count() == 1


def test_api_player_update(staff, player):
    r = _api(staff).patch("/api/players/TR100/", {"first_name": "Ali Rıza", "club": None, "reason": "Düzeltme"},
                          format="json")
    assert r.status_code == 200, r.content
    assert (r.json()["first_name"], r.json()["club"], r.json()["rating"]) == ("Ali Rıza", None, 1600)
    row = Player.objects.get(pk=player.pk).history.order_by("-history_id").first()
    assert (row.history_user, row.history_change_reason, row.first_name, row.club_id) == (
        staff, "Düzeltme", "Ali Rıza", None,
    )
    r = _api(staff).patch("/api/players/TR100/", {"federation_id": "TR-0100"}, format="json")
    assert (r.status_code, r.json()["federation_id"]) == (200, "TR-0100")


@pytest.mark.parametrize(
    "body, field, message",
    [
        ({"rating": 2100}, "rating", "The rating is set by the rating run, not by hand."),
        ({"first_name": "A" * 61}, "first_name", "Ensure this field has no more than 60 characters."),
        ({"first_name": "A\x00"}, "first_name", "Null characters are not allowed."),
        ({"last_name": "Yıl\x1bmaz"}, "last_name", "Last name contains a control character."),
        ({"birth_year": 1850}, "birth_year", "Ensure this value is greater than or equal to 1900."),
        ({"sex": "x"}, "sex", '"x" is not a valid choice.'),
        ({"nickname": "Ali"}, "nickname", "Unknown field."),
    ],
)
def test_api_player_update_400_names_the_field(staff, player, body, field, message):
    PlayerFactory(federation_id="TR200")
    r = _api(staff).patch("/api/players/TR100/", body, format="json")
    assert r.status_code == 400
    assert r.json() == {"error": {"code": "invalid", "message": message, "field": field}}


def test_api_player_update_409_for_a_federation_id_in_use(staff, player):
    """A federation id another player holds is a conflict with the stored state (409, naming the field)."""
    PlayerFactory(federation_id="TR200")
    r = _api(staff).patch("/api/players/TR100/", {"federation_id": "TR200"}, format="json")
    assert r.status_code == 409
    assert r.json() == {"error": {"code": "conflict", "message": "Federation id TR200 is already taken.",
                                  "field": "federation_id"}}
    assert Player.objects.get(pk=player.pk).federation_id == "TR100"


def test_api_player_update_401_403_404(player):
    assert _api().patch("/api/players/TR100/", {"city": "X"}, format="json").status_code == 401
    r = _api(organiser()).patch("/api/players/TR100/", {"city": "X"}, format="json")
    assert (r.status_code, r.json()["error"]["code"]) == (403, "permission_denied")
    r = _api(UserFactory(is_staff=True)).patch("/api/players/TR999/", {"city": "X"}, format="json")
    assert r.status_code == 404
    assert Player.objects.get(pk=player.pk).city == "Ankara"


def test_api_player_deactivate_activate_and_active_filter(staff, player):
    PlayerFactory(federation_id="TR200")
    r = _api(staff).post("/api/players/TR100/deactivate/", {"reason": "Lisans bitti"}, format="json")
    assert (r.status_code, r.json()["active"]) == (200, False)
    assert Player.objects.get(pk=player.pk).history.order_by("-history_id").first().history_change_reason == "Lisans bitti"
    ids = lambda q: [p["federation_id"] for p in _api().get(f"/api/players/{q}").json()["results"]]  # noqa: E731
    assert sorted(ids("")) == ["TR100", "TR200"]
    assert ids("?active=true") == ["TR200"]
    assert ids("?active=false") == ["TR100"]
    assert _api(organiser()).post("/api/players/TR100/activate/", {}, format="json").status_code == 403
    assert _api().post("/api/players/TR100/activate/", {}, format="json").status_code == 401
    r = _api(staff).post("/api/players/TR100/activate/", {}, format="json")
    assert (r.status_code, r.json()["active"]) == (200, True)


def test_api_player_merge_and_301(staff):
    keep = PlayerFactory(federation_id="TR100", last_name="Aydın")
    merge = PlayerFactory(federation_id="TR200")
    entry = EntryFactory(player=merge)
    r = _api(staff).post("/api/players/TR200/merge/", {"into": "TR100"}, format="json")
    assert (r.status_code, r.json()["error"]["field"]) == (400, "reason")
    r = _api(staff).post("/api/players/TR200/merge/", {"into": "TR999", "reason": "x"}, format="json")
    assert (r.status_code, r.json()["error"]["field"]) == (400, "into")
    r = _api(staff).post("/api/players/TR200/merge/", {"into": "TR200", "reason": "x"}, format="json")
    assert r.status_code == 409
    assert _api(organiser()).post("/api/players/TR200/merge/", {"into": "TR100", "reason": "x"},
                                  format="json").status_code == 403
    assert _api().post("/api/players/TR200/merge/", {"into": "TR100", "reason": "x"}, format="json").status_code == 401

    r = _api(staff).post("/api/players/TR200/merge/", {"into": "TR100", "reason": "Aynı kişi"}, format="json")
    assert r.status_code == 200, r.content
    assert (r.json()["federation_id"], r.json()["last_name"]) == ("TR100", "Aydın")
    assert Entry.objects.get(pk=entry.pk).player == keep

    r = _api().get("/api/players/TR200/")
    assert r.status_code == 301
    assert r["Location"] == "http://testserver/api/players/TR100/"
    listed = {p["federation_id"]: p for p in _api().get("/api/players/").json()["results"]}
    assert (listed["TR200"]["merged_into"], listed["TR200"]["active"]) == ("TR100", False)
    r = _api(staff).post("/api/players/TR200/merge/", {"into": "TR100", "reason": "again"}, format="json")
    assert (r.status_code, r.json()["error"]["message"]) == (409, "TR200 was already merged into TR100.")


def test_api_merge_conflict_when_both_played_in_one_tournament(staff):
    keep = PlayerFactory(federation_id="TR100")
    merge = PlayerFactory(federation_id="TR200")
    t = TournamentFactory(name="Nisan Açık")
    EntryFactory(tournament=t, player=keep)
    EntryFactory(tournament=t, player=merge)
    r = _api(staff).post("/api/players/TR200/merge/", {"into": "TR100", "reason": "Aynı kişi"}, format="json")
    assert r.status_code == 409
    assert r.json()["error"] == {"code": "conflict", "field": "into",
                                 "message": "TR100 and TR200 both played in Nisan Açık: they cannot be the same person."}


def test_api_clubs(staff, club):
    r = _api(staff).post("/api/clubs/", {"name": "Bursa Mangala", "short_name": "BMK", "city": "Bursa"}, format="json")
    assert r.status_code == 201, r.content
    new_id = r.json()["id"]
    assert r.json() == {"id": new_id, "name": "Bursa Mangala", "short_name": "BMK", "city": "Bursa", "active": True}
    r = _api(staff).post("/api/clubs/", {"name": "Ankara Mangala Kulübü"}, format="json")
    assert (r.status_code, r.json()["error"]["field"]) == (409, "name")  # a name in use: a conflict
    r = _api(staff).post("/api/clubs/", {"name": "X", "short_name": "S" * 13}, format="json")
    assert (r.status_code, r.json()["error"]["field"]) == (400, "short_name")
    assert _api().post("/api/clubs/", {"name": "Y"}, format="json").status_code == 401
    assert _api(organiser()).post("/api/clubs/", {"name": "Y"}, format="json").status_code == 403

    r = _api(staff).patch(f"/api/clubs/{new_id}/", {"name": "Bursa Mangala Kulübü", "reason": "Tüzük"}, format="json")
    assert (r.status_code, r.json()["name"]) == (200, "Bursa Mangala Kulübü")
    assert _api(organiser()).patch(f"/api/clubs/{new_id}/", {"name": "Z"}, format="json").status_code == 403
    assert _api(staff).patch("/api/clubs/99999/", {"name": "Z"}, format="json").status_code == 404
    r = _api(staff).post(f"/api/clubs/{new_id}/deactivate/", {"reason": "Kapandı"}, format="json")
    assert (r.status_code, r.json()["active"]) == (200, False)
    assert [c["name"] for c in _api().get("/api/clubs/?active=true").json()["results"]] == ["Ankara Mangala Kulübü"]
    r = _api(staff).post(f"/api/clubs/{new_id}/activate/", {}, format="json")
    assert (r.status_code, r.json()["active"]) == (200, True)
    assert _api().get(f"/api/clubs/{new_id}/").json()["name"] == "Bursa Mangala Kulübü"
    assert list(Club.objects.get(pk=new_id).history.order_by("history_id").values_list("audit_action", flat=True)) == [
        "club.create", "club.edit", "club.deactivate", "club.activate",
    ]


def test_schema_names_the_write_operations():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    ops = {op["operationId"] for item in schema["paths"].values() for op in item.values() if isinstance(op, dict)}
    assert {
        "players_create", "players_update", "players_deactivate", "players_activate", "players_merge",
        "clubs_create", "clubs_retrieve", "clubs_update", "clubs_deactivate", "clubs_activate",
    } <= ops
    body = schema["components"]["schemas"]["PatchedPlayerUpdateInputRequest"]["properties"]
    assert body["last_name"]["maxLength"] == 60 and body["birth_year"]["minimum"] == 1900


# --------------------------------------------------------------------------------------------
# pages
# --------------------------------------------------------------------------------------------


def test_staff_edits_a_player_and_the_history_shows_it(client, staff, player):
    client.force_login(staff)
    page = client.get("/players/TR100/").content.decode()
    assert 'href="/players/TR100/edit/"' in page
    assert client.get("/players/TR100/edit/").status_code == 200
    r = client.post("/players/TR100/edit/", {
        "federation_id": "TR100", "last_name": "Yılmazoğlu", "first_name": "Ali", "sex": "m", "birth_year": "1990",
        "club": str(player.club_id), "city": "Ankara", "reason": "Soyadı değişikliği (evlilik)",
    })
    assert (r.status_code, r["Location"]) == (302, "/players/TR100/")
    assert Player.objects.get(pk=player.pk).last_name == "Yılmazoğlu"
    page = client.get("/players/TR100/").content.decode()
    assert "Soyadı değişikliği (evlilik)" in page
    assert "Yılmaz → Yılmazoğlu" in page
    assert "<td>federasyon</td>" in page  # who


def test_edit_page_shows_the_service_refusal_on_its_field(client, staff, player):
    PlayerFactory(federation_id="TR200")
    client.force_login(staff)
    r = client.post("/players/TR100/edit/", {
        "federation_id": "TR200", "last_name": "Yılmaz", "first_name": "Ali\x07", "sex": "m", "city": "Ankara",
    })
    assert r.status_code == 200
    errors = r.context["form"].errors
    assert list(errors) == ["first_name"] and "control character" in errors["first_name"][0].lower()
    assert Player.objects.get(pk=player.pk).federation_id == "TR100"
    r = client.post("/players/TR100/edit/", {"federation_id": "TR200", "last_name": "Yılmaz", "first_name": "Ali"})
    assert r.context["form"].errors == {"federation_id": ["Federation id TR200 is already taken."]}


def test_non_staff_are_turned_away_from_edit_pages(client, player, club):
    assert client.get("/players/TR100/edit/")["Location"].startswith("/accounts/login/")
    client.force_login(organiser())
    r = client.get("/players/TR100/edit/")
    assert r.status_code == 403  # the 403 page with the reason (issue 23: permission before validation)
    assert "Only federation staff can change players and clubs." in r.content.decode()
    assert 'href="/players/TR100/edit/"' not in client.get("/players/TR100/").content.decode()
    assert client.post("/players/TR100/deactivate/").status_code == 403
    assert client.get("/clubs/new/").status_code == 403
    assert client.get(f"/clubs/{club.pk}/edit/").status_code == 403
    assert Player.objects.get(pk=player.pk).active is True


def test_merged_id_redirects_to_the_surviving_player(client, staff):
    PlayerFactory(federation_id="TR100")
    merge = PlayerFactory(federation_id="TR200")
    services.player_merge(keep=Player.objects.get(federation_id="TR100"), merge=merge, user=staff, reason="Aynı")
    r = client.get("/players/TR200/")
    assert (r.status_code, r["Location"]) == (301, "/players/TR100/")


def test_merge_through_the_page_needs_the_confirmation(client, staff):
    keep = PlayerFactory(federation_id="TR100")
    PlayerFactory(federation_id="TR200")
    client.force_login(staff)
    r = client.post("/players/TR200/merge/", {"into": "TR100", "reason": "Aynı kişi"})
    assert r.status_code == 400
    assert "confirm" in r.context["merge_form"].errors
    assert Player.objects.get(federation_id="TR200").merged_into is None
    r = client.post("/players/TR200/merge/", {"into": "TR100", "reason": "Aynı kişi", "confirm": "on"})
    assert (r.status_code, r["Location"]) == (302, "/players/TR100/")
    assert Player.objects.get(federation_id="TR200").merged_into == keep


def test_deactivate_from_the_page_and_the_list_hides_inactive(client, staff, player):
    PlayerFactory(federation_id="TR200", last_name="Aktif")
    client.force_login(staff)
    r = client.post("/players/TR100/deactivate/", {"reason": "Emekli"})
    assert r["Location"] == "/players/TR100/"
    assert Player.objects.get(pk=player.pk).active is False
    listed = [p.federation_id for p in client.get("/players/").context["page"]]
    assert listed == ["TR200"]
    listed = [p.federation_id for p in client.get("/players/?all=1").context["page"]]
    assert sorted(listed) == ["TR100", "TR200"]
    client.post("/players/TR100/activate/")
    assert Player.objects.get(pk=player.pk).active is True


def test_club_pages(client, staff, club):
    PlayerFactory(federation_id="TR100", club=club, last_name="Kulüplü")
    page = client.get("/clubs/").content.decode()
    assert "Ankara Mangala Kulübü" in page and 'href="/clubs/new/"' not in page
    client.force_login(staff)
    assert 'href="/clubs/new/"' in client.get("/clubs/").content.decode()
    r = client.post("/clubs/new/", {"name": "Eskişehir Mangala", "short_name": "EMK", "city": "Eskişehir",
                                    "reason": "Yeni üye kulüp"})
    new = Club.objects.get(name="Eskişehir Mangala")
    assert r["Location"] == f"/clubs/{new.pk}/"
    r = client.post("/clubs/new/", {"name": "eskişehir mangala"})
    assert r.context["form"].errors == {"name": ["There is already a club named eskişehir mangala."]}
    r = client.post(f"/clubs/{new.pk}/edit/", {"name": "Eskişehir Mangala Kulübü", "short_name": "EMK",
                                               "city": "Eskişehir", "reason": "Tam adı"})
    assert r["Location"] == f"/clubs/{new.pk}/"
    client.post(f"/clubs/{new.pk}/deactivate/", {"reason": "Faaliyet yok"})
    assert [c.name for c in client.get("/clubs/").context["clubs"]] == ["Ankara Mangala Kulübü"]
    assert [c.name for c in client.get("/clubs/?all=1").context["clubs"]] == [
        "Ankara Mangala Kulübü", "Eskişehir Mangala Kulübü",
    ]
    page = client.get(f"/clubs/{new.pk}/").content.decode()
    assert "Eskişehir Mangala → Eskişehir Mangala Kulübü" in page and "Faaliyet yok" in page and "Tam adı" in page
    # a deactivated club is not offered on a player's edit page
    choices = [str(c) for c in client.get("/players/TR100/edit/").context["form"].fields["club"].queryset]
    assert choices == ["Ankara Mangala Kulübü"]
    assert "Kulüplü" in client.get(f"/clubs/{club.pk}/").content.decode()
    assert reverse("club-detail", args=[club.pk]) == f"/clubs/{club.pk}/"
