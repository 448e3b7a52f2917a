"""What a first trial of the TRF import found (the files of ``/tmp/trial/f`` rebuilt here): a FIDE id that
belongs to a stored player with another name or birth year, stored values that differ from the file's, the
file's own ranks on export, several known players for one line, the preview's wording, the import page's
kept file and double submit, a 092 round robin that is not one, values accepted without a note, byes
written without the ``U`` code, messages in one language, the history's labels and the pairing CLI.
"""
from __future__ import annotations

import io
import json
import threading
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from federation.errors import ValidationFailed
from federation.models import Club, Player
from tests.factories import PlayerFactory, organiser
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.history import selectors as history
from tournaments.trf.model import TrfError
from tournaments.trf.reader import parse_trf
from tournaments.models import Entry, Match, Tournament
from tournaments.trf.players import PlayerConflicts
from tournaments.trf.selectors import tournament_export_trf
from tournaments.trf.services import tournament_import_trf

pytestmark = pytest.mark.django_db

SAMPLES = Path(__file__).resolve().parents[3] / "tournaments" / "sample_data" / "trf"


def _player(no: int, name: str, points: str, cells: str = "", *, sex: str = " ", fed: str = "   ", fide: str = "",
            birth: str = "", rank: str = "") -> str:
    rank = rank or str(no)
    return (f"001 {no:>4} {sex}    {name:<33} 1500 {fed:<3} {fide:>11} {birth:<10} {points:>4} {rank:>4}"
            + (f"  {cells}" if cells else ""))


def _file(*lines: str, kind: str = "Individual: Swiss-System", head: tuple[str, ...] = ()) -> str:
    return "\n".join(["012 Deneme Turnuvası", *head, f"092 {kind}", *lines]) + "\n"


def _import(data: str | bytes, **kwargs):
    kwargs.setdefault("source", "test.trf")
    with translation.override("en"):
        return tournament_import_trf(data=data.encode() if isinstance(data, str) else data, **kwargs)


def _refused(data: str, *parts: str, field: str = "file", **kwargs) -> ValidationFailed:
    before = (Tournament.objects.count(), Player.objects.count(), Entry.objects.count())
    with pytest.raises(ValidationFailed) as err:
        _import(data, **kwargs)
    assert err.value.field == field, err.value.message
    for part in parts:
        assert part in err.value.message, err.value.message
    assert (Tournament.objects.count(), Player.objects.count(), Entry.objects.count()) == before
    return err.value


def _upload(text: str | bytes, name: str = "file.trf") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode() if isinstance(text, str) else text, content_type="text/plain")


def _api() -> APIClient:
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en", raise_request_exception=False)
    client.force_authenticate(organiser(username="trial-api"))
    return client


def _page(username: str = "trial-page") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser(username=username))
    return client


OPTIONS = {"options": "1", "publish": "on", "match_players": "on"}

# fid.trf of the trial: line 4 has the FIDE id of a stored player with another name and birth year
FID = _file(_player(1, "Yanlış, İsim", "1.0", "   2 w 1", sex="m", fide="90001", birth="2001"),
            _player(2, "Başka, Biri", "0.0", "   1 b 0", sex="w", fide="90002"), "XXR 1", head=("042 2026/04/01",))


@pytest.fixture
def elif_():
    return Player.objects.create(federation_id="90001", last_name="Öztürk", first_name="Elif", birth_year=1998,
                                 sex="f")


# --------------------------------------------------------------------------------------------
# 1. A FIDE id of a stored player with another name or birth year


def test_a_fide_id_of_another_person_is_refused_naming_the_line(elif_):
    err = _refused(FID, "line 4: FIDE id 90001 belongs to Öztürk, Elif (1998); the file says Yanlış, İsim (2001)",
                   "Nothing is imported", field="player_matches")
    assert isinstance(err, PlayerConflicts) and [c.start_no for c in err.conflicts] == [1]
    assert Player.objects.get(federation_id="90001").last_name == "Öztürk"


