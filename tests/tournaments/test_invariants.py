"""The database's invariants (``tournaments.invariants``, ``manage.py check_invariants``, the Celery task
``tournaments.check_invariants``): the shared completed tournament is sound; each corruption written
directly to the database (``QuerySet.update``, bypassing the services) is reported as its own kind on
the right row; the pure rules; the command's exit status and JSON; the task's log."""
from __future__ import annotations

import io
import json
import logging
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone, translation
from hypothesis import given, settings
from hypothesis import strategies as st

import games.engine as engine
from federation.models import Player
from ratings.invariants import rating_change_findings
from ratings.models import RatingChange, RatingEvent, RatingGameLine
from tests.factories import PlayerFactory, organiser
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.invariants import (
    Violation, check_invariants, check_tournament, match_findings, round_findings, set_findings,
)
from tournaments.models import Entry, Match, Round, SetResult, Tournament
from tournaments.results.services import SetInput
from tournaments.tasks import check_invariants_task

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def ct(completed_tournament):
    return completed_tournament


def kinds(violations: list[Violation]) -> set[tuple[str, str, int]]:
    return {(v.kind, v.model, v.pk) for v in violations}


def scoped(t: Tournament) -> list[Violation]:
    return check_invariants(tournaments=Tournament.objects.filter(pk=t.pk))


def board(t: Tournament, round_no: int, board_no: int) -> Match:
    return Match.objects.get(round__tournament=t, round__number=round_no, board=board_no)


def set_of(t: Tournament, round_no: int, board_no: int, number: int) -> SetResult:
    return SetResult.objects.get(match=board(t, round_no, board_no), number=number)


def sets_text(m: Match) -> list[tuple[int, int, str]]:
    return [(s.white_stones, s.black_stones, s.termination) for s in m.sets.order_by("number")]


# --------------------------------------------------------------------------------------------
# A sound database
# --------------------------------------------------------------------------------------------


def test_the_completed_tournament_has_no_violation(ct):
    assert RatingEvent.objects.filter(tournament=ct).exists()  # rated: the rating checks run too
    assert scoped(ct) == []
    assert check_invariants() == []
    assert check_tournament(ct) == []


def test_a_tournament_in_play_with_byes_has_no_violation(odd):
    assert scoped(odd) == []


@pytest.fixture
def odd():
    """Three players, round 1 played (a pairing-allocated bye), round 2 paired and published."""
    org = organiser(username="tek-org")
    t = services.tournament_create(name="Tek Sayılı", rounds_total=3, created_by=org, slug="tek-sayili")
    for i in range(3):
        entry_services.entry_add(tournament=t, player=PlayerFactory(rating=1700 - 10 * i))
    rnd = round_services.round_pair(tournament=t, user=org, coin_seed="tek")
    round_services.round_publish(round=rnd, user=org)
    game = rnd.matches.get(kind="game")
    result_services.match_result_enter(match=game, sets=[SetInput(30, 18), SetInput(26, 22)], user=org)
    round_services.round_close(round=rnd, user=org)
    round_services.round_publish(round=round_services.round_pair(tournament=t, user=org), user=org)
    return t


# --------------------------------------------------------------------------------------------
# One corruption at a time, written straight to the database
# --------------------------------------------------------------------------------------------


def test_a_set_started_by_the_wrong_colour(ct):
    s = set_of(ct, 1, 1, 2)
    SetResult.objects.filter(pk=s.pk).update(starter="white")
    v = scoped(ct)
    assert kinds(v) == {("set.starter", "tournaments.SetResult", s.pk)}
    assert v[0].expected == "black" and v[0].found == "white"
    assert "round 1, board 1: set 2 is started by white, but black starts it" in v[0].message
    assert v[0].tournament == ct.slug


def test_a_flipped_set_no_longer_gives_the_match_points(ct):
    m = board(ct, 1, 1)
    assert sets_text(m) == [(30, 18, "completed"), (26, 22, "completed")] and m.white_points == 1
    s = m.sets.get(number=1)
    SetResult.objects.filter(pk=s.pk).update(white_stones=18, black_stones=30)
    v = scoped(ct)
    assert ("match.points", "tournaments.Match", m.pk) in kinds(v)
    points = next(x for x in v if x.kind == "match.points")
    assert (points.expected, points.found) == (None, "1–0")  # 1-1 after two sets of three: the match is open
    assert "the sets give —, the match records 1–0" in points.message
    # the rating lines of that set no longer match it either
    lines = set(RatingGameLine.objects.filter(set_result=s).values_list("pk", flat=True))
    assert {pk for k, _m, pk in kinds(v) if k == "rating.line"} == lines and len(lines) == 2


