"""Rounds through the services: coin toss, Dutch and Berger pairings, byes, publishing, closing,
hand changes, standings publication and who may see what."""
from __future__ import annotations

from decimal import Decimal

import pytest

from federation.errors import Conflict, PermissionDenied, ValidationFailed
from tests.factories import PlayerFactory, UserFactory, organiser, referee
from tournaments import selectors
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Round, Tournament
from tournaments.services import coin_toss_outcome
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db


def _tournament(n: int, *, system="swiss", rounds=3, **kw) -> tuple[Tournament, object]:
    org = organiser()
    t = services.tournament_create(name=f"Test {n}", rounds_total=rounds, system=system, created_by=org, **kw)
    for i in range(n):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=2000 - 50 * i, last_name=f"Oyuncu{i + 1:02d}"))
    return t, org


def _boards(rnd: Round) -> list[tuple]:
    return [
        (m.board, m.white.start_no, m.black.start_no if m.black else None, m.bye_kind)
        for m in rnd.matches.select_related("white", "black").order_by("board")
    ]


def _seed_for(outcome: str) -> str:
    return next(s for s in (f"seed-{i}" for i in range(100)) if coin_toss_outcome(s) == outcome)


def test_starting_numbers_follow_rating():
    t, _ = _tournament(4)
    assert [(e.start_no, e.rating) for e in t.entries.order_by("start_no")] == [(1, 2000), (2, 1950), (3, 1900), (4, 1850)]


def test_round_one_coin_toss_white_is_recorded_and_gives_top_seed_white():
    t, org = _tournament(4)
    seed = _seed_for("w")
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed=seed)
    assert (rnd.coin_toss.seed, rnd.coin_toss.outcome, rnd.coin_toss.tossed_by) == (seed, "w", org)
    assert rnd.coin_toss.tossed_at is not None
    # C.04.3: top half v bottom half; the top seed takes the toss's colour, colours alternate by board
    assert _boards(rnd) == [(1, 1, 3, ""), (2, 4, 2, "")]


def test_round_one_coin_toss_black_reverses_the_colours():
    t, org = _tournament(4)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("b"))
    assert _boards(rnd) == [(1, 3, 1, ""), (2, 2, 4, "")]


def test_odd_field_gives_the_lowest_ranked_a_pairing_bye():
    t, org = _tournament(5)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w"))
    boards = _boards(rnd)
    assert boards[-1] == (3, 5, None, "pab")
    bye = rnd.matches.get(board=3)
    assert bye.white_points == Decimal("1.0")


def _play_round(rnd: Round, org, results: dict[int, tuple[int, int]]) -> None:
    """Publish, enter every game (white wins 2–0 with the given stores, 30–18 by default), close."""
    round_services.round_publish(round=rnd, user=org)
    ref = referee()
    for m in rnd.matches.filter(kind="game"):
        w, b = results.get(m.board, (30, 18))
        result_services.match_result_enter(match=m, sets=[SetInput(w, b), SetInput(w, b)], user=ref)
    round_services.round_close(round=rnd, user=org)


def test_a_swiss_is_paired_round_after_round_without_repeats():
    t, org = _tournament(6, rounds=3)
    met = set()
    for n in range(1, 4):
        rnd = round_services.round_pair(tournament=t, user=org, coin_seed="abc" if n == 1 else None)
        for _, w, b, _ in _boards(rnd):
            pair = frozenset((w, b))
            assert pair not in met
            met.add(pair)
        _play_round(rnd, org, {})
    with pytest.raises(Conflict):
        round_services.round_pair(tournament=t, user=org)
    st = selectors.tournament_standings(tournament=t)
    assert sum(line.points for line in st.lines) == 9.0  # 3 boards × 3 rounds, one point each


def test_round_robin_follows_the_berger_table():
    """FIDE C.05 Annex 1, 4 players: 1–4 2–3 / 4–3 1–2 / 2–4 3–1."""
    t, org = _tournament(4, system="round_robin", rounds=3)
    expected = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    for n in range(3):
        rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w") if n == 0 else None)
        assert sorted((w, b) for _, w, b, _ in _boards(rnd)) == sorted(expected[n])
        _play_round(rnd, org, {})


def test_pairing_needs_the_previous_round_closed():
    t, org = _tournament(4)
    round_services.round_pair(tournament=t, user=org, coin_seed="x")
    with pytest.raises(Conflict):
        round_services.round_pair(tournament=t, user=org)


def test_only_organisers_pair_and_publish():
    t, org = _tournament(4)
    with pytest.raises(PermissionDenied):
        round_services.round_pair(tournament=t, user=referee())
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="x")
    with pytest.raises(PermissionDenied):
        round_services.round_publish(round=rnd, user=UserFactory())


