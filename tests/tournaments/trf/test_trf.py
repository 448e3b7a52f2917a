"""Tests for the TRF-16 reader/writer (tournaments.trf.model, reader, extensions, scoring, writer; FIDE C.04
Annex 2)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shared_data import shared_glob
from tournaments.trf.model import Inference, TrfError, TrfPlayer, TrfResult, TrfTournament
from tournaments.trf.reader import parse_trf, read_trf
from tournaments.trf.scoring import code_points, computed_points, infer_blank_codes, played_rounds
from tournaments.trf.writer import dump_trf

SAMPLE_DIR = Path(__file__).resolve().parents[3] / "tournaments" / "sample_data" / "trf"
SAMPLE_FILES = sorted(SAMPLE_DIR.glob("*.trf"))
SHARED_TRF_FILES = shared_glob("data/trf/*.trf")
ALL_TRF_FILES = SHARED_TRF_FILES + SAMPLE_FILES
PAIRING_FILES = shared_glob("data/pairing/*/r*.trf")


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _sample_text(name: str) -> str:
    return (SAMPLE_DIR / name).read_text(encoding="utf-8")


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


def _replace_line(text: str, line_no: int, new: str) -> str:
    lines = text.split("\n")
    lines[line_no - 1] = new
    return "\n".join(lines)


def _set_cell(text: str, line_no: int, round_: int, cell: str) -> str:
    """Overwrite round ``round_``'s 8-character cell on line ``line_no``."""
    lines = text.split("\n")
    line = lines[line_no - 1].ljust(91 + 10 * round_)
    start = 91 + 10 * (round_ - 1)
    lines[line_no - 1] = (line[:start] + cell.ljust(8) + line[start + 8:]).rstrip()
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# The real files (shared data and the project's sample copies)


def test_sample_copies_are_unchanged_copies_of_shared_files():
    if not SHARED_TRF_FILES:
        pytest.skip("shared data not present")
    assert [p.name for p in SAMPLE_FILES] == [p.name for p in SHARED_TRF_FILES]
    for sample, shared in zip(SAMPLE_FILES, SHARED_TRF_FILES):
        assert sample.read_bytes() == shared.read_bytes()


@pytest.mark.parametrize("path", ALL_TRF_FILES, ids=_id)
def test_points_column_equals_known_codes_plus_inferred_blanks(path):
    t = read_trf(path)
    inferred: dict[int, float] = {}
    for inf in infer_blank_codes(t):
        inferred[inf.start_no] = inferred.get(inf.start_no, 0.0) + inf.value
        assert inf.value in (0.0, 0.5, 1.0)
    for p in t.players:
        known = sum(code_points(r.code) for r in p.results if r.code)
        assert known + inferred.get(p.start_no, 0.0) == pytest.approx(p.points), (p.start_no, p.line)


EXPECTED_INFERENCES = {
    "autumn_congress_2018_major.trf": [],
    "national_juniors_2011.trf": [
        (4, 1, 0.5, 18), (14, 4, 0.5, 28), (14, 5, 0.5, 28), (19, 1, 1.0, 33), (24, 4, 1.0, 38),
        (31, 5, 1.0, 45),
    ],
    "spring_open_2011_masters.trf": [
        (16, 4, 0.5, 29), (16, 5, 0.5, 29), (18, 3, 0.5, 31), (19, 1, 0.5, 32),
        (24, 3, 0.0, 37), (24, 4, 0.0, 37), (24, 5, 0.0, 37), (24, 6, 0.0, 37),
        (25, 6, 0.5, 38), (34, 1, 0.5, 47),
    ],
}


@pytest.mark.parametrize("path", ALL_TRF_FILES, ids=_id)
def test_inferred_blank_codes_per_file(path):
    got = [(i.start_no, i.round, i.value, i.line) for i in infer_blank_codes(read_trf(path))]
    assert got == EXPECTED_INFERENCES[path.name]


