"""Recovering from mistakes: corrections after close, undoing a pairing, late entries with byes,
withdrawing byes and withdrawals, editing and deleting tournaments, stale writes, and the history
of every step (services, API and pages)."""
from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from federation.errors import Conflict, PermissionDenied, PreconditionRequired, ValidationFailed
from ratings.models import RatingEvent
from tests.factories import PlayerFactory, UserFactory, organiser, referee
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.history import selectors as history
from tournaments.models import Absence, Entry, Match, Round, Tournament
from tournaments.results.services import SetInput

pytestmark = pytest.mark.django_db

WHITE_WINS = [SetInput(30, 18), SetInput(26, 22)]
BLACK_WINS = [SetInput(18, 30), SetInput(22, 26)]


def api(user=None) -> APIClient:
    c = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        c.force_authenticate(user)
    return c


def staff_user():
    return UserFactory(username="staff", is_staff=True)


@pytest.fixture(autouse=True)
def english():
    """History labels in English (the API's language for them)."""
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def on_commit_now(monkeypatch):
    """Run on-commit callbacks (the rating runs) at once: these tests live in one rolled-back transaction."""
    from django.db import transaction

    monkeypatch.setattr(transaction, "on_commit", lambda func, using=None, robust=False: func())


@pytest.fixture
def org():
    return organiser(username="orhan")


@pytest.fixture
def ref():
    return referee(username="rana")


def make_event(org, *, rounds=2, n=4, name="Hata Turnuvası"):
    t = services.tournament_create(name=name, rounds_total=rounds, created_by=org, start_date=None)
    for i in range(n):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=1800 - 100 * i, federation_id=f"MK-{i + 1}"))
    return t


def play_round(t, org, ref, *, results=None):
    """Pair, publish, enter white wins on every game (or ``results[board]``), close."""
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="seed")
    round_services.round_publish(round=rnd, user=org)
    for m in rnd.matches.filter(kind="game").order_by("board"):
        sets = (results or {}).get(m.board, WHITE_WINS)
        result_services.match_result_enter(match=m, sets=sets, user=ref)
    round_services.round_close(round=rnd, user=org)
    return rnd


def points_of(t) -> dict[str, float]:
    from tournaments.selectors import tournament_standings

    return {line.name: line.points for line in tournament_standings(tournament=t).lines}


# --------------------------------------------------------------------------------------------
# 1. Corrections after close
# --------------------------------------------------------------------------------------------


def test_organiser_corrects_a_closed_round_with_a_reason_and_standings_follow(org, ref):
    t = make_event(org)
    rnd = play_round(t, org, ref)
    m = rnd.matches.get(board=1)
    white, black = m.white.player.full_name, m.black.player.full_name
    assert (points_of(t)[white], points_of(t)[black]) == (1.0, 0.0)
    v0 = Tournament.objects.get(pk=t.pk).version

    with pytest.raises(Conflict) as err:  # a referee may not touch a closed round
        result_services.match_result_enter(match=m, sets=BLACK_WINS, user=ref, expected_version=m.version, reason="x")
    assert err.value.code == "round_closed"
    with pytest.raises(ValidationFailed) as err:  # the organiser must say why
        result_services.match_result_enter(match=m, sets=BLACK_WINS, user=org, expected_version=m.version)
    assert err.value.field == "reason"

    m = result_services.match_result_enter(
        match=m, sets=BLACK_WINS, user=org, expected_version=m.version, reason="Hakem kağıdında 18-30 yazıyor"
    )
    assert (m.white_points, m.black_points) == (Decimal("0"), Decimal("1"))
    assert (points_of(t)[white], points_of(t)[black]) == (0.0, 1.0)
    assert Round.objects.get(pk=rnd.pk).status == "closed"  # the round stays closed
    assert Tournament.objects.get(pk=t.pk).version == v0 + 1  # caches keyed on the version are stale now

    item = history.tournament_history(tournament=t, round_number=1, board=1, limit=1)[0]
    assert item.action == "result.correct"
    assert item.user == "orhan"
    assert item.reason == "Hakem kağıdında 18-30 yazıyor"
    assert item.object == "Round 1, board 1"
    assert item.before["sets"] == ["30-18", "26-22"] and item.after["sets"] == ["18-30", "22-26"]
    assert (item.before["white_points"], item.after["white_points"]) == (1.0, 0.0)


