"""Crosstable as a PDF (WeasyPrint) — one row per player, round cells like ``12S1``, points and tie-breaks.

The HTML comes from ``templates/tournaments/crosstable_pdf.html``; fonts are DejaVu Sans (Turkish
letters ç ğ ı İ ö ş ü render), A4 landscape, the table's header on every page, "page / pages" at the
foot. Files are cached under ``MEDIA_ROOT/crosstables`` by tournament version, so a PDF is built once
per change (by a Celery worker: :func:`tournaments.tasks.crosstable_pdf_task`).

How it is kept fast (``benchmarks/pdf_bench.py``): WeasyPrint's cost is per box — each table cell
with its line and text boxes, six pseudo-element styles, its layout and drawing — hardly per
character. So a row is five cells, not 4 + rounds + 1 + tie-breaks (nineteen for 9 rounds and five
tie-breaks): rank and starting number share a cell, rating and rounds share one, the tie-breaks share
one (:class:`CrosstableGrid`); name and points (bold) have their own. A shared cell is
right-to-left (``direction: rtl``) with its columns' texts separated by tabs, ``tab-size`` being the
(equal) width of its columns: Pango puts each text right-aligned on its tab stop, i.e. right-aligned
in its column. Each text is wrapped in LEFT-TO-RIGHT MARKs (U+200E, zero width, not in the text layer)
so that ``−12``, ``12S½`` or ``bay ½`` keep their order, and followed by spaces up to about a space
short of its column, so that the tab itself is narrow: WeasyPrint 70 draws a tab 2.4 % wider than
Pango laid it out (the ``PANGO_GLYPH_EMPTY`` case of ``draw_first_line``), and a narrow tab keeps that
error under a pixel a row. Column widths are measured from the texts with DejaVu Sans' advance widths
(:func:`_text_px`): a text wider than its column would push the next ones a column on; a heading
wider than its column is set smaller, and a column is never narrower than its headings' longest word
(:func:`_headings`: headings wrap at spaces only, never inside a word). The header
keeps one ``<th>`` a column (``<col>`` widths), the rules between columns are two SVG images in the
table's background (drawn once a page), between rows a 1-pixel PNG stretched along each row's bottom
(a cell border costs a lot more to draw), and the shading of every second row is translucent (the
rules show through). ``table-layout: fixed``: no measuring pass.

A grid too wide for one page at the smallest type (a double round robin of 16 players has 30 rounds)
is cut into parts of consecutive rounds, each its own table on its own page (:func:`crosstable_grids`):
every part repeats rank, starting number, name and rating, the names on one line (never narrower than
their text), the last part adds points and tie-breaks; a double round robin cut in two is cut at its
cycles.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from federation import pdf
from tournaments.models import Tournament
from tournaments.selectors import tournament_crosstable

#: The table's width: A4 landscape (297 mm) less the page's side margins (10 mm each) and the body's
#: (8 px each), in CSS px.
TABLE_PX = 277 / 25.4 * 96 - 16
#: A cell's left and right padding (1.2 mm), in CSS px.
PAD_PX = 1.2 / 25.4 * 96
#: The type size of the table; smaller (down to :data:`MIN_FONT_PT`) when many rounds would leave
#: the names less than :data:`NAME_MIN_PX` (at 8 pt; in proportion below).
FONT_PT = 8.0
MIN_FONT_PT = 5.5
NAME_MIN_PX = 42 / 25.4 * 96
#: Names get up to this width (longer ones wrap at spaces) before the tie-breaks get more than their
#: numbers need, and a tie-break column gets at most :data:`TIEBREAK_MAX_PX` (at 8 pt) or what its
#: heading's longest word needs; a heading whose longest word does not fit is set smaller, down to
#: :data:`MIN_HEAD_PT`, and its column is made wide enough for it there (:func:`_headings`).
NAME_WANT_PX = 50 / 25.4 * 96
TIEBREAK_MAX_PX = 20 / 25.4 * 96
MIN_HEAD_PT = 5.5

_LRM = "\u200e"
_WIDTH_CHARS = ("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZçğıöşüÇĞİÖŞÜâîû"
                " ,.+-−—–½=()/:'·")
_WIDTH_MILLI_EM = (
    "636 636 636 636 636 636 636 636 636 636 613 635 550 635 615 352 635 634 278 278 579 278 974 634 612 635 "
    "635 411 521 392 634 592 818 592 592 525 684 686 698 770 632 575 775 752 295 295 656 557 863 748 787 603 "
    "787 695 635 611 732 684 989 685 611 685 550 635 278 612 521 634 698 775 295 787 635 732 613 278 634 318 "
    "318 318 838 361 838 1000 500 969 838 390 390 337 337 275 318"
)
#: Advance widths of DejaVu Sans (em, from the font); a character not listed counts as 1 em, wider
#: than nearly every letter.
_EM = dict(zip(_WIDTH_CHARS, (int(w) / 1000 for w in _WIDTH_MILLI_EM.split())))
#: DejaVu Sans Bold is at most this much wider (narrow letters apart: i, l are 26 % wider, a hair).
_BOLD = 1.13


def _text_px(text: str, font_pt: float, *, bold: bool = False) -> float:
    """The width of ``text`` set in DejaVu Sans at ``font_pt``, in CSS px."""
    return sum(_EM.get(c, 1.0) for c in text) * (_BOLD if bold else 1.0) * font_pt * 4 / 3


def _column_px(texts: Iterable[str], font_pt: float, *, bold: Iterable[str] = (), pad_px: float = PAD_PX) -> int:
    """Whole CSS px (``tab-size`` takes whole px) of a column whose widest text is one of ``texts``
    (regular) or ``bold`` (its heading, say), its padding (``pad_px`` a side) and a px to spare included."""
    widest = max([0.0, *(_text_px(t, font_pt) for t in texts), *(_text_px(t, font_pt, bold=True) for t in bold)])
    return math.ceil(widest + 2 * pad_px + 1)


def _columns(texts: Sequence[str], column_px: int, font_pt: float, *, bold: bool = False) -> str:
    """``texts`` as one right-to-left cell of columns ``column_px`` wide, the first text leftmost:
    reversed, each between LEFT-TO-RIGHT MARKs and followed by spaces up to one to two spaces short of
    its column, joined by tabs (module docstring). ``bold``: set in bold (a heading)."""
    space = _text_px(" ", font_pt, bold=bold)
    parts = []
    for i, text in enumerate(reversed(texts)):
        last = i == len(texts) - 1
        pad = 0 if last else max(0, math.floor((column_px - _text_px(text, font_pt, bold=bold)) / space) - 1)
        parts.append(f"{_LRM}{text}{_LRM}{' ' * pad}")
    return "\t".join(parts)


def _rules_uri(xs: Sequence[float], width: float, colour: str = "#999", stroke_px: float = 0.4) -> str:
    """An SVG ``data:`` URI, ``width`` px wide, of vertical rules (``stroke_px`` wide: 0.4 px = 0.3 pt)
    at ``xs``, to be stretched to any height (``preserveAspectRatio="none"``)."""
    half = stroke_px / 2
    path = "".join(f"M{min(max(x, half), width - half):.2f} 0V8" for x in xs)
    svg = (f"<svg xmlns='http://www.w3.org/2000/svg' width='{width:.2f}' height='8' viewBox='0 0 {width:.2f} 8' "
           f"preserveAspectRatio='none'><path d='{path}' stroke='{colour}' stroke-width='{stroke_px}' fill='none'/></svg>")
    return "data:image/svg+xml," + quote(svg, safe="=/: ")  # ' quoted too: nothing for the template to escape


def _words(labels: Iterable[str]) -> list[str]:
    """The unbreakable pieces of headings: their words, a hyphenated word in pieces after its hyphens
    (a line may end after "Sonneborn-", never inside a word)."""
    return [w for label in labels for w in label.replace("-", "- ").split()]


def _heading_px(labels: Iterable[str], *, pad_px: float = PAD_PX) -> int:
    """The least width (whole CSS px) of a column whose headings ``labels`` wrap only at spaces: their
    widest word (:func:`_words`) in bold at :data:`MIN_HEAD_PT`, its padding and a px to spare."""
    return _column_px([], MIN_HEAD_PT, bold=_words(labels), pad_px=pad_px)


def _headings(labels: Sequence[str], column_px: int, font_pt: float, *,
              pad_px: float = PAD_PX) -> tuple[tuple[str, str], ...]:
    """Headings (bold) of columns ``column_px`` wide: each label's text and CSS size, one size for all
    of them — ``font_pt`` when every label's longest word fits, else the largest size (half points)
    down to :data:`MIN_HEAD_PT` at which they all do. Headings wrap only at spaces (and after a
    hyphen), never inside a word (``hyphens: manual; overflow-wrap: normal``): a column is made at
    least :func:`_heading_px` wide."""
    room = column_px - 2 * pad_px - 1
    widest = max((_text_px(w, 1.0, bold=True) for w in _words(labels)), default=0.0)  # at 1 pt
    pt = font_pt
    while pt > MIN_HEAD_PT and widest * pt > room:
        pt -= 0.5
    return tuple((label, _pt(max(pt, MIN_HEAD_PT))) for label in labels)


@dataclass(frozen=True, slots=True)
class CrosstableRow:
    numbers: str  # rank ("12=" when shared) and starting number: one right-to-left cell (_columns)
    name: str
    rounds: str  # the rating and the round cells: one right-to-left cell
    points: str
    tiebreaks: str  # one right-to-left cell


@dataclass(frozen=True, slots=True)
class CrosstableGrid:
    """The columns (CSS px) and rows of one table of the crosstable PDF (module docstring): all the
    rounds, or one part of them (``caption`` says which; ``totals``: points and tie-breaks too, the
    last part; ``whole_names``: the names on one line)."""

    font_pt: float
    number_px: int  # rank, starting number: each
    name_px: float  # what the others leave of the table's width
    round_px: int  # the rating and each round
    points_px: int
    tiebreak_px: int  # each tie-break
    head: tuple[str, str, str, str, str]  # rank, no., name, rating, points
    rating_head_size: str  # CSS font size of the rating's heading
    round_numbers: tuple[int, ...]
    tiebreak_heads: tuple[tuple[str, str], ...]  # (label, CSS font size); none in a part without totals
    rows: tuple[CrosstableRow, ...]
    totals: bool = True
    caption: str = ""
    whole_names: bool = False

    @property
    def rounds(self) -> int:
        return len(self.round_numbers)

    @property
    def tiebreaks(self) -> int:
        return len(self.tiebreak_heads)

    @property
    def numbers_head(self) -> str:
        """The headings of rank and starting number: one right-to-left cell, like the rows'."""
        return _columns(self.head[:2], self.number_px, self.font_pt, bold=True)

    @property
    def rounds_head(self) -> str:
        """The round numbers: one right-to-left cell (the rating's heading has its own: it may be set
        smaller)."""
        return _columns([str(n) for n in self.round_numbers], self.round_px, self.font_pt, bold=True)

    @property
    def font_size(self) -> str:
        """``font_pt`` for CSS (a string: a template writes a float with the language's comma)."""
        return _pt(self.font_pt)

    @property
    def row_rule(self) -> str:
        """The rule under every row (:func:`federation.pdf.rule_png_uri`)."""
        return pdf.rule_png_uri("#999")

    @property
    def left_px(self) -> int:
        return 2 * self.number_px

    @property
    def right_px(self) -> int:
        return (1 + self.rounds) * self.round_px + self.totals * self.points_px + self.tiebreaks * self.tiebreak_px

    def rows_html(self) -> SafeString:
        """The ``<tr>`` rows of the table's body, escaped (joined here: a template loop over 300 rows
        takes ten times as long); every second row ``class="e"`` (shaded)."""
        out = []
        for i, r in enumerate(self.rows):
            tiebreaks = (f'<td class="cols tiebreaks" colspan="{self.tiebreaks}">{escape(r.tiebreaks)}</td>'
                         if self.tiebreaks else "")
            points = f'<td class="points">{escape(r.points)}</td>' if self.totals else ""
            shade = ' class="e"' if i % 2 else ""
            out.append(
                f'<tr{shade}><td class="cols numbers" colspan="2">{escape(r.numbers)}</td>'
                f'<td class="name">{escape(r.name)}</td>'
                f'<td class="cols rounds" colspan="{1 + self.rounds}">{escape(r.rounds)}</td>'
                f'{points}{tiebreaks}</tr>\n'
            )
        return mark_safe("".join(out))  # noqa: S308 - every text above is escaped

    @property
    def left_rules(self) -> str:
        """The rules of the rank and number columns: the table's left edge, between them, the name's left."""
        return _rules_uri([0, self.number_px, self.left_px], self.left_px)

    @property
    def right_rules(self) -> str:
        """The rules from the name's right edge to the table's right edge."""
        widths = [*[self.round_px] * (1 + self.rounds), *[self.points_px] * self.totals,
                  *[self.tiebreak_px] * self.tiebreaks]
        xs = [0.0]
        for w in widths:
            xs.append(xs[-1] + w)
        return _rules_uri(xs, self.right_px)


