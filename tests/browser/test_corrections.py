"""Correcting a result after the event, in a real browser on a phone-sized screen (390×844).

Set up through the services: a 4-player Swiss of one round, every result entered, the round closed and
the final standings published — so the event is rated (Celery eager: the rating run follows the
publication). Then the organiser, in the site's default language (Turkish), opens round 1, presses
"Düzelt" on board 1, changes the sets so the result flips, says why and saves; the standings page,
the crosstable PDF, the player's rating and the history (board page, ``/t/<slug>/history/``) all show it.

Selectors do not depend on the language: links by URL, form fields by name, ``data-`` attributes.
"""
from __future__ import annotations

import io
import time
from datetime import date

import pytest

from federation.models import Player
from tests.browser.helpers import login as _login
from tests.factories import PlayerFactory, organiser, referee
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Match, Round, Tournament
from tournaments.results.services import SetInput

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
REASON = "Masa 1: 2. ve 3. setin taşları yanlış okunmuş"
ORIGINAL = [(30, 18), (26, 22)]            # white wins 2–0
CORRECTED = [(30, 18), (22, 26), (18, 30)]  # black wins 2–1
DRAW = [(20, 28), (30, 18), (24, 24)]       # ½–½
RATING_TIMEOUT_S = 60  # with a broker the rating run is done by the worker




def _wait_until(predicate, what: str, timeout: float = RATING_TIMEOUT_S):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.25)


def _standings_points(page) -> dict[str, str]:
    """{player name: points text} from the standings table."""
    rows = page.get_by_test_id("standings").locator("tbody tr")
    out = {}
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        out[cells.nth(2).inner_text().strip()] = cells.nth(4).inner_text().strip()
    return out


@pytest.fixture
def rated_event():
    """A finished, rated 4-player Swiss of one round: board 1 white won 2–0, board 2 drawn."""
    from ratings.models import RatingEvent

    org = organiser(username="orga")
    ref = referee(username="hakem")
    t = services.tournament_create(
        name="Düzeltme Kupası 2026", rounds_total=1, created_by=org, start_date=date(2026, 3, 7),
        end_date=date(2026, 3, 7), city="Ankara",
    )
    for i, (last, rating) in enumerate((("Çelik", 1900), ("Öztürk", 1800), ("Şahin", 1700), ("Yıldız", 1600)), 1):
        entry_services.entry_add(
            tournament=t, player=PlayerFactory(federation_id=f"DZ-{i}", last_name=last, first_name="Ayşe", rating=rating),
        )
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="duzeltme-2026")
    round_services.round_publish(round=rnd, user=org)
    b1, b2 = rnd.matches.filter(kind="game").order_by("board")
    result_services.match_result_enter(match=b1, sets=[SetInput(w, b) for w, b in ORIGINAL], user=ref)
    result_services.match_result_enter(match=b2, sets=[SetInput(w, b) for w, b in DRAW], user=ref)
    round_services.round_close(round=rnd, user=org)
    services.standings_publish(tournament=t, user=org)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED and t.standings_published
    event = _wait_until(lambda: RatingEvent.objects.filter(tournament=t).first(), "the rating run after publication")
    assert event.rated_sets == len(ORIGINAL) + len(DRAW)
    return t, org


