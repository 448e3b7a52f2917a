"""Paper for the tournament hall (WeasyPrint, A4, DejaVu Sans so that ç ğ ı İ ö ş ü print): the pairing
list of a round for the wall, the referees' result slips with a QR code of each board's result form,
and the standings with their tie-break columns.

* Pairing list (:func:`pairings_pdf_bytes`): by board — board, white with the points before the round,
  an empty result column to write in, black with points, clubs — then every paired player in Turkish
  alphabetical order with board and colour (the crowd at the wall looks for a name). ``large`` prints
  big type for the wall. Many phones ask for it at once, so it is cached (:func:`pairings_pdf_path`,
  keyed on the round as it stands) and built like the crosstable PDF (task ``tournaments.pairings_pdf``).
* Result slips (:func:`slips_pdf_bytes`): one slip per game board, three to an A4 page with cut marks;
  who starts each set (:func:`games.engine.set_starter`: white odd sets, black even ones); each set's
  stones boxes in the result form's order — the set's starter first, named, then the other player — so
  a referee copying the slip row by row onto the phone never swaps the players; withdrawals, signature
  lines, and a QR code (segno) of the board's absolute result-entry URL (``settings.SITE_URL`` when
  set, else the request's address; a loopback address is printed as a warning under the code). Built
  in the request; never cached (the URL depends on the host).
* Standings (:func:`standings_pdf_bytes`): the standings table as the page shows it; cached under
  ``MEDIA_ROOT/standings`` by tournament version, language and audience and built like the crosstable
  PDF (:func:`federation.pdf.pdf_file_build`, the Celery task
  ``tournaments.standings_pdf``).
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from django.conf import settings
from django.db.models import Sum
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from federation.collation import player_sort_key
from games.engine import set_starter
from tournaments import selectors
from tournaments.models import Entry, Match, Round, Tournament

#: Slips on one A4 page.
SLIPS_PER_PAGE = 3

#: Bumped when the cached PDFs' layout or wording changes, so files of an older release are not served
#: (2: standings and pairing lists laid out as the crosstable — :class:`StandingsGrid`,
#: :class:`PairingsGrid` — the alphabetical list's two columns laid out here).
LAYOUT = 2


def _html_to_pdf(html: str) -> bytes:
    from federation.pdf import html_to_pdf

    return html_to_pdf(html)


def _render(template: str, context: dict, lang: str) -> str:
    """The HTML step of a PDF: ``template`` rendered in ``lang``."""
    with translation.override(lang):
        return render_to_string(template, context)


def colour_word(colour: str) -> str:
    """``"white"``/``"black"`` as a word in the active language (beyaz / siyah)."""
    return _("white") if colour == "white" else _("black")


def round_date_text(tournament: Tournament, number: int) -> str:
    """The date of round ``number`` in the active language's one date format
    (:func:`federation.formatting.day`), or the text a file gave; blank when unknown."""
    from federation.formatting import day as day_text

    dates = tournament.round_dates or []
    if not 1 <= number <= len(dates):
        return ""
    value = dates[number - 1]
    day = selectors._parse_date(value)
    return day_text(day) if day else str(value or "").strip()


def points_before(round: Round) -> dict[int, Decimal]:
    """Match points of every entry in the rounds before ``round`` (byes included), by entry id.

    The rounds before a paired round are closed (a round is paired only after the last one closed),
    so these are the points the public already sees on those rounds' pages."""
    earlier = Match.objects.filter(round__tournament_id=round.tournament_id, round__number__lt=round.number).order_by()
    points: dict[int, Decimal] = {}
    for entry_id, p in earlier.values_list("white_id").annotate(p=Sum("white_points")):
        points[entry_id] = points.get(entry_id, Decimal(0)) + (p or 0)
    for entry_id, p in earlier.filter(black__isnull=False).values_list("black_id").annotate(p=Sum("black_points")):
        points[entry_id] = points.get(entry_id, Decimal(0)) + (p or 0)
    return points


@dataclass(frozen=True, slots=True)
class PairingSide:
    """One player of a board on paper: starting number, name, club, points before the round."""

    start_no: int
    name: str
    club: str
    points: Decimal


