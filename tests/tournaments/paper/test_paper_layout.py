"""The layout of the printed tables: a crosstable too wide for one page (a double round robin of 16
players, 30 rounds) comes in parts that keep every name whole on one line; column headings wrap at
spaces only, never inside a word — read back from the PDFs with pdftotext and pdfinfo."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from tests.factories import PlayerFactory, organiser
from tournaments import selectors, services
from tournaments.paper.crosstable import crosstable_pdf_bytes, crosstable_pdf_context
from tournaments.results.services import SetInput
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db

needs_poppler = pytest.mark.skipif(
    not (shutil.which("pdftotext") and shutil.which("pdfinfo")), reason="poppler-utils (pdftotext, pdfinfo) missing"
)

# Long Turkish surnames, some double-barrelled, with every Turkish letter: ç ğ ı İ ö ş ü.
FIRST = ["Abdurrahman", "Şükrüye", "Muhammed Emin", "Gülizar", "Çağatay", "İlknur", "Mehmet Ali", "Zeynep Nur"]
LAST = ["Karamustafaoğlu", "Hacıosmanoğlu", "Kuşçuoğlu", "Yıldırımçelik", "Çakıroğulları", "Türkmenoğlu",
        "Özgürbüyük", "Ağababaoğlu"]


def pdf_text(data: bytes, tmp_path: Path, *args: str) -> str:
    src = tmp_path / "in.pdf"
    src.write_bytes(data)
    return subprocess.run(["pdftotext", "-enc", "UTF-8", "-layout", *args, str(src), "-"], check=True,
                          capture_output=True).stdout.decode("utf-8")


def page_sizes(data: bytes, tmp_path: Path) -> list[tuple[float, float]]:
    """(width, height) in points of every page (pdfinfo)."""
    src = tmp_path / "info.pdf"
    src.write_bytes(data)
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "999", str(src)], check=True,
                          capture_output=True).stdout.decode()
    return [(float(w), float(h)) for w, h in re.findall(r"Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts", info)]


def build_double_round_robin(players: int = 16):
    """A double round robin of ``players`` (2 × (players − 1) rounds), every round played and closed."""
    org = organiser(username="lig-org")
    rounds = 2 * (players - 1)
    t = services.tournament_create(
        name="Çift Devreli Mangala Ligi", rounds_total=rounds, system="round_robin", created_by=org,
        double_round_robin=True,
        tiebreaks=["sonneborn_berger", "direct_encounter", "wins", "set_points", "stone_margin"])
    for i in range(players):
        entry_services.entry_add(tournament=t, player=PlayerFactory(
            last_name=LAST[i % 8] + ("-Demirtaş" if i >= 8 else ""), first_name=FIRST[(3 * i) % 8],
            rating=2000 - 10 * i))
    for n in range(1, rounds + 1):
        rnd = round_services.round_pair(tournament=t, user=org, coin_seed="lig" if n == 1 else None)
        round_services.round_publish(round=rnd, user=org)
        for k, m in enumerate(rnd.matches.filter(kind="game")):
            plan = [(30, 18), (26, 22)] if (k + n) % 3 else [(18, 30), (22, 26)]
            result_services.match_result_enter(match=m, sets=[SetInput(a, b) for a, b in plan], user=org)
        round_services.round_close(round=rnd, user=org)
    services.standings_publish(tournament=t, user=org)
    t.refresh_from_db()
    return t


@needs_poppler
def test_double_round_robin_crosstable_comes_in_cycles_with_every_name_whole(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    t = build_double_round_robin(16)
    grids = crosstable_pdf_context(tournament=t, lang="tr")["grids"]
    # one cycle a part (and a part for points and tie-breaks if they do not fit beside the rounds)
    assert [g.round_numbers for g in grids if g.rounds][:2] == [tuple(range(1, 16)), tuple(range(16, 31))]
    assert sum(g.rounds for g in grids) == 30 and sum(g.totals for g in grids) == 1 and grids[-1].totals
    assert all(g.whole_names and g.name_px >= 0 for g in grids)

    data = crosstable_pdf_bytes(tournament=t, lang="tr")
    sizes = page_sizes(data, tmp_path)
    assert len(sizes) == len(grids)  # one page a part (16 players)
    assert all(w > h and round(w) == 842 and round(h) == 595 for w, h in sizes)  # A4 landscape, every page
    pages = pdf_text(data, tmp_path).split("\f")
    entries = list(t.entries.select_related("player").order_by("start_no"))
    with translation.override("tr"):
        for page, grid in zip(pages, grids):
            assert grid.caption in page
            for e in entries:  # every full name intact, once on its own row, on every page
                rows = [line for line in page.splitlines() if e.player.full_name in line]
                assert len(rows) == 1, (e.player.full_name, rows)
                assert re.match(rf"\s*\d+=?\s+{e.start_no}\s+{re.escape(e.player.full_name)}\s+{e.player.rating}\b",
                                rows[0]), rows[0]
            # the round numbers of the part in its heading, in order
            heading = next(line for line in page.splitlines() if "Reyting" in line or "Puan" in line)
            assert re.findall(r"\b\d+\b", heading) == [str(n) for n in grid.round_numbers]
        assert "1. devre" in pages[0] and "2. devre" in pages[1]
        st = selectors.tournament_standings(tournament=t, public_only=True, lang="tr")
        for word in (w for label in st.tiebreak_labels for w in label.replace("-", "- ").split()):
            assert re.search(rf"(^|\s){re.escape(word)}(\s|$)", pages[len(grids) - 1], re.M), word


def test_a_crosstable_that_fits_stays_one_table(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    t = build_double_round_robin(4)  # 6 rounds
    grids = crosstable_pdf_context(tournament=t, lang="en")["grids"]
    assert len(grids) == 1 and grids[0].rounds == 6 and grids[0].totals and not grids[0].caption


@needs_poppler
@pytest.mark.parametrize("lang", ["tr", "en"])
def test_column_headings_are_never_cut_inside_a_word(settings, tmp_path, lang):
    """No club at all (the club column as narrow as it gets) and three tie-breaks with long words
    (portrait): "Kulüp" is whole, and so is every word of every heading."""
    settings.MEDIA_ROOT = tmp_path
    org = organiser(username="baslik-org")
    t = services.tournament_create(name="Başlık Kupası", rounds_total=3, created_by=org, slug="baslik",
                                   tiebreaks=["direct_encounter", "games_won_otb", "black_wins"])
    for i in range(6):
        entry_services.entry_add(tournament=t, player=PlayerFactory(last_name=f"Öz{i}", first_name="Ali", rating=1500 + i,
                                                              club=None))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="b")
    round_services.round_publish(round=rnd, user=org)
    for m in rnd.matches.filter(kind="game"):
        result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(26, 22)], user=org)
    round_services.round_close(round=rnd, user=org)
    services.standings_publish(tournament=t, user=org)
    response = Client(HTTP_ACCEPT_LANGUAGE=lang).get(f"/t/{t.slug}/standings.pdf")
    assert response.status_code == 200
    data = b"".join(response.streaming_content) if response.streaming else response.content
    text = pdf_text(data, tmp_path)
    with translation.override(lang):
        st = selectors.tournament_standings(tournament=t, public_only=True, lang=lang)
        words = [translation.gettext("Club"), translation.gettext("Rating"), translation.gettext("Points")]
        words += [w for label in st.tiebreak_labels for w in label.replace("-", "- ").split()]
    if lang == "tr":
        assert "Kulüp" in words
    for word in words:
        assert re.search(rf"(^|\s){re.escape(word)}(\s|$)", text, re.M), (word, text[:2000])
