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
wider than its column is set smaller or hyphenated (:func:`_headings`). The header
keeps one ``<th>`` a column (``<col>`` widths), the rules between columns are two SVG images in the
table's background (drawn once a page), between rows a 1-pixel PNG stretched along each row's bottom
(a cell border costs a lot more to draw), and the shading of every second row is translucent (the
rules show through). ``table-layout: fixed``: no measuring pass.
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
#: Names get up to this width (longer ones wrap) before the tie-breaks get more than their numbers
#: need, and a tie-break column gets at most :data:`TIEBREAK_MAX_PX` (at 8 pt); a heading whose
#: longest word does not fit is set smaller, down to :data:`UNBROKEN_HEAD_PT`, then hyphenated and
#: set smaller still if need be, down to :data:`MIN_HEAD_PT` (:func:`_headings`).
NAME_WANT_PX = 50 / 25.4 * 96
TIEBREAK_MAX_PX = 20 / 25.4 * 96
UNBROKEN_HEAD_PT = 6.5
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


_VOWELS = frozenset("aeıioöuüâîûAEIİOÖUÜÂÎÛ")
_SHY = "\u00ad"


def _pieces(word: str, lang: str) -> list[str]:
    """``word`` cut where it may be hyphenated. Turkish (no pyphen dictionary) by its rule: a syllable
    begins at the consonant before each vowel, and two vowels in a row part; not a letter alone at
    either end. Other languages by pyphen, as WeasyPrint's ``hyphens: auto`` does."""
    if lang != "tr":
        import pyphen

        found = pyphen.language_fallback(lang.replace("-", "_"))
        if not found:
            return [word]
        return pyphen.Pyphen(lang=found).inserted(word, hyphen=_SHY).split(_SHY)
    vowels = [i for i, c in enumerate(word) if c in _VOWELS]
    cuts = [b - 1 if b - a > 1 else b for a, b in zip(vowels, vowels[1:])]
    cuts = [c for c in cuts if 2 <= c <= len(word) - 2]
    return [word[i:j] for i, j in zip([0, *cuts], [*cuts, len(word)])]


def _headings(labels: Sequence[str], column_px: int, font_pt: float, lang: str, *, hyphenate: bool = True,
              pad_px: float = PAD_PX) -> tuple[tuple[str, str], ...]:
    """Headings (bold) of columns ``column_px`` wide: each label's text and CSS size, one size for all
    of them. ``font_pt`` when every label's longest word fits; else the largest size down to
    :data:`UNBROKEN_HEAD_PT` at which they all fit; else (``hyphenate``) the words cut into syllables
    (:func:`_pieces`; Turkish by soft hyphens, WeasyPrint breaks there only when it must; other
    languages by ``hyphens: auto``) at the largest size down to :data:`MIN_HEAD_PT` at which none
    takes more than three lines."""
    room = column_px - 2 * pad_px - 1
    words = [w for label in labels for w in label.replace("-", "- ").split()]

    def size(pieces: list[str], smallest: float) -> float | None:
        widest = max((_text_px(piece, 1.0, bold=True) for piece in pieces), default=0.0)  # at 1 pt
        pt = font_pt
        while pt > smallest and widest * pt > room:
            pt -= 0.5
        return pt if widest * pt <= room else None

    pt = size(words, UNBROKEN_HEAD_PT)
    if pt is not None or not hyphenate:
        return tuple((label, _pt(pt or UNBROKEN_HEAD_PT)) for label in labels)

    def lines(label: str, pt: float) -> int:
        """Lines the hyphenated ``label`` takes at ``pt`` (greedy; inf if a syllable does not fit)."""
        count, used = 1, 0.0
        hyphen, space = _text_px("-", pt, bold=True), _text_px(" ", pt, bold=True)
        for word in label.split():
            for k, part in enumerate(word.replace("-", "- ").split()):
                pieces = _pieces(part.rstrip("-"), lang)
                pieces[-1] += "-" if part.endswith("-") else ""
                for j, piece in enumerate(pieces):
                    w = _text_px(piece, pt, bold=True)
                    gap = space if (j == 0 and k == 0 and used) else 0.0
                    if used and used + gap + w + (hyphen if j < len(pieces) - 1 else 0) > room:
                        count, used, gap = count + 1, 0.0, 0.0
                    if w + hyphen > room and j < len(pieces) - 1 or w > room:
                        return 10**6
                    used += gap + w
        return count

    # the largest size at which no heading takes more than three lines (the smallest size if none)
    size_pt = _pt(next((pt / 2 for pt in range(int(font_pt * 2), int(MIN_HEAD_PT * 2) - 1, -1)
                        if max(lines(label, pt / 2) for label in labels) <= 3), MIN_HEAD_PT))
    if lang != "tr":
        return tuple((label, size_pt) for label in labels)
    return tuple(
        (" ".join("-".join(_SHY.join(_pieces(part, lang)) for part in w.split("-")) for w in label.split(" ")), size_pt)
        for label in labels
    )


@dataclass(frozen=True, slots=True)
class CrosstableRow:
    numbers: str  # rank ("12=" when shared) and starting number: one right-to-left cell (_columns)
    name: str
    rounds: str  # the rating and the round cells: one right-to-left cell
    points: str
    tiebreaks: str  # one right-to-left cell


