"""FIDE tie-break exercises for the C.07 regulations in force since 2023.

Source: IA Mario Held, "Exercises in Tie-Breaking", Rev. 2403220900 / C.07-2023, published by the
FIDE Technical Commission with the new C.07 (tec.fide.com, 2024-03-18; arbiters.fide.com/news/9119).
Crosstables of its section 2.1 (16-player, 5-round Swiss), 2.2 (6-player round robin) and of
exercise 25 (the same Swiss continued to 9 rounds); every expected value below is the published
solution of the exercise named in the test.

Crosstable codes: see ``crosstable.py``. In the Swiss ``=BYE`` is a requested half-point bye,
``+BYE`` a pairing-allocated bye, ``--`` an absence (zero-point bye; #12 withdrew after round 3)
and ``F`` a forfeit. Ratings: #1 2200, #2 2150, … #16 1450 (50 points apart).
"""
from __future__ import annotations

import pytest

from tournaments.standings import compute_standings
from tournaments.standings.event import build_event
from tournaments.standings.tiebreaks import TIEBREAKS

from .crosstable import crosstable

FIDE_EXERCISE_2023 = {
    1: "+W9 =B13 =W2 +B15 =W4",
    2: "+B10 +W7 =B1 +W16 =B3",
    3: "=W11 +B6 +W8 =B4 =W2",
    4: "+B12 =BYE +W13 =W3 =B1",
    5: "-W13 -B15 +W11 =B7 +W10",
    6: "-B14 -W3 +BYE +W10 +B8",
    7: "+W15 -B2 -B16 =W5 -B11",
    8: "=B16 +W14 -B3 +W13 -W6",
    9: "-B1 -W10 =BYE -F11 +BYE",
    10: "-W2 +B9 -W15 -B6 -B5",
    11: "=B3 -W16 -B5 +F9 +W7",
    12: "-W4 +BYE +F14 -- --",
    13: "+B5 =W1 -B4 -B8 -W14",
    14: "+W6 -B8 -F12 -- +B13",
    15: "-B7 +W5 +B10 -W1 -B16",
    16: "=W8 +B11 +W7 -B2 +W15",
}
RATINGS = {pid: 2250 - 50 * pid for pid in FIDE_EXERCISE_2023}

# Section 2.2, "Swiss" format (5 = Franck, 6 = Helene there); the round-4 game 5–6 was won by
# Helene by forfeit.
ROUND_ROBIN = {
    1: "=W5 +W2 +B3 -W4 +B6",
    2: "+W6 -B1 +W5 =W3 +B4",
    3: "+W4 +B6 -W1 =B2 +W5",
    4: "-B3 -B5 =W6 +B1 -W2",
    5: "=B1 +W4 -B2 -F6 -B3",
    6: "-B2 -W3 =B4 +F5 -W1",
}

# Exercise 25: the Swiss of section 2.1 continued to nine rounds (round 5 differs: 2 beat 3).
NINE_ROUNDS = {
    3: "=W11 +B6 +W8 =B4 -W2 +B16 =W1 +W14 +B10",
    1: "+W9 =B13 =W2 +B15 =W4 =B6 =B3 =W16 +B8",
    2: "+B10 +W7 =B1 +W16 +B3 =W4 -W6 =B15 =W5",
    4: "+B12 =BYE +W13 =W3 =B1 =B2 =W16 =B6 +W15",
    6: "-B14 -W3 +BYE +W10 +B8 =W1 +B2 =W4 +B16",
    7: "+W15 -B2 -B16 =W5 -B11 -B10 +W13 +W9 +B14",
    8: "=B16 +W14 -B3 +W13 -W6 =B11 =W15 +B5 -W1",
    16: "=W8 +B11 +W7 -B2 +W15 -W3 =B4 =B1 -W6",
    5: "-W13 -B15 +W11 =B7 +W10 -B14 +B9 -W8 =B2",
    10: "-W2 +B9 -W15 -B6 -B5 +W7 +B12 +W11 -W3",
    14: "+W6 -B8 -F12 -- +B13 +W5 +W11 -B3 -W7",
    15: "-B7 +W5 +B10 -W1 -B16 +W12 =B8 =W2 -B4",
    11: "=B3 -W16 -B5 +F9 +W7 =W8 -B14 -B10 =W13",
    9: "-B1 -W10 =BYE -F11 +BYE +B13 -W5 -B7 =W12",
    12: "-W4 +BYE +F14 -- -- -B15 -W10 =B13 =B9",
    13: "+B5 =W1 -B4 -B8 -W14 -W9 -B7 =W12 =B11",
}


@pytest.fixture(scope="module")
def event():
    return build_event(crosstable(FIDE_EXERCISE_2023, RATINGS))


def _values(event, key):
    return dict(zip(event.ids, TIEBREAKS[key].func(event)))


def _check(event, key, expected):
    got = _values(event, key)
    assert {pid: got[pid] for pid in expected} == pytest.approx(expected, abs=0.01)


