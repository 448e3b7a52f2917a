"""Issue 23, item 3: rating parameter sets that crashed the site. The reported values are refused at
creation (API 400 naming the field and why; the staff form shows the reason in Turkish and English;
the model's ``clean``); a stored set outside the ranges cannot be adopted and never makes
``GET /ratings/`` a 500; a re-rating that fails keeps the previous ratings served, undoes the
adoption that caused it and says why on the staff page and in the API."""
from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from federation.errors import ValidationFailed
from federation.models import Player
from ratings import services
from ratings.parameters import selectors as parameter_selectors
from ratings.parameters import services as parameter_services
from ratings.engine import FEDERATION_SYSTEM, federation_params
from ratings.models import RatingParameterSet
from ratings.parameters.rerating import latest_rerating_failure
from tests.ratings.test_parameters import TUNED, _adopt, _assert_stored_equals, _direct_run, _ratings_after, rated, staff  # noqa: F401
from tests.ratings.test_product import four  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

# what issue 23 reported (each made the re-rating and the rating list fail)
REPORTED = [
    ({"margin_scale": 0.03}, "margin_scale"),
    ({"initial_rd": 0.03, "known_rd": 0.02, "min_rd": 0.01}, "initial_rd"),
    ({"min_rd": 0.5}, "min_rd"),
    ({"default_rating": 1e6}, "default_rating"),
    ({"max_volatility": 1e9}, "max_volatility"),
]