@pytest.mark.parametrize("name, birth", [
    ("ÖZTÜRK, ELİF", "1998"), ("Ozturk, Elif", "1998/03/04"), ("Elif Öztürk", ""), ("OZTURK ELIF", "1998"),
])
def test_the_same_name_written_otherwise_is_the_same_person(elif_, name, birth):
    text = _file(_player(1, name, "1.0", "   2 w 1", fide="90001", birth=birth), _player(2, "Başka, Biri", "0.0",
                                                                                         "   1 b 0"), "XXR 1")
    report = _import(text)
    assert report.players[0].how == "fide_id" and not report.players[0].conflict
    assert report.tournament.entries.get(start_no=1).player == elif_


def test_another_birth_year_alone_is_a_conflict(elif_):
    text = _file(_player(1, "Öztürk, Elif", "1.0", "   2 w 1", fide="90001", birth="1999"),
                 _player(2, "Başka, Biri", "0.0", "   1 b 0"), "XXR 1")
    _refused(text, "line 3: FIDE id 90001 belongs to Öztürk, Elif (1998); the file says Öztürk, Elif (1999)",
             field="player_matches")


def test_a_confirmed_conflict_is_imported_and_says_what_differs(elif_):
    report = _import(FID, player_matches={1: "90001"})
    assert report.tournament.entries.get(start_no=1).player == elif_
    assert report.players[0].how == "fide_id" and "belongs to Öztürk, Elif (1998)" in report.players[0].conflict
    assert ("line 4: FIDE id 90001: the stored player Öztürk, Elif (1998) is this line's player, as confirmed"
            in report.notes)
    assert ("line 4: the file differs from the stored player 90001: name Yanlış, İsim (stored: Öztürk, Elif), birth "
            "year 2001 (stored: 1998), sex male (stored: female); the stored values are kept") in report.notes
    elif_.refresh_from_db()
    assert (elif_.last_name, elif_.birth_year, elif_.sex) == ("Öztürk", 1998, "f")
    # another id than the line's FIDE id is no confirmation
    _refused(FID, "Line 4 (starting number 1) has the FIDE id 90001", field="player_matches",
             player_matches={1: "90002"})


def test_a_dry_run_lists_the_conflict_instead_of_refusing(elif_):
    report = _import(FID, dry_run=True)
    c = report.players[0]
    assert (c.how, c.federation_id) == ("conflict", "90001") and report.conflicts == [c]
    assert any(n.startswith("line 4: FIDE id 90001 belongs to") and "would be refused unless you confirm" in n
               for n in report.notes)


def test_the_api_refuses_lists_and_confirms_a_conflict(elif_):
    r = _api().post("/api/tournaments/import-trf/", {"file": _upload(FID)}, format="multipart")
    assert r.status_code == 400, r.content
    error = r.json()["error"]
    assert error["field"] == "player_matches" and "line 4: FIDE id 90001 belongs to" in error["message"]
    r = _api().post("/api/tournaments/import-trf/", {"file": _upload(FID), "dry_run": "true"}, format="multipart")
    assert r.status_code == 200
    row = r.json()["players"][0]
    assert row["how"] == "conflict" and "Öztürk, Elif (1998)" in row["conflict"]
    r = _api().post("/api/tournaments/import-trf/", {"file": _upload(FID), "player_matches": json.dumps({"1": "90001"})},
                    format="multipart")
    assert r.status_code == 201, r.content
    assert Tournament.objects.get(slug=r.json()["slug"]).entries.get(start_no=1).player == elif_


def test_the_command_refuses_with_the_option_that_confirms(elif_, tmp_path):
    path = tmp_path / "fid.trf"
    path.write_text(FID, encoding="utf-8")
    with pytest.raises(CommandError) as err:
        call_command("import_trf", str(path), stdout=io.StringIO())
    assert "line 4: FIDE id 90001 belongs to" in str(err.value) and "--player 1=90001" in str(err.value)
    out = io.StringIO()
    call_command("import_trf", str(path), "--dry-run", stdout=out, stderr=io.StringIO())
    assert "line 4: 1 Yanlış, İsim: conflict 90001" in out.getvalue()
    out = io.StringIO()
    call_command("import_trf", str(path), "--player", "1=90001", stdout=out, stderr=io.StringIO())
    assert Tournament.objects.get(slug=out.getvalue().split()[-1]).entries.get(start_no=1).player == elif_


