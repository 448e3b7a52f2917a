"""The set replay page (``/games/sets/<id>/``) and the board drawing (``games.svg.board_svg``).

Boards are checked against the engine *and* by hand from RULES.md "A move": from the initial
position pit 4 (4 stones) drops its first stone back into pit 4, then pits 5, 6 and the store —
``[4,4,4,1,5,5,1, 4,4,4,4,4,4,0]``, an extra turn (Kural 13A); white's pit 1 (4 stones) then gives
``[1,5,5,2,5,5,1, 4,4,4,4,4,4,0]`` (last stone in own pit 4 that held 1: turn passes, Kural 13D).
"""
from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

import games.engine as engine
from federation.sample_data import play_set
from games.svg import board_svg
from tests.factories import PlayerFactory, UserFactory, organiser, referee
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Round
from tournaments.results.services import SetInput

SVG = "{http://www.w3.org/2000/svg}"
AFTER_4 = [4, 4, 4, 1, 5, 5, 1, 4, 4, 4, 4, 4, 4, 0]
AFTER_4_1 = [1, 5, 5, 2, 5, 5, 1, 4, 4, 4, 4, 4, 4, 0]


# --------------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------------


def drawn_board(svg_text: str) -> list[int]:
    """The 14 stone counts drawn in an SVG, by cell index (parses it as XML)."""
    root = ET.fromstring(svg_text)
    counts = {}
    for g in root.iter(f"{SVG}g"):
        if "cell" in g.get("class", "").split():
            text = g.find(f"{SVG}text[@class='count']")
            counts[int(g.get("data-index"))] = int(text.text)
    assert sorted(counts) == list(range(14))
    return [counts[i] for i in range(14)]


def cell(svg_text: str, index: int) -> ET.Element:
    root = ET.fromstring(svg_text)
    return next(g for g in root.iter(f"{SVG}g") if g.get("data-index") == str(index))


def page_svg(html: str) -> str:
    m = re.search(r"<svg\b.*?</svg>", html, re.S)
    assert m, "no <svg> on the page"
    return m.group(0)


def finish(prefix: list[int], seed: int) -> tuple[list[int], tuple[int, int]]:
    """``prefix`` then random legal moves until the set is over: (moves, (first, second) stores)."""
    rng = random.Random(seed)
    pos = engine.replay(prefix)
    moves = list(prefix)
    while not pos.is_over:
        pit = rng.choice([m.pit for m in engine.legal_moves(pos)])
        moves.append(pit)
        pos = engine.play(pos, pit).position
    return moves, pos.stores


@pytest.fixture
def client():
    """A test client asking for English pages (the default language is Turkish)."""
    from django.test import Client

    return Client(headers={"accept-language": "en"})


@pytest.fixture
def recorded(db):
    """A published round; board 1 has set 1 recorded from "4 1 …" (white starts) and set 2 from a
    sample set (black starts); board 2 has a set without moves."""
    org = organiser()
    t = services.tournament_create(name="Replay Kupası", rounds_total=3, created_by=org)
    names = [("Yılmaz", "Ayşe"), ("Kaya", "Mehmet"), ("Demir", "Elif"), ("Şahin", "Can")]
    for rating, (last, first) in zip((1900, 1800, 1700, 1600), names):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=rating, last_name=last, first_name=first))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="replay")
    round_services.round_publish(round=rnd, user=org)
    m1, m2 = rnd.matches.get(board=1), rnd.matches.get(board=2)
    moves1, (w1, b1) = finish([4, 1], seed=7)  # set 1: white is the first mover
    moves2, (first2, second2) = play_set(random.Random(11), 0.7, 0.7)  # set 2: black moves first
    result_services.match_result_enter(
        match=m1,
        sets=[
            SetInput(w1, b1, moves=" ".join(map(str, moves1))),
            SetInput(second2, first2, moves=" ".join(map(str, moves2))),
        ],
        user=org,
    )
    result_services.match_result_enter(match=m2, sets=[SetInput(30, 18)], user=org)
    return {
        "t": t, "round": rnd, "m1": m1, "m2": m2, "org": org,
        "set1": m1.sets.get(number=1), "set2": m1.sets.get(number=2), "plain": m2.sets.get(number=1),
        "moves1": moves1, "moves2": moves2, "stones1": (w1, b1), "stones2": (second2, first2),
    }


# --------------------------------------------------------------------------------------------
# board_svg
# --------------------------------------------------------------------------------------------