def test_withdrawn_player_absences_are_reported_as_absent():
    t = read_trf(SAMPLE_DIR / "spring_open_2011_masters.trf")
    absences = [i for i in infer_blank_codes(t) if i.start_no == 24]
    assert [i.round for i in absences] == [3, 4, 5, 6]
    assert all("absent" in i.reason for i in absences)
    assert str(absences[0]).startswith("line 37: player 24 round 3: blank result code counted as 0.0")


@pytest.mark.parametrize("path", ALL_TRF_FILES, ids=_id)
def test_round_trip_reproduces_the_file(path):
    raw = path.read_bytes()
    t = parse_trf(raw)
    dumped = dump_trf(t)
    assert _lines(dumped) == _lines(raw.decode("utf-8"))
    assert parse_trf(dumped) == t


@pytest.mark.parametrize("path", ALL_TRF_FILES, ids=_id)
def test_round_counts_of_real_files(path):
    t = read_trf(path)
    expected = {"autumn_congress_2018_major.trf": 6, "national_juniors_2011.trf": 5,
                "spring_open_2011_masters.trf": 6}[path.name]
    assert played_rounds(t) == expected
    assert len(t.round_dates) == expected
    assert t.total_rounds is None


def test_autumn_congress_header_and_players():
    t = read_trf(SAMPLE_DIR / "autumn_congress_2018_major.trf")
    assert t.encoding == "utf-8"
    assert (t.name, t.city, t.federation) == ("Autumn Congress 2018 - Major", "Ankara", "Türkiye")
    assert (t.start_date, t.end_date) == ("2018/10/05", "2018/10/07")
    assert (t.num_players, t.num_rated) == (23, 22)
    assert t.tournament_type == "Individual: swiss-system (standard)"
    assert t.chief_arbiter == "Çetin, Çiğdem"
    assert t.deputy_arbiters == []
    assert t.time_control == "1:30+30sec"
    assert t.round_dates == ["18/10/05", "18/10/05", "18/10/06", "18/10/06", "18/10/06", "18/10/07"]
    assert t.extra_lines == ["082 0", "", ""]
    assert len(t.players) == 23
    assert t.player(22) is None  # starting number 22 is absent from the file
    p1 = t.player(1)
    assert (p1.start_no, p1.sex, p1.title, p1.name, p1.rating, p1.federation, p1.fide_id, p1.birth_date) == (
        1, "m", "", "Öztürk, Elif", 1516, "IST", "90001", "")
    assert (p1.points, p1.rank, p1.line) == (3.5, 9, 15)
    assert p1.results == [
        TrfResult(1, 13, "w", "1"), TrfResult(2, 11, "b", "1"), TrfResult(3, 4, "w", "="),
        TrfResult(4, None, None, "="), TrfResult(5, 12, "b", "0"), TrfResult(6, 8, "w", "="),
    ]
    p24 = t.player(24)
    assert (p24.name, p24.rating, p24.points) == ("Aydın, Ramazan", 0, 3.5)
    assert p24.results[0] == TrfResult(1, None, None, "+")
    assert t.player(11).results[0] == TrfResult(1, None, None, "+")
    assert t.player(11).results[5] == TrfResult(6, None, None, "-")


def test_short_lines_and_blank_coded_byes():
    t = read_trf(SAMPLE_DIR / "national_juniors_2011.trf")
    p31 = t.player(31)
    assert len(p31.results) == 5  # the line stops at "0000 -"
    assert p31.results[4] == TrfResult(5, None, None, "")
    p14 = t.player(14)
    assert [r.code for r in p14.results] == ["1", "0", "0", "", ""]
    assert {p.sex for p in t.players} == {"m", "w"}
    assert t.player(33).name == "Yalçın, Fatma"


# ---------------------------------------------------------------------------------------------
# bbpPairings cases (XXR, 0000 - U / H / Z)


