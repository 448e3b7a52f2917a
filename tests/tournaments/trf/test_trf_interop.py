"""TRF files real events produce (issue 10): every kind is honoured or refused with its line, through the
service, the command, the page and the API.

The interop files (``trf_files/interop``, copies of ``../shared/data/interop``; invented names) and
cases written here: sections without federation ids imported twice (no database error, known players
reused), the pairing-allocated bye worth ½ (BBU), byes entered ahead (cells and 240), forbidden pairs
(XXP/260), virtual points (XXA), Baku acceleration (192), the declared type (092), the point system,
round dates (132), federation codes and the file's ranks, lines that cannot be honoured, the preview
(dry run) and publication.
"""
from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from federation.errors import ValidationFailed
from federation.models import Club, Player
from tests.factories import organiser
from tests.shared_data import shared_glob
from tests.tournaments.trf.trf_picture import picture
from tournaments.rounds import services
from tournaments.trf import players as trf_players
from tournaments.models import Absence, CoinToss, Entry, ForbiddenPair, Match, Round, Tournament
from tournaments.selectors import tournament_standings
from tournaments.trf.mapping import declared_system, parse_round_date
from tournaments.trf.selectors import tournament_export_trf
from tournaments.trf.services import tournament_import_trf

pytestmark = pytest.mark.django_db

HERE = Path(__file__).resolve().parent
INTEROP = HERE / "trf_files" / "interop"
SAMPLES = Path(__file__).resolve().parents[3] / "tournaments" / "sample_data" / "trf"
EXTENSION_CASES = HERE.parent / "pairing" / "cases_extensions"


def _read(name: str) -> bytes:
    return (INTEROP / name).read_bytes()


def _import(data: bytes | str, **kwargs):
    kwargs.setdefault("source", "test.trf")
    with translation.override("en"):
        return tournament_import_trf(data=data, **kwargs)


def _refused(data: bytes | str, *parts: str, field: str = "file", **kwargs) -> str:
    before = (Tournament.objects.count(), Player.objects.count(), Entry.objects.count())
    with pytest.raises(ValidationFailed) as err:
        _import(data, **kwargs)
    assert err.value.field == field, err.value.message
    for part in parts:
        assert part in err.value.message, err.value.message
    assert (Tournament.objects.count(), Player.objects.count(), Entry.objects.count()) == before
    return err.value.message


def _api(user=None) -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en", raise_request_exception=False)
    client.force_authenticate(user or organiser(username="interop-api"))
    return client


def _upload(data: bytes, name: str = "file.trf") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="text/plain")


def _swiss(lines: list[str]) -> str:
    """A small Swiss file: 012 and 092 lines, then ``lines``."""
    return "\n".join(["012 Interop Case", "092 Individual: Swiss-System", *lines]) + "\n"


def _player(no: int, name: str, points: str, cells: str = "", *, fed: str = "   ", fide: str = "", birth: str = "",
            rank: str = "") -> str:
    rank = rank or str(no)
    return (f"001 {no:>4}      {name:<33} 1500 {fed:<3} {fide:>11} {birth:<10} {points:>4} {rank:>4}"
            + (f"  {cells}" if cells else ""))


@pytest.mark.parametrize("name", sorted(p.name for p in INTEROP.glob("*.trf")))
def test_the_copies_equal_the_shared_files(name):
    shared = [p for p in shared_glob("data/interop/*.trf") if p.name == name]
    if not shared:
        pytest.skip("shared interop files not present")
    assert shared[0].read_bytes() == _read(name)


# --------------------------------------------------------------------------------------------
# p10: sections without federation ids, imported again and again


