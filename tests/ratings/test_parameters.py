"""Tuning and adopting the federation's rating parameters: an adopted set changes
``ratings.parameters.selectors.rating_system()`` and the whole history is re-rated with it (equal to a direct engine
run to 0.01, different from the defaults' run); who, when and why are recorded, the set before is
retired, one set at most is in force (also as a database constraint); the way back to the shipped
defaults; the staff page and the API (401/403/400); ``rating_tune`` on the federation's own sets."""
from __future__ import annotations

import datetime as dt
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, transaction
from django.utils import timezone

from federation.errors import Conflict, PermissionDenied, ValidationFailed
from ratings import services
from ratings.engine import FEDERATION_SYSTEM, federation_params, federation_system, rate_events
from ratings.inputs import rateable_tournaments, rating_inputs
from ratings.models import InitialRating, RatingChange, RatingEvent, RatingParameterSet
from ratings.parameters import selectors as parameter_selectors
from ratings.parameters import services as parameter_services
from tests.factories import UserFactory
from tests.ratings.test_product import _publish, _two_round_event, four  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

# the share of the stone margin in a set's score and its scale: parameters of the federation's system
# whichever engine family it is (margin Elo, margin Glicko-2)
TUNED = {"margin_weight": 0.3, "margin_scale": 3.0}


# --------------------------------------------------------------------------------------------
# fixtures and helpers
# --------------------------------------------------------------------------------------------


@pytest.fixture
def staff():
    return UserFactory(username="federasyon", is_staff=True)


@pytest.fixture
def rated(four):  # noqa: F811
    """Two rated events of the same four players (all established: ratings 1600-1900)."""
    t1, org, _ = _two_round_event(
        four, "Bahar Açık", dt.date(2026, 4, 5),
        {1: [(30, 18), (20, 28), (36, 12)], 2: [(24, 24), (31, 17), (22, 26)]},
        {1: [(26, 22), (25, 23)], 2: [(10, 38), (40, 8), (25, 23)]},
    )
    _publish(t1, org)
    t2, org, _ = _two_round_event(
        four, "Yaz Açık", dt.date(2026, 6, 7),
        {1: [(28, 20), (18, 30), (26, 22)], 2: [(33, 15), (24, 24), (20, 28)]},
        {1: [(14, 34), (27, 21), (30, 18)], 2: [(12, 36), (20, 28)]},
        seed="summer",
    )
    _publish(t2, org)
    return [t1, t2], four


def _ratings_after() -> dict[tuple[int, int], float]:
    """(tournament id, player id) -> stored rating after the event."""
    return {(c.event.tournament_id, c.player_id): c.rating_after
            for c in RatingChange.objects.select_related("event")}


def _direct_run(params):
    """The whole history rated by the engine itself with ``params`` (over the shipped defaults)."""
    inputs = rating_inputs(rateable_tournaments())
    initial = {pid: float(r) for pid, r in InitialRating.objects.values_list("player_id", "rating") if r > 0}
    return rate_events([i.event for i in inputs], federation_system(params), initial=initial, history=True)


def _assert_stored_equals(run):
    stored = _ratings_after()
    assert stored
    for pid, entries in run.history.items():
        for h in entries:
            assert stored[(h.event_id, pid)] == pytest.approx(h.rating_after, abs=0.01)
    assert len(stored) == sum(len(v) for v in run.history.values())


def _adopt(django_capture_on_commit_callbacks, **kwargs):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        row = parameter_services.rating_parameters_adopt(**kwargs)
    assert len(callbacks) >= 1  # the full re-rating was queued on commit
    return row


# --------------------------------------------------------------------------------------------
# services
# --------------------------------------------------------------------------------------------