def _xxr(path: Path) -> int:
    m = re.search(r"^XXR\s+(\d+)", path.read_text(encoding="utf-8"), re.M)
    assert m
    return int(m.group(1))


@pytest.mark.parametrize("path", PAIRING_FILES, ids=_id)
def test_pairing_case_files(path):
    t = read_trf(path)
    round_no = int(path.stem[1:])  # rN.trf holds rounds 1..N-1
    assert t.total_rounds == _xxr(path)
    assert played_rounds(t) == round_no - 1
    assert t.total_rounds >= round_no
    assert max(len(p.results) for p in t.players) in (round_no - 1, round_no)
    for p in t.players:  # bbpPairings' points column counts every code, pre-assigned byes included
        assert sum(code_points(r.code) for r in p.results) == pytest.approx(p.points), p.start_no
    assert infer_blank_codes(t) == []
    assert dump_trf(t) == path.read_text(encoding="utf-8")


def test_pairing_case_count():
    if not PAIRING_FILES:
        pytest.skip("shared data not present")
    assert len(PAIRING_FILES) == 132


def test_pre_assigned_bye_does_not_count_as_played_round():
    text = _sample_text("autumn_congress_2018_major.trf")
    text = _set_cell(text, 15, 7, "0000 - H") + "XXR 7\n"
    t = parse_trf(text)
    assert played_rounds(t) == 6
    assert t.total_rounds == 7
    assert t.player(1).results[6] == TrfResult(7, None, None, "H")


# ---------------------------------------------------------------------------------------------
# Tolerance: encodings, line ends, XXC, 142, late entrants


def test_latin1_encoded_file():
    text = _sample_text("autumn_congress_2018_major.trf")
    # Keep only letters Latin-1 can encode (Ö, ü, Ç, ç ... are the same bytes in cp1254).
    latin = text.translate(str.maketrans("ğışŞİı", "gisSIi"))
    data = latin.encode("latin-1")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    t = parse_trf(data)
    assert t.player(1).name == "Öztürk, Elif"
    assert t.player(8).name == "Koç, Hüseyin"
    assert t == parse_trf(latin)


def test_cp1254_encoded_file_keeps_turkish_letters():
    text = _sample_text("spring_open_2011_masters.trf")
    t = parse_trf(text.encode("cp1254"))
    assert t.encoding == "cp1254"
    assert t == parse_trf(text)
    assert t.player(4).name == "Şen, Mustafa"
    assert t.player(12).name == "Çelik, İbrahim"


def test_bytes_invalid_in_cp1254_fall_back_to_latin1():
    text = _sample_text("national_juniors_2011.trf").replace("012 National", "012 Nat\x81onal")
    t = parse_trf(text.encode("latin-1", errors="replace"))
    assert t.encoding == "latin-1"
    assert t.name == "Nat\x81onal Juniors Championship 2011"
    assert len(t.players) == 34


def test_utf8_bom_is_dropped():
    text = _sample_text("national_juniors_2011.trf")
    assert parse_trf(b"\xef\xbb\xbf" + text.encode("utf-8")) == parse_trf(text)


@pytest.mark.parametrize("eol", ["\r\n", "\r"])
def test_crlf_and_cr_line_ends(eol):
    text = _sample_text("spring_open_2011_masters.trf")
    t = parse_trf(text.replace("\n", eol).encode("utf-8"))
    assert t == parse_trf(text)
    assert t.player(34).line == 47
    assert _lines(dump_trf(t)) == _lines(text)


def test_trailing_spaces_are_ignored():
    text = _sample_text("spring_open_2011_masters.trf")
    padded = "\n".join(line + "   " for line in text.split("\n"))
    assert parse_trf(padded) == parse_trf(text)


