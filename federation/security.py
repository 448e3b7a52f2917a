"""Doors of the site: who is the client (address), and what a locked-out login attempt answers.

* :func:`client_ip` — the address login lockouts (django-axes) and API throttles count by:
  ``REMOTE_ADDR``, or behind our reverse proxy (``DJANGO_BEHIND_PROXY=true``) the last
  ``X-Forwarded-For`` entry — the one the proxy itself added, which a client cannot forge.
* :func:`lockout_response` — django-axes' ``AXES_LOCKOUT_CALLABLE``: after ``AXES_FAILURE_LIMIT``
  failed logins for one user name from one address (default 10), that pair is refused for
  ``AXES_COOLOFF_TIME`` (default 15 minutes). The API answers 429 with the error envelope
  ``{"error": {"code": "locked_out", ...}}`` and ``Retry-After``; pages show a short explanation
  (Turkish or English) with status 429.
"""
from __future__ import annotations

import math

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def _from_trusted_proxy(remote: str) -> bool:
    """True when ``remote`` (``REMOTE_ADDR``) is one of ``TRUSTED_PROXIES`` (addresses or networks such as
    ``172.16.0.0/12``; ``FORWARDED_ALLOW_IPS``, the same list gunicorn trusts)."""
    import ipaddress

    try:
        address = ipaddress.ip_address(remote)
    except ValueError:
        return False
    for entry in getattr(settings, "TRUSTED_PROXIES", ("127.0.0.1",)):
        try:
            if address in ipaddress.ip_network(entry.strip(), strict=False):
                return True
        except ValueError:
            continue
    return False


def client_ip(request) -> str:
    """The client's address: ``REMOTE_ADDR``, or, behind our proxy (``BEHIND_PROXY``) and only for a
    request that came from it (``REMOTE_ADDR`` in ``TRUSTED_PROXIES``), the last ``X-Forwarded-For`` hop
    — the one our proxy added. A client that reaches the web port directly cannot choose its address
    by sending the header (the login lockout and API throttles count per address)."""
    remote = request.META.get("REMOTE_ADDR") or ""
    if getattr(settings, "BEHIND_PROXY", False) and _from_trusted_proxy(remote):
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if forwarded:
            return forwarded[-1][:45]
    return remote


def cooloff_seconds() -> int:
    """How long a lockout lasts, in whole seconds (``AXES_COOLOFF_TIME``)."""
    cooloff = getattr(settings, "AXES_COOLOFF_TIME", None)
    if cooloff is None:
        return 0
    seconds = cooloff.total_seconds() if hasattr(cooloff, "total_seconds") else float(cooloff) * 3600
    return max(int(math.ceil(seconds)), 0)


def lockout_response(request, original_response=None, credentials=None):
    """What a locked-out login attempt gets (django-axes calls this): 429 with ``Retry-After``."""
    seconds = cooloff_seconds()
    minutes = max(1, math.ceil(seconds / 60)) if seconds else 0
    message = (
        _("Too many failed logins. Try again in %(n)d minutes.") % {"n": minutes}
        if minutes else _("Too many failed logins. Ask the federation staff to unlock your account.")
    )
    status = getattr(settings, "AXES_HTTP_RESPONSE_CODE", 429)
    if request.path.startswith("/api/"):
        response = JsonResponse({"error": {"code": "locked_out", "message": message, "field": None}}, status=status)
    else:
        response = render(request, "registration/locked_out.html",
                          {"message": message, "minutes": minutes}, status=status)
    if seconds:
        response["Retry-After"] = str(seconds)
    return response


#: the forwarded headers our proxy sets; believed only from it (``SECURE_PROXY_SSL_HEADER`` reads the first)
FORWARDED_HEADERS = ("HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_HOST",
                     "HTTP_X_FORWARDED_PORT", "HTTP_FORWARDED")


class UntrustedForwardedHeadersMiddleware:
    """Drop the ``X-Forwarded-*`` / ``Forwarded`` headers of a request that did not come from our proxy.

    Behind the proxy (``BEHIND_PROXY``) Django believes ``X-Forwarded-Proto`` (``SECURE_PROXY_SSL_HEADER``):
    a client that reaches the web port directly could otherwise claim HTTPS (secure cookies sent over
    plain http, no HTTPS redirect). Only a request whose ``REMOTE_ADDR`` is one of ``TRUSTED_PROXIES``
    (``FORWARDED_ALLOW_IPS``) keeps them. Without ``BEHIND_PROXY`` nothing reads the headers, and they
    are dropped too. Placed before ``SecurityMiddleware``."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        meta = request.META
        if not (getattr(settings, "BEHIND_PROXY", False) and _from_trusted_proxy(meta.get("REMOTE_ADDR") or "")):
            for header in FORWARDED_HEADERS:
                meta.pop(header, None)
        return self.get_response(request)
