"""Paper for the hall: the pairing list of a round (by board with points before the round, then
alphabetical), the referees' result slips with a QR code per board, and the standings PDF — their
text read back with pdftotext, their QR codes decoded with zxing-cpp from the rendered page images,
and who may download which."""
from __future__ import annotations

import html
import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from federation.collation import player_sort_key
from federation.formatting import number, points
from tests.factories import PASSWORD, ClubFactory, PlayerFactory, UserFactory, organiser, referee
from tournaments import selectors
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Match, Round
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db

needs_poppler = pytest.mark.skipif(
    not (shutil.which("pdftotext") and shutil.which("pdftoppm")), reason="poppler-utils (pdftotext, pdftoppm) missing"
)

# Seven players (one bye a round), names with every Turkish letter a printer must keep: ç ğ ı İ ö ş ü.
NAMES = [("İnce", "Ağça"), ("Doğan", "Şükrü"), ("Işık", "Gül"), ("Çelik", "Ömer"), ("Şahin", "İlkay"),
         ("Öztürk", "Ilgın"), ("Aydın", "Çağrı")]


def build_hall_event(slug: str = "salon-kupasi"):
    """Round 1 played and closed (so round 2 has points before it), round 2 published without results,
    round 3 not paired; standings published after round 1."""
    org = organiser(username="salon-org")
    ref = referee(username="salon-hakem")
    club = ClubFactory(name="Kadıköy Mangala Kulübü")
    t = services.tournament_create(name="Salon Kupası İğdır", rounds_total=3, created_by=org, slug=slug,
                                   tiebreaks=["buchholz", "sonneborn_berger", "set_points", "stone_margin"])
    for i, (last, first) in enumerate(NAMES):
        entry_services.entry_add(tournament=t, player=PlayerFactory(
            last_name=last, first_name=first, rating=1900 - 50 * i, club=club if i % 2 == 0 else None,
            city="Eskişehir"))
    r1 = round_services.round_pair(tournament=t, user=org, coin_seed="salon")
    round_services.round_publish(round=r1, user=org)
    plans = [[(30, 18), (26, 22)], [(20, 28), (30, 18), (24, 24)], [(10, 38), (18, 30)]]
    for m, plan in zip(r1.matches.filter(kind="game").order_by("board"), plans):
        result_services.match_result_enter(match=m, sets=[SetInput(a, b) for a, b in plan], user=ref)
    round_services.round_close(round=r1, user=org)
    services.standings_publish(tournament=t, user=org)
    r2 = round_services.round_pair(tournament=t, user=org)
    round_services.round_publish(round=r2, user=org)
    t.refresh_from_db()
    return t, org, ref


@pytest.fixture
def hall(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return build_hall_event()


def _client(user=None, lang="tr") -> Client:
    c = Client(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        assert c.login(username=user.username, password=PASSWORD)
    return c


def _pdf(response) -> bytes:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    data = b"".join(response.streaming_content) if response.streaming else response.content
    assert data[:5] == b"%PDF-"
    return data


def pdf_text(data: bytes, tmp_path: Path, *, mode: str = "-layout") -> str:
    """The PDF's text by pdftotext: ``-layout`` keeps table rows on one line; ``-raw`` keeps the
    drawing order (a two-column list column by column)."""
    src = tmp_path / "in.pdf"
    src.write_bytes(data)
    args = ["pdftotext", "-enc", "UTF-8", mode, str(src), "-"]
    return subprocess.run(args, check=True, capture_output=True).stdout.decode("utf-8")


def pdf_pages_png(data: bytes, tmp_path: Path, dpi: int = 200) -> list[Path]:
    src = tmp_path / "slips.pdf"
    src.write_bytes(data)
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(src), str(tmp_path / "page")], check=True)
    return sorted(tmp_path.glob("page*.png"))