def test_xxr_and_xxc_with_one_or_two_spaces():
    text = _sample_text("national_juniors_2011.trf") + "XXR 7\nXXC  white1\nXXC rank\n"
    t = parse_trf(text)
    assert t.total_rounds == 7
    assert t.xxc == ["white1", "rank"]
    again = parse_trf(dump_trf(t))
    assert again == t
    assert "XXC white1 rank" in dump_trf(t).splitlines()


def test_trf2026_tag_142_and_comments_are_kept():
    text = _sample_text("national_juniors_2011.trf").replace("082 0\n", "082 0\n142 7\n### a comment\n")
    t = parse_trf(text)
    assert "142 7" in t.extra_lines and "### a comment" in t.extra_lines
    assert t.total_rounds is None
    assert _lines(dump_trf(t)) == _lines(text)


def test_late_entrant_with_blank_first_cells():
    text = _sample_text("spring_open_2011_masters.trf")
    # Player 19 (line 32) entered in round 2: a completely blank round-1 cell; points 2.5 instead of 3.0.
    text = _set_cell(text, 32, 1, "        ")
    line = text.split("\n")[31]
    text = _replace_line(text, 32, line[:80] + " 2.5" + line[84:])
    t = parse_trf(text)
    p19 = t.player(19)
    assert p19.results[0] == TrfResult(1, None, None, "")
    assert p19.results[0].is_blank
    infs = [i for i in infer_blank_codes(t) if i.start_no == 19]
    assert [(i.round, i.value) for i in infs] == [(1, 0.0)]
    assert _lines(dump_trf(t)) == _lines(text)


def test_lower_case_codes_are_read_as_upper_case():
    text = _set_cell(_sample_text("autumn_congress_2018_major.trf"), 15, 4, "     - h")
    t = parse_trf(text)
    assert t.player(1).results[3] == TrfResult(4, None, None, "H")


def test_forfeit_cells_without_colour():
    text = _sample_text("autumn_congress_2018_major.trf")
    # Round 1 of players 1 (line 15) and 13 (line 27): forfeit written "- +" / "- -".
    text = _set_cell(_set_cell(text, 15, 1, "  13 - +"), 27, 1, "   1 - -")
    t = parse_trf(text)
    assert t.player(1).results[0] == TrfResult(1, 13, None, "+")
    assert t.player(13).results[0] == TrfResult(1, 1, None, "-")


# ---------------------------------------------------------------------------------------------
# Errors


def _error(text: str) -> TrfError:
    with pytest.raises(TrfError) as info:
        parse_trf(text, source="x.trf")
    return info.value


def test_error_bad_result_code():
    text = _set_cell(_sample_text("autumn_congress_2018_major.trf"), 23, 4, "  13 w X")
    err = _error(text)
    assert str(err) == "line 23: round 4 result code 'X' is not a TRF result code"
    assert (err.line, err.column, err.source) == (23, 129, "x.trf")
    assert isinstance(err, ValueError)


def test_error_starting_number_not_a_number():
    text = _sample_text("autumn_congress_2018_major.trf")
    line = text.split("\n")[16]
    err = _error(_replace_line(text, 17, line[:4] + "  ab" + line[8:]))
    assert str(err) == "line 17: starting number 'ab' is not a number"
    assert err.column == 5


def test_error_duplicate_starting_number_names_both_lines():
    text = _sample_text("autumn_congress_2018_major.trf")
    line = text.split("\n")[16]  # player 3
    err = _error(_replace_line(text, 17, line[:4] + "   2" + line[8:]))
    assert err.line == 17
    assert "starting number 2 is repeated" in str(err) and "line 16" in str(err)


def test_error_opponent_does_not_exist():
    text = _set_cell(_sample_text("autumn_congress_2018_major.trf"), 15, 4, "  22 w 1")
    err = _error(text)
    assert str(err).startswith("line 15: round 4 opponent 22 does not exist")