def test_a_set_played_after_the_match_was_decided(ct):
    m = board(ct, 1, 2)
    assert sets_text(m) == [(20, 28, "completed"), (30, 18, "completed"), (24, 24, "completed")]
    SetResult.objects.filter(match=m, number=1).update(white_stones=28, black_stones=20)  # now 2-0 after set 2
    v = scoped(ct)
    assert ("match.sets_after_decision", "tournaments.Match", m.pk) in kinds(v)
    assert "no set is played after that" in next(x for x in v if x.kind == "match.sets_after_decision").message


def test_a_withdrawal_recorded_otherwise_than_kural_14_5(ct):
    s = set_of(ct, 2, 2, 1)
    assert (s.termination, s.white_store, s.black_store, s.white_stones, s.black_stones) == (
        "white_withdrew", 31, 9, 25, 23)
    SetResult.objects.filter(pk=s.pk).update(white_stones=30, black_stones=18)
    v = scoped(ct)
    assert ("set.withdrawal", "tournaments.SetResult", s.pk) in kinds(v)
    w = next(x for x in v if x.kind == "set.withdrawal")
    assert (w.expected, w.found) == ("25–23", "30–18")


def test_a_withdrawal_before_25_stones(ct):
    s = set_of(ct, 2, 2, 1)
    SetResult.objects.filter(pk=s.pk).update(white_store=20, black_store=9)
    v = scoped(ct)
    assert ("set.result", "tournaments.SetResult", s.pk) in kinds(v)
    assert "at least 25 stones" in next(x for x in v if x.kind == "set.result").message


def test_stores_kept_on_a_completed_set(ct):
    s = set_of(ct, 2, 2, 1)
    SetResult.objects.filter(pk=s.pk).update(termination="completed")
    assert ("set.stores", "tournaments.SetResult", s.pk) in kinds(scoped(ct))


def test_a_move_record_that_does_not_give_the_stones(ct):
    s = set_of(ct, 1, 1, 1)
    SetResult.objects.filter(pk=s.pk).update(moves="1 2 3")
    v = scoped(ct)
    assert kinds(v) == {("set.moves", "tournaments.SetResult", s.pk)}
    assert "the move record does not fit" in v[0].message


def test_a_forfeit_with_the_wrong_points(ct):
    m = Match.objects.get(round__tournament=ct, forfeit="black")
    Match.objects.filter(pk=m.pk).update(white_points=Decimal("0"), black_points=Decimal("1"))
    v = scoped(ct)
    assert kinds(v) == {("match.forfeit_points", "tournaments.Match", m.pk)}
    assert (v[0].expected, v[0].found) == ("1–0", "0–1")


def test_sets_numbered_with_a_gap_and_a_result_without_sets(ct):
    m = board(ct, 1, 1)
    SetResult.objects.filter(match=m, number=2).update(number=3)
    other = board(ct, 2, 3)
    SetResult.objects.filter(match=other).delete()
    got = kinds(scoped(ct))
    assert ("match.set_numbers", "tournaments.Match", m.pk) in got
    assert ("match.no_sets", "tournaments.Match", other.pk) in got


def test_a_bye_with_the_wrong_points(odd):
    bye = Match.objects.get(round__tournament=odd, round__number=1, kind="bye")
    Match.objects.filter(pk=bye.pk).update(white_points=Decimal("0"))
    v = scoped(odd)
    assert kinds(v) == {("match.bye_points", "tournaments.Match", bye.pk)}
    assert (v[0].expected, v[0].found) == ("1", "0")


def test_a_player_on_two_boards_of_a_round(ct):
    rnd = Round.objects.get(tournament=ct, number=3)
    b1, b2 = board(ct, 3, 1), board(ct, 3, 2)
    Match.objects.filter(pk=b2.pk).update(black=b1.white_id)
    v = scoped(ct)
    got = kinds(v)
    assert ("round.player_twice", "tournaments.Round", rnd.pk) in got
    twice = next(x for x in v if x.kind == "round.player_twice")
    assert twice.found == [1, 2] and "is on boards 1, 2" in twice.message
    # the standings core refuses the round (its pairing is no longer symmetric)
    assert ("standings.error", "tournaments.Tournament", ct.pk) in got
    assert "asymmetric pairing" in next(x for x in v if x.kind == "standings.error").message


