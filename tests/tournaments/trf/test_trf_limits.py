"""TRF files that used to end the import in a 500 (security trial), and stored data that used to end
the export in one: every line is honoured or refused with its line number, and every export writes.

Each test is named after the kind of fault it pins; the import goes through the API as an organiser
(``/api/tournaments/import-trf/``), so a crash shows as a 500 and a refusal as the error envelope.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from federation.errors import ValidationFailed
from federation.models import Player
from tests.factories import organiser
from tournaments.trf.model import _CONTROL, TrfError, TrfPlayer, TrfResult, TrfTournament
from tournaments.trf.reader import parse_trf
from tournaments.trf.writer import dump_trf
from tournaments.trf import services as trf_services
from tournaments.models import Entry, Tournament
from tournaments.trf.selectors import tournament_export_trf
from tournaments.trf.services import tournament_import_trf

pytestmark = pytest.mark.django_db

SAMPLE_DIR = Path(__file__).resolve().parents[3] / "tournaments" / "sample_data" / "trf"
AUTUMN = (SAMPLE_DIR / "autumn_congress_2018_major.trf").read_text(encoding="utf-8").rstrip("\n") + "\nXXR 6\n"


def _lines() -> list[str]:
    return AUTUMN.split("\n")


def _index(lines: list[str], prefix: str) -> int:
    return next(i for i, line in enumerate(lines) if line.startswith(prefix))


def _with(prefix: str, change) -> tuple[str, int]:
    """The autumn file with the line starting ``prefix`` changed by ``change(line)``; and its line number."""
    lines = _lines()
    i = _index(lines, prefix)
    lines[i] = change(lines[i])
    return "\n".join(lines), i + 1


def _post(text: str | bytes, name: str | None = None):
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en", raise_request_exception=False)
    client.force_authenticate(organiser(username="trf-limits"))
    data = text.encode("utf-8") if isinstance(text, str) else text
    body = {"file": SimpleUploadedFile("limits.trf", data, content_type="text/plain")}
    if name is not None:
        body["name"] = name
    return client.post("/api/tournaments/import-trf/", body, format="multipart")


def _refused(text: str | bytes, *must_contain: str, field: str = "file") -> str:
    before = (Tournament.objects.count(), Player.objects.count(), Entry.objects.count())
    r = _post(text)
    assert r.status_code == 400, (r.status_code, r.content[:300])
    err = r.json()["error"]
    assert err["field"] == field and err["code"] == "invalid"
    for part in must_contain:
        assert part in err["message"], err["message"]
    assert (Tournament.objects.count(), Player.objects.count(), Entry.objects.count()) == before
    return err["message"]


# --------------------------------------------------------------------------------------------
# Numbers of rounds beyond the model (1..99)


def test_xxr_above_99_rounds_is_refused_naming_its_line():
    lines = _lines()
    lines[_index(lines, "XXR")] = "XXR 100"
    _refused("\n".join(lines), f"line {_index(lines, 'XXR') + 1}", "XXR 100", "at most 99 rounds")


def test_xxr_with_thousands_of_digits_is_refused_naming_its_line():
    lines = _lines()
    lines[_index(lines, "XXR")] = "XXR " + "9" * 5000  # int() of > 4300 digits raises ValueError
    _refused("\n".join(lines), f"line {_index(lines, 'XXR') + 1}", "more than 9 digits")


def test_header_count_with_thousands_of_digits_is_refused_naming_its_line():
    text, no = _with("062", lambda line: "062 " + "9" * 5000)
    _refused(text, f"line {no}", "tag 062")


def test_more_than_99_round_dates_are_refused_naming_the_132_line():
    text, no = _with("132", lambda line: line[:91] + "  ".join(["18/10/05"] * 120))
    _refused(text, f"line {no}", "at most 99 rounds")


def test_a_result_beyond_round_99_is_refused_naming_the_player_line():
    text, no = _with("001    1", lambda line: line.ljust(91 + 10 * 99) + "0000 - H")
    _refused(text, f"line {no}", "round 100", "at most 99 rounds")


# --------------------------------------------------------------------------------------------
# Header values longer than their fields: cut, with a note naming the line


@pytest.mark.parametrize(("tag", "attr", "limit"), [
    ("012", "name", 160), ("022", "city", 60), ("102", "chief_arbiter", 120), ("122", "time_control", 120),
])
def test_over_long_header_lines_are_cut_to_their_field_with_a_note(tag, attr, limit):
    text, no = _with(tag, lambda line: f"{tag} " + "Uzun" * 100)
    r = _post(text)
    assert r.status_code == 201, r.content[:300]
    t = Tournament.objects.get(slug=r.json()["slug"])
    assert getattr(t, attr) == ("Uzun" * 100)[:limit]
    assert any(note.startswith(f"line {no}: ") and f"cut to the first {limit}" in note for note in r.json()["notes"])


# --------------------------------------------------------------------------------------------
# Players: duplicates, names, ratings, birth years, number of lines


def test_duplicate_starting_numbers_are_refused_naming_both_lines():
    text, no = _with("001    2", lambda line: line[:4] + "   1" + line[8:])
    _refused(text, f"line {no}", "starting number 1 is repeated", f"line {no - 1}")


def test_duplicate_fide_ids_are_refused_naming_both_lines():
    # used to create one Player for both lines, then break the entry's (tournament, player) constraint
    text, no = _with("001    2", lambda line: line[:57] + "      90001" + line[68:])
    _refused(text, f"line {no}, column 58", "FIDE id 90001 is repeated (first on line 15)")


def test_zero_fide_ids_mean_no_id_and_are_not_duplicates():
    lines = _lines()
    for k in (1, 2):
        i = _index(lines, f"001    {k} ")
        lines[i] = lines[i][:57] + "          0" + lines[i][68:]
    r = _post("\n".join(lines))
    assert r.status_code == 201, r.content[:300]


def test_generated_federation_ids_of_a_second_import_do_not_collide():
    """Lines without a FIDE id get ``T<tournament id>-<start no>``; importing such a file twice used to
    create an id again (unique constraint → 500). The second import reuses the players of the first
    (same names and codes); refusing the matches registers new players, under new ids."""
    lines = _lines()
    for i, line in enumerate(lines):
        if line.startswith("001"):
            lines[i] = line[:57] + " " * 11 + line[68:]
    text = "\n".join(lines)
    first = _post(text)
    second = _post(text)
    assert (first.status_code, second.status_code) == (201, 201), second.content[:300]
    first_t = Tournament.objects.get(slug=first.json()["slug"])
    assert Player.objects.filter(federation_id__startswith=f"T{first_t.pk}-").count() == 23
    assert Entry.objects.filter(tournament__slug=second.json()["slug"]).values("player").distinct().count() == 23
    assert Player.objects.count() == 23  # matched, not duplicated
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en", raise_request_exception=False)
    client.force_authenticate(organiser(username="trf-limits-2"))
    third = client.post("/api/tournaments/import-trf/", {
        "file": SimpleUploadedFile("limits.trf", text.encode(), content_type="text/plain"),
        "match_players": "false"}, format="multipart")
    assert third.status_code == 201, third.content[:300]
    assert Player.objects.count() == 46 and Player.objects.values("federation_id").distinct().count() == 46


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\x7f", "\u2028"])
def test_a_control_character_in_a_player_line_is_refused_naming_line_and_column(char):
    text, no = _with("001    3", lambda line: line[:20] + char + line[21:])
    message = _refused(text, f"line {no}", f"control character U+{ord(char):04X} in column 21")
    assert char not in message


@pytest.mark.parametrize("prefix", ["012", "022", "102", "XXR"])
def test_a_nul_in_a_header_line_is_refused_naming_line_and_column(prefix):
    text, no = _with(prefix, lambda line: line[:5] + "\x00" + line[5:])
    _refused(text, f"line {no}", "control character U+0000 in column 6")


def test_a_c1_control_character_of_a_latin1_file_is_refused_naming_the_line():
    text, no = _with("001    3", lambda line: line[:20] + "\x81" + line[21:])
    _refused(text.encode("latin-1", errors="replace"), f"line {no}", "U+0081")


def test_a_player_name_longer_than_the_name_fields_is_refused_naming_the_line(monkeypatch):
    """A 001 line holds 33 characters of name; a reader of a wider layout must still not store more than
    ``Player.last_name``/``first_name`` (60 each) hold: refused with the line."""
    real_parse = parse_trf

    def wide_parse(data, *, source="<trf>"):
        t = real_parse(data, source=source)
        t.players[2].name = "Ö" * 61 + ", Ali"
        return t

    monkeypatch.setattr(trf_services, "parse_trf", wide_parse)
    with pytest.raises(ValidationFailed) as err:
        tournament_import_trf(data=AUTUMN, source="wide.trf")
    assert "line 17, column 15: player 3: the name" in err.value.message and err.value.field == "file"
    assert not Tournament.objects.exists()


def test_a_rating_above_4000_is_refused_naming_the_line():
    text, no = _with("001    3", lambda line: line[:48] + "4001" + line[52:])
    _refused(text, f"line {no}, column 49", "rating 4001 is above 4000")


@pytest.mark.parametrize("date", ["1800/01/01", "2101/01/01", "0999"])
def test_a_birth_year_outside_1900_2100_is_refused_naming_the_line(date):
    text, no = _with("001    3", lambda line: line[:69] + date.ljust(10) + line[79:])
    _refused(text, f"line {no}, column 70", "birth year")


def test_an_unknown_birth_date_0000_is_read_as_unknown():
    text, _ = _with("001    3", lambda line: line[:69] + "0000/00/00" + line[79:])
    r = _post(text)
    assert r.status_code == 201
    assert Player.objects.get(federation_id="90003").birth_year is None


def test_more_than_9999_player_lines_are_refused():
    lines = [f"001 {n:>4} m    Oyuncu {n:<26} 1500 TUR {90000 + n:>11}             0.0" for n in range(1, 10000)]
    lines.append(lines[0])
    with pytest.raises(TrfError) as err:
        parse_trf("\n".join(lines))
    assert err.value.line == 10000 and "more than 9999 player lines" in str(err.value)


def test_a_name_with_a_control_character_is_refused_in_the_name_field():
    r = _post(AUTUMN, name="Kış\x07Turnuvası")
    assert r.status_code == 400 and r.json()["error"]["field"] == "name"
    assert not Tournament.objects.exists()


# --------------------------------------------------------------------------------------------
# Export of stored data that TRF columns cannot hold


def _imported_with_a_broken_name() -> Tournament:
    t = tournament_import_trf(data=AUTUMN, source="autumn.trf").tournament
    # saved before the validators existed (admin, an old API): update() runs no validation
    # (a BEL, not a NUL: PostgreSQL cannot store NUL at all)
    Player.objects.filter(federation_id="90001").update(first_name="Ali\nVeli", last_name="Öz\ttürk\x07")
    Tournament.objects.filter(pk=t.pk).update(name="Sonbahar\r\n001 sahte satır", city="Ankara\x07")
    t.refresh_from_db()
    return t


def test_export_of_a_player_saved_with_a_line_break_writes_spaces():
    t = _imported_with_a_broken_name()
    text = tournament_export_trf(tournament=t)
    again = parse_trf(text)
    assert again.player(1).name == "Öz türk , Ali Veli"
    assert again.name == "Sonbahar  001 sahte satır" and again.city == "Ankara"
    assert len(again.players) == 23 and sum(1 for line in text.splitlines() if line.startswith("001")) == 23


def test_the_export_view_serves_a_tournament_with_a_broken_name():
    t = _imported_with_a_broken_name()
    client = Client(raise_request_exception=False)
    user = organiser(username="trf-export")
    client.force_login(user)
    r = client.get(f"/t/{t.slug}/export.trf")
    assert r.status_code == 200
    assert "Öz türk , Ali Veli" in r.content.decode("utf-8")


def test_export_renumbers_starting_numbers_beyond_four_columns():
    t = tournament_import_trf(data=AUTUMN, source="autumn.trf").tournament
    Entry.objects.filter(tournament=t, start_no=23).update(start_no=12345)
    again = parse_trf(tournament_export_trf(tournament=t))
    assert sorted(p.start_no for p in again.players) == list(range(1, 24))


def test_lenient_dump_never_raises_on_odd_values():
    p = TrfPlayer(start_no=1, name="Ali\nVeli\x00" + "x" * 40, rating=20000, points=120.0, rank=123456,
                  results=[TrfResult(1, None, None, "F"), TrfResult(1, None, None, "Z")])
    t = TrfTournament(name="A\nB", deputy_arbiters=["C\rD"], round_dates=["x\ty"], players=[p],
                      xxc=["rank\x00"], extra_lines=["### not\x07e"])
    text = dump_trf(t, truncate=True)
    assert all(not _CONTROL.search(line) for line in text.splitlines())
    again = parse_trf(text)
    assert (again.player(1).name, again.player(1).rating, again.player(1).points) == (
        "Ali Veli " + "x" * 24, 9999, 99.5)
