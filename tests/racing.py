"""Two writers racing, reusable (issue 23; `make chaos` races the same scenarios through the HTTP API).

:func:`race` starts callables at the same moment (a barrier), each in its own thread and therefore on its
own database connection, and returns what each returned (or raised). :func:`api_client` is a token client
for one user; :func:`result_body` a result POST body.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from django.db import connections


def race(fns: Sequence[Callable[[], object]], *, timeout: float = 20.0) -> list[object]:
    """Run ``fns`` at once, one thread each (its own database connection, closed at the end); returns their
    results in order — an exception raised is returned in its place. Raises TimeoutError when a thread is
    still running after ``timeout`` seconds (a lock never released)."""
    barrier = threading.Barrier(len(fns))
    out: list[object] = [None] * len(fns)

    def run(i: int, fn: Callable[[], object]) -> None:
        try:
            barrier.wait(timeout)
            out[i] = fn()
        except BaseException as exc:  # noqa: BLE001 - reported to the caller
            out[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, fn), daemon=True) for i, fn in enumerate(fns)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)
        if t.is_alive():
            raise TimeoutError("a racing writer did not finish")
    return out


def api_client(user):
    """A DRF test client authenticated with ``user``'s API token (English answers)."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    token, _ = Token.objects.get_or_create(user=user)
    return APIClient(HTTP_ACCEPT_LANGUAGE="en", HTTP_AUTHORIZATION=f"Token {token.key}")


def result_body(*pairs: tuple[int, int], version: int | None = None, reason: str = "") -> dict:
    """A result POST body (``/api/tournaments/<slug>/rounds/<n>/boards/<b>/result/``): completed sets with
    the stores ``pairs`` (white, black), and the version seen."""
    body = {"sets": [{"white_store": w, "black_store": b, "termination": "completed", "moves": ""} for w, b in pairs],
            "forfeit": ""}
    if version is not None:
        body["version"] = version
    if reason:
        body["reason"] = reason
    return body
