"""People (issue 11): a logged-in player's pages (my page, my next board, my results) and the staff
pages that create referee, organiser and player accounts and give them per-tournament roles — services,
pages, audit rows. (The next federation id: tests/federation/test_next_federation_id.py.)"""
from __future__ import annotations

import re

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from federation import accounts, roles
from federation.errors import Conflict, PermissionDenied, ValidationFailed
from federation.selectors import account_history
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tournaments import access
from tournaments import services as ts
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import TournamentRole
from tournaments.people import services as people_services
from tournaments.people.selectors import player_current_boards, player_results
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db

User = get_user_model()


@pytest.fixture(autouse=True)
def english():
    """Messages are asserted in English (the msgids); pages asked for in Turkish say so."""
    with translation.override("en"):
        yield


def _client(user=None, lang: str = "en") -> Client:
    c = Client(headers={"Accept-Language": lang})
    if user is not None:
        c.force_login(user)
    return c


@pytest.fixture
def staff():
    return UserFactory(username="federasyon", first_name="Fatma", last_name="Kurul", groups=[roles.STAFF])


@pytest.fixture
def organiser_user():
    return UserFactory(username="org", groups=[roles.ORGANISER])


@pytest.fixture
def player_user():
    return UserFactory(username="oyuncu", first_name="Ali", last_name="Yılmaz")


@pytest.fixture
def event(organiser_user, player_user):
    """Four players, ``me`` linked to ``player_user``; round 1 played and closed, round 2 published."""
    me = PlayerFactory(federation_id="TMF-0001", last_name="Yılmaz", first_name="Ali", rating=1800,
                       birth_year=1991, sex="m", user=player_user)
    others = [PlayerFactory(federation_id=f"TMF-000{i}", last_name=name, first_name="Ayşe", rating=1700 - 50 * i)
              for i, name in ((2, "Kaya"), (3, "Demir"), (4, "Şahin"))]
    t = ts.tournament_create(name="Ankara Açık 2026", rounds_total=3, created_by=organiser_user,
                             start_date=timezone.localdate())
    for p in [me, *others]:
        entry_services.entry_add(tournament=t, player=p)
    r1 = round_services.round_pair(tournament=t, user=organiser_user, coin_seed="people")
    round_services.round_publish(round=r1, user=organiser_user)
    for m in r1.matches.filter(kind="game"):
        result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(20, 28), SetInput(26, 22)],
                                           user=organiser_user)
    round_services.round_close(round=r1, user=organiser_user)
    r2 = round_services.round_pair(tournament=t, user=organiser_user)
    round_services.round_publish(round=r2, user=organiser_user)
    return {"t": t, "me": me, "others": others, "r1": r1, "r2": r2}


# --------------------------------------------------------------------------------------------
# My page, my next board, my results
# --------------------------------------------------------------------------------------------


def test_my_pages_need_a_login():
    for name in ("my-page", "my-next-board", "my-results"):
        response = _client().get(reverse(name))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_my_next_board_shows_tournament_round_board_opponent_and_colour(event, player_user):
    me = event["me"]
    boards = player_current_boards(me)
    assert len(boards) == 1
    b = boards[0]
    assert b.round.number == 2 and b.tournament == event["t"]
    match = b.match
    assert me.pk in (match.white.player_id, match.black.player_id)
    opponent = match.black.player if match.white.player_id == me.pk else match.white.player
    colour = "White" if match.white.player_id == me.pk else "Black"

    page = _client(player_user).get(reverse("my-next-board")).content.decode()
    assert "Ankara Açık 2026" in page
    assert f"Round 2 · board {match.board}" in page
    assert f'data-testid="board-number">{match.board}<' in page
    assert opponent.full_name in page
    assert f"{colour}: " in page
    assert 'http-equiv="refresh"' in page  # the page reloads itself in the hall

    tr = _client(player_user, "tr").get(reverse("my-next-board")).content.decode()
    with translation.override("tr"):
        assert translation.gettext("My next board") in tr
    assert opponent.full_name in tr


