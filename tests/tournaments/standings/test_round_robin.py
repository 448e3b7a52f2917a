"""A hand-computed 4-player, 3-round Mangala round robin with full set detail.

Ratings: 1 → 1800, 2 → 1700, 3 → 1600, 4 → 1500.

Round 1: 1 (w) beats 4 2–0 (sets +10, +6);  2 (w) – 3 drawn 1½–1½ (sets +5, −3, 0)
Round 2: 3 (w) beats 1 2–1 (sets +4, −8, +2); 2 (w) beats 4 2–0 (sets +7, +1)
Round 3: 1 (w) – 2 drawn 1½–1½ (sets +3, −5, 0); 4 (w) beats 3 2–1 (sets +6, −1, +3)

Match points: 1 → 1½, 2 → 2, 3 → 1½, 4 → 1 (6 in all).
"""
from __future__ import annotations

import pytest

from tournaments.standings import compute_standings

from .crosstable import crosstable

RATINGS = {1: 1800, 2: 1700, 3: 1600, 4: 1500}
ROUND_ROBIN = {
    1: "+W4@2:+16 -B3@1:+2 =W2@1.5:-2",
    2: "=W3@1.5:+2 +W4@2:+8 =B1@1.5:+2",
    3: "=B2@1.5:-2 +W1@2:-2 -B4@1:-8",
    4: "-B1@0:-16 -B2@0:-8 +W3@2:+8",
}
ALL = ["buchholz", "sonneborn_berger", "direct_encounter", "wins", "games_won_otb", "black_games",
       "black_wins", "aro", "progressive", "set_points", "stone_margin"]


@pytest.fixture(scope="module")
def rows():
    return compute_standings(crosstable(ROUND_ROBIN, RATINGS), tiebreaks=ALL)


def _values(rows):
    return {r.player_id: dict(zip(ALL, r.tiebreaks)) for r in rows}


def test_points(rows):
    assert {r.player_id: r.points for r in rows} == {1: 1.5, 2: 2.0, 3: 1.5, 4: 1.0}


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        # BH: in a complete round robin, total points (6) minus own score
        ("buchholz", {1: 4.5, 2: 4.0, 3: 4.5, 4: 5.0}),
        # SB: 1 = 1×1 (beat 4) + ½×2 (drew 2); 2 = ½×1½ + 1×1 + ½×1½; 3 = ½×2 + 1×1½; 4 = 1×1½
        ("sonneborn_berger", {1: 2.0, 2: 2.5, 3: 2.5, 4: 1.5}),
        # DE inside the group tied on points and SB: 2 is alone, {1, 3} are not (SB 2 vs 2½) -> all 0
        ("wins", {1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0}),
        ("games_won_otb", {1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0}),
        ("black_games", {1: 1.0, 2: 1.0, 3: 2.0, 4: 2.0}),
        ("black_wins", {1: 0.0, 2: 0.0, 3: 0.0, 4: 0.0}),
        # ARO: 2 → (1600+1500+1800)/3 = 1633.3 → 1633; 3 → (1700+1800+1500)/3 = 1666.7 → 1667
        ("aro", {1: 1600.0, 2: 1633.0, 3: 1667.0, 4: 1700.0}),
        # PS: running scores 1: 1,1,1½; 2: ½,1½,2; 3: ½,1½,1½; 4: 0,0,1
        ("progressive", {1: 3.5, 2: 4.0, 3: 3.5, 4: 1.0}),
        ("set_points", {1: 4.5, 2: 5.0, 3: 4.5, 4: 2.0}),
        ("stone_margin", {1: 16.0, 2: 12.0, 3: -12.0, 4: -16.0}),
    ],
)
def test_tiebreak_values(rows, key, expected):
    got = {pid: v[key] for pid, v in _values(rows).items()}
    assert got == pytest.approx(expected, abs=0.01)


def test_order_buchholz_equal_sb_decides(rows):
    # 1 and 3 are tied on points (1½) and BH (4½); SB 2½ puts 3 ahead.
    assert [(r.rank, r.player_id, r.shared) for r in rows] == [
        (1, 2, False), (2, 3, False), (3, 1, False), (4, 4, False)]


def test_direct_encounter_decides_between_1_and_3():
    rows = compute_standings(crosstable(ROUND_ROBIN, RATINGS), tiebreaks=["direct_encounter"])
    assert [(r.rank, r.player_id, r.tiebreaks) for r in rows] == [
        (1, 2, (0.0,)), (2, 3, (1.0,)), (3, 1, (0.0,)), (4, 4, (0.0,))]


def test_stone_margin_decides_when_set_points_are_equal():
    rows = compute_standings(crosstable(ROUND_ROBIN, RATINGS), tiebreaks=["set_points", "stone_margin"])
    assert [(r.rank, r.player_id, r.tiebreaks) for r in rows] == [
        (1, 2, (5.0, 12.0)), (2, 1, (4.5, 16.0)), (3, 3, (4.5, -12.0)), (4, 4, (2.0, -16.0))]


def test_equal_on_everything_shares_the_rank_and_the_next_rank_skips():
    rows = compute_standings(crosstable(ROUND_ROBIN, RATINGS), tiebreaks=["buchholz", "wins"])
    assert [(r.rank, r.player_id, r.shared) for r in rows] == [
        (1, 2, False), (2, 1, True), (2, 3, True), (4, 4, False)]


def test_no_tiebreaks_ranks_by_points_only():
    rows = compute_standings(crosstable(ROUND_ROBIN, RATINGS), tiebreaks=[])
    assert [(r.rank, r.player_id, r.tiebreaks) for r in rows] == [
        (1, 2, ()), (2, 1, ()), (2, 3, ()), (4, 4, ())]


def test_standings_after_round_1_ignore_later_rounds():
    rows = compute_standings(crosstable(ROUND_ROBIN, RATINGS), tiebreaks=["stone_margin"], rounds=1)
    assert [(r.rank, r.player_id, r.points, r.tiebreaks) for r in rows] == [
        (1, 1, 1.0, (16.0,)), (2, 2, 0.5, (2.0,)), (3, 3, 0.5, (-2.0,)), (4, 4, 0.0, (-16.0,))]


def test_aro_rounds_half_up_and_counts_only_matches_played():
    # 1 meets 2 (1601) and 3 (1600): average 1600.5 → 1601 (C.07 10.1: 0.5 rounded up).
    # A pairing-allocated bye is not a match: 3 has no opponent after round 1 → 0.
    players = crosstable({1: "+W2 +W3", 2: "-B1 +BYE", 3: "+BYE -B1"}, {1: 1500, 2: 1601, 3: 1600})
    rows = compute_standings(players, tiebreaks=["aro"], rounds=1)
    assert {r.player_id: r.tiebreaks[0] for r in rows} == {1: 1601.0, 2: 1500.0, 3: 0.0}
    rows = compute_standings(players, tiebreaks=["aro"])
    assert {r.player_id: r.tiebreaks[0] for r in rows} == {1: 1601.0, 2: 1500.0, 3: 1500.0}
