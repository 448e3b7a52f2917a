"""Crosstable as a PDF (WeasyPrint) — one row per player, round cells like ``12b1``, points and tie-breaks.

The HTML comes from ``templates/tournaments/crosstable_pdf.html``; fonts are DejaVu Sans (Turkish
letters ç ğ ı İ ö ş ü render), A4 landscape. Files are cached under ``MEDIA_ROOT/crosstables`` by
tournament version, so a PDF is built once per change.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation

from tournaments.models import Tournament
from tournaments.selectors import tournament_crosstable


def crosstable_pdf_bytes(*, tournament: Tournament, lang: str = "tr") -> bytes:
    """Render the public crosstable of ``tournament`` to PDF bytes."""
    from weasyprint import HTML  # imported here: Pango is needed only when a PDF is made

    with translation.override(lang):
        table = tournament_crosstable(tournament=tournament, public_only=True, lang=lang)
        html = render_to_string(
            "tournaments/crosstable_pdf.html", {"table": table, "t": tournament, "generated_at": timezone.now()}
        )
    return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf()


#: Bumped when the PDF's layout or wording changes (2: colour letters per language, one date format),
#: so files cached by an older release are not served again.
LAYOUT = 2


def crosstable_pdf_path(tournament: Tournament, lang: str = "tr") -> Path:
    """Where the cached PDF of the tournament's current version lives."""
    return (Path(settings.MEDIA_ROOT) / "crosstables"
            / f"{tournament.slug}-v{tournament.version}-{lang}-l{LAYOUT}.pdf")


def crosstable_pdf_build(*, tournament: Tournament, lang: str = "tr") -> Path:
    """Build (or reuse) the cached PDF file of the current version and return its path."""
    return pdf_file_build(
        crosstable_pdf_path(tournament, lang), lambda: crosstable_pdf_bytes(tournament=tournament, lang=lang)
    )


def pdf_file_build(path: Path, make: Callable[[], bytes]) -> Path:
    """Write the bytes of ``make()`` to the cache file ``path`` unless it exists (to a temporary name,
    then renamed: a build cut short leaves no half file), clear the web's "being built" marker and
    return ``path``. Shared by every cached PDF (crosstable, standings, pairing lists)."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        import os

        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(make())
        tmp.replace(path)
        _remove_stale_tmp(path)
    path.with_suffix(".queued").unlink(missing_ok=True)  # the web's "being built" marker
    return path


def _remove_stale_tmp(path: Path, older_than: float = 600.0) -> None:
    """Delete temporary files of ``path`` left by builds whose worker was killed half-way (any older
    than ``older_than`` seconds: a younger one may belong to a build still running)."""
    import time

    for tmp in path.parent.glob(f"{path.stem}.*.tmp"):
        try:
            if time.time() - tmp.stat().st_mtime > older_than:
                tmp.unlink(missing_ok=True)
        except FileNotFoundError:
            pass