def test_closing_needs_every_result():
    t, org = _tournament(4)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="x")
    round_services.round_publish(round=rnd, user=org)
    result_services.match_result_enter(match=rnd.matches.get(board=1), sets=[SetInput(30, 18), SetInput(30, 18)])
    with pytest.raises(Conflict) as err:
        round_services.round_close(round=rnd, user=org)
    assert "2" in err.value.message
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED


def test_public_sees_only_published_rounds():
    t, org = _tournament(4)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="x")
    assert selectors.visible_rounds(tournament=t, user=UserFactory()) == []
    assert selectors.visible_rounds(tournament=t, user=org) == [rnd]
    round_services.round_publish(round=rnd, user=org)
    assert [r.number for r in selectors.visible_rounds(tournament=t, user=UserFactory())] == [1]


def test_hand_change_is_recorded_with_who_and_why():
    t, org = _tournament(4)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w"))
    round_services.round_swap_pairing(round=rnd, board_a=1, board_b=2, swap="black", reason="aynı kulüp", user=org)
    rnd.refresh_from_db()
    assert rnd.modified_by_hand
    assert _boards(rnd) == [(1, 1, 2, ""), (2, 4, 3, "")]
    change = rnd.changes.get()
    assert (change.user, change.reason) == (org, "aynı kulüp")
    with pytest.raises(ValidationFailed):
        round_services.round_swap_pairing(round=rnd, board_a=1, board_b=2, swap="black", reason=" ", user=org)


def test_standings_publication_and_finish():
    t, org = _tournament(2, rounds=1)
    with pytest.raises(Conflict):
        services.standings_publish(tournament=t, user=org)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w"))
    _play_round(rnd, org, {1: (30, 18)})
    services.standings_publish(tournament=t, user=org)
    t.refresh_from_db()
    assert t.standings_published and t.status == Tournament.Status.FINISHED
    st = selectors.tournament_standings(tournament=t)
    assert [(l.rank, l.start_no, l.points) for l in st.lines] == [(1, 1, 1.0), (2, 2, 0.0)]


def test_set_points_and_stone_margin_tiebreaks_come_from_the_sets():
    t, org = _tournament(2, rounds=1, tiebreaks=["set_points", "stone_margin"])
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w"))
    round_services.round_publish(round=rnd, user=org)
    result_services.match_result_enter(match=rnd.matches.get(board=1), sets=[SetInput(30, 18), SetInput(20, 28), SetInput(26, 22)])
    st = selectors.tournament_standings(tournament=t)
    # white (no. 1): sets 30–18 (+6), 20–28 (−4), 26–22 (+2): 2 set points, margin +4
    assert [(l.start_no, l.points, l.tiebreaks) for l in st.lines] == [(1, 1.0, (2.0, 4.0)), (2, 0.0, (1.0, -4.0))]


def test_requested_half_point_bye_leaves_the_player_out_of_the_pairing():
    """C.04.2 pre-assigned bye: the player is not paired and scores ½ in that round."""
    t, org = _tournament(5)
    entry3 = t.entries.get(start_no=3)
    entry_services.entry_request_bye(entry=entry3, round_number=1, kind="half", user=org)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w"))
    boards = _boards(rnd)
    paired = {x for _, w, b, _ in boards if b is not None for x in (w, b)}
    assert paired == {1, 2, 4, 5}
    assert boards[-1] == (3, 3, None, "half")
    assert rnd.matches.get(board=3).white_points == Decimal("0.5")
    with pytest.raises(Conflict):
        entry_services.entry_request_bye(entry=entry3, round_number=1, kind="half", user=org)
    with pytest.raises(ValidationFailed):
        entry_services.entry_request_bye(entry=entry3, round_number=9, kind="half", user=org)


def test_late_entry_joins_from_the_next_round_with_the_next_starting_number():
    t, org = _tournament(4)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w"))
    _play_round(rnd, org, {})
    late = entry_services.entry_add(tournament=t, player=PlayerFactory(rating=2400), user=org)
    assert late.start_no == 5  # starting numbers are not re-sorted once round 1 is paired
    rnd2 = round_services.round_pair(tournament=t, user=org)
    seen = {x for _, w, b, _ in _boards(rnd2) for x in (w, b) if x is not None}
    assert seen == {1, 2, 3, 4, 5}
    st = selectors.tournament_standings(tournament=t, after_round=1)
    assert {l.start_no: l.points for l in st.lines}[5] == 0.0


def test_round_robin_refuses_late_entries():
    t, org = _tournament(4, system="round_robin", rounds=3)
    round_services.round_pair(tournament=t, user=org, coin_seed="x")
    with pytest.raises(Conflict):
        entry_services.entry_add(tournament=t, player=PlayerFactory(), user=org)