def test_a_correction_does_not_re_pair_later_rounds(org, ref):
    t = make_event(org)
    play_round(t, org, ref)
    r2 = round_services.round_pair(tournament=t, user=org)
    boards_before = list(r2.matches.values_list("board", "white_id", "black_id"))
    m = Match.objects.get(round__tournament=t, round__number=1, board=1)
    result_services.match_result_enter(match=m, sets=BLACK_WINS, user=org, expected_version=m.version, reason="slip")
    assert list(r2.matches.values_list("board", "white_id", "black_id")) == boards_before


def test_correcting_a_rated_event_re_rates_it(org, ref):
    t = make_event(org, rounds=1)
    rnd = play_round(t, org, ref)
    services.standings_publish(tournament=t, user=org)
    assert RatingEvent.objects.filter(tournament=t).exists()
    m = rnd.matches.get(board=1)
    winner = m.white.player
    winner.refresh_from_db()
    rated_before = winner.rating
    result_services.match_result_enter(match=m, sets=BLACK_WINS, user=org, expected_version=m.version, reason="wrong slip")
    winner.refresh_from_db()
    assert winner.rating < rated_before  # the former winner now lost: the re-rating ran on commit (eager)
    change = RatingEvent.objects.get(tournament=t).changes.get(player=winner)
    assert change.rating_after == pytest.approx(winner.rating, abs=0.5)


def test_result_api_corrects_with_reason_and_needs_the_version(org, ref):
    t = make_event(org)
    rnd = play_round(t, org, ref)
    url = f"/api/tournaments/{t.slug}/rounds/1/boards/1/result/"
    sets = [{"white_store": 18, "black_store": 30}, {"white_store": 22, "black_store": 26}]
    m = rnd.matches.get(board=1)

    r = api(ref).post(url, {"sets": sets, "version": m.version, "reason": "x"}, format="json")
    assert r.status_code == 409 and r.json()["error"]["code"] == "round_closed"
    r = api(org).post(url, {"sets": sets, "reason": "slip"}, format="json")
    assert r.status_code == 428
    body = r.json()["error"]
    assert body["field"] == "version" and body["current"]["version"] == m.version
    assert body["current"]["sets"][0] == {"number": 1, "white_stones": 30, "black_stones": 18, "termination": "completed"}
    r = api(org).post(url, {"sets": sets, "version": m.version - 1, "reason": "slip"}, format="json")
    assert r.status_code == 409 and r.json()["error"]["current"]["white_points"] == 1.0
    r = api(org).post(url, {"sets": sets, "reason": "slip"}, format="json", HTTP_IF_MATCH=f'"{m.version}"')
    assert r.status_code == 200, r.content
    assert r.json()["white_points"] == 0.0 and r["ETag"] == f'"{m.version + 1}"'
    r = api(org).post(url, {"sets": sets, "reason": "slip"}, format="json", HTTP_IF_MATCH="abc")
    assert r.status_code == 400 and r.json()["error"]["field"] == "If-Match"


def test_first_entry_needs_no_version_but_a_change_does(org, ref):
    t = make_event(org)
    rnd = round_services.round_pair(tournament=t, user=org)
    round_services.round_publish(round=rnd, user=org)
    m = rnd.matches.get(board=1)
    m = result_services.match_result_enter(match=m, sets=WHITE_WINS, user=ref)
    with pytest.raises(PreconditionRequired):
        result_services.match_result_enter(match=m, sets=BLACK_WINS, user=ref)
    assert Match.objects.get(pk=m.pk).white_points == Decimal("1")


def test_correction_page_asks_the_organiser_for_a_reason(org, ref):
    t = make_event(org)
    play_round(t, org, ref)
    m = Match.objects.get(round__tournament=t, round__number=1, board=1)
    c = Client()
    c.force_login(ref)
    page = c.get(f"/t/{t.slug}/round/1/board/1/").content.decode()
    assert 'name="reason"' not in page and "disabled" in page
    c.force_login(org)
    page = c.get(f"/t/{t.slug}/round/1/board/1/").content.decode()
    assert 'name="reason"' in page
    form = {"version": m.version, "forfeit": "", "set1_white": 18, "set1_black": 30, "set1_termination": "completed",
            "set2_white": 22, "set2_black": 26, "set2_termination": "completed"}
    r = c.post(f"/t/{t.slug}/round/1/board/1/", form)
    assert r.status_code == 200 and Match.objects.get(pk=m.pk).white_points == Decimal("1")  # no reason: refused
    r = c.post(f"/t/{t.slug}/round/1/board/1/", {**form, "reason": "kağıt yanlış okunmuş"})
    assert r.status_code == 302
    assert Match.objects.get(pk=m.pk).white_points == Decimal("0")
    page = c.get(f"/t/{t.slug}/round/1/board/1/").content.decode()
    assert "kağıt yanlış okunmuş" in page  # the board's history


