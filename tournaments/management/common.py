"""Shared pieces of the management commands: one wording for a missing tournament and for an
unwritable output file, both as ``CommandError`` with exit status 2 (no traceback)."""
from __future__ import annotations

from pathlib import Path

from django.core.management.base import CommandError

from tournaments.models import Tournament


def tournament_by_slug(slug: str) -> Tournament:
    """The tournament with ``slug``; CommandError (exit 2) when there is none."""
    t = Tournament.objects.filter(slug=slug).first()
    if t is None:
        raise CommandError(f"no tournament with slug {slug!r}", returncode=2)
    return t


def write_output(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``; CommandError (exit 2) naming the path when it cannot."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"{path}: cannot write: {exc.strerror or exc}", returncode=2) from None