def decode_qr_codes(data: bytes, tmp_path: Path) -> list[str]:
    """Every QR code on every page of the PDF ``data``, decoded (zxing-cpp on 200 dpi page images)."""
    import zxingcpp
    from PIL import Image

    texts = []
    for png in pdf_pages_png(data, tmp_path):
        with Image.open(png) as im:
            texts += [r.text for r in zxingcpp.read_barcodes(im.convert("L"), formats=zxingcpp.BarcodeFormat.QRCode)]
    return texts


def tr(msgid: str, context: str | None = None, lang: str = "tr") -> str:
    """``msgid`` in ``lang`` (new texts read whatever the catalogue says, so these tests hold before and
    after the translators' pass)."""
    with translation.override(lang):
        return translation.pgettext(context, msgid) if context else translation.gettext(msgid)


def _fmt(value) -> str:
    return points(value)


def _round(t, n) -> Round:
    return t.rounds.get(number=n)


def _play_and_close(t, n, org, ref) -> None:
    rnd = _round(t, n)
    for m in rnd.matches.filter(kind="game"):
        result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(28, 20)], user=ref)
    round_services.round_close(round=rnd, user=org)


# --- pairing list ------------------------------------------------------------------------------------


@needs_poppler
def test_pairing_list_by_board_with_points_before_the_round_in_turkish(hall, tmp_path):
    t, org, ref = hall
    text = pdf_text(_pdf(_client().get(f"/t/{t.slug}/round/2/pairings.pdf")), tmp_path)
    for word in ("Salon Kupası İğdır", "2. tur", tr("Pairings by board"), "Beyaz", "Siyah", "Sonuç",
                 tr("Pts")):
        assert word in text, word
    # points before round 2 = the published standings after round 1 (an independent computation)
    after_r1 = {line.start_no: line.points for line in
                selectors.tournament_standings(tournament=t, public_only=True).lines}
    boards = list(_round(t, 2).matches.select_related("white__player", "black__player").order_by("board"))
    lines = text.splitlines()
    for m in boards:
        w = m.white
        row = next(line for line in lines if re.match(rf"\s*{m.board}\s+{w.start_no}\. ", line))
        if m.kind == Match.Kind.BYE:
            assert w.player.full_name in row and _fmt(after_r1[w.start_no]) in row
            continue
        b = m.black
        pattern = (rf"^\s*{m.board}\s+{w.start_no}\. {re.escape(w.player.full_name)}\s+{re.escape(_fmt(after_r1[w.start_no]))}"
                   rf"\s+{re.escape(_fmt(after_r1[b.start_no]))}\s+{b.start_no}\. {re.escape(b.player.full_name)}\s*$")
        assert re.search(pattern, row), (pattern, row)


@needs_poppler
def test_pairing_list_alphabetical_in_turkish_order_with_board_and_colour(hall, tmp_path):
    t, org, ref = hall
    text = pdf_text(_pdf(_client().get(f"/t/{t.slug}/round/2/pairings.pdf")), tmp_path, mode="-raw")
    alpha = text.split(tr("Players in alphabetical order"), 1)[1]
    rnd = _round(t, 2)
    where = {}
    for m in rnd.matches.select_related("white__player", "black__player"):
        where[m.white.player.full_name] = (m.board, "bay" if m.kind == Match.Kind.BYE else "beyaz")
        if m.black_id:
            where[m.black.player.full_name] = (m.board, "siyah")
    players = sorted((e.player for e in t.entries.select_related("player")), key=player_sort_key)
    found = []
    for line in alpha.splitlines():
        for p in players:
            if p.full_name in line:
                board, colour = where[p.full_name]
                assert re.fullmatch(rf"{re.escape(p.full_name)} \({t.entries.get(player=p).start_no}\) {board} {colour}", line.strip()), line
                found.append(p.full_name)
    assert found == [p.full_name for p in players]
    # Turkish order: Aydın, Çelik, Doğan, Işık, İnce, Öztürk, Şahin
    assert [n.split(",")[0] for n in found] == ["Aydın", "Çelik", "Doğan", "Işık", "İnce", "Öztürk", "Şahin"]