# --------------------------------------------------------------------------------------------
# 2. Undo the last pairing; late entries
# --------------------------------------------------------------------------------------------


def test_delete_the_last_pairing_and_pair_again(org, ref):
    t = make_event(org)
    play_round(t, org, ref)
    r2 = round_services.round_pair(tournament=t, user=org)
    round_services.round_publish(round=r2, user=org)
    r = api(org).delete(f"/api/tournaments/{t.slug}/rounds/1/", {"reason": "x"}, format="json")
    assert r.status_code == 409  # not the last round
    r = api(ref).delete(f"/api/tournaments/{t.slug}/rounds/2/", format="json")
    assert r.status_code == 403
    r = api(org).delete(f"/api/tournaments/{t.slug}/rounds/2/", {"reason": "wrong bye"}, format="json")
    assert r.status_code == 204
    assert list(t.rounds.values_list("number", flat=True)) == [1]
    again = round_services.round_pair(tournament=t, user=org)
    assert again.number == 2 and again.matches.count() == 2
    item = history.tournament_history(tournament=t, limit=2)[1]
    assert (item.action, item.object, item.reason, item.after) == ("round.delete", "Round 2", "wrong bye", None)
    assert item.before["Round 2"]["status"] == "published"


def test_a_round_with_a_result_cannot_be_deleted(org, ref):
    t = make_event(org)
    rnd = round_services.round_pair(tournament=t, user=org)
    round_services.round_publish(round=rnd, user=org)
    result_services.match_result_enter(match=rnd.matches.get(board=2), sets=WHITE_WINS, user=ref)
    with pytest.raises(Conflict) as err:
        round_services.round_delete(round=rnd, user=org)
    assert "2" in err.value.message
    assert Round.objects.filter(pk=rnd.pk).exists()


def test_deleting_round_one_removes_the_coin_toss_and_returns_to_draft(org):
    t = make_event(org)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="a")
    round_services.round_delete(round=rnd, user=org)
    t.refresh_from_db()
    assert t.status == "draft" and not t.rounds.exists()
    assert round_services.round_pair(tournament=t, user=org, coin_seed="b").coin_toss.seed == "b"


def test_late_entry_is_refused_while_the_round_is_unplayed_then_gets_byes(org, ref):
    t = make_event(org, rounds=3)
    play_round(t, org, ref)
    r2 = round_services.round_pair(tournament=t, user=org)
    late = PlayerFactory(federation_id="LATE", rating=2000)
    with pytest.raises(Conflict) as err:
        entry_services.entry_add(tournament=t, player=late, user=org, missed_rounds="half")
    assert err.value.code == "round_paired_not_played" and err.value.extra == {"round": 2}
    round_services.round_delete(round=r2, user=org, reason="late entry")
    with pytest.raises(ValidationFailed):
        entry_services.entry_add(tournament=t, player=late, user=org, missed_rounds="full")
    entry = entry_services.entry_add(tournament=t, player=late, user=org, missed_rounds="half")
    assert entry.start_no == 5  # late entries take the next number (C.04.2)
    bye = Match.objects.get(round__tournament=t, white=entry)
    assert (bye.round.number, bye.kind, bye.bye_kind, bye.white_points, bye.board) == (1, "bye", "half", Decimal("0.5"), 3)
    assert points_of(t)[late.full_name] == 0.5
    r2 = round_services.round_pair(tournament=t, user=org)
    seen = set(r2.matches.values_list("white_id", flat=True)) | set(r2.matches.values_list("black_id", flat=True))
    assert entry.id in seen  # paired (or given the pairing-allocated bye) in round 2


# --------------------------------------------------------------------------------------------
# 7. Byes and withdrawals have a way back
# --------------------------------------------------------------------------------------------


