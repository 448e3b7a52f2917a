"""The Django admin: every model of federation, tournaments, games and ratings is registered and its
pages answer; the search folds Turkish case; results and rating runs are view only; history pages
show admin edits with their user; list pages do not grow queries with their rows."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from simple_history.admin import SimpleHistoryAdmin

from federation.collation import turkish_case_variants, turkish_title, turkish_upper
from federation.models import Club, Player
from games.models import RecordImport
from ratings.models import (
    InitialRating,
    RatingChange,
    RatingEvent,
    RatingGameLine,
    RatingList,
    RatingListEntry,
    RatingParameterSet,
)
from tests.factories import ClubFactory, EntryFactory, PlayerFactory, TournamentFactory, TournamentRoleFactory
from tournaments.models import (
    Absence, CoinToss, Entry, ForbiddenPair, Lot, Match, PairingChange, Round, SetResult, Tournament, TournamentRole,
    TrfImport,
)

APPS = ("federation", "tournaments", "games", "ratings")
REGISTERED = sorted(m._meta.label for m in admin.site._registry if m._meta.app_label in APPS)


def _url(model, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.fixture
def superuser(db):
    return get_user_model().objects.create_superuser("federasyon", "federasyon@example.org", "pw")


@pytest.fixture
def su_client(client, superuser):
    client.force_login(superuser)
    return client


@pytest.fixture
def world(superuser):
    """A row of every registered model: a club, players, a rated tournament with a closed round (coin
    toss, a played match with sets, a forfeit), a bye requested ahead, a pairing change, the rating
    run's rows, a record import, an event with its registration, a category with a prize, two teams and
    their team match."""
    now = timezone.now()
    club = ClubFactory(name="Ankara Mangala Kulübü", city="Ankara")
    players = [PlayerFactory(club=club, last_name=name, first_name="Ayşe") for name in ("Çelik", "Öztürk", "Şahin", "Güneş")]
    t = TournamentFactory(name="Yönetim Test Turnuvası", status=Tournament.Status.RUNNING, start_date=dt.date(2026, 1, 10),
                          created_by=superuser)
    e = [EntryFactory(tournament=t, player=p) for p in players]
    TournamentRoleFactory(tournament=t, user=superuser, role=TournamentRole.Role.ORGANISER)
    r1 = Round.objects.create(tournament=t, number=1, status=Round.Status.CLOSED, paired_at=now, published_at=now,
                              closed_at=now)
    CoinToss.objects.create(round=r1, seed="yonetim", outcome="w", tossed_at=now, tossed_by=superuser)
    Lot.objects.create(tournament=t, purpose=Lot.Purpose.COIN_TOSS, context="coin toss, round 1", rule="coin",
                       commitment="0" * 64, secret="yonetim", committed_at=now)
    m1 = Match.objects.create(round=r1, board=1, white=e[0], black=e[1], white_points=Decimal("1"),
                              black_points=Decimal("0"), result_entered_at=now, result_entered_by=superuser)
    s1 = SetResult.objects.create(match=m1, number=1, starter="white", white_stones=30, black_stones=18)
    SetResult.objects.create(match=m1, number=2, starter="black", white_stones=26, black_stones=22)
    Match.objects.create(round=r1, board=2, white=e[2], black=e[3], forfeit=Match.Forfeit.BLACK,
                         white_points=Decimal("1"), black_points=Decimal("0"))
    Absence.objects.create(entry=e[3], round_number=2, kind=Absence.Kind.HALF, created_by=superuser)
    ForbiddenPair.objects.create(tournament=t, first=e[0], second=e[2], first_round=2, reason="kardeşler",
                                 created_by=superuser)
    PairingChange.objects.create(round=r1, user=superuser, reason="Aynı kulüp", before={"1": [1, 2]}, after={"1": [1, 3]})
    event = RatingEvent.objects.create(tournament=t, period=dt.date(2026, 1, 10), rated_at=now, rated_sets=2, players=2)
    change = RatingChange.objects.create(
        event=event, player=players[0], period=event.period, rating_before=1500.0, rating_after=1510.5,
        status_before="established", status_after="established", sets=2,
    )
    RatingGameLine.objects.create(change=change, set_result=s1, opponent=players[1], opponent_rating=1500.0,
                                  score=Decimal("1"), result_score=0.8, margin=6, expected=0.5, delta=5.25)
    InitialRating.objects.create(player=players[0], rating=1500)
    RatingParameterSet.objects.create(label="Ayar 2026", system="margin_glicko2", params={"tau": 0.9})
    from ratings.lists.services import rating_list_publish  # an official rating list and its lines

    rating_list_publish(published_on=dt.date(2026, 1, 31), user=superuser, title="Ocak 2026")
    RecordImport.objects.create(created_by=superuser, status=RecordImport.Status.DONE, total=1, done=1, stored=1,
                                text="1. ...", source="kayitlar.txt")
    TrfImport.objects.create(created_by=superuser, status=TrfImport.Status.DONE, progress=100, players=4, cells=4,
                             source="yonetim.trf", data=b"001    1", tournament=t)
    from tournaments.models import Event, EventRegistration  # a multi-section event, t its section

    event = Event.objects.create(slug="yonetim-etkinligi", name="Yönetim Etkinliği", start_date=dt.date(2026, 1, 10),
                                 created_by=superuser)
    Tournament.objects.filter(pk=t.pk).update(event=event, section_birth_year_min=1990)
    EventRegistration.objects.create(event=event, player=players[0], section=t)
    from tournaments.models import Category, Prize  # a category ranking and its prize

    u12 = Category.objects.create(tournament=t, code="U12", name="12 Yaş Altı", kind=Category.Kind.AGE, max_age=12)
    Prize.objects.create(tournament=t, category=u12, place=1, label="Kupa", value=Decimal("100"))
    from tournaments.models import Team, TeamMatch, TeamMember  # two teams meeting in round 1

    team_a = Team.objects.create(tournament=t, name="Atatürk Ortaokulu", seed_no=1)
    team_b = Team.objects.create(tournament=t, name="Barbaros Ortaokulu", seed_no=2)
    TeamMember.objects.create(team=team_a, entry=e[0], board=1)
    TeamMember.objects.create(team=team_b, entry=e[1], board=1)
    TeamMatch.objects.create(round=r1, number=1, white_team=team_a, black_team=team_b)
    return t


# --- registration ---------------------------------------------------------------------------------


def test_every_model_of_the_four_apps_is_registered_and_no_historical_model():
    models = [m for app in APPS for m in apps.get_app_config(app).get_models()]
    historical = [m for m in models if m.__name__.startswith("Historical")]
    own = [m for m in models if m not in historical]
    assert historical, "the history tables exist"
    assert not [m._meta.label for m in own if m not in admin.site._registry]
    assert not [m._meta.label for m in historical if m in admin.site._registry]
    for model in own:
        model_admin = admin.site._registry[model]
        assert isinstance(model_admin, SimpleHistoryAdmin) == hasattr(model, "history"), model._meta.label
        assert model_admin.search_fields, model._meta.label


def test_site_header_is_the_federation(su_client):
    r = su_client.get(reverse("admin:index"))
    assert r.status_code == 200
    assert "Mangala Federasyonu" in r.content.decode()
    for app in APPS:
        assert f"/admin/{app}/" in r.content.decode()


@pytest.mark.parametrize("label", REGISTERED)
def test_changelist_change_and_add_pages_answer(label, su_client, world, rf, superuser):
    model = apps.get_model(label)
    model_admin = admin.site._registry[model]
    r = su_client.get(_url(model, "changelist"))
    assert r.status_code == 200, label
    assert r.context["cl"].result_count >= 1, label
    assert r.context["cl"].result_count == model._default_manager.count()

    obj = model._default_manager.first()
    r = su_client.get(_url(model, "change", obj.pk))
    assert r.status_code == 200, label

    r = su_client.get(_url(model, "changelist"), {"q": "a"})
    assert r.status_code == 200, label

    request = rf.get("/")
    request.user = superuser
    if model_admin.has_add_permission(request):
        assert su_client.get(_url(model, "add")).status_code == 200, label
    else:
        assert su_client.get(_url(model, "add")).status_code == 403, label
    if hasattr(model, "history"):
        assert su_client.get(_url(model, "history", obj.pk)).status_code == 200, label


# --- Turkish search -------------------------------------------------------------------------------


def test_turkish_case_variants():
    assert turkish_upper("ışık inci") == "IŞIK İNCİ"
    assert turkish_title("IŞIK İNCİ") == "Işık İnci"
    assert turkish_case_variants("ışık") == ["ışık", "IŞIK", "Işık"]
    assert turkish_case_variants("inci") == ["inci", "İNCİ", "İnci"]


def _found(client, model, term) -> list:
    r = client.get(_url(model, "changelist"), {"q": term})
    assert r.status_code == 200
    return list(r.context["cl"].result_list)


def test_player_search_folds_turkish_case(su_client):
    isik = PlayerFactory(last_name="IŞIK", first_name="İnci", federation_id="TR-IŞIK")
    ince = PlayerFactory(last_name="İnce", first_name="Ilgaz")
    PlayerFactory(last_name="Yılmaz", first_name="Ali")

    assert _found(su_client, Player, "ışık") == [isik]
    assert _found(su_client, Player, "Işık") == [isik]
    assert _found(su_client, Player, "inci") == [isik]
    assert _found(su_client, Player, "ışık inci") == [isik]  # every word must match
    assert _found(su_client, Player, '"IŞIK"') == [isik]
    assert _found(su_client, Player, "ince") == [ince]
    assert _found(su_client, Player, "ılgaz") == [ince]
    assert _found(su_client, Player, "ışık ali") == []


def test_search_through_relations_and_autocomplete_fold_turkish_case(su_client):
    club = ClubFactory(name="IĞDIR Mangala Kulübü", city="Iğdır")
    player = PlayerFactory(last_name="Işık", first_name="İnci", club=club)
    entry = EntryFactory(player=player)
    EntryFactory(tournament=entry.tournament)

    assert _found(su_client, Club, "ığdır") == [club]
    assert _found(su_client, Player, "ığdır mangala") == [player]  # club name
    assert _found(su_client, Entry, "IŞIK") == [entry]

    r = su_client.get(reverse("admin:autocomplete"), {
        "app_label": "tournaments", "model_name": "absence", "field_name": "entry", "term": "ışık",
    })
    assert r.status_code == 200
    assert [row["id"] for row in r.json()["results"]] == [str(entry.pk)]


# --- read-only records ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "model", [RatingEvent, RatingChange, RatingGameLine, InitialRating, RatingList, RatingListEntry, RatingParameterSet]
)
def test_rating_models_are_view_only(model, su_client, world):
    obj = model._default_manager.first()
    r = su_client.get(_url(model, "change", obj.pk))
    assert r.status_code == 200
    assert not r.context["has_change_permission"]
    assert not r.context["has_delete_permission"]
    assert 'name="_save"' not in r.content.decode()
    assert su_client.post(_url(model, "change", obj.pk), {}).status_code == 403
    assert su_client.get(_url(model, "add")).status_code == 403
    assert su_client.post(_url(model, "delete", obj.pk), {"post": "yes"}).status_code == 403
    assert model._default_manager.filter(pk=obj.pk).exists()


@pytest.mark.parametrize("model", [Match, SetResult, CoinToss, Lot, PairingChange, RecordImport])
def test_records_and_results_are_view_only(model, su_client, world):
    obj = model._default_manager.first()
    r = su_client.get(_url(model, "change", obj.pk))
    assert r.status_code == 200
    assert not r.context["has_change_permission"]
    assert 'name="_save"' not in r.content.decode()
    assert su_client.post(_url(model, "change", obj.pk), {}).status_code == 403
    assert su_client.get(_url(model, "add")).status_code == 403


def test_match_view_page_shows_its_sets(su_client, world):
    match = Match.objects.get(round__tournament=world, board=1)
    r = su_client.get(_url(Match, "change", match.pk))
    body = r.content.decode()
    assert r.context["inline_admin_formsets"]
    assert "30" in body and "18" in body and "26" in body


def test_audit_fields_are_read_only():
    def ro(model):
        return set(admin.site._registry[model].readonly_fields)

    assert {"created_at", "created_by", "version", "standings_published_at", "archived_at"} <= ro(Tournament)
    assert {"paired_at", "published_at", "closed_at"} <= ro(Round)
    assert {"rating", "merged_into"} <= ro(Player)
    assert {"created_at", "created_by"} <= ro(Absence)


def test_rated_tournament_and_round_with_results_cannot_be_deleted_here(su_client, world):
    assert su_client.get(_url(Tournament, "delete", world.pk)).status_code == 403
    rnd = world.rounds.get(number=1)
    assert su_client.get(_url(Round, "delete", rnd.pk)).status_code == 403
    r = su_client.get(_url(Tournament, "changelist"))
    assert "delete_selected" not in r.content.decode()


# --- edits through the admin ----------------------------------------------------------------------


def test_player_history_page_lists_an_admin_change_with_its_user(su_client, superuser):
    club = ClubFactory(name="Bursa Mangala Kulübü")
    player = PlayerFactory(last_name="Yıldız", first_name="Can", federation_id="TR-HIST", rating=1712, club=club)
    r = su_client.post(_url(Player, "change", player.pk), {
        "federation_id": "TR-HIST", "last_name": "Yıldırım", "first_name": "Can", "sex": "m", "birth_year": "1999",
        "club": club.pk, "city": "Bursa", "user": "", "active": "on",
    })
    assert r.status_code == 302, r.context["adminform"].form.errors if r.context else r
    player.refresh_from_db()
    assert player.last_name == "Yıldırım"
    assert player.rating == 1712  # read-only: not in the form, not touched

    last = player.history.latest("history_date")
    assert last.history_type == "~"
    assert last.history_user == superuser
    assert last.audit_action == "edit"

    r = su_client.get(_url(Player, "history", player.pk))
    assert r.status_code == 200
    body = r.content.decode()
    assert "federasyon" in body  # the user who changed it
    assert "Yıldırım" in body and "Yıldız" in body  # after and before
    # the revert page of the old version answers
    first = player.history.earliest("history_date")
    assert su_client.get(reverse("admin:federation_player_simple_history", args=[player.pk, first.pk])).status_code == 200


def test_tournament_added_here_records_its_creator_and_an_edit_bumps_its_version(su_client, superuser):
    r = su_client.post(_url(Tournament, "add"), {
        "name": "Yönetimden Turnuva", "slug": "yonetimden-turnuva", "status": "draft", "system": "swiss",
        "rounds_total": "5", "sets_per_match": "3", "variant": "federation", "tiebreaks": '["buchholz"]',
        "bye_points": "1.0", "acceleration": "none", "tiebreak_rules": "auto", "second_cycle_swap": "on",
    })
    assert r.status_code == 302, r.context["adminform"].form.errors if r.context else r
    t = Tournament.objects.get(slug="yonetimden-turnuva")
    assert t.created_by == superuser
    assert t.version == 1

    r = su_client.post(_url(Tournament, "change", t.pk), {
        "name": "Yönetimden Turnuva 2026", "status": "draft", "system": "swiss", "rounds_total": "5",
        "sets_per_match": "3", "variant": "federation", "tiebreaks": '["buchholz"]', "bye_points": "1.0",
        "acceleration": "none", "tiebreak_rules": "2023", "second_cycle_swap": "on",
    })
    assert r.status_code == 302, r.context["adminform"].form.errors if r.context else r
    t.refresh_from_db()
    assert t.name == "Yönetimden Turnuva 2026"
    assert t.slug == "yonetimden-turnuva"  # read-only once created
    assert t.tiebreak_rules == "2023"
    assert t.version == 2  # cached PDFs keyed on the version are built again

    entry = EntryFactory(tournament=t)
    r = su_client.post(_url(Absence, "add"), {"entry": entry.pk, "round_number": "2", "kind": "half"})
    assert r.status_code == 302, r.context["adminform"].form.errors if r.context else r
    assert Absence.objects.get(entry=entry).created_by == superuser
    t.refresh_from_db()
    assert t.version == 3


# --- queries --------------------------------------------------------------------------------------


def _changelist_queries(client, model) -> int:
    with CaptureQueriesContext(connection) as ctx:
        r = client.get(_url(model, "changelist"))
    assert r.status_code == 200
    return len(ctx.captured_queries)


def test_player_changelist_queries_do_not_grow_with_rows(su_client, django_assert_max_num_queries):
    PlayerFactory(club=ClubFactory())
    few = _changelist_queries(su_client, Player)
    for _ in range(29):
        merged_into = Player.objects.first()
        PlayerFactory(club=ClubFactory(), merged_into=merged_into)
    with django_assert_max_num_queries(15):
        r = su_client.get(_url(Player, "changelist"))
    assert r.context["cl"].result_count == 30
    assert _changelist_queries(su_client, Player) == few


def _matches(n: int, user) -> Tournament:
    t = TournamentFactory()
    rnd = Round.objects.create(tournament=t, number=1, status=Round.Status.PUBLISHED)
    now = timezone.now()
    for board in range(1, n + 1):
        white, black = EntryFactory(tournament=t), EntryFactory(tournament=t)
        Match.objects.create(round=rnd, board=board, white=white, black=black, white_points=Decimal("0.5"),
                             black_points=Decimal("0.5"), result_entered_at=now, result_entered_by=user)
    return t


def test_match_changelist_queries_do_not_grow_with_rows(su_client, superuser, django_assert_max_num_queries):
    _matches(1, superuser)
    few = _changelist_queries(su_client, Match)
    _matches(29, superuser)
    with django_assert_max_num_queries(15):
        r = su_client.get(_url(Match, "changelist"))
    assert r.context["cl"].result_count == 30
    assert "½ – ½" in r.content.decode()
    assert _changelist_queries(su_client, Match) == few
