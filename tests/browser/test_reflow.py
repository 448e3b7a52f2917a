"""Reflow (issue 15, WCAG 1.4.10): a 390 px phone at 200 % zoom is 195 CSS px wide. No page scrolls
sideways as a whole; the pairing list shows both players of a board; the standings and the crosstable
scroll inside their own named region and keep rank, name and points in view without scrolling."""
from __future__ import annotations

import pytest

from tests.browser.helpers import login as _login
from tests.factories import ClubFactory, PlayerFactory, organiser
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ZOOMED_PHONE = {"width": 195, "height": 422}
NAMES = (("Ayşegül", "Karamustafaoğulları"), ("Mehmet Ali", "Büyükçekmeceli"), ("Cem", "Er"), ("Derya", "Demirkıran"))


def _finish(seed: int):
    import random

    from games import engine

    rng = random.Random(seed)
    pos = engine.replay([])
    moves = []
    while not pos.is_over:
        pit = rng.choice([mv.pit for mv in engine.legal_moves(pos)])
        moves.append(pit)
        pos = engine.play(pos, pit).position
    return moves, pos.stores


@pytest.fixture
def played():
    org = organiser(username="orga")
    club = ClubFactory(name="Büyükşehir Belediyesi Mangala ve Akıl Oyunları Spor Kulübü", city="Kahramanmaraş")
    t = services.tournament_create(name="Uluslararası Karadeniz Mangala Şampiyonası 2026", rounds_total=3,
                                   created_by=org)
    for i, (first, last) in enumerate(NAMES):
        entry_services.entry_add(tournament=t, player=PlayerFactory(first_name=first, last_name=last, club=club,
                                                                    rating=1900 - 100 * i))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="reflow")
    round_services.round_publish(round=rnd, user=org)
    for i, m in enumerate(rnd.matches.order_by("board")):
        sets = []
        for k in range(2):  # white wins both sets: white starts set 1, black starts set 2
            seed = 50 * i + 1000 * k
            while True:
                moves, (first, second) = _finish(seed)
                if (first > second) if k == 0 else (second > first):
                    break
                seed += 1
            white, black = (first, second) if k == 0 else (second, first)
            sets.append(result_services.SetInput(white_store=white, black_store=black, termination="completed",
                                                 moves=" ".join(map(str, moves))))
        result_services.match_result_enter(match=m, user=org, forfeit="", sets=sets)
    round_services.round_close(round=rnd, user=org)
    services.standings_publish(tournament=t, user=org)
    return t, rnd


#: the elements sticking out of the page on the right (outside scroll regions), for the failure message
_OVERFLOWING = """() => { const w = document.documentElement.clientWidth, out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.right > w + 0.5 && !el.closest('.scroll')) out.push(el.tagName.toLowerCase() + '.' + el.className + ' ' + Math.round(r.right));
  }
  return out.slice(0, 6); }"""


def _scroll_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


def test_pages_reflow_at_195_css_px(live_server, new_page, played):
    t, rnd = played
    base = live_server.url
    page = new_page(locale="tr-TR", viewport=ZOOMED_PHONE)
    _login(page, base, "orga")
    from tournaments.models import SetResult

    replay = SetResult.objects.filter(match__round=rnd).exclude(moves="").first()
    player = rnd.matches.first().white.player
    paths = ["/", f"/t/{t.slug}/", f"/t/{t.slug}/round/1/", "/players/", f"/players/{player.federation_id}/",
             "/clubs/", "/events/", f"/t/{t.slug}/standings/", f"/t/{t.slug}/crosstable/"]
    if replay is not None:
        paths.append(f"/games/sets/{replay.pk}/")
    wide = {}
    for path in paths:
        page.goto(base + path)
        width = _scroll_width(page)
        if width > ZOOMED_PHONE["width"]:
            wide[path] = (width, page.evaluate(_OVERFLOWING))
    assert wide == {}, f"pages wider than {ZOOMED_PHONE['width']} CSS px: {wide}"