def test_scores_after_five_rounds(event):
    score = dict(zip(event.ids, event.score))
    assert score == {1: 3.5, 2: 4.0, 3: 3.5, 4: 3.5, 5: 2.5, 6: 3.0, 7: 1.5, 8: 2.5, 9: 1.5, 10: 1.0,
                     11: 2.5, 12: 2.0, 13: 1.5, 14: 2.0, 15: 2.0, 16: 3.5}


@pytest.mark.parametrize(
    ("exercise", "expected"),
    [
        ("exercise 1: no unplayed rounds", {2: 13.0}),
        ("exercise 2: opponents' byes taken at face value", {1: 12.5, 3: 15.5}),
        ("exercise 3: forfeit win of the player → dummy opponent", {5: 8.5, 8: 13.5, 11: 13.5}),
        ("exercise 4: half-point bye and a withdrawn opponent", {1: 12.5, 3: 15.5, 16: 12.5, 4: 15.0}),
    ],
)
def test_buchholz(event, exercise, expected):
    _check(event, "buchholz", expected)


@pytest.mark.parametrize(
    ("exercise", "expected"),
    [
        ("exercise 5", {5: 7.5, 8: 12.0, 11: 12.0}),
        ("exercise 6: a VUR is cut before the lowest opponent", {7: 12.5, 9: 7.5, 13: 12.0}),
        ("exercise 7: the half-point bye is cut first", {1: 11.0, 3: 13.0, 4: 11.5, 16: 11.0}),
        ("exercise 8: withdrawal, absence and forfeits", {12: 9.5, 14: 9.0, 15: 11.0}),
    ],
)
def test_buchholz_cut1(event, exercise, expected):
    _check(event, "buchholz_cut1", expected)


def test_exercise_11_sonneborn_berger_of_the_3_5_group(event):
    _check(event, "sonneborn_berger", {1: 8.0, 3: 10.5, 16: 7.25, 4: 9.75})


def test_exercise_12_adjusted_scores_and_sonneborn_berger(event):
    """Exercise 12 lists, for every player, the score used by opponents ("AS", C.07 16.3) and SB."""
    adjusted = dict(zip(event.ids, event.adjusted))
    sb = _values(event, "sonneborn_berger")
    expected = {  # player: (AS, SB)
        2: (4.0, 9.5), 3: (3.5, 10.5), 4: (3.5, 9.75), 1: (3.5, 8.0), 16: (3.5, 7.25),
        6: (3.0, 6.5), 11: (2.5, 5.75), 8: (2.5, 5.25), 5: (2.5, 4.25), 14: (2.0, 4.5),
        12: (3.0, 4.0), 15: (2.0, 3.5), 13: (1.5, 4.25), 7: (1.5, 3.25), 9: (1.5, 2.25),
        10: (1.0, 1.5),
    }
    assert {pid: (adjusted[pid], sb[pid]) for pid in expected} == expected


def test_exercise_13_sonneborn_berger_cut1(event):
    _check(event, "sonneborn_berger_cut1", {
        2: 8.5, 3: 9.25, 4: 8.0, 1: 7.25, 16: 5.75, 6: 5.5, 11: 4.25, 8: 3.75, 5: 3.25, 12: 4.0,
        14: 3.0, 15: 2.5, 13: 4.25, 7: 1.25, 9: 2.25, 10: 0.0})


def test_exercise_17_aro(event):
    _check(event, "aro", {
        2: 1880, 3: 1940, 4: 1888, 1: 1820, 16: 1820, 6: 1813, 11: 1863, 8: 1730, 5: 1690, 12: 2050,
        15: 1860, 14: 1800, 9: 1975, 13: 1930, 7: 1760, 10: 1880})


def test_exercise_18_aro_cut1(event):
    # #12 played one game: nothing is left after the cut; the paper shows 0 (undefined).
    _check(event, "aro_cut1", {
        2: 1988, 3: 2000, 4: 1983, 1: 1900, 16: 1900, 6: 1900, 11: 2000, 8: 1800, 5: 1738, 15: 1963,
        14: 1900, 12: 0, 9: 2200, 13: 2025, 7: 1838, 10: 1975})


