"""Knockout walkovers and play-offs for a place shared by 3 or more (issue 25): a withdrawal never leaves a
match waiting (the opponent advances by walkover, the third place is never shared because of a withdrawal),
and tied players meet on equal terms — a round robin for 3–4, otherwise byes drawn by a recorded lot."""
from __future__ import annotations

import pytest
from django.urls import reverse

from federation.errors import Conflict, ValidationFailed
from tests.factories import PlayerFactory, organiser, referee
from tests.tournaments.knockout.test_knockout import (  # noqa: F401 (the fixtures)
    D, L, W, client, english, make_knockout, pair_and_publish, play_round, seeds, win_for,
)
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.invariants import check_tournament
from tournaments.knockout import matches as knockout_matches
from tournaments.knockout import selectors as knockout_selectors
from tournaments.models import Tournament
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


# --------------------------------------------------------------------------------------------
# Walkovers (issue 25): a withdrawal never leaves anything waiting
# --------------------------------------------------------------------------------------------


def _to_the_final_round(t, org, ref):
    """Play an 8-player knockout to the end of its semi-finals (the higher seeds win): returns round 2."""
    r1 = pair_and_publish(t, org, "r1")
    play_round(r1, ref)
    round_services.round_close(round=r1, user=org)
    r2 = pair_and_publish(t, org, "r2")
    play_round(r2, ref)
    round_services.round_close(round=r2, user=org)
    return r2


def _entry(t, start_no):
    return t.entries.get(start_no=start_no)


def test_third_place_by_walkover_when_a_semi_final_loser_withdraws():
    t, org = make_knockout(8, third_place_match=True)
    ref = referee()
    _to_the_final_round(t, org, ref)  # semi-finals: 1 beat 4, 2 beat 3
    entry_services.entry_withdraw(entry=_entry(t, 4), user=org)
    r3 = pair_and_publish(t, org, "r3")
    final, third = r3.matches.select_related("white", "black").order_by("board")
    assert third.third_place and {third.white.start_no, third.black.start_no} == {3, 4}
    # paired and forfeited at once: 3 takes third by walkover
    assert (third.decided_by, third.rated) == ("forfeit", False)
    assert third.forfeit == ("white" if third.white.start_no == 4 else "black")
    win_for(final, 1, ref)
    round_services.round_close(round=r3, user=org)
    b = knockout_selectors.final_ranking(tournament=t, public_only=False)
    top = [(x.rank, x.shared, x.side.seed) for x in b.ranking][:4]
    assert top == [(1, False, 1), (2, False, 2), (3, False, 3), (4, False, 4)]  # never 3= for the two
    assert b.final and check_tournament(t) == []


def test_third_place_by_walkover_when_a_semi_final_loser_withdraws_after_the_pairing():
    t, org = make_knockout(8, third_place_match=True)
    ref = referee()
    _to_the_final_round(t, org, ref)
    r3 = pair_and_publish(t, org, "r3")
    entry_services.entry_withdraw(entry=_entry(t, 3), user=org)
    third = r3.matches.get(third_place=True)
    assert third.decided_by == "forfeit" and third.white_points is not None
    final = r3.matches.get(third_place=False)
    win_for(final, 2, ref)
    round_services.round_close(round=r3, user=org)
    ranks = {x.side.seed: (x.rank, x.shared) for x in knockout_selectors.final_ranking(tournament=t, public_only=False).ranking}
    assert (ranks[4], ranks[3]) == ((3, False), (4, False))


def test_walkover_when_a_player_withdraws_with_a_match_waiting():
    t, org = make_knockout(8)
    ref = referee()
    r1 = pair_and_publish(t, org, "r1")
    entry_services.entry_withdraw(entry=_entry(t, 8), user=org)  # seed 1's opponent
    m = r1.matches.select_related("white", "black").get(board=1)
    assert m.decided_by == "forfeit" and knockout_matches.match_winner(m) == (True, _entry(t, 1).id)
    play_round(r1, ref)  # the other boards; board 1 is decided already
    round_services.round_close(round=r1, user=org)  # nothing left waiting
    r2 = pair_and_publish(t, org, "r2")
    assert [tuple(sorted(seeds(x))) for x in r2.matches.order_by("board")] == [(1, 4), (2, 3)]
    with pytest.raises(Conflict):  # the opponent advanced by walkover: the withdrawal is final
        entry_services.entry_reinstate(entry=_entry(t, 8), user=org)