def test_p10_open_twice_then_girls_through_the_service():
    first = _import(_read("p10_section_open.trf"), system="swiss")
    again = _import(_read("p10_section_open.trf"), system="swiss")
    girls = _import(_read("p10_section_girls.trf"), system="swiss")
    slugs = [r.tournament.slug for r in (first, again, girls)]
    assert slugs == ["spring-cup-2026-open", "spring-cup-2026-open-2", "spring-cup-2026-girls"]
    assert Player.objects.count() == 4  # the second open section reuses its two players
    assert [c.how for c in first.players] == ["new", "new"] and [c.how for c in again.players] == ["matched"] * 2
    assert "line 2: Kilic, Ayse matched to known player " in again.notes[1]
    assert {e.player_id for e in first.tournament.entries.all()} == {e.player_id for e in again.tournament.entries.all()}
    fed_ids = [c.federation_id for c in first.players + girls.players]
    assert len(set(fed_ids)) == 4 and fed_ids[0] == f"T{first.tournament.pk}-1"
    refused = _import(_read("p10_section_open.trf"), system="swiss", match_players=False)
    assert [c.how for c in refused.players] == ["new", "new"] and Player.objects.count() == 6


def test_p10_without_a_system_asks_for_it():
    message = _refused(_read("p10_section_open.trf"), "no 092 line", "choose the system", field="system")
    assert message.startswith("test.trf: ")


def test_p10_through_the_api_twice_and_girls(settings):
    client = _api()
    bodies = []
    for name in ("p10_section_open.trf", "p10_section_open.trf", "p10_section_girls.trf"):
        r = client.post("/api/tournaments/import-trf/", {"file": _upload(_read(name), name), "system": "swiss"},
                        format="multipart")
        assert r.status_code == 201, r.content[:300]
        bodies.append(r.json())
    assert [b["slug"] for b in bodies] == ["spring-cup-2026-open", "spring-cup-2026-open-2", "spring-cup-2026-girls"]
    assert [p["how"] for p in bodies[1]["players"]] == ["matched", "matched"]
    assert bodies[0]["published"] and bodies[0]["status"] == "finished" and bodies[0]["system"] == "swiss"
    r = client.post("/api/tournaments/import-trf/", {"file": _upload(_read("p10_section_open.trf"))},
                    format="multipart")
    assert r.status_code == 400 and r.json()["error"]["field"] == "system"


def test_p10_through_the_command_twice_and_girls(capsys):
    slugs = []
    for name in ("p10_section_open.trf", "p10_section_open.trf", "p10_section_girls.trf"):
        out = io.StringIO()
        call_command("import_trf", str(INTEROP / name), "--system", "swiss", stdout=out)
        slugs.append(out.getvalue().strip().splitlines()[-1])
    assert slugs == ["spring-cup-2026-open", "spring-cup-2026-open-2", "spring-cup-2026-girls"]
    with translation.override("en"), pytest.raises(CommandError, match="--system swiss"):
        call_command("import_trf", str(INTEROP / "p10_section_open.trf"))


def test_p10_through_the_page_twice_and_girls():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser(username="interop-page"))
    before = (Tournament.objects.count(), Player.objects.count())
    for name in ("p10_section_open.trf", "p10_section_open.trf", "p10_section_girls.trf"):
        r = client.post("/t/import/", {"file": _upload(_read(name), name), "system": "swiss"})
        assert r.status_code == 302, r.content[:500]
    assert (Tournament.objects.count(), Player.objects.count()) == (before[0] + 3, before[1] + 4)


def test_the_page_asks_for_the_system_and_keeps_the_file():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser(username="interop-page-2"))
    r = client.post("/t/import/", {"file": _upload(_read("p10_section_open.trf"), "open.trf"), "options": "1",
                                   "publish": "on", "match_players": "on"})
    assert r.status_code == 200
    html = r.content.decode()
    assert "no 092 line" in html and 'data-testid="import-kept-file"' in html
    token = r.context["form"].data["upload"]
    r = client.post("/t/import/", {"upload": token, "system": "swiss", "options": "1", "publish": "on",
                                   "match_players": "on"})
    assert r.status_code == 302
    t = Tournament.objects.get(slug="spring-cup-2026-open")
    assert t.system == "swiss" and t.standings_published_at is not None