@needs_poppler
def test_pairing_list_keeps_turkish_letters_and_speaks_english(hall, tmp_path):
    t, org, ref = hall
    tr = pdf_text(_pdf(_client().get(f"/t/{t.slug}/round/2/pairings.pdf")), tmp_path)
    for word in ("İnce, Ağça", "Doğan, Şükrü", "Işık, Gül", "Çelik, Ömer", "Şahin, İlkay", "Öztürk, Ilgın",
                 "Kadıköy Mangala Kulübü"):
        assert word in tr, word
    en = pdf_text(_pdf(_client(lang="en").get(f"/t/{t.slug}/round/2/pairings.pdf")), tmp_path)
    with translation.override("en"):
        for word in ("Round 2", "Pairings by board", "Players in alphabetical order", "White", "Black", "Result"):
            assert word in en, word
    assert re.search(r"\bwhite\s*$", en, re.M) and re.search(r"\bblack\s*$", en, re.M)
    assert "İnce, Ağça" in en and "beyaz" not in en


def _word_heights(data: bytes, tmp_path: Path, word: str) -> list[float]:
    src = tmp_path / "b.pdf"
    src.write_bytes(data)
    html = subprocess.run(["pdftotext", "-bbox", str(src), "-"], check=True, capture_output=True).stdout.decode()
    return [float(m.group(2)) - float(m.group(1)) for m in
            re.finditer(rf'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">{word}</word>', html)]


@needs_poppler
def test_large_type_for_the_wall(hall, tmp_path):
    t, org, ref = hall
    normal = _pdf(_client().get(f"/t/{t.slug}/round/2/pairings.pdf"))
    large = _pdf(_client().get(f"/t/{t.slug}/round/2/pairings.pdf?large=1"))
    small_h, big_h = _word_heights(normal, tmp_path, "Doğan,"), _word_heights(large, tmp_path, "Doğan,")
    assert small_h and big_h and min(big_h) > 1.4 * max(small_h)
    text = pdf_text(large, tmp_path)
    assert all(m.white.player.full_name in text for m in _round(t, 2).matches.select_related("white__player"))


def test_pairing_list_follows_the_publish_gate(hall):
    t, org, ref = hall
    nobody = UserFactory(username="seyirci")
    _play_and_close(t, 2, org, ref)  # round 3 is paired once round 2 is closed
    draft = round_services.round_pair(tournament=t, user=org)
    assert draft.status == Round.Status.PAIRED
    assert _client().get(f"/t/{t.slug}/round/2/pairings.pdf").status_code == 200  # closed: public
    assert _client().get(f"/t/{t.slug}/round/3/pairings.pdf").status_code == 404  # draft
    assert _client(nobody).get(f"/t/{t.slug}/round/3/pairings.pdf").status_code == 404
    for user in (ref, org):
        r = _client(user).get(f"/t/{t.slug}/round/3/pairings.pdf")
        assert r.status_code == 200 and "no-store" in r["Cache-Control"]
    assert _client(org).get(f"/t/{t.slug}/round/9/pairings.pdf").status_code == 404