def test_initial_board_is_drawn_with_all_14_counts():
    svg = board_svg(engine.Position.initial())
    assert drawn_board(svg) == [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0]
    root = ET.fromstring(svg)
    assert root.get("width") == "100%" and root.get("viewBox")
    bands = [r for r in root.iter(f"{SVG}rect") if "band" in r.get("class", "")]
    assert [(b.get("data-player"), "to-move" in b.get("class")) for b in bands] == [("1", False), ("0", True)]


def test_board_after_pit_4_matches_the_hand_count_and_highlights_the_move():
    r = engine.play(engine.Position.initial(), 4)
    assert list(r.position.board) == AFTER_4 and r.extra_turn  # engine agrees with the hand count
    svg = board_svg(r.position, last_move=r.move, last_index=r.last_index)
    assert drawn_board(svg) == AFTER_4
    assert "last" in cell(svg, 3).get("class").split()  # pit 4 of the first player
    assert "last-stone" in cell(svg, 6).get("class").split()  # the last stone fell into the store
    assert [i for i in range(14) if "last" in cell(svg, i).get("class").split()] == [3]
    # extra turn: the first player is still the one to move
    assert ET.fromstring(svg).get("data-to-move") == "0"


def _x_y(svg: str, index: int) -> tuple[float, float]:
    rect = cell(svg, index).find(f"{SVG}rect")
    return float(rect.get("x")), float(rect.get("y"))


def test_layout_sows_counter_clockwise_and_flip_swaps_the_rows():
    pos = engine.Position.initial()
    svg = board_svg(pos)
    bottom = [_x_y(svg, i) for i in range(6)]
    top = [_x_y(svg, i) for i in range(7, 13)]
    assert all(y == bottom[0][1] for _, y in bottom) and all(y == top[0][1] for _, y in top)
    assert bottom[0][1] > top[0][1]  # first mover at the bottom
    assert [x for x, _ in bottom] == sorted(x for x, _ in bottom)  # pits 1..6 left to right
    assert [x for x, _ in top] == sorted((x for x, _ in top), reverse=True)  # opponent's 1..6 right to left
    assert _x_y(svg, 6)[0] > bottom[-1][0] and _x_y(svg, 13)[0] < top[-1][0]  # own store on the right
    flipped = board_svg(pos, flip=True)
    assert _x_y(flipped, 7)[1] > _x_y(flipped, 0)[1]
    assert _x_y(flipped, 13)[0] > _x_y(flipped, 7)[0] and _x_y(flipped, 6)[0] < _x_y(flipped, 5)[0]


def test_finished_set_frames_nobody_and_names_are_escaped():
    moves, stores = finish([], seed=3)
    final = engine.replay(moves)
    svg = board_svg(final, names=('A <b>&"', "B"))
    assert drawn_board(svg)[6] == stores[0] and drawn_board(svg)[13] == stores[1]
    root = ET.fromstring(svg)
    assert root.get("data-to-move") == ""
    assert not [r for r in root.iter(f"{SVG}rect") if "to-move" in r.get("class", "")]
    assert 'A <b>&"' in root.find(f"{SVG}title").text


def test_dots_follow_the_count_up_to_twelve():
    board = (13, 1, 0, 4, 4, 4, 0, 4, 4, 4, 4, 4, 2, 0)
    svg = board_svg(engine.Position(board, 0))
    dots = {i: len([c for c in cell(svg, i).iter(f"{SVG}circle")]) for i in range(14)}
    assert dots[0] == 0 and dots[1] == 1 and dots[2] == 0 and dots[3] == 4 and dots[12] == 2
    assert drawn_board(svg) == list(board)


# --------------------------------------------------------------------------------------------
# the replay page
# --------------------------------------------------------------------------------------------


def test_replay_page_shows_the_board_after_each_ply(client, recorded):
    s = recorded["set1"]
    url = reverse("set-replay", args=[s.id])
    assert url == f"/games/sets/{s.id}/"
    r0 = client.get(url)
    assert r0.status_code == 200
    assert drawn_board(page_svg(r0.content.decode())) == [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0]
    html1 = client.get(url, {"ply": 1}).content.decode()
    assert drawn_board(page_svg(html1)) == AFTER_4
    assert "Ply 1 of %d: White plays pit 4 — extra turn." % len(recorded["moves1"]) in " ".join(html1.split())
    html2 = client.get(url, {"ply": 2}).content.decode()
    assert drawn_board(page_svg(html2)) == AFTER_4_1
    # every ply against the engine
    pos = engine.Position.initial()
    for n, pit in enumerate(recorded["moves1"][:12], start=1):
        pos = engine.play(pos, pit).position
        html = client.get(url, {"ply": n}).content.decode()
        assert drawn_board(page_svg(html)) == list(pos.board), f"ply {n}"


