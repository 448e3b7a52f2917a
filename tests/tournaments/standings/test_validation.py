"""Bad input raises StandingsError (a ValueError) naming the player, round and problem."""
from __future__ import annotations

import pytest

from tournaments.standings import (
    TIEBREAKS,
    PlayerRecord,
    RoundEntry,
    RoundKind,
    StandingsError,
    compute_standings,
    tiebreak_label,
)

from .crosstable import crosstable

P, FW, FL = RoundKind.PLAYED, RoundKind.FORFEIT_WIN, RoundKind.FORFEIT_LOSS


def _two(e1: RoundEntry, e2: RoundEntry) -> list[PlayerRecord]:
    return [PlayerRecord(1, "A", 1500, (e1,)), PlayerRecord(2, "B", 1500, (e2,))]


def _error(players, tiebreaks=("buchholz",), rounds=None) -> str:
    with pytest.raises(StandingsError) as info:
        compute_standings(players, tiebreaks=list(tiebreaks), rounds=rounds)
    return str(info.value)


def test_standings_error_is_a_value_error():
    assert issubclass(StandingsError, ValueError)


def test_unknown_tiebreak_lists_the_valid_keys():
    msg = _error(crosstable({1: "+W2", 2: "-B1"}), tiebreaks=["buchholz", "koya"])
    assert "unknown tie-break 'koya'" in msg
    for key in ("buchholz", "buchholz_cut1", "median_buchholz", "sonneborn_berger", "direct_encounter",
                "wins", "games_won_otb", "black_games", "aro", "progressive", "set_points", "stone_margin"):
        assert key in msg


def test_tiebreaks_as_a_single_string_is_rejected():
    with pytest.raises(StandingsError, match="sequence of keys"):
        compute_standings(crosstable({1: "+W2", 2: "-B1"}), tiebreaks="buchholz")


def test_opponent_that_does_not_exist():
    players = [PlayerRecord(1, "A", 1500, (RoundEntry(1, P, 1.0, opponent=9, colour="w"),))]
    assert _error(players) == "player 1, round 1: opponent id 9 does not exist"


def test_asymmetric_pairing_other_opponent():
    players = crosstable({1: "+W2", 2: "-B3", 3: "+W2"})
    assert "asymmetric pairing" in _error(players)


def test_asymmetric_pairing_opponent_has_no_entry():
    players = [PlayerRecord(1, "A", 1500, (RoundEntry(1, P, 1.0, opponent=2, colour="w"),)),
               PlayerRecord(2, "B", 1500, ())]
    assert _error(players) == (
        "player 1, round 1: asymmetric pairing: paired with 2, whose round 1 entry has no opponent")


def test_asymmetric_kinds():
    msg = _error(_two(RoundEntry(1, P, 1.0, opponent=2), RoundEntry(1, FL, 0.0, opponent=1)))
    assert msg == "player 1, round 1: asymmetric pairing: PLAYED against 2's FORFEIT_LOSS"


def test_points_that_do_not_add_up():
    msg = _error(_two(RoundEntry(1, P, 1.0, opponent=2), RoundEntry(1, P, 1.0, opponent=1)))
    assert msg == "player 1, round 1: match points against 2 add up to 2, not 1"


def test_double_forfeit_is_accepted():
    rows = compute_standings(_two(RoundEntry(1, FL, 0.0, opponent=2), RoundEntry(1, FL, 0.0, opponent=1)),
                             tiebreaks=["wins"])
    assert [(r.rank, r.points, r.shared) for r in rows] == [(1, 0.0, True), (1, 0.0, True)]


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        (RoundEntry(1, RoundKind.HALF_BYE, 1.0), "player 1, round 1: a HALF_BYE scores 0.5, got 1"),
        (RoundEntry(1, FW, 0.5, opponent=2), "player 1, round 1: a FORFEIT_WIN scores 1, got 0.5"),
        (RoundEntry(1, P, 0.75, opponent=2), "player 1, round 1: points must be 0, 0.5 or 1, got 0.75"),
        (RoundEntry(0, RoundKind.ZERO_BYE, 0.0), "player 1: round number must be an integer >= 1, got 0"),
        (RoundEntry(1, P, 1.0), "player 1, round 1: PLAYED needs an opponent id"),
        (RoundEntry(1, RoundKind.PAIRING_BYE, 1.0, opponent=2),
         "player 1, round 1: a PAIRING_BYE has no opponent, got 2"),
        (RoundEntry(1, P, 1.0, opponent=1), "player 1, round 1: paired with themself"),
        (RoundEntry(1, P, 1.0, opponent=2, colour="white"),
         "player 1, round 1: colour must be 'w', 'b' or None, got 'white'"),
        (RoundEntry(1, P, 1.0, opponent=2, set_points=1.25),
         "player 1, round 1: set points must be a non-negative multiple of 0.5, got 1.25"),
    ],
)
def test_bad_entries(entry, message):
    players = [PlayerRecord(1, "A", 1500, (entry,)), PlayerRecord(2, "B", 1500, ())]
    assert _error(players) == message