def test_a_player_with_two_byes_in_a_round(odd):
    rnd = Round.objects.get(tournament=odd, number=1)
    bye = rnd.matches.get(kind="bye")
    Match.objects.create(round=rnd, board=9, kind="bye", bye_kind="half", white=bye.white, white_points=Decimal("0.5"))
    v = scoped(odd)
    assert kinds(v) == {("round.bye_twice", "tournaments.Round", rnd.pk),
                        ("standings.points", "tournaments.Entry", bye.white_id)}
    # the standings keep one board per player and round: they no longer add up to the player's results
    points = next(x for x in v if x.kind == "standings.points")
    assert (points.expected, points.found) == ("1.5", "0.5")


def test_a_closed_round_without_a_result(ct):
    rnd = Round.objects.get(tournament=ct, number=2)
    m = board(ct, 2, 3)
    Match.objects.filter(pk=m.pk).update(white_points=None, black_points=None)
    got = kinds(scoped(ct))
    assert ("round.without_result", "tournaments.Round", rnd.pk) in got
    assert ("match.points", "tournaments.Match", m.pk) in got


def test_a_closed_round_whose_board_holds_a_partial_result(ct):
    """Issue 23: the state a correction racing the round close used to leave — a closed round, a board with
    one set and no match points (the partial correction written after the close read the board)."""
    rnd = Round.objects.get(tournament=ct, number=2)
    m = board(ct, 2, 1)
    m.sets.exclude(number=1).delete()
    Match.objects.filter(pk=m.pk).update(white_points=None, black_points=None, version=m.version + 1)
    v = check_invariants(tournaments=Tournament.objects.filter(pk=ct.pk), ratings=False, standings=False)
    assert [(x.kind, x.model, x.pk) for x in v] == [("round.without_result", "tournaments.Round", rnd.pk)]
    assert v[0].found == [1] and "the round is closed but boards 1 have no result" in v[0].message
    # the same board decided again: nothing to report
    Match.objects.filter(pk=m.pk).update(white_points=Decimal(1), black_points=Decimal(0))
    SetResult.objects.filter(match=m).delete()
    Match.objects.filter(pk=m.pk).update(forfeit="black")
    assert check_invariants(tournaments=Tournament.objects.filter(pk=ct.pk), ratings=False, standings=False) == []


def test_versions_start_at_1(ct):
    m = board(ct, 1, 3)
    Tournament.objects.filter(pk=ct.pk).update(version=0)
    Match.objects.filter(pk=m.pk).update(version=0)
    assert kinds(scoped(ct)) == {("tournament.version", "tournaments.Tournament", ct.pk),
                                 ("match.version", "tournaments.Match", m.pk)}


def test_the_standings_version_never_passes_the_version(ct):
    Tournament.objects.filter(pk=ct.pk).update(standings_version=ct.version + 1)
    v = scoped(ct)
    assert kinds(v) == {("tournament.standings_version", "tournaments.Tournament", ct.pk)}
    assert v[0].found == ct.version + 1 and v[0].expected == f"1..{ct.version}"


def test_cached_standings_that_the_data_no_longer_gives(ct):
    """The standings API caches its table under the tournament's version (tournaments/caching.py): a
    write that changes results without a new version leaves the site showing a stale table."""
    from django.test import Client

    for lang in ("en", "tr"):
        assert Client().get(f"/api/tournaments/{ct.slug}/standings/?lang={lang}").status_code == 200
    assert scoped(ct) == []  # cached and equal
    m = Match.objects.get(round__tournament=ct, forfeit="black")
    Match.objects.filter(pk=m.pk).update(forfeit="white", white_points=Decimal("0"), black_points=Decimal("1"))
    from django.utils import translation

    with translation.override("en"):  # the messages are translated (Turkish by default)
        v = scoped(ct)
    stale = [x for x in v if x.kind == "standings.cache"]
    assert kinds(v) == {("standings.cache", "tournaments.Tournament", ct.pk)}  # the data itself is sound
    assert {x.message.split("(")[1].split(",")[1].strip() for x in stale} == {"en", "tr"}
    assert any(f"the cached standings (public, en, version {ct.standings_version})" in x.message for x in stale)
    assert all("the data changed without a new version" in x.message for x in stale)


