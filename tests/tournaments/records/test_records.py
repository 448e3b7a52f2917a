"""Bulk import of set records (``tournaments.records.services``, the ``games.import_records`` task, the
``import_records``/``export_records`` commands and the ``/games/import/`` pages).

Records are checked against the set's *stored* stones (RULES.md "Board and notation", Kural 14.5 for
withdrawals). Data is built through ``tournaments.services``; complete sets come from the engine
(``federation.sample_data.play_set``).
"""
from __future__ import annotations

import io
import random
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

import games.engine as engine
from federation.errors import PermissionDenied, ValidationFailed
from federation.sample_data import play_set
from games.engine.notation import GameRecord, write, write_record
from games.models import RecordImport
from tests.factories import PlayerFactory, TournamentRoleFactory, UserFactory, organiser, referee
from tournaments import services
from tournaments.models import SetResult
from tournaments.records.selectors import tournament_records_text
from tournaments.records.services import (
    record_import_create,
    record_import_run,
    record_import_start,
    split_records,
)
from tournaments.results.services import SetInput
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services

NAMES = [("Yılmaz", "Ayşe"), ("Kaya", "Mehmet"), ("Demir", "Elif"), ("Şahin", "Can")]


@pytest.fixture(autouse=True)
def english():
    """Import messages are written in the active language (Turkish by default): assert the English."""
    with translation.override("en"):
        yield


def sample_set(seed: int, number: int):
    """A complete set played by the engine: (moves, (white, black) stones) for set ``number``
    (white moves first in odd sets, black in even sets — 003 "Turnuva maçı")."""
    moves, (first, second) = play_set(random.Random(seed), 0.7, 0.7)
    white_first = engine.set_starter(number) == 0
    return moves, ((first, second) if white_first else (second, first))


def decided_set(seed: int):
    """Random moves until someone has >= 25 in store while the set still goes on (Kural 14.5):
    (moves, (first store, second store))."""
    rng = random.Random(seed)
    while True:
        pos = engine.Position.initial()
        moves = []
        while not pos.is_over and max(pos.stores) < 25:
            pit = rng.choice([m.pit for m in engine.legal_moves(pos)])
            moves.append(pit)
            pos = engine.play(pos, pit).position
        if not pos.is_over:
            return moves, pos.stores


@pytest.fixture
def event(db):
    """A published round of 4 players: on both boards sets 1 and 2 are entered with their stones but
    without moves; ``played`` holds the real moves of each set, keyed by (board, set)."""
    org = organiser()
    t = services.tournament_create(name="Kayıt Kupası 2026", rounds_total=3, created_by=org)
    for rating, (last, first) in zip((1900, 1800, 1700, 1600), NAMES):
        entry_services.entry_add(
            tournament=t, player=PlayerFactory(rating=rating, last_name=last, first_name=first)
        )
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="records")
    round_services.round_publish(round=rnd, user=org)
    played = {}
    seed = 100
    for m in rnd.matches.order_by("board"):
        sets = []
        for number in (1, 2):
            seed += 1
            moves, (w, b) = sample_set(seed, number)
            played[(m.board, number)] = (moves, (w, b))
            sets.append(SetInput(w, b))
        result_services.match_result_enter(match=m, sets=sets, user=org)
    return {"t": t, "round": rnd, "org": org, "played": played}


def record_for(ev, board: int, number: int, *, moves=None, result=None, **kw) -> GameRecord:
    """The record of set ``number`` on ``board`` (the moves really played unless ``moves``);
    keyword arguments replace GameRecord fields (e.g. ``event="..."``)."""
    m = ev["round"].matches.get(board=board)
    pm, pr = ev["played"][(board, number)]
    fields = dict(
        event=ev["t"].name, round="1", white=m.white.player.full_name, black=m.black.player.full_name,
        set_number=number, result=result or pr, moves=tuple(moves if moves is not None else pm),
    )
    fields.update(kw)
    return GameRecord(**fields)


def stored_moves(event, board: int, number: int) -> str:
    return event["round"].matches.get(board=board).sets.get(number=number).moves


def run(text: str, user=None, **kw) -> RecordImport:
    row = record_import_create(text=text, user=user, **kw)
    return record_import_run(import_id=row.id)


