"""Issue 23 item 6: permission before validation, on every write operation of the OpenAPI schema.

Each write (POST/PUT/PATCH/DELETE) gets an invalid body, as an anonymous client (401/403), as a plain
player and as the referee of another event (403). Never 400/404/409/422 for them: a known, public
tournament's sub-objects (rounds, boards, entries, teams) and the body are looked at only after the
permission check. Operations open to everyone are listed in :data:`OPEN` and skipped.
"""
from __future__ import annotations

import re

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import TournamentFactory, TournamentRoleFactory, UserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

#: writes anyone may send (no role involved): a pure check of a game record
OPEN = {"games_validate_record"}
SLUG = "acik-turnuva"
#: path parameters: a known public tournament; everything below it made up (must not matter)
PARAMS = {"slug": SLUG, "number": "1", "board": "1", "start_no": "1", "pair_id": "1", "club_id": "1",
          "federation_id": "TR10000", "on": "2026-01-01", "id": "1"}
INVALID = {"sets": "x", "name": ["?"], "reason": {"x": 1}, "confirm": 7, "rounds_total": "many"}


def _write_operations():
    """Every write operation of ``/api/schema/`` (drf-spectacular; built without the database)."""
    schema = Client().get("/api/schema/?format=json").json()
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            if method in ("post", "put", "patch", "delete") and op["operationId"] not in OPEN:
                yield pytest.param(method, path, id=op["operationId"])


def _operations():
    import django  # collection time: pytest-django has configured the settings; setup() is idempotent

    django.setup()
    return list(_write_operations())


@pytest.fixture
def world():
    TournamentFactory(slug=SLUG, status=Tournament.Status.RUNNING)
    other = TournamentFactory(slug="baska-turnuva", status=Tournament.Status.RUNNING)
    ref = UserFactory(username="baska-hakem")
    TournamentRoleFactory(tournament=other, user=ref, role="referee")
    return {"player": UserFactory(username="oyuncu"), "referee_elsewhere": ref}


def _url(path: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: PARAMS[m.group(1)], path)


@pytest.mark.parametrize(("method", "path"), _operations())
def test_no_role_means_403_before_any_validation(world, method, path):
    url = _url(path)
    anonymous = getattr(APIClient(), method)(url, INVALID, format="json")
    assert anonymous.status_code in (401, 403), (url, anonymous.status_code, anonymous.content[:300])
    for who in ("player", "referee_elsewhere"):
        api = APIClient()
        api.force_authenticate(world[who])
        response = getattr(api, method)(url, INVALID, format="json")
        assert response.status_code == 403, (who, url, response.status_code, response.content[:300])
        assert response.json()["error"]["code"] == "permission_denied", response.json()


@pytest.mark.parametrize("method", ["patch", "delete"])
def test_an_unknown_slug_is_still_404_for_a_user(world, method):
    api = APIClient()
    api.force_authenticate(world["player"])
    assert getattr(api, method)("/api/tournaments/yok-boyle-bir-turnuva/", INVALID, format="json").status_code == 404