def test_the_page_shows_the_conflict_and_imports_once_confirmed(elif_):
    client = _page()
    r = client.post("/t/import/", {"file": _upload(FID, "fid.trf"), **OPTIONS})
    assert r.status_code == 200
    html = r.content.decode()
    assert 'data-testid="import-conflicts"' in html and "FIDE id 90001 belongs to Öztürk, Elif (1998)" in html
    assert 'name="confirm_1" value="90001"' in html and 'data-testid="import-kept-file"' in html
    token = r.context["form"].data["upload"]
    r = client.post("/t/import/", {"upload": token, "preview": "1", "confirm_1": "90001", **OPTIONS})
    html = r.content.decode()
    assert 'data-testid="import-preview"' in html and 'name="confirm_1" value="90001" checked' in html
    r = client.post("/t/import/", {"upload": token, "confirm_1": "", **OPTIONS})  # "refuse": nothing imported
    assert r.status_code == 200 and not Tournament.objects.filter(name="Deneme Turnuvası").exists()
    assert "belongs to Öztürk, Elif (1998)" in r.content.decode()
    r = client.post("/t/import/", {"upload": token, "confirm_1": "90001", **OPTIONS})
    assert r.status_code == 302
    t = Tournament.objects.get(slug=r["Location"].rstrip("/").split("/")[-1])
    assert t.entries.get(start_no=1).player == elif_


# --------------------------------------------------------------------------------------------
# 2. What the file says that differs from the stored player; full birth dates


def test_a_match_by_name_lists_what_the_file_says_otherwise():
    club = Club.objects.create(name="İstanbul Mangala", short_name="IST")
    known = Player.objects.create(federation_id="F-77", last_name="Kılıç", first_name="Ayşe", birth_year=1990,
                                  sex="m", club=club)
    text = _file(_player(1, "KILIÇ, AYŞE", "1.0", "   2 w 1", sex="w", fed="IST", birth="1990/05/06"),
                 _player(2, "Tan, Rana", "0.0", "   1 b 0", birth="1991/01/02"), "XXR 1")
    report = _import(text, player_values={1: "stored"})
    assert report.tournament.entries.get(start_no=1).player == known
    assert ("line 3: the file differs from the stored player F-77: name KILIÇ, AYŞE (stored: Kılıç, Ayşe), sex female "
            "(stored: male); the stored values are kept") in report.notes
    assert ("2 lines give a full birth date (the first, line 3: 1990/05/06); only the birth year is kept"
            in report.notes)
    known.refresh_from_db()
    assert (known.sex, known.birth_year) == ("m", 1990)


def test_a_fide_id_match_lists_a_birth_year_the_stored_player_lacks():
    Player.objects.create(federation_id="90007", last_name="Aksu", first_name="Eda")
    text = _file(_player(1, "Aksu, Eda", "1.0", "   2 w 1", fide="90007", birth="1990"),
                 _player(2, "Tan, Rana", "0.0", "   1 b 0"), "XXR 1")
    report = _import(text)
    assert ("line 3: the file differs from the stored player 90007: birth year 1990 (stored: —); the stored values "
            "are kept") in report.notes
    assert not any("full birth date" in n for n in report.notes)


# --------------------------------------------------------------------------------------------
# 3. The file's own ranks survive a round trip


def test_the_files_ranks_survive_export_and_import():
    t = _import((SAMPLES / "spring_open_2011_masters.trf").read_bytes()).tournament
    t.tiebreaks = ["wins"]  # our ranks differ from the file's
    t.save()
    from tournaments.selectors import tournament_standings

    ours = {line.start_no: line.rank for line in tournament_standings(tournament=t).lines}
    theirs = {e.start_no: e.official_rank for e in t.entries.all()}
    assert ours != theirs
    text = tournament_export_trf(tournament=t)
    written = {p.start_no: p.rank for p in parse_trf(text).players}
    assert written == theirs
    again = _import(text).tournament
    assert {e.start_no: e.official_rank for e in again.entries.all()} == theirs