def test_withdrawals(ct):
    e1, e2 = ct.entries.get(start_no=1), ct.entries.get(start_no=2)
    Entry.objects.filter(pk=e1.pk).update(withdrawn=True)
    Entry.objects.filter(pk=e2.pk).update(withdrawn=True, withdrawn_after_round=1)
    v = scoped(ct)
    assert ("entry.withdrawal", "tournaments.Entry", e1.pk) in kinds(v)
    after = [x for x in v if x.kind == "entry.paired_after_withdrawal"]
    assert {x.pk for x in after} == {e2.pk} and len(after) == 2  # rounds 2 and 3
    assert "withdrawn after round 1 but paired on board" in after[0].message


def test_round_and_status_states(ct):
    r1 = Round.objects.get(tournament=ct, number=1)
    Round.objects.filter(pk=r1.pk).update(status="published")
    got = kinds(scoped(ct))
    assert ("tournament.round_not_closed", "tournaments.Round", r1.pk) in got
    assert ("tournament.status", "tournaments.Tournament", ct.pk) in got  # finished with a round open


def test_published_standings_after_a_round_that_is_not_closed(ct):
    Tournament.objects.filter(pk=ct.pk).update(standings_round=5)
    v = scoped(ct)
    assert ("tournament.standings_round", "tournaments.Tournament", ct.pk) in kinds(v)
    assert next(x for x in v if x.kind == "tournament.standings_round").expected == 3


def test_an_entry_of_another_tournament(ct, odd):
    m = board(ct, 1, 1)
    stranger = odd.entries.first()
    Match.objects.filter(pk=m.pk).update(black=stranger)
    v = scoped(ct)
    got = kinds(v)
    assert ("match.foreign_entry", "tournaments.Match", m.pk) in got
    assert ("standings.error", "tournaments.Tournament", ct.pk) in got
    assert check_invariants(tournaments=Tournament.objects.filter(pk=odd.pk)) == []  # the scope is one event


def test_rating_rows_that_do_not_follow_from_the_results(ct):
    ev = RatingEvent.objects.get(tournament=ct)
    change = RatingChange.objects.filter(event=ev, status_before="established").first()
    line = RatingGameLine.objects.filter(change__event=ev).first()
    RatingEvent.objects.filter(pk=ev.pk).update(rated_sets=ev.rated_sets + 1, forfeits=0)
    RatingChange.objects.filter(pk=change.pk).update(rating_after=change.rating_after + 5)
    RatingGameLine.objects.filter(pk=line.pk).update(margin=-line.margin if line.margin else 3)
    v = scoped(ct)
    got = kinds(v)
    counts = [x for x in v if x.kind == "rating.event_count"]
    assert {(x.pk, x.message.split(":")[1].strip()) for x in counts} == {(ev.pk, "rated_sets"), (ev.pk, "forfeits")}
    assert ("rating.change_total", "ratings.RatingChange", change.pk) in got
    assert ("rating.line", "ratings.RatingGameLine", line.pk) in got
    assert ("rating.player", "federation.Player", change.player_id) in got  # its rating is that change's


def test_a_player_rating_the_rating_run_did_not_write(ct):
    p = Player.objects.get(federation_id="CT-3")
    Player.objects.filter(pk=p.pk).update(rating=p.rating + 7)
    v = scoped(ct)
    assert kinds(v) == {("rating.player", "federation.Player", p.pk)}
    assert (v[0].expected, v[0].found) == (p.rating, p.rating + 7)


def test_a_rated_event_that_is_archived_and_one_that_is_not_rated(ct):
    ev = RatingEvent.objects.get(tournament=ct)
    Tournament.objects.filter(pk=ct.pk).update(archived_at=timezone.now())
    assert ("rating.not_rateable", "ratings.RatingEvent", ev.pk) in kinds(scoped(ct))
    Tournament.objects.filter(pk=ct.pk).update(archived_at=None)
    RatingEvent.objects.filter(pk=ev.pk).delete()
    assert ("rating.missing", "tournaments.Tournament", ct.pk) in kinds(scoped(ct))


