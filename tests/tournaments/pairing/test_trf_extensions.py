"""TRF extensions for pairing: trf_input.pairing_input_from_trf, the point system, accelerations
and forbidden pairs in pair_dutch, the Baku method, and the command line's refusals."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.pairing import Pairing, PairingError, PairingPlayer, RoundRecord, pair_dutch
from tournaments.pairing.acceleration import baku_accelerations, baku_group_a_size
from tournaments.pairing.base import PointSystem
from tournaments.pairing.trf_input import (
    TrfInputError,
    forbidden_pairs_from_trf,
    pairing_input_from_trf,
    players_from_trf,
)
from tournaments.trf.reader import parse_trf

REPO = Path(__file__).resolve().parents[3]


def line(no: int, points: float, cells: list[str], rating: int = 2000) -> str:
    s = [" "] * 89
    for col, txt in ((1, "001"), (5, f"{no:4d}"), (15, f"Player {no}"), (49, f"{rating:4d}"),
                     (81, f"{points:4.1f}"), (86, f"{no:4d}")):
        s[col - 1:col - 1 + len(txt)] = txt
    return ("".join(s) + "".join("  " + c for c in cells)).rstrip()


def trf(*lines: str) -> str:
    return "\n".join(["012 Test", *lines]) + "\n"


# Round 1 played by four players; round 2 to pair.
FOUR = [line(1, 1.0, ["   3 w 1"]), line(2, 1.0, ["   4 b 1"]), line(3, 0.0, ["   1 b 0"]),
        line(4, 0.0, ["   2 w 0"])]


def P(pid, points, hist=(), acc=(), available=True):
    return PairingPlayer(pid, 2000 - pid, points, tuple(RoundRecord(*h) for h in hist), available, tuple(acc))


def pairs(res):
    return [(p.white, p.black) for p in res]


# ---------------------------------------------------------------------------------------------
# Engine


def test_forbidden_pair_making_the_round_impossible():
    with pytest.raises(PairingError, match=r"C\.04\.3 C\.1-C\.3\) with the 1 forbidden pair"):
        pair_dutch([P(1, 0), P(2, 0)], round_no=1, total_rounds=3, forbidden_pairs=[(1, 2)])
    # through a file: 1-2 and 3-4 already met... 4 players, 1 and 2 forbidden, 1-3 and 2-4 played
    t = parse_trf(trf(*FOUR, "XXR 3", "XXP 1 2", "XXP 1 4"))
    inp = pairing_input_from_trf(t)
    assert inp.forbidden_pairs == ((1, 2), (1, 4))
    with pytest.raises(PairingError, match="forbidden pair"):
        inp.pair()
    with pytest.raises(PairingError):
        pair_dutch([P(1, 0), P(2, 0)], round_no=1, total_rounds=3, forbidden_pairs=[(1, 1)])


def test_accelerations_make_the_score_groups():
    # Round 1, 1 virtual point for 1 and 2: they form the top score group.
    players = [P(1, 0, acc=(1.0,)), P(2, 0, acc=(1.0,)), P(3, 0), P(4, 0)]
    assert pairs(pair_dutch(players, round_no=1, total_rounds=5)) == [(1, 2), (3, 4)]
    assert pairs(pair_dutch([P(i, 0) for i in range(1, 5)], round_no=1, total_rounds=5)) == [(1, 3), (4, 2)]
    # virtual points of another round do not count
    later = [P(1, 0, acc=(0.0, 1.0)), P(2, 0, acc=(0.0, 1.0)), P(3, 0), P(4, 0)]
    assert pairs(pair_dutch(later, round_no=1, total_rounds=5)) == [(1, 3), (4, 2)]


PAB7 = [line(1, 0.5, ["   4 w 0", "0000 - U"]), line(2, 0.5, ["   5 b =", "   7 w 0"]),
        line(3, 0.5, ["   6 w =", "   4 b 0"]), line(4, 2.0, ["   1 b 1", "   3 w 1"]),
        line(5, 0.5, ["   2 w =", "   6 b 0"]), line(6, 1.5, ["   3 b =", "   5 w 1"]),
        line(7, 1.5, ["0000 - U", "   2 b 1"]), "XXR 5", "XXC white1", "BBU  0.5"]


def test_pab_points_value_the_history():
    """With ``BBU 0.5`` the byes of players 1 and 7 are worth ½ in the scores of past rounds (their
    floats); bbpPairings v6 pairs this file ``7 4, 6 1, 3 2, 5 0``.  The same players with the bye
    valued 1 in the history get another pairing."""
    inp = pairing_input_from_trf(parse_trf(trf(*PAB7)))
    assert inp.point_system.pab_points == 0.5
    assert pairs(inp.pair()) == [(7, 4), (6, 1), (3, 2), (5, None)]
    kw = {**inp.dutch_kwargs(), "point_system": None}
    assert pairs(pair_dutch(inp.players, **kw, pab_points=0.5)) == [(7, 4), (6, 1), (3, 2), (5, None)]
    assert pairs(pair_dutch(inp.players, **kw)) == [(7, 4), (2, 6), (3, 1), (5, None)]
    assert {p.id: p.points for p in inp.players}[7] == 1.5  # ½ (bye) + 1


def test_point_system_classification():
    """bbpPairings v6 getPoints: which value each record scores."""
    ps = PointSystem(win=3, draw=2, loss=1, zero_bye=0.5, forfeit_loss=0.25, pab=1.5)
    cases = {(2, "w", "1"): 3, (2, "w", "0"): 1, (2, "w", "="): 2, (2, "w", "+"): 3, (2, "w", "-"): 0.25,
             (None, None, "U"): 1.5, (None, None, "+"): 1.5, (None, None, "F"): 3, (None, None, "H"): 2,
             (None, None, "Z"): 0.5, (None, None, "-"): 0.5, (None, None, ""): 0.5, (2, "w", "L"): 1,
             (2, "w", "W"): 3, (2, "b", "D"): 2, (2, None, ""): 0.25}
    for rec, value in cases.items():
        assert ps.points(RoundRecord(*rec)) == value, rec
    assert PointSystem().pab_points == 1.0 and PointSystem(win=3).pab_points == 3
    assert PointSystem.from_mapping({"W": 3.0, "U": 1.0}) == PointSystem(win=3.0, pab=1.0)
    with pytest.raises(PairingError):
        PointSystem.from_mapping({"X": 1.0})
    with pytest.raises(PairingError):
        PointSystem().points(RoundRecord(None, None, "?"))


# ---------------------------------------------------------------------------------------------
# Baku (FIDE C.04.5.1)


def test_baku_values_for_nine_and_ten_rounds():
    nine = baku_accelerations([1, 2, 3, 4], total_rounds=9)
    assert nine[1] == nine[2] == (1.0, 1.0, 1.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0)  # C.04.5.1 example
    assert nine[3] == nine[4] == (0.0,) * 9
    ten = baku_accelerations(list(range(1, 11)), total_rounds=10)
    assert ten[1] == (1.0, 1.0, 1.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0)
    assert sum(1 for v in ten.values() if v[0]) == 6  # 10 players: GA = 2 * ceil(10/4) = 6
    seven = baku_accelerations([1, 2], total_rounds=7)
    assert seven[1] == (1.0, 1.0, 0.5, 0.5, 0.0, 0.0, 0.0)


def test_baku_group_a_size():
    assert baku_group_a_size(161) == 82  # C.04.5.1 note
    assert [baku_group_a_size(n) for n in (8, 9, 10, 11, 12)] == [4, 6, 6, 6, 6]
    # bbpPairings 6 takes ceil(n / 2); it agrees when n mod 4 is 0 or 3
    for n in range(2, 200):
        assert (baku_group_a_size(n) == (n + 1) // 2) == (n % 4 in (0, 3))
    with pytest.raises(ValueError):
        baku_group_a_size(-1)


def test_baku_from_192():
    players = [line(i, 0.0, []) for i in range(1, 11)]
    inp = pairing_input_from_trf(parse_trf(trf(*players, "XXR 9", "XXC white1", "192 FIDE_DUTCH_2025_BAKU")))
    assert inp.baku
    acc = {p.id: p.accelerations for p in inp.players}
    assert [i for i in acc if acc[i] and acc[i][0]] == [1, 2, 3, 4, 5, 6]
    assert acc[1] == (1.0, 1.0, 1.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0)
    # round 1: GA (1-6) and GB (7-10) are paired apart.  bbpPairings 6 gives the same with these
    # virtual points as XXA lines; with its own Baku method (GA = 1-5) it pairs 1-3 4-2 5-6 7-9 10-8.
    assert pairs(inp.pair()) == [(1, 4), (5, 2), (3, 6), (7, 9), (10, 8)]
    # XXA lines win over the Baku method (as in bbpPairings)
    manual = pairing_input_from_trf(parse_trf(trf(*players, "XXR 9", "XXC white1", "192 FIDE_DUTCH_2025_BAKU",
                                                  "XXA    9  1.0")))
    assert not manual.baku
    assert {p.id: p.accelerations for p in manual.players}[9] == (1.0,)
    assert {p.id: p.accelerations for p in manual.players}[1] == ()
    # plain Dutch
    for name in ("FIDE_DUTCH", "FIDE_DUTCH_2025"):
        plain = pairing_input_from_trf(parse_trf(trf(*players, "XXR 9", f"192 {name}")))
        assert not plain.baku and all(not p.accelerations for p in plain.players)


def test_baku_needs_a_proportional_point_system():
    players = [line(i, 0.0, []) for i in range(1, 5)]
    with pytest.raises(TrfInputError, match="Baku") as err:
        pairing_input_from_trf(parse_trf(trf(*players, "XXR 5", "192 FIDE_DUTCH_2025_BAKU", "BBD  0.7")))
    assert err.value.line == 7
    ok = pairing_input_from_trf(parse_trf(trf(*players, "XXR 5", "192 FIDE_DUTCH_2025_BAKU", "BBW  2.0",
                                              "BBD  1.0")))
    # 5 rounds: 3 accelerated rounds, the first 2 of them with a full (virtual) win
    assert {p.id: p.accelerations for p in ok.players}[1] == (2.0, 2.0, 1.0, 0.0, 0.0)


# ---------------------------------------------------------------------------------------------
# trf_input


def test_unsupported_pairing_system_and_xxc_rank_are_refused_with_their_line():
    for text, no, what in (("192 FIDE_BURSTEIN", 7, "FIDE_BURSTEIN"), ("192 LIM", 7, "LIM"),
                           ("XXC rank", 7, "XXC rank"), ("XXC white1 frobnicate", 7, "frobnicate")):
        with pytest.raises(TrfInputError, match=what) as err:
            pairing_input_from_trf(parse_trf(trf(*FOUR, "XXR 3", text)))
        assert err.value.line == no and str(err.value).startswith(f"line {no}: ")


def test_initial_colour_from_152():
    players = [line(i, 0.0, []) for i in range(1, 5)]
    assert pairing_input_from_trf(parse_trf(trf(*players, "XXR 3", "152 B"))).first_colour == "b"
    assert pairing_input_from_trf(parse_trf(trf(*players, "XXR 3", "152 W"))).first_colour == "w"
    assert pairs(pairing_input_from_trf(parse_trf(trf(*players, "XXR 3", "152 B"))).pair()) == [(3, 1), (2, 4)]
    assert pairing_input_from_trf(parse_trf(trf(*players, "XXR 3", "152 B", "XXC black1"))).first_colour == "b"
    with pytest.raises(TrfInputError, match="152") as err:
        pairing_input_from_trf(parse_trf(trf(*players, "XXR 3", "152 B", "XXC white1")))
    assert err.value.line == 7


def test_rounds_from_142_and_conflicts():
    players = [line(i, 0.0, []) for i in range(1, 5)]
    assert pairing_input_from_trf(parse_trf(trf(*players, "142 6"))).total_rounds == 6
    assert pairing_input_from_trf(parse_trf(trf(*players, "142 6", "XXR 6"))).total_rounds == 6
    with pytest.raises(TrfInputError, match="142") as err:
        pairing_input_from_trf(parse_trf(trf(*players, "142 6", "XXR 7")))
    assert err.value.line == 6
    # an explicit number of rounds (--rounds) overrides both
    assert pairing_input_from_trf(parse_trf(trf(*players, "142 6", "XXR 7")), total_rounds=5).total_rounds == 5


def test_forbidden_pairs_by_round():
    t = parse_trf(trf(*FOUR, "XXR 5", "XXP 1 2 3", "260   2   3    2    4", "260   4   5    3    4"))
    assert forbidden_pairs_from_trf(t, 1) == [(1, 2), (1, 3), (2, 3)]
    assert forbidden_pairs_from_trf(t, 2) == [(1, 2), (1, 3), (2, 3), (2, 4)]
    assert forbidden_pairs_from_trf(t, 4) == [(1, 2), (1, 3), (2, 3), (3, 4)]
    assert pairing_input_from_trf(t).forbidden_pairs == ((1, 2), (1, 3), (2, 3), (2, 4))


def test_byes_from_240():
    t = parse_trf(trf(*FOUR, line(5, 0.0, ["0000 - Z"]), "XXR 5", "240 H   2    2    5", "240 F   3    1"))
    inp = pairing_input_from_trf(t)
    assert inp.round_no == 2
    assert {p.id for p in inp.players if not p.available} == {2, 5}
    assert inp.unavailable[2].startswith("240 H")
    assert pairs(inp.pair()) == [(4, 1), (3, None)]
    # a 240 bye of a past round where the player has a game is a contradiction
    bad = parse_trf(trf(*FOUR, "XXR 5", "240 H   1    3"))
    with pytest.raises(TrfInputError, match="240") as err:
        pairing_input_from_trf(bad)
    assert err.value.line == 7


def test_preassigned_pab_is_honoured():
    """``0000 - U`` in the round to pair: that round is still the one to pair; the player stays out
    and his points column (which counts the bye) is read as his score before the round."""
    t = parse_trf(trf(line(1, 1.0, ["   3 w 1"]), line(2, 1.0, ["   4 b 1"]), line(3, 0.0, ["   1 b 0"]),
                      line(4, 1.0, ["   2 w 0", "0000 - U"]), line(5, 1.0, ["0000 - U"]), "XXR 3",
                      "XXC white1"))
    inp = pairing_input_from_trf(t)
    assert inp.round_no == 2
    assert {p.id: (p.points, p.available) for p in inp.players}[4] == (0.0, False)
    assert pairs(inp.pair()) == [(5, 1), (2, 3)]
    # the older helper gives the same players
    players, round_no, total = players_from_trf(t)
    assert players == inp.players and (round_no, total) == (2, 3)


def test_point_system_and_points_column():
    # BBW 3 / BBD 1: points from the cells; the points column agrees.
    t = parse_trf(trf(line(1, 3.0, ["   2 w 1"]), line(2, 0.0, ["   1 b 0"]), line(3, 1.0, ["   4 w ="]),
                      line(4, 1.0, ["   3 b ="]), line(5, 3.0, ["0000 - U"]), "XXR 3", "BBW  3.0", "BBD  1.0"))
    inp = pairing_input_from_trf(t)
    assert inp.point_system == PointSystem(win=3.0, draw=1.0)
    assert {p.id: p.points for p in inp.players} == {1: 3.0, 2: 0.0, 3: 1.0, 4: 1.0, 5: 3.0}
    # a points column that includes this round's virtual points is read as bbpPairings does
    acc = parse_trf(trf(line(1, 2.0, ["   2 w 1"]), line(2, 0.0, ["   1 b 0"]), "XXR 3", "XXA    1  1.0  1.0"))
    assert {p.id: p.points for p in pairing_input_from_trf(acc).players}[1] == 1.0
    with pytest.raises(TrfInputError, match="virtual points for round 4"):
        pairing_input_from_trf(parse_trf(trf(*FOUR, "XXR 3", "XXA    1  1.0  1.0  0.0  1.0")))


def test_unread_lines_are_refused():
    for text in ("013 Team A    1    2", "299 something", "XYZ what is this"):
        with pytest.raises(TrfInputError, match="cannot honour") as err:
            pairing_input_from_trf(parse_trf(trf(*FOUR, "XXR 3", text)))
        assert err.value.line == 7
    # players_from_trf (the older helper) does not look at them
    assert players_from_trf(parse_trf(trf(*FOUR, "XXR 3", "XYZ what")))[1] == 2


# ---------------------------------------------------------------------------------------------
# Command line


def _cli(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tournaments.pairing", "dutch", str(path)], cwd=REPO,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("extra,what", [("XYZ what is this", "XYZ"), ("013 Team A    1    2", "team"),
                                        ("XXC rank", "XXC rank"), ("192 FIDE_BURSTEIN", "FIDE_BURSTEIN")])
def test_cli_refuses_what_it_cannot_honour(tmp_path, extra, what):
    f = tmp_path / "x.trf"
    f.write_text(trf(*FOUR, "XXR 3", extra))
    r = _cli(f)
    assert r.returncode == 2 and r.stdout == ""
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"{f}: line 7: ") and what in err[0]


def test_cli_pairs_with_the_extensions(tmp_path):
    f = tmp_path / "x.trf"
    f.write_text(trf(*FOUR, "XXR 3", "XXP 1 2", "### a comment", ""))
    r = _cli(f)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "2\n4 1\n2 3\n"
    assert pair_dutch([P(1, 0), P(2, 0)], round_no=1, total_rounds=1) == [Pairing(1, 2)]


def test_tournament_built_in_code():
    """Extension fields set in code (no lines) are honoured the same way."""
    from tournaments.trf.model import TrfForbidden, TrfTournament

    t = parse_trf(trf(*[line(i, 0.0, []) for i in range(1, 5)], "XXR 5"))
    t2 = TrfTournament(players=t.players, total_rounds=5, pairing_system="FIDE_DUTCH_2025_BAKU",
                       accelerations={3: [1.0]}, forbidden=[TrfForbidden((1, 3))], initial_colour="b")
    inp = pairing_input_from_trf(t2)
    assert not inp.baku  # the accelerations given win over the Baku method
    assert {p.id: p.accelerations for p in inp.players} == {1: (), 2: (), 3: (1.0,), 4: ()}
    assert inp.forbidden_pairs == ((1, 3),) and inp.first_colour == "b"
    t3 = TrfTournament(players=t.players, total_rounds=5, pairing_system="FIDE_DUTCH_2025_BAKU")
    assert pairing_input_from_trf(t3).baku
