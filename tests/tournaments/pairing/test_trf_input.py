"""TRF -> PairingPlayer conversion (tournaments.pairing.trf_input)."""
from __future__ import annotations

import pytest

from tournaments.pairing import PairingError, RoundRecord
from tournaments.pairing.trf_input import first_colour_from_trf, players_from_trf
from tournaments.trf.reader import parse_trf


def line(no: int, points: float, cells: list[str], rating: int = 2000) -> str:
    s = [" "] * 89
    for col, txt in ((1, "001"), (5, f"{no:4d}"), (15, f"Player {no}"), (49, f"{rating:4d}"),
                     (81, f"{points:4.1f}"), (86, f"{no:4d}")):
        s[col - 1:col - 1 + len(txt)] = txt
    return "".join(s) + "".join("  " + c for c in cells)


TRF = "\n".join([
    "012 Test",
    line(1, 2.0, ["   3 w 1", "   2 b 1"]),
    line(2, 1.5, ["   4 w 1", "   1 w 0", "0000 - H"]),  # half-point bye requested for round 3
    line(3, 1.0, ["   1 b 0", "0000 - U"]),
    line(4, 0.0, ["   2 b 0", "        "]),  # blank round 2: absent, not withdrawn
    "XXR 5",
    "XXC black1",
]) + "\n"


def test_players_and_round():
    t = parse_trf(TRF)
    players, round_no, total = players_from_trf(t)
    assert (round_no, total) == (3, 5)
    by = {p.id: p for p in players}
    assert by[1].history == (RoundRecord(3, "w", "1"), RoundRecord(2, "b", "1"))
    assert by[1].available and by[1].points == 2.0
    # the pre-assigned bye of round 3 makes player 2 unavailable; points are before round 3
    assert not by[2].available and by[2].points == 1.0
    assert by[3].history[1] == RoundRecord(None, None, "U")
    assert by[4].history[1] == RoundRecord(None, None, "")
    assert by[4].available


def test_round_counted_over_all_players():
    # player 4's line is short; the round comes from the longest history
    t = parse_trf("\n".join([line(1, 1.0, ["   2 w 1", "   3 b 1"]), line(2, 0.0, ["   1 b 0"]),
                             line(3, 0.0, ["        ", "   1 w 0"]), "XXR 4"]) + "\n")
    players, round_no, total = players_from_trf(t)
    assert round_no == 3 and total == 4
    assert {p.id: len(p.history) for p in players} == {1: 2, 2: 2, 3: 2}


def test_explicit_round_and_errors():
    t = parse_trf(TRF)
    with pytest.raises(PairingError):
        players_from_trf(t, round_no=2)  # round 2 already has games
    players, round_no, _ = players_from_trf(t, round_no=4)
    assert round_no == 4 and all(len(p.history) == 3 for p in players)
    with pytest.raises(PairingError):
        players_from_trf(t, round_no=6)


def test_first_colour():
    assert first_colour_from_trf(parse_trf(TRF)) == "b"
    no_xxc = TRF.replace("XXC black1\n", "")
    assert first_colour_from_trf(parse_trf(no_xxc)) == "w"  # 1 had white in round 1
    flipped = no_xxc.replace("   3 w 1", "   3 b 1").replace("   1 b 0", "   1 w 0")
    assert first_colour_from_trf(parse_trf(flipped)) == "b"


def test_number_of_rounds_required():
    no_xxr = TRF.replace("XXR 5\n", "")
    with pytest.raises(PairingError, match="XXR"):
        players_from_trf(parse_trf(no_xxr))
    with_142 = "142 7\n" + no_xxr
    assert players_from_trf(parse_trf(with_142))[2] == 7