# --------------------------------------------------------------------------------------------
# The pure rules
# --------------------------------------------------------------------------------------------


def test_pure_set_rules():
    assert set_findings(number=1, starter="white", white_stones=30, black_stones=18) == []
    assert [f.kind for f in set_findings(number=1, starter="white", white_stones=30, black_stones=20)] == [
        "set.stones_total"]
    assert [f.kind for f in set_findings(number=1, starter="white", white_stones=50, black_stones=0)] == [
        "set.stones_range"]
    assert set_findings(number=2, starter="black", white_stones=23, black_stones=25, termination="black_withdrew",
                        white_store=10, black_store=30) == []
    assert [f.kind for f in set_findings(number=1, starter="white", white_stones=25, black_stones=23,
                                         termination="white_withdrew")] == ["set.stores"]
    assert [f.kind for f in set_findings(number=1, starter="white", white_stones=24, black_stones=24,
                                         termination="agreed")] == ["set.termination"]


def test_pure_match_rules():
    assert match_findings(kind="game", white_points=1, black_points=0, sets=[(1, 30, 18), (2, 26, 22)]) == []
    assert match_findings(kind="game", sets=[(1, 30, 18)]) == []  # still open: no points yet
    assert [f.kind for f in match_findings(kind="game", white_points=1, black_points=0, sets=[(1, 30, 18)])] == [
        "match.points"]
    assert [f.kind for f in match_findings(kind="game", sets=[(1, 30, 18), (2, 30, 18), (3, 30, 18), (4, 30, 18)],
                                           white_points=1, black_points=0)] == ["match.set_count"]
    assert match_findings(kind="game", white_points=1, black_points=0, sets_required=False) == []
    assert [f.kind for f in match_findings(kind="game", white_points=1, black_points=1, sets_required=False)] == [
        "match.points_sum"]
    assert match_findings(kind="bye", bye_kind="pab", white_points=Decimal("0.5"), bye_points=Decimal("0.5")) == []
    assert match_findings(kind="game", forfeit="both", white_points=0, black_points=0) == []
    assert round_findings([(1, "game", 1, 2), (2, "bye", 3, None)]) == []


def test_pure_rating_rules():
    assert rating_change_findings(rating_before=1500, rating_after=1510.5, status_before="established", sets=2,
                                  deltas=[8.0, 2.5]) == []
    assert [f.kind for f in rating_change_findings(rating_before=1500, rating_after=1511, status_before="provisional",
                                                   sets=2, deltas=[8.0, 2.5])] == ["rating.change_total"]
    assert [f.kind for f in rating_change_findings(rating_before=0, rating_after=1400, status_before="unrated",
                                                   sets=3, deltas=[0, 0])] == ["rating.change_sets"]


STORES = st.tuples(st.integers(0, 48), st.integers(0, 48)).filter(lambda s: sum(s) <= 48)


@settings(max_examples=300, deadline=None)
@given(number=st.integers(1, 7), stores=STORES, withdrew=st.sampled_from([None, "white", "black"]))
def test_property_a_set_the_engine_records_breaks_no_rule(number, stores, withdrew):
    """Whatever the engine accepts and records (Kural 14.5) is sound; moving one stone breaks a rule."""
    w, b = stores
    by = {"white": "first", "black": "second", None: None}[withdrew]
    try:
        res = engine.set_result(w, b, withdrawn_by=by)
    except ValueError:
        return
    term = "completed" if withdrew is None else f"{withdrew}_withdrew"
    kept = {} if withdrew is None else {"white_store": w, "black_store": b}
    starter = "white" if number % 2 else "black"
    assert set_findings(number=number, starter=starter, white_stones=res.first, black_stones=res.second,
                        termination=term, **kept) == []
    if res.first > 0:
        assert set_findings(number=number, starter=starter, white_stones=res.first - 1, black_stones=res.second,
                            termination=term, **kept) != []


@settings(max_examples=300, deadline=None)
@given(sets=st.lists(st.sampled_from([(30, 18), (18, 30), (24, 24), (25, 23)]), min_size=1, max_size=5),
       n=st.sampled_from([1, 3, 5]))