@dataclass(frozen=True, slots=True)
class PairingBoard:
    board: int
    white: PairingSide
    black: PairingSide | None  # None for a bye
    bye_text: str  # what a bye is ("pairing-allocated bye"); blank for a game
    result: str  # "1 – 0" when entered, else blank (the column is for writing)


@dataclass(frozen=True, slots=True)
class AlphaLine:
    """A player in the alphabetical list: where to sit and with which colour."""

    name: str
    start_no: int
    club: str
    board: int
    colour: str  # "beyaz" / "siyah" / "bay" in the active language


def _club(entry: Entry) -> str:
    player = entry.player
    return player.club.name if player.club else (player.city or entry.federation or "")


def _fmt(p) -> str:
    from federation.formatting import points

    return points(p)


def pairing_list(round: Round) -> tuple[list[PairingBoard], list[AlphaLine]]:
    """The boards of ``round`` for paper, and the alphabetical list of its players (Turkish order).
    Strings come out in the active language."""
    before = points_before(round)

    def side(e: Entry) -> PairingSide:
        return PairingSide(e.start_no, e.player.full_name, _club(e), before.get(e.id, Decimal(0)))

    boards: list[PairingBoard] = []
    alpha: list[tuple[tuple, AlphaLine]] = []
    for m in selectors.round_boards(round=round):
        white = side(m.white)
        if m.kind == Match.Kind.BYE:
            boards.append(PairingBoard(m.board, white, None, m.get_bye_kind_display(), _fmt(m.white_points)))
            alpha.append((player_sort_key(m.white.player),
                          AlphaLine(white.name, white.start_no, white.club, m.board, _("bye"))))
            continue
        black = side(m.black)
        result = f"{_fmt(m.white_points)} – {_fmt(m.black_points)}" if m.white_points is not None else ""
        boards.append(PairingBoard(m.board, white, black, "", result))
        alpha.append((player_sort_key(m.white.player),
                      AlphaLine(white.name, white.start_no, white.club, m.board, colour_word("white"))))
        alpha.append((player_sort_key(m.black.player),
                      AlphaLine(black.name, black.start_no, black.club, m.board, colour_word("black"))))
    alpha.sort(key=lambda item: item[0])
    return boards, [line for _key, line in alpha]


def pairings_pdf_bytes(*, round: Round, lang: str = "tr", large: bool = False) -> bytes:
    """The pairing list of ``round`` (by board, then alphabetical) as PDF bytes, in ``lang``."""
    return _html_to_pdf(pairings_pdf_html(pairings_pdf_context(round=round, lang=lang, large=large), lang=lang))


def pairings_pdf_context(*, round: Round, lang: str = "tr", large: bool = False) -> dict:
    """The data step of the pairing list: the template's context, strings in ``lang``."""
    t = round.tournament
    with translation.override(lang):
        boards, alpha = pairing_list(round)
        round_date = round_date_text(t, round.number)
        draft = not round.is_public
        return {
            "t": t, "round": round, "boards": boards, "alpha": alpha, "large": large,
            "draft": draft, "round_date": round_date, "generated_at": timezone.now(),
            "grid": pairings_grid(t, round, alpha, large=large, round_date=round_date),
        }


#: The pairing list's page: A4 portrait less its margins (12 and 14 mm, 11 mm a side) and the body's
#: 8 px a side, in CSS px and mm.
PAIRINGS_WIDTH_PX = 188 / 25.4 * 96 - 16
PAIRINGS_HEIGHT_MM = 297 - 12 - 14
#: The alphabetical list's type size, line height (em: DejaVu Sans' "normal") and cell padding.
ALPHA_FONT_PT = 9.5
ALPHA_LINE_EM = 1.164
ALPHA_PAD_MM = (1.2, 1.4)  # top and bottom, left and right
ALPHA_GAP_MM = 6.0
_PT_MM = 25.4 / 72