def test_error_asymmetric_pairing_names_both_lines():
    # Player 1 (line 15) claims to have met 2 in round 1; player 2 (line 16) met 14.
    text = _set_cell(_sample_text("autumn_congress_2018_major.trf"), 15, 1, "   2 w 1")
    err = _error(text)
    assert err.line == 15
    assert str(err) == ("line 15: round 1: player 1 has opponent 2 with white, but player 2 (line 16) "
                        "has opponent 14 with black in round 1")


def test_error_both_players_same_colour():
    text = _set_cell(_sample_text("autumn_congress_2018_major.trf"), 15, 1, "  13 b 1")
    err = _error(text)
    assert err.line == 15 and "both have black" in str(err) and "line 27" in str(err)


def test_error_bye_code_with_opponent():
    err = _error(_set_cell(_sample_text("autumn_congress_2018_major.trf"), 15, 1, "  13 w H"))
    assert err.line == 15 and "'H' is a bye" in str(err)


def test_error_bad_colour():
    err = _error(_set_cell(_sample_text("autumn_congress_2018_major.trf"), 15, 1, "  13 x 1"))
    assert str(err) == "line 15: round 1 colour 'x' is not 'w', 'b' or '-'"


def test_error_misaligned_line():
    text = _sample_text("autumn_congress_2018_major.trf")
    line = text.split("\n")[14]
    err = _error(_replace_line(text, 15, line[:20] + " " + line[20:]))  # one column shifted right
    assert str(err) == ("line 15: column 53 (before the federation) should be blank but holds '6'; "
                        "is a field too long or the line misaligned?")
    assert err.column == 53


def test_error_bad_points_and_rating():
    text = _sample_text("autumn_congress_2018_major.trf")
    line = text.split("\n")[14]
    assert str(_error(_replace_line(text, 15, line[:80] + " 3x5" + line[84:]))) == \
        "line 15: points '3x5' is not a number"
    assert str(_error(_replace_line(text, 15, line[:48] + "15a6" + line[52:]))) == \
        "line 15: rating '15a6' is not a number"


def test_error_bad_xxr():
    err = _error(_sample_text("autumn_congress_2018_major.trf") + "XXR nine\n")
    assert str(err) == "line 39: XXR (total number of rounds) 'nine' is not a positive number"


def test_infer_error_when_points_do_not_split():
    text = _sample_text("spring_open_2011_masters.trf")
    line = text.split("\n")[28]  # player 16: two blank cells, points 2.5 -> change to 2.0 (0.25 each)
    t = parse_trf(_replace_line(text, 29, line[:80] + " 2.0" + line[84:]))
    with pytest.raises(TrfError) as info:
        infer_blank_codes(t)
    assert info.value.line == 29
    assert str(info.value).startswith("line 29: player 16: points column 2.0 minus the known results 1.5")


def test_infer_error_with_blank_points_column():
    text = _sample_text("spring_open_2011_masters.trf")
    line = text.split("\n")[30]  # player 18
    t = parse_trf(_replace_line(text, 31, line[:80] + "    " + line[84:]))
    assert t.player(18).points is None
    with pytest.raises(TrfError, match=r"^line 31: player 18 has blank result codes"):
        infer_blank_codes(t)


# ---------------------------------------------------------------------------------------------
# API details and writing


def test_code_points_table():
    assert [code_points(c) for c in "1+WF"] == [1.0] * 4
    assert [code_points(c) for c in "=DH"] == [0.5] * 3
    assert [code_points(c) for c in "0-LZ"] == [0.0] * 4
    assert code_points("U") == 1.0
    assert code_points("U", pab_points=0.5) == 0.5
    assert code_points("") is None
    with pytest.raises(TrfError):
        code_points("X")


def test_pab_points_affects_inference():
    text = _set_cell(_sample_text("autumn_congress_2018_major.trf"), 15, 4, "0000 - U")
    t = parse_trf(text)
    line = text.split("\n")[14]
    t2 = parse_trf(_replace_line(text, 15, line[:80] + " 4.0" + line[84:]))
    assert infer_blank_codes(t2) == []
    assert sum(code_points(r.code, pab_points=1.0) for r in t2.player(1).results) == 4.0
    assert t.player(1).results[3].code == "U"