def test_adopting_a_set_changes_the_system_and_rerates_everything(rated, staff, django_capture_on_commit_callbacks):
    (t1, t2), four = rated
    defaults_run = _ratings_after()
    _assert_stored_equals(_direct_run(None))
    assert parameter_selectors.rating_system().params == federation_params(None)

    row = parameter_services.rating_parameters_create(label="Marj 0.3", params=TUNED, user=staff)
    assert not row.in_force and row.system == FEDERATION_SYSTEM
    assert row.params == parameter_selectors.parameter_values(TUNED)  # every parameter stored, the others as shipped
    assert row.params["margin_weight"] == 0.3 and len(row.params) == len(parameter_selectors.parameter_values(None))
    assert parameter_selectors.rating_system().params == federation_params(None)  # saved is not adopted
    assert _ratings_after() == defaults_run

    adopted = _adopt(django_capture_on_commit_callbacks, parameter_set=row, user=staff, reason="Kurul kararı 2026/4")
    assert adopted.pk == row.pk and adopted.in_force
    assert parameter_selectors.rating_system().params == federation_params(TUNED)
    after = _ratings_after()
    assert set(after) == set(defaults_run)
    moved = [k for k in after if abs(after[k] - defaults_run[k]) > 0.01]
    assert len(moved) >= len(after) * 3 // 4  # another weight of the margins: the ratings move
    _assert_stored_equals(_direct_run(TUNED))
    run = _direct_run(TUNED)
    for p in four:
        p.refresh_from_db()
        assert p.rating == int(run.rating(p.pk) + 0.5)
    assert set(RatingEvent.objects.values_list("system", flat=True)) == {FEDERATION_SYSTEM}
    assert not parameter_selectors.rerating_state().pending


def test_rating_system_is_one_query(rated, staff, django_assert_num_queries):
    row = parameter_services.rating_parameters_create(label="Marj 0.3", params=TUNED, user=staff)
    RatingParameterSet.objects.filter(pk=row.pk).update(adopted_at=timezone.now(), adopted_by=staff)
    with django_assert_num_queries(1):
        system = parameter_selectors.rating_system()
    assert system.params == federation_params(TUNED) != federation_params(None)


def test_history_records_who_when_why_and_retires_the_set_before(rated, staff, django_capture_on_commit_callbacks):
    other = UserFactory(username="ikinci", is_staff=True)
    a = parameter_services.rating_parameters_create(label="A", params={"margin_weight": 0.5}, user=staff)
    b = parameter_services.rating_parameters_create(label="B", params={"margin_weight": 0.25}, user=other)
    _adopt(django_capture_on_commit_callbacks, parameter_set=a, user=staff, reason="ilk ayar")
    _adopt(django_capture_on_commit_callbacks, parameter_set=b, user=other, reason="daha kararlı")
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.adopted_by, a.adoption_reason, a.retired_by) == (staff, "ilk ayar", other)
    assert a.retired_at == b.adopted_at and a.adopted_at < b.adopted_at
    assert (b.adopted_by, b.adoption_reason, b.retired_at) == (other, "daha kararlı", None)
    assert list(RatingParameterSet.objects.filter(adopted_at__isnull=False, retired_at__isnull=True)) == [b]
    assert parameter_selectors.rating_system().params == federation_params({"margin_weight": 0.25})

    rows = list(RatingParameterSet.history.filter(id=a.pk).order_by("history_date", "history_id"))
    assert [(r.audit_action, r.history_user, r.history_change_reason) for r in rows] == [
        ("rating_parameters.create", staff, None),
        ("rating_parameters.adopt", staff, "ilk ayar"),
        ("rating_parameters.adopt", other, "daha kararlı"),  # retired by B's adoption
    ]
    b_adopt = RatingParameterSet.history.filter(id=b.pk, audit_action="rating_parameters.adopt").get()
    assert b_adopt.audit_action_id == rows[2].audit_action_id  # one action: retire A, adopt B

    overview = parameter_selectors.parameter_overview()
    assert overview.in_force == b
    assert [r.pk for r in overview.history] == [b.pk, a.pk]
    assert overview.candidates == ()
    assert {r.name: r.value for r in overview.rows}["margin_weight"] == 0.25