def test_pairing_list_is_cached_per_state_of_the_round_and_queued_when_a_worker_builds_it(hall, settings, monkeypatch):
    from tournaments import tasks
    from tournaments.paper.hall import pairings_pdf_build, pairings_pdf_path

    t, org, ref = hall
    rnd = _round(t, 2)
    first = pairings_pdf_path(rnd, "tr")
    assert first != pairings_pdf_path(rnd, "tr", large=True) != pairings_pdf_path(rnd, "en")
    _pdf(_client().get(f"/t/{t.slug}/round/2/pairings.pdf"))  # embedded mode: built in the request, kept
    assert first.exists()
    m = rnd.matches.filter(kind="game").order_by("board").first()
    result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(28, 20)], user=ref)
    rnd.refresh_from_db()
    t.refresh_from_db()
    second = pairings_pdf_path(_round(t, 2), "tr")
    assert second != first and not second.exists()  # a result: a new file

    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued = []
    monkeypatch.setattr(tasks.round_pairings_pdf_task, "delay", lambda *args: queued.append(args))
    c = _client()
    r1, r2 = c.get(f"/t/{t.slug}/round/2/pairings.pdf"), c.get(f"/t/{t.slug}/round/2/pairings.pdf")
    assert (r1.status_code, r2.status_code) == (202, 202) and f"/t/{t.slug}/round/2/" in r1.content.decode()
    assert queued == [(rnd.id, "tr", False)]
    pairings_pdf_build(round=_round(t, 2), lang="tr")  # what the worker does
    _pdf(c.get(f"/t/{t.slug}/round/2/pairings.pdf"))


@needs_poppler
def test_draft_pairing_list_says_so(hall, tmp_path):
    t, org, ref = hall
    _play_and_close(t, 2, org, ref)
    round_services.round_pair(tournament=t, user=org)
    text = pdf_text(_pdf(_client(org).get(f"/t/{t.slug}/round/3/pairings.pdf")), tmp_path)
    assert tr("Draft: not published yet") in text


# --- result slips --------------------------------------------------------------------------------------


def test_slips_are_for_referees_and_organisers_only(hall):
    t, org, ref = hall
    anon = _client().get(f"/t/{t.slug}/round/2/slips.pdf")
    assert anon.status_code == 302 and anon["Location"].startswith("/accounts/login/")
    nobody = UserFactory(username="meraklı")
    assert _client(nobody).get(f"/t/{t.slug}/round/2/slips.pdf").status_code == 403
    for user in (ref, org):
        r = _client(user).get(f"/t/{t.slug}/round/2/slips.pdf")
        assert r.status_code == 200 and r["Content-Type"] == "application/pdf" and "no-store" in r["Cache-Control"]
    assert _client(org).get(f"/t/{t.slug}/round/9/slips.pdf").status_code == 404


@needs_poppler
def test_one_slip_per_board_whose_qr_code_decodes_to_the_boards_result_form(hall, tmp_path):
    t, org, ref = hall
    data = _pdf(_client(ref).get(f"/t/{t.slug}/round/2/slips.pdf"))
    games = list(_round(t, 2).matches.filter(kind="game").order_by("board"))
    decoded = decode_qr_codes(data, tmp_path)
    expected = [f"http://testserver/t/{t.slug}/round/2/board/{m.board}/" for m in games]
    assert sorted(decoded) == sorted(expected)  # one QR per game board, none for the bye
    # and each URL is the board's result form
    from django.urls import resolve

    for url in decoded:
        assert resolve(url.removeprefix("http://testserver")).url_name == "match-result"


@needs_poppler
def test_slip_text_names_the_players_set_starters_and_signature_lines(hall, tmp_path):
    t, org, ref = hall
    data = _pdf(_client(ref).get(f"/t/{t.slug}/round/2/slips.pdf"))
    text = pdf_text(data, tmp_path)
    games = list(_round(t, 2).matches.filter(kind="game").select_related("white__player", "black__player"))
    assert text.count("Salon Kupası İğdır") == len(games)
    for m in games:
        assert f"Masa {m.board}" in text
        assert f"{m.white.start_no}. {m.white.player.full_name}" in text
        assert f"{m.black.start_no}. {m.black.player.full_name}" in text
    # white starts odd sets, black even ones (games.engine.set_starter), one row per slip
    label = tr("First move")
    starts = [line.replace(label, "").split() for line in text.splitlines() if line.strip().startswith(label)]
    assert starts == [["BEYAZ", "SİYAH", "BEYAZ"]] * len(games)  # Turkish capitals: siyah → SİYAH
    for msgid in ("Withdrew", "White's signature", "Black's signature", "Referee's signature"):
        assert text.count(tr(msgid)) == len(games), msgid
    for msgid, context in (("Starts the set", None), ("Second", "slip: the player who does not start the set")):
        assert text.count(tr(msgid, context)) == len(games), msgid
    pages = subprocess.run(["pdfinfo", "-"], input=data, capture_output=True).stdout.decode() if shutil.which(
        "pdfinfo") else ""
    if pages:
        assert re.search(r"Pages:\s+1\b", pages)  # three boards: one A4 sheet


