"""``{% load crosstable %}{% crosstable_rows table %}``: the ``<tr>`` rows of a crosstable, built in Python.

A 300-player, 9-round crosstable has about 5,000 cells; Django's template loop over them costs several
times what joining escaped strings does, and the page is rendered on every new version (every result
entered). Same HTML as the loop it replaces: rank (``=`` when shared), starting number, name, rating
(blank when 0), one ``td.cell`` per round, points in ``<strong>``, the tie-breaks
(:func:`federation.formatting.points` / :func:`federation.formatting.number`). In a category's table
(``StandingLine.overall_rank`` set) the overall rank follows the rank.
"""
from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from federation import formatting

register = template.Library()


@register.simple_tag
def crosstable_rows(table) -> SafeString:
    """The ``<tr>…</tr>`` rows of ``table`` (a :class:`tournaments.selectors.Crosstable`), escaped."""
    out: list[str] = []
    for row in table.rows:
        line = row.line
        cells = "".join(f'<td class="cell">{escape(c.text)}</td>' for c in row.cells)
        tiebreaks = "".join(f'<td class="num">{escape(formatting.number(v, 2))}</td>' for v in line.tiebreaks)
        overall = "" if line.overall_rank is None else f'<td class="num">{line.overall_rank}</td>'  # a category
        out.append(
            f'<tr><td class="num rank">{line.rank}{"=" if line.shared else ""}</td>{overall}'
            f'<td class="num sno">{line.start_no}</td><td class="name">{escape(line.name)}</td>'
            f'<td class="num">{line.rating or ""}</td>{cells}'
            f'<td class="num pts"><strong>{escape(formatting.points(line.points))}</strong></td>{tiebreaks}</tr>'
        )
    return mark_safe("".join(out))  # noqa: S308 - every text above is escaped