def test_adopting_a_retired_set_again_adopts_a_copy(rated, staff, django_capture_on_commit_callbacks):
    a = parameter_services.rating_parameters_create(label="A", params={"margin_weight": 0.5}, user=staff)
    b = parameter_services.rating_parameters_create(label="B", params={"margin_weight": 0.25}, user=staff)
    _adopt(django_capture_on_commit_callbacks, parameter_set=a, user=staff, reason="1")
    _adopt(django_capture_on_commit_callbacks, parameter_set=b, user=staff, reason="2")
    again = _adopt(django_capture_on_commit_callbacks, parameter_set=a, user=staff, reason="3")
    a.refresh_from_db()
    assert again.pk not in (a.pk, b.pk) and again.params == a.params and again.label == "A"
    assert a.adoption_reason == "1" and a.retired_at is not None  # the first adoption stays as it was
    assert list(RatingParameterSet.objects.filter(adopted_at__isnull=False, retired_at__isnull=True)) == [again]
    assert RatingParameterSet.objects.filter(adopted_at__isnull=False).count() == 3


def test_only_one_set_in_force_is_a_database_constraint(staff):
    now = timezone.now()
    RatingParameterSet.objects.create(label="A", params={}, adopted_at=now, adopted_by=staff)
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingParameterSet.objects.create(label="B", params={}, adopted_at=now, adopted_by=staff)
    with pytest.raises(IntegrityError), transaction.atomic():  # retired without ever being adopted
        RatingParameterSet.objects.create(label="C", params={}, retired_at=now)
    # a retired set and another system's set are not "in force" for the federation's system
    RatingParameterSet.objects.create(label="D", params={}, adopted_at=now, retired_at=now)
    RatingParameterSet.objects.create(label="E", system="glicko2", params={}, adopted_at=now)
    assert RatingParameterSet.objects.filter(adopted_at__isnull=False, retired_at__isnull=True).count() == 2


def test_return_to_the_shipped_defaults(rated, staff, django_capture_on_commit_callbacks):
    defaults_run = _ratings_after()
    a = parameter_services.rating_parameters_create(label="A", params=TUNED, user=staff)
    _adopt(django_capture_on_commit_callbacks, parameter_set=a, user=staff, reason="deneme")
    assert _ratings_after() != defaults_run
    with pytest.raises(ValidationFailed) as exc:
        parameter_services.rating_parameters_revert_to_defaults(user=staff, reason="  ")
    assert exc.value.field == "reason"
    with django_capture_on_commit_callbacks(execute=True):
        retired = parameter_services.rating_parameters_revert_to_defaults(user=staff, reason="sonuçlar kötü")
    assert retired.pk == a.pk and retired.retired_by == staff and retired.retired_at is not None
    assert parameter_selectors.rating_system().params == federation_params(None)
    after = _ratings_after()
    assert after.keys() == defaults_run.keys()
    for key, value in defaults_run.items():
        assert after[key] == pytest.approx(value, abs=0.01)
    row = RatingParameterSet.history.filter(id=a.pk).order_by("-history_date", "-history_id").first()
    assert (row.audit_action, row.history_user, row.history_change_reason) == (
        "rating_parameters.revert", staff, "sonuçlar kötü")
    overview = parameter_selectors.parameter_overview()
    assert overview.in_force is None and overview.history[0].revert_reason == "sonuçlar kötü"
    with pytest.raises(Conflict):
        parameter_services.rating_parameters_revert_to_defaults(user=staff, reason="yine")


