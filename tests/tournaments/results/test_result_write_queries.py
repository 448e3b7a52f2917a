"""The result write path in SQL statements (issue 22, "The write path"), with every guarantee kept.

A result POST — a first 3-set result, and a correction with the version seen — costs at most 15
statements counted by ``CaptureQueriesContext`` (the test's transaction makes ``BEGIN``/``COMMIT`` a
``SAVEPOINT``/``RELEASE``, counted too): the token and its user, the board with its round and tournament,
one permission query, the match locked, its sets read once, the rating lines and the sets deleted, the
new sets inserted, their history in one ``INSERT``, the match and its history row, the versions
— and on PostgreSQL one more, the tournament held in ``KEY SHARE`` before the match (issue 23: the lock
order tournament, round, board; tournaments/races.py)
(docs/performance.md "A result submission"). The history rows still say who, when, why, before and
after, and the versions, conflicts and refusals behave as before.
"""
from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from federation.prepared import PreparedRead
from tests.factories import PlayerFactory, UserFactory, organiser
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.rounds import services as round_services
from tournaments.history import selectors as history
from tournaments.models import Match, SetResult, Tournament, TournamentRole
from tournaments.serializers import MatchResultOutputSerializer, match_result_data

pytestmark = pytest.mark.django_db

MAX_STATEMENTS = 15
# PostgreSQL: + 1, the tournament held in KEY SHARE before the match is locked (issue 23, lock order tournament,
# round, board: a result racing a round close or an undone pairing neither deadlocks nor lands in a closed round;
# tournaments/races.py). SQLite serialises write transactions (BEGIN IMMEDIATE) and skips it.
TOURNAMENT_LOCK = 1 if connection.vendor == "postgresql" else 0


def _sets(*pairs):
    return [{"white_store": w, "black_store": b, "termination": "completed", "moves": ""} for w, b in pairs]


@pytest.fixture
def hall():
    """A published round 1 of a 4-player Swiss and a referee of this tournament only (a per-tournament
    role: every permission check falls through to the last one) with an API token."""
    org = organiser(username="wq-org")
    t = services.tournament_create(name="Yazma Yolu Açık", rounds_total=3, created_by=org)
    for i in range(4):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=1800 - 10 * i), user=org)
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="wq")
    round_services.round_publish(round=rnd, user=org)
    ref = UserFactory(username="wq-ref", first_name="Rana", last_name="Hakem")
    TournamentRole.objects.create(tournament=t, user=ref, role=TournamentRole.Role.REFEREE)
    token = Token.objects.create(user=ref)
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en", HTTP_AUTHORIZATION=f"Token {token.key}")
    return Tournament.objects.get(pk=t.pk), org, ref, client


def _post(client, t, body, board=1, **headers):
    url = f"/api/tournaments/{t.slug}/rounds/1/boards/{board}/result/"
    with CaptureQueriesContext(connection) as ctx:
        r = client.post(url, body, format="json", **headers)
    return r, [q["sql"] for q in ctx.captured_queries]


def _fresh_answer(match_id: int) -> dict:
    return MatchResultOutputSerializer(Match.objects.prefetch_related("sets").get(pk=match_id)).data


