"""The demo's Ankara Swiss (``load_sample_data``: 16 players, rounds 1–2 played, round 3 waiting) driven
through a day with mistakes, by the services and the REST API:

pair round 3 → a late player turns up: delete the pairing (with a reason) → add the player with a
half-point bye for each missed round → pair round 3 again → publish → the referee enters every board
(real sets) → close → the organiser corrects board 1 through the API (reason + version) → publish the
standings → ``GET /api/tournaments/{slug}/history/`` lists every step, newest first, with who, why,
before and after; the published standings equal a fresh computation.

Expected values are worked out here from the results entered (RULES.md: 2–0 ends a 3-set match, equal
set points draw, 1 / ½ / 0), not read back from the code under test.
"""
from __future__ import annotations

import datetime as dt
import io
from collections import defaultdict
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone
from rest_framework.test import APIClient

from federation.errors import Conflict
from federation.models import Player
from federation.sample_data import DEMO_TOURNAMENT
from tournaments import selectors
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db

DELETE_REASON = "Geç gelen oyuncu eşlendirmeye alınacak"
CORRECT_REASON = "Hakem kağıdında 2. ve 3. set yanlış yazılmış"

# Round 3 results, by board (cycled): sets as (white stones, black stones), and the match points they give.
PLANS = [
    ([(30, 18), (26, 22)], (1.0, 0.0)),              # 2–0 white
    ([(20, 28), (30, 18), (24, 24)], (0.5, 0.5)),    # 1–1 and a drawn set: equal set points, a draw
    ([(18, 30), (22, 26)], (0.0, 1.0)),              # 2–0 black
    ([(28, 20), (19, 29), (31, 17)], (1.0, 0.0)),    # 2–1 white
]
# Board 1 is entered as PLANS[0] (white wins 2–0) and corrected to a 2–1 win of black.
CORRECTED_SETS = [(30, 18), (22, 26), (18, 30)]


def _api(user=None) -> APIClient:
    c = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        c.force_authenticate(user)
    return c


def _set_texts(sets) -> list[str]:
    return [f"{w}-{b}" for w, b in sets]


def _label(entry: Entry) -> str:
    """How the history names an entry: ``"<start no>. <Last, First>"``."""
    return f"{entry.start_no}. {entry.player.full_name}"


def _points_by_start_no(t: Tournament, up_to_round: int) -> dict[int, float]:
    """Match points per starting number, summed straight from the boards (games and byes)."""
    points: dict[int, float] = defaultdict(float)
    for e in t.entries.all():
        points[e.start_no] += 0.0
    for m in Match.objects.filter(round__tournament=t, round__number__lte=up_to_round).select_related("white", "black"):
        points[m.white.start_no] += float(m.white_points)
        if m.black is not None:
            points[m.black.start_no] += float(m.black_points)
    return dict(points)


@pytest.fixture
def ankara():
    call_command("load_sample_data", stdout=io.StringIO())
    t = Tournament.objects.get(name=DEMO_TOURNAMENT)
    users = get_user_model().objects
    return t, users.get(username="organiser"), users.get(username="referee")