def test_walkover_when_a_winner_withdraws_before_the_next_round():
    t, org = make_knockout(4)
    ref = referee()
    r1 = pair_and_publish(t, org, "r1")
    play_round(r1, ref)  # 1 and 2 win
    round_services.round_close(round=r1, user=org)
    entry_services.entry_withdraw(entry=_entry(t, 2), user=org)
    r2 = pair_and_publish(t, org, "r2")
    (final,) = r2.matches.all()
    assert (final.kind, final.white.start_no) == ("bye", 1)
    round_services.round_close(round=r2, user=org)
    b = knockout_selectors.final_ranking(tournament=t, public_only=False)
    assert [(x.rank, x.side.seed) for x in b.ranking][:2] == [(1, 1), (2, 2)] and b.final
    services.standings_publish(tournament=t, user=org)
    from django.template.loader import render_to_string
    html = render_to_string("tournaments/knockout/_match.html", {"g": knockout_selectors.knockout_bracket(
        tournament=t, public_only=False).rounds[1].games[0]})
    assert "walkover" in html


# --------------------------------------------------------------------------------------------
# Play-offs for a place shared by 3 or more (issue 25): equal terms, a lot that can be re-checked
# --------------------------------------------------------------------------------------------


def _swiss_with_a_tie(n_tied: int, org, ref):
    """A finished one-round-robin-like event whose top ``n_tied`` players share place 1: a round robin of
    ``n_tied`` players where every match is drawn."""
    t = services.tournament_create(name=f"Baraj {n_tied}", rounds_total=1, system="round_robin", created_by=org)
    for i in range(n_tied):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=1600, last_name=f"Berabere{i + 1}"))
    while True:
        try:
            rnd = round_services.round_pair(tournament=t, user=org)
        except Conflict:
            break
        round_services.round_publish(round=rnd, user=org)
        for m in rnd.matches.filter(kind="game"):
            result_services.match_result_enter(match=m, sets=[W, L, D], user=ref)  # ½–½
        round_services.round_close(round=rnd, user=org)
    services.standings_publish(tournament=t, user=org)
    t.refresh_from_db()
    return t


def test_playoff_draw_is_a_seeded_lot_anyone_can_recheck():
    import hashlib

    from tournaments.knockout.playoffs import playoff_draw

    keys = ["TR-1", "TR-2", "TR-3", "TR-4", "TR-5"]
    order = playoff_draw("tohum", keys)
    assert order == sorted(keys, key=lambda k: hashlib.sha256(f"tohum:{k}".encode()).hexdigest())
    assert playoff_draw("tohum", list(reversed(keys))) == order  # the order given does not matter
    assert sorted(order) == keys


def test_playoff_for_three_tied_players_is_a_round_robin_by_default(client):
    from tournaments.knockout.playoffs import playoff_create, playoff_draw
    from tournaments.selectors import tournament_standings

    org, ref = organiser(), referee()
    event = _swiss_with_a_tie(3, org, ref)
    assert [(x.rank, x.shared) for x in tournament_standings(tournament=event).lines] == [(1, True)] * 3
    playoff = playoff_create(tournament=event, rank=1, user=org, lot_seed="kura-3")
    assert (playoff.system, playoff.playoff_lot, playoff.entries.count()) == ("round_robin", "kura-3", 3)
    # starting numbers by the recorded lot, not by the standings' order
    drawn = [e.player.federation_id for e in playoff.entries.select_related("player").order_by("start_no")]
    assert drawn == playoff_draw("kura-3", drawn)
    # everyone plays everyone: first-listed wins every match
    while True:
        try:
            rnd = round_services.round_pair(tournament=playoff, user=org)
        except Conflict:
            break
        round_services.round_publish(round=rnd, user=org)
        for m in rnd.matches.filter(kind="game").select_related("white", "black"):
            win_for(m, min(m.white.start_no, m.black.start_no), ref)
        round_services.round_close(round=rnd, user=org)
    services.standings_publish(tournament=playoff, user=org)
    playoff.refresh_from_db()
    assert playoff.status == "finished"
    st = tournament_standings(tournament=event, public_only=True)
    by_fid = dict(event.entries.values_list("id", "player__federation_id"))
    assert [(x.rank, x.shared) for x in st.lines] == [(1, False), (2, False), (3, False)]
    assert [by_fid[x.entry_id] for x in st.lines] == drawn  # start no 1 won everything, then 2
    assert [p.slug for p in st.playoffs] == [playoff.slug]
    assert check_tournament(playoff) == []
    page = client.get(reverse("tournament-detail", args=[playoff.slug])).content.decode()
    assert 'data-testid="playoff-facts"' in page and "kura-3" in page
    page = client.get(reverse("standings", args=[event.slug])).content.decode()
    assert reverse("standings", args=[playoff.slug]) in page


