"""federation.middleware.PrivateForUsersMiddleware: answers to logged-in users say Cache-Control: private
(no shared cache — the nginx micro-cache — keeps them); anonymous answers are left alone."""
from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token

from tests.factories import TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_a_logged_in_page_is_private(client):
    t = TournamentFactory(slug="ozel-sayfa")
    client.force_login(UserFactory(username="organizator"))
    response = client.get(f"/t/{t.slug}/")
    assert response.status_code == 200
    assert "private" in response["Cache-Control"]


def test_an_anonymous_page_is_not_marked(client):
    t = TournamentFactory(slug="acik-sayfa")
    response = client.get(f"/t/{t.slug}/")
    assert response.status_code == 200
    assert "private" not in response.get("Cache-Control", "")


def test_a_session_cookie_without_a_login_is_not_marked_here(rf):
    """(federation.pagecache marks any request with the session cookie private on its own; this middleware
    looks at the user.)"""
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpResponse

    from federation.middleware import PrivateForUsersMiddleware

    request = rf.get("/", HTTP_COOKIE="sessionid=not-a-session")
    request.user = AnonymousUser()
    response = PrivateForUsersMiddleware(lambda r: HttpResponse("ok"))(request)
    assert "Cache-Control" not in response


def test_an_api_token_answer_is_private(client):
    token = Token.objects.create(user=UserFactory(username="betik"))
    response = client.get("/api/tournaments/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 200
    assert response["Cache-Control"] == "private"


@pytest.mark.parametrize("given", ["no-store", "private, no-cache", "max-age=0, private"])
def test_an_answer_already_kept_from_caches_is_left_as_it_is(rf, given):
    from django.http import HttpResponse

    from federation.middleware import PrivateForUsersMiddleware

    def view(request):
        response = HttpResponse("ok")
        response["Cache-Control"] = given
        return response

    request = rf.get("/", HTTP_AUTHORIZATION="Token abc")
    assert PrivateForUsersMiddleware(view)(request)["Cache-Control"] == given
    request = rf.get("/")
    request.user = UserFactory(username="kullanici")
    request.COOKIES["sessionid"] = "x"
    assert PrivateForUsersMiddleware(lambda r: HttpResponse("ok"))(request)["Cache-Control"] == "private"
