"""The referee's phone and the hall screen in a real browser (issue 11).

* On a phone (390×844) a referee logs in, sees the current round's boards and opens a board's form
  with one more tap; the stores are labelled with the players' names, the set's starter first; a
  refused save in set 3 shows its reason in the viewport, focused, and marks set 3's fields.
* The hall screen (one browser, anonymous) shows a result entered by the referee (another browser
  context) within 5 seconds, without reloading.
"""
from __future__ import annotations

import time

import pytest
expect = pytest.importorskip("playwright.sync_api").expect

from tests.browser.helpers import login as _login
from tests.factories import PlayerFactory, TournamentRoleFactory, UserFactory, organiser
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Match, TournamentRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}




@pytest.fixture
def event():
    """Round 1 of a four-player event, published; "hakem" referees it (a per-tournament role)."""
    org = organiser(username="orga")
    hakem = UserFactory(username="hakem")
    t = services.tournament_create(name="Salon Açık", rounds_total=3, created_by=org)
    for i, (first, last) in enumerate((("Ayşe", "Kılıç"), ("Burak", "Ateş"), ("Cem", "Demir"), ("Derya", "Er"))):
        entry_services.entry_add(tournament=t, player=PlayerFactory(first_name=first, last_name=last, rating=1900 - 100 * i))
    TournamentRoleFactory(tournament=t, user=hakem, role=TournamentRole.Role.REFEREE)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="salon")
    round_services.round_publish(round=rnd, user=org)
    return t


def _names(t, board: int) -> tuple[str, str]:
    m = Match.objects.select_related("white__player", "black__player").get(round__tournament=t, board=board)
    return (f"{m.white.player.first_name} {m.white.player.last_name}",
            f"{m.black.player.first_name} {m.black.player.last_name}")


def _in_viewport(page, locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 120) <= PHONE["height"]


def test_referee_phone_boards_labels_and_a_refusal_in_set_3(live_server, new_page, event):
    t = event
    base = live_server.url
    white, black = _names(t, 1)
    phone = new_page(viewport=PHONE)
    _login(phone, base, "hakem")

    # after login: the current round's boards, what is missing; one tap opens a board's form
    duty = phone.locator(f'section.duty[data-tournament="{t.slug}"]')
    assert duty.is_visible()
    assert "0 of 2 results entered" in duty.inner_text()
    assert duty.locator("li.board-item.missing").count() == 2
    duty.locator('li[data-board="1"] a.board-link').click()
    phone.wait_for_url(f"{base}/t/{t.slug}/round/1/board/1/?from=referee")

    # the stores name the players, the set's starter first: white in sets 1 and 3, black in set 2
    for n, (first, second) in ((1, (white, black)), (2, (black, white)), (3, (white, black))):
        labels = phone.locator(f'fieldset[data-set="{n}"] label.store')
        assert labels.nth(0).inner_text().strip() == f"{first} (starts) — stones"
        assert labels.nth(1).inner_text().strip() == f"{second} — stones"
    assert phone.get_by_label(f"{black} (starts) — stones").first.get_attribute("name") == "set2_black"

    # a refusal in set 3: its reason in the viewport, focused, set 3's fields marked
    for name, value in (("set1_white", "30"), ("set1_black", "18"), ("set2_white", "18"), ("set2_black", "30"),
                        ("set3_white", "30"), ("set3_black", "20")):
        phone.fill(f"input[name={name}]", value)
    phone.get_by_role("button", name="Save result").click()
    phone.wait_for_load_state()
    alert = phone.get_by_role("alert")
    assert alert.count() == 1 and alert.is_visible()
    assert "Set 3" in alert.inner_text() and "50" in alert.inner_text()
    assert _in_viewport(phone, alert)
    assert phone.evaluate("document.activeElement && document.activeElement.id") == "result-errors"
    for name in ("set3_white", "set3_black"):
        field = phone.locator(f"input[name={name}]")
        assert field.get_attribute("aria-invalid") == "true"
        assert field.evaluate("e => getComputedStyle(e).borderTopColor") == "rgb(164, 22, 26)"  # --err, 2px
        assert field.evaluate("e => getComputedStyle(e).borderTopWidth") == "2px"
    for name in ("set1_white", "set2_black"):
        assert phone.locator(f"input[name={name}]").get_attribute("aria-invalid") is None
    assert Match.objects.get(round__tournament=t, board=1).result_entered_at is None

    # the summary's link takes the referee to set 3's field
    alert.get_by_role("link").first.click()
    assert phone.evaluate("document.activeElement.name") == "set3_white"
    assert _in_viewport(phone, phone.locator("input[name=set3_white]"))

    # corrected: saved, back on the referee's boards with the result
    phone.fill("input[name=set3_black]", "18")
    phone.get_by_role("button", name="Save result").click()
    phone.wait_for_url(f"{base}/referee/")
    assert "1 – 0" in phone.locator(f'section.duty[data-tournament="{t.slug}"] li[data-board="1"]').inner_text()
    assert "1 of 2 results entered" in phone.locator("section.duty").inner_text()