def test_playoff_for_five_tied_players_draws_the_byes_by_lot():
    from tournaments.knockout.playoffs import playoff_create, playoff_draw

    org, ref = organiser(), referee()
    event = _swiss_with_a_tie(5, org, ref)
    standings_order = [e.player.federation_id for e in event.entries.select_related("player").order_by("start_no")]
    playoff = playoff_create(tournament=event, rank=1, user=org, lot_seed="kura-5")
    assert (playoff.system, playoff.playoff_lot) == ("knockout", "kura-5")
    drawn = playoff_draw("kura-5", standings_order)
    assert [e.player.federation_id for e in playoff.entries.select_related("player").order_by("start_no")] == drawn
    rnd = pair_and_publish(playoff, org, "baraj")
    byes = {m.white.player.federation_id for m in rnd.matches.filter(kind="bye").select_related("white__player")}
    assert byes == set(drawn[:3])  # the first three numbers drawn, whoever they are


def test_playoff_for_four_may_be_a_knockout_with_the_order_drawn_by_lot():
    from tournaments.knockout.playoffs import playoff_create

    org, ref = organiser(), referee()
    event = _swiss_with_a_tie(4, org, ref)
    with pytest.raises(ValidationFailed):
        playoff_create(tournament=event, rank=1, user=org, format="swiss")
    playoff = playoff_create(tournament=event, rank=1, user=org, format="knockout", lot_seed="x")
    assert playoff.system == "knockout" and playoff.playoff_lot == "x"


def test_the_play_off_form_chooses_the_format_and_the_page_shows_the_lot(client):
    org, ref = organiser(), referee()
    event = _swiss_with_a_tie(3, org, ref)
    client.force_login(org)
    page = client.get(reverse("tournament-detail", args=[event.slug])).content.decode()
    assert 'data-testid="playoff-format"' in page and "drawn by a recorded lot" in page
    r = client.post(reverse("playoff-create", args=[event.slug]), {"rank": "1", "sets": "3", "format": "knockout"})
    playoff = Tournament.objects.get(qualified_from=event)
    assert r.status_code == 302 and playoff.system == "knockout" and len(playoff.playoff_lot) == 32
    page = client.get(reverse("tournament-detail", args=[playoff.slug])).content.decode()
    assert 'data-testid="playoff-lot"' in page and playoff.playoff_lot in page
    assert 'data-testid="playoff-form"' not in page


def test_the_bracket_page_states_the_walkover_rule(client):
    t, org = make_knockout(4)
    client.force_login(org)
    assert 'data-testid="walkover-rule"' in client.get(reverse("bracket", args=[t.slug])).content.decode()
    from tournaments.forms import THIRD_PLACE_HELP
    assert "walkover" in str(THIRD_PLACE_HELP)


def test_walkover_when_a_player_withdraws_in_the_middle_of_a_match():
    t, org = make_knockout(4)
    ref = referee()
    r1 = pair_and_publish(t, org, "r1")
    m = r1.matches.get(board=1)
    result_services.match_result_enter(match=m, sets=[W], user=ref)  # one set of three played
    entry_services.entry_withdraw(entry=_entry(t, 4), user=org)
    m.refresh_from_db()
    assert (m.decided_by, m.sets.count()) == ("forfeit", 0)
    assert check_tournament(t) == []
