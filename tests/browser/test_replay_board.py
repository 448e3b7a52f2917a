"""Issue 25, a fresh user's trial: the game-replay board was a black rectangle — the site's
Content-Security-Policy (``style-src 'self'``) blocked the ``<style>`` inside the board's SVG, so every
shape fell back to SVG's default black fill. The board's rules now live in ``static/css/site.css``;
this looks at the board Chromium actually draws."""
from __future__ import annotations

import io
import random

import pytest
from django.urls import reverse
from PIL import Image

from federation.sample_data import play_set
from tests.factories import PlayerFactory, organiser
from tournaments import services
from tournaments.results.services import SetInput
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOARD_FILL = "rgb(233, 211, 176)"  # .mangala-board .board  #e9d3b0
HOLE_FILL = "rgb(248, 236, 217)"  # .mangala-board .hole   #f8ecd9
LAST_FILL = "rgb(255, 216, 115)"  # .mangala-board .last .hole  #ffd873


@pytest.fixture
def recorded_set():
    """A published round whose board 1 has a set recorded move by move."""
    org = organiser(username="orga")
    t = services.tournament_create(name="Replay Kupası", rounds_total=3, created_by=org)
    for rating, last in zip((1900, 1800, 1700, 1600), ("Yılmaz", "Kaya", "Demir", "Şahin")):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=rating, last_name=last, first_name="Ayşe"))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="replay")
    round_services.round_publish(round=rnd, user=org)
    match = rnd.matches.get(board=1)
    moves, (first, second) = play_set(random.Random(11), 0.7, 0.7)
    result_services.match_result_enter(match=match, sets=[SetInput(first, second, moves=" ".join(map(str, moves)))], user=org)
    return match.sets.get(number=1)


def _watch(page) -> list[str]:
    """CSP violations and script errors the page reports."""
    problems: list[str] = []
    page.on("console", lambda msg: problems.append(msg.text) if "Content Security Policy" in msg.text else None)
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    return problems


def _fill(page, selector: str) -> str:
    return page.locator(selector).first.evaluate("el => getComputedStyle(el).fill")


def test_replay_board_black_rectangle_is_drawn_in_colour_under_the_csp(live_server, new_page, recorded_set):
    page = new_page(viewport={"width": 390, "height": 844})
    problems = _watch(page)
    response = page.goto(f"{live_server.url}{reverse('set-replay', args=[recorded_set.id])}?ply=1#board")
    assert "style-src 'self'" in response.headers["content-security-policy"]
    board = page.locator("svg.mangala-board")
    board.wait_for()
    assert board.locator("style").count() == 0  # nothing inline for the CSP to block
    # the computed styles come from site.css: the board, the pits and the pit of the last move
    assert _fill(page, "svg.mangala-board rect.board") == BOARD_FILL
    assert _fill(page, "svg.mangala-board g.pit:not(.last) rect.hole") == HOLE_FILL
    assert _fill(page, "svg.mangala-board g.last rect.hole") == LAST_FILL
    assert _fill(page, "svg.mangala-board .count") == "rgb(20, 32, 43)"
    # and the pixels: the middle of a pit's hole (away from its count and dots) is not black
    hole = page.locator("svg.mangala-board g.pit:not(.last) rect.hole").first
    box = hole.bounding_box()
    assert box and box["width"] > 20
    shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    scale = shot.width / 390
    x, y = (box["x"] + box["width"] * 0.12) * scale, (box["y"] + box["height"] * 0.5) * scale
    r, g, b = shot.getpixel((int(x), int(y)))
    assert min(r, g, b) > 180, f"pit pixel is {(r, g, b)}, not the board's light wood"
    board_box = board.bounding_box()
    corner = shot.getpixel((int((board_box["x"] + 30) * scale), int((board_box["y"] + 30) * scale)))
    assert min(corner) > 150, f"board pixel is {corner}"
    assert problems == []