@dataclass(frozen=True, slots=True)
class AlphaPage:
    """One page of the alphabetical list: its two columns (``right`` empty in large type: one column)."""

    left: tuple[tuple[int, AlphaLine], ...]  # (index in the list: odd ones are shaded, line)
    right: tuple[tuple[int, AlphaLine], ...]

    @property
    def columns(self) -> tuple[tuple[tuple[int, AlphaLine], ...], ...]:
        return (self.left, self.right) if self.right else (self.left,)


@dataclass(frozen=True, slots=True)
class PairingsGrid:
    """The pairing list's tables laid out for WeasyPrint: the rules between columns as background
    images of the tables, the rule under each row a stretched pixel (as the crosstable:
    :mod:`tournaments.paper.crosstable`), and the alphabetical list in two columns a page — laid out
    here, a page at a time (:func:`pairings_grid`), not by CSS ``columns``: WeasyPrint balances columns
    by laying out the rest of the list again for every column, which grows with the square of the list."""

    boards_rules: str
    alpha_px: tuple[float, int, int]  # name, board, colour (the name takes what the others leave)
    alpha_rules: str
    alpha_table_px: float
    alpha_pages: tuple[AlphaPage, ...]
    row_rule: str

    @property
    def board_px(self) -> int:
        return self.alpha_px[1]

    @property
    def colour_px(self) -> int:
        return self.alpha_px[2]


def _wrapped_lines(text: str, room_px: float, font_pt: float, *, bold: bool = False) -> int:
    """How many lines ``text`` takes in ``room_px`` (greedy at spaces; a word wider than the room
    takes lines of its own)."""
    from tournaments.paper.crosstable import _text_px

    space = _text_px(" ", font_pt, bold=bold)
    lines, used = 1, 0.0
    for word in text.split():
        w = _text_px(word, font_pt, bold=bold)
        if used and used + space + w > room_px:
            lines, used = lines + 1, 0.0
        used = (used + space + w) if used else w
        while used > room_px:
            lines, used = lines + 1, used - room_px
    return lines


def pairings_grid(t: Tournament, round: Round, alpha: list[AlphaLine], *, large: bool, round_date: str) -> PairingsGrid:
    """Columns, rules and the alphabetical list's pages of the pairing list (strings in the active
    language). A page of the list holds, in its left column then its right one, the lines whose
    heights (:func:`_wrapped_lines`) fit under its headings; the last page's columns are balanced,
    the left one the longer, as CSS columns would."""
    from federation.pdf import rule_png_uri
    from tournaments.paper.crosstable import _column_px, _rules_uri

    width = PAIRINGS_WIDTH_PX
    mm = 96 / 25.4
    # the boards: fixed widths (the template's col.board, col.pts, col.result), the names share the rest
    fixed = [19, 15, 26, 15] if large else [12, 11, 24, 11]
    name = (width - sum(fixed) * mm) / 2
    widths = [fixed[0] * mm, name, fixed[1] * mm, fixed[2] * mm, fixed[3] * mm, name]
    xs = [0.0]
    for w in widths:
        xs.append(xs[-1] + w)
    boards_rules = _rules_uri(xs, width, "#777", 0.53)

    font = 16.0 if large else ALPHA_FONT_PT
    pad_x = ALPHA_PAD_MM[1] * mm if not large else 1.8 * mm
    table_px = width if large else (width - ALPHA_GAP_MM * mm) / 2
    head_font = font * 0.85
    board_px = _column_px([], font, bold=[str(a.board) for a in alpha] + [_("Board")], pad_px=pad_x)
    colour_px = _column_px([a.colour for a in alpha], font, bold=[], pad_px=pad_x)
    colour_px = max(colour_px, _column_px([], head_font, bold=[_("Colour")], pad_px=pad_x))
    name_px = table_px - board_px - colour_px
    alpha_rules = _rules_uri([0, name_px, name_px + board_px, table_px], table_px, "#777", 0.53)
    if large:  # one column, the table flows from page to page
        pages = (AlphaPage(tuple(enumerate(alpha)), ()),) if alpha else ()
        return PairingsGrid(boards_rules, (name_px, board_px, colour_px), alpha_rules, table_px, pages,
                            rule_png_uri("#777"))

    pad_y = ALPHA_PAD_MM[0]
    rule = 0.4 * _PT_MM
    line = font * ALPHA_LINE_EM * _PT_MM
    head_h = head_font * ALPHA_LINE_EM * _PT_MM + 2 * pad_y + rule
    room = name_px - 2 * pad_x
    heights = [_wrapped_lines(f"{a.name} ({a.start_no})", room, font) * line + 2 * pad_y + rule for a in alpha]
    # the first page of the list also has the section's headings (pairings_pdf.html: h1, p.facts, h2)
    heading_h = (
        _wrapped_lines(t.name, width, 15, bold=True) * 15 * ALPHA_LINE_EM * _PT_MM + 1  # h1
        + _wrapped_lines(f"Round {round.number} · {round_date}", width, font) * font * ALPHA_LINE_EM * _PT_MM + 3
        + _wrapped_lines(_("Players in alphabetical order"), width, 12, bold=True) * 12 * ALPHA_LINE_EM * _PT_MM + 2
    )
    pages: list[AlphaPage] = []
    i, n = 0, len(alpha)
    while i < n:
        capacity = PAIRINGS_HEIGHT_MM - 0.5 - head_h - (heading_h if not pages else 0)
        # what fits in the page's two columns
        columns: list[list[int]] = [[], []]
        for col in columns:
            used = 0.0
            while i < n and (used + heights[i] <= capacity or not col):
                col.append(i)
                used += heights[i]
                i += 1
        if i >= n:  # the last page: balance its two columns, the left one the longer
            rest = columns[0] + columns[1]
            total = sum(heights[k] for k in rest)
            left, used = [], 0.0
            for k in rest:
                if used >= total / 2 - 0.01 and left:
                    break
                left.append(k)
                used += heights[k]
            columns = [left, rest[len(left):]]
        pages.append(AlphaPage(tuple((k, alpha[k]) for k in columns[0]), tuple((k, alpha[k]) for k in columns[1])))
    return PairingsGrid(boards_rules, (name_px, board_px, colour_px), alpha_rules, table_px, tuple(pages),
                        rule_png_uri("#777"))