def test_public_standings_stop_at_the_round_they_were_published_after():
    """A round being played is not public in standings until it is closed and published again."""
    t, org = _tournament(4, rounds=3)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w"))
    _play_round(rnd, org, {})
    services.standings_publish(tournament=t, user=org)
    rnd2 = round_services.round_pair(tournament=t, user=org)
    round_services.round_publish(round=rnd2, user=org)
    for m in rnd2.matches.filter(kind="game"):
        result_services.match_result_enter(match=m, sets=[SetInput(30, 18), SetInput(30, 18)])
    t.refresh_from_db()
    public = selectors.tournament_standings(tournament=t, public_only=True)
    assert (public.rounds, sum(l.points for l in public.lines), public.provisional) == (1, 2.0, False)
    organiser_view = selectors.tournament_standings(tournament=t)
    assert organiser_view.rounds == 1  # the last closed round by default
    preview = selectors.tournament_standings(tournament=t, after_round=2)
    assert (preview.rounds, sum(l.points for l in preview.lines), preview.provisional) == (2, 4.0, True)
    round_services.round_close(round=rnd2, user=org)
    t.refresh_from_db()
    assert selectors.tournament_standings(tournament=t, public_only=True).rounds == 1  # not re-published yet
    services.standings_publish(tournament=t, user=org)
    t.refresh_from_db()
    assert selectors.tournament_standings(tournament=t, public_only=True).rounds == 2


def test_a_hand_change_cannot_create_a_rematch():
    """Round 3 of four players: every other pairing is a rematch, so any exchange is refused."""
    t, org = _tournament(4, rounds=3)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w"))  # 1–3, 4–2
    _play_round(rnd, org, {})
    _play_round(round_services.round_pair(tournament=t, user=org), org, {})  # 4–1, 2–3
    rnd3 = round_services.round_pair(tournament=t, user=org)
    assert {frozenset((w, b)) for _, w, b, _ in _boards(rnd3)} == {frozenset((1, 2)), frozenset((3, 4))}
    for swap in ("black", "white"):
        with pytest.raises(ValidationFailed) as err:
            round_services.round_swap_pairing(round=rnd3, board_a=1, board_b=2, swap=swap, reason="deneme", user=org)
        assert "C.04.1" in err.value.message
    rnd3.refresh_from_db()
    assert not rnd3.modified_by_hand and rnd3.changes.count() == 0
    assert {frozenset((w, b)) for _, w, b, _ in _boards(rnd3)} == {frozenset((1, 2)), frozenset((3, 4))}


def test_round_robin_rounds_follow_from_the_number_of_players():
    t, org = _tournament(5, system="round_robin", rounds=2)
    round_services.round_pair(tournament=t, user=org, coin_seed="x")
    t.refresh_from_db()
    assert t.rounds_total == 5  # 5 players: 5 rounds, each with one player free


def test_a_tiebreak_listed_twice_is_refused():
    with pytest.raises(ValidationFailed) as err:
        services.tournament_create(name="İki kez", rounds_total=3, tiebreaks=["buchholz", "buchholz"])
    assert err.value.field == "tiebreaks"


def test_round_page_shows_the_hand_change_with_boards_before_and_after(client):
    t, org = _tournament(4)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w"))
    round_services.round_swap_pairing(round=rnd, board_a=1, board_b=2, swap="black", reason="aynı kulüp", user=org)
    round_services.round_publish(round=rnd, user=org)
    body = client.get(f"/t/{t.slug}/round/1/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "aynı kulüp" in body
    assert "1: 1 – 3, 2: 4 – 2 → after: 1: 1 – 2, 2: 4 – 3" in body


def test_export_of_a_running_tournament_reimports_consistently():
    """The TRF of an event in progress holds the closed rounds only; a late entrant's missed rounds are
    zero-point byes; the file imports again with the same points."""
    from tournaments.trf.selectors import tournament_export_trf
    from tournaments.trf.services import tournament_import_trf

    t, org = _tournament(4, rounds=3)
    _play_round(round_services.round_pair(tournament=t, user=org, coin_seed=_seed_for("w")), org, {})
    entry_services.entry_add(tournament=t, player=PlayerFactory(rating=1000), user=org)  # late: no. 5
    rnd2 = round_services.round_pair(tournament=t, user=org)
    round_services.round_publish(round=rnd2, user=org)
    result_services.match_result_enter(match=rnd2.matches.get(board=1), sets=[SetInput(40, 8), SetInput(40, 8)])
    text = tournament_export_trf(tournament=t)
    line5 = next(line for line in text.splitlines() if line.startswith("001    5"))
    assert line5[91:99] == "0000 - Z" and line5[101:].strip() == ""  # round 1 absent; round 2 still open
    again = tournament_import_trf(data=text.encode(), source="running.trf").tournament
    assert again.rounds.count() == 1
    expected = {l.start_no: l.points for l in selectors.tournament_standings(tournament=t, after_round=1).lines}
    assert {l.start_no: l.points for l in selectors.tournament_standings(tournament=again).lines} == expected
