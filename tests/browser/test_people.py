"""People in a real browser: a player logs in on a phone and finds their next board; staff create a
referee's account and give them a tournament; someone who forgot their password resets it through the
e-mailed link (read from the test outbox: the live server runs in this process)."""
from __future__ import annotations

import re

import pytest
from django.core import mail
from django.core.cache import cache
from django.db.models import Q

from federation import roles
from tests.browser.helpers import login as _login
from tests.factories import PlayerFactory, UserFactory, organiser
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.rounds import services as round_services
from tournaments.models import TournamentRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}




@pytest.fixture(autouse=True)
def _no_limits_left():
    cache.clear()
    mail.outbox = []
    yield
    cache.clear()


def test_player_logs_in_and_sees_the_next_board(live_server, new_page):
    org = organiser(username="orga")
    me_user = UserFactory(username="oyuncu", first_name="Ali", last_name="Yılmaz")
    me = PlayerFactory(federation_id="TMF-0001", last_name="Yılmaz", first_name="Ali", rating=1900, user=me_user)
    others = [PlayerFactory(federation_id=f"TMF-000{i}", last_name=f"Rakip{i}", rating=1800 - i) for i in (2, 3, 4)]
    t = services.tournament_create(name="Tarayıcı Açık", rounds_total=3, created_by=org)
    for p in [me, *others]:
        entry_services.entry_add(tournament=t, player=p)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="kisiler")
    round_services.round_publish(round=rnd, user=org)
    m = rnd.matches.get(Q(white__player=me) | Q(black__player=me))
    opponent = m.black.player if m.white.player_id == me.pk else m.white.player

    page = new_page(viewport=PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    _login(page, live_server.url, "oyuncu")
    page.get_by_test_id("nav-my-board").click()
    page.wait_for_url(f"{live_server.url}/me/next-board/")
    card = page.get_by_test_id("next-board")
    assert card.get_by_test_id("board-number").inner_text() == str(m.board)
    assert opponent.full_name in card.get_by_test_id("board-opponent").inner_text()
    assert ("White" if m.white.player_id == me.pk else "Black") in card.get_by_test_id("board-colour").inner_text()
    assert "Tarayıcı Açık" in card.inner_text()
    page.get_by_test_id("nav-my-results").click()
    assert "Tarayıcı Açık" in page.locator("main h2").first.inner_text()
    assert opponent.full_name in page.get_by_test_id("results-tournament").inner_text()
    assert errors == []


def test_staff_creates_a_referee_and_assigns_a_tournament(live_server, new_page):
    UserFactory(username="federasyon", groups=[roles.STAFF])
    org = organiser(username="orga")
    first = services.tournament_create(name="Konya Kupası", rounds_total=3, created_by=org)
    second = services.tournament_create(name="Bursa Kupası", rounds_total=3, created_by=org)

    page = new_page()
    base = live_server.url
    _login(page, base, "federasyon")
    page.get_by_test_id("nav-users").click()
    page.get_by_test_id("user-create").click()
    page.fill("input[name=username]", "hakem1")
    page.fill("input[name=first_name]", "Hülya")
    page.fill("input[name=last_name]", "Çelik")
    page.select_option("select[name=kind]", "referee")
    page.select_option("select[name=tournament]", str(first.pk))
    page.select_option("select[name=password_mode]", "password")
    page.fill("input[name=password]", "gecici-parola-48")
    page.get_by_role("button", name="Create the account").click()
    # no e-mail address and "link" is not chosen: created with the temporary password
    page.wait_for_url(re.compile(r".*/staff/users/\d+/$"))
    assert "Account hakem1 created" in page.locator(".messages").inner_text()
    assert "Konya Kupası" in page.get_by_test_id("account-roles").inner_text()

    page.select_option("form[data-testid=role-form] select[name=tournament]", str(second.pk))
    page.select_option("form[data-testid=role-form] select[name=role]", "organiser")
    page.get_by_test_id("role-form").get_by_role("button", name="Assign").click()
    assert "hakem1 is now organiser of Bursa Kupası." in page.locator(".messages").inner_text()
    roles_of = set(TournamentRole.objects.filter(user__username="hakem1").values_list("tournament__name", "role"))
    assert roles_of == {("Konya Kupası", "referee"), ("Bursa Kupası", "organiser")}
    assert "tournament role given" in page.get_by_test_id("account-history").inner_text()

    # a field error is shown next to its field
    page.select_option("form[data-testid=role-form] select[name=tournament]", str(second.pk))
    page.select_option("form[data-testid=role-form] select[name=role]", "organiser")
    page.get_by_test_id("role-form").get_by_role("button", name="Assign").click()
    assert "already organiser of Bursa Kupası" in page.get_by_test_id("role-form").inner_text()

    referee_page = new_page(viewport=PHONE)
    _login(referee_page, base, "hakem1", "gecici-parola-48")
    referee_page.get_by_test_id("nav-my-page").click()
    roles_text = referee_page.get_by_test_id("my-roles").inner_text()
    assert "Konya Kupası" in roles_text and "Bursa Kupası" in roles_text


def test_password_reset_through_the_emailed_link(live_server, new_page):
    UserFactory(username="unutkan", email="unutkan@example.org")
    base = live_server.url
    page = new_page(locale="tr-TR")
    page.goto(f"{base}/accounts/login/")
    page.get_by_test_id("forgot-password").click()
    page.fill("input[name=email]", "unutkan@example.org")
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{base}/accounts/password-reset/sent/")
    assert page.get_by_test_id("reset-sent").is_visible()
    assert len(mail.outbox) == 1
    link = re.search(r"https?://\S+/accounts/reset/\S+/", mail.outbox[0].body).group(0)
    page.goto(link)
    page.fill("input[name=new_password1]", "yepyeni-parola-48")
    page.fill("input[name=new_password2]", "yepyeni-parola-48")
    page.click("main form button[type=submit]")
    page.wait_for_url(f"{base}/accounts/reset/done/")
    assert page.get_by_test_id("reset-complete").is_visible()
    _login(page, base, "unutkan", "yepyeni-parola-48")
    assert page.get_by_test_id("nav-my-page").is_visible()