def wait(row: RecordImport, timeout: float = 60.0) -> RecordImport:
    """The import once finished (at once in eager mode; a worker needs a moment)."""
    deadline = time.monotonic() + timeout
    while True:
        row.refresh_from_db()
        if not row.is_active or time.monotonic() > deadline:
            return row
        time.sleep(0.2)


# --------------------------------------------------------------------------------------------
# splitting
# --------------------------------------------------------------------------------------------


def test_split_records_follows_the_parser_and_keeps_line_numbers():
    text = (
        "; header comment\n"  # 1
        "\n"  # 2
        '[Event "A"]\n'  # 3
        '[Result "*"]\n'  # 4
        "\n"  # 5
        "4 1\n"  # 6
        "3 *\n"  # 7
        '[Event "B"]\n'  # 8 — a tag after moves starts the next record even without a blank line
        '[Result "*"]\n'  # 9
        "2\n"  # 10
    )
    chunks = split_records(text)
    assert [c.line for c in chunks] == [3, 8]
    assert chunks[0].text.splitlines() == ['[Event "A"]', '[Result "*"]', "", "4 1", "3 *"]
    assert chunks[1].text.splitlines() == ['[Event "B"]', '[Result "*"]', "2"]
    assert split_records("\n \n; nothing\n") == []


# --------------------------------------------------------------------------------------------
# the import service
# --------------------------------------------------------------------------------------------


def test_good_records_attach_their_moves(event):
    recs = [record_for(event, 1, 1), record_for(event, 2, 2), record_for(event, 1, 2)]
    row = run(write(recs))
    assert (row.status, row.total, row.done, row.stored, row.errors) == ("done", 3, 3, 3, [])
    for board, number in ((1, 1), (2, 2), (1, 2)):
        assert stored_moves(event, board, number) == " ".join(map(str, event["played"][(board, number)][0]))
    assert stored_moves(event, 2, 1) == ""  # not in the import
    ids = [event["round"].matches.get(board=b).sets.get(number=k).id for b, k in ((1, 1), (2, 2), (1, 2))]
    assert row.set_ids == ids


def test_a_record_disagreeing_with_the_stored_stones_is_reported_and_the_rest_go_on(event):
    """Board 1 set 1 gets the moves of board 2 set 1 (another result) under the right Result tag."""
    other_moves = event["played"][(2, 1)][0]
    assert event["played"][(2, 1)][1] != event["played"][(1, 1)][1]
    good1 = write_record(record_for(event, 2, 1))
    bad = write_record(record_for(event, 1, 1, moves=other_moves))
    good2 = write_record(record_for(event, 2, 2))
    text = good1 + "\n" + bad + "\n" + good2
    bad_line = len((good1 + "\n").splitlines()) + 1
    assert text.splitlines()[bad_line - 1].startswith("[Event")
    row = run(text)
    assert (row.status, row.total, row.done, row.stored) == ("done", 3, 3, 2)
    w, b = event["played"][(1, 1)][1]
    other = engine.validate_record(other_moves, first_stones=event["played"][(2, 1)][1][0],
                                   second_stones=event["played"][(2, 1)][1][1])
    assert row.errors == [{
        "record": 2, "line": bad_line,
        "message": f"the moves give {other.first}-{other.second} (White-Black), not the stored {w}-{b} of set 1",
    }]
    assert stored_moves(event, 1, 1) == ""  # nothing stored for the bad record
    assert stored_moves(event, 2, 1) != "" and stored_moves(event, 2, 2) != ""


def test_an_illegal_move_is_reported_with_the_line_of_the_move(event):
    moves = event["played"][(1, 1)][0]
    w, b = event["played"][(1, 1)][1]
    m = event["round"].matches.get(board=1)
    text = (
        f'[Event "{event["t"].slug}"]\n[Round "1"]\n[White "{m.white.player.full_name}"]\n'
        f'[Black "{m.black.player.full_name}"]\n[Set "1"]\n[Result "{w}-{b}"]\n\n'
        + " ".join(map(str, moves)) + "\n"  # line 8: the whole set
        + "1\n"  # line 9: a move after the end of the set
    )
    row = run(text)
    assert row.stored == 0
    assert row.errors == [{
        "record": 1, "line": 9,
        "message": f"ply {len(moves) + 1}: the set is already over after ply {len(moves)} (Kural 14)",
    }]


