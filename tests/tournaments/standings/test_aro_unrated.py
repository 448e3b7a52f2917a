"""ARO and ARO-Cut1 (FIDE C.07 Art. 10.1, Art. 14.1) leave unrated opponents out of the average, as the
FIDE tie-break server does (issue 25). In the standings core an unrated player has rating 0.

Hand-computed Swiss, 6 players, 4 rounds; players 3 and 5 are unrated (rating 0):

    1 (2000): +W3 +W2 =W4 +F5     opponents over the board: 3 (unrated), 2 (1800), 4 (1600)
    2 (1800): =W4 -B1 +W5 -B6     4 (1600), 1 (2000), 5 (unrated), 6 (1500)
    3 (   0): -B1 =W5 +B6 =W4     1 (2000), 5 (unrated), 6 (1500), 4 (1600)
    4 (1600): =B2 +W6 =B1 =B3     2 (1800), 6 (1500), 1 (2000), 3 (unrated)
    5 (   0): +W6 =B3 -B2 -F1     6 (1500), 3 (unrated), 2 (1800); the forfeit is not a game
    6 (1500): -B5 -B4 -W3 +W2     5 (unrated), 4 (1600), 3 (unrated), 2 (1800)

ARO = Σ rated opponents / number of rated opponents, rounded half up:
    1: 3400/2 = 1700   2: 5100/3 = 1700   3: 5100/3 = 1700   4: 5300/3 = 1766.7 → 1767
    5: 3300/2 = 1650   6: 3400/2 = 1700
(counting the unrated as 0 gave 1: 3400/3 = 1133, 2: 1275, 3: 1275, 4: 1325, 5: 1100, 6: 850).
ARO-C1 = the same without the lowest *rated* opponent:
    1: 1800   2: 3600/2 = 1800   3: 3600/2 = 1800   4: 3800/2 = 1900   5: 1800   6: 1800
"""
from __future__ import annotations

import pytest

from tests.shared_data import shared_path
from tournaments.standings import compute_standings

from .crosstable import crosstable

SWISS = {
    1: "+W3 +W2 =W4 +F5",
    2: "=W4 -B1 +W5 -B6",
    3: "-B1 =W5 +B6 =W4",
    4: "=B2 +W6 =B1 =B3",
    5: "+W6 =B3 -B2 -F1",
    6: "-B5 -B4 -W3 +W2",
}
RATINGS = {1: 2000, 2: 1800, 3: 0, 4: 1600, 5: 0, 6: 1500}


def _values(rows, key_index: int) -> dict[int, float]:
    return {r.player_id: r.tiebreaks[key_index] for r in rows}


@pytest.fixture(scope="module")
def rows():
    return compute_standings(crosstable(SWISS, RATINGS), tiebreaks=["aro", "aro_cut1"])


def test_aro_leaves_unrated_opponents_out(rows):
    assert _values(rows, 0) == {1: 1700, 2: 1700, 3: 1700, 4: 1767, 5: 1650, 6: 1700}


def test_aro_cut1_cuts_the_lowest_rated_opponent_and_leaves_unrated_out(rows):
    assert _values(rows, 1) == {1: 1800, 2: 1800, 3: 1800, 4: 1900, 5: 1800, 6: 1800}


def test_aro_without_a_rated_opponent_is_0_and_cut1_needs_two_rated_opponents():
    # 1 (1500) meets the unrated 2 and 3; 2 meets 1 (rated) and 3 (unrated)
    players = crosstable({1: "+W2 +W3 --", 2: "-B1 -- =W3", 3: "-- -B1 =B2"}, {1: 1500, 2: 0, 3: 0})
    rows = compute_standings(players, tiebreaks=["aro", "aro_cut1"])
    assert {r.player_id: r.tiebreaks for r in rows} == {
        1: (0.0, 0.0),
        2: (1500.0, 0.0),
        3: (1500.0, 0.0),
    }


@pytest.mark.django_db
def test_aro_leaves_unrated_opponents_out_of_a_real_file():
    """national_juniors_2011.trf (shared data): 12 players met unrated opponents. Player 14 played
    three games, against two unrated players and one rated 1475: ARO 1475 (it was 492 = 1475/3)."""
    from tournaments.selectors import tournament_standings
    from tournaments.trf.services import tournament_import_trf

    path = shared_path("data", "trf", "national_juniors_2011.trf")
    t = tournament_import_trf(data=path.read_bytes(), source=path.name).tournament
    t.tiebreaks = ["aro", "aro_cut1"]
    t.save(update_fields=["tiebreaks"])
    lines = {line.start_no: line.tiebreaks for line in tournament_standings(tournament=t).lines}
    expected = {
        # start no: (ARO, ARO-C1) over the rated opponents met over the board
        14: (1475.0, 0.0),  # 0, 1475, 0 → one rated opponent: nothing left after the cut
        16: (1282.0, 1412.0),  # 0, 1451, 0, 1372, 1023: 3846/3; without 1023: 2823/2 = 1411.5 → 1412
        5: (1332.0, 1409.0),  # 1103, 1348, 1435, 0, 1443: 5329/4 = 1332.25; without 1103: 4226/3 = 1408.7
    }
    assert {no: lines[no] for no in expected} == expected
