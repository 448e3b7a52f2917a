"""The doors: login lockout (django-axes) on the UI login, the admin login and API Basic auth; API
throttles; Basic credentials refused from another site; API tokens; the Content-Security-Policy
header; production settings (no Basic, proxy headers only behind a proxy) and the docker files."""
from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client, override_settings
from rest_framework.test import APIClient

from federation import roles
from federation.models import Club
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
LOCKOUT = override_settings(AXES_ENABLED=True, AXES_FAILURE_LIMIT=10, AXES_COOLOFF_TIME=timedelta(minutes=15))


def basic(username: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


@pytest.fixture
def staff():
    return UserFactory(username="federasyon", groups=[roles.STAFF], is_staff=True)


# --------------------------------------------------------------------------------------------
# A.1 login lockout
# --------------------------------------------------------------------------------------------


@LOCKOUT
def test_ui_login_locks_after_ten_failures_for_that_user_and_address(staff):
    c = Client(headers={"Accept-Language": "en"})
    for _ in range(9):
        r = c.post("/accounts/login/", {"username": "federasyon", "password": "wrong"})
        assert r.status_code == 200  # the form again, with its error
    r = c.post("/accounts/login/", {"username": "federasyon", "password": "wrong"})
    assert r.status_code == 429
    assert "Too many failed logins. Try again in 15 minutes." in r.content.decode()
    assert r["Retry-After"] == "900"
    # now even the right password is refused, and no session is opened
    r = c.post("/accounts/login/", {"username": "federasyon", "password": PASSWORD})
    assert r.status_code == 429
    assert "_auth_user_id" not in c.session
    # another user name from the same address is not locked
    UserFactory(username="hakem")
    r = c.post("/accounts/login/", {"username": "hakem", "password": PASSWORD})
    assert r.status_code == 302


@LOCKOUT
def test_lockout_page_is_turkish_by_default(staff):
    c = Client()
    for _ in range(10):
        r = c.post("/accounts/login/", {"username": "federasyon", "password": "wrong"})
    assert r.status_code == 429
    assert "Çok fazla hatalı giriş" in r.content.decode()


@LOCKOUT
def test_lockout_ends_after_the_cooloff(staff):
    from axes.models import AccessAttempt

    c = Client()
    for _ in range(10):
        c.post("/accounts/login/", {"username": "federasyon", "password": "wrong"})
    assert c.post("/accounts/login/", {"username": "federasyon", "password": PASSWORD}).status_code == 429
    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.first().attempt_time - timedelta(minutes=16))
    r = c.post("/accounts/login/", {"username": "federasyon", "password": PASSWORD})
    assert r.status_code == 302
    assert c.session["_auth_user_id"] == str(staff.pk)


@LOCKOUT
def test_admin_login_locks_too(staff):
    c = Client(headers={"Accept-Language": "en"})
    for _ in range(9):
        assert c.post("/admin/login/", {"username": "federasyon", "password": "wrong"}).status_code == 200
    r = c.post("/admin/login/", {"username": "federasyon", "password": "wrong"})
    assert r.status_code == 429
    assert c.post("/admin/login/", {"username": "federasyon", "password": PASSWORD}).status_code == 429


@LOCKOUT
def test_api_basic_auth_locks_with_the_error_envelope(staff):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    for _ in range(9):
        r = api.get("/api/players/", HTTP_AUTHORIZATION=basic("federasyon", "wrong"))
        assert r.status_code == 401
    r = api.get("/api/players/", HTTP_AUTHORIZATION=basic("federasyon", "wrong"))
    assert r.status_code == 429
    assert r.json() == {"error": {"code": "locked_out", "field": None,
                                  "message": "Too many failed logins. Try again in 15 minutes."}}
    assert r["Retry-After"] == "900"
    r = api.post("/api/clubs/", {"name": "Kilitli Kulüp"}, format="json",
                 HTTP_AUTHORIZATION=basic("federasyon", PASSWORD))
    assert r.status_code == 429
    assert not Club.objects.filter(name="Kilitli Kulüp").exists()


