"""Reads of the shared completed tournament: standings, crosstable, pages, PDF, TRF round trip."""
from __future__ import annotations

import io

import pytest
from django.test import Client

from tournaments.models import Match, Round
from tournaments.selectors import tournament_crosstable, tournament_standings
from tournaments.trf.selectors import tournament_export_trf
from tournaments.trf.services import tournament_import_trf

pytestmark = pytest.mark.django_db


def test_every_round_is_closed_and_every_board_has_a_result(completed_tournament):
    t = completed_tournament
    assert [r.status for r in t.rounds.order_by("number")] == [Round.Status.CLOSED] * 3
    assert not Match.objects.filter(round__tournament=t, white_points__isnull=True).exists()
    assert t.status == "finished" and t.standings_published


def test_points_add_up_and_match_the_crosstable(completed_tournament):
    st = tournament_standings(tournament=completed_tournament)
    assert sum(l.points for l in st.lines) == 9.0  # 3 boards × 3 rounds, one point per board
    table = tournament_crosstable(tournament=completed_tournament)
    for row in table.rows:
        assert sum(c.points or 0 for c in row.cells) == row.line.points
        for c in row.cells:
            assert c.text  # nobody was absent
    ranks = [l.rank for l in st.lines]
    assert ranks == sorted(ranks)


def test_crosstable_cell_format(completed_tournament):
    """Cells read like ``12S1``: opponent's starting number, colour letter (Turkish B = beyaz, S = siyah;
    English W/B: tests/tournaments/test_turkish_text.py), points; forfeits ``+``/``-``."""
    table = tournament_crosstable(tournament=completed_tournament)
    texts = [c.text for row in table.rows for c in row.cells]
    assert any(t.endswith("+") for t in texts) and any(t.endswith("-") for t in texts)
    import re

    assert all(re.fullmatch(r"\d+[BS](1|0|½|\+|-)", t) for t in texts), texts


def test_set_points_and_stone_margin_are_consistent(completed_tournament):
    st = tournament_standings(tournament=completed_tournament)
    keys = st.tiebreak_keys
    margins = [l.tiebreaks[keys.index("stone_margin")] for l in st.lines]
    assert sum(margins) == 0  # every set's margins cancel (own stones − 24)


def test_public_pages_render(completed_tournament):
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    slug = completed_tournament.slug
    for url in (f"/t/{slug}/", f"/t/{slug}/round/1/", f"/t/{slug}/standings/", f"/t/{slug}/crosstable/", "/"):
        r = c.get(url)
        assert r.status_code == 200, url
    body = c.get(f"/t/{slug}/round/1/").content.decode()
    assert "ct-seed" in body  # the coin toss is shown on round 1
    r = c.get(f"/t/{slug}/crosstable.pdf")
    assert r["Content-Type"] == "application/pdf"
    assert b"".join(r.streaming_content).startswith(b"%PDF")


def test_export_and_reimport_keep_the_standings(completed_tournament):
    text = tournament_export_trf(tournament=completed_tournament)
    again = tournament_import_trf(data=text.encode(), source="ct.trf").tournament
    before = [(l.start_no, l.points) for l in tournament_standings(tournament=completed_tournament).lines]
    after = [(l.start_no, l.points) for l in tournament_standings(tournament=again).lines]
    assert sorted(before) == sorted(after)
