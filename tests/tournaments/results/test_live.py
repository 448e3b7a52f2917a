"""Live round pages for spectators and the hall screen (issue 11): the page and its JSON pass the
publish gate (the public sees published and closed rounds only), show results as entered, answer 304
to an unchanged poll, and load with a fixed number of queries however many boards."""
from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import PASSWORD, PlayerFactory, organiser, referee
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def _event(n_players: int = 4, *, name: str = "Canlı Açık"):
    org = organiser()
    t = services.tournament_create(name=name, rounds_total=3, created_by=org)
    for i in range(n_players):
        entry_services.entry_add(tournament=t, player=PlayerFactory(last_name=f"Oyuncu{i + 1}", first_name="Ç",
                                                                    rating=2000 - 10 * i))
    return t, org


def _anon(lang: str = "en") -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE=lang)


def test_json_of_an_unpublished_round_is_hidden_from_the_public():
    t, org = _event()
    round_services.round_pair(tournament=t, user=org, coin_seed="s")
    r = _anon().get(f"/t/{t.slug}/live.json")
    assert r.status_code == 200
    body = r.json()
    assert body["round"] is None and body["boards"] == []
    assert _anon().get(f"/t/{t.slug}/live.json?round=1").status_code == 404
    # the organiser's live page shows what the public sees too
    c = Client(HTTP_ACCEPT_LANGUAGE="en")
    c.force_login(org)
    assert c.get(f"/t/{t.slug}/live.json").json()["round"] is None
    page = _anon().get(f"/t/{t.slug}/live/").content.decode()
    assert "Oyuncu1" not in page and "No round is published yet" in page


def test_json_of_a_published_round_has_the_boards_and_results_as_entered():
    t, org = _event()
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="s")
    round_services.round_publish(round=rnd, user=org)
    m1, m2 = Match.objects.filter(round=rnd).order_by("board")
    result_services.match_result_enter(match=m1, sets=[result_services.SetInput(30, 18), result_services.SetInput(26, 22)], user=org)
    result_services.match_result_enter(match=m2, sets=[result_services.SetInput(18, 30)], user=org)  # one set so far
    body = _anon().get(f"/t/{t.slug}/live.json").json()
    assert body["round"] == {"number": 1, "status": "published", "status_label": "published"}
    b1, b2 = body["boards"]
    assert (b1["board"], b1["state"], b1["result"], b1["sets_text"]) == (1, "done", "1 – 0", "30–18, 26–22")
    assert (b1["white_points"], b1["black_points"]) == (1.0, 0.0)
    assert (b2["state"], b2["result"], b2["sets_text"]) == ("open", "", "18–30")
    assert b1["white"]["name"] == m1.white.player.full_name
    assert body["progress"] == "1 of 2 results in"
    assert "standings_url" not in body  # standings not published: not offered to the public
    assert _anon().get(f"/t/{t.slug}/live.json?round=1").json()["boards"] == body["boards"]
    # Turkish: decimal comma and Turkish words
    result_services.match_result_enter(match=m2, sets=[result_services.SetInput(18, 30), result_services.SetInput(30, 18),
                                                       result_services.SetInput(24, 24)], user=org, expected_version=2)
    tr = _anon("tr").get(f"/t/{t.slug}/live.json").json()
    assert tr["boards"][1]["result"] == "0,5 – 0,5"


def test_json_answers_304_while_nothing_changed_and_200_after_a_result():
    t, org = _event()
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="s")
    round_services.round_publish(round=rnd, user=org)
    c = _anon()
    first = c.get(f"/t/{t.slug}/live.json")
    etag = first["ETag"]
    # the browser asks again on every poll (revalidates with the ETag); the front proxy may keep it
    assert "max-age=0" in first["Cache-Control"] and "must-revalidate" in first["Cache-Control"]
    assert c.get(f"/t/{t.slug}/live.json", HTTP_IF_NONE_MATCH=etag).status_code == 304
    m = Match.objects.filter(round=rnd).order_by("board").first()
    result_services.match_result_enter(match=m, sets=[result_services.SetInput(30, 18), result_services.SetInput(26, 22)], user=org)
    again = c.get(f"/t/{t.slug}/live.json", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and again["ETag"] != etag
    assert again.json()["key"] == first.json()["key"]  # same round, same pairing: the page need not reload


def test_key_changes_when_the_next_round_is_published():
    t, org = _event()
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="s")
    round_services.round_publish(round=rnd, user=org)
    key1 = _anon().get(f"/t/{t.slug}/live.json").json()["key"]
    for m in Match.objects.filter(round=rnd):
        result_services.match_result_enter(match=m, sets=[result_services.SetInput(30, 18), result_services.SetInput(26, 22)], user=org)
    round_services.round_close(round=rnd, user=org)
    key_closed = _anon().get(f"/t/{t.slug}/live.json").json()["key"]
    rnd2 = round_services.round_pair(tournament=t, user=org)
    assert _anon().get(f"/t/{t.slug}/live.json").json()["key"] == key_closed  # round 2 is not public yet
    round_services.round_publish(round=rnd2, user=org)
    body = _anon().get(f"/t/{t.slug}/live.json").json()
    assert body["round"]["number"] == 2 and len({key1, key_closed, body["key"]}) == 3