def test_withdraw_a_bye_request_and_undo_a_withdrawal(org, ref):
    t = make_event(org)
    e4 = t.entries.get(start_no=4)
    r = api(org).post(f"/api/tournaments/{t.slug}/byes/", {"start_no": 4, "round_number": 1, "kind": "half"},
                      format="json")
    assert r.status_code == 201 and Absence.objects.filter(entry=e4, round_number=1).exists()
    r = api(org).delete(f"/api/tournaments/{t.slug}/byes/4/1/", {"reason": "came after all"}, format="json")
    assert r.status_code == 204 and not Absence.objects.filter(entry=e4).exists()
    r = api(org).delete(f"/api/tournaments/{t.slug}/byes/4/1/", format="json")
    assert r.status_code == 404

    entry_services.entry_withdraw(entry=e4, user=org)
    with pytest.raises(Conflict):
        entry_services.entry_withdraw(entry=e4, user=org)
    r = api(org).post(f"/api/tournaments/{t.slug}/entries/4/reinstate/", {"reason": "mistake"}, format="json")
    assert r.status_code == 200 and r.json()["withdrawn"] is False
    rnd = round_services.round_pair(tournament=t, user=org)
    assert rnd.matches.filter(black=e4).exists() or rnd.matches.filter(white=e4).exists()


def test_reinstated_player_gets_a_zero_bye_for_the_round_missed(org, ref):
    t = make_event(org, rounds=3)
    e4 = t.entries.get(start_no=4)
    entry_services.entry_withdraw(entry=e4, user=org)
    play_round(t, org, ref)  # 3 players: one gets the pairing-allocated bye
    entry_services.entry_reinstate(entry=e4, user=org)
    bye = Match.objects.get(round__number=1, white=e4)
    assert (bye.bye_kind, bye.white_points) == ("zero", Decimal("0"))
    assert Entry.objects.get(pk=e4.pk).withdrawn is False


# --------------------------------------------------------------------------------------------
# 3. Edit and delete tournaments; reopen a round
# --------------------------------------------------------------------------------------------


