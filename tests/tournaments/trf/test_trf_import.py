"""TRF import/export in the product (``tournaments.trf.services`` and ``selectors``) and the ``import_trf``,
``export_trf``, ``standings`` and ``export_crosstable`` commands, on the real tournament files."""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from federation.errors import ValidationFailed
from tests.shared_data import shared_glob
from tournaments.trf.reader import parse_trf
from tournaments.models import Match, Round, Tournament
from tournaments.selectors import tournament_standings
from tournaments.trf.selectors import tournament_export_trf
from tournaments.trf.services import tournament_import_trf

pytestmark = pytest.mark.django_db

SAMPLE_DIR = Path(__file__).resolve().parents[3] / "tournaments" / "sample_data" / "trf"
SAMPLES = sorted(SAMPLE_DIR.glob("*.trf"))
FILES = SAMPLES + shared_glob("data/trf/*.trf")


def test_the_three_sample_files_are_shipped():
    assert [p.name for p in SAMPLES] == [
        "autumn_congress_2018_major.trf", "national_juniors_2011.trf", "spring_open_2011_masters.trf",
    ]


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_computed_points_equal_the_points_column(path):
    """For every player, the product's standings points equal the file's published points column."""
    report = tournament_import_trf(data=path.read_bytes(), source=path.name)
    published = {p.start_no: p.points for p in parse_trf(path.read_bytes()).players}
    st = tournament_standings(tournament=report.tournament)
    computed = {line.start_no: line.points for line in st.lines}
    assert computed == published


def test_blank_bye_codes_are_inferred_and_reported():
    path = SAMPLE_DIR / "national_juniors_2011.trf"
    with translation.override("en"):
        report = tournament_import_trf(data=path.read_bytes(), source=path.name)
    # player 4, round 1: "0000 -" with a blank code; the points column (3.0) makes it ½
    assert any("start no 4, round 1" in n and "0.5" in n for n in report.notes)
    bye = Match.objects.get(round__tournament=report.tournament, round__number=1, white__start_no=4)
    assert (bye.kind, bye.bye_kind, bye.white_points) == ("bye", "half", pytest.approx(0.5))


def test_forfeits_and_full_point_byes_of_autumn_congress():
    path = SAMPLE_DIR / "autumn_congress_2018_major.trf"
    t = tournament_import_trf(data=path.read_bytes(), source=path.name).tournament
    # player 24, round 1: "0000 - +" → a full-point bye without an opponent
    bye = Match.objects.get(round__tournament=t, round__number=1, white__start_no=24)
    assert (bye.kind, bye.bye_kind, float(bye.white_points)) == ("bye", "full", 1.0)
    assert t.rounds.count() == 6 and all(r.status == Round.Status.CLOSED for r in t.rounds.all())


def test_round_trip_import_export_import_gives_the_same_tournament():
    for path in SAMPLES:
        # samples share FIDE ids with another sex: the organiser keeps the stored values (as in the preview)
        kept = {c.start_no: "stored" for c in tournament_import_trf(data=path.read_bytes(), source=path.name,
                                                                    dry_run=True).differing}
        first = tournament_import_trf(data=path.read_bytes(), source=path.name,
                                      player_values=kept or None).tournament
        text = tournament_export_trf(tournament=first)
        second = tournament_import_trf(data=text.encode(), source="roundtrip.trf").tournament

        def picture(t: Tournament):
            rows = []
            for m in Match.objects.filter(round__tournament=t).select_related("round", "white", "black"):
                rows.append((m.round.number, m.white.start_no, m.black.start_no if m.black else None, m.kind,
                             m.bye_kind, m.forfeit, m.white_points, m.black_points))
            players = sorted((e.start_no, e.player.full_name, e.rating) for e in t.entries.select_related("player"))
            return sorted(rows, key=str), players, t.rounds.count()

        assert picture(second) == picture(first), path.name
        st1 = [(l.start_no, l.points) for l in tournament_standings(tournament=first).lines]
        st2 = [(l.start_no, l.points) for l in tournament_standings(tournament=second).lines]
        assert st1 == st2


