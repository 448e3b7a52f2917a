"""Paper for the hall in a real browser: the organiser downloads the result slips and the pairing list of
a round from the round page (desktop and phone), the test decodes a slip's QR code, and the referee
who scans it lands on that board's result form and enters the result."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.browser.helpers import login as _login
from tests.factories import PASSWORD, PlayerFactory, organiser, referee
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Match
from tournaments.results.services import SetInput

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}




@pytest.fixture
def published_round():
    org = organiser(username="orga")
    referee(username="hakem")
    t = services.tournament_create(name="Duvar Kupası Iğdır", rounds_total=3, created_by=org)
    for i, (last, first) in enumerate((("İnce", "Ağça"), ("Doğan", "Şükrü"), ("Işık", "Gül"), ("Çelik", "Ömer"))):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=1900 - 100 * i, last_name=last, first_name=first))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="duvar")
    round_services.round_publish(round=rnd, user=org)
    return t


def _download(page, link_name: str, dest: Path) -> bytes:
    """Click the link as a person would (Chromium opens the PDF in its viewer: a 200 application/pdf
    answer), then save the same file with the session's cookies (the download)."""
    link = page.get_by_role("link", name=link_name, exact=True)
    href = link.get_attribute("href")
    with page.expect_response(lambda r: r.url.endswith(href)) as info:
        link.click()
    assert info.value.status == 200 and info.value.headers["content-type"] == "application/pdf"
    response = page.request.get(info.value.url)
    assert response.ok and response.headers["content-type"] == "application/pdf"
    dest.write_bytes(response.body())
    data = dest.read_bytes()
    assert data[:5] == b"%PDF-"
    page.go_back()
    return data


def _qr_codes(pdf: Path) -> list[str]:
    import zxingcpp
    from PIL import Image

    subprocess.run(["pdftoppm", "-r", "200", "-png", str(pdf), str(pdf.with_suffix(""))], check=True)
    found = []
    for png in sorted(pdf.parent.glob(f"{pdf.stem}*.png")):
        with Image.open(png) as im:
            found += [r.text for r in zxingcpp.read_barcodes(im.convert("L"), formats=zxingcpp.BarcodeFormat.QRCode)]
    return found


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="poppler-utils missing")
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_print_slips_and_pairings_then_scan_a_slip(live_server, new_page, published_round, viewport, tmp_path):
    t = published_round
    base = live_server.url

    orga = new_page(viewport=viewport)
    _login(orga, base, "orga")
    orga.goto(f"{base}/t/{t.slug}/round/1/")
    paper = orga.get_by_test_id("round-paper")
    assert paper.is_visible()
    slips = _download(orga, "Result slips (PDF)", tmp_path / "slips.pdf")
    pairings = _download(orga, "Pairing list (PDF)", tmp_path / "pairings.pdf")
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(tmp_path / "pairings.pdf"), "-"], check=True,
                          capture_output=True).stdout.decode()
    for name in ("İnce, Ağça", "Doğan, Şükrü", "Işık, Gül", "Çelik, Ömer"):
        assert name in text
    assert len(slips) > 1000

    codes = _qr_codes(tmp_path / "slips.pdf")
    assert sorted(codes) == [f"{base}/t/{t.slug}/round/1/board/{b}/" for b in (1, 2)]
    url = next(c for c in codes if c.endswith("/board/2/"))

    # the referee scans board 2's slip: the login page, then the board's result form
    phone = new_page(viewport=viewport)
    phone.goto(url)
    assert "/accounts/login/" in phone.url
    phone.fill("input[name=username]", "hakem")
    phone.fill("input[name=password]", PASSWORD)
    phone.click("main form button[type=submit]")
    phone.wait_for_url(url)
    match = Match.objects.select_related("white__player", "black__player").get(round__tournament=t, board=2)
    assert match.white.player.last_name in phone.locator("main").inner_text()
    for field, value in (("set1_white", "30"), ("set1_black", "18"), ("set2_white", "26"), ("set2_black", "22")):
        phone.fill(f"input[name={field}]", value)
    phone.get_by_role("button", name="Save result").click()
    phone.wait_for_url(f"{base}/t/{t.slug}/round/1/")
    assert "1 – 0" in phone.locator("#board-2 td.result").inner_text()