def test_tag_problems_name_the_record_line(event):
    m1 = event["round"].matches.get(board=1)
    w, b = event["played"][(1, 1)][1]
    wrong_result = (b, w) if w != b else (w - 1, b + 1)
    chunks = [
        write_record(record_for(event, 1, 1, event="Olmayan Turnuva")),
        write_record(record_for(event, 1, 1, result=wrong_result)),
        write_record(record_for(event, 1, 1, white=m1.black.player.full_name, black=m1.white.player.full_name)),
        write_record(record_for(event, 1, 1, round="2")),
        '[Event "x"]\n[Result 30-18]\n\n4\n',  # malformed tag on its first line
        write_record(record_for(event, 1, 1, white=m1.white.player.federation_id)),  # id instead of name: fine
    ]
    text = "\n".join(chunks)
    row = run(text)
    starts = [c.line for c in split_records(text)]
    assert row.total == 6 and row.done == 6 and row.stored == 1
    got = {e["record"]: (e["line"], e["message"]) for e in row.errors}
    assert got[1] == (starts[0], "no tournament named 'Olmayan Turnuva' (Event tag: a tournament name or slug)")
    assert got[2][0] == starts[1] and f"differs from the stored stones {w}-{b} of set 1" in got[2][1]
    assert got[3][0] == starts[2] and "White and Black are swapped" in got[3][1]
    assert got[4] == (starts[3], f"{event['t'].name} has no round 2")
    assert got[5][0] == starts[4] + 1 and "malformed tag pair" in got[5][1]
    assert 6 not in got
    assert stored_moves(event, 1, 1) == " ".join(map(str, event["played"][(1, 1)][0]))


def test_a_different_stored_record_is_kept_unless_replace(event):
    """Re-importing the stored record is no change; a set holding a different (stale) record keeps it
    unless the import is told to ``replace`` it."""
    moves, (w, b) = event["played"][(1, 1)]
    m = event["round"].matches.get(board=1)
    s = m.sets.get(number=1)
    SetResult.objects.filter(pk=s.pk).update(moves=" ".join(map(str, moves)))
    row = run(write_record(record_for(event, 1, 1)))
    assert (row.stored, row.errors) == (1, [])
    SetResult.objects.filter(pk=s.pk).update(moves="4 4 4")  # an (invalid) stale record
    version = m.version
    row = run(write_record(record_for(event, 1, 1)))
    assert row.stored == 0 and "already has a different move record" in row.errors[0]["message"]
    assert stored_moves(event, 1, 1) == "4 4 4"
    row = run(write_record(record_for(event, 1, 1)), replace=True)
    assert row.stored == 1 and stored_moves(event, 1, 1) == " ".join(map(str, moves))
    m.refresh_from_db()
    assert m.version == version + 1  # an open result form cannot silently drop the record


def test_progress_is_saved_after_every_record(event):
    recs = [record_for(event, 1, 1), record_for(event, 1, 2, event="nope"), record_for(event, 2, 1)]
    row = record_import_create(text=write(recs))
    assert (row.status, row.total, row.done) == ("pending", 0, 0)
    seen = []

    def progress(done, total, chunk, s, error):
        saved = RecordImport.objects.get(pk=row.pk)
        seen.append((done, total, saved.status, saved.done, saved.stored, len(saved.errors), error is None))

    row = record_import_run(import_id=row.id, progress=progress, save_every=0)
    assert seen == [
        (1, 3, "running", 1, 1, 0, True),
        (2, 3, "running", 2, 1, 1, False),
        (3, 3, "running", 3, 2, 1, True),
    ]
    assert (row.status, row.done, row.stored, row.finished_at is not None) == ("done", 3, 2, True)
    # a task delivered twice does not run twice
    again = record_import_run(import_id=row.id)
    assert (again.done, again.stored, len(again.errors)) == (3, 2, 1)


def test_text_without_records_fails(db):
    row = run("; only a comment\n")
    assert row.status == "failed" and row.total == 0
    assert row.errors == [{"record": 0, "line": 0, "message": "no records found in the text"}]


def test_who_may_import(event):
    with pytest.raises(PermissionDenied):
        record_import_create(text=write_record(record_for(event, 1, 1)), user=UserFactory())
    with pytest.raises(ValidationFailed):
        record_import_create(text="  \n", user=referee())
    # a referee of another tournament may start an import, but not touch this tournament's sets
    other_ref = TournamentRoleFactory(user=UserFactory()).user
    row = run(write_record(record_for(event, 1, 1)), user=other_ref)
    assert row.stored == 0
    assert row.errors[0]["message"] == f"you may not enter results of {event['t'].name}"
    row = run(write_record(record_for(event, 1, 1)), user=referee())
    assert row.stored == 1


