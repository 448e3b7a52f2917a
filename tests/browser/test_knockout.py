"""A knockout in a real browser (issue 14): the organiser creates a knockout section through the form, enters
four players, pairs the semi-finals (a coin toss per match), enters the results — one level match going to
a decider set whose starter the referee drew at the table —, closes the round, pairs and plays the final,
publishes the result; anyone then sees the winner on the bracket page and downloads the bracket PDF."""
from __future__ import annotations

import pytest

from tests.browser.helpers import login as _login
from tests.factories import PlayerFactory, organiser
from tournaments.models import Match, Round, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def _enter(page, sets: list[tuple[int, int]], *, decider_starter: str = "") -> None:
    for i, (w, b) in enumerate(sets, start=1):
        page.fill(f"input[name=set{i}_white]", str(w))
        page.fill(f"input[name=set{i}_black]", str(b))
    if decider_starter:
        page.select_option("select[name=decider_starter]", decider_starter)
    page.get_by_role("button", name="Save result").click()


def test_organiser_sets_up_a_knockout_and_publishes_its_result(live_server, new_page):
    organiser(username="orga")
    players = [PlayerFactory(rating=r, last_name=f"Eleme{i}", first_name="Ali") for i, r in
               enumerate((1900, 1800, 1700, 1600), start=1)]
    base = live_server.url
    orga = new_page()
    _login(orga, base, "orga")

    # create the knockout: 3-set semi-finals, a 5-set final, decider sets on a level match
    orga.goto(f"{base}/t/new/")
    orga.fill("input[name=name]", "Tarayıcı Eleme Kupası")
    orga.select_option("select[name=system]", "knockout")
    orga.fill("input[name=rounds_total]", "1")
    orga.fill("input[name=knockout_sets]", "3, 5")
    orga.select_option("select[name=level_match_rule]", "deciders")
    orga.get_by_role("button", name="Create").click()
    orga.wait_for_url(lambda url: url.endswith("/entries/"))
    t = Tournament.objects.get(name="Tarayıcı Eleme Kupası")
    assert (t.system, t.knockout_sets, t.level_match_rule) == ("knockout", [3, 5], "deciders")

    orga.select_option("select[name=players]", [str(p.pk) for p in players])
    orga.get_by_role("button", name="Add", exact=True).click()
    assert t.entries.count() == 4

    # pair the semi-finals with a seed drawn in the hall, then publish
    orga.goto(f"{base}/t/{t.slug}/")
    orga.fill("input[name=coin_seed]", "salon-eleme")
    orga.get_by_role("button", name="Pair round 1").click()
    orga.wait_for_url(f"{base}/t/{t.slug}/round/1/")
    assert "salon-eleme" in orga.get_by_test_id("coin-toss").inner_text()
    orga.get_by_role("button", name="Publish pairings").click()
    semis = list(Match.objects.filter(round__tournament=t, round__number=1).select_related("white", "black")
                 .order_by("board"))
    assert [sorted((m.white.start_no, m.black.start_no)) for m in semis] == [[1, 4], [2, 3]]

    # board 1 on a phone: level after three sets (1½–1½), then a decider won by black
    phone = new_page(viewport=PHONE)
    _login(phone, base, "orga")
    phone.goto(f"{base}/t/{t.slug}/round/1/board/1/")
    assert "Decider 1 (set 4)" in phone.locator("form.result-form").inner_text()
    _enter(phone, [(30, 18), (18, 30), (24, 24), (20, 28)], decider_starter="black")
    phone.wait_for_url(f"{base}/t/{t.slug}/round/1/")
    board1 = Match.objects.select_related("black__player").get(pk=semis[0].pk)
    assert (board1.decided_by, board1.decider_starter, str(board1.black_points)) == ("deciders", "black", "1.0")
    assert list(board1.sets.order_by("number").values_list("starter", flat=True)) == ["white", "black", "white",
                                                                                      "black"]
    phone.goto(f"{base}/t/{t.slug}/round/1/board/2/")
    _enter(phone, [(30, 18), (29, 19)])
    phone.wait_for_url(f"{base}/t/{t.slug}/round/1/")

    # close, pair and publish the final; a 5-set match: 3–0 for white
    orga.goto(f"{base}/t/{t.slug}/round/1/")
    orga.get_by_role("button", name="Close round").click()
    assert Round.objects.get(tournament=t, number=1).status == "closed"
    orga.goto(f"{base}/t/{t.slug}/")
    orga.get_by_role("button", name="Pair round 2").click()
    orga.wait_for_url(f"{base}/t/{t.slug}/round/2/")
    orga.get_by_role("button", name="Publish pairings").click()
    final = Match.objects.select_related("white__player", "black__player").get(round__tournament=t, round__number=2)
    assert {final.white_id, final.black_id} == {board1.black_id, Match.objects.get(pk=semis[1].pk).white_id}
    orga.goto(f"{base}/t/{t.slug}/round/2/board/1/")
    _enter(orga, [(30, 18), (28, 20), (26, 22)])
    orga.wait_for_url(f"{base}/t/{t.slug}/round/2/")
    orga.get_by_role("button", name="Close round").click()
    orga.goto(f"{base}/t/{t.slug}/")
    orga.get_by_role("button", name="Publish standings").click()
    assert Tournament.objects.get(pk=t.pk).status == "finished"

    # anyone: the bracket shows the winner, the final ranking and the PDF
    anon = new_page(viewport=PHONE)
    anon.goto(f"{base}/t/{t.slug}/bracket/")
    champion = final.white.player.full_name
    assert champion in anon.get_by_test_id("champion").inner_text()
    assert anon.get_by_test_id("bracket-match").count() == 3
    assert "20–28" in anon.get_by_test_id("bracket").inner_text() or "28–20" in anon.get_by_test_id(
        "bracket").inner_text()
    rows = anon.get_by_test_id("knockout-ranking").locator("tbody tr")
    assert rows.count() == 4 and champion in rows.nth(0).inner_text()
    assert rows.nth(2).locator("td").nth(0).inner_text() == "3="
    anon.goto(f"{base}/t/{t.slug}/standings/")
    assert champion in anon.get_by_test_id("champion").inner_text()
    response = anon.request.get(f"{base}/t/{t.slug}/bracket.pdf")
    assert response.status == 200 and response.body().startswith(b"%PDF")