def test_after_a_round_paired_here_the_rank_column_is_ours():
    org = organiser(username="trial-ranks")
    text = _file(*[_player(i, f"Oyuncu, {chr(64 + i)}", "0.0", rank=str(5 - i)) for i in range(1, 5)], "XXR 3")
    t = _import(text, user=org).tournament
    assert {p.rank for p in parse_trf(tournament_export_trf(tournament=t)).players} == {1, 2, 3, 4}
    assert [p.rank for p in parse_trf(tournament_export_trf(tournament=t)).players] == [4, 3, 2, 1]
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="x")
    round_services.round_publish(round=rnd, user=org)
    for m in rnd.matches.filter(kind="game"):
        result_services.match_result_enter(match=m, forfeit="black", user=org)
    round_services.round_close(round=rnd, user=org)
    from tournaments.selectors import tournament_standings

    ours = {line.start_no: line.rank for line in tournament_standings(tournament=t).lines}
    assert {p.start_no: p.rank for p in parse_trf(tournament_export_trf(tournament=t)).players} == ours


# --------------------------------------------------------------------------------------------
# 4. Several known players for one line: the page offers them


def test_the_page_lets_the_organiser_choose_among_several_known_players():
    club = Club.objects.create(name="Ankara Mangala", short_name="ANK")
    a = Player.objects.create(federation_id="F-201", last_name="Demir", first_name="Can", birth_year=1990, club=club)
    b = Player.objects.create(federation_id="F-202", last_name="Demir", first_name="Can", birth_year=1990)
    single = Player.objects.create(federation_id="F-203", last_name="Tan", first_name="Rana")
    text = _file(_player(1, "Demir, Can", "1.0", "   2 w 1", birth="1990"), _player(2, "Tan, Rana", "0.0", "   1 b 0"),
                 "XXR 1")
    client = _page("trial-several")
    r = client.post("/t/import/", {"file": _upload(text), "preview": "1", **OPTIONS})
    html = r.content.decode()
    assert 'data-testid="import-choices"' in html and 'name="choose_1"' in html
    assert '<option value="F-201">F-201 · Demir, Can · ANK · 1990</option>' in html
    assert '<option value="F-202">F-202 · Demir, Can · — · 1990</option>' in html
    assert 'name="keep" value="2"' in html  # the line with one known player keeps its box
    token = r.context["form"].data["upload"]
    r = client.post("/t/import/", {"upload": token, "preview": "1", "choose_1": "F-202", "offered": "2", "keep": "2",
                                   **OPTIONS})
    assert '<option value="F-202" selected>' in r.content.decode()
    r = client.post("/t/import/", {"upload": token, "choose_1": "F-202", "offered": "2", "keep": "2", **OPTIONS})
    assert r.status_code == 302
    t = Tournament.objects.get(name="Deneme Turnuvası")
    assert t.entries.get(start_no=1).player == b and t.entries.get(start_no=2).player == single
    assert a.entries.count() == 0


# --------------------------------------------------------------------------------------------
# 5. The preview says "would be"


def test_a_preview_says_would_be_imported():
    text = _file(_player(1, "Aksu, Eda", "1.0", "   2 w 1"), _player(2, "Tan, Rana", "0.0", "   1 b 0"),
                 kind="Knockout")
    _import(text, system="swiss")
    report = _import(text, system="swiss", dry_run=True)
    assert report.notes[0].startswith("a tournament named 'Deneme Turnuvası' already exists (")
    assert "; it would be imported as " in report.notes[0]
    assert ("line 2: the file's tournament type is 'Knockout'; it would be imported as Swiss (FIDE Dutch), as chosen"
            in report.notes)
    assert not any("; imported as" in n for n in report.notes)
    r = _api().post("/api/tournaments/import-trf/", {"file": _upload(text), "system": "swiss", "dry_run": "true"},
                    format="multipart")
    assert r.status_code == 200 and any("it would be imported as" in n for n in r.json()["notes"])


# --------------------------------------------------------------------------------------------
# 6. The import page's kept file and a double submit

GOOD = _file(_player(1, "Aksu, Eda", "1.0", "   2 w 1"), _player(2, "Tan, Rana", "0.0", "   1 b 0"), "XXR 1")


def test_a_new_upload_even_an_empty_one_drops_the_kept_file():
    client = _page("trial-kept")
    r = client.post("/t/import/", {"file": _upload(GOOD, "good.trf"), "preview": "1", **OPTIONS})
    assert 'data-testid="import-kept-file"' in r.content.decode()
    token = r.context["form"].data["upload"]
    r = client.post("/t/import/", {"file": _upload(b"", "empty.trf"), "upload": token, **OPTIONS})
    html = r.content.decode()
    assert r.status_code == 200 and "good.trf" not in html and 'data-testid="import-kept-file"' not in html
    r = client.post("/t/import/", {"upload": token, **OPTIONS})  # the old token brings nothing back
    assert r.status_code == 200 and "Choose the TRF file." in r.content.decode()
    assert not Tournament.objects.filter(name="Deneme Turnuvası").exists()