def test_withdrawals_are_checked_against_the_stored_termination(event):
    """Kural 14.5: set 2 of board 2 is recorded with a withdrawal of its first mover (black)."""
    moves, (first, second) = decided_set(5)
    m = event["round"].matches.get(board=2)
    s1 = event["played"][(2, 1)]
    # set 2: black moves first; black withdraws → "black_withdrew" stored, Termination first_withdrew
    result_services.match_result_enter(
        match=m, sets=[SetInput(*s1[1]), SetInput(second, first, termination="black_withdrew")], user=event["org"],
        expected_version=m.version,
    )
    s2 = m.sets.get(number=2)
    rec = GameRecord(
        event=event["t"].name, round="1", white=m.white.player.full_name, black=m.black.player.full_name,
        set_number=2, result=(s2.white_stones, s2.black_stones), moves=tuple(moves), termination="first_withdrew",
    )
    row = run(write_record(rec))
    assert (row.stored, row.errors) == (1, [])
    assert stored_moves(event, 2, 2) == " ".join(map(str, moves))
    wrong = GameRecord(**{**{f: getattr(rec, f) for f in ("event", "round", "white", "black", "set_number",
                                                          "result", "moves")}, "termination": "second_withdrew"})
    row = run(write_record(wrong))
    assert row.stored == 0 and "differs from the stored termination" in row.errors[0]["message"]


# --------------------------------------------------------------------------------------------
# the task, start, and the commands
# --------------------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_record_import_start_runs_the_task(event):
    row = record_import_start(text=write([record_for(event, 1, 1), record_for(event, 2, 2)]), user=event["org"])
    row = wait(row)
    assert (row.status, row.total, row.done, row.stored, row.errors) == ("done", 2, 2, 2, [])
    assert row.created_by == event["org"]


def _recorded_tournament(event):
    """Put real moves on every set of ``event`` (through match_result_enter) plus a withdrawal set."""
    for m in event["round"].matches.order_by("board"):
        sets = []
        for number in (1, 2):
            moves, (w, b) = event["played"][(m.board, number)]
            sets.append(SetInput(w, b, moves=" ".join(map(str, moves))))
        result_services.match_result_enter(match=m, sets=sets, user=event["org"], expected_version=m.version)
    # board 2 set 2 replaced by a winner's withdrawal (recorded 25-23 or 23-25)
    m = event["round"].matches.get(board=2)
    moves, (first, second) = decided_set(9)
    term = "black_withdrew" if first >= 25 else "white_withdrew"  # set 2: black is the first mover
    result_services.match_result_enter(
        match=m,
        sets=[
            SetInput(*event["played"][(2, 1)][1], moves=" ".join(map(str, event["played"][(2, 1)][0]))),
            SetInput(second, first, termination=term, moves=" ".join(map(str, moves))),
        ],
        user=event["org"], expected_version=m.version,
    )
    return {s.id: s.moves for s in SetResult.objects.filter(match__round=event["round"])}


def test_export_then_import_round_trip(event, tmp_path):
    original = _recorded_tournament(event)
    assert len(original) == 4 and all(original.values())
    out = tmp_path / "records.txt"
    stdout = io.StringIO()
    call_command("export_records", event["t"].slug, output=str(out), stdout=stdout)
    assert stdout.getvalue().strip() == f"wrote 4 records of {event['t'].name} to {out}"
    text = out.read_text(encoding="utf-8")
    assert text == tournament_records_text(tournament=event["t"])
    assert text.count("[Event ") == 4
    s22 = SetResult.objects.get(match__round=event["round"], match__board=2, number=2)
    # set 2: black is the first mover, so black's withdrawal is "first_withdrew"
    expected_term = "first_withdrew" if s22.termination == "black_withdrew" else "second_withdrew"
    assert text.count(f'[Termination "{expected_term}"]') == 1 and text.count('[Termination "completed"]') == 3
    SetResult.objects.filter(match__round=event["round"]).update(moves="")
    stdout, stderr = io.StringIO(), io.StringIO()
    call_command("import_records", str(out), stdout=stdout, stderr=stderr)
    lines = stdout.getvalue().splitlines()
    assert lines[:4] == [
        "[1/4] round 1 board 1 set 1: stored",
        "[2/4] round 1 board 1 set 2: stored",
        "[3/4] round 1 board 2 set 1: stored",
        "[4/4] round 1 board 2 set 2: stored",
    ]
    assert lines[4].endswith(": 4 of 4 records stored, 0 refused") and stderr.getvalue() == ""
    assert {s.id: s.moves for s in SetResult.objects.filter(match__round=event["round"])} == original
    assert tournament_records_text(tournament=event["t"]) == text  # exported again: the same text