def test_same_round_twice():
    players = [PlayerRecord(1, "A", 1500, (RoundEntry(1, RoundKind.ZERO_BYE, 0.0),
                                           RoundEntry(1, RoundKind.HALF_BYE, 0.5)))]
    assert _error(players) == "player 1, round 1: two entries for the same round"


def test_duplicate_player_id():
    players = [PlayerRecord(1, "A", 1500, ()), PlayerRecord(1, "B", 1500, ())]
    assert _error(players) == "player id 1 appears twice"


def test_same_colour_for_both():
    msg = _error(_two(RoundEntry(1, P, 1.0, opponent=2, colour="w"),
                      RoundEntry(1, P, 0.0, opponent=1, colour="w")))
    assert msg == "player 1, round 1: both 1 and 2 have colour 'w'"


def test_set_points_must_agree_with_match_points():
    msg = _error(_two(RoundEntry(1, P, 1.0, opponent=2, set_points=1.0),
                      RoundEntry(1, P, 0.0, opponent=1, set_points=2.0)))
    assert msg == "player 1, round 1: set points 1-2 against 2 do not give 1 match points"


def test_stone_margins_must_be_opposite():
    msg = _error(_two(RoundEntry(1, P, 1.0, opponent=2, stone_margin=12),
                      RoundEntry(1, P, 0.0, opponent=1, stone_margin=-10)))
    assert msg == "player 1, round 1: stone margins 12 and -10 against 2 are not opposite"


def test_bad_rounds_argument():
    assert "rounds must be a non-negative integer" in _error(crosstable({1: "+W2", 2: "-B1"}), rounds=-1)


def test_later_rounds_beyond_the_requested_round_are_not_validated_against_pairing():
    # round 2 names a player who is not paired back, but standings after round 1 ignore it
    players = crosstable({1: "+W2 +W3", 2: "-B1 +W3", 3: "+BYE -B2"})
    rows = compute_standings(players, tiebreaks=[], rounds=1)
    assert [(r.player_id, r.points) for r in rows] == [(1, 1.0), (3, 1.0), (2, 0.0)]


def test_empty_event():
    assert compute_standings([], tiebreaks=["buchholz"]) == []


def test_labels():
    assert tiebreak_label("buchholz_cut1") == "Buchholz (1 kesik)"
    assert tiebreak_label("median_buchholz", "tr") == "Medyan Buchholz"
    assert tiebreak_label("stone_margin") == "Taş averajı"
    assert tiebreak_label("set_points", lang="en") == "Set points"
    assert tiebreak_label("progressive") == "İlerleyen puan"
    assert tiebreak_label("aro", "en") == "Average rating of opponents"
    with pytest.raises(StandingsError, match="unknown language 'de'"):
        tiebreak_label("aro", "de")
    with pytest.raises(StandingsError, match="unknown tie-break 'nope'"):
        tiebreak_label("nope")


def test_registry_entries_are_complete():
    for key, tb in TIEBREAKS.items():
        assert tb.key == key
        assert tb.label_en and tb.label_tr and tb.short and tb.source
        assert callable(tb.func)
    assert [k for k, tb in TIEBREAKS.items() if tb.group_wise] == ["direct_encounter"]
    assert TIEBREAKS["direct_encounter"].short == "DE"
    assert TIEBREAKS["black_games"].short == "BPG"