def pairings_pdf_html(context: dict, *, lang: str = "tr") -> str:
    return _render("tournaments/pairings_pdf.html", context, lang)


def pairings_pdf_path(round: Round, lang: str = "tr", large: bool = False) -> Path:
    """Where the cached pairing list of ``round`` as it stands lives: the name carries a digest of the
    round's status and boards and the tournament's version (earlier results, hence the points before
    the round), so a swap, a publication or a result makes a new file."""
    import hashlib

    state = [round.tournament.version, round.status] + [
        list(row) for row in round.matches.order_by("board").values_list(
            "board", "kind", "bye_kind", "white_id", "black_id", "white_points", "black_points", "forfeit")
    ]
    digest = hashlib.sha256(repr(state).encode()).hexdigest()[:16]
    name = (f"{round.tournament.pk}-{round.tournament.slug}-r{round.number}-{digest}-{lang}"
            f"{'-large' if large else ''}-l{LAYOUT}.pdf")
    return Path(settings.MEDIA_ROOT) / "pairings" / name


def pairings_pdf_build(*, round: Round, lang: str = "tr", large: bool = False) -> Path:
    """Build (or reuse) the cached pairing list of ``round`` as it stands; returns its path."""
    from federation.pdf import pdf_file_build

    return pdf_file_build(pairings_pdf_path(round, lang, large),
                          lambda: pairings_pdf_bytes(round=round, lang=lang, large=large))


# --------------------------------------------------------------------------------------------
# Result slips
# --------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=2048)
def qr_png_data_uri(text: str) -> str:
    """A QR code of ``text`` (segno, error correction M) as a black-and-white PNG ``data:`` URI, 8 pixels
    a module (printed without smoothing: ``image-rendering: pixelated``). A PNG, not an SVG: a hundred
    vector codes take WeasyPrint seconds to draw. Remembered (a few thousand, under 1 KB each): choosing
    the code's mask takes 10 ms a code, and a round's slips are printed again after a correction."""
    import segno

    return segno.make(text, error="m", micro=False).png_data_uri(scale=8, border=0)