@pytest.mark.parametrize("params, name", REPORTED)
def test_the_reported_values_are_refused_by_the_api_naming_the_field(client, staff, params, name):  # noqa: F811
    client.force_login(staff)
    resp = client.post("/api/ratings/parameters/", {"label": "Bozuk", "params": params}, content_type="application/json",
                       HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400
    error = resp.json()["error"]
    assert error["field"] == "params" and error["message"].startswith(f"{name} must be a number from ")
    assert f"got {params[name]!r}" in error["message"]
    assert not RatingParameterSet.objects.exists()  # nothing half-saved


def test_the_refusal_gives_the_range_unit_and_reason_in_turkish_and_english(client, staff):  # noqa: F811
    client.force_login(staff)
    body = json.dumps({"margin_scale": 0.03})
    resp = client.post("/ratings/parameters/new/", {"label": "Elle", "params": body}, HTTP_ACCEPT_LANGUAGE="en")
    assert resp.status_code == 400
    (message,) = resp.context["create_form"].errors["params"]
    assert message == ("margin_scale must be a number from 1 to 48 stones (a margin is counted in whole stones "
                       "(at most 48); a smaller scale overflows); got 0.03.")
    resp = client.post("/ratings/parameters/new/", {"label": "Elle", "params": body}, HTTP_ACCEPT_LANGUAGE="tr")
    (message,) = resp.context["create_form"].errors["params"]
    assert message.startswith("margin_scale 1 ile 48 taş arasında bir sayı olmalı") and "0.03" in message
    assert message in resp.content.decode().replace("&#x27;", "'")
    assert not RatingParameterSet.objects.exists()


def test_the_model_clean_refuses_out_of_range_values():
    row = RatingParameterSet(label="x", params={"default_rating": 1e6})
    with pytest.raises(ValidationError) as exc:
        row.full_clean()
    assert "default_rating" in exc.value.message_dict["params"][0]
    RatingParameterSet(label="x", params=TUNED).full_clean()  # admitted


def _bad_set(*, adopted: bool) -> RatingParameterSet:
    """A set stored before the ranges existed (written past the services' checks)."""
    now = timezone.now()
    return RatingParameterSet.objects.create(label="Eski bozuk", system=FEDERATION_SYSTEM, params={"margin_weight": 0.5, "margin_scale": 0.03},
                                             adopted_at=now if adopted else None)


def test_a_stored_set_out_of_range_cannot_be_adopted(client, staff):  # noqa: F811
    row = _bad_set(adopted=False)
    with pytest.raises(ValidationFailed) as exc:
        parameter_services.rating_parameters_adopt(parameter_set=row, user=staff, reason="deneme")
    assert exc.value.field == "params" and exc.value.message.startswith("margin_scale")
    client.force_login(staff)
    resp = client.post(f"/api/ratings/parameters/{row.pk}/adopt/", {"reason": "deneme"}, content_type="application/json")
    assert resp.status_code == 400 and resp.json()["error"]["field"] == "params"
    row.refresh_from_db()
    assert not row.in_force and parameter_selectors.rating_system().params == federation_params(None)


def test_the_rating_list_is_served_while_a_broken_set_is_in_force(client, rated, staff):  # noqa: F811
    _bad_set(adopted=True)
    with pytest.raises(Exception):  # what used to make GET /ratings/ a 500
        parameter_selectors.rating_system()
    resp = client.get("/ratings/")
    assert resp.status_code == 200 and resp.context["provisional_rd"] == int(federation_params(None).provisional_rd)
    client.force_login(staff)
    assert client.get("/ratings/parameters/").status_code == 200
    assert client.get("/api/ratings/parameters/").status_code == 200


def test_a_failed_rerating_keeps_the_ratings_and_undoes_the_adoption(client, rated, staff, monkeypatch,  # noqa: F811
                                                                     django_capture_on_commit_callbacks):
    first = parameter_services.rating_parameters_create(label="Marj 0.3", params=TUNED, user=staff)
    _adopt(django_capture_on_commit_callbacks, parameter_set=first, user=staff, reason="Kurul kararı")
    _assert_stored_equals(_direct_run(TUNED))
    before = _ratings_after()
    before_players = dict(Player.objects.values_list("pk", "rating"))
    second = parameter_services.rating_parameters_create(label="Yeni", params={"margin_weight": 0.6}, user=staff)

    def broken(*args, **kwargs):
        raise ZeroDivisionError("float division by zero")

    monkeypatch.setattr(services, "rate_events", broken)  # the engine fails half-way through the job
    adopted = _adopt(django_capture_on_commit_callbacks, parameter_set=second, user=staff, reason="Deneme")

    assert _ratings_after() == before  # the previous ratings are still served
    assert dict(Player.objects.values_list("pk", "rating")) == before_players
    adopted.refresh_from_db()
    first.refresh_from_db()
    assert not adopted.in_force and adopted.rerating_error == "ZeroDivisionError: float division by zero"
    assert adopted.rerating_failed_at is not None and adopted.retired_by is None
    assert first.in_force  # what is in force is what the served ratings were computed with
    assert parameter_selectors.rating_system().params == federation_params(TUNED)
    assert adopted.history.first().audit_action == "rating_parameters.rerating_failed"

    assert client.get("/ratings/").status_code == 200
    client.force_login(staff)
    html = client.get("/ratings/parameters/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="rerating-failed"' in html and "ZeroDivisionError: float division by zero" in html
    assert "Its adoption was undone" in html
    html = client.get("/ratings/parameters/", HTTP_ACCEPT_LANGUAGE="tr").content.decode()
    assert "ile tam yeniden derecelendirme başarısız oldu" in html and "Kabulü geri alındı" in html
    failure = client.get("/api/ratings/parameters/").json()["rerating_failure"]
    assert failure["parameter_set"] == adopted.pk and failure["in_force"] is False
    assert failure["error"] == "ZeroDivisionError: float division by zero"

    # the next re-rating that succeeds clears the message
    monkeypatch.undo()
    services.ratings_recompute_all()
    assert latest_rerating_failure() is None
    assert 'data-testid="rerating-failed"' not in client.get("/ratings/parameters/").content.decode()


def test_a_failed_rerating_after_the_first_adoption_returns_to_the_defaults(rated, staff, monkeypatch,  # noqa: F811
                                                                           django_capture_on_commit_callbacks,
                                                                           django_assert_num_queries):
    before = _ratings_after()
    row = parameter_services.rating_parameters_create(label="Yeni", params=TUNED, user=staff)
    monkeypatch.setattr(services, "rate_events", lambda *a, **k: (_ for _ in ()).throw(OverflowError("math range error")))
    _adopt(django_capture_on_commit_callbacks, parameter_set=row, user=staff, reason="Deneme")
    row.refresh_from_db()
    assert _ratings_after() == before and not row.in_force
    assert parameter_selectors.rating_system().params == federation_params(None)
    with django_assert_num_queries(2):
        assert latest_rerating_failure().rerating_error == "OverflowError: math range error"


def test_a_refused_run_records_the_reason_without_undoing_the_adoption(rated, staff):  # noqa: F811
    from ratings.parameters.rerating import rerating_failure_record

    row = RatingParameterSet.objects.create(label="Yeni", system=FEDERATION_SYSTEM, params=TUNED,
                                            adopted_at=timezone.now())  # adopted, its re-rating not run yet
    assert rerating_failure_record(error="ValidationFailed: round 1, board 1, set 2", undo=False) == row
    row.refresh_from_db()
    assert row.in_force and row.rerating_error == "ValidationFailed: round 1, board 1, set 2"
    rerating_failure_record(error="OverflowError: math range error")
    row.refresh_from_db()
    assert not row.in_force and row.rerating_error == "OverflowError: math range error"