def test_a_bad_line_imports_nothing_and_names_the_line():
    before = (Tournament.objects.count(), Match.objects.count())
    text = (SAMPLE_DIR / "autumn_congress_2018_major.trf").read_text(encoding="utf-8").splitlines()
    i = next(n for n, line in enumerate(text) if line.startswith("001    5"))
    text[i] = text[i][:98] + "X" + text[i][99:]
    with translation.override("en"), pytest.raises(ValidationFailed) as err:
        tournament_import_trf(data="\n".join(text).encode(), source="bad.trf")
    assert f"line {i + 1}" in err.value.message and err.value.field == "file"
    assert (Tournament.objects.count(), Match.objects.count()) == before


def test_import_command_prints_the_slug_last_and_reports_inferences(capsys):
    path = SAMPLE_DIR / "spring_open_2011_masters.trf"
    out = io.StringIO()
    with translation.override("en"):
        call_command("import_trf", str(path), stdout=out)
    slug = out.getvalue().strip().splitlines()[-1]
    t = Tournament.objects.get(slug=slug)
    assert t.name == "Spring Open 2011 - Masters" and t.entries.count() == 34
    err = capsys.readouterr().err
    assert "blank result code" in err


def test_import_command_rejects_a_missing_file():
    with pytest.raises(CommandError):
        call_command("import_trf", "/nonexistent/file.trf")


def test_standings_command_json_and_text():
    path = SAMPLE_DIR / "autumn_congress_2018_major.trf"
    t = tournament_import_trf(data=path.read_bytes(), source=path.name).tournament
    out = io.StringIO()
    call_command("standings", t.slug, "--format", "json", stdout=out)
    rows = json.loads(out.getvalue())
    assert len(rows) == 23
    first = rows[0]
    assert (first["rank"], first["start_no"], first["points"]) == (1, 4, 5.0)  # Şen, Mustafa: 5.0 points
    assert {"rank", "start_no", "name", "points", *t.tiebreaks} <= set(first)
    assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)
    out = io.StringIO()
    call_command("standings", t.slug, "--format", "text", stdout=out)
    assert "Şen, Mustafa" in out.getvalue().splitlines()[2]


def test_export_crosstable_command_writes_a_pdf(tmp_path):
    path = SAMPLE_DIR / "national_juniors_2011.trf"
    t = tournament_import_trf(data=path.read_bytes(), source=path.name).tournament
    t.standings_published_at, t.standings_round = t.created_at, 5
    t.save()
    target = tmp_path / "ct.pdf"
    call_command("export_crosstable", t.slug, "--output", str(target), stdout=io.StringIO())
    data = target.read_bytes()
    assert data.startswith(b"%PDF")
    from pypdf import PdfReader

    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    assert "National Juniors Championship 2011" in text
    assert "Öztürk, Elif" in text  # Turkish letters survive into the PDF text
    assert "25S1" in text  # Öztürk's round 1: black (S = siyah) against no. 25, won


def test_contradictory_results_are_refused_naming_both_lines():
    """Both players of a game cannot have lost it: the file is refused, nothing imported."""
    before = Tournament.objects.count()
    lines = (SAMPLE_DIR / "national_juniors_2011.trf").read_text(encoding="utf-8").splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("001    1 "))
    assert lines[i][91:99] == "  25 b 1"
    lines[i] = lines[i][:98] + "0" + lines[i][99:]
    with translation.override("en"), pytest.raises(ValidationFailed) as err:
        tournament_import_trf(data="\n".join(lines).encode(), source="contra.trf")
    assert f"line {i + 1}" in err.value.message and "must agree" in err.value.message
    assert Tournament.objects.count() == before


def test_importing_the_same_file_twice_says_so():
    path = SAMPLE_DIR / "autumn_congress_2018_major.trf"
    first = tournament_import_trf(data=path.read_bytes(), source=path.name).tournament
    with translation.override("en"):
        again = tournament_import_trf(data=path.read_bytes(), source=path.name)
    assert again.tournament.slug == f"{first.slug}-2"
    assert again.notes[0].startswith("a tournament named 'Autumn Congress 2018 - Major' already exists")