def loopback_host(host: str) -> str:
    """``host`` (``request.get_host()``, port included or not) when it names this computer only —
    ``localhost``, ``*.localhost``, ``127.0.0.0/8``, ``::1``, ``0.0.0.0`` — so that a phone scanning a
    link built on it reaches itself, not the site; else ``""``."""
    import ipaddress

    from django.http.request import split_domain_port

    domain, _port = split_domain_port(host or "")
    if not domain:
        return ""
    if domain == "localhost" or domain.endswith(".localhost"):
        return domain
    try:
        ip = ipaddress.ip_address(domain.strip("[]"))
    except ValueError:
        return ""
    return domain if (ip.is_loopback or ip.is_unspecified) else ""


def slip_link_base(request) -> tuple[Callable[[str], str], str]:
    """How the slips of ``request`` make their absolute URLs, and the loopback host they would point
    to (``""`` when none): ``settings.SITE_URL`` when set, else the request's own address."""
    base = getattr(settings, "SITE_URL", "")
    if base:
        return (lambda path: base.rstrip("/") + path), ""
    return request.build_absolute_uri, loopback_host(request.get_host())


@dataclass(frozen=True, slots=True)
class SlipSet:
    number: int
    starter: str  # "white" / "black"
    starter_word: str  # in the active language
    starter_name: str
    second_name: str  # the other player


@dataclass(frozen=True, slots=True)
class Slip:
    board: int
    white: Entry
    black: Entry
    sets: tuple[SlipSet, ...]
    url: str
    qr: str  # data: URI


def _planned_sets(t, number: int) -> int:
    """The sets a slip has rows for: a knockout round's planned sets (decider sets, when a match ends
    level, are entered on the result form), else the tournament's sets per match."""
    from tournaments.knockout.settings import is_knockout, sets_for_round

    return sets_for_round(t, number) if is_knockout(t) else t.sets_per_match


def result_slips(round: Round, absolute: Callable[[str], str]) -> list[Slip]:
    """One slip per game board of ``round``; ``absolute`` turns a path into an absolute URL (the
    request's :meth:`build_absolute_uri`)."""
    t = round.tournament
    slips = []
    for m in selectors.round_boards(round=round):
        if m.kind != Match.Kind.GAME:
            continue
        sets = []
        for k in range(1, _planned_sets(t, round.number) + 1):
            starter = "white" if set_starter(k) == 0 else "black"
            who, other = (m.white, m.black) if starter == "white" else (m.black, m.white)
            sets.append(SlipSet(k, starter, colour_word(starter), who.player.full_name, other.player.full_name))
        url = absolute(reverse("match-result", args=[t.slug, round.number, m.board]))
        slips.append(Slip(m.board, m.white, m.black, tuple(sets), url, qr_png_data_uri(url)))
    return slips


def slips_pdf_bytes(*, round: Round, absolute: Callable[[str], str], lang: str = "tr",
                    loopback: str = "") -> bytes:
    """The result slips of ``round`` as PDF bytes (``SLIPS_PER_PAGE`` to an A4 page), in ``lang``.
    ``loopback``: the loopback host the QR codes point to (:func:`slip_link_base`); each slip then says
    so under its code."""
    context = slips_pdf_context(round=round, absolute=absolute, lang=lang, loopback=loopback)
    return _html_to_pdf(slips_pdf_html(context, lang=lang))


def slips_pdf_context(*, round: Round, absolute: Callable[[str], str], lang: str = "tr",
                      loopback: str = "") -> dict:
    """The data step of the result slips (QR codes included): the template's context, in ``lang``."""
    t = round.tournament
    with translation.override(lang):
        slips = result_slips(round, absolute)
        pages = [slips[i:i + SLIPS_PER_PAGE] for i in range(0, len(slips), SLIPS_PER_PAGE)]
        return {
            "t": t, "round": round, "pages": pages, "round_date": round_date_text(t, round.number),
            "set_numbers": range(1, _planned_sets(t, round.number) + 1), "loopback": loopback,
            "cut_marks": [cut_marks_uri(n) for n in range(1, SLIPS_PER_PAGE + 1)],
        }