def test_organiser_corrects_a_rated_result_on_a_phone(live_server, new_page, rated_event):
    from pypdf import PdfReader

    from ratings.models import RatingChange, RatingEvent

    t, _org = rated_event
    base = live_server.url
    b1 = Match.objects.select_related("white__player", "black__player").get(round__tournament=t, round__number=1, board=1)
    white, black = b1.white, b1.black  # starting numbers 1 and 3 (C.04.3: S1 = {1, 2} v S2 = {3, 4})
    assert {white.start_no, black.start_no} == {1, 3}
    rating_before = {p.pk: Player.objects.get(pk=p.pk).rating for p in (white.player, black.player)}
    change_before = RatingChange.objects.get(event__tournament=t, player=white.player).rating_after
    rated_at_before = RatingEvent.objects.get(tournament=t).rated_at

    # anyone: the white player's page before the correction
    anon = new_page(locale="tr-TR", viewport=PHONE)
    anon.goto(f"{base}/players/{white.player.federation_id}/")
    shown_before = int(anon.locator("dl.facts strong").first.inner_text())
    assert shown_before == rating_before[white.player.pk]

    # the organiser, in Turkish, on a phone: round 1 → board 1 → Düzelt
    page = new_page(locale="tr-TR", viewport=PHONE)
    _login(page, base, "orga")
    assert page.locator("html").get_attribute("lang") == "tr"
    page.goto(f"{base}/t/{t.slug}/round/1/")
    board = page.locator("#board-1")
    assert "1 – 0" in board.locator("td.result").inner_text()
    correct = board.locator(f'a[href="/t/{t.slug}/round/1/board/1/"]')
    assert correct.count() == 1
    assert correct.inner_text().strip() == "Düzelt"
    correct.click()
    page.wait_for_url(f"{base}/t/{t.slug}/round/1/board/1/")

    form = page.locator("form.result-form")
    for n, (w, b) in enumerate(ORIGINAL, 1):  # the form starts from the result on record
        assert form.locator(f"input[name=set{n}_white]").input_value() == str(w)
        assert form.locator(f"input[name=set{n}_black]").input_value() == str(b)
    assert form.locator("input[name=set3_white]").input_value() == ""
    reason = form.locator("input[name=reason]")
    assert reason.is_visible()

    # saving without a reason is refused and changes nothing
    for n, (w, b) in enumerate(CORRECTED, 1):
        form.locator(f"input[name=set{n}_white]").fill(str(w))
        form.locator(f"input[name=set{n}_black]").fill(str(b))
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    assert page.url == f"{base}/t/{t.slug}/round/1/board/1/"
    assert page.locator("form.result-form [role=alert]").count() == 1  # the summary above the first set
    assert page.locator("form.result-form p.error#id_reason_error").count() == 1  # under the reason field
    assert form.locator("input[name=reason]").get_attribute("aria-invalid") == "true"
    b1.refresh_from_db()
    assert (b1.white_points, b1.black_points, b1.version) == (1, 0, 2)

    # the correction
    for n, (w, b) in enumerate(CORRECTED, 1):
        form.locator(f"input[name=set{n}_white]").fill(str(w))
        form.locator(f"input[name=set{n}_black]").fill(str(b))
    form.locator("input[name=reason]").fill(REASON)
    form.locator("button[type=submit]").click()
    page.wait_for_url(f"{base}/t/{t.slug}/round/1/")
    result = page.locator("#board-1 td.result").inner_text()
    assert "0 – 1" in result
    assert "30–18, 22–26, 18–30" in result
    b1.refresh_from_db()
    assert (b1.white_points, b1.black_points, b1.version) == (0, 1, 3)
    assert list(b1.sets.order_by("number").values_list("white_stones", "black_stones")) == CORRECTED
    assert Round.objects.get(tournament=t, number=1).status == "closed"

    # the standings page: the organiser's and the public's
    expected = {white.player.full_name: "0", black.player.full_name: "1"}
    page.goto(f"{base}/t/{t.slug}/standings/")
    points = _standings_points(page)
    assert {k: points[k] for k in expected} == expected
    assert sorted(points.values()) == ["0", "0,5", "0,5", "1"]  # Turkish decimal comma
    first = page.get_by_test_id("standings").locator("tbody tr").first.locator("td")
    assert first.nth(2).inner_text().strip() == black.player.full_name
    anon.goto(f"{base}/t/{t.slug}/standings/")
    assert {k: v for k, v in _standings_points(anon).items() if k in expected} == expected

    # the crosstable PDF (a fresh one: the cache is per version) shows the new result
    link = page.locator(f'a[href="/t/{t.slug}/crosstable.pdf"]')
    assert link.count() == 1
    # the page's session, as a click would; with a broker the first answer may be 202 (being built)
    response = _wait_until(
        lambda: (r := page.request.get(base + link.get_attribute("href"))).status != 202 and r, "the crosstable PDF",
    )
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    assert f"{t.slug}-capraz-tablo.pdf" in response.headers.get("content-disposition", "")
    pdf = response.body()
    assert pdf.startswith(b"%PDF")
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert t.name in text
    w, k = white.start_no, black.start_no
    colour_w, colour_k = "B", "S"  # Turkish crosstable letters: B = beyaz (white), S = siyah (black)
    assert f"{k}{colour_w}0" in text and f"{w}{colour_k}1" in text, text
    assert f"{k}{colour_w}1" not in text and f"{w}{colour_k}0" not in text, text
    response = anon.request.get(f"{base}/t/{t.slug}/crosstable.pdf")
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"

    # the rating was run again: white (who now lost) went down, black went up
    _wait_until(lambda: RatingEvent.objects.get(tournament=t).rated_at > rated_at_before, "the re-rating")
    rating_after = {p.pk: Player.objects.get(pk=p.pk).rating for p in (white.player, black.player)}
    assert rating_after[white.player.pk] < rating_before[white.player.pk]
    assert rating_after[black.player.pk] > rating_before[black.player.pk]
    assert RatingChange.objects.get(event__tournament=t, player=white.player).rating_after < change_before
    anon.goto(f"{base}/players/{white.player.federation_id}/")
    shown_after = int(anon.locator("dl.facts strong").first.inner_text())
    assert shown_after == rating_after[white.player.pk] != shown_before
    anon.goto(f"{base}/players/{black.player.federation_id}/")
    assert int(anon.locator("dl.facts strong").first.inner_text()) == rating_after[black.player.pk]

    # the history: on the board page and on /t/<slug>/history/, with the reason
    page.goto(f"{base}/t/{t.slug}/round/1/board/1/")
    item = page.locator('section.history li[data-action="result.correct"]')
    assert item.count() == 1
    assert REASON in item.locator(".reason").inner_text()
    assert "orga" in item.inner_text()
    assert "30-18" in item.inner_text() and "18-30" in item.inner_text()
    assert page.locator('section.history li[data-action="result.enter"]').count() == 1
    page.goto(f"{base}/t/{t.slug}/history/")
    actions = page.locator("section.history li").evaluate_all("els => els.map(e => e.dataset.action)")
    assert actions[:2] == ["result.correct", "standings.publish"]
    item = page.locator('section.history li[data-action="result.correct"]')
    assert item.count() == 1 and REASON in item.locator(".reason").inner_text()
    # the public has no history page
    anon.goto(f"{base}/t/{t.slug}/history/")
    assert anon.locator("section.history").count() == 0