def test_property_match_points_follow_from_the_sets(sets, n):
    numbered = [(i, w, b) for i, (w, b) in enumerate(sets, start=1)]
    try:
        mr = engine.match_result(sets, sets_per_match=n, allow_incomplete=True)
    except ValueError:
        assert match_findings(kind="game", sets=numbered, sets_per_match=n) != []
        return
    points = mr.match_points or (None, None)
    assert match_findings(kind="game", sets=numbered, sets_per_match=n, white_points=points[0],
                          black_points=points[1]) == []
    if mr.complete and points[0] != points[1]:
        assert [f.kind for f in match_findings(kind="game", sets=numbered, sets_per_match=n, white_points=points[1],
                                               black_points=points[0])] == ["match.points"]


# --------------------------------------------------------------------------------------------
# The command and the task
# --------------------------------------------------------------------------------------------


def run(*args) -> tuple[int, str]:
    """``manage.py check_invariants ARGS`` on the test's database: (exit status, stdout). The status is
    the ``CommandError``'s ``returncode``, which ``manage.py`` exits with (``BaseCommand.run_from_argv``;
    called here through ``call_command``, which keeps the test's connection open)."""
    out = io.StringIO()
    try:
        call_command("check_invariants", *args, stdout=out, stderr=io.StringIO())
    except CommandError as exc:
        return exc.returncode, out.getvalue()
    return 0, out.getvalue()


def test_the_command_exits_0_when_sound_and_1_listing_each_violation(ct):
    assert run() == (0, "no invariant is violated\n")
    code, out = run("--json")
    assert code == 0 and json.loads(out) == {"count": 0, "violations": []}

    s = set_of(ct, 1, 1, 2)
    SetResult.objects.filter(pk=s.pk).update(starter="white")
    code, out = run()
    assert code == 1
    assert out.splitlines() == [
        f"tournaments.SetResult {s.pk} set.starter: {ct.slug}, round 1, board 1: set 2 is started by white, but "
        f"black starts it (white starts odd sets, black even ones) (expected \"black\", found \"white\")"]
    code, out = run("--json", "--tournament", ct.slug)
    assert code == 1
    assert json.loads(out) == {"count": 1, "violations": [{
        "kind": "set.starter", "model": "tournaments.SetResult", "pk": s.pk, "expected": "black", "found": "white",
        "tournament": ct.slug,
        "message": f"{ct.slug}, round 1, board 1: set 2 is started by white, but black starts it (white starts odd "
                   "sets, black even ones)"}]}


def test_the_command_checks_one_tournament_and_refuses_an_unknown_one(ct, odd):
    SetResult.objects.filter(match__round__tournament=ct).filter(number=2).update(starter="white")
    assert run("--tournament", odd.slug) == (0, "no invariant is violated\n")
    assert run("--tournament", ct.slug)[0] == 1
    assert run("--tournament", "yok")[0] == 2
    code, out = run("--lang", "tr", "--json", "--tournament", ct.slug)
    assert code == 1 and json.loads(out)["count"] > 0


def test_the_task_logs_each_violation_and_returns_the_count(ct, caplog):
    assert check_invariants_task() == 0
    s = set_of(ct, 1, 1, 2)
    SetResult.objects.filter(pk=s.pk).update(starter="white")
    m = board(ct, 1, 3)
    Match.objects.filter(pk=m.pk).update(version=0)
    with caplog.at_level(logging.ERROR, logger="tournaments.tasks"):
        assert check_invariants_task() == 2
        assert check_invariants_task.delay(ct.pk).get() == 2  # eager here; a worker in production
    records = [r for r in caplog.records if r.name == "tournaments.tasks"]
    assert len(records) == 4 and {r.levelno for r in records} == {logging.ERROR}
    assert all(r.msg.startswith("invariant violated: ") for r in records)
    assert any(r.getMessage().startswith(f"invariant violated: set.starter tournaments.SetResult #{s.pk} ({ct.slug})")
               and r.getMessage().endswith("expected black, found white") for r in records)
    assert {(r.invariant, r.model, r.pk, r.expected, r.found, r.tournament) for r in records} == {
        ("set.starter", "tournaments.SetResult", s.pk, "black", "white", ct.slug),
        ("match.version", "tournaments.Match", m.pk, 1, 0, ct.slug)}
    assert all(r.detail.startswith(f"{ct.slug}, round 1, board ") for r in records)