@LOCKOUT
@override_settings(AXES_FAILURE_LIMIT=3)
def test_failure_limit_is_configurable(staff):
    api = APIClient()
    codes = [api.get("/api/players/", HTTP_AUTHORIZATION=basic("federasyon", "x")).status_code for _ in range(3)]
    assert codes == [401, 401, 429]


def test_lockout_is_off_in_the_test_settings(staff):
    c = Client()
    for _ in range(12):
        c.post("/accounts/login/", {"username": "federasyon", "password": "wrong"})
    assert c.post("/accounts/login/", {"username": "federasyon", "password": PASSWORD}).status_code == 302


def test_client_address_behind_a_proxy_is_the_last_forwarded_hop(rf):
    from federation.security import client_ip

    request = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9")
    assert client_ip(request) == "10.0.0.2"  # not behind a proxy: the header is anybody's
    with override_settings(BEHIND_PROXY=True, TRUSTED_PROXIES=["10.0.0.0/24"]):
        assert client_ip(request) == "203.0.113.9"  # the hop our proxy added; 6.6.6.6 is the client's claim
    with override_settings(BEHIND_PROXY=True, TRUSTED_PROXIES=["10.0.0.9"]):
        # a request that did not come through the proxy (straight to the web port): its header is ignored
        assert client_ip(request) == "10.0.0.2"


@override_settings(BEHIND_PROXY=True, TRUSTED_PROXIES=["10.9.9.9"], API_THROTTLE_ENABLED=True,
                   API_THROTTLE_RATES={"anon": "3/min", "user": "5/min"})
def test_a_forged_forwarded_header_does_not_escape_the_throttle(client):
    cache.clear()
    codes = [client.get("/api/tournaments/", REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR=f"192.0.2.{i}").status_code
             for i in range(5)]
    cache.clear()
    assert codes == [200, 200, 200, 429, 429]


# --------------------------------------------------------------------------------------------
# A.2 throttles
# --------------------------------------------------------------------------------------------


@pytest.fixture
def throttled():
    cache.clear()
    with override_settings(API_THROTTLE_ENABLED=True, API_THROTTLE_RATES={"anon": "3/min", "user": "5/min"}):
        yield
    cache.clear()


