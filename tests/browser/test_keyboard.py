"""Keyboard-only journeys (issue 15, WCAG 2.1.1 and 2.4.7): an organiser pairs a round and publishes it,
a referee enters a result from the round page — Tab, typing and Enter only, no mouse. At every step the
focused element must show it (a non-``none`` outline or a box-shadow), and each journey must end in
the saved state (checked in the database)."""
from __future__ import annotations

import pytest

from tests.browser.helpers import login as _login
from tests.factories import PlayerFactory, organiser, referee
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.rounds import services as round_services
from tournaments.models import Match, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
MAX_TABS = 150

# the focused element and how it shows focus
_FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const cs = getComputedStyle(el);
  return {tag: el.tagName.toLowerCase(), name: el.getAttribute('name') || '', id: el.id || '',
          text: (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 80),
          outlineStyle: cs.outlineStyle, outlineWidth: cs.outlineWidth, boxShadow: cs.boxShadow};
}"""


def _focus(page) -> dict | None:
    return page.evaluate(_FOCUS)


def _assert_visible_focus(info: dict) -> None:
    outlined = info["outlineStyle"] != "none" and info["outlineWidth"] not in ("0px", "")
    shadowed = info["boxShadow"] not in ("none", "")
    assert outlined or shadowed, f"focus not visible on {info}"


def _tab_to(page, selector: str, *, key: str = "Tab") -> dict:
    """Press Tab until the focused element matches ``selector``, checking every stop shows its focus."""
    for _ in range(MAX_TABS):
        page.keyboard.press(key)
        info = _focus(page)
        if info is None:
            continue
        _assert_visible_focus(info)
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return info
    raise AssertionError(f"{selector} never took the focus in {MAX_TABS} Tab presses")


@pytest.fixture
def event():
    org = organiser(username="orga")
    referee(username="hakem")
    t = services.tournament_create(name="Klavye Açık", rounds_total=3, created_by=org)
    for i, rating in enumerate((1900, 1800, 1700, 1600), start=1):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=rating, last_name=f"Oyuncu{i}", first_name="Ece"))
    return t, org


def test_organiser_pairs_and_publishes_a_round_with_the_keyboard(live_server, new_page, event):
    t, _org = event
    base = live_server.url
    page = new_page(locale="tr-TR")
    _login(page, base, "orga")
    page.goto(f"{base}/t/{t.slug}/")

    # the optional coin-toss seed, then the pairing button
    _tab_to(page, "input[name=coin_seed]")
    page.keyboard.type("klavye-2026")
    _tab_to(page, f"form[action='/t/{t.slug}/pair/'] button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/t/{t.slug}/round/1/")
    rnd = Round.objects.get(tournament=t, number=1)
    assert rnd.status == Round.Status.PAIRED and rnd.matches.count() == 2

    _tab_to(page, f"form[action='/t/{t.slug}/round/1/publish/'] button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    page.locator(".messages").wait_for()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED


def test_referee_enters_a_result_with_the_keyboard(live_server, new_page, event):
    t, org = event
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="klavye")
    round_services.round_publish(round=rnd, user=org)
    base = live_server.url
    page = new_page(locale="tr-TR", viewport=PHONE)
    _login(page, base, "hakem")
    page.goto(f"{base}/t/{t.slug}/round/1/")

    # round page → "Sonuç gir" of board 1 (its name says which board)
    link = _tab_to(page, "#board-1 a.button")
    assert link["text"].startswith("Sonuç gir – masa 1:")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/t/{t.slug}/round/1/board/1/")

    # a wrong first try: the stones do not sum to 48
    _tab_to(page, "input[name=set1_white]")
    page.keyboard.type("30")
    _tab_to(page, "input[name=set1_black]")
    page.keyboard.type("20")
    _tab_to(page, "button[type=submit].primary")
    page.keyboard.press("Enter")
    page.wait_for_load_state()
    page.locator("#result-errors").wait_for()
    # the refusal summary takes the focus (and shows it) and is announced
    page.wait_for_function("document.activeElement && document.activeElement.id === 'result-errors'")
    summary = _focus(page)
    _assert_visible_focus(summary)
    assert page.get_attribute("#result-errors", "role") == "alert"
    assert page.get_attribute("input[name=set1_white]", "aria-invalid") == "true"
    assert page.get_attribute("input[name=set1_white]", "aria-describedby") == "set1-errors"
    assert Match.objects.get(round=rnd, board=1).white_points is None

    # the summary's link leads to the field; correct both sets and save with Enter
    _tab_to(page, "#result-errors a")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.name === 'set1_white'")
    _assert_visible_focus(_focus(page))
    page.keyboard.press("Control+A")
    page.keyboard.type("30")
    _tab_to(page, "input[name=set1_black]")
    page.keyboard.press("Control+A")
    page.keyboard.type("18")
    _tab_to(page, "input[name=set2_black]")  # black starts set 2: its store comes first
    page.keyboard.type("18")
    _tab_to(page, "input[name=set2_white]")
    page.keyboard.type("30")
    _tab_to(page, "button[type=submit].primary")
    page.keyboard.press("Enter")
    page.wait_for_url(f"{base}/t/{t.slug}/round/1/")

    m = Match.objects.get(round=rnd, board=1)
    assert (m.white_points, m.black_points) == (1, 0)
    assert [(s.white_stones, s.black_stones) for s in m.sets.order_by("number")] == [(30, 18), (30, 18)]