def test_generated_ids_never_collide_even_when_one_is_taken_meanwhile(monkeypatch):
    """An id registered by someone else between the check and the insert: the insert fails in its
    savepoint and the next id is taken (no IntegrityError escapes)."""
    monkeypatch.setattr(trf_players, "_generated_ids", lambda tournament_id, start_no: iter(
        [f"SAME-{start_no}", f"SAME-{start_no}-2"]))
    Player.objects.create(federation_id="SAME-1", last_name="Başka", first_name="Biri")
    monkeypatch.setattr(trf_players, "_id_free", lambda fed_id: True)  # the check misses an id inserted meanwhile
    report = _import(_read("p10_section_girls.trf"), system="swiss")
    assert [c.federation_id for c in report.players] == ["SAME-1-2", "SAME-2"]


# --------------------------------------------------------------------------------------------
# Values: BBU, the points column, round dates, federation codes, ranks, 032


def test_p13_half_point_pab_counts_half_and_the_export_says_so():
    t = _import(_read("p13_half_point_pab.trf"), system="swiss").tournament
    assert t.bye_points == pytest.approx(0.5)
    bye = Match.objects.get(round__tournament=t, white__start_no=3)
    assert (bye.bye_kind, float(bye.white_points)) == ("pab", 0.5)
    lines = tournament_standings(tournament=t).lines
    points = {line.start_no: line.points for line in lines}
    assert points == {1: 1.0, 2: 1.0, 3: 0.5, 4: 0.0, 5: 0.0}
    assert [line.start_no for line in lines][:3] == [1, 2, 3]
    text = tournament_export_trf(tournament=t)
    assert "BBU  0.5" in text.splitlines()
    again = _import(text.encode()).tournament
    assert again.bye_points == pytest.approx(0.5)
    assert picture(again)["matches"] == picture(t)["matches"]


@pytest.mark.parametrize("line, what", [
    ("BBW  3.0", "a win worth 3 points"), ("BBD  1.0", "a draw worth 1 points"), ("BBL  1.0", "a loss worth 1"),
    ("BBZ  0.5", "a zero-point bye worth 0.5"), ("BBF  1.0", "a forfeit loss worth 1"),
    ("162 W 3.0 D 1.0 P 1.5", "a win worth 3 points"), ("BBU  0.7", "a pairing-allocated bye worth 0.7"),
])
def test_other_point_systems_are_refused_naming_their_line(line, what):
    text = _swiss([_player(1, "Aksu, Eda", "1.0", "   2 w 1"), _player(2, "Tan, Rana", "0.0", "   1 b 0"), line])
    _refused(text, "line 5:", what)


def test_the_standard_point_system_is_accepted():
    text = _swiss([_player(1, "Aksu, Eda", "1.0", "   2 w 1"), _player(2, "Tan, Rana", "0.0", "   1 b 0"),
                   "BBW  1.0", "BBD  0.5", "BBL  0.0", "BBZ  0.0", "BBF  0.0", "BBU  1.0", "162 W 1.0 D 0.5 L 0 P 1"])
    assert _import(text).tournament.bye_points == 1


def test_round_dates_federation_codes_ranks_and_032_are_kept_and_exported():
    path = SAMPLES / "autumn_congress_2018_major.trf"
    report = _import(path.read_bytes())
    t = report.tournament
    assert t.round_dates == ["2018-10-05", "2018-10-05", "2018-10-06", "2018-10-06", "2018-10-06", "2018-10-07"]
    assert t.federation == "Türkiye" and t.system == "swiss"
    entry = t.entries.get(start_no=1)
    assert entry.federation == "IST" and entry.player.city == ""  # IST is not a city
    assert entry.official_rank is not None
    text = tournament_export_trf(tournament=t)
    lines = text.splitlines()
    assert "032 Türkiye" in lines and "092 Individual: Swiss-System" in lines
    assert next(x for x in lines if x.startswith("132"))[91:].split() == [
        "18/10/05", "18/10/05", "18/10/06", "18/10/06", "18/10/06", "18/10/07"]
    assert next(x for x in lines if x.startswith("001    1 "))[53:56] == "IST"
    assert _import(text.encode()).tournament.round_dates == t.round_dates