def test_ankara_day_with_a_deleted_pairing_a_late_player_and_a_correction(ankara):
    t, org, ref = ankara
    slug = t.slug
    assert [(r.number, r.status) for r in t.rounds.order_by("number")] == [(1, "closed"), (2, "closed")]
    assert t.entries.count() == 16
    before_points = _points_by_start_no(t, 2)
    started = timezone.now()

    # --- 1. pair round 3: 16 players, 8 games, no bye -------------------------------------------
    r3 = round_services.round_pair(tournament=t, user=org)
    assert (r3.number, r3.status) == (3, Round.Status.PAIRED)
    first_pairing = list(r3.matches.order_by("board").values_list("board", "kind"))
    assert first_pairing == [(b, "game") for b in range(1, 9)]

    # a late player cannot be added while round 3 is paired but not played: the product says what to do
    late = Player.objects.create(
        federation_id="TMF-0901", first_name="Kemal", last_name="Geçkalan", sex="m", birth_year=1994,
        city="Ankara", rating=1450,
    )
    with pytest.raises(Conflict) as refused:
        entry_services.entry_add(tournament=t, player=late, user=org, missed_rounds="half")
    assert refused.value.code == "round_paired_not_played"
    assert not t.entries.filter(player=late).exists()

    # --- 2. delete the pairing of round 3, with a reason -----------------------------------------
    assert round_services.round_delete(round=r3, user=org, reason=DELETE_REASON) == 3
    assert not t.rounds.filter(number=3).exists()
    assert not Match.objects.filter(round__tournament=t, round__number=3).exists()

    # --- 3. add the late player with a half-point bye for each missed round -----------------------
    entry = entry_services.entry_add(tournament=t, player=late, user=org, missed_rounds="half")
    assert entry.start_no == 17 and entry.rating == 1450
    byes = list(
        Match.objects.filter(round__tournament=t, white=entry).order_by("round__number")
        .values_list("round__number", "board", "kind", "bye_kind", "white_points", "black")
    )
    assert byes == [(1, 9, "bye", "half", Decimal("0.5"), None), (2, 9, "bye", "half", Decimal("0.5"), None)]
    table = _api(org).get(f"/api/tournaments/{slug}/standings/").json()
    assert table["rounds"] == 2
    row = next(r for r in table["rows"] if r["start_no"] == 17)
    assert row["name"] == "Geçkalan, Kemal" and row["points"] == 1.0
    assert len(table["rows"]) == 17
    # nobody else's points moved
    assert {r["start_no"]: r["points"] for r in table["rows"] if r["start_no"] != 17} == before_points

    # --- 4. pair round 3 again: 17 players → 8 games and the pairing-allocated bye --------------
    r3 = round_services.round_pair(tournament=t, user=org)
    boards = list(r3.matches.select_related("white__player", "black__player").order_by("board"))
    assert [m.kind for m in boards] == ["game"] * 8 + ["bye"]
    pab = boards[-1]
    assert pab.bye_kind == "pab" and pab.white_points == t.bye_points == Decimal("1.0")
    late_boards = [m for m in boards if entry.id in (m.white_id, m.black_id)]
    assert len(late_boards) == 1  # on a board, or the one who has the pairing bye
    paired = [e for m in boards for e in (m.white_id, m.black_id) if e is not None]
    assert sorted(paired) == sorted(t.entries.values_list("id", flat=True))  # everyone exactly once
    # no earlier bye-holder gets the pairing bye (C.04.1 f), and nobody meets an old opponent
    assert not Match.objects.filter(round__tournament=t, round__number__lt=3, kind="bye", white=pab.white).exists()
    for m in boards[:8]:
        assert not Match.objects.filter(round__tournament=t, round__number__lt=3, kind="game").filter(
            white__in=[m.white, m.black], black__in=[m.white, m.black]
        ).exists(), m.board

    # --- 5. publish, 6. every board's result by the referee --------------------------------------
    round_services.round_publish(round=r3, user=org)
    expected_r3: dict[int, tuple[list, tuple[float, float]]] = {}
    for i, m in enumerate(boards[:8]):
        sets, pts = PLANS[i % len(PLANS)]
        done = result_services.match_result_enter(match=m, sets=[SetInput(w, b) for w, b in sets], user=ref)
        assert (float(done.white_points), float(done.black_points)) == pts, m.board
        assert list(done.sets.order_by("number").values_list("white_stones", "black_stones")) == sets
        expected_r3[m.board] = (sets, pts)

    # --- 7. close ---------------------------------------------------------------------------------
    round_services.round_close(round=r3, user=org)
    closed_table = _api(org).get(f"/api/tournaments/{slug}/standings/").json()
    assert closed_table["rounds"] == 3
    closed_points = {r["start_no"]: r["points"] for r in closed_table["rows"]}
    expected = dict(before_points)
    expected[17] = 1.0
    for m in boards:
        wp, bp = (1.0, None) if m.kind == "bye" else expected_r3[m.board][1]
        expected[m.white.start_no] += wp
        if m.black is not None:
            expected[m.black.start_no] += bp
    assert closed_points == expected

    # --- 8. the organiser corrects board 1 through the API --------------------------------------
    b1 = boards[0]
    url = f"/api/tournaments/{slug}/rounds/3/boards/1/result/"
    body = {"sets": [{"white_store": w, "black_store": b} for w, b in CORRECTED_SETS], "reason": CORRECT_REASON}
    # a referee cannot correct a closed round
    r = _api(ref).post(url, {**body, "version": 2}, format="json")
    assert r.status_code == 409 and r.json()["error"]["code"] == "round_closed", r.content
    # without the version seen: 428 with the current result
    r = _api(org).post(url, body, format="json")
    assert r.status_code == 428, r.content
    assert r.json()["error"]["field"] == "version"
    assert r.json()["error"]["current"]["version"] == 2
    assert [(x["white_stones"], x["black_stones"]) for x in r.json()["error"]["current"]["sets"]] == PLANS[0][0]
    # without a reason: 400 on "reason"
    r = _api(org).post(url, {"sets": body["sets"], "version": 2}, format="json")
    assert r.status_code == 400 and r.json()["error"]["field"] == "reason", r.content
    # the correction itself
    r = _api(org).post(url, {**body, "version": 2}, format="json")
    assert r.status_code == 200, r.content
    out = r.json()
    assert r["ETag"] == '"3"'
    assert (out["white_points"], out["black_points"], out["result"], out["version"]) == (0.0, 1.0, "0-1", 3)
    assert [(x["white_stones"], x["black_stones"]) for x in out["sets"]] == CORRECTED_SETS
    # the same correction sent again (a double tap) changes nothing and is no error
    r = _api(org).post(url, {**body, "version": 2}, format="json")
    assert r.status_code == 200 and r.json()["version"] == 3, r.content
    # a different result with the stale version loses
    other = [{"white_store": 30, "black_store": 18}, {"white_store": 30, "black_store": 18}]
    r = _api(org).post(url, {**body, "sets": other, "version": 2}, format="json")
    assert r.status_code == 409 and r.json()["error"]["current"]["version"] == 3, r.content
    b1.refresh_from_db()
    assert (b1.white_points, b1.black_points, b1.version) == (Decimal("0"), Decimal("1"), 3)
    assert Round.objects.get(pk=r3.pk).status == "closed"  # corrected, not reopened

    # --- 9. publish the standings ------------------------------------------------------------------
    r = _api(org).post(f"/api/tournaments/{slug}/standings/publish/")
    assert r.status_code == 200, r.content
    assert r.json()["status"] == "running"  # 3 of 5 rounds

    # the standings after the correction: board 1's white lost a point, its black gained one
    t.refresh_from_db()
    assert t.standings_round == 3
    public = _api().get(f"/api/tournaments/{slug}/standings/").json()
    assert public["rounds"] == 3
    points = {row["start_no"]: row["points"] for row in public["rows"]}
    w1, k1 = b1.white.start_no, b1.black.start_no
    assert points[w1] == closed_points[w1] - 1.0
    assert points[k1] == closed_points[k1] + 1.0
    assert {n: p for n, p in points.items() if n not in (w1, k1)} == {
        n: p for n, p in closed_points.items() if n not in (w1, k1)
    }
    expected[w1] -= 1.0
    expected[k1] += 1.0
    assert points == expected  # from the boards as entered, worked out here
    assert points == _points_by_start_no(t, 3)  # and straight from the database
    fresh = selectors.standings_as_dicts(
        selectors.tournament_standings(tournament=Tournament.objects.get(pk=t.pk), public_only=True, lang="en")
    )
    assert public["rows"] == fresh
    ranked = [row["points"] for row in public["rows"]]
    assert ranked == sorted(ranked, reverse=True)
    assert [row["rank"] for row in public["rows"]][0] == 1

    # --- 10. the history, newest first ----------------------------------------------------------------
    assert _api().get(f"/api/tournaments/{slug}/history/").status_code in (401, 403)
    assert _api(ref).get(f"/api/tournaments/{slug}/history/").status_code == 403
    r = _api(org).get(f"/api/tournaments/{slug}/history/")
    assert r.status_code == 200, r.content
    items = r.json()
    ours = [i for i in items if dt.datetime.fromisoformat(i["at"]) >= started]
    assert [(i["action"], i["user"]) for i in ours] == [
        ("standings.publish", "organiser"),
        ("result.correct", "organiser"),
        ("round.close", "organiser"),
        *[("result.enter", "referee")] * 8,
        ("round.publish", "organiser"),
        ("round.pair", "organiser"),
        ("entry.add", "organiser"),
        ("round.delete", "organiser"),
        ("round.pair", "organiser"),
    ]
    ats = [dt.datetime.fromisoformat(i["at"]) for i in items]
    assert ats == sorted(ats, reverse=True)
    # the refused attempts (late entry while paired, referee, no version, no reason, stale version) left nothing
    assert items[len(ours)]["action"] == "standings.publish"  # the demo's publication after round 2
    assert dt.datetime.fromisoformat(items[len(ours)]["at"]) < started
    (publish, correct, close, *entered, publish_r3, pair2, add, delete, pair1) = ours

    assert publish["object"] == "Tournament" and publish["reason"] == ""
    assert publish["before"]["standings_round"] == 2 and publish["after"]["standings_round"] == 3
    assert "status" not in publish["after"]  # still running

    assert (correct["object"], correct["round"], correct["board"], correct["reason"]) == (
        "Round 3, board 1", 3, 1, CORRECT_REASON
    )
    assert correct["before"] == {"white_points": 1.0, "black_points": 0.0, "version": 2,
                                 "sets": _set_texts(PLANS[0][0])}
    assert correct["after"] == {"white_points": 0.0, "black_points": 1.0, "version": 3,
                                "sets": _set_texts(CORRECTED_SETS)}

    assert (close["object"], close["round"], close["reason"]) == ("Round 3", 3, "")
    assert (close["before"], close["after"]) == ({"status": "published"}, {"status": "closed"})

    assert [i["board"] for i in entered] == list(range(8, 0, -1))
    for i in entered:
        sets, (wp, bp) = expected_r3[i["board"]]
        assert i["object"] == f"Round 3, board {i['board']}" and i["round"] == 3
        assert i["before"] == {"white_points": None, "black_points": None, "version": 1, "sets": []}
        assert i["after"] == {"white_points": wp, "black_points": bp, "version": 2, "sets": _set_texts(sets)}

    assert (publish_r3["object"], publish_r3["before"], publish_r3["after"]) == (
        "Round 3", {"status": "paired"}, {"status": "published"}
    )

    assert pair2["object"] == "Round 3" and pair2["round"] == 3 and pair2["before"] is None
    assert pair2["after"]["Round 3"] == {"number": 3, "status": "paired", "modified_by_hand": False}
    assert sorted(k for k in pair2["after"] if k != "Round 3") == sorted(f"Round 3, board {b}" for b in range(1, 10))
    assert pair2["after"]["Round 3, board 9"]["kind"] == "bye"
    assert pair2["after"]["Round 3, board 9"]["bye_kind"] == "pab"
    late_label = _label(Entry.objects.select_related("player").get(pk=entry.pk))
    assert late_label == "17. Geçkalan, Kemal"
    assert sum(late_label in (v["white"], v["black"]) for k, v in pair2["after"].items() if k != "Round 3") == 1

    assert add["reason"] == "" and add["before"] is None
    assert add["after"][f"Player {late_label}"] == {
        "start_no": 17, "player": "Geçkalan, Kemal", "rating": 1450, "withdrawn": False,
        "withdrawn_after_round": None,
    }
    for n in (1, 2):
        bye = add["after"][f"Round {n}, board 9"]
        assert (bye["kind"], bye["bye_kind"], bye["white"], bye["black"], bye["white_points"]) == (
            "bye", "half", late_label, None, 0.5
        )

    assert (delete["object"], delete["round"], delete["reason"], delete["after"]) == ("Round 3", 3, DELETE_REASON, None)
    assert delete["before"]["Round 3"] == {"number": 3, "status": "paired", "modified_by_hand": False}
    assert sorted(k for k in delete["before"] if k != "Round 3") == sorted(f"Round 3, board {b}" for b in range(1, 9))

    assert pair1["object"] == "Round 3" and pair1["before"] is None
    assert sorted(k for k in pair1["after"] if k != "Round 3") == sorted(f"Round 3, board {b}" for b in range(1, 9))
    # the boards deleted are the boards first paired
    assert {k: v for k, v in delete["before"].items() if k != "Round 3"} == {
        k: v for k, v in pair1["after"].items() if k != "Round 3"
    }

    # the board filter keeps what touched board 1 of round 3: correction, entry, pairing, deletion, pairing
    r = _api(org).get(f"/api/tournaments/{slug}/history/", {"round": 3, "board": 1})
    assert [i["action"] for i in r.json()] == ["result.correct", "result.enter"]  # that board alone


def test_history_names_players_by_their_current_starting_numbers(ankara):
    """The history shows players as "<starting number>. <name>"; the number must be the one the player
    has in the tournament (the pairing list's), not the one of the moment the entry was created — the
    demo entered its 16 players in federation-id order, then starting numbers were re-sorted by rating."""
    t, org, _ref = ankara
    r3 = round_services.round_pair(tournament=t, user=org)
    items = _api(org).get(f"/api/tournaments/{t.slug}/history/").json()
    pair = items[0]
    assert pair["action"] == "round.pair"
    wrong = {}
    for m in r3.matches.select_related("white__player", "black__player").order_by("board"):
        shown = pair["after"][f"Round 3, board {m.board}"]
        for side, e in (("white", m.white), ("black", m.black)):
            if e is not None and shown[side] != _label(e):
                wrong[f"board {m.board} {side[:5]}"] = (shown[side], _label(e))
    assert wrong == {}, f"history label vs pairing list: {wrong}"
