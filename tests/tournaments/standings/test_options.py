"""``rules="2026"`` (C.07 Art. 16.4.1/16.4.2 caps on the dummy opponent) and ``round_robin=True``
(pre-determined pairings: Art. 16 does not apply). Values worked by hand."""
from __future__ import annotations

import pytest

from tournaments.standings import StandingsError, compute_standings

from .crosstable import crosstable
from .test_fide_exercises import FIDE_EXERCISE_2023


def _values(players, keys, **kwargs):
    rows = compute_standings(players, tiebreaks=keys, **kwargs)
    return {r.player_id: r.tiebreaks for r in rows}


@pytest.fixture(scope="module")
def values():
    """BH and SB of the FIDE exercise crosstable under both rule texts."""
    players = crosstable(FIDE_EXERCISE_2023)
    return (_values(players, ["buchholz", "sonneborn_berger"]),
            _values(players, ["buchholz", "sonneborn_berger"], rules="2026"))


class TestRules2026:
    """The FIDE exercise crosstable (5 rounds: the bye cap is ½ × 5 = 2½)."""

    def test_forfeit_win_dummy_capped_by_the_scheduled_opponent(self, values):
        # 11 (2½ points) won by forfeit against 9, whose adjusted score is 1½: dummy 1½, not 2½
        v2023, v2026 = values
        assert v2023[11][0] == 13.5
        assert v2026[11][0] == 12.5

    def test_bye_dummy_capped_by_half_the_rounds(self, values):
        # 4 (3½ points) took a half-point bye: dummy min(3½, 2½) = 2½
        v2023, v2026 = values
        assert v2023[4] == (15.0, 9.75)
        assert v2026[4] == (14.0, 9.25)  # SB: ½ × 2½ instead of ½ × 3½
        # 6 (3 points) got the PAB: dummy 2½; BH 2 + 3½ + 2½ + 1 + 2½, SB 1 × 2½ + 1 + 2½
        assert v2023[6] == (12.0, 6.5)
        assert v2026[6] == (11.5, 6.0)

    def test_low_scores_are_not_affected(self, values):
        v2023, v2026 = values
        for pid in (9, 12, 14):  # own score ≤ every cap
            assert v2023[pid] == v2026[pid]

    def test_unknown_rules(self):
        with pytest.raises(StandingsError, match="unknown rules '2022'"):
            compute_standings(crosstable({1: "+W2", 2: "-B1"}), tiebreaks=[], rules="2022")


# 4-player round robin; in round 3 player 3 forfeits against 4.
RR_FORFEIT = {
    1: "+W4 -B3 =W2",
    2: "=W3 +W4 =B1",
    3: "=B2 +W1 -F4",
    4: "-B1 -B2 +F3",
}


def test_round_robin_forfeit_counts_against_the_scheduled_opponent():
    players = crosstable(RR_FORFEIT)
    keys = ["buchholz", "sonneborn_berger", "direct_encounter"]
    rr = _values(players, keys, round_robin=True)
    swiss = _values(players, keys)
    # 4: round robin → opponents 1 (1½), 2 (2), 3 (1½) = 5, SB 1 × 1½;
    #    Swiss → the forfeit round is a dummy with 4's own score (1): 4½, SB 1 × 1
    assert rr[4][:2] == (5.0, 1.5)
    assert swiss[4][:2] == (4.5, 1.0)
    # 3: round robin 2 + 1½ + 1 = 4½; Swiss dummy 1½ instead of 4's 1 → 5
    assert rr[3][0] == 4.5
    assert swiss[3][0] == 5.0


def test_round_robin_forfeit_is_a_direct_encounter():
    # 1 and 3 (1½ each, equal BH in a round robin) met over the board: 3 won.
    players = crosstable(RR_FORFEIT)
    rows = compute_standings(players, tiebreaks=["direct_encounter"], round_robin=True)
    assert [(r.rank, r.player_id) for r in rows] == [(1, 2), (2, 3), (3, 1), (4, 4)]


def test_round_robin_byes_contribute_nothing():
    cyclic = crosstable({1: "+W2 +BYE -B3", 2: "-B1 +W3 +BYE", 3: "+BYE -B2 +W1"})
    rr = _values(cyclic, ["buchholz", "buchholz_cut1", "sonneborn_berger"], round_robin=True)
    swiss = _values(cyclic, ["buchholz", "buchholz_cut1", "sonneborn_berger"])
    # each has 2 points and played the other two: BH 4, cut-1 2, SB 1 × 2 = 2
    assert rr == {1: (4.0, 2.0, 2.0), 2: (4.0, 2.0, 2.0), 3: (4.0, 2.0, 2.0)}
    # Swiss: the PAB adds a dummy with the own score 2 (BH 6, SB 2 + 1 × 2 = 4)
    assert swiss == {1: (6.0, 4.0, 4.0), 2: (6.0, 4.0, 4.0), 3: (6.0, 4.0, 4.0)}