def test_refusals(staff):
    player_user = UserFactory(username="oyuncu")
    with pytest.raises(PermissionDenied):
        parameter_services.rating_parameters_create(label="A", params={}, user=player_user)
    defaults = parameter_selectors.parameter_values(None)
    flag = next(k for k, v in defaults.items() if isinstance(v, bool))
    count = next(k for k, v in defaults.items() if type(v) is int)
    for params, key in (({"margin_scale": -1}, "margin_scale"), ({"nope": 1}, "nope"),
                        ({"margin_weight": 1.5}, "margin_weight"), ({count: 2.5}, count),
                        ({"margin_scale": "6"}, "margin_scale"), ({flag: 1}, flag),
                        ({"margin_scale": float("inf")}, "margin_scale")):
        with pytest.raises(ValidationFailed) as exc:
            parameter_services.rating_parameters_create(label="A", params=params, user=staff)
        assert exc.value.field == "params" and key in exc.value.message
    with pytest.raises(ValidationFailed) as exc:
        parameter_services.rating_parameters_create(label="A", params=[1, 2], user=staff)
    assert exc.value.field == "params"
    with pytest.raises(ValidationFailed) as exc:
        parameter_services.rating_parameters_create(label=" ", params={}, user=staff)
    assert exc.value.field == "label"
    row = parameter_services.rating_parameters_create(label="A", params={}, user=staff)
    with pytest.raises(ValidationFailed) as exc:
        parameter_services.rating_parameters_adopt(parameter_set=row, user=staff, reason="")
    assert exc.value.field == "reason"
    with pytest.raises(PermissionDenied):
        parameter_services.rating_parameters_adopt(parameter_set=row, user=player_user, reason="x")
    with pytest.raises(PermissionDenied):
        parameter_services.rating_parameters_revert_to_defaults(user=player_user, reason="x")
    parameter_services.rating_parameters_adopt(parameter_set=row, user=staff, reason="x")
    with pytest.raises(Conflict):
        parameter_services.rating_parameters_adopt(parameter_set=row, user=staff, reason="x")
    # stored parameters the engine no longer accepts are refused at adoption, naming the parameter
    bad = RatingParameterSet.objects.create(label="eski", system=FEDERATION_SYSTEM, params={"k_old": 3})
    with pytest.raises(ValidationFailed) as exc:
        parameter_services.rating_parameters_adopt(parameter_set=bad, user=staff, reason="x")
    assert exc.value.field == "params" and "k_old" in exc.value.message
    other_system = RatingParameterSet.objects.create(label="başka", system="another_system", params={})
    with pytest.raises(Conflict) as exc:
        parameter_services.rating_parameters_adopt(parameter_set=other_system, user=staff, reason="x")
    assert "another_system" in exc.value.message
    assert RatingParameterSet.objects.get(pk=row.pk).in_force  # nothing changed


