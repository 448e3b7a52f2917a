"""Issue 23 item 6, the HTML half: permission before validation on every page that takes a POST.

Every URL pattern of the site (``get_resolver()``, walked recursively; the JSON API and the admin are
covered elsewhere) whose view has a POST handler gets an empty/invalid form body as an anonymous client
(a redirect to the login page, or 403), as a plain logged-in player and as the referee of another event
(403). Never 200 with a form error, 400, 404 or 409 for them: the known, public tournament / event /
player / club / account in the path and the body are looked at only after the role check. Pages open to
everyone are listed in :data:`OPEN` with the reason. Django's test client does not enforce CSRF.
"""
from __future__ import annotations

import inspect
import re

import pytest
from django.conf import settings
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import URLResolver, get_resolver

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory, TournamentRoleFactory, UserFactory
from tournaments.models import Event, Tournament

pytestmark = pytest.mark.django_db

#: POST pages anyone may use, with the reason
OPEN = {
    "login": "logging in is for people without a session",
    "logout": "anyone may end their own session",
    "password_reset": "asking for a reset link is for people who cannot log in",
    "password_reset_confirm": "the e-mailed token is the credential",
    "password_change": "any logged-in user changes their own password (anonymous: login redirect, checked below)",
    "set_language": "the language switch is harmless and public",
}
#: POST pages any referee may use (the role is not tied to one tournament), with the reason
ANY_REFEREE = {
    "record-import": "any referee or organiser pastes set records; each record is checked against its own "
                     "board's tournament when the import runs (tournaments.records.services)",
}
SLUG = "acik-turnuva"
EVENT_SLUG = "acik-etkinlik"
FEDERATION_ID = "TR99001"
#: path parameters: known public objects; everything below them made up (must not matter)
PARAMS = {"slug": SLUG, "number": "1", "board": "1", "start_no": "1", "pair_id": "1", "category_id": "1",
          "prize_id": "1", "reg_id": "1", "team_id": "1", "member_id": "1", "federation_id": FEDERATION_ID,
          "on": "2026-01-01", "pk": "1", "role_id": "1", "import_id": "1",
          "club_id": "1"}
INVALID = {"sets": "x", "name": "", "reason": "", "confirm": "7", "rounds_total": "many", "player": "yok"}


def _walk(patterns, prefix=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _walk(p.url_patterns, prefix + str(p.pattern))
        else:
            yield prefix + str(p.pattern), p


def _takes_post(callback) -> bool:
    """Whether a view has a POST handler: a class view's ``post`` method, or a function view that
    reads ``request.POST`` / tests the method / is decorated ``require_POST``."""
    view_class = getattr(callback, "view_class", None)
    if view_class is not None:
        return hasattr(view_class, "post")
    func = inspect.unwrap(callback)
    try:
        source = inspect.getsource(func)
    except (OSError, TypeError):
        return False
    return bool(re.search(r"POST|require_post", source, re.I))


def _post_pages():
    import django  # collection time: pytest-django has configured the settings; setup() is idempotent

    django.setup()
    pages = []
    for route, pattern in _walk(get_resolver().url_patterns):
        if route.startswith(("api/", "admin/")) or pattern.name in OPEN or not _takes_post(pattern.callback):
            continue
        pages.append(pytest.param(route, id=pattern.name or route))
    return pages


def _url(route: str, world) -> str:
    params = {**PARAMS, "user_id": str(world["player"].pk)}
    if route.startswith("events/"):
        params["slug"] = EVENT_SLUG
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: params[m.group(1)], route)


@pytest.fixture
def world():
    TournamentFactory(slug=SLUG, status=Tournament.Status.RUNNING)
    Event.objects.create(slug=EVENT_SLUG, name="Açık Etkinlik")
    PlayerFactory(federation_id=FEDERATION_ID, club=ClubFactory(pk=1))
    other = TournamentFactory(slug="baska-turnuva", status=Tournament.Status.RUNNING)
    ref = UserFactory(username="baska-hakem")
    TournamentRoleFactory(tournament=other, user=ref, role="referee")
    return {"player": UserFactory(username="oyuncu"), "referee_elsewhere": ref}


def _is_login_redirect(response) -> bool:
    return response.status_code == 302 and response["Location"].startswith(resolve_url(settings.LOGIN_URL))


@pytest.mark.parametrize("route", _post_pages())
def test_no_role_means_403_before_any_validation(world, route, request):
    url = _url(route, world)
    name = request.node.callspec.id
    anonymous = Client().post(url, INVALID)
    assert _is_login_redirect(anonymous) or anonymous.status_code == 403, (
        url, anonymous.status_code, anonymous.get("Location"), anonymous.content[:300])
    for who in ("player", "referee_elsewhere"):
        if who == "referee_elsewhere" and name in ANY_REFEREE:
            continue
        client = Client()
        client.force_login(world[who])
        response = client.post(url, INVALID)
        assert response.status_code == 403, (who, url, response.status_code, response.get("Location"),
                                             response.content[:300])


def test_the_walk_finds_the_write_pages():
    """The enumeration is not empty by accident: known write pages are in, public pages out."""
    routes = {p.id for p in _post_pages()}
    assert {"round-publish", "match-result", "player-edit", "user-role-add", "rating-list-publish",
            "event-edit", "team-add", "category-edit", "record-import"} <= routes
    assert not {"tournament-detail", "standings", "login", "set_language"} & routes
    assert len(routes) >= 60


def test_password_change_still_needs_a_login(world):
    assert _is_login_redirect(Client().post("/accounts/password/", INVALID))


def test_the_403_page_gives_the_reason_in_the_page_language(world):
    """The reason given at import time (lazy) is translated per request: Turkish first, English on request."""
    client = Client()
    client.force_login(world["player"])
    response = client.post(f"/t/{SLUG}/round/1/reopen/", INVALID)
    assert response.status_code == 403
    assert "Turları yalnızca organizatör yeniden açabilir." in response.content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.post(f"/t/{SLUG}/round/1/reopen/", INVALID)
    assert response.status_code == 403 and "Only the organiser can reopen rounds." in response.content.decode()