def test_round_dates_in_other_forms_and_text_that_is_no_date():
    spring = _import((SAMPLES / "spring_open_2011_masters.trf").read_bytes()).tournament
    assert spring.round_dates[:2] == ["2011-02-25", "2011-02-26"]  # "11.25.02": YY.DD.MM
    text = _swiss(["132" + " " * 88 + "26/09/12  Sunday    ", _player(1, "Aksu, Eda", "1.0", "   2 w 1"),
                   _player(2, "Tan, Rana", "0.0", "   1 b 0"), "XXR 3"])
    report = _import(text)
    assert report.tournament.round_dates == ["2026-09-12", "Sunday", ""]
    assert "line 3: the date of round 2, 'Sunday', is not a date; kept as text" in report.notes
    assert parse_round_date("18/10/05") == dt.date(2018, 10, 5)
    assert parse_round_date("05/10/18", dt.date(2018, 10, 1)) == dt.date(2018, 10, 5)  # DD/MM/YY near the event


def test_official_ranks_are_shown_beside_ours_when_they_differ():
    path = SAMPLES / "spring_open_2011_masters.trf"
    t = _import(path.read_bytes()).tournament
    t.tiebreaks = ["wins"]  # another order than the file's program used: some ranks differ
    t.save()
    st = tournament_standings(tournament=t)
    assert st.official_ranks_differ and all(line.official_rank for line in st.lines)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")  # published: the public sees it
    html = client.get(f"/t/{t.slug}/standings/").content.decode()
    assert 'data-testid="official-rank-head"' in html and "Rank in the file" in html
    assert "does not say which tie-break rules" in html
    body = APIClient(HTTP_ACCEPT_LANGUAGE="en").get(f"/api/tournaments/{t.slug}/standings/").json()
    assert body["official_ranks_differ"] is True
    assert {r["start_no"]: r["official_rank"] for r in body["rows"]} == {
        e.start_no: e.official_rank for e in t.entries.all()}


def test_no_rank_column_when_the_ranks_agree(completed_tournament):
    st = tournament_standings(tournament=completed_tournament)
    assert not st.official_ranks_differ
    html = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/t/{completed_tournament.slug}/standings/").content.decode()
    assert "official-rank" not in html


# --------------------------------------------------------------------------------------------
# Byes entered ahead (cells of later rounds, 240), forbidden pairs, accelerations, 192, colour


def test_p02_the_bye_entered_ahead_is_an_absence_and_round_2_pairs_around_it():
    t = _import(_read("p02_preassigned_pab.trf"), system="swiss").tournament
    assert t.rounds.count() == 1 and t.status == "running" and t.rounds_total == 3
    assert [(a.entry.start_no, a.round_number, a.kind) for a in Absence.objects.filter(entry__tournament=t)] == [
        (4, 2, "pab")]
    assert CoinToss.objects.get(round__tournament=t).outcome == "w"  # XXC white1
    text = tournament_export_trf(tournament=t)
    line4 = next(x for x in text.splitlines() if x.startswith("001    4"))
    assert line4[101:109] == "0000 - U" and "XXC white1" in text
    rnd = services.round_pair(tournament=t)
    boards = {(m.white.start_no, m.black.start_no if m.black else None, m.bye_kind) for m in rnd.matches.all()}
    assert boards == {(5, 1, ""), (2, 3, ""), (4, None, "pab")}


def test_byes_ahead_of_every_kind_from_cells_and_240_lines():
    text = _swiss([
        _player(1, "Aksu, Eda", "1.0", "   2 w 1  0000 - H"), _player(2, "Tan, Rana", "0.0", "   1 b 0"),
        _player(3, "Cinar, Umay", "1.0", "0000 - F  0000 - Z"), _player(4, "Bilge, Ege", "0.0", "0000 - Z"),
        "XXR 4", "240 F   3    2    4", "240 U   4    1", "240 F   1    3",
    ])
    t = _import(text).tournament
    assert t.rounds.count() == 1
    assert sorted((a.entry.start_no, a.round_number, a.kind) for a in Absence.objects.filter(entry__tournament=t)) == [
        (1, 2, "half"), (1, 4, "pab"), (2, 3, "full"), (3, 2, "zero"), (4, 3, "full")]
    again = _import(tournament_export_trf(tournament=t).encode()).tournament
    assert picture(again)["absences"] == picture(t)["absences"]


