"""The team championship's results as a printable PDF (WeasyPrint, A4 landscape, DejaVu Sans so that
ç ğ ı İ ö ş ü print): the team standings with their tie-breaks, the team crosstable and the board prizes
(issue 14), made by the same HTML-to-PDF step as every PDF of the site
(:func:`federation.pdf.html_to_pdf`).

Cached under ``MEDIA_ROOT/teams`` per tournament, version (the public's file: ``standings_version``),
language and audience (:func:`federation.pdf.pdf_file_build`); behind the standings' gate
(:func:`tournaments.publication.results_visible`). Built like every PDF of the site by a worker (the
Celery task ``tournaments.paper.teams`` on the ``pdf`` queue), never in the web request.
"""
from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation

from tournaments.teams import selectors as team_selectors
from tournaments.models import Tournament

#: Bumped when the PDF's layout or wording changes, so files of an older release are not served.
LAYOUT = 1


def team_pdf_context(*, tournament: Tournament, lang: str = "tr", public_only: bool = True) -> dict:
    """The template's context: standings, crosstable and board prizes as the audience sees them."""
    with translation.override(lang):
        st = team_selectors.team_standings_table(tournament=tournament, public_only=public_only, lang=lang)
        return {
            "t": tournament, "st": st,
            "table": team_selectors.team_crosstable_table(tournament=tournament, public_only=public_only, lang=lang),
            "prizes": team_selectors.board_prize_tables(tournament=tournament, public_only=public_only),
            "generated_at": timezone.now(),
        }


def team_pdf_html(context: dict, *, lang: str = "tr") -> str:
    with translation.override(lang):
        return render_to_string("tournaments/teams/standings_pdf.html", context)


def team_pdf_bytes(*, tournament: Tournament, lang: str = "tr", public_only: bool = True) -> bytes:
    from federation.pdf import html_to_pdf

    return html_to_pdf(team_pdf_html(team_pdf_context(tournament=tournament, lang=lang, public_only=public_only),
                                     lang=lang))


def team_pdf_path(tournament: Tournament, lang: str = "tr", public_only: bool = True) -> Path:
    audience = "public" if public_only else "organiser"
    version = f"s{tournament.standings_version}" if public_only else f"v{tournament.version}"
    return (Path(settings.MEDIA_ROOT) / "teams"
            / f"{tournament.pk}-{tournament.slug}-{version}-{lang}-{audience}-l{LAYOUT}.pdf")


def team_pdf_build(*, tournament: Tournament, lang: str = "tr", public_only: bool = True) -> Path:
    """Build (or reuse) the cached PDF of the current version; returns its path."""
    from tournaments.caching import current_version
    from federation.pdf import pdf_file_build

    current_version(tournament, public=public_only)  # the committed version names the file
    return pdf_file_build(team_pdf_path(tournament, lang, public_only),
                          lambda: team_pdf_bytes(tournament=tournament, lang=lang, public_only=public_only))