def _built_tournament() -> TrfTournament:
    return TrfTournament(
        name="Kış Turnuvası", city="İzmir", federation="TUR", start_date="2026/01/10",
        end_date="2026/01/11", num_players=3, num_rated=2, tournament_type="Swiss",
        chief_arbiter="Şahin, Ayşe", deputy_arbiters=["Kaya, Ali", "Demir, Can"], time_control="15+5",
        round_dates=["26/01/10", "26/01/11"],
        players=[
            TrfPlayer(1, "m", "", "Öztürk, Elif", 1650, "TUR", "1001", "2001/02/03", 2.0, 1,
                      [TrfResult(1, 2, "w", "1"), TrfResult(2, None, None, "U")]),
            TrfPlayer(2, "w", "", "Çelik, Gül", 1500, "TUR", "", "", 0.5, 2,
                      [TrfResult(1, 1, "b", "0"), TrfResult(2, 3, "w", "=")]),
            TrfPlayer(3, "m", "", "Işık, Ömer", 0, "", "", "", 0.5, 3,
                      [TrfResult(1, None, None, "H"), TrfResult(2, 2, "b", "=")]),
        ],
        total_rounds=5, xxc=["rank"], extra_lines=["142 5"], rounds_142=5,
    )


def test_dump_of_a_tournament_built_in_code():
    t = _built_tournament()
    text = dump_trf(t)
    lines = text.splitlines()
    assert lines[:3] == ["012 Kış Turnuvası", "022 İzmir", "032 TUR"]
    assert "112 Kaya, Ali" in lines and "112 Demir, Can" in lines
    assert lines.index("142 5") == lines.index("132" + " " * 88 + "26/01/10  26/01/11") + 1
    p1 = next(line for line in lines if line.startswith("001    1"))
    assert p1 == ("001    1 m    Öztürk, Elif                      1650 TUR        1001 2001/02/03"
                  "  2.0    1     2 w 1  0000 - U")
    assert p1[91:99] == "   2 w 1" and p1[101:109] == "0000 - U"
    p3 = next(line for line in lines if line.startswith("001    3"))
    assert p3[48:52] == "0000"
    assert lines[-2:] == ["XXR 5", "XXC rank"]
    assert parse_trf(text) == t


def test_dump_after_editing_a_parsed_file():
    t = read_trf(SAMPLE_DIR / "spring_open_2011_masters.trf")
    t.player(16).results[3] = TrfResult(4, None, None, "H")
    t.player(16).results[4] = TrfResult(5, None, None, "H")
    t.total_rounds = 6
    t.players.append(TrfPlayer(35, "M", "", "Yeni, Oyuncu", 1800, "IST", "", "", 0.0, 35, []))
    text = dump_trf(t)
    again = parse_trf(text)
    assert again == t
    assert again.player(16).results[3].raw == "0000 - H"
    assert text.splitlines()[-1] == "XXR 6"
    assert text.splitlines()[-2].startswith("001   35 M    Yeni, Oyuncu")
    assert infer_blank_codes(again)[0] == Inference(18, 3, 0.5, 31, infer_blank_codes(again)[0].reason)


def test_dump_rejects_values_that_do_not_fit():
    t = _built_tournament()
    t.players[0].name = "X" * 34
    with pytest.raises(TrfError, match="name"):
        dump_trf(t)
    t = _built_tournament()
    t.players[0].rating = 10000
    with pytest.raises(TrfError, match="rating"):
        dump_trf(t)


