"""RatedSet / Event validation and the stone margin of Kural 14.4-14.5 (RULES.md "Stone margin")."""
from __future__ import annotations

import datetime as dt

import pytest

from ratings.engine import Event, InvalidEventError, InvalidSetError, RatedSet


def test_margin_is_winners_stones_minus_24():
    s = RatedSet("E", "a", "b", 36, 12)
    assert s.margin == 12
    assert s.score == 1.0
    t = RatedSet("E", "a", "b", 18, 30)
    assert t.margin == -6
    assert t.score == 0.0


def test_draw_24_24_is_margin_zero_half_point():
    s = RatedSet("E", "a", "b", 24, 24)
    assert (s.margin, s.score) == (0, 0.5)


def test_winner_withdrawal_counts_plus_one_whatever_the_stones():
    # recorded 25-23 (Kural 14.5) or the real stores 27-15 with 6 stones left in the pits
    assert RatedSet("E", "a", "b", 25, 23, a_withdrew=True).margin == 1
    assert RatedSet("E", "a", "b", 27, 15, a_withdrew=True).margin == 1
    assert RatedSet("E", "a", "b", 15, 27, b_withdrew=True).margin == -1


def test_loser_withdrawal_keeps_credited_margin():
    # rules example: 26 and 12 in the stores, 10 in the pits -> 36-12, "+12"
    s = RatedSet("E", "a", "b", 36, 12, b_withdrew=True)
    assert s.margin == 12 and s.score == 1.0


def test_from_margin():
    s = RatedSet.from_margin("E", "a", "b", -5)
    assert (s.a_stones, s.b_stones, s.margin) == (19, 29, -5)
    with pytest.raises(InvalidSetError):
        RatedSet.from_margin("E", "a", "b", 25)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(a_stones=30, b_stones=17), "add up to 47"),
        (dict(a_stones=49, b_stones=-1), "outside 0..48"),
        (dict(a_stones=24, b_stones=20, a_withdrew=True), "before anyone reached 25"),
        (dict(a_stones=25, b_stones=23, a_withdrew=True, b_withdrew=True), "both players"),
        (dict(a_stones=26, b_stones=12, b_withdrew=True), "add up to 38"),
    ],
)
def test_impossible_sets_rejected(kwargs, message):
    with pytest.raises(InvalidSetError, match=message):
        RatedSet("E", "a", "b", **kwargs)


def test_player_cannot_play_himself():
    with pytest.raises(InvalidSetError, match="plays himself"):
        RatedSet("E", "a", "a", 30, 18)


def test_forfeit_and_bye_are_not_rated():
    assert not RatedSet("E", "a", "b", forfeit=True).rated
    assert not RatedSet("E", "a", None).rated
    assert RatedSet("E", "a", "b", 30, 18).rated


def test_event_rejects_set_of_other_event():
    with pytest.raises(InvalidEventError, match="belongs to event 'F'"):
        Event("E", dt.date(2026, 1, 1), (RatedSet("F", "a", "b", 30, 18),))


def test_event_date_must_be_a_date():
    with pytest.raises(InvalidEventError, match="datetime.date"):
        Event("E", "2026-01-01", ())