def test_a_refused_file_replaces_the_kept_one_and_is_named():
    client = _page("trial-kept-2")
    r = client.post("/t/import/", {"file": _upload(GOOD, "good.trf"), "preview": "1", **OPTIONS})
    r = client.post("/t/import/", {"file": _upload("012 x\n", "bad.trf"), **OPTIONS})
    html = r.content.decode()
    assert "no player lines (tag 001) found" in html and "good.trf" not in html


def test_a_post_without_file_or_token_does_not_bring_the_kept_file_back():
    client = _page("trial-kept-3")
    client.post("/t/import/", {"file": _upload(GOOD, "good.trf"), "preview": "1", **OPTIONS})
    r = client.post("/t/import/", {"system": "swiss", **OPTIONS})
    html = r.content.decode()
    assert "Choose the TRF file." in html and 'data-testid="import-kept-file"' not in html
    assert "trf_import_upload" not in client.session


def test_a_double_submit_lands_on_the_imported_tournament():
    client = _page("trial-double")
    r = client.post("/t/import/", {"file": _upload(GOOD), "preview": "1", **OPTIONS})
    token = r.context["form"].data["upload"]
    first = client.post("/t/import/", {"upload": token, **OPTIONS})
    second = client.post("/t/import/", {"upload": token, **OPTIONS}, follow=True)
    assert first.status_code == 302 and second.redirect_chain[0][0] == first["Location"]
    assert Tournament.objects.filter(name="Deneme Turnuvası").count() == 1
    assert "This file has been imported already: Deneme Turnuvası." in second.content.decode()


def test_a_submit_while_the_first_is_importing_waits_for_it():
    """Two requests at once (the session of the second still holds the file): the second waits for the first
    and lands on its tournament."""
    from tournaments import views

    client = _page("trial-double-2")
    r = client.post("/t/import/", {"file": _upload(GOOD), "preview": "1", **OPTIONS})
    token = r.context["form"].data["upload"]
    t = _import(GOOD).tournament
    key = views._trf_token_key(token)
    cache.set(key, "running")
    timer = threading.Timer(0.5, lambda: cache.set(key, {"slug": t.slug, "name": t.name}))
    timer.start()
    try:
        r = client.post("/t/import/", {"upload": token, **OPTIONS})
    finally:
        timer.join()
    assert r.status_code == 302 and r["Location"].rstrip("/").endswith(t.slug)
    assert Tournament.objects.filter(name="Deneme Turnuvası").count() == 1


# --------------------------------------------------------------------------------------------
# 7. A 092 round robin that is not one

RR6 = [
    _player(1, "Bir, A", "2.0", "   4 w 1     2 b 1"), _player(2, "Iki, B", "1.0", "   5 b 1     1 w 0"),
    _player(3, "Uc, C", "0.5", "0000 - U     6 w 0"), _player(4, "Dort, D", "0.5", "   1 b 0  0000 - H"),
    _player(5, "Bes, E", "0.0", "   2 w 0  0000 - Z"), _player(6, "Alti, F", "1.5", "0000 - H     3 b 1"),
]


def test_a_round_robin_with_the_wrong_number_of_rounds_is_refused():
    text = _file(*RR6, "XXR 4", kind="Individual: Round-Robin")
    _refused(text, "line 2 (092 'Individual: Round-Robin') says the event is a round robin",
             "line 9: XXR says 4 rounds, but 6 players need 5 rounds (10 for a double round robin)",
             "choose the system Swiss (--system swiss)", field="system")
    report = _import(text, system="swiss")
    assert report.tournament.system == "swiss"
    assert any("the file's tournament type is 'Individual: Round-Robin'; imported as Swiss" in n for n in report.notes)


def test_a_round_robin_with_a_pairing_allocated_bye_for_an_even_field_is_refused():
    _refused(_file(*RR6, kind="Round robin"), "line 5: round 1 has a pairing-allocated bye (U)", field="system")