def test_a_240_line_that_contradicts_a_played_round_or_a_cell_is_refused():
    base = [_player(1, "Aksu, Eda", "1.0", "   2 w 1  0000 - H"), _player(2, "Tan, Rana", "0.0", "   1 b 0")]
    _refused(_swiss(base + ["XXR 3", "240 H   1    1"]), "line 6:", "round 1, which is played")
    _refused(_swiss(base + ["XXR 3", "240 Z   2    1"]), "line 6:", "line 3 gives another one")
    _refused(_swiss(base + ["XXR 3", "240 Z   5    2"]), "line 6:", "after the last round (3)")


def test_p15_forbidden_pair_and_260_ranges():
    t = _import(_read("p15_forbidden_pair_xxp.trf"), system="swiss").tournament
    assert picture(t)["forbidden"] == [((1, 2), 1, None)]
    assert "XXP 1 2" in tournament_export_trf(tournament=t).splitlines()
    text = _swiss([_player(n, name, "0.0") for n, name in enumerate(["Aksu, Eda", "Aksu, Ege", "Tan, Rana"], 1)]
                  + ["XXR 5", "260   1   2    1    2    3", "260   3   5    2    3"])
    t = _import(text).tournament
    assert picture(t)["forbidden"] == [((1, 2), 1, 2), ((1, 3), 1, 2), ((2, 3), 1, 2), ((2, 3), 3, None)]
    again = _import(tournament_export_trf(tournament=t).encode()).tournament
    assert picture(again)["forbidden"] == picture(t)["forbidden"]


def test_p17_accelerations_are_kept_and_exported():
    t = _import(_read("p17_acceleration_xxa.trf"), system="swiss").tournament
    assert t.acceleration == "manual"
    assert {e.start_no: e.accelerations for e in t.entries.all() if e.accelerations} == {4: [1.0, 1.0, 1.0]}
    assert "XXA    4  1.0  1.0  1.0" in tournament_export_trf(tournament=t).splitlines()


def test_192_baku_is_kept_and_other_pairing_systems_are_refused():
    base = [_player(1, "Aksu, Eda", "0.0"), _player(2, "Tan, Rana", "0.0"), "XXR 5"]
    t = _import(_swiss(base + ["192 FIDE_DUTCH_2025_BAKU"])).tournament
    assert t.acceleration == "baku" and t.status == "draft"
    assert "192 FIDE_DUTCH_2025_BAKU" in tournament_export_trf(tournament=t).splitlines()
    assert _import(_swiss(base + ["192 FIDE_DUTCH_2025"])).tournament.acceleration == "none"
    _refused(_swiss(base + ["192 FIDE_DUBOV_2025"]), "line 6:", "FIDE_DUBOV_2025", "FIDE Dutch")


def test_xxc_black1_and_152_give_round_1_colour():
    cells = [_player(1, "Aksu, Eda", "1.0", "   2 b 1"), _player(2, "Tan, Rana", "0.0", "   1 w 0"), "XXR 3"]
    t = _import(_swiss(cells + ["XXC black1"])).tournament
    assert CoinToss.objects.get(round__tournament=t).outcome == "b"
    assert "XXC black1" in tournament_export_trf(tournament=t).splitlines()
    assert CoinToss.objects.get(round__tournament=_import(_swiss(cells + ["152 B"])).tournament).outcome == "b"
    _refused(_swiss(cells + ["152 W", "XXC black1"]), "line 6:", "different colours")
    report = _import(_swiss([_player(1, "Aksu, Eda", "0.0"), _player(2, "Tan, Rana", "0.0"), "XXC white1 rank"]))
    assert any("XXC rank is not used" in n for n in report.notes)
    assert any("not kept (no round is played" in n for n in report.notes)


def test_142_gives_the_rounds_when_there_is_no_xxr():
    base = [_player(1, "Aksu, Eda", "1.0", "   2 w 1"), _player(2, "Tan, Rana", "0.0", "   1 b 0")]
    assert _import(_swiss(base + ["142 7"])).tournament.rounds_total == 7
    _refused(_swiss(base + ["142 7", "XXR 5"]), "line 5:", "142 says 7 rounds but XXR (line 6) says 5")


