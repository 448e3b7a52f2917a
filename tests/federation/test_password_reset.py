"""Password reset by e-mail (Django's auth views with our form and templates): the link works once,
the answer never tells whether an account has the address, requests are limited, the e-mail settings
come from the environment, and a reset lifts a login lockout (django-axes)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.admin.models import LogEntry
from django.core import mail
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation

from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]
NEW_PASSWORD = "yeni-mangala-parolasi-48"


@pytest.fixture(autouse=True)
def fresh_limits():
    """The request limits count in the cache: every test starts from zero."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def _client(lang: str = "en") -> Client:
    return Client(headers={"Accept-Language": lang})


def _link(message) -> str:
    return re.search(r"http://testserver(/accounts/reset/\S+/)", message.body).group(1)


@pytest.fixture
def account():
    return UserFactory(username="hakem", email="hakem@example.org", first_name="Hale", last_name="Kem")


def test_reset_form_in_turkish_and_english():
    tr = _client("tr").get(reverse("password_reset"))
    assert tr.status_code == 200
    with translation.override("tr"):
        assert translation.gettext("Forgot your password?") in tr.content.decode()
        assert translation.gettext("Send the link") in tr.content.decode()
    en = _client().get(reverse("password_reset")).content.decode()
    assert "Forgot your password?" in en and "Send the link" in en
    assert reverse("password_reset") in _client().get(reverse("login")).content.decode()


