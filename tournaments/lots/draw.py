"""The published rules of a lot (pure: no Django). See :mod:`tournaments.lots` for the commit–reveal scheme.

* :func:`commitment` — ``sha256(secret)`` as hex: published before the lot.
* :func:`coin` — ``"w"`` when the first byte of ``sha256(secret)`` is even, else ``"b"``.
* :func:`order` — Fisher–Yates over ``items`` driven by ``sha256(f"{secret}|{context}|{i}")``.
"""
from __future__ import annotations

import hashlib
import secrets as _secrets
from collections.abc import Sequence

#: The rules a lot can follow.
COIN, ORDER = "coin", "order"
#: The published context of round 1's coin toss.
COIN_TOSS_CONTEXT = "coin toss, round 1"


def new_secret() -> str:
    """A fresh random secret: 32 random bytes as 64 hex digits."""
    return _secrets.token_hex(32)


def commitment(secret: str) -> str:
    """The commitment of ``secret``: SHA-256 of its UTF-8 bytes, 64 lower-case hex digits."""
    return hashlib.sha256(secret.encode()).hexdigest()


def coin(secret: str) -> str:
    """The coin toss decided by ``secret``: ``"w"`` (white) when the first byte of SHA-256(secret) is even,
    ``"b"`` (black) when it is odd."""
    return "w" if hashlib.sha256(secret.encode()).digest()[0] % 2 == 0 else "b"


def order(secret: str, context: str, items: Sequence) -> list:
    """``items`` in the order drawn by ``secret`` for the lot named ``context``: Fisher–Yates, for
    ``i = n-1 … 1`` swap item ``i`` with item ``j = int(sha256(f"{secret}|{context}|{i}").hexdigest(), 16) % (i+1)``.
    The same secret, context and items always give the same order."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(hashlib.sha256(f"{secret}|{context}|{i}".encode()).hexdigest(), 16) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def outcome(rule: str, secret: str, context: str, items: Sequence = ()) -> str | list:
    """The outcome of a lot under ``rule`` (:data:`COIN` or :data:`ORDER`)."""
    if rule == COIN:
        return coin(secret)
    if rule == ORDER:
        return order(secret, context, items)
    raise ValueError(f"unknown rule {rule!r}")


def check_recipe(rule: str, secret: str = "SECRET", context: str = "", items: Sequence = ()) -> str:
    """Python lines that check a revealed lot (paste them into ``python3``): they print the commitment of
    the secret and the outcome, which must match the published ones."""
    if rule == COIN:
        return (f"import hashlib; s = {secret!r}; h = hashlib.sha256(s.encode())\n"
                "print(h.hexdigest(), 'w' if h.digest()[0] % 2 == 0 else 'b')")
    return (f"import hashlib; s, c, a = {secret!r}, {context!r}, {list(items)!r}\n"
            "print(hashlib.sha256(s.encode()).hexdigest())\n"
            "for i in range(len(a) - 1, 0, -1): j = int(hashlib.sha256(f'{s}|{c}|{i}'.encode()).hexdigest(), 16) % (i + 1); a[i], a[j] = a[j], a[i]\n"
            "print(a)")