def test_titles_names_stones_and_navigation(client, recorded):
    s, t, m = recorded["set1"], recorded["t"], recorded["m1"]
    html = client.get(reverse("set-replay", args=[s.id]), {"ply": 2}).content.decode()
    text = " ".join(html.split())
    w, b = m.white.player.full_name, m.black.player.full_name
    assert f"<title>{w} – {b} · Set 1 · {t.name}</title>" in text
    assert f"Set 1 · round 1, board {m.board}" in text
    assert "Recorded stones (White–Black): <strong>%d–%d</strong>" % recorded["stones1"] in text
    n = len(recorded["moves1"])
    for label, ply in (("First", 0), ("Previous", 1), ("Next", 3), ("Last", n)):
        assert re.search(rf'href="\?ply={ply}#board"[^>]*>[^<]*{label}', html), label
    # a link for every ply of the move list, the current one marked
    assert len(re.findall(r'data-ply="\d+"', html)) == n
    assert re.search(r'aria-current="step" data-ply="2"', html)


def test_ply_is_clamped_and_the_last_ply_shows_the_final_stores(client, recorded):
    s = recorded["set1"]
    w, b = recorded["stones1"]
    for q in ("999", "-3", "x"):
        html = client.get(reverse("set-replay", args=[s.id]), {"ply": q}).content.decode()
        board = drawn_board(page_svg(html))
        if q == "999":
            assert board == [0] * 6 + [w] + [0] * 6 + [b]  # white first mover: cell 6 is white's store
            assert "set over" in html
        else:
            assert board == [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0]


def test_each_ply_says_what_happened(client, recorded):
    """Captures (Kural 13B even rule / 13E empty pit) and the end-of-set sweep, computed with the engine."""
    s, moves = recorded["set2"], recorded["moves2"]
    pos = engine.Position.initial()
    expected = {}
    for n, pit in enumerate(moves, start=1):
        r = engine.play(pos, pit)
        if r.capture is engine.Capture.EVEN:
            expected[n] = f"captures {r.captured} (even rule)"
        elif r.capture is engine.Capture.EMPTY_PIT:
            expected[n] = f"captures {r.captured} (empty pit)"
        elif r.extra_turn and not r.set_over:
            expected[n] = "extra turn"
        pos = r.position
    assert expected, "the sample set has captures or extra turns"
    html = client.get(reverse("set-replay", args=[s.id])).content.decode()
    items = dict(
        (int(n), " ".join(body.split()))
        for n, body in re.findall(r'data-ply="(\d+)">(.*?)</a>', html, re.S)
    )
    for n, note in expected.items():
        assert note in items[n], (n, items[n])
    last = engine.play(engine.replay(moves[:-1]), moves[-1])
    assert last.set_over
    sweep_note = "set over"
    if any(last.sweep):
        colours = ("Black", "White")  # set 2: black is the first mover
        sweep_note += ": " + ", ".join(
            f"{last.sweep[p]} left in the pits go to {colours[p]}" for p in (0, 1) if last.sweep[p]
        )
    assert sweep_note in items[len(moves)]


def test_black_starts_set_2_and_white_is_drawn_at_the_bottom(client, recorded):
    s = recorded["set2"]
    html = client.get(reverse("set-replay", args=[s.id])).content.decode()
    svg = page_svg(html)
    root = ET.fromstring(svg)
    assert root.get("data-flip") == "1" and root.get("data-to-move") == "0"  # black (player 0) to move
    assert "Black moved first" in html and "Black to move" in html
    first = recorded["moves2"][0]
    html1 = client.get(reverse("set-replay", args=[s.id]), {"ply": 1}).content.decode()
    assert f"White plays pit {first}" not in html1 and f"Black plays pit {first}" in html1
    # side=black turns the board: the first mover (black) at the bottom
    root_b = ET.fromstring(page_svg(client.get(reverse("set-replay", args=[s.id]), {"side": "black"}).content.decode()))
    assert root_b.get("data-flip") == "0"


def test_set_without_moves_says_so(client, recorded):
    html = client.get(reverse("set-replay", args=[recorded["plain"].id])).content.decode()
    assert "No move record was entered for this set." in html and "<svg" not in html


def test_unpublished_round_is_hidden_from_the_public(client, recorded):
    s = recorded["set1"]
    Round.objects.filter(pk=recorded["round"].pk).update(status=Round.Status.PAIRED)
    url = reverse("set-replay", args=[s.id])
    assert client.get(url).status_code == 404
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
    client.force_login(referee())
    assert client.get(url).status_code == 200
    client.force_login(recorded["org"])
    assert client.get(url).status_code == 200
    Round.objects.filter(pk=recorded["round"].pk).update(status=Round.Status.CLOSED)
    client.logout()
    assert client.get(url).status_code == 200