def test_a_first_three_set_result_through_the_api_costs_at_most_15_statements(hall):
    t, _org, ref, client = hall
    before = Tournament.objects.get(pk=t.pk)
    r, sqls = _post(client, t, {"sets": _sets((20, 28), (30, 18), (26, 22)), "forfeit": ""})
    assert r.status_code == 200, r.content
    assert len(sqls) <= MAX_STATEMENTS + TOURNAMENT_LOCK, "\n".join(sqls)
    # one permission query (groups and the tournament's roles together), the sets read once
    assert sum('"auth_group"' in q or '"tournaments_tournamentrole"' in q for q in sqls) == 1, "\n".join(sqls)
    assert sum(q.startswith("SELECT") and 'FROM "tournaments_setresult"' in q for q in sqls) == 1, "\n".join(sqls)
    body = r.json()
    assert (body["white_points"], body["black_points"], body["result"], body["version"]) == (1.0, 0.0, "1-0", 2)
    assert [(x["number"], x["starter"], x["white_stones"], x["black_stones"]) for x in body["sets"]] == [
        (1, "white", 20, 28), (2, "black", 30, 18), (3, "white", 26, 22)]
    assert r["ETag"] == '"2"'
    match = Match.objects.get(round__tournament=t, round__number=1, board=1)
    assert body == _fresh_answer(match.pk)  # the answer from memory is what was stored
    assert (match.result_entered_by, match.version) == (ref, 2)
    after = Tournament.objects.get(pk=t.pk)
    # a result of an open round: the live round's key moves, the public standings' key stays
    assert (after.version, after.standings_version) == (before.version + 1, before.standings_version)


def test_a_correction_with_if_match_costs_at_most_15_statements_and_keeps_its_history(hall):
    t, _org, ref, client = hall
    r, _ = _post(client, t, {"sets": _sets((20, 28), (30, 18), (26, 22)), "forfeit": ""})
    assert r.status_code == 200, r.content
    match = Match.objects.get(round__tournament=t, round__number=1, board=1)
    old_ids = list(match.sets.order_by("number").values_list("pk", flat=True))
    start = timezone.now()
    r, sqls = _post(client, t, {"sets": _sets((20, 28), (30, 18), (18, 30)), "forfeit": ""}, HTTP_IF_MATCH=r["ETag"])
    assert r.status_code == 200, r.content
    assert len(sqls) <= MAX_STATEMENTS + TOURNAMENT_LOCK, "\n".join(sqls)
    body = r.json()
    assert (body["white_points"], body["black_points"], body["result"], body["version"]) == (0.0, 1.0, "0-1", 3)
    assert body == _fresh_answer(match.pk)

    # the history: a "-" row per replaced set and a "+" row per new one, and the match's "~", one action
    rows = list(SetResult.history.filter(match_id=match.pk, history_date__gte=start).order_by("history_id"))
    assert [(h.history_type, h.number, h.white_stones, h.black_stones) for h in rows] == [
        ("-", 1, 20, 28), ("-", 2, 30, 18), ("-", 3, 26, 22), ("+", 1, 20, 28), ("+", 2, 30, 18), ("+", 3, 18, 30)]
    assert [h.id for h in rows[:3]] == old_ids and not set(h.id for h in rows[3:]) & set(old_ids)
    assert [h.id for h in rows[3:]] == list(SetResult.objects.filter(match=match).order_by("number").values_list("pk", flat=True))
    match_rows = list(Match.history.filter(id=match.pk, history_date__gte=start))
    assert [(h.history_type, h.white_points, h.black_points, h.version) for h in match_rows] == [("~", 0, 1, 3)]
    action_ids = {h.audit_action_id for h in [*rows, *match_rows]}
    assert len(action_ids) == 1 and len(action_ids.pop()) == 32
    for h in [*rows, *match_rows]:
        assert (h.history_user_id, h.audit_action, h.audit_tournament_id) == (ref.pk, "result.enter", t.pk)
        assert start <= h.history_date <= timezone.now()

    # … and the history page reads it as one change of the board, by the referee
    item = history.tournament_history(tournament=t, round_number=1, board=1, limit=1)[0]
    assert (item.action, item.user, item.object, item.board) == ("result.enter", "Rana Hakem", "Round 1, board 1", 1)
    assert item.before["sets"] == ["20-28", "30-18", "26-22"] and item.after["sets"] == ["20-28", "30-18", "18-30"]
    assert (item.before["white_points"], item.after["white_points"]) == (1.0, 0.0)
    assert start - dt.timedelta(seconds=1) <= item.at <= timezone.now()