def test_hall_screen_shows_a_result_entered_elsewhere_within_5_seconds(live_server, new_page, event):
    t = event
    base = live_server.url
    tv = new_page(viewport=TV)
    tv.goto(f"{base}/t/{t.slug}/tv/")
    assert tv.locator("header.top, nav").count() == 0  # no navigation on the hall screen
    board = tv.locator('li[data-board="2"]')
    assert board.locator("[data-cell=result]").inner_text() == "–"
    tv.evaluate("window.__sameDocument = true")

    phone = new_page(viewport=PHONE)
    _login(phone, base, "hakem")
    phone.goto(f"{base}/t/{t.slug}/round/1/board/2/")
    for name, value in (("set1_white", "18"), ("set1_black", "30"), ("set2_white", "20"), ("set2_black", "28")):
        phone.fill(f"input[name={name}]", value)
    phone.get_by_role("button", name="Save result").click()
    phone.wait_for_url(f"{base}/t/{t.slug}/round/1/")
    saved = time.monotonic()

    expect(board.locator("[data-cell=result]")).to_have_text("0 – 1", timeout=5000)
    assert time.monotonic() - saved < 5
    assert board.locator("[data-cell=sets]").inner_text() == "18–30, 20–28"
    assert tv.evaluate("window.__sameDocument") is True  # updated in place, not reloaded
    assert "1 of 2 results in" in tv.locator("[data-live-progress]").inner_text()


def test_live_page_follows_the_next_round_and_reports_no_csp_violation(live_server, new_page, event):
    t = event
    base = live_server.url
    page = new_page(viewport=PHONE)
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.goto(f"{base}/t/{t.slug}/live/")
    assert page.locator("h1").inner_text().startswith("Round 1")
    org = organiser(username="orga")
    rnd = t.rounds.get(number=1)
    for m in rnd.matches.all():
        result_services.match_result_enter(match=m, sets=[result_services.SetInput(30, 18), result_services.SetInput(30, 18)], user=org)
    round_services.round_close(round=rnd, user=org)
    round_services.round_publish(round=round_services.round_pair(tournament=t, user=org), user=org)
    expect(page.locator("h1")).to_contain_text("Round 2", timeout=8000)
    assert problems == []


def test_live_status_shows_the_server_time_and_long_names_wrap_on_the_phone(live_server, new_page, event):
    """"Updated hh:mm:ss" is Istanbul time even on a device in New York; on the referee's phone a long
    name wraps to a second line instead of ending in "…"."""
    import datetime as dt
    import re
    from zoneinfo import ZoneInfo

    from federation.models import Player

    t = event
    base = live_server.url
    page = new_page(timezone_id="America/New_York")
    page.goto(f"{base}/t/{t.slug}/live/")
    status = page.locator("[data-live-status]")
    expect(status).to_have_text(re.compile(r"^Updated \d\d:\d\d:\d\d$"), timeout=8000)
    shown = dt.datetime.strptime(status.inner_text().split()[-1], "%H:%M:%S").time()
    now = dt.datetime.now(ZoneInfo("Europe/Istanbul"))
    gap = abs((dt.datetime.combine(now.date(), shown) - now.replace(tzinfo=None)).total_seconds())
    assert gap < 30 or gap > 86400 - 30, (shown, now)

    m = Match.objects.select_related("white__player").get(round__tournament=t, board=1)
    Player.objects.filter(pk=m.white.player_id).update(first_name="Mehmet Ali", last_name="Türkmenoğlu")
    phone = new_page(viewport=PHONE)
    _login(phone, base, "hakem")
    name = phone.locator(f'section.duty[data-tournament="{t.slug}"] li[data-board="1"] .names span').first
    assert "Türkmenoğlu, Mehmet Ali" in name.inner_text()
    fits = name.evaluate("e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight + 1")
    lines = name.evaluate("e => Math.round(e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight))")
    dims = name.evaluate("e => [e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight, e.innerText]")
    assert fits and lines == 2, (dims, lines)