def test_no_board_now_says_what_the_player_waits_for(event, player_user, organiser_user):
    r2 = event["r2"]
    for m in r2.matches.filter(kind="game"):
        result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(30, 18)], user=organiser_user)
    round_services.round_close(round=r2, user=organiser_user)
    round_services.round_pair(tournament=event["t"], user=organiser_user)  # round 3 paired, not published
    assert player_current_boards(event["me"]) == []
    page = _client(player_user).get(reverse("my-next-board")).content.decode()
    assert 'data-testid="no-board"' in page
    assert "No board now." in page
    assert "Ankara Açık 2026: the pairing of round 3 is not published yet." in page


def test_archived_tournament_gives_no_board(event, player_user):
    event["t"].archived_at = timezone.now()
    event["t"].save(update_fields=["archived_at"])
    page = _client(player_user).get(reverse("my-next-board")).content.decode()
    assert "No board now." in page
    assert "You are not entered in a tournament that is running." in page


def test_account_without_player_is_told_so(organiser_user):
    for name in ("my-next-board", "my-results"):
        page = _client(organiser_user).get(reverse(name)).content.decode()
        assert "Your account is not linked to a player." in page
    page = _client(organiser_user).get(reverse("my-page")).content.decode()
    assert "Organiser of every tournament" in page
    assert "Change password" in page


def test_my_results_lists_matches_with_sets_and_personal_data_for_the_player_only(event, player_user):
    me = event["me"]
    results = player_results(me, user=player_user)
    assert len(results) == 1
    r = results[0]
    assert [m.round.number for m in r.matches] == [1, 2]
    first, second = r.matches
    assert first.own_points is not None and second.own_points is None
    assert len(first.sets) == 3
    assert r.wins + r.draws + r.losses == 1

    own = _client(player_user).get(reverse("my-results")).content.decode()
    assert "My results" in own
    assert 'data-testid="personal-birth-year">1991<' in own
    assert "not played yet" in own
    assert "–".join(str(x) for x in first.sets[0]) in own

    public = _client().get(reverse("player-results", args=[me.federation_id])).content.decode()
    assert "Results of Yılmaz, Ali" in public
    assert "1991" not in public  # KVKK: birth year for the player and staff only
    assert "–".join(str(x) for x in first.sets[0]) in public
    other = UserFactory(username="baska")
    assert "1991" not in _client(other).get(reverse("player-results", args=[me.federation_id])).content.decode()


def test_results_hide_unpublished_rounds_and_archived_tournaments(event, player_user, organiser_user):
    me = event["me"]
    r2 = event["r2"]
    for m in r2.matches.filter(kind="game"):
        result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(30, 18)], user=organiser_user)
    round_services.round_close(round=r2, user=organiser_user)
    round_services.round_pair(tournament=event["t"], user=organiser_user)  # round 3: paired, not public
    assert [m.round.number for m in player_results(me)[0].matches] == [1, 2]
    event["t"].archived_at = timezone.now()
    event["t"].save(update_fields=["archived_at"])
    assert player_results(me, user=player_user) == []
    staff = UserFactory(username="st", groups=[roles.STAFF])
    assert len(player_results(me, user=staff)) == 1


def test_results_of_a_merged_record_lead_to_the_kept_player(event):
    old = PlayerFactory(federation_id="TMF-0900", merged_into=event["me"], active=False)
    response = _client().get(reverse("player-results", args=[old.federation_id]))
    assert response.status_code == 301
    assert response["Location"] == reverse("player-results", args=[event["me"].federation_id])
    assert _client().get(reverse("player-results", args=["NOPE-1"])).status_code == 404


def test_my_page_shows_the_player_and_the_next_board(event, player_user):
    page = _client(player_user).get(reverse("my-page")).content.decode()
    board = player_current_boards(event["me"])[0].match.board
    assert f"Ankara Açık 2026, round 2, board {board}" in page
    assert reverse("my-results") in page and reverse("password_change") in page


def test_header_links_by_who_is_logged_in(event, player_user, staff, organiser_user):
    anonymous = _client().get(reverse("home")).content.decode()
    assert 'data-testid="nav-my-page"' not in anonymous
    mine = _client(player_user).get(reverse("home")).content.decode()
    assert 'data-testid="nav-my-board"' in mine and 'data-testid="nav-my-results"' in mine
    assert 'data-testid="nav-users"' not in mine
    org = _client(organiser_user).get(reverse("home")).content.decode()
    assert 'data-testid="nav-my-page"' in org and 'data-testid="nav-my-board"' not in org
    assert 'data-testid="nav-users"' in _client(staff).get(reverse("home")).content.decode()
    tr = _client(player_user, "tr").get(reverse("home")).content.decode()
    with translation.override("tr"):
        for text in ("My page", "My next board", "My results"):
            assert translation.gettext(text) in tr