def test_a_correction_with_the_version_in_the_body_and_an_organisers_closed_round_correction(hall):
    t, org, _ref, client = hall
    first = {"sets": _sets((30, 18), (28, 20)), "forfeit": ""}
    for board in (1, 2):
        r, _ = _post(client, t, first, board=board)
        assert r.status_code == 200, r.content
    r, sqls = _post(client, t, {"sets": _sets((30, 18), (20, 28), (25, 23)), "forfeit": "", "version": 2})
    assert r.status_code == 200, r.content
    assert len(sqls) <= MAX_STATEMENTS + TOURNAMENT_LOCK, "\n".join(sqls)
    assert [x["white_stones"] for x in r.json()["sets"]] == [30, 20, 25]

    round_services.round_close(round=t.rounds.get(number=1), user=org)
    before = Tournament.objects.get(pk=t.pk)
    boss = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    boss.force_authenticate(org)
    body = {"sets": _sets((30, 18), (20, 28), (23, 25)), "forfeit": "", "version": 3, "reason": "Hakem notu yanlış"}
    r, sqls = _post(boss, t, body)
    assert r.status_code == 200, r.content
    assert len(sqls) <= MAX_STATEMENTS + TOURNAMENT_LOCK, "\n".join(sqls)
    assert (r.json()["result"], r.json()["version"]) == ("0-1", 4)
    after = Tournament.objects.get(pk=t.pk)
    # a closed round is in the standings: both keys move, in the one UPDATE
    assert (after.version, after.standings_version) == (before.version + 1, before.standings_version + 1)
    item = history.tournament_history(tournament=t, round_number=1, board=1, limit=1)[0]
    assert (item.action, item.reason, item.user) == ("result.correct", "Hakem notu yanlış", org.get_full_name() or org.username)
    assert item.before["sets"] == ["30-18", "20-28", "25-23"] and item.after["sets"] == ["30-18", "20-28", "23-25"]


def test_missing_and_stale_versions_are_still_refused_with_the_current_result(hall):
    t, _org, _ref, client = hall
    r, _ = _post(client, t, {"sets": _sets((30, 18), (28, 20)), "forfeit": ""})
    assert r.status_code == 200
    r, _ = _post(client, t, {"sets": _sets((18, 30), (28, 20), (20, 28)), "forfeit": ""})
    assert r.status_code == 428
    assert r.json()["error"]["current"]["sets"] == [
        {"number": 1, "white_stones": 30, "black_stones": 18, "termination": "completed"},
        {"number": 2, "white_stones": 28, "black_stones": 20, "termination": "completed"}]
    r, _ = _post(client, t, {"sets": _sets((18, 30), (28, 20), (20, 28)), "forfeit": ""}, HTTP_IF_MATCH='"1"')
    assert r.status_code == 409 and r.json()["error"]["current"]["version"] == 2
    # the same result again: nothing written, the same version
    r, sqls = _post(client, t, {"sets": _sets((30, 18), (28, 20)), "forfeit": ""})
    assert r.status_code == 200 and r.json()["version"] == 2 and len(r.json()["sets"]) == 2
    assert not [q for q in sqls if q.startswith(("INSERT", "UPDATE", "DELETE"))]
    assert Match.objects.get(round__tournament=t, round__number=1, board=1).version == 2


def test_a_forfeit_replacing_sets_writes_their_deletion_history(hall):
    t, _org, ref, client = hall
    r, _ = _post(client, t, {"sets": _sets((30, 18), (28, 20)), "forfeit": ""})
    start = timezone.now()
    r, sqls = _post(client, t, {"sets": [], "forfeit": "black", "version": 2})
    assert r.status_code == 200, r.content
    assert len(sqls) <= MAX_STATEMENTS + TOURNAMENT_LOCK, "\n".join(sqls)
    assert (r.json()["result"], r.json()["sets"]) == ("+/-", [])
    match = Match.objects.get(round__tournament=t, round__number=1, board=1)
    assert not match.sets.exists()
    rows = SetResult.history.filter(match_id=match.pk, history_date__gte=start).order_by("history_id")
    assert [(h.history_type, h.number, h.history_user_id) for h in rows] == [("-", 1, ref.pk), ("-", 2, ref.pk)]