def test_a_pair_that_meets_twice_is_no_single_round_robin():
    text = _file(_player(1, "Bir, A", "2.0", "   2 w 1     2 b 0     3 w 1"),
                 _player(2, "Iki, B", "1.0", "   1 b 0     1 w 1  0000 - Z"),
                 _player(3, "Uc, C", "0.0", "0000 - Z  0000 - Z     1 b 0"), "XXR 3", kind="Individual: Round-Robin")
    _refused(text, "line 3: players 1 and 2 meet in rounds 1, 2", field="system")
    # as a double round robin (6 rounds for 3 players) the same rounds are fine
    report = _import(text.replace("XXR 3", "XXR 6"))
    assert (report.tournament.double_round_robin, report.tournament.rounds_total) == (True, 6)
    assert any("XXR says 6 rounds, two cycles of 3 players: imported as a double round robin" in n
               for n in report.notes)


def test_the_round_robin_refusal_from_the_command_names_the_option_once(tmp_path):
    path = tmp_path / "v_rr.trf"
    path.write_text(_file(*RR6, "XXR 4", kind="Individual: Round-Robin"), encoding="utf-8")
    with pytest.raises(CommandError) as err:
        call_command("import_trf", str(path), stdout=io.StringIO())
    assert str(err.value).count("--system") == 1 and "line 9" in str(err.value)


def test_the_pairing_command_refuses_a_round_robin_file(tmp_path, capsys):
    from tournaments.pairing.__main__ import main

    path = tmp_path / "rr.trf"
    path.write_text(_file(*RR6, "XXR 5", kind="Individual: Round-Robin"), encoding="utf-8")
    assert main(["dutch", str(path)]) == 2
    err = capsys.readouterr().err
    assert "line 2: 092 'Individual: Round-Robin' says the event is a round robin" in err and "berger" in err


def test_berger_help_says_what_n_is(capsys):
    from tournaments.pairing.__main__ import main

    with pytest.raises(SystemExit):
        main(["berger", "-h"])
    assert "number of players" in capsys.readouterr().out


# --------------------------------------------------------------------------------------------
# 8. Values accepted with a note: round dates outside the event, ranks given twice


def test_round_dates_outside_the_event_and_repeated_ranks_are_noted():
    text = _file(_player(1, "Aksu, Eda", "2.0", "   2 w 1     3 b 1", rank="1"),
                 _player(2, "Tan, Rana", "0.0", "   1 b 0  0000 - Z", rank="2"),
                 _player(3, "Kaya, Ece", "0.0", "0000 - Z     1 w 0", rank="2"),
                 "XXR 2", head=("042 2026/02/28", "052 2026/03/01",
                                "132" + " " * 88 + "25/02/28  26/03/05"))
    report = _import(text)
    assert ("line 4: round 1 is dated 2025-02-28, before the start date 2026-02-28 (line 2); kept as the file says"
            in report.notes)
    assert ("line 4: round 2 is dated 2026-03-05, after the end date 2026-03-01 (line 3); kept as the file says"
            in report.notes)
    assert "lines 7, 8 all have rank 2 in the rank column (a tie is possible); kept as the file says" in report.notes


# --------------------------------------------------------------------------------------------
# 9. Byes without a U code


def _five(round1_bye: str, *, points: str = "1.0", extra: tuple[str, ...] = ()) -> str:
    return _file(_player(1, "Bir, A", "1.0", "   2 w 1"), _player(2, "Iki, B", "0.0", "   1 b 0"),
                 _player(3, "Uc, C", "1.0", "   4 w 1"), _player(4, "Dort, D", "0.0", "   3 b 0"),
                 _player(5, "Bes, E", points, round1_bye), "XXR 3", *extra)


@pytest.mark.parametrize("cell", ["0000 - +", "0000 -  ", "     - +"])
def test_a_one_point_bye_without_u_is_the_pairing_allocated_bye(cell):
    report = _import(_five(cell))
    bye = Match.objects.get(round__tournament=report.tournament, white__start_no=5)
    assert (bye.bye_kind, float(bye.white_points)) == ("pab", 1.0)
    assert any(n.startswith("line 7: round 1: the 1-point bye without a U code") and "pairing-allocated bye: 5 "
               "players were paired (an odd number)" in n for n in report.notes), report.notes
    again = _import(tournament_export_trf(tournament=report.tournament))
    assert "0000 - U" in tournament_export_trf(tournament=report.tournament)
    assert Match.objects.get(round__tournament=again.tournament, white__start_no=5).bye_kind == "pab"