# --------------------------------------------------------------------------------------------
# Staff: accounts and per-tournament roles (services)
# --------------------------------------------------------------------------------------------


def test_user_create_referee_for_one_tournament_is_audited(staff):
    t = TournamentFactory(name="Bursa Kupası")
    account = accounts.user_create(user=staff, username="hakem1", first_name="Hakan", last_name="Emre",
                                   email="hakem1@example.org", kind="referee", tournament=t)
    assert account.has_usable_password()  # a random one: the link lets them choose theirs
    assert not account.groups.exists()
    role = TournamentRole.objects.get(user=account)
    assert (role.tournament, role.role) == (t, "referee")
    assert access.can_enter_results(account, t)
    assert not access.can_enter_results(account, TournamentFactory())
    assert not access.can_organise(account, t)
    log = LogEntry.objects.get(object_id=str(account.pk))
    assert log.user == staff and log.change_message.startswith("user.create: referee")
    row = role.history.get()
    assert (row.audit_action, row.history_user, row.audit_tournament_id) == ("role.assign", staff, t.pk)
    events = account_history(account)
    assert sorted(e.action for e in events) == ["role.assign", "user.create"]


def test_user_create_federation_wide_organiser_with_temporary_password(staff):
    account = accounts.user_create(user=staff, username="org2", first_name="Oya", last_name="Gür",
                                   kind="organiser", federation_wide=True, password="kale-tasi-48")
    assert account.check_password("kale-tasi-48")
    assert roles.in_group(account, roles.ORGANISER)
    assert access.can_create_tournament(account)


def test_user_create_refusals_name_the_field(staff):
    UserFactory(username="Hakem")
    cases = [
        (dict(username="hakem"), "username"),  # taken in another case
        (dict(username="bad name!"), "username"),
        (dict(first_name=""), "first_name"),
        (dict(email="", password=""), "email"),  # no password and no address for the link
        (dict(email="not-an-address"), "email"),
        (dict(password="123"), "password"),
        (dict(kind="boss"), "kind"),
        (dict(kind="player"), "player"),
    ]
    base = dict(username="yeni", first_name="Ye", last_name="Ni", email="yeni@example.org", kind="referee")
    for change, field in cases:
        with pytest.raises(ValidationFailed) as exc:
            accounts.user_create(user=staff, **{**base, **change})
        assert exc.value.field == field, change
    UserFactory(username="var", email="ayni@example.org")
    with pytest.raises(ValidationFailed) as exc:
        accounts.user_create(user=staff, **{**base, "email": "AYNI@example.org"})
    assert exc.value.field == "email"
    with pytest.raises(PermissionDenied):
        accounts.user_create(user=UserFactory(groups=[roles.ORGANISER]), **base)


def test_player_account_gets_the_login_of_the_player(staff):
    p = PlayerFactory(federation_id="TMF-0005")
    account = accounts.user_create(user=staff, username="oyuncu5", first_name="Can", last_name="Ak",
                                   kind="player", player=p, password="mangala-tahtasi-9")
    p.refresh_from_db()
    assert p.user == account
    row = p.history.order_by("-history_date").first()
    assert (row.audit_action, row.history_user) == ("player.link_user", staff)
    other = UserFactory(username="ikinci")
    with pytest.raises(Conflict):
        accounts.player_link_user(user=staff, player=p, account=other)
    with pytest.raises(Conflict):  # one account, one player
        accounts.player_link_user(user=staff, player=PlayerFactory(), account=account)