def test_export_to_stdout_and_unknown_slug(event):
    _recorded_tournament(event)
    stdout = io.StringIO()
    call_command("export_records", event["t"].slug, stdout=stdout)
    assert stdout.getvalue() == tournament_records_text(tournament=event["t"])
    with pytest.raises(CommandError) as err:
        call_command("export_records", "yok-boyle-turnuva", stdout=io.StringIO())
    assert err.value.returncode == 2 and str(err.value) == "no tournament with slug 'yok-boyle-turnuva'"


def test_import_command_exit_codes_and_error_lines(event, tmp_path):
    good = write_record(record_for(event, 1, 1))
    bad = write_record(record_for(event, 1, 2, moves=event["played"][(2, 2)][0]))
    f = tmp_path / "some-bad.txt"
    f.write_text(good + "\n" + bad, encoding="utf-8")
    stdout, stderr = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError) as err:
        call_command("import_records", str(f), stdout=stdout, stderr=stderr)
    assert err.value.returncode == 1 and str(err.value) == "1 of 2 records refused"
    bad_line = len((good + "\n").splitlines()) + 1
    assert stderr.getvalue().startswith(f"some-bad.txt: line {bad_line}: record 2: the moves give ")
    assert stdout.getvalue().splitlines()[:2] == [
        "[1/2] round 1 board 1 set 1: stored", f"[2/2] line {bad_line}: refused",
    ]
    with pytest.raises(CommandError) as err:
        call_command("import_records", str(tmp_path / "missing.txt"), stdout=io.StringIO())
    assert err.value.returncode == 2 and "no such file" in str(err.value)
    latin = tmp_path / "latin.txt"
    latin.write_bytes("[Event \"Kayıt\"]".encode("utf-8").replace("ı".encode(), b"\xfd"))
    with pytest.raises(CommandError) as err:
        call_command("import_records", str(latin), stdout=io.StringIO())
    assert err.value.returncode == 2 and "not UTF-8" in str(err.value)


# --------------------------------------------------------------------------------------------
# pages
# --------------------------------------------------------------------------------------------


@pytest.fixture
def en():
    return Client(headers={"accept-language": "en"})


def test_import_page_needs_a_referee_or_organiser(en, db):
    url = reverse("record-import")
    assert url == "/games/import/"
    assert en.get(url).status_code == 302 and "/accounts/login/" in en.get(url)["Location"]
    en.force_login(UserFactory())
    assert en.get(url).status_code == 403
    en.force_login(referee())
    assert en.get(url).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_pasting_records_redirects_to_the_progress_page(en, event):
    en.force_login(event["org"])
    text = write([record_for(event, 1, 1), record_for(event, 2, 1, event="yok")])
    r = en.post(reverse("record-import"), {"text": text})
    assert r.status_code == 302
    row = wait(RecordImport.objects.get())
    assert r["Location"] == f"/games/import/{row.id}/"
    assert (row.status, row.total, row.stored) == ("done", 2, 1)
    html = en.get(r["Location"]).content.decode()
    assert "2 of 2 records processed, 1 stored." in html
    line2 = split_records(text)[1].line
    assert f'<td class="num">2</td><td class="num">{line2}</td><td>no tournament named &#x27;yok&#x27;' in html
    assert 'http-equiv="refresh"' not in html
    assert reverse("set-replay", args=[event["round"].matches.get(board=1).sets.get(number=1).id]) in html


@pytest.mark.django_db(transaction=True)
def test_uploading_a_file_works_too(en, event):
    en.force_login(referee())
    upload = SimpleUploadedFile("kayit.txt", ("\ufeff" + write_record(record_for(event, 2, 2))).encode("utf-8"))
    r = en.post(reverse("record-import"), {"file": upload, "replace": "on"})
    assert r.status_code == 302
    row = wait(RecordImport.objects.get())
    assert (row.source, row.replace, row.stored, row.errors) == ("kayit.txt", True, 1, [])