def test_pairing_card_shows_both_players_at_195_css_px(live_server, new_page, played):
    t, _rnd = played
    page = new_page(locale="tr-TR", viewport=ZOOMED_PHONE)
    page.goto(f"{live_server.url}/t/{t.slug}/round/1/")
    row = page.locator("#board-1")
    cells = row.locator("td")
    view = page.evaluate("document.documentElement.clientWidth")
    for i in (1, 3):  # White, Black
        box = cells.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= view + 0.5, (i, box)
    white, black = cells.nth(1).bounding_box(), cells.nth(3).bounding_box()
    assert white["y"] < black["y"], "White is stacked over Black"
    before = [cells.nth(i).evaluate("el => getComputedStyle(el, '::before').content") for i in (1, 3)]
    assert before == ['"Beyaz: "', '"Siyah: "'], before  # the colours, written out (the header row is hidden)


@pytest.mark.parametrize("suffix", ["standings/", "crosstable/"])
def test_rank_name_and_points_show_without_scrolling(live_server, new_page, played, suffix):
    t, _rnd = played
    page = new_page(locale="tr-TR", viewport=ZOOMED_PHONE)
    page.goto(f"{live_server.url}/t/{t.slug}/{suffix}")
    region = page.locator(".scroll[role=region]").first
    assert region.get_attribute("tabindex") == "0" and region.get_attribute("aria-label")
    bad = page.evaluate("""() => {
      const sc = document.querySelector('.scroll[role=region]');
      const box = sc.getBoundingClientRect(), out = [];
      for (const tr of sc.querySelectorAll('tbody tr')) {
        const rank = tr.querySelector('.rank').getBoundingClientRect();
        const name = tr.querySelector('.name').getBoundingClientRect();
        const pts = tr.querySelector('.pts').getBoundingClientRect();
        if (!(rank.left >= box.left - 1 && rank.right <= name.left + 1 && name.right <= pts.left + 1
              && pts.right <= box.right + 1)) out.push(tr.textContent.trim().slice(0, 40));
      }
      return out;
    }""")
    assert bad == [], f"rows whose rank, name or points need scrolling: {bad}"
    # the columns between them stay reachable: the region scrolls
    assert page.evaluate("document.querySelector('.scroll[role=region]').scrollWidth") > ZOOMED_PHONE["width"]


def test_live_page_keeps_the_names_readable_once_results_are_in(live_server, new_page, played):
    """At 195 CSS px a live board is White over Black with the score under them: no name is squeezed to
    nothing or cut with an ellipsis by the score's set list (the fresh-user trial found 0 px names)."""
    t, _rnd = played
    page = new_page(locale="tr-TR", viewport=ZOOMED_PHONE)
    page.goto(f"{live_server.url}/t/{t.slug}/live/")
    names = page.locator(".live-board .player .name")
    assert names.count() == len(NAMES)
    sizes = names.evaluate_all("els => els.map(e => [e.textContent.trim(), e.clientWidth, e.scrollWidth])")
    view = page.evaluate("document.documentElement.clientWidth")
    for text, width, needed in sizes:
        assert width >= 60 and needed <= width + 1, (text, width, needed)
    first = page.locator(".live-board").first
    score, black = first.locator(".score").bounding_box(), first.locator(".player.black").bounding_box()
    assert score["y"] >= black["y"] + black["height"] - 1, "the score goes under the players"
    wide = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""")
    assert wide == [], wide


def test_phone_menu_closes_on_escape_a_tap_outside_and_focus_leaving(live_server, new_page, played):
    t, _rnd = played
    page = new_page(locale="tr-TR", viewport=ZOOMED_PHONE)
    page.goto(f"{live_server.url}/t/{t.slug}/standings/")
    menu, summary = page.locator("details.menu"), page.locator("details.menu > summary")

    def is_open() -> bool:
        return menu.evaluate("el => el.open")

    assert not is_open()
    summary.click()
    assert is_open() and page.get_by_role("link", name="Oyuncular").is_visible()
    page.mouse.click(100, ZOOMED_PHONE["height"] - 8)  # a tap outside the menu, below its drop-down
    assert not is_open()
    summary.click()
    page.keyboard.press("Escape")
    assert not is_open()
    summary.focus()
    page.keyboard.press("Enter")
    assert is_open()
    for _ in range(12):  # Tab through the menu and out of it
        page.keyboard.press("Tab")
        if not menu.evaluate("el => el.contains(document.activeElement)"):
            break
    assert not menu.evaluate("el => el.contains(document.activeElement)")
    assert not is_open(), "focus left the menu, the menu closed"