def test_anonymous_requests_are_throttled_with_the_envelope_and_retry_after(db, throttled):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    assert [api.get("/api/clubs/").status_code for _ in range(3)] == [200, 200, 200]
    r = api.get("/api/clubs/")
    assert r.status_code == 429
    body = r.json()
    assert body["error"]["code"] == "throttled"
    assert body["error"]["field"] is None
    assert body["error"]["message"].startswith("Request was throttled.")
    assert 1 <= int(r["Retry-After"]) <= 60
    # a client cannot start afresh by claiming another address
    assert api.get("/api/clubs/", HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 429


def test_logged_in_users_have_their_own_rate(db, throttled, staff):
    api = APIClient()
    api.force_authenticate(staff)
    assert [api.get("/api/clubs/").status_code for _ in range(5)] == [200] * 5
    assert api.get("/api/clubs/").status_code == 429
    assert APIClient().get("/api/clubs/").status_code == 200  # the anonymous budget is another one


def test_throttles_are_off_in_the_test_settings(db):
    api = APIClient()
    assert {api.get("/api/clubs/").status_code for _ in range(150)} == {200}


# --------------------------------------------------------------------------------------------
# A.3 Basic only from our own site; tokens for scripts
# --------------------------------------------------------------------------------------------


def test_foreign_form_with_stored_basic_credentials_cannot_write(staff):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    auth = basic("federasyon", PASSWORD)
    # what a page on evil.example makes the browser send: a form post with the stored Basic credentials
    r = api.post("/api/clubs/", {"name": "Kötü Kulüp"}, format="multipart",
                 HTTP_AUTHORIZATION=auth, HTTP_ORIGIN="https://evil.example")
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "permission_denied"
    r = api.post("/api/clubs/", "name=K%C3%B6t%C3%BC+Kul%C3%BCp", content_type="application/x-www-form-urlencoded",
                 HTTP_AUTHORIZATION=auth, HTTP_ORIGIN="https://evil.example")
    assert r.status_code == 403
    # without Origin, the Referer tells; "null" origins (sandboxed frames) are foreign too
    r = api.post("/api/clubs/", {"name": "Kötü Kulüp"}, HTTP_AUTHORIZATION=auth,
                 HTTP_REFERER="https://evil.example/page.html")
    assert r.status_code == 403
    r = api.post("/api/clubs/", {"name": "Kötü Kulüp"}, HTTP_AUTHORIZATION=auth, HTTP_ORIGIN="null")
    assert r.status_code == 403
    assert not Club.objects.filter(name="Kötü Kulüp").exists()


def test_basic_from_our_own_site_or_a_script_still_works(staff):
    api = APIClient()
    auth = basic("federasyon", PASSWORD)
    r = api.post("/api/clubs/", {"name": "Kulüp A"}, format="json", HTTP_AUTHORIZATION=auth)
    assert r.status_code == 201, r.content
    r = api.post("/api/clubs/", {"name": "Kulüp B"}, format="json", HTTP_AUTHORIZATION=auth,
                 HTTP_ORIGIN="http://testserver", HTTP_REFERER="http://testserver/api/docs/")
    assert r.status_code == 201, r.content
    with override_settings(CSRF_TRUSTED_ORIGINS=["https://turnuva.example.org"]):
        r = api.post("/api/clubs/", {"name": "Kulüp C"}, format="json", HTTP_AUTHORIZATION=auth,
                     HTTP_ORIGIN="https://turnuva.example.org")
    assert r.status_code == 201, r.content


def test_api_token_for_scripts(staff, capsys):
    call_command("drf_create_token", "federasyon")
    key = capsys.readouterr().out.strip().split()[2]
    api = APIClient()
    r = api.post("/api/clubs/", {"name": "Token Kulübü"}, format="json", HTTP_AUTHORIZATION=f"Token {key}")
    assert r.status_code == 201, r.content
    assert api.post("/api/clubs/", {"name": "X"}, format="json", HTTP_AUTHORIZATION="Token wrong").status_code == 401


def test_a_token_is_read_with_its_user_in_one_statement_and_refused_when_wrong(staff):
    """federation.drf.TokenAuthentication: DRF's checks, its read built once (issue 22)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.authtoken.models import Token

    key = Token.objects.create(user=staff).key
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    for name in ("Jeton Kulübü 1", "Jeton Kulübü 2"):
        with CaptureQueriesContext(connection) as ctx:
            r = api.post("/api/clubs/", {"name": name}, format="json", HTTP_AUTHORIZATION=f"Token {key}")
        assert r.status_code == 201, r.content
        assert sum('"authtoken_token"' in q["sql"] for q in ctx.captured_queries) == 1
    assert Club.history.filter(name="Jeton Kulübü 2").get().history_user == staff
    for wrong in ("0" * 40, "abc\x01def", key[:-1]):
        r = api.post("/api/clubs/", {"name": "X"}, format="json", HTTP_AUTHORIZATION=f"Token {wrong}")
        assert (r.status_code, r.json()["error"]["message"]) == (401, "Invalid token."), wrong
    staff.is_active = False
    staff.save()
    r = api.post("/api/clubs/", {"name": "X"}, format="json", HTTP_AUTHORIZATION=f"Token {key}")
    assert (r.status_code, r.json()["error"]["message"]) == (401, "User inactive or deleted.")


# --------------------------------------------------------------------------------------------
# A.4 Content-Security-Policy
# --------------------------------------------------------------------------------------------


def test_pages_carry_a_strict_content_security_policy(db):
    r = Client().get("/")
    assert r.status_code == 200
    policy = dict(part.strip().split(" ", 1) for part in r["Content-Security-Policy"].split(";") if part.strip())
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["object-src"] == "'none'"
    assert "unsafe-inline" not in r["Content-Security-Policy"]


def test_templates_have_no_inline_script_or_style():
    """Every template a browser shows keeps scripts and styles in static files (the PDF templates
    ``*_pdf.html``, rendered by WeasyPrint and never served as a page, may style themselves)."""
    import re

    bad = re.compile(r"<script(?![^>]*\bsrc=)|\son[a-z]+=|\sstyle=|<style", re.I)
    offenders = []
    for path in (ROOT / "templates").rglob("*.html"):
        if path.name.endswith("_pdf.html"):
            continue
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if bad.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}")
    assert offenders == []


def test_api_docs_load_their_start_script_from_a_file(db):
    r = Client().get("/api/docs/")
    assert r.status_code == 200
    html = r.content.decode()
    assert "<script>" not in html
    assert "/api/docs/?script=" in html
    assert "'unsafe-inline'" not in r["Content-Security-Policy"].split("script-src")[1].split(";")[0]
    js = Client().get("/api/docs/?script=")
    assert js.status_code == 200
    assert "SwaggerUIBundle" in js.content.decode()


# --------------------------------------------------------------------------------------------
# A.3/A.5 production settings and the docker files
# --------------------------------------------------------------------------------------------


def _production_settings(**env) -> dict:
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({'proxy': s.SECURE_PROXY_SSL_HEADER, "
        "'auth': s.REST_FRAMEWORK['DEFAULT_AUTHENTICATION_CLASSES'], 'behind': s.BEHIND_PROXY}))"
    )
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))}
    environ.update(
        DJANGO_SETTINGS_MODULE="federation.settings.production", DJANGO_SECRET_KEY="x" * 60,
        DJANGO_ALLOWED_HOSTS="example.org", DATABASE_URL="sqlite:////tmp/never-opened.sqlite3",
        REDIS_URL="redis://127.0.0.1:9/0", **env,
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environ, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_production_uses_tokens_and_sessions_never_basic():
    auth = _production_settings()["auth"]
    assert auth == ["federation.drf.TokenAuthentication",
                    "rest_framework.authentication.SessionAuthentication"]


def test_production_trusts_the_forwarded_proto_only_behind_a_proxy():
    assert _production_settings()["proxy"] is None
    assert _production_settings(DJANGO_BEHIND_PROXY="false")["proxy"] is None
    behind = _production_settings(DJANGO_BEHIND_PROXY="true")
    assert behind["proxy"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert behind["behind"] is True


def test_gunicorn_trusts_forwarded_headers_only_from_the_configured_proxy():
    entrypoint = (ROOT / "docker" / "entrypoint.sh").read_text()
    assert '--forwarded-allow-ips "${FORWARDED_ALLOW_IPS:-127.0.0.1}"' in entrypoint
    assert ":-*}" not in entrypoint
    compose = yaml.safe_load((ROOT / "docker" / "compose.yml").read_text())
    # web and web2 sit behind the nginx service: they believe X-Forwarded-* from Docker's bridge networks only
    # (never "*"), and publish no port of their own, so nothing but nginx (and the workers) can reach them
    for name in ("web", "web2"):
        service = compose["services"][name]
        env = {**compose["services"]["web"]["environment"], **service["environment"]}
        assert env["FORWARDED_ALLOW_IPS"] == "${FORWARDED_ALLOW_IPS:-172.16.0.0/12}", name
        assert env["DJANGO_BEHIND_PROXY"] == "true", name
        assert "ports" not in service, name
    assert compose["services"]["nginx"]["ports"]


def test_check_deploy_is_clean():
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))}
    environ.update(
        DJANGO_SETTINGS_MODULE="federation.settings.production", DJANGO_SECRET_KEY="k" * 20 + "Zq9-fP3_xW7" * 4,
        DJANGO_ALLOWED_HOSTS="example.org", DATABASE_URL="sqlite:////tmp/never-opened.sqlite3",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    out = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=ROOT,
                         env=environ, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_production_refuses_to_start_without_its_database_and_redis():
    """No quiet fallback to the embedded SQLite file, in-process jobs and a per-process cache."""
    for missing in ("DATABASE_URL", "REDIS_URL"):
        environ = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL",
                                                                            "CELERY_BROKER_URL"))}
        environ.update(DJANGO_SETTINGS_MODULE="federation.settings.production", DJANGO_SECRET_KEY="x" * 60,
                       DJANGO_ALLOWED_HOSTS="example.org", DATABASE_URL="postgres://u@127.0.0.1:5432/db",
                       REDIS_URL="redis://127.0.0.1:9/0")
        environ.pop(missing)
        out = subprocess.run([sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=environ,
                             capture_output=True, text=True)
        assert out.returncode != 0 and "ImproperlyConfigured" in out.stderr and missing in out.stderr, missing