def test_empty_form_is_refused(en, db):
    en.force_login(referee())
    r = en.post(reverse("record-import"), {"text": "  "})
    assert r.status_code == 200 and "Paste the records or choose a file." in r.content.decode()
    assert not RecordImport.objects.exists()


def test_progress_page_refreshes_while_running_and_is_private(en, event):
    org = event["org"]
    row = record_import_create(text=write_record(record_for(event, 1, 1)), user=org)
    url = reverse("record-import-detail", args=[row.id])
    en.force_login(org)
    r = en.get(url)
    assert r.status_code == 200 and r["Refresh"] == "2"
    assert '<meta http-equiv="refresh" content="2">' in r.content.decode()
    en.force_login(organiser())  # someone else's import
    assert en.get(url).status_code == 404
    record_import_run(import_id=row.id)
    en.force_login(org)
    r = en.get(url)
    assert "Refresh" not in r and 'http-equiv="refresh"' not in r.content.decode()
    assert "1 of 1 records processed, 1 stored." in r.content.decode()


def test_variant_must_be_the_tournaments(event):
    row = run(write_record(record_for(event, 1, 1, variant="kale")))
    assert row.stored == 0
    assert row.errors[0]["message"] == f"the record is for the kale variant but {event['t'].name} plays federation"
    assert stored_moves(event, 1, 1) == ""


def test_round_with_board_and_first_last_names(event):
    """PGN-style Round "1.2" names board 2; "First Last" is accepted for a player too, and case does
    not matter, Turkish dotted/dotless i included ("YILMAZ" is "Yılmaz", "ŞAHİN" is "Şahin")."""
    m2 = event["round"].matches.get(board=2)
    w, b = m2.white.player, m2.black.player
    rec = record_for(event, 2, 1, round="1.2", white=f"{w.first_name} {w.last_name}".upper(), black=b.full_name.upper())
    row = run(write_record(rec))
    assert (row.stored, row.errors) == (1, [])
    m1 = event["round"].matches.get(board=1)
    rec = record_for(event, 1, 1, white=m1.white.player.full_name.upper(), black=m1.black.player.full_name.upper())
    assert {"ı", "i"} & set((m1.white.player.full_name + m2.white.player.full_name).lower())
    row = run(write_record(rec))
    assert (row.stored, row.errors) == (1, [])
    wrong_board = record_for(event, 2, 2, round="1.1")
    row = run(write_record(wrong_board))
    assert row.stored == 0 and row.errors[0]["message"].startswith("no game ")
    assert "in board 1 of round 1 of" in row.errors[0]["message"]


def test_an_internal_error_marks_the_import_failed_and_keeps_the_progress(event, monkeypatch):
    import tournaments.records.services as gs

    real_parse = gs.parse
    calls = []

    def parse_then_break(text):
        calls.append(text)
        if len(calls) == 2:
            raise RuntimeError("disk on fire")
        return real_parse(text)

    monkeypatch.setattr(gs, "parse", parse_then_break)
    row = run(write([record_for(event, 1, 1), record_for(event, 1, 2), record_for(event, 2, 1)]))
    assert (row.status, row.total, row.done, row.stored) == ("failed", 3, 1, 1)
    assert row.errors == [{"record": 2, "line": 0, "message": "internal error: disk on fire"}]
    assert row.finished_at is not None and stored_moves(event, 1, 1) != "" and stored_moves(event, 2, 1) == ""


@pytest.mark.django_db(transaction=True)
def test_the_task_writes_messages_in_the_importers_language(event):
    with translation.override("tr"):
        row = wait(record_import_start(text=write_record(record_for(event, 1, 1, event="yok")), user=event["org"]))
    with translation.override("tr"):
        expected = gettext("no tournament named %(e)r (Event tag: a tournament name or slug)") % {"e": "yok"}
    assert row.errors[0]["message"] == expected
    assert "Event" in expected and not expected.startswith("no tournament")  # the Turkish catalogue has it
    row = wait(record_import_start(text=write_record(record_for(event, 1, 1, event="yok")), user=event["org"]))
    assert row.errors[0]["message"] == "no tournament named 'yok' (Event tag: a tournament name or slug)"
