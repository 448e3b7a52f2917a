"""Celery tasks of the federation app: sending e-mail outside the request.

A password reset request answers at once, whether an account has the address or not: with a broker
the message (if any) is sent by a worker, so the answer takes the same time either way. In the embedded
mode (Celery eager, console e-mail backend) the task runs in the request.
"""
from __future__ import annotations

from celery import shared_task
from django.core.mail import EmailMultiAlternatives

from federation.jobs import JOB_OPTIONS


@shared_task(name="federation.send_email", **JOB_OPTIONS)
def send_email_task(subject: str, body: str, from_email: str | None, to: list[str], html: str | None = None) -> int:
    """Send one e-mail (plain text, optionally with an HTML alternative); returns how many were sent (0/1).
    A mail server that cannot be reached is retried (``federation.jobs.JOB_OPTIONS``)."""
    message = EmailMultiAlternatives(subject, body, from_email, to)
    if html:
        message.attach_alternative(html, "text/html")
    return message.send()
