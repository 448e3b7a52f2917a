"""A hand-computed 5-player, 3-round Swiss with a PAB, a forfeit, a half-point bye and a withdrawal.

Round 1: 1 (w) beats 2; 3 (w) – 4 drawn; 5 gets the pairing-allocated bye (1 point)
Round 2: 4 forfeits against 5; 3 (b) beats 1; 2 takes a requested half-point bye
Round 3: 4 has withdrawn (absent); 5 (w) beats 1; 2 (w) – 3 drawn

Scores: 1 → 1, 2 → 1, 3 → 2, 4 → ½, 5 → 3.

Scores as seen by opponents (C.07 Art. 16.3): 4's absence in round 3 is a requested bye not
followed by a round that is not a VUR (category 16.2.5), so it counts as a draw: 4 → 1 instead of
½. 2's half-point bye is followed by a played round (category 16.2.3): actual ½. 4's forfeit loss
(category 16.2.4) and 5's PAB and forfeit win (16.2.1, 16.2.2) count as scored.

Own unplayed rounds (Art. 16.4) meet a dummy opponent with the participant's own score:
2 round 2 (1), 4 rounds 2 and 3 (½ each), 5 rounds 1 and 2 (3 each).
"""
from __future__ import annotations

import pytest

from tournaments.standings import compute_standings
from tournaments.standings.event import build_event

from .crosstable import crosstable

SWISS = {
    1: "+W2 -W3 -B5",
    2: "-B1 =BYE =W3",
    3: "=W4 +B1 =B2",
    4: "=B3 -F5 --",
    5: "+BYE +F4 +W1",
}
KEYS = ["buchholz", "buchholz_cut1", "median_buchholz", "sonneborn_berger", "wins", "games_won_otb",
        "black_games", "progressive"]


def _table(rows):
    return {r.player_id: dict(zip(KEYS, r.tiebreaks)) for r in rows}


@pytest.fixture(scope="module")
def final():
    return compute_standings(crosstable(SWISS), tiebreaks=KEYS)


def test_scores_and_adjusted_scores():
    event = build_event(crosstable(SWISS))
    assert dict(zip(event.ids, event.score)) == {1: 1.0, 2: 1.0, 3: 2.0, 4: 0.5, 5: 3.0}
    assert dict(zip(event.ids, event.adjusted)) == {1: 1.0, 2: 1.0, 3: 2.0, 4: 1.0, 5: 3.0}


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        # 1: 2 (1) + 3 (2) + 5 (3); 2: 1 (1) + dummy 1 + 3 (2); 3: 4 (adjusted 1) + 1 + 2;
        # 4: 3 (2) + dummy ½ + dummy ½; 5: dummy 3 + dummy 3 + 1 (1)
        ("buchholz", {1: 6.0, 2: 4.0, 3: 3.0, 4: 3.0, 5: 7.0}),
        # Cut-1: a VUR contribution goes first (2's half-bye, one of 4's), else the lowest
        ("buchholz_cut1", {1: 5.0, 2: 3.0, 3: 2.0, 4: 2.5, 5: 6.0}),
        # Median-1: also drop the highest remaining
        ("median_buchholz", {1: 2.0, 2: 1.0, 3: 1.0, 4: 0.5, 5: 3.0}),
        # SB: 2 = ½ × 1 (half-bye vs dummy) + ½ × 2; 3 = ½ × 1 + 1 × 1 + ½ × 1; 4 = ½ × 2;
        #     5 = 1 × 3 (PAB) + 1 × 3 (forfeit win) + 1 × 1
        ("sonneborn_berger", {1: 1.0, 2: 1.5, 3: 2.0, 4: 1.0, 5: 7.0}),
        # WIN counts the PAB and the forfeit win (Art. 7.1), WON only matches played (Art. 7.2)
        ("wins", {1: 1.0, 2: 0.0, 3: 1.0, 4: 0.0, 5: 3.0}),
        ("games_won_otb", {1: 1.0, 2: 0.0, 3: 1.0, 4: 0.0, 5: 1.0}),
        # BPG: forfeits are not matches played with black (4 only has round 1)
        ("black_games", {1: 1.0, 2: 1.0, 3: 2.0, 4: 1.0, 5: 0.0}),
        ("progressive", {1: 3.0, 2: 1.5, 3: 4.0, 4: 1.5, 5: 6.0}),
    ],
)
def test_values_after_round_3(final, key, expected):
    got = {pid: v[key] for pid, v in _table(final).items()}
    assert got == pytest.approx(expected, abs=0.01)


def test_order_after_round_3(final):
    # 1 and 2 both have 1 point; BH 6 against 4 puts 1 ahead.
    assert [(r.rank, r.player_id, r.points) for r in final] == [
        (1, 5, 3.0), (2, 3, 2.0), (3, 1, 1.0), (4, 2, 1.0), (5, 4, 0.5)]


def test_standings_after_round_2():
    """After round 2 the half-bye and the forfeit are in the last round. 2 and 4 have ½ each:
    BH 2 = 1 (1) + dummy ½ = 1½; BH 4 = 3 (1½) + dummy ½ = 2 → 4 ahead of 2."""
    rows = compute_standings(crosstable(SWISS), tiebreaks=["buchholz"], rounds=2)
    assert [(r.rank, r.player_id, r.points, r.tiebreaks) for r in rows] == [
        (1, 5, 2.0, (4.0,)), (2, 3, 1.5, (1.5,)), (3, 1, 1.0, (2.0,)), (4, 4, 0.5, (2.0,)),
        (5, 2, 0.5, (1.5,))]


ZERO_BYE = {
    1: "+W2 -BYE =W3",
    2: "-B1 -B3 +W4",
    3: "+W4 +W2 =B1",
    4: "-B3 +BYE -B2",
}


def test_zero_point_bye_in_the_last_round_counts_as_a_draw_for_opponents():
    """C.07 16.2.5/16.3.2: a requested bye in the last round (so far) is evaluated as a draw."""
    after2 = build_event(crosstable(ZERO_BYE), rounds=2)
    assert after2.score[0] == 1.0 and after2.adjusted[0] == 1.5
    rows = compute_standings(crosstable(ZERO_BYE), tiebreaks=["buchholz"], rounds=2)
    assert {r.player_id: r.tiebreaks[0] for r in rows}[2] == pytest.approx(1.5 + 2.0)


def test_zero_point_bye_followed_by_a_played_round_counts_as_scored():
    """C.07 16.2.3: requested bye followed by a round that is not a VUR: actual points (0)."""
    after3 = build_event(crosstable(ZERO_BYE))
    assert after3.score[0] == 1.5 and after3.adjusted[0] == 1.5
    # the PAB of player 4 (category 16.2.1) counts as scored as well
    assert after3.adjusted[3] == 1.0


def test_forfeit_loss_is_cut_first_by_cut1():
    """Player 4 in SWISS: contributions 2 (vs 3), ½ (forfeit loss, VUR), ½ (absent, VUR).
    Cut-1 removes a VUR (½) → 2½, not the lowest non-VUR."""
    rows = compute_standings(crosstable(SWISS), tiebreaks=["buchholz_cut1", "buchholz_cut2"])
    assert {r.player_id: r.tiebreaks for r in rows}[4] == (2.5, 2.0)