def test_patch_tournament_settings(org, ref):
    t = make_event(org)
    r = api(org).patch(f"/api/tournaments/{t.slug}/", {
        "name": "Ankara Kış Açık", "venue": "Kızılay Kültür Merkezi", "chief_arbiter": "Hakem Ayşe",
        "time_control": "15 dk + 5 sn", "tiebreaks": ["sonneborn_berger", "buchholz"], "reason": "poster",
    }, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert (body["name"], body["venue"], body["chief_arbiter"], body["tiebreaks"]) == (
        "Ankara Kış Açık", "Kızılay Kültür Merkezi", "Hakem Ayşe", ["sonneborn_berger", "buchholz"])
    assert api(ref).patch(f"/api/tournaments/{t.slug}/", {"name": "x"}, format="json").status_code == 403
    r = api(org).patch(f"/api/tournaments/{t.slug}/", {"name": "bad\nname"}, format="json")
    assert r.status_code == 400 and r.json()["error"]["field"] == "name"
    play_round(t, org, ref)
    r = api(org).patch(f"/api/tournaments/{t.slug}/", {"tiebreaks": ["buchholz"]}, format="json")
    assert r.status_code == 409 and r.json()["error"]["field"] == "tiebreaks"
    r = api(org).patch(f"/api/tournaments/{t.slug}/", {"rounds_total": 0}, format="json")
    assert r.status_code == 400
    r = api(staff_user()).patch(f"/api/tournaments/{t.slug}/", {"tiebreaks": ["buchholz"]}, format="json")
    assert r.status_code == 200 and r.json()["tiebreaks"] == ["buchholz"]
    item = history.tournament_history(tournament=t, limit=1)[0]
    assert (item.action, item.user, item.before, item.after) == (
        "tournament.edit", "staff", {"tiebreaks": ["sonneborn_berger", "buchholz"]}, {"tiebreaks": ["buchholz"]})


def test_delete_is_staff_only_confirmed_and_archives_a_rated_event(org, ref):
    t = make_event(org, rounds=1)
    play_round(t, org, ref)
    services.standings_publish(tournament=t, user=org)
    rated_player = Match.objects.get(round__tournament=t, board=1).white.player
    rated_player.refresh_from_db()
    assert rated_player.rating != 1800 or rated_player.rating != 1700
    url = f"/api/tournaments/{t.slug}/"
    assert api(org).delete(url, {"confirm": t.slug, "reason": "test"}, format="json").status_code == 403
    r = api(staff_user()).delete(url, {"confirm": "wrong", "reason": "test"}, format="json")
    assert r.status_code == 400 and r.json()["error"]["field"] == "confirm"
    staff = staff_user() if False else None
    staff = UserFactory(username="staff2", is_staff=True)
    r = api(staff).delete(url, {"confirm": t.slug, "reason": "test import"}, format="json")
    assert r.status_code == 200 and r.json()["archived_at"]
    assert not RatingEvent.objects.filter(tournament=t).exists()  # no longer rated
    rated_player.refresh_from_db()
    assert rated_player.rating == {"MK-1": 1800, "MK-2": 1700, "MK-3": 1600, "MK-4": 1500}[rated_player.federation_id]
    assert api().get(url).status_code == 404  # hidden
    assert Client().get(f"/t/{t.slug}/").status_code == 404
    assert t.slug not in [x["slug"] for x in api().get("/api/tournaments/").json()["results"]]
    assert api(staff).get(url).status_code == 200
    r = api(staff).post(f"/api/tournaments/{t.slug}/restore/", {"reason": "by mistake"}, format="json")
    assert r.status_code == 200 and r.json()["archived_at"] is None
    assert RatingEvent.objects.filter(tournament=t).exists()


def test_delete_destroys_an_unrated_event_and_keeps_players(org, ref):
    t = make_event(org)
    play_round(t, org, ref)
    staff = staff_user()
    with pytest.raises(PermissionDenied):
        services.tournament_delete(tournament=t, user=org, reason="x", confirm=t.slug)
    assert services.tournament_delete(tournament=t, user=staff, reason="test import", confirm=t.slug) is None
    assert not Tournament.objects.filter(pk=t.pk).exists()
    assert PlayerFactory._meta.model.objects.filter(federation_id="MK-1").exists()
    deleted = Tournament.history.filter(id=t.pk, history_type="-").get()
    assert (deleted.history_user, deleted.history_change_reason, deleted.name) == (staff, "test import", t.name)


def test_reopen_the_last_round(org, ref):
    t = make_event(org, rounds=1)
    rnd = play_round(t, org, ref)
    services.standings_publish(tournament=t, user=org)
    assert RatingEvent.objects.filter(tournament=t).exists()
    with pytest.raises(ValidationFailed):
        round_services.round_reopen(round=rnd, user=org)
    round_services.round_reopen(round=rnd, user=org, reason="board 2 signed wrong")
    t.refresh_from_db()
    assert (t.status, t.standings_published_at, Round.objects.get(pk=rnd.pk).status) == ("running", None, "published")
    assert not RatingEvent.objects.filter(tournament=t).exists()
    m = rnd.matches.get(board=2)
    result_services.match_result_enter(match=m, sets=BLACK_WINS, user=ref, expected_version=m.version)  # referees again
    round_services.round_close(round=rnd, user=org)
    services.standings_publish(tournament=t, user=org)
    assert RatingEvent.objects.filter(tournament=t).exists()


# --------------------------------------------------------------------------------------------
# 4. History API
# --------------------------------------------------------------------------------------------


def test_history_api_lists_every_step_newest_first(org, ref):
    t = make_event(org)
    play_round(t, org, ref)
    services.standings_publish(tournament=t, user=org)
    url = f"/api/tournaments/{t.slug}/history/"
    assert api().get(url).status_code == 401
    assert api(ref).get(url).status_code == 403
    r = api(org).get(url)
    assert r.status_code == 200
    items = r.json()
    assert [i["action"] for i in items] == [
        "standings.publish", "round.close", "result.enter", "result.enter", "round.publish", "round.pair",
        "entry.add", "entry.add", "entry.add", "entry.add", "tournament.create",
    ]
    assert set(items[0]) == {"at", "user", "action", "object", "reason", "before", "after", "round", "board"}
    assert [i["at"] for i in items] == sorted((i["at"] for i in items), reverse=True)
    enter = items[2]
    assert (enter["user"], enter["round"], enter["after"]["sets"]) == ("rana", 1, ["30-18", "26-22"])
    assert api(org).get(url + "?round=1&board=1").json()[0]["action"] == "result.enter"
    assert len(api(org).get(url + "?limit=2").json()) == 2
    assert api(org).get(url + "?limit=0").status_code == 400
    assert api(org).get(url + "?round=abc").status_code == 400


def test_history_pages_for_organisers_only(org, ref):
    t = make_event(org)
    play_round(t, org, ref)
    c = Client()
    c.force_login(org)
    page = c.get(f"/t/{t.slug}/history/").content.decode()
    assert "round.close" in page and "rana" in page
    assert "round.close" in c.get(f"/t/{t.slug}/round/1/").content.decode()
    c.force_login(ref)
    assert c.get(f"/t/{t.slug}/history/").status_code == 302


# --------------------------------------------------------------------------------------------
# 6. Publishing is one gate
# --------------------------------------------------------------------------------------------


def test_every_public_output_shows_only_the_published_state(org, ref):
    """Standings published after round 1; round 2 closed but not published: anonymous users and
    players see round 1 everywhere, the organiser sees round 2."""
    t = make_event(org)
    play_round(t, org, ref)
    services.standings_publish(tournament=t, user=org)
    play_round(t, org, ref)
    player_user = UserFactory(username="oyuncu")
    for who in (None, player_user):
        web, rest = Client(), api(who)
        if who is not None:
            web.force_login(who)
        trf = web.get(f"/t/{t.slug}/export.trf").content.decode()
        assert " 1 w 1" in trf or " 1 b 0" in trf or "w 1" in trf
        result_columns = [ln[91:] for ln in trf.splitlines() if ln.startswith("001")]
        assert all(len(col.split()) == 3 for col in result_columns), result_columns  # one round: opp, colour, result
        st = rest.get(f"/api/tournaments/{t.slug}/standings/").json()
        assert st["rounds"] == 1 and sorted(r["points"] for r in st["rows"]) == [0.0, 0.0, 1.0, 1.0]
        page = web.get(f"/t/{t.slug}/standings/")
        assert page.status_code == 200 and 'data-rounds="1"' in page.content.decode()
        cross = web.get(f"/t/{t.slug}/crosstable/")
        assert 'data-rounds="1"' in cross.content.decode()
        pdf = web.get(f"/t/{t.slug}/crosstable.pdf")
        assert pdf.status_code == 200 and b"".join(pdf.streaming_content)[:5] == b"%PDF-"
        rounds = [r["number"] for r in rest.get(f"/api/tournaments/{t.slug}/").json()["rounds"]]
        assert rounds == [1, 2]  # pairing lists of published rounds are public
    org_web = Client()
    org_web.force_login(org)
    org_trf = org_web.get(f"/t/{t.slug}/export.trf").content.decode()
    assert all(len(ln[91:].split()) == 6 for ln in org_trf.splitlines() if ln.startswith("001"))
    assert api(org).get(f"/api/tournaments/{t.slug}/standings/").json()["rounds"] == 2


def test_unpublished_standings_hide_every_result_output(org, ref):
    t = make_event(org)
    play_round(t, org, ref)
    for url in ("/t/{s}/standings/", "/t/{s}/crosstable/", "/t/{s}/crosstable.pdf", "/t/{s}/export.trf"):
        assert Client().get(url.format(s=t.slug)).status_code == 404, url
    assert api().get(f"/api/tournaments/{t.slug}/standings/").status_code == 404


def test_archived_events_leave_the_player_page_and_merged_ids_redirect_the_rating_history(org, ref):
    from federation import services as fed

    t = make_event(org, rounds=1)
    play_round(t, org, ref)
    services.standings_publish(tournament=t, user=org)
    staff = staff_user()
    p1 = t.entries.get(start_no=1).player
    assert t.name in Client().get(f"/players/{p1.federation_id}/").content.decode()
    services.tournament_delete(tournament=t, user=staff, reason="test", confirm=t.slug)
    assert t.name not in Client().get(f"/players/{p1.federation_id}/").content.decode()
    web = Client()
    web.force_login(staff)
    assert t.name in web.get(f"/players/{p1.federation_id}/").content.decode()

    twin = PlayerFactory(federation_id="TWIN-1", last_name=p1.last_name, first_name=p1.first_name)
    fed.player_merge(keep=p1, merge=twin, user=staff, reason="same person")
    r = api().get("/api/ratings/players/TWIN-1/history/")
    assert r.status_code == 301 and r["Location"].endswith(f"/api/ratings/players/{p1.federation_id}/history/")


def test_double_submit_is_a_no_op_and_a_correction_keeps_unchanged_move_records(org, ref):
    import random

    from federation.sample_data import play_set

    t = make_event(org)
    rnd = round_services.round_pair(tournament=t, user=org)
    round_services.round_publish(round=rnd, user=org)
    m = rnd.matches.get(board=1)
    moves, (first, second) = play_set(random.Random(11), 0.8, 0.8)
    record = " ".join(map(str, moves))
    sets = [SetInput(first, second, moves=record), SetInput(first, second)] if first != second else None
    if sets is None:
        pytest.skip("drawn sample set")
    m = result_services.match_result_enter(match=m, sets=sets, user=ref)
    version = m.version
    again = result_services.match_result_enter(match=m, sets=sets, user=ref, expected_version=version - 1)  # stale but same
    assert again.version == version
    assert len(history.tournament_history(tournament=t, round_number=1, board=1)) == 1
    # re-entered without the record, the same set 1 keeps its record; set 2 changes
    flipped = [SetInput(first, second), SetInput(second, first), SetInput(first, second)]
    m = result_services.match_result_enter(match=m, sets=flipped, user=ref, expected_version=version)
    assert m.sets.get(number=1).moves == record


def test_reasons_refuse_control_characters_and_published_pairings_need_one(org):
    t = make_event(org)
    rnd = round_services.round_pair(tournament=t, user=org)
    round_services.round_publish(round=rnd, user=org)
    with pytest.raises(ValidationFailed) as err:
        round_services.round_delete(round=rnd, user=org)
    assert err.value.field == "reason"
    for bad in ("a\x07b", "ok\u202eevil", "x" * 501):
        with pytest.raises(ValidationFailed):
            round_services.round_delete(round=rnd, user=org, reason=bad)
    assert round_services.round_delete(round=rnd, user=org, reason="wrong colours\nboard 2") == 1


def test_a_record_that_disagrees_names_both_results_white_first(org, ref):
    import random

    from federation.sample_data import play_set

    t = make_event(org)
    rnd = round_services.round_pair(tournament=t, user=org)
    round_services.round_publish(round=rnd, user=org)
    moves, (first, second) = play_set(random.Random(5), 0.8, 0.8)
    assert first != second
    record = " ".join(map(str, moves))
    # set 2 is started by black: the record's first mover is black, so white holds `second`
    with pytest.raises(ValidationFailed) as err:
        result_services.match_result_enter(
            match=rnd.matches.get(board=1), sets=[SetInput(30, 18), SetInput(first, second, moves=record)], user=ref
        )
    assert err.value.field == "sets[2]"
    assert f"gives {second}-{first} (white-black), not the {first}-{second} entered" in err.value.message


def test_patch_refuses_settings_it_cannot_change_and_a_double_delete_is_polite(org):
    t = make_event(org)
    r = api(org).patch(f"/api/tournaments/{t.slug}/", {"sets_per_match": 5}, format="json")
    assert r.status_code == 400 and r.json()["error"]["field"] == "sets_per_match"
    round_services.round_pair(tournament=t, user=org)
    web = Client()
    web.force_login(org)
    first = web.post(f"/t/{t.slug}/round/1/delete/", {"reason": "x"})
    second = web.post(f"/t/{t.slug}/round/1/delete/", {"reason": "x"}, follow=True)
    assert first.status_code == 302 and second.status_code == 200
    assert not t.rounds.exists()


def test_staff_read_the_history_of_a_deleted_tournament(org, ref):
    t = make_event(org)
    play_round(t, org, ref)
    staff = staff_user()
    services.tournament_delete(tournament=t, user=staff, reason="duplicate", confirm=t.slug)
    items = api(staff).get(f"/api/tournaments/{t.slug}/history/").json()
    assert items[0]["action"] == "tournament.delete" and items[0]["reason"] == "duplicate"
    assert items[-1]["action"] == "tournament.create"
    assert api(org).get(f"/api/tournaments/{t.slug}/history/").status_code == 404
    web = Client()
    web.force_login(staff)
    assert "duplicate" in web.get(f"/t/{t.slug}/history/").content.decode()
