"""Who advances from a knockout match (games.engine.knockout; RULES.md "Knockout matches")."""
from __future__ import annotations

import pytest

from games import engine
from games.engine import (
    DeciderNotAllowedError,
    DeciderNotNeededError,
    KnockoutSettingsError,
    MatchSetsError,
    StonesNotConservedError,
    knockout_match_result,
    knockout_set_starter,
)

W, L, D = (30, 18), (18, 30), (24, 24)  # a set won by A, won by B, drawn


def test_won_in_the_planned_sets():
    r = knockout_match_result([W, W], 3)
    assert (r.winner, r.decided_by, r.complete, r.needs_decider) == ("A", "sets", True, False)
    assert r.match_points == (1.0, 0.0)
    r = knockout_match_result([L, W, L], 3)
    assert (r.winner, r.decided_by) == ("B", "sets")
    r = knockout_match_result([W, L, W, D, L], 5)  # 2½–2½: level
    assert r.winner is None and r.needs_decider


def test_five_sets_decided_early_and_late():
    assert knockout_match_result([W, W, W], 5).winner == "A"  # 3–0: the lead cannot be caught
    r = knockout_match_result([W, L, W, L, W], 5)
    assert (r.winner, r.decided_by) == ("A", "sets")
    r = knockout_match_result([W, W], 5)
    assert r.winner is None and not r.needs_decider and not r.complete


def test_level_match_goes_to_deciders_until_one_is_won():
    level = [W, L, D]
    r = knockout_match_result(level, 3)
    assert (r.winner, r.needs_decider, r.planned.match_points) == (None, True, (0.5, 0.5))
    r = knockout_match_result(level + [D], 3)  # a drawn decider is followed by another
    assert (r.winner, r.needs_decider, r.deciders) == (None, True, (D,))
    r = knockout_match_result(level + [D, D, L], 3)
    assert (r.winner, r.decided_by, r.deciders) == ("B", "deciders", (D, D, L))
    r = knockout_match_result([D, D, D, W], 3)  # three drawn sets are level too
    assert (r.winner, r.decided_by) == ("A", "deciders")


def test_no_set_after_a_won_decider_nor_after_a_won_match():
    with pytest.raises(DeciderNotNeededError) as exc:
        knockout_match_result([W, L, D, W, L], 3)
    assert exc.value.set_number == 5
    with pytest.raises(DeciderNotNeededError) as exc:
        knockout_match_result([W, L, W, W], 3)
    assert exc.value.set_number == 4 and "won 2-1" in str(exc.value)
    with pytest.raises(MatchSetsError):  # a third set after 2–0 is refused like in every match
        knockout_match_result([W, W, L], 3)


def test_higher_seed_rule():
    r = knockout_match_result([W, L, D], 3, rule="higher_seed", higher_seed="B")
    assert (r.winner, r.decided_by, r.needs_decider) == ("B", "seed", False)
    assert knockout_match_result([W, W], 3, rule="higher_seed", higher_seed="B").winner == "A"
    with pytest.raises(DeciderNotAllowedError) as exc:
        knockout_match_result([W, L, D, W], 3, rule="higher_seed")
    assert exc.value.set_number == 4


def test_agreed_number_of_deciders_then_higher_seed():
    level = [W, L, D]
    rule = dict(rule="deciders_then_seed", max_deciders=2, higher_seed="A")
    assert knockout_match_result(level + [D], 3, **rule).needs_decider
    r = knockout_match_result(level + [D, D], 3, **rule)
    assert (r.winner, r.decided_by) == ("A", "seed")
    r = knockout_match_result(level + [D, L], 3, **rule)
    assert (r.winner, r.decided_by) == ("B", "deciders")
    with pytest.raises(DeciderNotAllowedError) as exc:
        knockout_match_result(level + [D, D, W], 3, **rule)
    assert exc.value.set_number == 6
    # no decider agreed: the same as the higher seed rule
    assert knockout_match_result(level, 3, rule="deciders_then_seed", max_deciders=0, higher_seed="B").winner == "B"


def test_incomplete_when_not_allowed():
    with pytest.raises(MatchSetsError, match="decider"):
        knockout_match_result([W, L, D], 3, allow_incomplete=False)
    with pytest.raises(MatchSetsError, match="3 sets"):
        knockout_match_result([W], 3, allow_incomplete=False)


@pytest.mark.parametrize("kwargs", [
    {"rule": "coin"}, {"max_deciders": -1}, {"higher_seed": "C"}, {"max_deciders": 1.5},
])
def test_bad_settings(kwargs):
    with pytest.raises(KnockoutSettingsError):
        knockout_match_result([W, W], 3, **kwargs)


def test_decider_stones_are_checked_with_their_set_number():
    with pytest.raises(StonesNotConservedError, match="set 4"):
        knockout_match_result([W, L, D, (30, 17)], 3)


def test_set_starters_alternate_and_deciders_follow_the_lot():
    # planned sets: white (A) starts sets 1, 3, 5, black (B) sets 2, 4 (003 "Turnuva maçı")
    assert [knockout_set_starter(k, 5, None) for k in range(1, 6)] == [0, 1, 0, 1, 0]
    # the first decider's starter is drawn by lot; later deciders alternate
    assert [knockout_set_starter(k, 3, "B") for k in range(4, 8)] == [1, 0, 1, 0]
    assert [knockout_set_starter(k, 3, "A") for k in range(4, 8)] == [0, 1, 0, 1]
    assert [knockout_set_starter(k, 5, "B") for k in range(6, 8)] == [1, 0]
    with pytest.raises(KnockoutSettingsError):
        knockout_set_starter(4, 3, None)
    with pytest.raises(ValueError):
        knockout_set_starter(0, 3, "A")


def test_engine_exports():
    assert engine.LEVEL_MATCH_RULES == ("deciders", "higher_seed", "deciders_then_seed")
    assert issubclass(engine.KnockoutSetsError, MatchSetsError) and issubclass(engine.KnockoutSetsError, ValueError)