def test_correction_form_speaks_turkish(live_server, new_page, rated_event):
    """The site is Turkish first: the correction form of a closed round must not be in English."""
    t, _org = rated_event
    page = new_page(locale="tr-TR", viewport=PHONE)
    _login(page, live_server.url, "orga")
    page.goto(f"{live_server.url}/t/{t.slug}/round/1/board/1/")
    assert page.locator("html").get_attribute("lang") == "tr"
    text = page.locator("main").inner_text()
    english = [s for s in ("Save correction", "Reason for the correction", "The round is closed. A correction needs")
               if s in text]
    assert english == [], f"English on the Turkish page {page.url}: {english}"


def test_tournament_page_title_is_its_name_for_the_organiser(live_server, new_page, rated_event):
    """The organiser's tournament page shows a history section; the page title (browser tab) must stay
    the tournament's name, as it is for the public."""
    t, _org = rated_event
    anon = new_page(locale="tr-TR", viewport=PHONE)
    anon.goto(f"{live_server.url}/t/{t.slug}/")
    assert anon.title().strip() == t.name
    page = new_page(locale="tr-TR", viewport=PHONE)
    _login(page, live_server.url, "orga")
    page.goto(f"{live_server.url}/t/{t.slug}/")
    assert page.locator('main section.history li[data-action="standings.publish"]').count() == 1
    title = page.title().strip()
    assert title == t.name, f"<title> of {page.url} is {len(title)} characters: {title[:120]!r}…"
