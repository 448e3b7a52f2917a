"""Match result entry through ``tournaments.results.services.match_result_enter`` (RULES.md "Match and
tournament scoring", Kural 14.5, Kural 14.6): real values, and nothing saved on a refusal."""
from __future__ import annotations

from decimal import Decimal

import pytest

from federation.errors import Conflict, PermissionDenied, ValidationFailed
from tests.factories import PlayerFactory, UserFactory, organiser, referee
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Match, SetResult, Tournament
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db


@pytest.fixture
def published_round():
    org = organiser()
    t = services.tournament_create(name="Sonuç Testi", rounds_total=3, created_by=org)
    for rating in (1900, 1800, 1700, 1600):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=rating))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="results")
    round_services.round_publish(round=rnd, user=org)
    return t, rnd, org


def _board1(rnd) -> Match:
    return rnd.matches.get(board=1)


def test_two_nil_ends_a_three_set_match(published_round):
    """003 "Turnuva maçı": 2–0 after set 2 decides the match; set 3 is not played."""
    _, rnd, _ = published_round
    m = result_services.match_result_enter(match=_board1(rnd), sets=[SetInput(30, 18), SetInput(26, 22)], user=referee())
    assert (m.white_points, m.black_points) == (Decimal("1"), Decimal("0"))
    sets = list(m.sets.order_by("number").values_list("number", "starter", "white_stones", "black_stones"))
    assert sets == [(1, "white", 30, 18), (2, "black", 26, 22)]


def test_third_set_after_two_nil_is_refused_and_nothing_saved(published_round):
    _, rnd, _ = published_round
    m = _board1(rnd)
    with pytest.raises(ValidationFailed) as err:
        result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(26, 22), SetInput(20, 28)])
    assert err.value.field == "sets"
    m.refresh_from_db()
    assert m.white_points is None and m.sets.count() == 0


def test_win_loss_draw_is_a_drawn_match(published_round):
    """Equal set points after three sets (1 + 0 + ½ each) → ½–½, no extra set (003)."""
    _, rnd, _ = published_round
    m = result_services.match_result_enter(match=_board1(rnd), sets=[SetInput(30, 18), SetInput(20, 28), SetInput(24, 24)])
    assert (m.white_points, m.black_points) == (Decimal("0.5"), Decimal("0.5"))


def test_one_one_then_win_gives_the_match(published_round):
    _, rnd, _ = published_round
    m = result_services.match_result_enter(match=_board1(rnd), sets=[SetInput(18, 30), SetInput(28, 20), SetInput(25, 23)])
    assert (m.white_points, m.black_points) == (Decimal("1"), Decimal("0"))


def test_partial_entry_leaves_the_match_open(published_round):
    _, rnd, _ = published_round
    m = result_services.match_result_enter(match=_board1(rnd), sets=[SetInput(30, 18)])
    assert m.white_points is None and m.sets.count() == 1


def test_winner_withdrawal_is_recorded_25_23(published_round):
    """Kural 14.5: the winner (≥ 25 in store) withdraws → recorded 25–23, a "+1" set."""
    _, rnd, _ = published_round
    m = result_services.match_result_enter(
        match=_board1(rnd),
        sets=[SetInput(31, 9, termination="white_withdrew"), SetInput(20, 28)],
    )
    s1 = m.sets.get(number=1)
    assert (s1.white_stones, s1.black_stones, s1.white_store, s1.black_store) == (25, 23, 31, 9)
    assert m.white_points is None  # 1–1 after two sets: set 3 still to play


def test_loser_withdrawal_credits_the_pits_to_the_winner(published_round):
    """Kural 14.5 example: 26 and 12 in the stores, 10 in the pits, loser withdraws → 36–12."""
    _, rnd, _ = published_round
    m = result_services.match_result_enter(
        match=_board1(rnd), sets=[SetInput(26, 12, termination="black_withdrew"), SetInput(30, 18)]
    )
    s1 = m.sets.get(number=1)
    assert (s1.white_stones, s1.black_stones) == (36, 12)
    assert (m.white_points, m.black_points) == (Decimal("1"), Decimal("0"))


def test_withdrawal_before_25_is_refused(published_round):
    _, rnd, _ = published_round
    with pytest.raises(ValidationFailed) as err:
        result_services.match_result_enter(match=_board1(rnd), sets=[SetInput(20, 10, termination="white_withdrew")])
    assert err.value.field == "sets[1]"
    assert "14.5" in err.value.message or "25" in err.value.message


def test_agreed_draw_is_refused(published_round):
    _, rnd, _ = published_round
    with pytest.raises(ValidationFailed) as err:
        result_services.match_result_enter(match=_board1(rnd), sets=[SetInput(24, 24, termination="agreed_draw")])
    assert "14.6" in err.value.message


def test_stones_must_sum_to_48(published_round):
    _, rnd, _ = published_round
    with pytest.raises(ValidationFailed) as err:
        result_services.match_result_enter(match=_board1(rnd), sets=[SetInput(30, 17)])
    assert err.value.field == "sets[1]"
    assert _board1(rnd).sets.count() == 0