def test_two_such_byes_in_a_round_are_full_point_byes():
    text = _file(_player(1, "Bir, A", "1.0", "   2 w 1"), _player(2, "Iki, B", "0.0", "   1 b 0"),
                 _player(3, "Uc, C", "1.0", "0000 - +"), _player(4, "Dort, D", "1.0", "0000 - +"), "XXR 3")
    report = _import(text)
    kinds = {m.white.start_no: m.bye_kind for m in Match.objects.filter(round__tournament=report.tournament, kind="bye")}
    assert kinds == {3: "full", 4: "full"}
    assert any("taken as a full-point bye: 2 players have such a bye in this round" in n for n in report.notes)
    again = _import(tournament_export_trf(tournament=report.tournament)).tournament
    assert {m.white.start_no: m.bye_kind for m in Match.objects.filter(round__tournament=again, kind="bye")} == kinds


def test_a_second_bye_or_one_after_a_forfeit_win_or_a_u_in_the_round_is_a_full_point_bye():
    text = _file(_player(1, "Bir, A", "2.0", "   2 w 1     3 b 1"), _player(2, "Iki, B", "1.0", "   1 b 0     4 w +"),
                 _player(3, "Uc, C", "1.0", "   4 w 1     1 w 0"), _player(4, "Dort, D", "0.0", "   3 b 0     2 b -"),
                 _player(5, "Bes, E", "2.0", "0000 - U  0000 - +"), "XXR 3")
    report = _import(text)
    bye = Match.objects.get(round__tournament=report.tournament, round__number=2, white__start_no=5)
    assert bye.bye_kind == "full"
    assert any("line 7: round 2" in n and "the player had the pairing-allocated bye in round 1" in n
               for n in report.notes)
    text = _file(_player(1, "Bir, A", "1.0", "   2 w +"), _player(2, "Iki, B", "0.0", "   1 b -"),
                 _player(3, "Uc, C", "1.0", "0000 - U"), _player(4, "Dort, D", "1.0", "0000 - +"), "XXR 3")
    report = _import(text)
    assert Match.objects.get(round__tournament=report.tournament, white__start_no=4).bye_kind == "full"
    assert any("player 3 has the pairing-allocated bye (U) of this round" in n for n in report.notes)
    text = _file(_player(1, "Bir, A", "2.0", "   2 w +  0000 - +"), _player(2, "Iki, B", "1.0", "   1 b -     3 w 1"),
                 _player(3, "Uc, C", "0.0", "0000 - Z     2 b 0"), "XXR 3")
    report = _import(text)
    assert Match.objects.get(round__tournament=report.tournament, round__number=2, white__start_no=1).bye_kind == "full"
    assert any("the player won round 1 by forfeit" in n for n in report.notes)


def test_a_half_point_pab_file_keeps_a_one_point_bye_full():
    report = _import(_five("0000 - +", extra=("BBU  0.5",)))
    assert Match.objects.get(round__tournament=report.tournament, white__start_no=5).bye_kind == "full"
    assert any("a pairing-allocated bye is worth 0.5 in this file (BBU)" in n for n in report.notes)


# --------------------------------------------------------------------------------------------
# 10. One language; labels; the reader's messages


def test_the_command_speaks_one_language(tmp_path):
    path = tmp_path / "no092.trf"
    path.write_text("012 x\n" + _player(1, "Aksu, Eda", "1.0", "   2 w 1") + "\n"
                    + _player(2, "Tan, Rana", "0.0", "   1 b 0") + "\n", encoding="utf-8")
    with pytest.raises(CommandError) as err:
        call_command("import_trf", str(path), stdout=io.StringIO())
    assert str(err.value).startswith("no092.trf: the file has no 092 line")
    assert str(err.value).endswith("(--system swiss or --system round_robin)")
    with translation.override("tr"):
        expected = translation.gettext("%(message)s (--system swiss or --system round_robin)")
    with pytest.raises(CommandError) as err:
        call_command("import_trf", str(path), "--lang", "tr", stdout=io.StringIO())
    with translation.override("tr"):
        message = translation.gettext(
            "%(source)s: the file has no 092 line (tournament type), so it does not say whether the event is a Swiss "
            "or a round robin; choose the system.") % {"source": "no092.trf"}
    assert str(err.value) == expected % {"message": message}
    with pytest.raises(CommandError) as err:
        call_command("import_trf", str(path), "--player", "x", stdout=io.StringIO())
    assert "write START_NO=FEDERATION_ID" in str(err.value)