def test_anonymous_visitors_see_the_pairing_list_but_not_the_slips(live_server, new_page, published_round):
    t = published_round
    page = new_page(viewport=PHONE)
    page.goto(f"{live_server.url}/t/{t.slug}/round/1/")
    links = page.get_by_test_id("round-paper")
    assert links.get_by_role("link", name="Pairing list (PDF)").is_visible()
    assert links.get_by_role("link", name="Result slips (PDF)").count() == 0
    response = page.request.get(f"{live_server.url}/t/{t.slug}/round/1/pairings.pdf?large=1")
    assert response.status == 200 and response.body()[:5] == b"%PDF-"
    page.goto(f"{live_server.url}/t/{t.slug}/round/1/slips.pdf")
    assert "/accounts/login/" in page.url


def test_printing_a_public_page_leaves_out_navigation_and_buttons(live_server, new_page, published_round):
    t = published_round
    page = new_page()
    page.goto(f"{live_server.url}/t/{t.slug}/round/1/")
    assert page.locator("header.top").is_visible() and page.get_by_test_id("round-paper").is_visible()
    page.emulate_media(media="print")
    assert not page.locator("header.top").is_visible()
    assert not page.locator("footer").is_visible()
    assert not page.get_by_test_id("round-paper").is_visible()
    assert page.locator("table.pairing").is_visible()
    pdf = page.pdf()  # Chromium's own print: the names are there
    assert pdf[:5] == b"%PDF-"


def test_round_page_warns_that_the_slips_point_to_localhost(live_server, new_page, published_round, settings):
    """The live server is 127.0.0.1/localhost: without SITE_URL the organiser sees, next to the slips link,
    that phones cannot reach what the QR codes point to; the anonymous visitor sees nothing of it."""
    settings.SITE_URL = ""
    t = published_round
    page = new_page()
    page.goto(f"{live_server.url}/t/{t.slug}/round/1/")
    assert page.get_by_test_id("slips-loopback-warning").count() == 0
    _login(page, live_server.url, "orga")
    page.goto(f"{live_server.url}/t/{t.slug}/round/1/")
    warning = page.get_by_test_id("slips-loopback-warning")
    assert warning.is_visible() and "SITE_URL" in warning.inner_text()


def test_printed_crosstable_keeps_each_name_on_one_line(live_server, new_page):
    """A4 portrait (about 720 CSS pixels between the margins): the crosstable's names do not wrap and
    its type is smaller than the page's."""
    org = organiser(username="capraz")
    t = services.tournament_create(name="Uzun Adlar Kupası", rounds_total=5, created_by=org,
                                   tiebreaks=["buchholz", "sonneborn_berger", "set_points", "stone_margin"])
    for i, (last, first) in enumerate((("Karaosmanoğlu-Büyükçekmeceli", "Ayşegül Nur"),
                                       ("Kahramanmaraşlıoğulları", "Mehmet Şükrü"), ("İnce", "Ağça"),
                                       ("Doğan", "Şükrü"))):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=1500 - i, last_name=last, first_name=first))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="uzun")
    round_services.round_publish(round=rnd, user=org)
    for m in rnd.matches.filter(kind="game"):
        result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(28, 20)], user=org)
    round_services.round_close(round=rnd, user=org)
    services.standings_publish(tournament=t, user=org)
    page = new_page()
    page.set_viewport_size({"width": 720, "height": 1000})
    page.goto(f"{live_server.url}/t/{t.slug}/crosstable/")
    page.emulate_media(media="print")
    cells = page.locator("table.crosstable td.name")
    assert cells.count() >= 4
    lines = page.evaluate("""() => Array.from(document.querySelectorAll('table.crosstable td.name')).map(td => {
        const r = document.createRange(); r.selectNodeContents(td);
        return new Set(Array.from(r.getClientRects()).filter(x => x.width > 0).map(x => Math.round(x.top))).size; })""")
    assert lines and all(n == 1 for n in lines), lines
    sizes = page.evaluate("""() => [parseFloat(getComputedStyle(document.querySelector('table.crosstable td.name')).fontSize),
                                    parseFloat(getComputedStyle(document.body).fontSize)]""")
    assert sizes[0] < sizes[1], sizes