# --------------------------------------------------------------------------------------------
# Declared type (092), lines that cannot be honoured


@pytest.mark.parametrize("text, expected", [
    ("Individual: Swiss-System", ("swiss", False, False)), ("Swiss", ("swiss", False, False)),
    ("Individual: swiss-system (standard)", ("swiss", False, False)), ("İsviçre sistemi", ("swiss", False, False)),
    ("Individual: Round-Robin", ("round_robin", False, False)), ("Round robin", ("round_robin", False, False)),
    ("Berger", ("round_robin", False, False)), ("double round robin", ("round_robin", True, False)),
    ("Individual: Double Round-Robin", ("round_robin", True, False)), ("DRR", ("round_robin", True, False)),
    ("Çift devreli lig", ("round_robin", True, False)), ("Team: Swiss-System", (None, False, True)),
    ("Takım turnuvası", (None, False, True)), ("Knockout", (None, False, False)), ("", (None, False, False)),
])
def test_declared_system_reads_the_092_texts(text, expected):
    assert declared_system(text) == expected


def test_a_round_robin_file_is_a_round_robin_and_a_double_one_too():
    cells = [_player(1, "Aksu, Eda", "1.0", "   2 w 1"), _player(2, "Tan, Rana", "0.0", "   1 b 0")]
    t = _import("\n".join(["012 RR", "092 Individual: Round-Robin", *cells])).tournament
    assert (t.system, t.double_round_robin, t.rounds_total, t.status) == ("round_robin", False, 1, "finished")
    t = _import("\n".join(["012 DRR", "092 Double round robin", *cells])).tournament
    assert (t.system, t.double_round_robin, t.rounds_total, t.status) == ("round_robin", True, 2, "running")
    again = _import(tournament_export_trf(tournament=t).encode()).tournament
    assert (again.system, again.double_round_robin) == ("round_robin", True)


def test_team_events_are_refused_and_unknown_types_ask_for_the_system():
    cells = [_player(1, "Aksu, Eda", "1.0", "   2 w 1"), _player(2, "Tan, Rana", "0.0", "   1 b 0")]
    _refused("\n".join(["012 T", "092 Team: Swiss-System", *cells]), "line 2:", "team tournaments")
    _refused("\n".join(["012 K", "092 Knockout", *cells]), "line 2:", "'Knockout'", "neither Swiss nor round robin",
             field="system")
    report = _import("\n".join(["012 K", "092 Knockout", *cells]), system="round_robin")
    assert report.tournament.system == "round_robin"
    assert "line 2: the file's tournament type is 'Knockout'; imported as Round robin (Berger), as chosen" in report.notes


@pytest.mark.parametrize("line, reason", [
    ("013 Team A    1    2", "team tournaments are not supported"),
    ("082 2", "team tournaments are not supported"),
    ("299 abnormal", "abnormal points"),
    ("ZZZ something", "not a TRF-16 tag"),
    ("092 Individual: Round-Robin", "a second 092 line"),
])
def test_lines_that_cannot_be_honoured_are_refused_with_their_number(line, reason):
    text = _swiss([_player(1, "Aksu, Eda", "1.0", "   2 w 1"), _player(2, "Tan, Rana", "0.0", "   1 b 0"), line])
    _refused(text, "line 5:", reason, "nothing is imported")


def test_the_api_refuses_an_unhonoured_line_with_400_not_500():
    text = _swiss([_player(1, "Aksu, Eda", "1.0", "   2 w 1"), _player(2, "Tan, Rana", "0.0", "   1 b 0"),
                   "013 Team A    1    2"])
    r = _api().post("/api/tournaments/import-trf/", {"file": _upload(text.encode())}, format="multipart")
    assert r.status_code == 400 and r.json()["error"]["field"] == "file" and "line 5" in r.json()["error"]["message"]


# --------------------------------------------------------------------------------------------
# Known players, preview, publication