def test_reset_by_email_end_to_end(account):
    response = _client().post(reverse("password_reset"), {"email": "HAKEM@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["hakem@example.org"]
    assert message.subject == "Mangala Federation: choose a new password"
    assert "Hello Hale Kem," in message.body and "Your user name: hakem" in message.body

    c = _client()
    page = c.get(_link(message), follow=True)
    assert page.context["validlink"]
    set_url = page.redirect_chain[-1][0]
    response = c.post(set_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_complete")
    assert "Your new password is saved." in c.get(response["Location"]).content.decode()
    account.refresh_from_db()
    assert account.check_password(NEW_PASSWORD)
    assert LogEntry.objects.filter(object_id=str(account.pk), change_message="password.reset", user=account).exists()
    again = _client().get(_link(message), follow=True)  # a link works once
    assert not again.context["validlink"]
    assert 'data-testid="reset-invalid"' in again.content.decode()


def test_the_new_password_must_pass_the_validators(account):
    _client().post(reverse("password_reset"), {"email": "hakem@example.org"})
    c = _client()
    page = c.get(_link(mail.outbox[0]), follow=True)
    response = c.post(page.redirect_chain[-1][0], {"new_password1": "12345678", "new_password2": "12345678"})
    assert response.status_code == 200
    assert response.context["form"].errors["new_password2"]
    account.refresh_from_db()
    assert account.check_password(PASSWORD)


def test_unknown_address_gets_the_same_answer_and_no_email(account):
    known = _client().post(reverse("password_reset"), {"email": "hakem@example.org"}, follow=True)
    unknown = _client().post(reverse("password_reset"), {"email": "nobody@example.org"}, follow=True)
    assert known.redirect_chain == unknown.redirect_chain == [(reverse("password_reset_done"), 302)]
    strip = lambda html: re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)  # noqa: E731
    assert strip(known.content.decode()) == strip(unknown.content.decode())
    assert "If an account has this e-mail address" in unknown.content.decode()
    assert [m.to for m in mail.outbox] == [["hakem@example.org"]]


def test_inactive_accounts_get_no_email_but_the_same_answer():
    UserFactory(username="eski", email="eski@example.org", is_active=False)
    response = _client().post(reverse("password_reset"), {"email": "eski@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


@override_settings(PASSWORD_RESET_MAX_PER_HOUR=3)
def test_requests_are_limited_per_address_without_telling(account):
    for _ in range(5):
        response = _client().post(reverse("password_reset"), {"email": "hakem@example.org"})
        assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 3


def test_reset_request_is_refused_on_a_malformed_address_only():
    response = _client().post(reverse("password_reset"), {"email": "not an address"})
    assert response.status_code == 200
    assert response.context["form"].errors["email"]


def test_a_forged_link_is_refused(account):
    response = _client().get(reverse("password_reset_confirm", args=["MQ", "set-password-forged"]), follow=True)
    assert not response.context["validlink"]


@override_settings(AXES_ENABLED=True, AXES_FAILURE_LIMIT=3)
def test_reset_lifts_a_login_lockout(account):
    from axes.models import AccessAttempt

    c = _client()
    for _ in range(3):
        c.post(reverse("login"), {"username": "hakem", "password": "wrong"})
    locked = c.post(reverse("login"), {"username": "hakem", "password": PASSWORD})
    assert locked.status_code == 429
    locked_page = locked.content.decode()
    assert reverse("password_reset") in locked_page  # the lockout page offers the reset

    _client().post(reverse("password_reset"), {"email": "hakem@example.org"})
    reset = _client()
    page = reset.get(_link(mail.outbox[0]), follow=True)
    reset.post(page.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert not AccessAttempt.objects.filter(username="hakem").exists()
    response = c.post(reverse("login"), {"username": "hakem", "password": NEW_PASSWORD})
    assert response.status_code == 302  # logged in


def test_change_own_password(account):
    c = _client()
    c.force_login(account)
    assert c.get(reverse("password_change")).status_code == 200
    response = c.post(reverse("password_change"), {"old_password": PASSWORD, "new_password1": NEW_PASSWORD,
                                                   "new_password2": NEW_PASSWORD})
    assert response["Location"] == reverse("password_change_done")
    account.refresh_from_db()
    assert account.check_password(NEW_PASSWORD)


def test_emails_go_through_the_celery_job(account, monkeypatch):
    from federation import tasks

    sent = []
    monkeypatch.setattr(tasks.send_email_task, "delay", lambda *args, **kwargs: sent.append(args))
    _client().post(reverse("password_reset"), {"email": "hakem@example.org"})
    assert mail.outbox == [] and len(sent) == 1
    subject, body, from_email, to = sent[0]
    assert to == ["hakem@example.org"] and "/accounts/reset/" in body


def test_a_mail_server_error_is_logged_not_shown(account, monkeypatch, caplog):
    from federation import tasks

    def broken(*args, **kwargs):
        raise ConnectionRefusedError("no mail server")

    monkeypatch.setattr(tasks.send_email_task, "delay", broken)
    response = _client().post(reverse("password_reset"), {"email": "hakem@example.org"})
    assert response["Location"] == reverse("password_reset_done")
    assert "not sent" in caplog.text


def _settings_in_subprocess(env: dict, module: str = "federation.settings.production") -> dict:
    code = ("import django, json; django.setup(); from django.conf import settings as s; print(json.dumps({k: "
            "getattr(s, k, None) for k in ['EMAIL_BACKEND', 'EMAIL_HOST', 'EMAIL_PORT', 'EMAIL_HOST_USER', "
            "'EMAIL_HOST_PASSWORD', 'EMAIL_USE_TLS', 'EMAIL_USE_SSL', 'DEFAULT_FROM_EMAIL']}))")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("EMAIL_", "DEFAULT_FROM"))}
    base.update({"DJANGO_SETTINGS_MODULE": module, "DJANGO_SECRET_KEY": "x" * 60, "DJANGO_ALLOWED_HOSTS": "example.org",
                 "DATABASE_URL": "postgres://u@127.0.0.1:5432/db", "REDIS_URL": "redis://127.0.0.1:9/0", **env})
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=base, capture_output=True, text=True, check=True)
    import json

    return json.loads(out.stdout.strip().splitlines()[-1])


def test_email_settings_come_from_the_environment():
    plain = _settings_in_subprocess({}, module="federation.settings.dev")
    assert plain["EMAIL_BACKEND"] == "django.core.mail.backends.console.EmailBackend"
    url = _settings_in_subprocess({"EMAIL_URL": "smtp+tls://posta%40tmf.org.tr:gizli@mail.tmf.org.tr:587",
                                   "DEFAULT_FROM_EMAIL": "TMF <noreply@tmf.org.tr>"})
    assert url["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (url["EMAIL_HOST"], url["EMAIL_PORT"], url["EMAIL_HOST_USER"], url["EMAIL_HOST_PASSWORD"]) == (
        "mail.tmf.org.tr", 587, "posta@tmf.org.tr", "gizli")
    assert url["EMAIL_USE_TLS"] is True and url["DEFAULT_FROM_EMAIL"] == "TMF <noreply@tmf.org.tr>"
    parts = _settings_in_subprocess({"EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "465", "EMAIL_USE_TLS": "false",
                                     "EMAIL_USE_SSL": "true", "EMAIL_HOST_USER": "u", "EMAIL_HOST_PASSWORD": "p"})
    assert parts["EMAIL_BACKEND"] == "django.core.mail.backends.smtp.EmailBackend"
    assert (parts["EMAIL_HOST"], parts["EMAIL_PORT"], parts["EMAIL_USE_TLS"], parts["EMAIL_USE_SSL"]) == (
        "smtp.example.org", 465, False, True)
