"""Paper for the hall in a real browser: the organiser downloads the result slips and the pairing list of
a round from the round page (desktop and phone), the test decodes a slip's QR code, and the referee
who scans it lands on that board's result form and enters the result."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.factories import PASSWORD, PlayerFactory, organiser, referee
from tournaments import services
from tournaments.models import Match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _login(page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


@pytest.fixture
def published_round():
    org = organiser(username="orga")
    referee(username="hakem")
    t = services.tournament_create(name="Duvar Kupası Iğdır", rounds_total=3, created_by=org)
    for i, (last, first) in enumerate((("İnce", "Ağça"), ("Doğan", "Şükrü"), ("Işık", "Gül"), ("Çelik", "Ömer"))):
        services.entry_add(tournament=t, player=PlayerFactory(rating=1900 - 100 * i, last_name=last, first_name=first))
    rnd = services.round_pair(tournament=t, user=org, coin_seed="duvar")
    services.round_publish(round=rnd, user=org)
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