def test_a_known_player_is_matched_by_name_birth_year_and_code_in_turkish_case():
    club = Club.objects.create(name="İstanbul Mangala", short_name="IST")
    known = Player.objects.create(federation_id="F-000123", last_name="Kılıç", first_name="Ayşe", birth_year=1990,
                                  club=club)
    Player.objects.create(federation_id="F-000124", last_name="Kılıç", first_name="Ayşe", birth_year=1991)
    text = _swiss([
        _player(1, "KILIÇ, AYŞE", "1.0", "   2 w 1", fed="IST", birth="1990/01/01"),
        _player(2, "Kılıç, Ayşe", "0.0", "   1 b 0", fed="ANK", birth="1990"),  # another code: not him
    ])
    report = _import(text)
    assert [(c.how, c.federation_id) for c in report.players][0] == ("matched", "F-000123")
    assert report.players[1].how == "new"
    assert "line 3: KILIÇ, AYŞE matched to known player F-000123" in report.notes
    assert report.tournament.entries.get(start_no=1).player == known
    # two known players alike: none is reused; the caller may choose one, or refuse a match
    Player.objects.create(federation_id="F-000125", last_name="Kılıç", first_name="Ayşe", birth_year=1990,
                          club=club)
    report = _import(text)
    assert report.players[0].how == "new" and report.players[0].candidates == 2
    assert any("2 known players have this name" in n for n in report.notes)
    report = _import(text, player_matches={1: "F-000125", 2: None})
    assert [c.how for c in report.players] == ["chosen", "new"] and report.players[0].federation_id == "F-000125"
    _refused(text, "no player with federation id NOPE", field="player_matches", player_matches={1: "NOPE"})
    _refused(text, "no player with starting number 9", field="player_matches", player_matches={9: None})


def test_two_lines_matching_one_known_player_get_new_players():
    Player.objects.create(federation_id="F-1", last_name="Tan", first_name="Rana")
    text = _swiss([_player(1, "Tan, Rana", "1.0", "   2 w 1"), _player(2, "TAN, RANA", "0.0", "   1 b 0")])
    report = _import(text)
    assert [c.how for c in report.players] == ["new", "new"]
    assert any("lines 3, 4 all match the known player F-1" in n for n in report.notes)


def test_a_dry_run_imports_nothing_and_reports_the_matches():
    _import(_read("p10_section_open.trf"), system="swiss")
    before = (Tournament.objects.count(), Player.objects.count(), Entry.objects.count(), Match.objects.count())
    report = _import(_read("p10_section_open.trf"), system="swiss", dry_run=True)
    assert report.dry_run and report.entries == 2 and report.rounds == 1
    assert [c.how for c in report.matches] == ["matched", "matched"]
    assert (Tournament.objects.count(), Player.objects.count(), Entry.objects.count(), Match.objects.count()) == before
    r = _api().post("/api/tournaments/import-trf/", {"file": _upload(_read("p10_section_open.trf")),
                                                     "system": "swiss", "dry_run": "true"}, format="multipart")
    assert r.status_code == 200 and r.json()["dry_run"] is True and r.json()["slug"] is None
    assert [p["how"] for p in r.json()["players"]] == ["matched", "matched"]
    r = _api().post("/api/tournaments/import-trf/", {
        "file": _upload(_read("p10_section_open.trf")), "system": "swiss",
        "player_matches": json.dumps({"2": None})}, format="multipart")
    assert r.status_code == 201 and [p["how"] for p in r.json()["players"]] == ["matched", "new"]
    assert Tournament.objects.count() == before[0] + 1


def test_the_page_previews_then_imports_with_a_match_refused():
    first = _import(_read("p10_section_open.trf"), system="swiss").tournament
    before = Tournament.objects.count()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser(username="interop-preview"))
    options = {"system": "swiss", "options": "1", "publish": "on", "match_players": "on"}
    r = client.post("/t/import/", {"file": _upload(_read("p10_section_open.trf")), "preview": "1", **options})
    assert r.status_code == 200
    html = r.content.decode()
    assert 'data-testid="import-preview"' in html and 'data-testid="import-matches"' in html
    assert Tournament.objects.count() == before
    token = r.context["form"].data["upload"]
    r = client.post("/t/import/", {"upload": token, "offered": ["1", "2"], "keep": ["1"], **options})
    assert r.status_code == 302
    t = Tournament.objects.get(slug="spring-cup-2026-open-2")
    assert t.entries.get(start_no=1).player == first.entries.get(start_no=1).player
    assert t.entries.get(start_no=2).player != first.entries.get(start_no=2).player


