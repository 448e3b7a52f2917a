"""Set results (Kural 14), withdrawals (Kural 14.5), match scoring (003 "Turnuva maçı")."""
from __future__ import annotations

import pytest

from games.engine import (
    AgreedDrawError,
    InvalidStonesError,
    MatchLengthError,
    MatchResult,
    MatchSetsError,
    SetResult,
    StonesNotConservedError,
    WithdrawalTooEarlyError,
    match_result,
    set_result,
    set_starter,
    set_stones_for_match,
)


# --- set_result -------------------------------------------------------------------------------------


def test_kural_14_completed_set_winner_and_margin():
    """Kural 14.1/14.4: more stones wins; margin = winner's stones - 24 (36-12 is "+12", not "+24")."""
    assert set_result(36, 12) == SetResult(36, 12, "first", 12)
    assert set_result(20, 28) == SetResult(20, 28, "second", 4)
    assert set_result(25, 23).margin == 1


def test_003_s6_24_24_is_a_draw_with_margin_0():
    """003 §6 / Kural 14.1: 48 stones, so 24-24 is a draw; margin 0; ½ set point each (Kural 14.3)."""
    r = set_result(24, 24)
    assert r.winner is None and r.margin == 0
    assert r.points == (0.5, 0.5)


def test_kural_14_3_set_points_win_1_loss_0():
    """Kural 14.3: the winner gets 1 point, the loser 0."""
    assert set_result(30, 18).points == (1.0, 0.0)
    assert set_result(18, 30).points == (0.0, 1.0)


def test_rules_md_per_player_margin_is_own_stones_minus_24():
    """RULES.md "Stone margin": per player, own stones - 24 (positive for the winner, negative for the loser)."""
    r = set_result(36, 12)
    assert (r.margin_of("first"), r.margin_of("second")) == (12, -12)


def test_kural_14_5_3_winner_withdraws_recorded_25_23():
    """Kural 14.5.3: the winner who stops with 30 in store is recorded as if they had 25: 25-23, "+1"."""
    assert set_result(30, 10, "first") == SetResult(25, 23, "first", 1, "first")
    assert set_result(5, 26, "second") == SetResult(23, 25, "second", 1, "second")


def test_kural_14_5_4_loser_withdraws_pits_credited_to_winner_36_12():
    """Kural 14.5.4 example: stores 26 and 12, 10 stones in pits, the loser withdraws: 36-12, "+12"."""
    assert set_result(26, 12, "second") == SetResult(36, 12, "first", 12, "second")
    assert set_result(12, 26, "first") == SetResult(12, 36, "second", 12, "first")


def test_kural_14_5_1_who_withdraws_does_not_change_the_winner():
    """Kural 14.5.1: withdrawing changes the recorded stones, never who won."""
    assert set_result(26, 12, "first").winner == "first"
    assert set_result(26, 12, "second").winner == "first"


@pytest.mark.parametrize("first, second", [(24, 20), (24, 24), (0, 0), (10, 13)])
@pytest.mark.parametrize("who", ["first", "second"])
def test_kural_14_5_2_no_withdrawal_before_someone_has_25(first, second, who):
    """Kural 14.5.2: nobody may withdraw before a player has 25 stones in store."""
    with pytest.raises(WithdrawalTooEarlyError, match="25"):
        set_result(first, second, who)


def test_kural_14_6_no_agreed_draw():
    """Kural 14.6 "anlaşmalı beraberlik yoktur": a level result with stones left in the pits is refused."""
    with pytest.raises(AgreedDrawError, match="Kural 14.6"):
        set_result(20, 20)


def test_completed_set_must_hold_48_stones():
    """Kural 1: a completed set has all 48 stones in the stores."""
    with pytest.raises(StonesNotConservedError, match="sum to 47"):
        set_result(30, 17)
    with pytest.raises(StonesNotConservedError, match="more than 48"):
        set_result(30, 20, "second")


@pytest.mark.parametrize("bad", [-1, 49, 2.5, "30", True, None])
def test_stores_must_be_whole_numbers_0_to_48(bad):
    """Stores hold 0..48 stones."""
    with pytest.raises(InvalidStonesError):
        set_result(bad, 0)
    with pytest.raises(InvalidStonesError):
        set_result(0, bad)


def test_withdrawn_by_must_be_first_or_second():
    with pytest.raises(ValueError, match="withdrawn_by"):
        set_result(30, 10, "white")


# --- set_starter ------------------------------------------------------------------------------------


def test_003_turnuva_set_starters_alternate():
    """003 "Turnuva maçı" / Kural 5: the match's white starts sets 1 and 3, black starts set 2."""
    assert [set_starter(n) for n in (1, 2, 3, 4, 5)] == [0, 1, 0, 1, 0]
    with pytest.raises(ValueError):
        set_starter(0)