@pytest.mark.parametrize(
    ("exercise", "key", "expected"),
    [
        ("exercise 27", "wins", {2: 3, 16: 3, 1: 2, 3: 2, 4: 2, 6: 3, 5: 2, 8: 2, 11: 2, 12: 2, 14: 2, 15: 2,
                                 7: 1, 9: 1, 13: 1, 10: 1}),
        ("exercise 28", "games_won_otb", {2: 3, 16: 3, 1: 2, 3: 2, 4: 2, 6: 2, 5: 2, 8: 2, 11: 1, 14: 2,
                                          15: 2, 12: 0, 7: 1, 13: 1, 9: 0, 10: 1}),
        ("exercise 29", "black_games", {2: 3, 1: 2, 3: 2, 4: 2, 16: 2, 6: 2, 5: 2, 8: 2, 11: 2, 15: 3, 14: 2,
                                        12: 0, 7: 3, 13: 3, 9: 1, 10: 3}),
        ("exercise 30", "black_wins", {2: 1, 1: 1, 3: 1, 4: 1, 16: 1, 6: 1, 5: 0, 8: 0, 11: 0, 12: 0, 14: 1,
                                       15: 1, 7: 0, 9: 0, 13: 1, 10: 1}),
        ("exercise 31", "rounds_elected", {2: 5, 1: 5, 3: 5, 16: 5, 4: 4, 6: 5, 5: 5, 8: 5, 11: 5, 15: 5,
                                           12: 3, 14: 3, 7: 5, 13: 5, 9: 3, 10: 5}),
        ("exercise 32", "progressive", {2: 13.0, 4: 11.5, 1: 11.0, 3: 11.0, 16: 10.5, 6: 6.0, 8: 8.5,
                                        11: 5.5, 5: 5.0, 12: 7.0, 15: 7.0, 14: 6.0, 13: 7.0, 7: 6.0, 9: 2.5,
                                        10: 4.0}),
        ("exercise 33", "progressive_cut1", {2: 12.0, 3: 10.5, 4: 10.5, 1: 10.0, 16: 10.0, 6: 6.0, 8: 8.0,
                                             5: 5.0, 11: 5.0, 12: 7.0, 15: 7.0, 14: 5.0, 13: 6.0, 7: 5.0,
                                             9: 2.5, 10: 4.0}),
    ],
)
def test_own_result_tiebreaks(event, exercise, key, expected):
    _check(event, key, expected)


def test_exercise_4_ranking_of_the_3_5_group_by_buchholz():
    rows = compute_standings(crosstable(FIDE_EXERCISE_2023, RATINGS), tiebreaks=["buchholz"])
    group = [(r.rank, r.player_id, r.tiebreaks[0], r.shared) for r in rows if r.points == 3.5]
    # #3 (15.5), #4 (15.0), #1 and #16 still tied (12.5)
    assert group == [(2, 3, 15.5, False), (3, 4, 15.0, False), (4, 1, 12.5, True), (4, 16, 12.5, True)]


def test_exercise_23_and_24_direct_encounter_breaks_nothing():
    rows = compute_standings(crosstable(FIDE_EXERCISE_2023, RATINGS), tiebreaks=["direct_encounter"])
    ranks = {r.player_id: r.rank for r in rows}
    # 3.5 group: David has 1 (two draws) but Stephan, who met none of them, could reach 3
    assert {ranks[p] for p in (1, 3, 4, 16)} == {2}
    # 2.5 group: only Helene–Maria was played
    assert {ranks[p] for p in (5, 8, 11)} == {7}


def test_exercise_25_direct_encounter_nine_rounds():
    rows = compute_standings(crosstable(NINE_ROUNDS, RATINGS), tiebreaks=["direct_encounter"])
    table = [(r.rank, r.player_id, r.points, r.tiebreaks[0]) for r in rows]
    assert table[:5] == [
        (1, 3, 6.5, 0.0),
        (2, 6, 6.0, 2.0),  # Franck scored 2 in the all-played 6-point group
        (3, 1, 6.0, 1.5), (3, 4, 6.0, 1.5),  # Alyx and David drew: still tied
        (5, 2, 6.0, 1.0),
    ]
    ranks = {r.player_id: r.rank for r in rows}
    assert {ranks[p] for p in (7, 8, 16)} == {6}  # 4.5: Irina–Genevieve not played
    assert {ranks[p] for p in (5, 10, 14, 15)} == {9}  # 4.0: gaps again
    assert {ranks[p] for p in (9, 12)} == {14}  # 3.0: they drew


def test_exercise_14_and_15_sonneborn_berger_round_robin():
    players = crosstable(ROUND_ROBIN)
    rows = compute_standings(players, tiebreaks=["sonneborn_berger", "sonneborn_berger_cut1"], round_robin=True)
    assert {r.player_id: r.tiebreaks for r in rows} == {
        1: (9.25, 9.25), 2: (6.25, 4.75), 3: (6.25, 4.75), 4: (4.25, 4.25), 5: (3.25, 3.25), 6: (2.25, 1.5)}


def test_exercise_26_direct_encounter_round_robin_counts_the_forfeit():
    players = crosstable(ROUND_ROBIN)
    rows = compute_standings(players, tiebreaks=["direct_encounter"], round_robin=True)
    assert [(r.rank, r.player_id, r.tiebreaks[0]) for r in rows] == [
        (1, 1, 2.0), (2, 2, 0.5), (2, 3, 0.5),  # Alyx first; Bruno and Charline drew
        (4, 6, 1.5), (5, 5, 1.0), (6, 4, 0.5),  # Helene (forfeit win counts), Franck, David
    ]
    # As a Swiss the forfeit is not an encounter: Helene–Franck "did not meet", nobody is safe.
    rows = compute_standings(players, tiebreaks=["direct_encounter"])
    assert {r.player_id: r.rank for r in rows if r.points == 1.5} == {4: 4, 5: 4, 6: 4}