@st.composite
def tournaments(draw) -> TrfTournament:
    n = draw(st.integers(min_value=2, max_value=12))
    rounds = draw(st.integers(min_value=0, max_value=6))
    results: dict[int, list[TrfResult]] = {i: [] for i in range(1, n + 1)}
    for rnd in range(1, rounds + 1):
        order = draw(st.permutations(list(range(1, n + 1))))
        k = draw(st.integers(min_value=0, max_value=n // 2))
        for j in range(k):
            a, b = order[2 * j], order[2 * j + 1]
            res = draw(st.sampled_from([("1", "0"), ("0", "1"), ("=", "="), ("+", "-"), ("-", "+"), ("", "")]))
            results[a].append(TrfResult(rnd, b, "w", res[0]))
            results[b].append(TrfResult(rnd, a, "b", res[1]))
        for x in order[2 * k:]:
            code = draw(st.sampled_from(["H", "F", "U", "Z", "-", "+", "="]))
            results[x].append(TrfResult(rnd, None, None, code))
    players = []
    names = st.text(alphabet="abcçğıiİöşüÖÇŞĞÜ ,", min_size=1, max_size=33).map(str.strip).filter(bool)
    for i in range(1, n + 1):
        players.append(TrfPlayer(
            i, draw(st.sampled_from(["m", "w", ""])), draw(st.sampled_from(["", "GM", "WFM"])),
            draw(names), draw(st.integers(0, 9999)), draw(st.sampled_from(["", "TUR"])),
            draw(st.sampled_from(["", "12345678"])), "",
            draw(st.one_of(st.none(), st.integers(0, 199).map(lambda x: x / 2))),
            draw(st.one_of(st.none(), st.integers(1, 9999))), results[i],
        ))
    return TrfTournament(name=draw(names), players=players,
                         total_rounds=draw(st.one_of(st.none(), st.integers(1, 20))),
                         xxc=draw(st.sampled_from([[], ["rank"], ["white1"]])))


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_round_trip_property(t):
    text = dump_trf(t)
    again = parse_trf(text)
    assert again == t
    assert dump_trf(again) == text
    assert parse_trf(text.encode("utf-8")) == t


def test_line_laid_out_in_utf8_byte_columns_is_read_with_a_warning():
    text = _sample_text("autumn_congress_2018_major.trf")
    line = text.split("\n")[17]  # player 4, "Şen, Mustafa": Ş takes two bytes in UTF-8
    name = line[14:47].rstrip()
    by_bytes = line[:14] + name + " " * (33 - len(name.encode("utf-8"))) + line[47:]
    assert len(by_bytes) == len(line) - 1
    t = parse_trf(_replace_line(text, 18, by_bytes).encode("utf-8"))
    assert t == parse_trf(text)
    assert t.warnings == ["line 18: columns are counted in UTF-8 bytes, not characters; read by byte columns"]
    assert parse_trf(text).warnings == []


def test_results_that_do_not_match_give_a_warning():
    # Player 1 (line 15) beat 13 in round 1; make 13 (line 27) a winner too.
    t = parse_trf(_set_cell(_sample_text("autumn_congress_2018_major.trf"), 27, 1, "   1 b 1"))
    assert t.warnings == ["line 15: round 1: player 1 has result '1' against player 13, who has '1' (line 27)"]


def test_computed_points_helper():
    t = read_trf(SAMPLE_DIR / "spring_open_2011_masters.trf")
    bare = computed_points(t)
    assert bare[16] == 1.5 and bare[24] == 0.5
    full = computed_points(t, infer_blank_codes(t))
    assert full[16] == 2.5
    assert all(full[p.start_no] == pytest.approx(p.points) for p in t.players)


@pytest.mark.parametrize("data", [b"", b"%PDF-1.4\n\x00\x01binary", "012 Only a header\n"])
def test_input_without_player_lines_is_rejected(data):
    with pytest.raises(TrfError) as info:
        parse_trf(data)
    assert info.value.line is None
    lines = len(data.splitlines()) if data else 0
    assert str(info.value) == (f"no player lines (tag 001) found (lines read: {lines}); this does not look like a "
                               "TRF file (a TRF file has one line starting with 001 per player)")


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_damaged_files_raise_only_trf_error(data):
    text = _sample_text(data.draw(st.sampled_from([p.name for p in SAMPLE_FILES])))
    chars = list(text)
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(chars) - 1))
        chars[i] = data.draw(st.sampled_from(list("0123456789 -+=wbWBXHUZF\t\n\r.,ç²٣_")))
    damaged = "".join(chars)
    try:
        t = parse_trf(damaged.encode("utf-8"))
    except TrfError as err:
        assert str(err)
        return
    try:
        infer_blank_codes(t)
    except TrfError:
        pass
    assert parse_trf(dump_trf(t)) == t


