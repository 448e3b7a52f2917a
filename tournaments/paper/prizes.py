"""The prize list as a printable PDF (WeasyPrint, A4 portrait, DejaVu Sans so that ç ğ ı İ ö ş ü print):
each prize and its winner, then each category's table (rank within the category, overall rank, name,
club, rating, points, tie-breaks). The tables are short (a category's members), so they are plain HTML
tables, not the crosstable's tab-stop cells (:mod:`tournaments.paper.crosstable`).

Cached under ``MEDIA_ROOT/prizes`` by tournament version, language and audience and built like the
crosstable PDF (:func:`federation.pdf.pdf_file_build`, the Celery task
``tournaments.prizes_pdf``); behind the prize list's gate (:func:`tournaments.publication.prizes_visible`).
"""
from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation

from tournaments import selectors
from tournaments.prizes import selectors as category_selectors
from tournaments.models import Tournament

#: Bumped when the PDF's layout or wording changes, so files of an older release are not served.
LAYOUT = 1


def prizes_pdf_context(*, tournament: Tournament, lang: str = "tr", public_only: bool = True) -> dict:
    """The data step: the template's context (the prize list the public or the organisers see), in ``lang``."""
    with translation.override(lang):
        pl = category_selectors.prize_list(tournament=tournament, public_only=public_only, lang=lang)
        return {"t": tournament, "pl": pl, "rules_text": selectors.tiebreak_rules_text(pl.standings.tiebreak_rules),
                "generated_at": timezone.now()}


def prizes_pdf_html(context: dict, *, lang: str = "tr") -> str:
    with translation.override(lang):
        return render_to_string("tournaments/prizes_pdf.html", context)


def prizes_pdf_bytes(*, tournament: Tournament, lang: str = "tr", public_only: bool = True) -> bytes:
    """The prize list and the category tables of ``tournament`` as PDF bytes."""
    from federation.pdf import html_to_pdf

    context = prizes_pdf_context(tournament=tournament, lang=lang, public_only=public_only)
    return html_to_pdf(prizes_pdf_html(context, lang=lang))


def prizes_pdf_path(tournament: Tournament, lang: str = "tr", public_only: bool = True) -> Path:
    """Where the cached PDF of the current version lives: by the tournament's id and, for the public, its
    ``standings_version``, for organisers its ``version`` (as the standings PDF)."""
    audience = "public" if public_only else "organiser"
    version = f"s{tournament.standings_version}" if public_only else f"v{tournament.version}"
    return (Path(settings.MEDIA_ROOT) / "prizes"
            / f"{tournament.pk}-{tournament.slug}-{version}-{lang}-{audience}-l{LAYOUT}.pdf")


def prizes_pdf_build(*, tournament: Tournament, lang: str = "tr", public_only: bool = True) -> Path:
    """Build (or reuse) the cached prize list PDF of the current version; returns its path."""
    from federation.pdf import pdf_file_build

    return pdf_file_build(
        prizes_pdf_path(tournament, lang, public_only),
        lambda: prizes_pdf_bytes(tournament=tournament, lang=lang, public_only=public_only),
    )
