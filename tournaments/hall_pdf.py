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
  PDF (:func:`tournaments.crosstable_pdf.pdf_file_build`, the Celery task
  ``tournaments.standings_pdf``).
"""
from __future__ import annotations

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

from federation.collation import player_sort_key
from games.engine import set_starter
from tournaments import selectors
from tournaments.models import Entry, Match, Round, Tournament

#: Slips on one A4 page.
SLIPS_PER_PAGE = 3

#: Bumped when the cached PDFs' layout or wording changes, so files of an older release are not served.
LAYOUT = 1


def _html_to_pdf(html: str) -> bytes:
    from weasyprint import HTML  # imported here: Pango is needed only when a PDF is made

    return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf()


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
    t = round.tournament
    with translation.override(lang):
        boards, alpha = pairing_list(round)
        html = render_to_string("tournaments/pairings_pdf.html", {
            "t": t, "round": round, "boards": boards, "alpha": alpha, "large": large,
            "draft": not round.is_public, "round_date": round_date_text(t, round.number),
            "generated_at": timezone.now(),
        })
    return _html_to_pdf(html)


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
    name = f"{round.tournament.slug}-r{round.number}-{digest}-{lang}{'-large' if large else ''}-l{LAYOUT}.pdf"
    return Path(settings.MEDIA_ROOT) / "pairings" / name


def pairings_pdf_build(*, round: Round, lang: str = "tr", large: bool = False) -> Path:
    """Build (or reuse) the cached pairing list of ``round`` as it stands; returns its path."""
    from tournaments.crosstable_pdf import pdf_file_build

    return pdf_file_build(pairings_pdf_path(round, lang, large),
                          lambda: pairings_pdf_bytes(round=round, lang=lang, large=large))


# --------------------------------------------------------------------------------------------
# Result slips
# --------------------------------------------------------------------------------------------


def qr_png_data_uri(text: str) -> str:
    """A QR code of ``text`` (segno, error correction M) as a black-and-white PNG ``data:`` URI, 8 pixels
    a module (printed without smoothing: ``image-rendering: pixelated``). A PNG, not an SVG: a hundred
    vector codes take WeasyPrint seconds to draw."""
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


def result_slips(round: Round, absolute: Callable[[str], str]) -> list[Slip]:
    """One slip per game board of ``round``; ``absolute`` turns a path into an absolute URL (the
    request's :meth:`build_absolute_uri`)."""
    t = round.tournament
    slips = []
    for m in selectors.round_boards(round=round):
        if m.kind != Match.Kind.GAME:
            continue
        sets = []
        for k in range(1, t.sets_per_match + 1):
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
    t = round.tournament
    with translation.override(lang):
        slips = result_slips(round, absolute)
        pages = [slips[i:i + SLIPS_PER_PAGE] for i in range(0, len(slips), SLIPS_PER_PAGE)]
        html = render_to_string("tournaments/slips_pdf.html", {
            "t": t, "round": round, "pages": pages, "round_date": round_date_text(t, round.number),
            "set_numbers": range(1, t.sets_per_match + 1), "loopback": loopback,
        })
    return _html_to_pdf(html)


# --------------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------------


def standings_pdf_bytes(*, tournament: Tournament, lang: str = "tr", public_only: bool = True) -> bytes:
    """The standings of ``tournament`` with its tie-break columns as PDF bytes: what the public's
    standings page shows (``public_only``) or the organisers' page."""
    with translation.override(lang):
        st = selectors.tournament_standings(tournament=tournament, public_only=public_only, lang=lang)
        html = render_to_string("tournaments/standings_pdf.html", {
            "t": tournament, "st": st, "rules_text": selectors.tiebreak_rules_text(st.tiebreak_rules),
            "public_only": public_only, "generated_at": timezone.now(),
        })
    return _html_to_pdf(html)


def standings_pdf_path(tournament: Tournament, lang: str = "tr", public_only: bool = True) -> Path:
    """Where the cached standings PDF of the tournament's current version lives."""
    audience = "public" if public_only else "organiser"
    return (Path(settings.MEDIA_ROOT) / "standings"
            / f"{tournament.slug}-v{tournament.version}-{lang}-{audience}-l{LAYOUT}.pdf")


def standings_pdf_build(*, tournament: Tournament, lang: str = "tr", public_only: bool = True) -> Path:
    """Build (or reuse) the cached standings PDF of the current version; returns its path."""
    from tournaments.crosstable_pdf import pdf_file_build

    return pdf_file_build(
        standings_pdf_path(tournament, lang, public_only),
        lambda: standings_pdf_bytes(tournament=tournament, lang=lang, public_only=public_only),
    )