@pytest.mark.parametrize("bad", ["²", "1_0", "nan", "inf", "-1", "٣"])
def test_non_ascii_or_odd_numbers_are_rejected(bad):
    text = _sample_text("autumn_congress_2018_major.trf")
    line = text.split("\n")[14]
    with pytest.raises(TrfError, match="^line 15: points"):
        parse_trf(_replace_line(text, 15, line[:80] + bad.rjust(4) + line[84:]))
    with pytest.raises(TrfError, match="^line 15: round 1 opponent"):
        parse_trf(_set_cell(text, 15, 1, bad.rjust(4) + " w 1"))
    with pytest.raises(TrfError, match="^line 15: starting number"):
        parse_trf(_replace_line(text, 15, line[:4] + bad.rjust(4) + line[8:]))


def test_points_with_decimal_comma():
    text = _sample_text("autumn_congress_2018_major.trf")
    line = text.split("\n")[14]
    assert parse_trf(_replace_line(text, 15, line[:80] + " 3,5" + line[84:])).player(1).points == 3.5


def test_dump_truncates_long_text_fields_on_request():
    t = _built_tournament()
    t.players[0].name = "Abdurrahmanoğulları, Muhammed Ali Kemal"
    with pytest.raises(TrfError, match=r"^player 1: name .* is longer than 33 characters$"):
        dump_trf(t)
    text = dump_trf(t, truncate=True)
    assert parse_trf(text).player(1).name == "Abdurrahmanoğulları, Muhammed Ali Kemal"[:33]


def test_dump_fills_missing_rounds_with_blank_cells():
    t = _built_tournament()
    t.players[0].results = [TrfResult(1, 2, "w", "1"), TrfResult(3, None, None, "Z")]
    t.players[1].results = [TrfResult(1, 1, "b", "0")]
    t.players[2].results = []
    line = next(x for x in dump_trf(t).splitlines() if x.startswith("001    1"))
    assert line[91:] == "   2 w 1            0000 - Z"
    assert parse_trf(dump_trf(t)).player(1).results[1] == TrfResult(2, None, None, "")
    t.players[0].results.reverse()
    with pytest.raises(TrfError, match="increasing round order"):
        dump_trf(t)


def test_dump_rejects_line_breaks_and_bad_codes():
    t = _built_tournament()
    t.players[1].name = "Çelik,\nGül"
    with pytest.raises(TrfError, match="line break"):
        dump_trf(t)
    t = _built_tournament()
    t.city = "İzmir\r\n001 fake"
    with pytest.raises(TrfError, match="line break"):
        dump_trf(t)
    t = _built_tournament()
    t.players[2].results[0] = TrfResult(1, None, None, "Q")
    with pytest.raises(TrfError, match=r"^player 3: round 1: 'Q' is not a TRF result code$"):
        dump_trf(t)


def test_points_beyond_the_column_are_refused():
    """Regression (hypothesis): "400." in columns 81-84 parsed as 400 points but could not be written back."""
    text = _sample_text("autumn_congress_2018_major.trf")
    line = text.split("\n")[14]
    with pytest.raises(TrfError, match="^line 15: points '400.'"):
        parse_trf(_replace_line(text, 15, line[:80] + "400." + line[84:]))