def test_api_errors_of_player_matches_go_through_the_catalogue(monkeypatch):
    import tournaments.serializers as serializers

    monkeypatch.setattr(serializers, "_", lambda text: f"«{text}»")
    for value, expected in (("[1]", "«An object of starting numbers and federation ids (or null).»"),
                            ('{"x": null}', "«%(key)s is not a starting number.»" % {"key": "'x'"}),
                            ('{"1": 5}', "«%(key)s: a federation id (text) or null.»" % {"key": "1"})):
        r = _api().post("/api/tournaments/import-trf/", {"file": _upload(GOOD), "player_matches": value},
                        format="multipart")
        assert r.status_code == 400 and r.json()["error"]["field"] == "player_matches"
        assert r.json()["error"]["message"] == expected


def test_the_history_shows_labels_and_no_rated_for_a_bye():
    org = organiser(username="trial-history")
    t = services.tournament_create(name="Geçmiş Deneme", rounds_total=3, created_by=org)
    services.tournament_update(tournament=t, user=org, tiebreak_rules="2026", reason="x")
    for i in range(3):
        entry_services.entry_add(tournament=t, player=PlayerFactory(last_name=f"Oyuncu{i}", first_name="Ayşe"))
    round_services.round_pair(tournament=t, user=org, coin_seed="x")
    with translation.override("en"):
        item = next(i for i in history.tournament_history(tournament=t) if i.action == "round.pair")
        rows = item.changes()
    values = {(r["field"], r["after"]) for r in rows}
    assert ("status", "paired") in values and ("kind", "bye") in values and ("kind", "game") in values
    assert ("bye", "pairing-allocated bye") in values
    bye_rows = [r for r in rows if any(x["object"] == r["object"] and x["after"] == "bye" for x in rows)]
    assert bye_rows and not any(r["field"] in ("rated", "black", "forfeit") for r in bye_rows)
    assert item.after is not None and any(v.get("bye_kind") == "pab" for v in item.after.values())  # API: codes
    with translation.override("en"):
        rows = next(i for i in history.tournament_history(tournament=t) if i.action == "tournament.edit").changes()
    assert {"field": "tie-break rules text", "before": "by the event's dates",
            "after": "FIDE C.07 with the amendment in force from 1 March 2026", "object": "Tournament"} in rows


@pytest.mark.parametrize("line, parts", [
    ("240 H    3    4", ["240: round '' is not a whole number", "expected `240 T RRR PPPP PPPP ...`",
                         "the round in columns 7-9"]),
    ("260 1 6", ["260: first round '1 6' is not a whole number", "expected `260 RRR RRR PPPP PPPP ...`"]),
    ("250    5  1.0  1.0  1.0  1.0", ["250: accelerations in match points", "expected `250 MMMM GGGG RRR RRR PPPP PPPP`"]),
    ("XXA    1  1.0x1.0", ["XXA: column 14 should be blank", "expected `XXA NNNN pp.p pp.p ...`"]),
])
def test_extension_errors_show_the_layout(line, parts):
    with pytest.raises(TrfError) as err:
        parse_trf(GOOD + line + "\n")
    assert err.value.line == 6
    for part in parts:
        assert part in str(err.value), str(err.value)


def test_negative_points_and_files_without_player_lines_say_so():
    with pytest.raises(TrfError) as err:
        parse_trf(_file(_player(1, "Aksu, Eda", "-1.0"), _player(2, "Tan, Rana", "0.0")))
    assert str(err.value) == "line 3: points '-1.0' is negative (a player's points are 0 or more)"
    with pytest.raises(TrfError) as err:
        parse_trf("hello\nworld\n\x01binary")
    assert "(lines read: 3); this does not look like a TRF file" in str(err.value)