@needs_poppler
def test_slips_in_english_with_five_sets(hall, tmp_path):
    t, org, ref = hall
    t.sets_per_match = 5
    t.save(update_fields=["sets_per_match"])
    text = pdf_text(_pdf(_client(org, lang="en").get(f"/t/{t.slug}/round/2/slips.pdf")), tmp_path)
    starts = [line.split() for line in text.splitlines() if line.strip().startswith("First move")]
    assert len(starts) == 3 and all(s == ["First", "move", "WHITE", "BLACK", "WHITE", "BLACK", "WHITE"] for s in starts)
    for word in ("Board 1", "Starts the set", "Second", "Withdrew", "Referee's signature", "Scan to enter the result"):
        assert word in text, word
    assert "White's stones" not in text and "points to" not in text  # rows by starter; testserver is no loopback


def _stones_rows(text: str, label: str) -> list[list[str]]:
    """The cells of every slip's stones row ``label`` (pdftotext -layout: the names on the label's line)."""
    return [re.split(r"\s{2,}", line.strip())[1:] for line in text.splitlines() if line.strip().startswith(label)]


@needs_poppler
@pytest.mark.parametrize("lang", ["tr", "en"])
def test_slip_stones_rows_follow_the_result_form_the_sets_starter_first(hall, tmp_path, lang):
    """The phone's result form lists each set's starter first (white in sets 1 and 3, black in set 2); the
    slip's first stones row is that player, named, the second row the other one — copied row by row, the
    players are never swapped."""
    t, org, ref = hall
    text = pdf_text(_pdf(_client(ref, lang=lang).get(f"/t/{t.slug}/round/2/slips.pdf")), tmp_path)
    starts = tr("starts", "slip: the set's starter", lang)
    first = _stones_rows(text, tr("Starts the set", lang=lang))
    second = _stones_rows(text, tr("Second", "slip: the player who does not start the set", lang))
    games = list(_round(t, 2).matches.filter(kind="game").order_by("board").select_related("white__player",
                                                                                          "black__player"))
    assert len(first) == len(second) == len(games)
    for m, row1, row2 in zip(games, first, second):
        w, b = m.white.player.full_name, m.black.player.full_name
        assert row1 == [f"{w} ({starts})", f"{b} ({starts})", f"{w} ({starts})"]  # set 2: black first
        assert row2 == [b, w, b]
    # the same order as the board's result form (its set 2 names black first)
    m = games[0]
    form = _client(ref, lang=lang).get(f"/t/{t.slug}/round/2/board/{m.board}/").content.decode()
    form = html.unescape(form)
    set2 = form[form.index('data-set="2"'):form.index('data-set="3"')]
    assert set2.index(m.black.player.last_name) < set2.index(m.white.player.last_name)


# --- QR codes and loopback addresses ----------------------------------------------------------------------


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1:8000", "127.0.0.1"), ("127.0.1.1", "127.0.1.1"), ("localhost:8000", "localhost"),
    ("salon.localhost", "salon.localhost"), ("[::1]:8000", "[::1]"), ("0.0.0.0:8000", "0.0.0.0"),
    ("192.168.1.20:8000", ""), ("turnuva.example.org", ""), ("testserver", ""), ("10.0.0.5", ""),
])
def test_loopback_host(host, loopback):
    from tournaments.paper.hall import loopback_host

    assert loopback_host(host) == loopback