def test_roles_assign_twice_is_refused_and_remove_is_recorded(staff):
    t = TournamentFactory()
    account = UserFactory(username="hakem2")
    role = people_services.tournament_role_assign(user=staff, account=account, tournament=t, role="referee")
    with pytest.raises(Conflict) as exc:
        people_services.tournament_role_assign(user=staff, account=account, tournament=t, role="referee")
    assert exc.value.field == "tournament"
    people_services.tournament_role_assign(user=staff, account=account, tournament=t, role="organiser")
    with pytest.raises(ValidationFailed):
        people_services.tournament_role_assign(user=staff, account=account, tournament=t, role="king")
    people_services.tournament_role_remove(user=staff, role=role, reason="başka turnuvada")
    assert not TournamentRole.objects.filter(pk=role.pk).exists()
    gone = TournamentRole.history.filter(id=role.pk, history_type="-").get()
    assert (gone.audit_action, gone.history_change_reason, gone.audit_tournament_id) == (
        "role.remove", "başka turnuvada", t.pk)
    archived = TournamentFactory(archived_at=timezone.now())
    with pytest.raises(Conflict):
        people_services.tournament_role_assign(user=staff, account=account, tournament=archived, role="referee")
    with pytest.raises(PermissionDenied):
        people_services.tournament_role_assign(user=account, account=account, tournament=t, role="referee")


def test_role_actions_are_labelled_in_the_tournament_history(staff):
    from tournaments.history.selectors import tournament_history

    t = TournamentFactory()
    account = UserFactory(username="hakem3", first_name="Hale", last_name="Kem")
    people_services.tournament_role_assign(user=staff, account=account, tournament=t, role="referee")
    items = tournament_history(tournament=t)
    assert items[0].action == "role.assign"
    assert items[0].action_label == "role given"


def test_only_a_superuser_sets_a_staff_password(staff):
    other_staff = UserFactory(username="ikinci-staff", groups=[roles.STAFF])
    with pytest.raises(PermissionDenied):
        accounts.user_set_password(user=staff, account=other_staff, password="uzun-bir-parola-1")
    boss = UserFactory(username="boss", is_superuser=True)
    accounts.user_set_password(user=boss, account=other_staff, password="uzun-bir-parola-1")
    ref = UserFactory(username="hakem4")
    accounts.user_set_password(user=staff, account=ref, password="uzun-bir-parola-2")
    ref.refresh_from_db()
    assert ref.check_password("uzun-bir-parola-2")
    assert LogEntry.objects.filter(object_id=str(ref.pk), change_message="password.set").exists()


# --------------------------------------------------------------------------------------------
# Staff: the pages
# --------------------------------------------------------------------------------------------


