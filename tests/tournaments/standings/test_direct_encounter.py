"""Direct encounter (FIDE C.07 Art. 6), hand-worked groups."""
from __future__ import annotations

from tournaments.standings import compute_standings
from tournaments.standings.event import build_event
from tournaments.standings.tiebreaks import direct_encounter_split

from .crosstable import crosstable

# Round robin: 1 beats 2 and 4, loses to 3; 2 beats 3 and 4; 3 draws 4.
# Scores 1 → 2, 2 → 2, 3 → 1½, 4 → ½.
ROUND_ROBIN = {
    1: "+W2 -W3 +W4",
    2: "-B1 +W4 +W3",
    3: "=W4 +B1 -B2",
    4: "=B3 -B2 -B1",
}

# Two rounds of a Swiss: 1 beats 2 and 3; 3 and 4 draw; 2 and 4 draw; 2 and 3 never met.
SWISS = {
    1: "+W2 +W3",
    2: "-B1 =W4",
    3: "=W4 -B1",
    4: "=B3 =B2",
}


def _ids(event, groups):
    return [sorted(event.ids[i] for i in g) for g in groups]


def test_all_met_orders_by_points_and_reapplies_inside_a_smaller_tie():
    event = build_event(crosstable(ROUND_ROBIN))
    values, groups = direct_encounter_split(event, [0, 1, 2, 3])
    assert {event.ids[i]: v for i, v in values.items()} == {1: 2.0, 2: 2.0, 3: 1.5, 4: 0.5}
    # 1 and 2 are level on 2 points; among themselves 1 beat 2
    assert _ids(event, groups) == [[1], [2], [3], [4]]


def test_all_met_cyclic_results_stay_tied():
    event = build_event(crosstable({1: "+W2 +BYE -B3", 2: "-B1 +W3 +BYE", 3: "+BYE -B2 +W1"}))
    values, groups = direct_encounter_split(event, [0, 1, 2])
    assert sorted(values.values()) == [1.0, 1.0, 1.0]
    assert _ids(event, groups) == [[1, 2, 3]]


def test_not_all_met_leader_ranked_first_only_when_unreachable():
    event = build_event(crosstable(SWISS))
    # group {1, 2, 3}: 1 has 2 points; 2 and 3 could reach at most 0 + 1 each → 1 is first.
    # 2 and 3 never met → they stay tied.
    values, groups = direct_encounter_split(event, [0, 1, 2])
    assert {event.ids[i]: v for i, v in values.items()} == {1: 2.0, 2: 0.0, 3: 0.0}
    assert _ids(event, groups) == [[1], [2, 3]]


def test_not_all_met_nobody_separated_when_the_leader_can_be_caught():
    event = build_event(crosstable(SWISS))
    # group {2, 3, 4}: 4 has 1 (two draws), 2 and 3 have ½ and one missing encounter: up to 1½.
    values, groups = direct_encounter_split(event, [1, 2, 3])
    assert {event.ids[i]: v for i, v in values.items()} == {2: 0.5, 3: 0.5, 4: 1.0}
    assert _ids(event, groups) == [[2, 3, 4]]


def test_forfeits_are_not_direct_encounters():
    event = build_event(crosstable({1: "+F2", 2: "-F1"}))
    values, groups = direct_encounter_split(event, [0, 1])
    assert values == {0: 0.0, 1: 0.0}
    assert _ids(event, groups) == [[1, 2]]


def test_direct_encounter_applies_only_within_the_tie_left_by_earlier_tiebreaks():
    players = crosstable(ROUND_ROBIN)
    # points: 1 and 2 tied on 2 → DE puts 1 first; 3 and 4 are alone on their scores.
    rows = compute_standings(players, tiebreaks=["direct_encounter"])
    assert [(r.rank, r.player_id, r.tiebreaks, r.shared) for r in rows] == [
        (1, 1, (1.0,), False), (2, 2, (0.0,), False), (3, 3, (0.0,), False), (4, 4, (0.0,), False)]
    # Sonneborn-Berger first: 1 → 1×2 (beat 2) + 1×½ (beat 4) = 2½; 2 → 1×1½ + 1×½ = 2.
    # SB already separates 1 and 2, so DE has no group to work on.
    rows = compute_standings(players, tiebreaks=["sonneborn_berger", "direct_encounter"])
    assert [(r.player_id, r.tiebreaks) for r in rows[:2]] == [(1, (2.5, 0.0)), (2, (2.0, 0.0))]


def test_registry_func_gives_de_points_within_groups_tied_on_points():
    from tournaments.standings import TIEBREAKS

    event = build_event(crosstable(ROUND_ROBIN))
    # scores 2, 2, 1½, ½: only 1 and 2 are tied; 1 beat 2
    values = TIEBREAKS["direct_encounter"].func(event)
    assert dict(zip(event.ids, values)) == {1: 1.0, 2: 0.0, 3: 0.0, 4: 0.0}