def test_forfeit_records_a_game_not_played(published_round):
    _, rnd, _ = published_round
    m = result_services.match_result_enter(match=_board1(rnd), forfeit="black")
    assert (m.white_points, m.black_points, m.rated, m.sets.count()) == (Decimal("1"), Decimal("0"), False, 0)


def test_move_record_must_match_the_stones(published_round):
    """A recorded set is replayed; stones that differ from the record are refused with the reason."""
    from federation.sample_data import play_set
    import random

    _, rnd, _ = published_round
    moves, (first, second) = play_set(random.Random(3), 0.7, 0.7)
    record = " ".join(map(str, moves))
    m = result_services.match_result_enter(match=_board1(rnd), sets=[SetInput(first, second, moves=record)])
    assert m.sets.get(number=1).moves == record
    with pytest.raises(ValidationFailed) as err:
        result_services.match_result_enter(
            match=_board1(rnd), sets=[SetInput(first + 1, second - 1, moves=record)], expected_version=m.version
        ) if second > 0 else result_services.match_result_enter(
            match=_board1(rnd), sets=[SetInput(first - 1, 1, moves=record)], expected_version=m.version
        )
    assert err.value.field == "sets[1]"


def test_version_guard_refuses_a_stale_write(published_round):
    _, rnd, _ = published_round
    m = _board1(rnd)
    stale = m.version
    result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(26, 22)], expected_version=stale)
    with pytest.raises(Conflict):
        result_services.match_result_enter(match=m, sets=[SetInput(18, 30)], expected_version=stale)


def test_player_cannot_enter_results(published_round):
    _, rnd, _ = published_round
    with pytest.raises(PermissionDenied):
        result_services.match_result_enter(match=_board1(rnd), sets=[SetInput(30, 18)], user=UserFactory())


def test_results_wait_for_publication():
    org = organiser()
    t = services.tournament_create(name="Yayın", rounds_total=3, created_by=org)
    for rating in (1900, 1800):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=rating))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="x")
    with pytest.raises(Conflict):
        result_services.match_result_enter(match=rnd.matches.get(board=1), sets=[SetInput(30, 18)])


def test_five_set_match_decided_at_three_nil():
    """RULES.md: the number of sets is a setting (odd); decided once the lead cannot be caught."""
    org = organiser()
    t = services.tournament_create(name="Beş Set", rounds_total=1, sets_per_match=5, created_by=org)
    for rating in (1900, 1800):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=rating))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="x")
    round_services.round_publish(round=rnd, user=org)
    m = rnd.matches.get(board=1)
    m = result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(20, 28), SetInput(26, 22)])
    assert m.white_points is None  # 2–1 after three of five sets: not decided
    m = result_services.match_result_enter(
        match=m, sets=[SetInput(30, 18), SetInput(20, 28), SetInput(26, 22), SetInput(25, 23)], expected_version=m.version
    )
    assert (m.white_points, m.black_points) == (Decimal("1"), Decimal("0"))  # 3–1: the lead cannot be caught
    with pytest.raises(ValidationFailed):
        result_services.match_result_enter(
            match=m, sets=[SetInput(30, 18), SetInput(20, 28), SetInput(26, 22), SetInput(25, 23), SetInput(20, 28)],
            expected_version=m.version,
        )


def test_sets_per_match_must_be_odd():
    before = Tournament.objects.count()
    with pytest.raises(ValidationFailed) as err:
        services.tournament_create(name="Çift", rounds_total=3, sets_per_match=4)
    assert err.value.field == "sets_per_match"
    assert Tournament.objects.count() == before


def test_twenty_twenty_completed_hint_points_to_the_25_stone_withdrawal_rule(published_round):
    """A 20–20 "completed" set: the hint must not suggest choosing who withdrew (illegal at 20–20 too)."""
    from django.utils import translation

    _, rnd, _ = published_round
    with translation.override("en"), pytest.raises(ValidationFailed) as err:
        result_services.match_result_enter(match=_board1(rnd), sets=[SetInput(20, 20)])
    text = err.value.message
    assert "48" in text and "choose who withdrew" not in text
    assert "only once a player has 25" in text


def test_third_set_after_two_nil_names_the_rule_without_a_document_code(published_round):
    from django.utils import translation

    _, rnd, _ = published_round
    for lang in ("en", "tr"):
        with translation.override(lang), pytest.raises(ValidationFailed) as err:
            result_services.match_result_enter(match=_board1(rnd), sets=[SetInput(30, 18), SetInput(26, 22), SetInput(20, 28)])
        assert "003" not in err.value.message
    with translation.override("en"), pytest.raises(ValidationFailed) as err:
        result_services.match_result_enter(match=_board1(rnd), sets=[SetInput(30, 18), SetInput(26, 22), SetInput(20, 28)])
    assert "decided after set 2" in err.value.message and "lead cannot be caught" in err.value.message