@needs_poppler
def test_slips_opened_on_localhost_warn_under_the_qr_code(hall, tmp_path, settings):
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["*"]
    t, org, ref = hall
    data = _pdf(_client(ref, lang="en").get(f"/t/{t.slug}/round/2/slips.pdf", HTTP_HOST="127.0.0.1:8000"))
    text = pdf_text(data, tmp_path)
    warning = "This code points to 127.0.0.1 — set SITE_URL or open the site by its network address."
    assert text.count(warning) == 3  # one per slip, still made
    assert all(u.startswith("http://127.0.0.1:8000/") for u in decode_qr_codes(data, tmp_path))
    # Turkish too (whatever the catalogue says)
    text_tr = pdf_text(_pdf(_client(ref).get(f"/t/{t.slug}/round/2/slips.pdf", HTTP_HOST="localhost:8000")),
                       tmp_path)
    assert "localhost" in text_tr and "SITE_URL" in text_tr


@needs_poppler
def test_site_url_is_the_base_of_the_qr_codes(hall, tmp_path, settings):
    settings.SITE_URL = "https://turnuva.example.org"
    settings.ALLOWED_HOSTS = ["*"]
    t, org, ref = hall
    data = _pdf(_client(ref).get(f"/t/{t.slug}/round/2/slips.pdf", HTTP_HOST="127.0.0.1:8000"))
    games = _round(t, 2).matches.filter(kind="game")
    assert sorted(decode_qr_codes(data, tmp_path)) == sorted(
        f"https://turnuva.example.org/t/{t.slug}/round/2/board/{m.board}/" for m in games)
    assert "SITE_URL" not in pdf_text(data, tmp_path)
    page = _client(ref).get(f"/t/{t.slug}/round/2/", HTTP_HOST="127.0.0.1:8000").content.decode()
    assert 'data-testid="slips-loopback-warning"' not in page


def test_round_page_warns_organisers_and_referees_when_the_slips_would_point_to_localhost(hall, settings):
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["*"]
    t, org, ref = hall
    for user in (ref, org):
        with translation.override("en"):
            page = html.unescape(_client(user, lang="en").get(f"/t/{t.slug}/round/2/",
                                                              HTTP_HOST="localhost:8000").content.decode())
        assert 'data-testid="slips-loopback-warning"' in page
        assert "The slips' QR codes will point to localhost" in page and "SITE_URL" in page
        # next to the slips link
        assert 0 < page.index("slips-loopback-warning") - page.index("slips.pdf") < 400
    anon = _client().get(f"/t/{t.slug}/round/2/", HTTP_HOST="localhost:8000").content.decode()
    assert "slips-loopback-warning" not in anon
    # a network address: no warning
    page = _client(org).get(f"/t/{t.slug}/round/2/", HTTP_HOST="192.168.1.20:8000").content.decode()
    assert "slips-loopback-warning" not in page and "slips.pdf" in page


# --- standings -----------------------------------------------------------------------------------------