#: Where the slips sit on their A4 page (slips_pdf.html: page margins 9 mm top, 10 mm a side; a slip
#: 87 mm high, 6.5 mm apart; a dashed 0.3 pt border), in mm.
_SLIP_TOP, _SLIP_LEFT, _SLIP_WIDTH, _SLIP_HEIGHT, _SLIP_GAP = 9.0, 10.0, 190.0, 87.0, 6.5


@functools.lru_cache(maxsize=None)
def cut_marks_uri(slips: int) -> str:
    """An SVG ``data:`` URI of a whole A4 page with the cut marks of its ``slips`` slips: at each corner of
    a slip, 3.5 mm out from it, two 0.5 pt strokes meeting 0.1 mm off the corner — as four bordered
    boxes a slip drew them, but in the page's background: drawn once a page."""
    from urllib.parse import quote

    border, stroke, out = 0.3 * _PT_MM, 0.5 * _PT_MM, 0.1
    paths = []
    for k in range(slips):
        top = _SLIP_TOP + k * (_SLIP_HEIGHT + _SLIP_GAP) + border
        bottom = _SLIP_TOP + k * (_SLIP_HEIGHT + _SLIP_GAP) + _SLIP_HEIGHT - border
        left, right = _SLIP_LEFT + border, _SLIP_LEFT + _SLIP_WIDTH - border
        for x, y, dx, dy in ((left, top, -1, -1), (right, top, 1, -1), (left, bottom, -1, 1), (right, bottom, 1, 1)):
            cx, cy = x + dx * (out + stroke / 2), y + dy * (out + stroke / 2)  # the strokes' centres
            near_x, far_x = x + dx * out, x + dx * (out + 3.5)
            near_y, far_y = y + dy * out, y + dy * (out + 3.5)
            paths.append(f"M{cx:.3f} {near_y:.3f}V{far_y:.3f}M{near_x:.3f} {cy:.3f}H{far_x:.3f}")
    svg = ("<svg xmlns='http://www.w3.org/2000/svg' width='210mm' height='297mm' viewBox='0 0 210 297'>"
           f"<path d='{''.join(paths)}' stroke='#000' stroke-width='{stroke:.3f}' fill='none'/></svg>")
    return "data:image/svg+xml," + quote(svg, safe="=/: ")


def slips_pdf_html(context: dict, *, lang: str = "tr") -> str:
    return _render("tournaments/slips_pdf.html", context, lang)


# --------------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------------


def standings_pdf_bytes(*, tournament: Tournament, lang: str = "tr", public_only: bool = True) -> bytes:
    """The standings of ``tournament`` with its tie-break columns as PDF bytes: what the public's
    standings page shows (``public_only``) or the organisers' page."""
    context = standings_pdf_context(tournament=tournament, lang=lang, public_only=public_only)
    return _html_to_pdf(standings_pdf_html(context, lang=lang))


def standings_pdf_context(*, tournament: Tournament, lang: str = "tr", public_only: bool = True) -> dict:
    """The data step of the standings PDF: the template's context, in ``lang``."""
    with translation.override(lang):
        st = selectors.tournament_standings(tournament=tournament, public_only=public_only, lang=lang)
        return {
            "t": tournament, "st": st, "rules_text": selectors.tiebreak_rules_text(st.tiebreak_rules),
            "public_only": public_only, "generated_at": timezone.now(), "grid": standings_grid(st, lang),
        }


#: The standings table: type size, cell padding (a side) and the widths the name and club get before
#: the tie-break columns get room for their headings on one line (CSS px).
STANDINGS_FONT_PT = 8.5
STANDINGS_PAD_PX = 1.3 / 25.4 * 96
STANDINGS_NAME_WANT_PX = 60 / 25.4 * 96
STANDINGS_CLUB_WANT_PX = 50 / 25.4 * 96
STANDINGS_MIN_PX = 25 / 25.4 * 96  # name and club at least (or what their longest text needs)
STANDINGS_TIEBREAK_MAX_PX = 40 / 25.4 * 96