@dataclass(frozen=True, slots=True)
class CrosstableGrid:
    """The columns (CSS px) and rows of the crosstable PDF's table (module docstring)."""

    font_pt: float
    number_px: int  # rank, starting number: each
    name_px: float  # what the others leave of the table's width
    round_px: int  # the rating and each round
    points_px: int
    tiebreak_px: int  # each tie-break
    head: tuple[str, str, str, str, str]  # rank, no., name, rating, points
    rating_head_size: str  # CSS font size of the rating's heading
    round_numbers: tuple[int, ...]
    tiebreak_heads: tuple[tuple[str, str], ...]  # (label, CSS font size)
    rows: tuple[CrosstableRow, ...]

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
        return (1 + self.rounds) * self.round_px + self.points_px + self.tiebreaks * self.tiebreak_px

    def rows_html(self) -> SafeString:
        """The ``<tr>`` rows of the table's body, escaped (joined here: a template loop over 300 rows
        takes ten times as long); every second row ``class="e"`` (shaded)."""
        out = []
        for i, r in enumerate(self.rows):
            tiebreaks = (f'<td class="cols tiebreaks" colspan="{self.tiebreaks}">{escape(r.tiebreaks)}</td>'
                         if self.tiebreaks else "")
            shade = ' class="e"' if i % 2 else ""
            out.append(
                f'<tr{shade}><td class="cols numbers" colspan="2">{escape(r.numbers)}</td>'
                f'<td class="name">{escape(r.name)}</td>'
                f'<td class="cols rounds" colspan="{1 + self.rounds}">{escape(r.rounds)}</td>'
                f'<td class="points">{escape(r.points)}</td>{tiebreaks}</tr>\n'
            )
        return mark_safe("".join(out))  # noqa: S308 - every text above is escaped

    @property
    def left_rules(self) -> str:
        """The rules of the rank and number columns: the table's left edge, between them, the name's left."""
        return _rules_uri([0, self.number_px, self.left_px], self.left_px)

    @property
    def right_rules(self) -> str:
        """The rules from the name's right edge to the table's right edge."""
        widths = [*[self.round_px] * (1 + self.rounds), self.points_px, *[self.tiebreak_px] * self.tiebreaks]
        xs = [0.0]
        for w in widths:
            xs.append(xs[-1] + w)
        return _rules_uri(xs, self.right_px)


def _pt(value: float) -> str:
    return f"{value:g}pt"


def crosstable_grid(table, lang: str | None = None) -> CrosstableGrid:
    """Lay out ``table`` (:class:`tournaments.selectors.Crosstable`) for the PDF: the text of every
    cell (:mod:`federation.formatting`, in the active language) and the columns' widths — each as
    wide as its widest text; the names up to :data:`NAME_WANT_PX`, then the tie-breaks up to
    :data:`TIEBREAK_MAX_PX`, the names the rest; the type smaller when the names would get less than
    :data:`NAME_MIN_PX` and need it."""
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

    font = FONT_PT
    while True:
        scale = font / FONT_PT
        number_px = _column_px([*ranks, *numbers], font, bold=head[:2])
        round_px = _column_px([*ratings, *(t for row in cells for t in row)], font, bold=[str(n) for n in round_numbers])
        points_px = _column_px([], font, bold=[*points, head[4]])
        tiebreak_px = _column_px((t for row in tiebreaks for t in row), font, bold=["0"])
        fixed = 2 * number_px + (1 + len(round_numbers)) * round_px + points_px
        name_need = min(_column_px(names, font, bold=[head[2]]), NAME_WANT_PX * scale)  # longer names wrap
        if labels:
            share = math.floor((TABLE_PX - fixed - name_need) / len(labels))
            tiebreak_px = max(tiebreak_px, min(share, math.floor(TIEBREAK_MAX_PX * scale)))
        name_px = TABLE_PX - fixed - len(labels) * tiebreak_px
        if name_px >= min(name_need, NAME_MIN_PX * scale) or font <= MIN_FONT_PT:
            break
        font -= 0.5

    rows = tuple(
        CrosstableRow(_columns([rank, no], number_px, font), name, _columns([rating, *row_cells], round_px, font), pts,
                      _columns(tbs, tiebreak_px, font))
        for rank, no, name, rating, row_cells, pts, tbs in zip(ranks, numbers, names, ratings, cells, points, tiebreaks)
    )
    return CrosstableGrid(
        font_pt=font, number_px=number_px, name_px=name_px, round_px=round_px, points_px=points_px,
        tiebreak_px=tiebreak_px, head=head, rating_head_size=_headings([head[3]], round_px, font, lang, hyphenate=False)[0][1],
        round_numbers=round_numbers,
        tiebreak_heads=_headings(labels, tiebreak_px, font, lang),
        rows=rows,
    )


def crosstable_pdf_bytes(*, tournament: Tournament, lang: str = "tr") -> bytes:
    """Render the public crosstable of ``tournament`` to PDF bytes."""
    return pdf.html_to_pdf(crosstable_pdf_html(crosstable_pdf_context(tournament=tournament, lang=lang), lang=lang))


def crosstable_pdf_context(*, tournament: Tournament, lang: str = "tr") -> dict:
    """The data step: the template's context (the public crosstable, in ``lang``)."""
    with translation.override(lang):
        table = tournament_crosstable(tournament=tournament, public_only=True, lang=lang)
        grid = crosstable_grid(table, lang=lang)
    return {"table": table, "grid": grid, "t": tournament, "generated_at": timezone.now()}


def crosstable_pdf_html(context: dict, *, lang: str = "tr") -> str:
    """The HTML step: ``crosstable_pdf.html`` rendered in ``lang``."""
    with translation.override(lang):
        return render_to_string("tournaments/crosstable_pdf.html", context)


#: Bumped when the PDF's layout or wording changes (2: colour letters per language, one date format;
#: 3: five cells a row, columns sized to their texts, round cells right-aligned — see the module
#: docstring), so files cached by an older release are not served again.
LAYOUT = 3


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