def test_standings_link_follows_the_publish_rules():
    t, org = _event()
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="s")
    round_services.round_publish(round=rnd, user=org)
    for m in Match.objects.filter(round=rnd):
        result_services.match_result_enter(match=m, sets=[result_services.SetInput(30, 18), result_services.SetInput(26, 22)], user=org)
    round_services.round_close(round=rnd, user=org)
    assert "standings_url" not in _anon().get(f"/t/{t.slug}/live.json").json()
    services.standings_publish(tournament=t, user=org)
    assert _anon().get(f"/t/{t.slug}/live.json").json()["standings_url"] == f"/t/{t.slug}/standings/"


def test_archived_tournament_has_no_live_page():
    from django.utils import timezone

    t, org = _event()
    t.archived_at = timezone.now()
    t.save(update_fields=["archived_at"])
    assert _anon().get(f"/t/{t.slug}/live.json").status_code == 404
    assert _anon().get(f"/t/{t.slug}/live/").status_code == 404
    assert _anon().get(f"/t/{t.slug}/tv/").status_code == 404


@pytest.mark.parametrize("n_players", [4, 40])
def test_json_and_pages_load_with_a_fixed_number_of_queries(n_players, django_assert_max_num_queries):
    t, org = _event(n_players)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="s")
    round_services.round_publish(round=rnd, user=org)
    for m in Match.objects.filter(round=rnd, kind="game")[: n_players // 4]:
        result_services.match_result_enter(match=m, sets=[result_services.SetInput(30, 18), result_services.SetInput(26, 22)], user=org)
    c = _anon()
    with django_assert_max_num_queries(5):
        body = c.get(f"/t/{t.slug}/live.json").json()
    assert len(body["boards"]) == n_players // 2
    with django_assert_max_num_queries(5):
        assert c.get(f"/t/{t.slug}/live/").status_code == 200
    with django_assert_max_num_queries(5):
        assert c.get(f"/t/{t.slug}/tv/").status_code == 200
    ref = referee()
    rc = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert rc.login(username=ref.username, password=PASSWORD)
    with django_assert_max_num_queries(12):  # a logged-in user: the session, the user, the role checks
        assert rc.get(f"/t/{t.slug}/live.json").status_code == 200


def test_tv_page_has_big_type_and_no_navigation():
    t, org = _event()
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="s")
    round_services.round_publish(round=rnd, user=org)
    for url in (f"/t/{t.slug}/tv/", f"/t/{t.slug}/live/?tv=1"):
        page = _anon().get(url).content.decode()
        assert 'class="tv"' in page and "<nav" not in page and 'href="/t/' not in page
        assert 'data-live-url="/t/%s/live.json"' % t.slug in page and "js/live.js" in page
        assert "Oyuncu1" in page
    page = _anon().get(f"/t/{t.slug}/live/").content.decode()
    assert "<nav" in page and f'href="/t/{t.slug}/tv/"' in page


def test_json_gives_the_update_time_in_the_server_time_zone(monkeypatch):
    """"Updated hh:mm:ss" is the server's time in TIME_ZONE (Istanbul), not the device's: in the body
    and in a header (a 304 keeps the cached body), without changing the ETag."""
    import datetime as dt

    from django.utils import timezone

    t, org = _event()
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="s")
    round_services.round_publish(round=rnd, user=org)
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2026, 5, 1, 9, 4, 5, tzinfo=dt.timezone.utc))
    c = _anon()
    first = c.get(f"/t/{t.slug}/live.json")
    assert first.json()["server_time"] == "12:04:05" and first["X-Server-Time"] == "12:04:05"
    monkeypatch.setattr(timezone, "now", lambda: dt.datetime(2026, 5, 1, 9, 4, 8, tzinfo=dt.timezone.utc))
    again = c.get(f"/t/{t.slug}/live.json", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["X-Server-Time"] == "12:04:08"


def test_live_script_shows_the_server_time_not_the_device_clock():
    from pathlib import Path

    js = (Path(__file__).resolve().parents[3] / "static/js/live.js").read_text()
    assert "toLocaleTimeString" not in js and "new Date()" not in js
    assert "X-Server-Time" in js and "server_time" in js


def test_favicon_is_linked_and_favicon_ico_is_not_a_404():
    c = _anon()
    page = c.get("/").content.decode()
    assert 'rel="icon"' in page and "favicon.svg" in page
    r = c.get("/favicon.ico")
    assert r.status_code == 301 and r["Location"].endswith("img/favicon.svg")


@pytest.mark.parametrize("lang", ["tr", "en"])
def test_live_boards_from_plain_values_equal_the_boards_built_from_models(lang):
    """result_selectors.live_boards (plain values, rebuilt for a whole hall) shows every kind of board exactly as
    result_selectors.live_board does from the models: done, open, missing, a forfeit, a bye, a name without
    a first name."""
    from django.utils import translation

    from tournaments import selectors
    from tournaments.results import selectors as result_selectors

    t, org = _event(5)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="s")
    round_services.round_publish(round=rnd, user=org)
    m1, m2 = Match.objects.filter(round=rnd, kind=Match.Kind.GAME).order_by("board")
    result_services.match_result_enter(match=m1, sets=[result_services.SetInput(30, 18), result_services.SetInput(24, 24),
                                                       result_services.SetInput(20, 28)], user=org)
    result_services.match_result_enter(match=m2, forfeit="black", user=org)
    m2.black.player.first_name = ""
    m2.black.player.save()
    with translation.override(lang):
        from_models = [result_selectors.live_board(m) for m in selectors.round_boards(round=rnd)]
        from_values = result_selectors.live_boards(round=rnd)
    assert from_values == from_models
    assert [b["kind"] for b in from_values] == ["game", "game", "bye"]
    assert from_values[0]["sets_text"] == "30–18, 24–24, 20–28" and from_values[1]["note"] and from_values[2]["note"]