def test_rerating_state_is_pending_until_the_rerating_ran(client, rated, staff):
    client.force_login(staff)
    row = parameter_services.rating_parameters_create(label="A", params=TUNED, user=staff)
    assert parameter_selectors.rerating_state().since is None and not parameter_selectors.rerating_state().pending
    parameter_services.rating_parameters_adopt(parameter_set=row, user=staff, reason="x")  # on-commit job not run here
    state = parameter_selectors.rerating_state()
    assert state.pending and state.stale_events == state.total_events == 2
    html = client.get("/ratings/parameters/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="rerating-pending"' in html and "2 of 2 rated events" in html
    services.ratings_recompute_all()
    assert not parameter_selectors.rerating_state().pending
    html = client.get("/ratings/parameters/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="rerating-pending"' not in html and 'data-testid="rerating-done"' in html


# --------------------------------------------------------------------------------------------
# API
# --------------------------------------------------------------------------------------------


def test_api_requires_staff(client, staff):
    assert client.get("/api/ratings/parameters/").status_code == 401
    client.force_login(UserFactory(username="hakem", groups=["referee"]))
    resp = client.get("/api/ratings/parameters/")
    assert resp.status_code == 403 and resp.json()["error"]["code"] == "permission_denied"
    row = parameter_services.rating_parameters_create(label="A", params={}, user=staff)
    resp = client.post(f"/api/ratings/parameters/{row.pk}/adopt/", {"reason": "x"}, content_type="application/json")
    assert resp.status_code == 403
    assert client.post("/api/ratings/parameters/", {"label": "B", "params": {}},
                       content_type="application/json").status_code == 403
    assert not RatingParameterSet.objects.get(pk=row.pk).in_force


def test_api_lists_creates_and_adopts(client, rated, staff, django_capture_on_commit_callbacks):
    client.force_login(staff)
    body = client.get("/api/ratings/parameters/").json()
    assert body["in_force"] is None and body["system"] == FEDERATION_SYSTEM
    assert body["params"] == body["defaults"] == parameter_selectors.parameter_values(None)
    assert body["defaults"]["margin_weight"] == federation_params(None).margin_weight
    assert body["candidates"] == [] and body["history"] == []

    resp = client.post("/api/ratings/parameters/", {"label": "Bozuk", "params": {"margin_weight": 3}},
                       content_type="application/json")
    assert resp.status_code == 400
    assert resp.json()["error"]["field"] == "params" and "margin_weight" in resp.json()["error"]["message"]
    resp = client.post("/api/ratings/parameters/", {"label": "Marj", "params": TUNED}, content_type="application/json")
    assert resp.status_code == 201
    pk = resp.json()["id"]
    assert resp.json()["params"]["margin_scale"] == 3.0 and resp.json()["in_force"] is False

    resp = client.post(f"/api/ratings/parameters/{pk}/adopt/", {}, content_type="application/json")
    assert resp.status_code == 400 and resp.json()["error"]["field"] == "reason"
    assert client.post("/api/ratings/parameters/999999/adopt/", {"reason": "x"},
                       content_type="application/json").status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        resp = client.post(f"/api/ratings/parameters/{pk}/adopt/", {"reason": "Kurul kararı"},
                           content_type="application/json")
    assert resp.status_code == 200
    got = resp.json()
    assert got["in_force"] is True and got["adopted_by"] == "federasyon" and got["adoption_reason"] == "Kurul kararı"
    _assert_stored_equals(_direct_run(TUNED))
    resp = client.post(f"/api/ratings/parameters/{pk}/adopt/", {"reason": "x"}, content_type="application/json")
    assert resp.status_code == 409

    body = client.get("/api/ratings/parameters/").json()
    assert body["in_force"]["id"] == pk and body["params"]["margin_weight"] == 0.3
    assert [h["id"] for h in body["history"]] == [pk] and body["rerating"]["pending"] is False

    with django_capture_on_commit_callbacks(execute=True):
        resp = client.post("/api/ratings/parameters/revert/", {"reason": "geri"}, content_type="application/json")
    assert resp.status_code == 200 and resp.json()["retired_by"] == "federasyon"
    assert client.get("/api/ratings/parameters/").json()["in_force"] is None


# --------------------------------------------------------------------------------------------
# staff page
# --------------------------------------------------------------------------------------------


def test_page_is_for_staff(client):
    resp = client.get("/ratings/parameters/")
    assert resp.status_code == 302 and "/login" in resp["Location"]
    client.force_login(UserFactory(username="org", groups=["organiser"]))
    resp = client.get("/ratings/parameters/")
    assert resp.status_code == 403
    resp = client.post("/ratings/parameters/revert/", {"revert-reason": "x"})
    assert resp.status_code == 403


def test_page_shows_defaults_candidates_and_adopts(client, rated, staff, django_capture_on_commit_callbacks):
    client.force_login(staff)
    row = parameter_services.rating_parameters_create(
        label="Ayarlı 2026", params=TUNED, user=None,
        report={"logloss": {"margin": 0.9, "elo": 0.95, "glicko2": 0.97}, "events": 12, "held_out_sets": 300,
                "date_range": ["2025-01-10", "2026-11-20"], "current": {"label": None, "logloss": 0.93}},
    )
    resp = client.get("/ratings/parameters/")  # Turkish first: decimal commas
    assert resp.status_code == 200
    html = resp.content.decode()
    assert "Ayarlı 2026" in html and 'data-testid="adopt-form"' in html and 'data-testid="revert-form"' not in html
    assert "0,9000" in html
    html = client.get("/ratings/parameters/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # held-out log loss of the tuned set, and its difference to the set in force and the baselines
    assert "Shipped defaults" in html and "0.9000" in html
    assert "−0.0300" in html or "-0.0300" in html
    assert "−0.0500" in html or "-0.0500" in html
    assert "−0.0700" in html or "-0.0700" in html
    assert "a full re-rating" in html

    resp = client.post(f"/ratings/parameters/{row.pk}/adopt/", {f"adopt-{row.pk}-reason": ""})
    assert resp.status_code == 400 and not RatingParameterSet.objects.get(pk=row.pk).in_force
    with django_capture_on_commit_callbacks(execute=True):
        resp = client.post(f"/ratings/parameters/{row.pk}/adopt/", {f"adopt-{row.pk}-reason": "Kurul kararı"})
    assert resp.status_code == 302 and resp["Location"] == "/ratings/parameters/"
    assert parameter_selectors.rating_system().params == federation_params(TUNED)
    html = client.get("/ratings/parameters/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="revert-form"' in html and "Kurul kararı" in html and "rerating-done" in html

    resp = client.post("/ratings/parameters/new/", {"label": "Elle", "params": "{\"k\": "})
    assert resp.status_code == 400
    resp = client.post("/ratings/parameters/new/", {"label": "Elle", "params": json.dumps({"margin_scale": -3})})
    assert resp.status_code == 400 and "margin_scale" in " ".join(resp.context["create_form"].errors["params"])
    resp = client.post("/ratings/parameters/new/", {"label": "Elle", "params": json.dumps({"margin_weight": 0.6})})
    assert resp.status_code == 302
    made = RatingParameterSet.objects.get(label="Elle")
    assert made.params["margin_weight"] == 0.6 and made.report == {} and made.created_by == staff
    assert not made.in_force

    with django_capture_on_commit_callbacks(execute=True):
        resp = client.post("/ratings/parameters/revert/", {"revert-reason": "geri dön"})
    assert resp.status_code == 302 and parameter_selectors.rating_system().params == federation_params(None)


# --------------------------------------------------------------------------------------------
# rating_tune on the federation's own sets
# --------------------------------------------------------------------------------------------


@pytest.fixture
def four_dates(rated):
    """A third event of the four players, then the shared completed tournament (rated on the day it
    was created): rated sets on four dates, 11 + 11 + 11 + 20. The split by sets: the first date is the
    burn-in (10%), the next two the tuning part (up to 60%), the completed tournament is held out."""
    from tests.tournaments.conftest import build_completed_tournament
    from tournaments.models import Tournament

    (t1, t2), players = rated
    t3, org, _ = _two_round_event(
        players, "Güz Açık", dt.date(2026, 9, 6),
        {1: [(30, 18), (18, 30), (28, 20)], 2: [(20, 28), (24, 24), (30, 18)]},
        {1: [(22, 26), (30, 18), (26, 22)], 2: [(36, 12), (30, 18)]},
        seed="autumn",
    )
    _publish(t3, org)
    t = build_completed_tournament()
    _publish(t, Tournament.objects.get(pk=t.pk).created_by)
    return [t1, t2, t3, t]


def test_rating_tune_quick_saves_a_valid_candidate_and_writes_nothing_else(four_dates, staff):
    initial_rows = InitialRating.objects.count()
    before = _ratings_after()
    out, err = StringIO(), StringIO()
    call_command("rating_tune", "--quick", "--save", "Ayar 2026", stdout=out, stderr=err)
    last = out.getvalue().strip().splitlines()[-1]
    report = json.loads(last)
    assert "| System |" in out.getvalue() or "|---|" in out.getvalue()  # the markdown table comes first
    assert report["events"] == 4 and report["total_sets"] == sum(e.rated_sets for e in RatingEvent.objects.all())
    assert report["date_range"][0] == "2026-04-05" and report["budget"] == 2 and report["bootstrap"] == 200
    assert set(report["logloss"]) == {"margin", "elo", "glicko2"}
    assert 0 < report["logloss"]["margin"] < 5 and report["sets"] > 0
    assert report["current"] == {"id": None, "label": None, "params": {},
                                 "logloss": report["defaults"]["logloss"]["margin"]}

    row = RatingParameterSet.objects.get(label="Ayar 2026")
    assert not row.in_force and row.created_by is None and row.system == FEDERATION_SYSTEM
    federation_params(row.params)  # valid for the engine (raises otherwise)
    assert row.params == parameter_selectors.parameter_values(report["params"])
    assert row.report == report
    # read only: no initial rating captured, no rating rewritten, the defaults still in force
    assert InitialRating.objects.count() == initial_rows and _ratings_after() == before
    assert parameter_selectors.rating_system().params == federation_params(None)


def test_rating_tune_scores_the_set_in_force_on_the_same_split(four_dates, staff, django_capture_on_commit_callbacks):
    from ratings.management.commands.rating_tune import federation_events, held_out_logloss

    row = parameter_services.rating_parameters_create(label="Marj 0.3", params=TUNED, user=staff)
    _adopt(django_capture_on_commit_callbacks, parameter_set=row, user=staff, reason="x")
    out = StringIO()
    call_command("rating_tune", "--quick", stdout=out, stderr=StringIO())
    report = json.loads(out.getvalue().strip().splitlines()[-1])
    assert report["current"]["id"] == row.pk and report["current"]["label"] == "Marj 0.3"
    events, initial = federation_events()
    assert report["held_out_from"] == str(timezone.localdate(four_dates[3].created_at)) and len(events) == 4
    want = held_out_logloss(events, row.params, burn=1, split=3, initial=initial)  # see four_dates
    assert report["current"]["logloss"] == pytest.approx(want, abs=1e-6)
    # the same computation for the shipped defaults gives the evaluation's own score of them
    defaults = held_out_logloss(events, None, burn=1, split=3, initial=initial)
    assert report["defaults"]["logloss"]["margin"] == pytest.approx(defaults, abs=1e-6)
    assert report["current"]["logloss"] != pytest.approx(report["defaults"]["logloss"]["margin"], abs=1e-6)
    assert not RatingParameterSet.objects.exclude(pk=row.pk).exists()  # without --save nothing is stored


def test_rating_tune_needs_three_dates(rated):
    with pytest.raises(CommandError) as exc:
        call_command("rating_tune", "--quick", stdout=StringIO(), stderr=StringIO())
    assert "at least 3" in str(exc.value) and "2 date(s)" in str(exc.value)
    with pytest.raises(CommandError):
        call_command("rating_tune", "--quick", "--save", " ", stdout=StringIO(), stderr=StringIO())
    assert not RatingParameterSet.objects.exists()


@pytest.mark.django_db
def test_the_rule_that_a_win_never_lowers_a_rating_cannot_be_switched_off(staff):
    """monotone is the federation's rule, not a parameter (the fresh-user trial adopted monotone=false
    and every page still promised the rule)."""
    from federation.errors import ValidationFailed
    from ratings.engine import RatingInputError, federation_params

    with pytest.raises(ValidationFailed) as exc:
        parameter_services.rating_parameters_create(label="kural yok", params={"monotone": False}, user=staff)
    assert exc.value.field == "params" and "monotone" in str(exc.value.message)
    with pytest.raises(RatingInputError, match="monotone"):
        federation_params({"monotone": False})
    assert federation_params({"monotone": True}).monotone is True
