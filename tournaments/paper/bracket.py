"""A knockout's bracket as a printable PDF (WeasyPrint, A4 landscape, DejaVu Sans so that ç ğ ı İ ö ş ü
print): one column per round (final on the right), each match with its two players (seed, name), the sets
and the winner in bold; the match for third place under the final; then the final ranking.

Cached under ``MEDIA_ROOT/brackets`` by tournament version, language and audience and built like the
crosstable PDF (:func:`federation.pdf.pdf_file_build`, the Celery task
``tournaments.paper.bracket``); behind the bracket's gate (the public sees published and closed rounds).
"""
from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation

from tournaments.knockout import selectors as knockout
from tournaments.models import Tournament

#: Bumped when the PDF's layout or wording changes, so files of an older release are not served.
LAYOUT = 1


def bracket_pdf_context(*, tournament: Tournament, lang: str = "tr", public_only: bool = True) -> dict:
    """The data step: the template's context (the bracket the public or the organisers see), in ``lang``."""
    with translation.override(lang):
        b = knockout.knockout_bracket(tournament=tournament, public_only=public_only)
        return {"t": tournament, "b": b, "generated_at": timezone.now(), "pdf": True}


def bracket_pdf_html(context: dict, *, lang: str = "tr") -> str:
    with translation.override(lang):
        return render_to_string("tournaments/knockout/bracket_pdf.html", context)


def bracket_pdf_bytes(*, tournament: Tournament, lang: str = "tr", public_only: bool = True) -> bytes:
    """The bracket of ``tournament`` as PDF bytes."""
    from federation.pdf import html_to_pdf

    context = bracket_pdf_context(tournament=tournament, lang=lang, public_only=public_only)
    return html_to_pdf(bracket_pdf_html(context, lang=lang))


def bracket_pdf_path(tournament: Tournament, lang: str = "tr", public_only: bool = True) -> Path:
    """Where the cached PDF of the current version lives (keyed on ``version``: the public bracket shows the
    results of published rounds as they are entered, like the live page)."""
    audience = "public" if public_only else "staff"
    return (Path(settings.MEDIA_ROOT) / "brackets"
            / f"{tournament.pk}-{tournament.slug}-v{tournament.version}-{lang}-{audience}-l{LAYOUT}.pdf")


def bracket_pdf_build(*, tournament: Tournament, lang: str = "tr", public_only: bool = True) -> Path:
    """Build (or reuse) the cached bracket PDF of the current version; returns its path."""
    from federation.pdf import pdf_file_build

    return pdf_file_build(
        bracket_pdf_path(tournament, lang, public_only),
        lambda: bracket_pdf_bytes(tournament=tournament, lang=lang, public_only=public_only),
    )