def test_set_stones_for_match_swaps_in_even_sets():
    """003: in set 2 black moves first, so the first mover's stones are B's."""
    r = set_result(30, 18)
    assert set_stones_for_match(1, r) == (30, 18)
    assert set_stones_for_match(2, r) == (18, 30)


# --- match_result -----------------------------------------------------------------------------------


def test_003_turnuva_2_0_ends_the_match_after_set_2():
    """003 "Turnuva maçı": the player who wins 2 sets wins; after 2-0 set 3 is not played."""
    assert match_result([(30, 18), (25, 23)]) == MatchResult((2.0, 0.0), (1.0, 0.0), 2, True, (55, 41))
    assert match_result([(10, 38), (18, 30)]).match_points == (0.0, 1.0)


def test_003_turnuva_third_set_after_2_0_is_an_error():
    """003 "Turnuva maçı": a set after the match was decided cannot have been played."""
    with pytest.raises(MatchSetsError, match="set 3 was played but the match was decided 2-0 after set 2"):
        match_result([(30, 18), (30, 18), (18, 30)])


def test_003_turnuva_1_1_needs_a_third_set():
    """003: at 1-1 set 3 decides."""
    assert match_result([(30, 18), (18, 30), (26, 22)]) == MatchResult(
        (2.0, 1.0), (1.0, 0.0), 3, True, (74, 70)
    )
    with pytest.raises(MatchSetsError, match="only 2 sets recorded at 1-1"):
        match_result([(30, 18), (18, 30)])


def test_003_turnuva_equal_set_points_draw_the_match_no_extra_set():
    """003 / RULES.md: equal totals after all sets (win-loss-draw, three draws) → match drawn ½-½, no extra set."""
    assert match_result([(30, 18), (18, 30), (24, 24)]).match_points == (0.5, 0.5)
    r = match_result([(24, 24), (24, 24), (24, 24)])
    assert r.set_points == (1.5, 1.5) and r.match_points == (0.5, 0.5) and r.winner is None
    with pytest.raises(MatchSetsError, match="only 3 sets"):
        match_result([(24, 24)] * 4)


def test_rules_md_win_plus_draw_is_not_decided_after_two_sets():
    """RULES.md "decided as soon as one player's lead cannot be caught": 1½-½ after 2 sets can still be
    levelled, so set 3 is played."""
    r = match_result([(30, 18), (24, 24), (18, 30)])
    assert r.set_points == (1.5, 1.5) and r.match_points == (0.5, 0.5) and r.decided_after == 3
    r = match_result([(30, 18), (24, 24), (24, 24)])
    assert r.match_points == (1.0, 0.0) and r.winner == "A"


def test_rules_md_five_set_match():
    """RULES.md: the number of sets is an odd tournament setting (some events play 5): 3-0 ends it."""
    assert match_result([(30, 18)] * 3, 5).decided_after == 3
    with pytest.raises(MatchSetsError):
        match_result([(30, 18)] * 3 + [(18, 30)], 5)
    r = match_result([(30, 18), (30, 18), (24, 24), (18, 30), (18, 30)], 5)
    assert r.set_points == (2.5, 2.5) and r.match_points == (0.5, 0.5)
    r = match_result([(30, 18), (30, 18), (24, 24), (30, 18)], 5)
    assert r.decided_after == 4 and r.match_points == (1.0, 0.0)


def test_one_set_match():
    assert match_result([(24, 24)], 1).match_points == (0.5, 0.5)


@pytest.mark.parametrize("n", [0, 2, 4, -3, 3.0])
def test_sets_per_match_must_be_positive_odd(n):
    """RULES.md: the number of sets per match is odd."""
    with pytest.raises(MatchLengthError):
        match_result([(30, 18)], n)


def test_incomplete_match_allowed_on_request():
    """A match in progress: match points None, not complete."""
    r = match_result([(30, 18)], allow_incomplete=True)
    assert r == MatchResult((1.0, 0.0), None, None, False, (30, 18))
    assert r.winner is None
    assert match_result([], allow_incomplete=True).set_points == (0.0, 0.0)
    with pytest.raises(MatchSetsError, match="only 0 sets"):
        match_result([])


def test_match_set_stones_must_sum_to_48():
    """Kural 1: each set's recorded stones sum to 48; the error names the set."""
    with pytest.raises(StonesNotConservedError, match="^set 2: stones 30-17 sum to 47"):
        match_result([(30, 18), (30, 17)])
    with pytest.raises(InvalidStonesError, match="set 1"):
        match_result([(49, -1), (30, 18)])
    with pytest.raises(MatchSetsError, match="set 1: expected a pair"):
        match_result([(30, 18, 0)])
    with pytest.raises(MatchSetsError, match="only 3 sets|a match has only 3 sets"):
        match_result([(30, 18), (18, 30), (30, 18), (30, 18)])