def test_the_referees_form_post_costs_at_most_15_statements(hall):
    """The phone form (session login): a first result, then a correction with the version it showed."""
    t, _org, ref, _client = hall
    browser = Client(HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(ref)
    data = {"version": 1, "forfeit": "", "set1_white": 20, "set1_black": 28, "set1_termination": "completed",
            "set2_white": 30, "set2_black": 18, "set2_termination": "completed",
            "set3_white": 26, "set3_black": 22, "set3_termination": "completed"}
    for version, third, points in ((1, (26, 22), 1), (2, (22, 26), 0)):
        data.update(version=version, set3_white=third[0], set3_black=third[1])
        with CaptureQueriesContext(connection) as ctx:
            r = browser.post(f"/t/{t.slug}/round/1/board/1/", data)
        sqls = [q["sql"] for q in ctx.captured_queries]
        assert r.status_code == 302, r.content.decode()[:2000]
        assert r["Location"] == f"/t/{t.slug}/round/1/"
        assert len(sqls) <= MAX_STATEMENTS + TOURNAMENT_LOCK, "\n".join(sqls)
        match = Match.objects.get(round__tournament=t, round__number=1, board=1)
        assert (match.white_points, match.version, match.result_entered_by) == (points, version + 1, ref)
        assert list(match.sets.values_list("white_stones", "black_stones")) == [(20, 28), (30, 18), third]
    # a board that is not there is still a 404
    assert browser.post(f"/t/{t.slug}/round/1/board/9/", data).status_code == 404
    assert browser.post("/t/yok-boyle-turnuva/round/1/board/1/", data).status_code == 404


def test_a_role_given_after_a_refusal_counts_for_the_same_user_object(hall):
    """The permission checks are memoised on the user object; a role given (or taken) drops the memo."""
    t, _org, _ref, _client = hall
    newcomer = UserFactory(username="wq-new")
    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    client.force_authenticate(newcomer)  # the same object for every request
    body = {"sets": _sets((30, 18), (28, 20)), "forfeit": ""}
    assert _post(client, t, body)[0].status_code == 403
    role = TournamentRole.objects.create(tournament=t, user=newcomer, role=TournamentRole.Role.REFEREE)
    r, _ = _post(client, t, body)
    assert r.status_code == 200, r.content
    role.delete()
    assert _post(client, t, {**body, "version": 2}, board=2)[0].status_code == 403


def test_tournament_touch_bumps_the_standings_key_when_it_moved_since_the_tournament_was_read(hall):
    """A round closed (standings_version bumped) between the match's lock and this write's bump: the
    write bumps standings_version again, so a table cached meanwhile without it is not kept."""
    t, _org, _ref, _client = hall
    seen = Tournament.objects.get(pk=t.pk)
    assert services.tournament_touch(Tournament.objects.get(pk=t.pk), standings=False) == seen.version + 1
    assert Tournament.objects.get(pk=t.pk).standings_version == seen.standings_version  # nothing moved: kept
    services.tournament_touch(Tournament.objects.get(pk=t.pk))  # e.g. a round close: both move
    stale = Tournament.objects.get(pk=t.pk)
    stale.standings_version = seen.standings_version  # as read before that close
    services.tournament_touch(stale, standings=False)
    now = Tournament.objects.get(pk=t.pk)
    assert (now.version, now.standings_version) == (seen.version + 3, seen.standings_version + 2)
    assert (stale.version, stale.standings_version) == (now.version, now.standings_version)
    with CaptureQueriesContext(connection) as ctx:
        services.tournament_touch(now, standings=True)
    assert len(ctx.captured_queries) == 1  # one UPDATE … RETURNING


# --------------------------------------------------------------------------------------------
# The POST's answer, built from memory, holds what the output serializer gives (issue 22: the POST's CPU)
# --------------------------------------------------------------------------------------------

def test_the_answer_is_what_the_output_serializer_gives(hall):
    t, org, _ref, client = hall
    bodies = [
        (1, {"sets": _sets((30, 18))}),  # an open match: no points yet
        (1, {"sets": [{"white_store": 30, "black_store": 18, "termination": "completed", "moves": ""},
                      {"white_store": 10, "black_store": 25, "termination": "white_withdrew", "moves": ""}],
             "version": 2}),  # a withdrawal keeps its stores
        (2, {"forfeit": "both"}),
        (1, {"sets": _sets((24, 24), (24, 24), (24, 24)), "version": 3}),  # a draw
    ]
    for board, body in bodies:
        r, _ = _post(client, t, body, board=board)
        assert r.status_code == 200, r.content
        match = Match.objects.get(round__tournament=t, round__number=1, board=board)
        assert r.json() == _fresh_answer(match.pk)
        assert match_result_data(Match.objects.prefetch_related("sets").get(pk=match.pk)) == _fresh_answer(match.pk)
    drawn = r.json()
    assert (drawn["result"], drawn["white_points"], drawn["black_points"], drawn["version"]) == ("½-½", 0.5, 0.5, 4)


def test_a_board_number_no_column_holds_is_a_404_not_an_error(hall):
    t, _org, _ref, client = hall
    for board in ("0", "99999", "9223372036854775808", "99999999999999999999999"):
        r = client.post(f"/api/tournaments/{t.slug}/rounds/1/boards/{board}/result/", {"sets": _sets((30, 18))},
                        format="json")
        assert r.status_code == 404, (board, r.content)
    r = client.post(f"/api/tournaments/{t.slug}/rounds/99999999999999999999/boards/1/result/",
                    {"sets": _sets((30, 18))}, format="json")
    assert r.status_code == 404


def test_a_prepared_read_runs_the_orms_sql_with_the_calls_values(hall):
    t, _org, ref, _client = hall
    boards = PreparedRead(
        lambda slug, number: Match.objects.filter(round__tournament__slug=slug, round__number=number)
        .select_related("round__tournament").order_by("board"),
        slug="\x00s", number=32_000,
    )
    got = boards.all(slug=t.slug, number=1)
    assert [(m.board, m.round.number, m.round.tournament.slug) for m in got] == [(1, 1, t.slug), (2, 1, t.slug)]
    assert got[0].round.tournament.version == Tournament.objects.get(pk=t.pk).version
    with CaptureQueriesContext(connection) as ctx:
        assert boards.all(slug=t.slug, number=2) == [] and boards.first(slug="yok", number=1) is None
        assert boards.all(slug=t.slug, number=2**70) == []  # no column holds it: not even asked
    assert len(ctx.captured_queries) == 2
    flat = PreparedRead(lambda uid: TournamentRole.objects.filter(user_id=uid).values_list("role", flat=True), uid=-5)
    assert flat.all(uid=ref.pk) == ["referee"]
    with pytest.raises(TypeError):
        flat.all(user=ref.pk)
    with pytest.raises(ValueError):  # the placeholder is not a parameter of the SQL: a programming error
        PreparedRead(lambda uid: TournamentRole.objects.filter(user_id__gt=0).values_list("role"), uid=-5).all(uid=1)


@pytest.mark.django_db(transaction=True)
def test_a_prepared_locking_read_needs_a_transaction_where_the_database_locks():
    from django.db import transaction
    from django.db.transaction import TransactionManagementError

    locked = PreparedRead(lambda pk: Match.objects.select_for_update().filter(pk=pk), pk=-7)
    with transaction.atomic():
        assert locked.all(pk=-1) == []
    if connection.features.has_select_for_update:
        with pytest.raises(TransactionManagementError):
            locked.all(pk=-1)
    else:
        assert locked.all(pk=-1) == []