@dataclass(frozen=True, slots=True)
class StandingsGrid:
    """The standings PDF's table laid out like the crosstable's (:mod:`tournaments.paper.crosstable`):
    six cells a row — rank and starting number in one right-to-left cell, name, club, rating, points
    (bold), the tie-breaks (and the rank in an imported file) in one right-to-left cell — the rules
    in the table's and rows' backgrounds."""

    landscape: bool
    number_px: int
    name_px: float
    club_px: int
    rating_px: int
    points_px: int
    tiebreak_px: tuple[int, ...]  # each tie-break column (and the file's rank): equal, one tab stop each
    tiebreak_tab_px: int
    tiebreak_heads: tuple[tuple[str, str], ...]  # (label, CSS size)
    rows_html: str
    left_rules: str
    right_rules: str
    row_rule: str

    @property
    def left_px(self) -> int:
        return 2 * self.number_px

    @property
    def right_px(self) -> int:
        return self.club_px + self.rating_px + self.points_px + sum(self.tiebreak_px)

    @property
    def tiebreaks(self) -> int:
        return len(self.tiebreak_px)


def standings_grid(st, lang: str) -> StandingsGrid:
    """Lay out the standings ``st`` for the PDF (texts as the page prints them, in ``lang``): columns as
    wide as their texts; names and club up to :data:`STANDINGS_NAME_WANT_PX` /
    :data:`STANDINGS_CLUB_WANT_PX` (longer ones wrap), then the tie-breaks up to room for their
    headings on one line, the rest to the names."""
    from django.utils.html import escape
    from django.utils.safestring import mark_safe

    from federation.formatting import number, points
    from federation.pdf import rule_png_uri
    from tournaments.paper.crosstable import TABLE_PX, _column_px, _columns, _heading_px, _headings, _rules_uri

    landscape = len(st.tiebreak_labels) > 3
    width = TABLE_PX if landscape else 190 / 25.4 * 96 - 16  # A4 less the 10 mm side margins and the body's
    font, pad = STANDINGS_FONT_PT, STANDINGS_PAD_PX
    lines = st.lines
    ranks = [f"{ln.rank}{'=' if ln.shared else ''}" for ln in lines]
    numbers = [str(ln.start_no) for ln in lines]
    withdrawn = _("withdrawn")
    names = [ln.name + (f" ({withdrawn})" if ln.withdrawn else "") for ln in lines]
    ratings = [str(ln.rating or "") for ln in lines]
    pts = [points(ln.points, lang=lang) for ln in lines]
    labels = list(st.tiebreak_labels)
    tails = [[number(v, 2, lang=lang) for v in ln.tiebreaks] for ln in lines]
    if st.official_ranks_differ:
        labels.append(_("Rank in the file"))
        for tail, ln in zip(tails, lines):
            tail.append("" if ln.official_rank is None else str(ln.official_rank))
    head = (_("Rank"), pgettext("starting number", "No."), _("Name"), _("Club"), _("Rating"), _("Points"))

    number_px = _column_px([*ranks, *numbers], font, bold=head[:2], pad_px=pad)
    rating_px = _column_px(ratings, font, bold=[head[4]], pad_px=pad)
    points_px = _column_px([], font, bold=[*pts, head[5]], pad_px=pad)
    tab_px = max(_column_px((t for tail in tails for t in tail), font, pad_px=pad), _heading_px(labels, pad_px=pad))
    fixed = 2 * number_px + rating_px + points_px
    name_need = _column_px(names, font, bold=[head[2]], pad_px=pad)
    # the clubs are set smaller (0.85 em), their heading is not
    club_need = max(_column_px([ln.club for ln in lines], font * 0.85, pad_px=pad),
                    _column_px([], font, bold=[head[3]], pad_px=pad))
    name_want, club_want = min(name_need, STANDINGS_NAME_WANT_PX), min(club_need, STANDINGS_CLUB_WANT_PX)
    spare = width - fixed - len(labels) * tab_px - min(name_want, STANDINGS_MIN_PX) - min(club_want, STANDINGS_MIN_PX)
    name_px = min(name_want, STANDINGS_MIN_PX) + max(0.0, min(spare, name_want - STANDINGS_MIN_PX))
    spare -= name_px - min(name_want, STANDINGS_MIN_PX)
    club_px = min(club_want, STANDINGS_MIN_PX) + max(0.0, min(spare, club_want - STANDINGS_MIN_PX))
    spare -= club_px - min(club_want, STANDINGS_MIN_PX)
    club_px = math.floor(club_px)
    # the tie-break columns (one tab stop each, so equally wide): room for the widest heading on one
    # line if there is, else what is left
    if labels:
        want = max(tab_px, min(max(_column_px([], font, bold=[label], pad_px=pad) for label in labels),
                               STANDINGS_TIEBREAK_MAX_PX))
        tab_px = max(tab_px, min(math.floor(want), tab_px + math.floor(max(0.0, spare) / len(labels))))
    tiebreak_px = (tab_px,) * len(labels)
    name_px = width - fixed - club_px - sum(tiebreak_px)

    def tie_cell(tail: list[str]) -> str:
        return _columns(tail, tab_px, font)

    rows = []
    for i, (ln, rank, no, name_text, rating, p, tail) in enumerate(zip(lines, ranks, numbers, names, ratings, pts, tails)):
        name = escape(ln.name) + (f" <small>({escape(withdrawn)})</small>" if ln.withdrawn else "")
        shade = ' class="e"' if i % 2 else ""
        tie = f'<td class="cols tiebreaks" colspan="{len(labels)}">{escape(tie_cell(tail))}</td>' if labels else ""
        rows.append(f'<tr{shade}><td class="cols numbers" colspan="2">{escape(_columns([rank, no], number_px, font))}</td>'
                    f'<td class="name">{name}</td><td class="club">{escape(ln.club)}</td><td>{escape(rating)}</td>'
                    f'<td class="points">{escape(p)}</td>{tie}</tr>\n')
    right_widths = [club_px, rating_px, points_px, *tiebreak_px]
    xs = [0.0]
    for w in right_widths:
        xs.append(xs[-1] + w)
    grid_right = sum(right_widths)
    return StandingsGrid(
        landscape=landscape, number_px=number_px, name_px=name_px, club_px=club_px, rating_px=rating_px,
        points_px=points_px, tiebreak_px=tiebreak_px, tiebreak_tab_px=tab_px,
        tiebreak_heads=_headings(labels, tab_px, font, pad_px=pad),
        rows_html=mark_safe("".join(rows)),  # noqa: S308 - every text above is escaped
        left_rules=_rules_uri([0, number_px, 2 * number_px], 2 * number_px, "#888", 0.53),
        right_rules=_rules_uri(xs, grid_right, "#888", 0.53), row_rule=rule_png_uri("#888"),
    )


def standings_pdf_html(context: dict, *, lang: str = "tr") -> str:
    return _render("tournaments/standings_pdf.html", context, lang)


def standings_pdf_path(tournament: Tournament, lang: str = "tr", public_only: bool = True) -> Path:
    """Where the cached standings PDF of the tournament's current version lives: named by the
    tournament's id (never reused, unlike a slug) and, for the public, its ``standings_version``
    (results of a round not closed do not change it), for organisers its ``version``."""
    audience = "public" if public_only else "organiser"
    version = f"s{tournament.standings_version}" if public_only else f"v{tournament.version}"
    return (Path(settings.MEDIA_ROOT) / "standings"
            / f"{tournament.pk}-{tournament.slug}-{version}-{lang}-{audience}-l{LAYOUT}.pdf")


def standings_pdf_build(*, tournament: Tournament, lang: str = "tr", public_only: bool = True) -> Path:
    """Build (or reuse) the cached standings PDF of the current version; returns its path."""
    from federation.pdf import pdf_file_build

    return pdf_file_build(
        standings_pdf_path(tournament, lang, public_only),
        lambda: standings_pdf_bytes(tournament=tournament, lang=lang, public_only=public_only),
    )