def test_user_pages_are_for_staff_only(organiser_user):
    response = _client().get(reverse("user-list"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    for name, args in (("user-list", []), ("user-create", []), ("user-detail", [organiser_user.pk])):
        response = _client(organiser_user).get(reverse(name, args=args))
        assert response.status_code == 403 and b"Only federation staff can manage accounts." in response.content
    response = _client(organiser_user).post(reverse("user-role-add", args=[organiser_user.pk]),
                                            {"tournament": TournamentFactory().pk, "role": "organiser"})
    assert response.status_code == 403
    assert not TournamentRole.objects.exists()


def test_staff_creates_a_referee_with_an_emailed_link(staff):
    t = TournamentFactory(name="Konya Açık")
    response = _client(staff).post(reverse("user-create"), {
        "username": "hakem5", "first_name": "Hülya", "last_name": "Çelik", "email": "hulya@example.org",
        "kind": "referee", "tournament": t.pk, "password_mode": "link",
    })
    account = User.objects.get(username="hakem5")
    assert response.status_code == 302
    assert response["Location"] == reverse("user-detail", args=[account.pk])
    assert TournamentRole.objects.filter(user=account, tournament=t, role="referee").exists()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["hulya@example.org"]
    assert "hakem5" in message.body
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", message.body).group(1)
    assert _client().get(link, follow=True).context["validlink"]
    page = _client(staff).get(response["Location"]).content.decode()
    assert "Konya Açık" in page and "account created" in page and "password link e-mailed" in page


def test_user_create_page_shows_field_errors(staff):
    UserFactory(username="alinmis")
    response = _client(staff).post(reverse("user-create"), {
        "username": "ALINMIS", "first_name": "A", "last_name": "B", "email": "", "kind": "player",
        "player": "TMF-404", "password_mode": "password", "password": "",
    })
    assert response.status_code == 200
    form = response.context["form"]
    assert form.errors["player"] == ["No player with federation id TMF-404."]
    assert form.errors["password"] == ["Give a temporary password."]
    response = _client(staff).post(reverse("user-create"), {
        "username": "ALINMIS", "first_name": "A", "last_name": "B", "email": "", "kind": "referee",
        "password_mode": "link",
    })
    assert response.context["form"].errors["email"] == ["An e-mail address is needed to send the link."]
    response = _client(staff).post(reverse("user-create"), {
        "username": "ALINMIS", "first_name": "A", "last_name": "B", "email": "", "kind": "referee",
        "password_mode": "password", "password": "parola-kalesi-7",
    })
    assert response.context["form"].errors["username"] == ["The user name ALINMIS is taken."]
    response = _client(staff).post(reverse("user-create"), {
        "username": "yeni2", "first_name": "A", "last_name": "B", "email": "", "kind": "referee",
        "password_mode": "password", "password": "password",
    })
    assert "too common" in " ".join(response.context["form"].errors["password"])
    assert not User.objects.filter(username__in=["yeni2", "ALINMIS"]).exists()
    tr = _client(staff, "tr").get(reverse("user-create")).content.decode()
    with translation.override("tr"):
        assert translation.gettext("New account") in tr


def test_staff_assigns_and_removes_roles_on_the_page(staff):
    t = TournamentFactory(name="İzmir Kupası")
    account = UserFactory(username="hakem6")
    url = reverse("user-role-add", args=[account.pk])
    assert _client(staff).post(url, {"tournament": t.pk, "role": "referee"}).status_code == 302
    again = _client(staff).post(url, {"tournament": t.pk, "role": "referee"})
    assert again.status_code == 400
    assert again.context["role_form"].errors["tournament"] == ["hakem6 is already referee of İzmir Kupası."]
    role = TournamentRole.objects.get(user=account)
    page = _client(staff).get(reverse("user-detail", args=[account.pk])).content.decode()
    assert "İzmir Kupası" in page and "tournament role given" in page
    response = _client(staff).post(reverse("user-role-remove", args=[account.pk, role.pk]), {"reason": ""})
    assert response.status_code == 302
    assert not TournamentRole.objects.filter(user=account).exists()
    listing = _client(staff).get(reverse("user-list") + "?role=referee").content.decode()
    assert "hakem6" not in listing


def test_staff_sets_a_temporary_password_and_links_a_player(staff):
    account = UserFactory(username="hakem7")
    response = _client(staff).post(reverse("user-password-set", args=[account.pk]),
                                   {"new_password1": "short", "new_password2": "short"})
    assert response.status_code == 400
    assert response.context["password_form"].errors
    response = _client(staff).post(reverse("user-password-set", args=[account.pk]),
                                   {"new_password1": "gecici-parola-48", "new_password2": "gecici-parola-48"})
    assert response.status_code == 302
    assert Client().login(username="hakem7", password="gecici-parola-48")
    p = PlayerFactory(federation_id="TMF-0077")
    link = reverse("user-player-link", args=[account.pk])
    assert _client(staff).post(link, {"player": "tmf-0077"}).status_code == 302
    p.refresh_from_db()
    assert p.user == account
    bad = _client(staff).post(reverse("user-player-link", args=[account.pk]), {"player": "TMF-0000"})
    assert bad.status_code == 400
    assert _client(staff).post(reverse("user-player-link", args=[account.pk]), {"player": ""}).status_code == 302
    p.refresh_from_db()
    assert p.user is None


def test_staff_sends_a_password_link_from_the_page(staff):
    account = UserFactory(username="hakem8", email="hakem8@example.org")
    response = _client(staff).post(reverse("user-password-link", args=[account.pk]))
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["hakem8@example.org"]
    no_mail = UserFactory(username="hakem9", email="")
    _client(staff).post(reverse("user-password-link", args=[no_mail.pk]))
    assert len(mail.outbox) == 1


def test_user_list_filters(staff, event):
    c = _client(staff)

    def names(query: str) -> list[str]:
        return [u.username for u in c.get(reverse("user-list") + query).context["page"]]

    assert names("?role=player") == ["oyuncu"]
    assert names("?q=YILMAZ") == names("?q=yılmaz") == ["oyuncu"]
    assert names("?role=staff") == ["federasyon"]
    assert names("?role=organiser") == ["org"]
    assert c.get(reverse("user-list") + "?role=nonsense&page=99").status_code == 200

