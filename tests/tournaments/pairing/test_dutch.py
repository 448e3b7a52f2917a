"""FIDE Dutch system (C.04.3) on small hand-made situations.

Every expected pairing below was also checked against the reference engine
(bbpPairings ``--dutch`` v6); the comment gives the rule that decides it.
"""
from __future__ import annotations

import pytest

from tournaments.pairing import Pairing, PairingError, PairingPlayer, RoundRecord, pair_dutch


def P(pid, points, hist=(), available=True):
    return PairingPlayer(pid, 2000 - pid, points, tuple(RoundRecord(*h) for h in hist), available)


def pairs(result):
    return [(p.white, p.black) for p in result]


def test_round_one_even():
    # B.2/B.3: S1 = 1,2,3 v S2 = 4,5,6; E.5: colours alternate down the boards from the
    # initial colour of the top seed.
    res = pair_dutch([P(i, 0) for i in range(1, 7)], round_no=1, total_rounds=5)
    assert pairs(res) == [(1, 4), (5, 2), (3, 6)]
    assert all(isinstance(p, Pairing) for p in res)


def test_round_one_initial_colour_black():
    res = pair_dutch([P(i, 0) for i in range(1, 7)], round_no=1, total_rounds=5, first_colour="b")
    assert pairs(res) == [(4, 1), (2, 5), (6, 3)]


def test_round_one_odd_bye_to_lowest():
    # C.5 / C.04.1 c: the pairing-allocated bye goes to the lowest-ranked player.
    res = pair_dutch([P(i, 0) for i in range(1, 6)], round_no=1, total_rounds=5)
    assert pairs(res) == [(1, 3), (4, 2), (5, None)]


def test_round_two_colours_alternate():
    # Winners 1 (had white) and 2 (had black) meet: 2 gets white (E.2 preferences both met).
    players = [P(1, 1, [(3, "w", "1")]), P(2, 1, [(4, "b", "1")]),
               P(3, 0, [(1, "b", "0")]), P(4, 0, [(2, "w", "0")])]
    assert pairs(pair_dutch(players, round_no=2, total_rounds=3)) == [(2, 1), (3, 4)]


def test_forfeited_game_may_be_replayed():
    # C.04.1 b: a game lost by forfeit was not played, the two may meet again; its colour
    # does not count, so E.5 decides (the higher-scored player 2 has rank 2 -> black).
    players = [P(1, 0, [(2, "w", "-")]), P(2, 1, [(1, "b", "+")])]
    assert pairs(pair_dutch(players, round_no=2, total_rounds=3)) == [(1, 2)]


def test_played_game_may_not_be_replayed():
    # C.1: no rematch, and nobody else to pair: no legal pairing.
    players = [P(1, 0, [(2, "w", "0")]), P(2, 1, [(1, "b", "1")])]
    with pytest.raises(PairingError, match="absolute criteria"):
        pair_dutch(players, round_no=2, total_rounds=3)


def test_second_bye_is_not_allowed():
    # C.2: player 3 already had the pairing-allocated bye; 1 and 2 already met, so the bye
    # goes to 2 and 1 plays 3 (1 had white -> black now).
    players = [P(1, 1, [(2, "w", "1")]), P(2, 0, [(1, "b", "0")]), P(3, 1, [(None, None, "U")])]
    assert pairs(pair_dutch(players, round_no=2, total_rounds=3)) == [(3, 1), (2, None)]


def test_forfeit_win_makes_bye_ineligible():
    # C.04.1 f / C.2 (2025): a player who scored a point without playing (forfeit win "+",
    # like the pairing-allocated bye "U") gets no pairing-allocated bye.  1, 2, 3 have one
    # point each; without the rule the lowest ranked eligible player would be 2.
    players = [P(1, 1, [(4, "w", "1")]), P(2, 1, [(5, None, "+")]), P(3, 1, [(None, None, "U")]),
               P(4, 0, [(1, "b", "0")], available=False), P(5, 0, [(2, None, "-")], available=False)]
    assert pairs(pair_dutch(players, round_no=2, total_rounds=3)) == [(3, 2), (1, None)]


def test_unavailable_player_is_not_paired():
    # C.04.2: a player with a pre-assigned bye / absence is left out; 4 remain, no bye.
    players = [P(1, 1, [(3, "w", "1")]), P(2, 1, [(4, "b", "1")]),
               P(3, 0, [(1, "b", "0")]), P(4, 0, [(2, "w", "0")]),
               P(5, 1, [(None, None, "U")], available=False)]
    assert pairs(pair_dutch(players, round_no=2, total_rounds=3)) == [(2, 1), (3, 4)]


ABS = [P(1, 2, [(4, "w", "1"), (3, "w", "1")]), P(2, 2, [(5, "w", "1"), (6, "w", "1")]),
       P(3, 1, [(6, "b", "1"), (1, "b", "0")]), P(4, 1, [(1, "b", "0"), (5, "b", "1")]),
       P(5, 0, [(2, "b", "0"), (4, "w", "0")]), P(6, 0, [(3, "w", "0"), (2, "b", "0")])]


def test_absolute_colour_preferences_never_clash():
    # C.3: 1 and 2 both played white twice (absolute preference for black) so they cannot
    # meet before the last round; 3 and 4 (black twice) neither.
    assert pairs(pair_dutch(ABS, round_no=3, total_rounds=5)) == [(3, 2), (5, 1), (4, 6)]


def test_absolute_colour_relaxed_for_top_scorers_in_last_round():
    # C.3 exception: in the last round top scorers (> 50 %) may meet despite the same
    # absolute preference; E.4: the higher-ranked 1 gets its preference (black).
    assert pairs(pair_dutch(ABS, round_no=3, total_rounds=3)) == [(2, 1), (3, 5), (4, 6)]


def test_bad_input():
    with pytest.raises(PairingError, match="twice"):
        pair_dutch([P(1, 0), P(1, 0)], round_no=1, total_rounds=3)
    with pytest.raises(PairingError, match="unknown opponent"):
        pair_dutch([P(1, 1, [(9, "w", "1")]), P(2, 0, [(None, None, "Z")])], round_no=2, total_rounds=3)
    with pytest.raises(PairingError):
        pair_dutch([P(1, 0), P(2, 0)], round_no=4, total_rounds=3)
    with pytest.raises(PairingError):
        pair_dutch([P(1, 0), P(2, 0)], round_no=1, total_rounds=3, first_colour="x")


def test_empty_and_single():
    assert pair_dutch([], round_no=1, total_rounds=1) == []
    assert pair_dutch([P(1, 0)], round_no=1, total_rounds=1) == [Pairing(1, None)]
