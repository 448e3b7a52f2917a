"""An official rating list as a PDF (WeasyPrint, A4 portrait, DejaVu Sans so that ç ğ ı İ ö ş ü print).

The HTML comes from ``templates/ratings/official_list_pdf.html``; its rows are written here (one string,
no template loop over thousands of rows). The table's header repeats on every page, the list's name
and "page / pages" are at the foot; the rules between rows are a stretched 1-pixel PNG in each row's
background (far cheaper than cell borders; :mod:`federation.pdf`, the WeasyPrint helpers of every PDF).

A list never changes once published, so its file is built once per language (by a worker of the
``pdf`` queue: :func:`ratings.lists.tasks.rating_list_pdf_task`) under ``MEDIA_ROOT/rating_lists`` and served
from there; anonymising a player (KVKK) removes the files of the lists they are on
(:func:`rating_list_pdf_files_remove`).
"""
from __future__ import annotations

import datetime as dt
from pathlib import Path

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from federation import pdf
from federation.formatting import signed
from ratings.lists import selectors as list_selectors
from ratings.models import RatingList
from ratings.templatetags.official_lists import category_label

#: Bumped when the PDF's layout or wording changes, so files of an older release are not served.
LAYOUT = 1


def rating_list_pdf_path(rating_list: RatingList, lang: str = "tr") -> Path:
    """Where the PDF of ``rating_list`` in ``lang`` is kept: named by the list's id (a withdrawn list's
    date may get another list), date and moment of publication (a database started afresh reuses ids)."""
    stamp = rating_list.published_at.astimezone(dt.timezone.utc).strftime("%Y%m%dT%H%M%S%f")
    return (Path(settings.MEDIA_ROOT) / "rating_lists"
            / f"{rating_list.pk}-{rating_list.published_on:%Y-%m-%d}-{stamp}-{lang}-l{LAYOUT}.pdf")


def rating_list_pdf_files_remove(list_ids) -> None:
    """Remove the cached PDFs of the lists ``list_ids`` (every language and layout): built again from
    their entries when next asked for."""
    folder = Path(settings.MEDIA_ROOT) / "rating_lists"
    for pk in set(list_ids):
        for path in folder.glob(f"{int(pk)}-*.pdf"):
            path.unlink(missing_ok=True)


def _rows_html(entries) -> str:
    labels = {"provisional": _("provisional"), "established": _("established")}
    out = []
    for i, e in enumerate(entries):
        change = "" if e.change is None else signed(e.change, 0)
        out.append(
            f'<tr{" class=e" if i % 2 else ""}><td>{e.rank or "–"}</td><td class="l">{escape(e.name)}</td>'
            f'<td class="l">{escape(e.federation_id)}</td><td class="l s">{escape(e.club)}</td>'
            f'<td class="l s">{escape(e.city)}</td><td class="l">{escape(category_label(e.category))}</td>'
            f'<td>{e.sets}</td><td class="l s">{escape(labels.get(e.status, e.status))}</td>'
            f'<td>{"✓" if e.active else "–"}</td><td class="b">{e.rating}</td><td>{escape(change)}</td></tr>'
        )
    return "".join(out)


def rating_list_pdf_context(*, rating_list: RatingList, lang: str = "tr") -> dict:
    """The data step of the PDF: the template's context, in ``lang``."""
    with translation.override(lang):
        entries = list_selectors.rating_list_entries(rating_list).only(
            "rank", "name", "federation_id", "club", "city", "category", "sets", "status", "active", "rating",
            "change",
        )
        return {
            "rl": rating_list, "rows_html": mark_safe(_rows_html(entries.iterator(chunk_size=2000))),  # noqa: S308 (escaped above)
            "row_rule": pdf.rule_png_uri("#999"), "generated_at": timezone.now(),
            "activity_months": list_selectors.ACTIVITY_WINDOW_MONTHS,
        }


def rating_list_pdf_html(context: dict, *, lang: str = "tr") -> str:
    with translation.override(lang):
        return render_to_string("ratings/official_list_pdf.html", context)


def rating_list_pdf_bytes(*, rating_list: RatingList, lang: str = "tr") -> bytes:
    """The PDF of ``rating_list`` in ``lang`` (built now, not cached)."""
    return pdf.html_to_pdf(rating_list_pdf_html(rating_list_pdf_context(rating_list=rating_list, lang=lang), lang=lang))


def rating_list_pdf_build(*, rating_list: RatingList, lang: str = "tr") -> Path:
    """Build (or reuse) the cached PDF file of ``rating_list`` and return its path."""
    return pdf.pdf_file_build(rating_list_pdf_path(rating_list, lang),
                              lambda: rating_list_pdf_bytes(rating_list=rating_list, lang=lang))
