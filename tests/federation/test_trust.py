"""Issue 23 item 7: forwarded headers only from our proxy; the login lockout holds while Redis is down."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import caches
from django.test import Client, override_settings

from federation import roles
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

DEAD_CACHE = {
    "default": {
        "BACKEND": "federation.cache.ResilientRedisCache", "LOCATION": "redis://127.0.0.1:9/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
}
PROXY = override_settings(BEHIND_PROXY=True, TRUSTED_PROXIES=["10.0.0.0/24"],
                          SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"), SECURE_SSL_REDIRECT=True,
                          ALLOWED_HOSTS=["turnuva.example.org"])


@PROXY
def test_forwarded_proto_is_believed_only_from_the_trusted_proxy():
    c = Client(HTTP_HOST="turnuva.example.org")
    # from the proxy: https is believed, no redirect
    assert c.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_PROTO="https").status_code == 200
    # straight to the web port with a forged header: still plain http, so the HTTPS redirect
    r = c.get("/", REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_PROTO="https")
    assert r.status_code == 301 and r["Location"] == "https://turnuva.example.org/"


def test_forwarded_headers_are_dropped_from_untrusted_peers(rf):
    from federation.security import UntrustedForwardedHeadersMiddleware

    seen = {}

    def view(request):
        seen.update({k: v for k, v in request.META.items() if "FORWARDED" in k})
        return None

    mw = UntrustedForwardedHeadersMiddleware(view)
    headers = {"HTTP_X_FORWARDED_PROTO": "https", "HTTP_X_FORWARDED_FOR": "6.6.6.6", "HTTP_FORWARDED": "for=6.6.6.6"}
    with override_settings(BEHIND_PROXY=True, TRUSTED_PROXIES=["127.0.0.1", "::1"]):
        mw(rf.get("/", REMOTE_ADDR="203.0.113.5", **headers))
        assert seen == {}
        mw(rf.get("/", REMOTE_ADDR="::1", **headers))
        assert seen == headers
    seen.clear()
    with override_settings(BEHIND_PROXY=False, TRUSTED_PROXIES=["127.0.0.1"]):
        mw(rf.get("/", REMOTE_ADDR="127.0.0.1", **headers))  # not behind a proxy: nobody's header counts
        assert seen == {}


@override_settings(CACHES=DEAD_CACHE, AXES_ENABLED=True, AXES_FAILURE_LIMIT=3,
                   AXES_COOLOFF_TIME=timedelta(minutes=15))
def test_the_login_lockout_holds_while_redis_is_down(caplog):
    from axes.models import AccessAttempt

    UserFactory(username="federasyon", groups=[roles.STAFF], is_staff=True)
    cache = caches["default"]
    assert cache.get("probe", "absent") == "absent"  # the cache really is down
    c = Client(headers={"Accept-Language": "en"})
    codes = [c.post("/accounts/login/", {"username": "federasyon", "password": "wrong"}).status_code
             for _ in range(3)]
    assert codes == [200, 200, 429]
    assert c.post("/accounts/login/", {"username": "federasyon", "password": PASSWORD}).status_code == 429
    assert "_auth_user_id" not in c.session
    assert AccessAttempt.objects.get(username="federasyon").failures_since_start == 3