def test_unknown_set_is_404(client, db):
    assert client.get("/games/sets/999999/").status_code == 404


def test_round_page_links_recorded_sets_to_their_replay(client, recorded):
    t, rnd = recorded["t"], recorded["round"]
    html = client.get(reverse("round-detail", args=[t.slug, rnd.number])).content.decode()
    for key in ("set1", "set2"):
        assert reverse("set-replay", args=[recorded[key].id]) in html
    assert reverse("set-replay", args=[recorded["plain"].id]) not in html


def test_kale_set_is_replayed_with_its_castles(client, db):
    """A kale tournament (004): the castle built by a ply is marked on the board and in the move list."""
    org = organiser()
    t = services.tournament_create(name="Kale Kupası", rounds_total=1, variant="kale", sets_per_match=1, created_by=org)
    for rating in (1900, 1800):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=rating))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="kale")
    round_services.round_publish(round=rnd, user=org)
    for seed in range(200):  # a random kale set in which a castle is built
        rng = random.Random(seed)
        pos, moves, built = engine.Position.initial("kale"), [], None
        while not pos.is_over:
            pit = rng.choice([m.pit for m in engine.legal_moves(pos)])
            r = engine.play(pos, pit)
            moves.append(pit)
            if r.castle_built is not None and built is None:
                built = (len(moves), r.castle_built, r.captured)
            pos = r.position
        if built:
            break
    assert built, "no castle in 200 random kale sets"
    m = rnd.matches.get(board=1)
    result_services.match_result_enter(match=m, sets=[SetInput(*pos.stores, moves=" ".join(map(str, moves)))], user=org)
    s = m.sets.get()
    ply, castle_cell, taken = built
    html = client.get(reverse("set-replay", args=[s.id]), {"ply": ply}).content.decode()
    svg = page_svg(html)
    assert drawn_board(svg) == list(engine.replay(moves[:ply], "kale").board)
    assert cell(svg, castle_cell).find(f"{SVG}path[@class='castle']") is not None
    assert f"builds a castle, takes {taken}" in html
    before = page_svg(client.get(reverse("set-replay", args=[s.id]), {"ply": ply - 1}).content.decode())
    assert cell(before, castle_cell).find(f"{SVG}path[@class='castle']") is None


def test_a_stored_record_that_breaks_the_rules_is_replayed_up_to_the_bad_ply(client, recorded):
    from tournaments.models import SetResult

    s = recorded["set1"]
    # white 4 (extra turn), white 4, black 4 (extra turn), black 4, then white's pit 4 is empty
    SetResult.objects.filter(pk=s.pk).update(moves="4 4 4 4 4")
    html = client.get(reverse("set-replay", args=[s.id]), {"ply": 99}).content.decode()
    assert "ply 5: pit 4 of first player is empty" in html
    assert len(re.findall(r'data-ply="\d+"', html)) == 4
    assert drawn_board(page_svg(html)) == [4, 4, 4, 0, 6, 5, 1, 4, 4, 4, 0, 6, 5, 1]


def test_a_withdrawal_ends_the_replay_with_the_stores_at_that_moment(client, db):
    """Kural 14.5: the record stops while the set goes on; the last ply says who withdrew."""
    org = organiser()
    t = services.tournament_create(name="Çekilme Kupası", rounds_total=1, created_by=org)
    for rating in (1900, 1800):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=rating))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="cekilme")
    round_services.round_publish(round=rnd, user=org)
    rng = random.Random(4)
    while True:
        pos, moves = engine.Position.initial(), []
        while not pos.is_over and max(pos.stores) < 25:
            pit = rng.choice([m.pit for m in engine.legal_moves(pos)])
            moves.append(pit)
            pos = engine.play(pos, pit).position
        if not pos.is_over:
            break
    w, b = pos.stores  # set 1: white is the first mover
    m = result_services.match_result_enter(
        match=rnd.matches.get(board=1),
        sets=[SetInput(w, b, termination="white_withdrew", moves=" ".join(map(str, moves)))], user=org,
    )
    s = m.sets.get()
    html = client.get(reverse("set-replay", args=[s.id]), {"ply": len(moves)}).content.decode()
    assert drawn_board(page_svg(html)) == list(pos.board)
    assert "white withdrew (Kural 14.5)." in html and "Final stores" not in html
    assert "Recorded stones (White–Black): <strong>%d–%d</strong>" % (s.white_stones, s.black_stones) in html