def _pt(value: float) -> str:
    return f"{value:g}pt"


def crosstable_grids(table, lang: str | None = None, *, cycles: int = 1) -> tuple[CrosstableGrid, ...]:
    """Lay out ``table`` (:class:`tournaments.selectors.Crosstable`) for the PDF: the text of every
    cell (:mod:`federation.formatting`, in the active language) and the columns' widths — each as
    wide as its widest text, a heading's longest word included; the names up to
    :data:`NAME_WANT_PX` (longer ones wrap at spaces), then the tie-breaks up to
    :data:`TIEBREAK_MAX_PX`, the names the rest; the type smaller when the names would get less than
    :data:`NAME_MIN_PX` (or their longest word) and need it. One table when that fits at
    :data:`MIN_FONT_PT`; else the fewest parts of consecutive rounds (equal, so a double round robin
    — ``cycles`` 2 — cut in two is cut at its cycles) each of which fits with every name on one line,
    the points and tie-breaks in the last part or, when they do not fit there, in a part of their own
    (module docstring)."""
    from federation import formatting

    lang = lang or translation.get_language() or settings.LANGUAGE_CODE
    lines = [row.line for row in table.rows]
    ranks = [f"{ln.rank}{'=' if ln.shared else ''}" for ln in lines]
    numbers = [str(ln.start_no) for ln in lines]
    ratings = [str(ln.rating or "") for ln in lines]
    points = [formatting.points(ln.points, lang=lang) for ln in lines]
    tiebreaks = [[formatting.number(v, 2, lang=lang) for v in ln.tiebreaks] for ln in lines]
    cells = [[c.text for c in row.cells] for row in table.rows]
    names = [ln.name for ln in lines]
    head = (_("Rank"), pgettext("starting number", "No."), _("Name"), _("Rating"), _("Points"))
    round_numbers = tuple(table.round_numbers)
    labels = tuple(table.standings.tiebreak_labels)
    name_words = [w for name in names for w in name.split()]

    def layout(lo: int, hi: int, *, totals: bool, whole_names: bool, force: bool = False) -> CrosstableGrid | None:
        """The table of the rounds ``round_numbers[lo:hi]`` (with points and tie-breaks if ``totals``;
        the names on one line if ``whole_names``) at the largest size at which the names fit; None if
        they do not at :data:`MIN_FONT_PT` (unless ``force``)."""
        part_rounds = round_numbers[lo:hi]
        part_cells = [row[lo:hi] for row in cells]
        part_labels = labels if totals else ()
        font = FONT_PT
        while True:
            scale = font / FONT_PT
            number_px = _column_px([*ranks, *numbers], font, bold=head[:2])
            round_px = max(_column_px([*ratings, *(t for row in part_cells for t in row)], font,
                                      bold=[str(n) for n in part_rounds]), _heading_px([head[3]]))
            points_px = _column_px([], font, bold=[*points, head[4]]) if totals else 0
            tiebreak_px = max(_column_px((t for row in tiebreaks for t in row), font, bold=["0"]),
                              _heading_px(part_labels))
            fixed = 2 * number_px + (1 + len(part_rounds)) * round_px + points_px
            if whole_names:
                name_need = name_min = _column_px(names, font, bold=[head[2]])  # never wraps
            else:
                name_need = min(_column_px(names, font, bold=[head[2]]), NAME_WANT_PX * scale)  # longer names wrap
                name_min = max(min(name_need, NAME_MIN_PX * scale), _column_px(name_words, font))
            if part_labels:
                share = math.floor((TABLE_PX - fixed - name_need) / len(part_labels))
                tiebreak_px = max(tiebreak_px, min(share, math.floor(TIEBREAK_MAX_PX * scale)))
            name_px = TABLE_PX - fixed - len(part_labels) * tiebreak_px
            if name_px >= name_min:
                break
            if font <= MIN_FONT_PT:
                if not force:
                    return None
                break
            font -= 0.5

        rows = tuple(
            CrosstableRow(_columns([rank, no], number_px, font), name,
                          _columns([rating, *row_cells], round_px, font), pts, _columns(tbs, tiebreak_px, font))
            for rank, no, name, rating, row_cells, pts, tbs in zip(ranks, numbers, names, ratings, part_cells,
                                                                   points, tiebreaks)
        )
        return CrosstableGrid(
            font_pt=font, number_px=number_px, name_px=name_px, round_px=round_px, points_px=points_px,
            tiebreak_px=tiebreak_px, head=head, rating_head_size=_headings([head[3]], round_px, font)[0][1],
            round_numbers=part_rounds,
            tiebreak_heads=_headings(part_labels, tiebreak_px, font),
            rows=rows, totals=totals, caption=caption(lo, hi) if whole_names else "", whole_names=whole_names,
        )

    def caption(lo: int, hi: int) -> str:
        """Which rounds a part has (and its cycle, when it lies in one)."""
        if lo == hi:
            return _("Points and tie-breaks")
        first, last = round_numbers[lo], round_numbers[hi - 1]
        per_cycle = len(round_numbers) // cycles if cycles > 1 and len(round_numbers) % cycles == 0 else 0
        if per_cycle and lo // per_cycle == (hi - 1) // per_cycle:
            return _("Cycle %(cycle)s · rounds %(first)s–%(last)s") % {
                "cycle": lo // per_cycle + 1, "first": first, "last": last}
        return _("Rounds %(first)s–%(last)s") % {"first": first, "last": last}

    n = len(round_numbers)
    whole = layout(0, n, totals=True, whole_names=False)
    if whole is not None or n < 2:
        return (whole or layout(0, n, totals=True, whole_names=False, force=True),)
    totals = layout(n, n, totals=True, whole_names=True)  # points and tie-breaks on a page of their own
    for k in range(2, n + 1):
        bounds = [round(i * n / k) for i in range(k + 1)]
        chunks = list(zip(bounds, bounds[1:]))
        parts = [layout(lo, hi, totals=hi == n, whole_names=True) for lo, hi in chunks]
        if all(parts):
            return tuple(parts)
        parts = [layout(lo, hi, totals=False, whole_names=True) for lo, hi in chunks]
        if totals and all(parts):
            return (*parts, totals)
    return (layout(0, n, totals=True, whole_names=False, force=True),)


def crosstable_pdf_bytes(*, tournament: Tournament, lang: str = "tr") -> bytes:
    """Render the public crosstable of ``tournament`` to PDF bytes."""
    return pdf.html_to_pdf(crosstable_pdf_html(crosstable_pdf_context(tournament=tournament, lang=lang), lang=lang))


def crosstable_pdf_context(*, tournament: Tournament, lang: str = "tr") -> dict:
    """The data step: the template's context (the public crosstable, in ``lang``)."""
    with translation.override(lang):
        table = tournament_crosstable(tournament=tournament, public_only=True, lang=lang)
        grids = crosstable_grids(table, lang=lang, cycles=2 if tournament.double_round_robin else 1)
    return {"table": table, "grids": grids, "t": tournament, "generated_at": timezone.now()}


def crosstable_pdf_html(context: dict, *, lang: str = "tr") -> str:
    """The HTML step: ``crosstable_pdf.html`` rendered in ``lang``."""
    with translation.override(lang):
        return render_to_string("tournaments/crosstable_pdf.html", context)


#: Bumped when the PDF's layout or wording changes (2: colour letters per language, one date format;
#: 3: five cells a row, columns sized to their texts, round cells right-aligned — see the module
#: docstring; 4: a grid too wide in parts, headings never cut inside a word), so files cached by an older release are not served again.
LAYOUT = 4


def crosstable_pdf_path(tournament: Tournament, lang: str = "tr") -> Path:
    """Where the cached PDF of the tournament's public crosstable as it stands lives: named by the
    tournament's id (never reused, unlike a slug after a deletion) and its ``standings_version`` (the
    public tables' version: results of a round not closed do not make a new file)."""
    return (Path(settings.MEDIA_ROOT) / "crosstables"
            / f"{tournament.pk}-{tournament.slug}-s{tournament.standings_version}-{lang}-l{LAYOUT}.pdf")


def crosstable_pdf_build(*, tournament: Tournament, lang: str = "tr") -> Path:
    """Build (or reuse) the cached PDF file of the current version and return its path."""
    return pdf.pdf_file_build(
        crosstable_pdf_path(tournament, lang), lambda: crosstable_pdf_bytes(tournament=tournament, lang=lang)
    )