def test_a_finished_import_is_published_unless_asked_not_to(capsys):
    path = SAMPLES / "national_juniors_2011.trf"
    t = _import(path.read_bytes()).tournament
    assert t.status == "finished" and t.standings_published_at is not None and t.standings_round == 5
    assert Client().get(f"/t/{t.slug}/standings/").status_code == 200
    assert _import(path.read_bytes(), publish=False).tournament.standings_published_at is None
    out = io.StringIO()
    call_command("import_trf", str(path), "--no-publish", stdout=out)
    assert Tournament.objects.get(slug=out.getvalue().split()[-1]).standings_published_at is None
    r = _api().post("/api/tournaments/import-trf/", {"file": _upload(path.read_bytes()), "publish": "false"},
                    format="multipart")
    assert r.status_code == 201 and r.json()["published"] is False


def test_the_command_previews_and_chooses_players(capsys):
    _import(_read("p10_section_open.trf"), system="swiss")
    before = Tournament.objects.count()
    out = io.StringIO()
    call_command("import_trf", str(INTEROP / "p10_section_open.trf"), "--system", "swiss", "--dry-run",
                 "--player", "2=", stdout=out)
    text = out.getvalue()
    assert "line 2: 1 Kilic, Ayse: matched" in text and "line 3: 2 Ates, Burak: new" in text
    assert "nothing imported" in text and Tournament.objects.count() == before


def test_a_big_file_keeps_its_options_in_the_job(settings):
    settings.TRF_JOB_MIN_PLAYERS = 1
    r = _api().post("/api/tournaments/import-trf/", {"file": _upload(_read("p10_section_open.trf")),
                                                     "system": "swiss", "publish": "false"}, format="multipart")
    assert r.status_code == 202, r.content[:300]
    body = _api().get(r.json()["status_url"]).json()
    assert body["status"] == "done", body
    t = Tournament.objects.get(slug=body["slug"])
    assert t.system == "swiss" and t.standings_published_at is None
    r = _api().post("/api/tournaments/import-trf/", {"file": _upload(_read("p10_section_open.trf"))},
                    format="multipart")
    assert r.status_code == 400 and r.json()["error"]["field"] == "system"


# --------------------------------------------------------------------------------------------
# The pairing cases with extensions: each file imports (or is refused naming its point-system line)
# and comes back the same after export


def _last_round_files() -> list[Path]:
    if not EXTENSION_CASES.is_dir():
        return []
    out = []
    for folder in sorted(p for p in EXTENSION_CASES.iterdir() if p.is_dir()):
        files = sorted(folder.glob("r*.trf"), key=lambda p: int(p.stem[1:]) if p.stem[1:].isdigit() else 0)
        if files:
            out.append(files[-1])
    return out


@pytest.mark.parametrize("path", _last_round_files(), ids=lambda p: p.parent.name)
def test_extension_cases_import_and_come_back_the_same(path, settings):
    settings.SIMPLE_HISTORY_ENABLED = False
    try:
        report = _import(path.read_bytes(), system="swiss")
    except ValidationFailed as err:
        assert err.field == "file" and "line " in err.message and "match scoring is fixed" in err.message
        return
    t = report.tournament
    again = _import(tournament_export_trf(tournament=t).encode()).tournament
    assert picture(again) | {"settings": None} == picture(t) | {"settings": None}
    assert picture(again)["settings"][1:] == picture(t)["settings"][1:]
    assert t.rounds.filter(status=Round.Status.CLOSED).count() == t.rounds.count()
    assert ForbiddenPair.objects.filter(tournament=t).count() == ForbiddenPair.objects.filter(tournament=again).count()