@needs_poppler
@pytest.mark.parametrize("lang", ["tr", "en"])
def test_standings_pdf_equals_the_standings_table(hall, tmp_path, lang):
    t, org, ref = hall
    data = _pdf(_client(lang=lang).get(f"/t/{t.slug}/standings.pdf"))
    text = pdf_text(data, tmp_path)
    with translation.override(lang):
        st = selectors.tournament_standings(tournament=t, public_only=True, lang=lang)
        assert len(st.lines) == 7 and len(st.tiebreak_labels) == 4
        header = next(r for r in text.splitlines() if "Buchholz" in r)
        for label in st.tiebreak_labels:
            assert label.split()[0] in header
        rows = [r for r in text.splitlines() if re.match(r"\s*\d+=?\s+\d+\s+\S", r)]
        assert len(rows) == len(st.lines)
        for line, row in zip(st.lines, rows):  # same order, every value as the page prints it
            cells = [f"{line.rank}{'=' if line.shared else ''}", str(line.start_no), line.name, line.club,
                     str(line.rating), points(line.points)] + [number(v) for v in line.tiebreaks]
            assert re.fullmatch(r"\s*" + r"\s+".join(re.escape(c) for c in cells) + r"\s*", row), (cells, row)
    # ... and the standings page shows the same rows (the PDF adds the club)
    page = _client(lang=lang).get(f"/t/{t.slug}/standings/").content.decode()
    body = page.split('data-testid="standings"', 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    page_rows = [[html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", tr)]
                 for tr in re.findall(r"<tr>(.*?)</tr>", body, re.S)]
    for cells, row in zip(page_rows, rows):
        assert re.fullmatch(r"\s*" + r"\s+".join(re.escape(c) for c in cells[:3]) + r"\s+.*?\s+"
                            + r"\s+".join(re.escape(c) for c in cells[3:]) + r"\s*", row), (cells, row)
    assert len(page_rows) == len(rows)


def test_standings_pdf_has_the_standings_page_gate(hall):
    t, org, ref = hall
    t.standings_published_at = None
    t.save(update_fields=["standings_published_at"])
    assert _client().get(f"/t/{t.slug}/standings.pdf").status_code == 404
    assert _client(UserFactory(username="yabancı")).get(f"/t/{t.slug}/standings.pdf").status_code == 404
    _pdf(_client(org).get(f"/t/{t.slug}/standings.pdf"))


def test_standings_pdf_is_cached_per_version_and_queued_when_a_worker_builds_it(hall, settings, monkeypatch):
    from tournaments import tasks
    from tournaments.paper.hall import standings_pdf_build, standings_pdf_path

    t, org, ref = hall
    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued = []
    monkeypatch.setattr(tasks.standings_pdf_task, "delay", lambda *args: queued.append(args))
    c = _client()
    first, second = c.get(f"/t/{t.slug}/standings.pdf"), c.get(f"/t/{t.slug}/standings.pdf")
    assert (first.status_code, second.status_code) == (202, 202)
    assert f"/t/{t.slug}/standings/" in first.content.decode() and first["Retry-After"] == "2"
    assert queued == [(t.id, "tr", True)]
    standings_pdf_build(tournament=t, lang="tr", public_only=True)  # what the worker does
    _pdf(c.get(f"/t/{t.slug}/standings.pdf"))
    assert standings_pdf_path(t, "tr", True).exists()
    assert not standings_pdf_path(t, "tr", True).with_suffix(".queued").exists()
    services.tournament_touch(t)  # any change: a new file
    assert not standings_pdf_path(t, "tr", True).exists()


# --- links ---------------------------------------------------------------------------------------------


def test_round_and_standings_pages_link_the_paper_for_who_may_see_it(hall):
    t, org, ref = hall
    anon = _client().get(f"/t/{t.slug}/round/2/").content.decode()
    assert f"/t/{t.slug}/round/2/pairings.pdf" in anon and f"/t/{t.slug}/round/2/pairings.pdf?large=1" in anon
    assert "slips.pdf" not in anon
    for user in (ref, org):
        page = _client(user).get(f"/t/{t.slug}/round/2/").content.decode()
        assert f"/t/{t.slug}/round/2/slips.pdf" in page
    assert f"/t/{t.slug}/standings.pdf" in _client().get(f"/t/{t.slug}/standings/").content.decode()


def test_points_before_the_round_count_byes(hall):
    from tournaments.paper.hall import points_before

    t, org, ref = hall
    before = points_before(_round(t, 2))
    r1 = _round(t, 1)
    bye = r1.matches.get(kind="bye")
    assert before[bye.white_id] == bye.white_points == Decimal("1")
    assert sum(before.values()) == Decimal("4")  # three games and a full-point bye
