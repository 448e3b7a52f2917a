"""Reads: tournaments, rounds, standings and crosstables, each loaded with a fixed number of queries.

Standings and crosstables load every entry, match and set of a tournament once into the pure
standings core's dataclasses (:mod:`tournaments.standings`), then compute — no query in a loop.
"""
from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Sequence

from django.db.models import Prefetch, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import access
from tournaments.races import read_snapshot
from tournaments.knockout.selectors import apply_playoffs
from tournaments.models import Entry, Match, Round, SetResult, Tournament
from tournaments.standings import (
    TIEBREAKS,
    PlayerRecord,
    RoundEntry,
    RoundKind,
    compute_standings,
    tiebreak_label,
)


def tournament_list(*, user=None) -> QuerySet[Tournament]:
    """Tournaments ``user`` may see (archived ones for staff only), newest first, with entry counts."""
    from django.db.models import Count

    from federation import roles

    qs = Tournament.objects.annotate(n_entries=Count("entries")).select_related("event").order_by("-start_date", "-id")
    if not roles.is_staff(user):
        qs = qs.filter(archived_at__isnull=True)
    return qs


def visible_rounds(*, tournament: Tournament, user=None) -> list[Round]:
    """Rounds the user may see: published and closed ones for the public; all for organisers and referees."""
    rounds = list(tournament.rounds.all().select_related("coin_toss").order_by("number"))
    if user is not None and access.can_enter_results(user, tournament):
        return rounds
    return [r for r in rounds if r.is_public]


def round_boards(*, round: Round) -> list[Match]:
    """The boards of ``round`` with players and sets, in board order."""
    return list(
        round.matches.select_related("white__player__club", "black__player__club")
        .prefetch_related(Prefetch("sets", queryset=SetResult.objects.order_by("number")))
        .order_by("board")
    )


# --------------------------------------------------------------------------------------------
# Standings
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StandingLine:
    """One row of a standings table as pages, PDFs, the API and the CLI show it."""

    rank: int
    shared: bool
    start_no: int
    entry_id: int
    name: str
    club: str
    rating: int
    points: float
    tiebreaks: tuple[float, ...]
    withdrawn: bool
    official_rank: int | None = None  # the rank an imported file published (Entry.official_rank)
    #: in a category's table (``tournaments.prizes.selectors``): the rank in the whole field; ``rank``
    #: is then the rank within the category. None in the overall table.
    overall_rank: int | None = None


TIEBREAK_RULES_DEFAULT = "2026"


@dataclass(frozen=True, slots=True)
class Standings:
    """A standings table after round ``rounds``: ``tiebreak_keys``/``tiebreak_labels`` name the columns
    of ``lines``' tie-breaks; ``provisional`` when a counted round is not closed yet;
    ``tiebreak_rules`` the C.07 text applied (``"2023"`` or ``"2026"``, :func:`tiebreak_rules_for`)."""

    tournament_id: int
    rounds: int
    provisional: bool
    tiebreak_keys: tuple[str, ...]
    tiebreak_labels: tuple[str, ...]
    lines: tuple[StandingLine, ...]
    tiebreak_rules: str = TIEBREAK_RULES_DEFAULT
    official_ranks_differ: bool = False  # final standings whose ranks differ from the imported file's
    #: play-offs that broke ties of these final standings (``tournaments.knockout.selectors.PlayoffNote``)
    playoffs: tuple = ()


@dataclass(slots=True)
class _Loaded:
    entries: list[Entry]
    matches: list[Match]
    sets_by_match: dict[int, list[SetResult]] = field(default_factory=dict)


def _load(tournament: Tournament, *, max_round: int | None, public_only: bool) -> _Loaded:
    with read_snapshot():
        return _load_rows(tournament, max_round=max_round, public_only=public_only)


def _load_rows(tournament: Tournament, *, max_round: int | None, public_only: bool) -> _Loaded:
    entries = list(tournament.entries.select_related("player__club").order_by("start_no"))
    # the rounds are few: one instance each (prefetched), not one per match (a join would build 1,350 for a
    # 300-player 9-round event)
    qs = Match.objects.filter(round__tournament=tournament).prefetch_related("round")
    if public_only:
        qs = qs.filter(round__status=Round.Status.CLOSED)
    if max_round is not None:
        qs = qs.filter(round__number__lte=max_round)
    matches = list(qs)
    sets_by_match: dict[int, list[SetResult]] = defaultdict(list)
    for s in SetResult.objects.filter(match__in=[m.id for m in matches]).order_by("match_id", "number"):
        sets_by_match[s.match_id].append(s)
    return _Loaded(entries, matches, sets_by_match)


_BYE_KIND = {
    "pab": RoundKind.PAIRING_BYE,
    "half": RoundKind.HALF_BYE,
    "full": RoundKind.FULL_BYE,
    "zero": RoundKind.ZERO_BYE,
}


def player_records(tournament: Tournament, loaded: _Loaded, rounds: int) -> list[PlayerRecord]:
    """Translate stored matches to :class:`PlayerRecord` values (ids are start numbers).

    A match without a result yet counts as not played. Set points and stone margins come from the
    stored sets (RULES.md "Stone margin"); a match without set detail carries ``None``.
    """
    by_id = {e.id: e for e in loaded.entries}
    per: dict[int, dict[int, RoundEntry]] = defaultdict(dict)
    for m in loaded.matches:
        r = m.round.number
        if r > rounds:
            continue
        if m.kind == Match.Kind.BYE:
            pts = float(m.white_points or 0)
            per[m.white_id][r] = RoundEntry(round=r, kind=_BYE_KIND[m.bye_kind], points=pts)
            continue
        if m.white_points is None:
            continue
        w_pts, b_pts = float(m.white_points), float(m.black_points)
        sets = loaded.sets_by_match.get(m.id, [])
        if sets:
            w_sp = sum(1.0 if s.white_stones > 24 else 0.5 if s.white_stones == 24 else 0.0 for s in sets)
            b_sp = len(sets) - w_sp
            w_margin = sum(s.white_stones - 24 for s in sets)
            w_detail, b_detail = (w_sp, w_margin), (b_sp, -w_margin)
        else:
            w_detail = b_detail = (None, None)
        white_no, black_no = by_id[m.white_id].start_no, by_id[m.black_id].start_no
        if m.forfeit:
            w_kind = RoundKind.FORFEIT_WIN if w_pts > 0 else RoundKind.FORFEIT_LOSS
            b_kind = RoundKind.FORFEIT_WIN if b_pts > 0 else RoundKind.FORFEIT_LOSS
        else:
            w_kind = b_kind = RoundKind.PLAYED
        per[m.white_id][r] = RoundEntry(
            round=r, kind=w_kind, points=w_pts, opponent=black_no, colour="w",
            set_points=w_detail[0], stone_margin=w_detail[1],
        )
        per[m.black_id][r] = RoundEntry(
            round=r, kind=b_kind, points=b_pts, opponent=white_no, colour="b",
            set_points=b_detail[0], stone_margin=b_detail[1],
        )
    records = []
    for e in loaded.entries:
        rows = tuple(
            per[e.id].get(r) or RoundEntry(round=r, kind=RoundKind.ABSENT, points=0.0) for r in range(1, rounds + 1)
        )
        records.append(PlayerRecord(id=e.start_no, name=e.player.full_name, rating=e.rating, rounds=rows))
    return records


TIEBREAK_RULES = "2026"
"""The newest FIDE C.07 text: the 2023 regulations with the amendment applied from 1 March 2026
(dummy opponent's score capped for unplayed rounds, Art. 16). Which text an event follows:
:func:`tiebreak_rules_for`."""

TIEBREAK_AMENDMENT_DATE = datetime.date(2026, 3, 1)
"""The C.07 amendment (Art. 16.4.1 / 16.4.2, capped dummy opponent) applies to events starting on or
after this date."""


def _parse_date(value) -> datetime.date | None:
    """A date from a stored value: a date, an ISO ``YYYY-MM-DD`` text, or the TRF forms ``YYYY/MM/DD``,
    ``YY/MM/DD`` and ``DD.MM.YYYY``; None for anything else."""
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    text = str(value or "").strip()
    for fmt in ("%Y-%m-%d", "%Y/%m/%d", "%y/%m/%d", "%d.%m.%Y", "%Y.%m.%d"):
        try:
            return datetime.datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    return None


def tournament_reference_date(tournament: Tournament) -> datetime.date | None:
    """The date that decides which C.07 text applies: the start date; else the first round's date
    (``round_dates``, the first one that reads as a date); else the end date; else the day the
    tournament was created."""
    if tournament.start_date:
        return tournament.start_date
    for value in tournament.round_dates or ():
        day = _parse_date(value)
        if day is not None:
            return day
    if tournament.end_date:
        return tournament.end_date
    if tournament.created_at:
        return timezone.localdate(tournament.created_at) if timezone.is_aware(tournament.created_at) \
            else tournament.created_at.date()
    return None


def tiebreak_rules_for(tournament: Tournament) -> str:
    """The C.07 text the standings of ``tournament`` follow: ``"2023"`` or ``"2026"``.

    The organiser's choice (``tiebreak_rules`` ``"2023"``/``"2026"``); ``"auto"``: ``"2026"`` when the
    event started on or after 1 March 2026 (:func:`tournament_reference_date`), else ``"2023"``."""
    if tournament.tiebreak_rules in ("2023", "2026"):
        return tournament.tiebreak_rules
    day = tournament_reference_date(tournament)
    if day is None or day >= TIEBREAK_AMENDMENT_DATE:
        return "2026"
    return "2023"


def tiebreak_rules_text(rules: str) -> str:
    """A sentence naming the C.07 text, for pages and PDFs (translated)."""
    if rules == "2026":
        return _("Tie-breaks: FIDE C.07 (2023 text) with the amendment of 1 March 2026")
    return _("Tie-breaks: FIDE C.07 (2023 text)")


def _default_round(tournament: Tournament, loaded: _Loaded) -> int:
    """The last closed round; before any round is closed, the last round with a game result."""
    closed = [m.round.number for m in loaded.matches if m.round.status == Round.Status.CLOSED]
    if closed:
        return max(closed)
    done = [m.round.number for m in loaded.matches if m.white_points is not None and m.kind == Match.Kind.GAME]
    return max(done, default=0)


def standings_round_for(*, tournament: Tournament, public_only: bool) -> int | None:
    """The round the shown standings are after: for the public, the round the organiser published
    them after (0 when they are not published; :func:`tournaments.publication.published_round`);
    otherwise ``None`` (= the default)."""
    from tournaments.publication import published_round

    if not public_only:
        return None
    return published_round(tournament)


def tournament_standings(
    *, tournament: Tournament, public_only: bool = False, after_round: int | None = None, lang: str = "tr"
) -> Standings:
    """Standings after ``after_round`` with the tournament's tie-breaks in order
    (``tournaments.standings``, FIDE C.07).

    ``public_only``: what the public may see — closed rounds up to the round the standings were
    published after (``Tournament.standings_round``); ``after_round`` is then capped at it.
    Otherwise ``after_round`` defaults to the last closed round (before any is closed: the last round
    with a game result, and ``provisional`` is true).
    """
    return _standings(tournament=tournament, public_only=public_only, after_round=after_round, lang=lang)[0]


def standings_with_records(
    *, tournament: Tournament, public_only: bool = False, lang: str = "tr"
) -> tuple[Standings, list[PlayerRecord]]:
    """:func:`tournament_standings` (default round) and the player records it was ranked from, read in
    one load: what a page needs to explain the ranking (``tournaments.placement``)."""
    st, loaded = _standings(tournament=tournament, public_only=public_only, after_round=None, lang=lang)
    return st, player_records(tournament, loaded, st.rounds)


def _standings(
    *, tournament: Tournament, public_only: bool, after_round: int | None, lang: str
) -> tuple[Standings, _Loaded]:
    """:func:`tournament_standings` and the rows it was computed from (every round up to its
    ``rounds`` at least: :func:`tournament_crosstable` reads its cells from them, no second load)."""
    if public_only:
        published = standings_round_for(tournament=tournament, public_only=True) or 0
        after_round = published if after_round is None else min(after_round, published)
    loaded = _load(tournament, max_round=after_round, public_only=public_only)
    rounds = after_round if after_round is not None else _default_round(tournament, loaded)
    keys = tuple(k for k in (tournament.tiebreaks or []) if k in TIEBREAKS)
    records = player_records(tournament, loaded, rounds)
    rules = tiebreak_rules_for(tournament)
    rows = (
        compute_standings(
            records, tiebreaks=keys, rounds=rounds, rules=rules,
            round_robin=tournament.system == Tournament.System.ROUND_ROBIN,
        )
        if records
        else []
    )
    by_no = {e.start_no: e for e in loaded.entries}
    lines = []
    for row in rows:
        e = by_no[row.player_id]
        lines.append(
            StandingLine(
                rank=row.rank, shared=row.shared, start_no=e.start_no, entry_id=e.id, name=e.player.full_name,
                club=e.player.club.name if e.player.club else (e.player.city or e.federation), rating=e.rating,
                points=row.points, tiebreaks=tuple(row.tiebreaks), withdrawn=e.withdrawn,
                official_rank=e.official_rank,
            )
        )
    provisional = any(m.round.number <= rounds and m.round.status != Round.Status.CLOSED for m in loaded.matches)
    playoffs = ()
    if (rounds >= tournament.rounds_total and tournament.system != Tournament.System.KNOCKOUT
            and any(line.shared for line in lines)):
        # a shared place of the final standings: a play-off may have broken it (issue 14; tournaments.knockout.playoffs)
        lines, playoffs = apply_playoffs(tournament, lines, standings=tournament_standings)
    return Standings(
        tournament_id=tournament.id, rounds=rounds, provisional=provisional, tiebreak_keys=keys,
        tiebreak_labels=tuple(tiebreak_label(k, lang) for k in keys), lines=tuple(lines), tiebreak_rules=rules,
        official_ranks_differ=_official_ranks_differ(tournament, lines, rounds), playoffs=playoffs,
    ), loaded


def _official_ranks_differ(tournament: Tournament, lines: list[StandingLine], rounds: int) -> bool:
    """True when the entries have the ranks an imported file published (``Entry.official_rank``), the
    standings are after the last closed round (the file's ranks are final ranks) and some rank differs:
    the page then shows the file's ranks beside ours (the file's tie-break rules are not known)."""
    if not any(line.official_rank for line in lines):
        return False
    last = tournament.rounds.filter(status=Round.Status.CLOSED).order_by("-number").values_list("number", flat=True)
    last_closed = last.first() or 0
    return rounds >= last_closed and any(line.official_rank != line.rank for line in lines)


# --------------------------------------------------------------------------------------------
# Crosstable
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CrossCell:
    """One round of one player: ``text`` like ``12S1`` (opponent's start number, colour letter of the
    language — :func:`federation.formatting.colour_letter` — and points),
    ``+`` / ``-`` for forfeits, ``bye½`` etc. for byes, empty when absent."""

    text: str
    opponent: int | None
    colour: str | None
    points: float | None


@dataclass(frozen=True, slots=True)
class CrossRow:
    line: StandingLine
    cells: tuple[CrossCell, ...]


@dataclass(frozen=True, slots=True)
class Crosstable:
    tournament: Tournament
    standings: Standings
    rows: tuple[CrossRow, ...]
    round_numbers: tuple[int, ...]


def _fmt_points(p: float | None) -> str:
    if p is None:
        return ""
    return {1.0: "1", 0.5: "½", 0.0: "0"}.get(p, f"{p:g}")


def tournament_crosstable(*, tournament: Tournament, public_only: bool = True, lang: str = "tr") -> Crosstable:
    """Crosstable in standings order: one row per player, one cell per round: ``12S1`` in Turkish
    (B = beyaz, S = siyah), ``12B1`` in English (W = white, B = black) — the letters of ``lang``
    (:func:`federation.formatting.colour_letter`); ``CrossCell.colour`` stays ``"w"``/``"b"``."""
    from federation.formatting import colour_letter

    white_letter, black_letter = colour_letter("w", lang=lang), colour_letter("b", lang=lang)
    standings, loaded = _standings(tournament=tournament, public_only=public_only, after_round=None, lang=lang)
    rounds = standings.rounds
    by_id = {e.id: e for e in loaded.entries}
    cells: dict[int, dict[int, CrossCell]] = defaultdict(dict)
    for m in loaded.matches:
        r = m.round.number
        if r > rounds:
            continue
        if m.kind == Match.Kind.BYE:
            label = {"pab": _("bye"), "half": _("bye"), "full": _("bye"), "zero": "—"}[m.bye_kind]
            p = float(m.white_points or 0)
            cells[m.white_id][r] = CrossCell(f"{label} {_fmt_points(p)}".strip(), None, None, p)
            continue
        w, b = by_id[m.white_id], by_id[m.black_id]
        wp = float(m.white_points) if m.white_points is not None else None
        bp = float(m.black_points) if m.black_points is not None else None
        if m.forfeit:
            wt = f"{b.start_no}{white_letter}" + ("+" if (wp or 0) > 0 else "-")
            bt = f"{w.start_no}{black_letter}" + ("+" if (bp or 0) > 0 else "-")
        else:
            wt = f"{b.start_no}{white_letter}{_fmt_points(wp)}"
            bt = f"{w.start_no}{black_letter}{_fmt_points(bp)}"
        cells[m.white_id][r] = CrossCell(wt, b.start_no, "w", wp)
        cells[m.black_id][r] = CrossCell(bt, w.start_no, "b", bp)
    empty = CrossCell("", None, None, None)
    rows = tuple(
        CrossRow(line, tuple(cells[line.entry_id].get(r, empty) for r in range(1, rounds + 1)))
        for line in standings.lines
    )
    return Crosstable(tournament=tournament, standings=standings, rows=rows, round_numbers=tuple(range(1, rounds + 1)))


def standings_as_dicts(standings: Standings) -> list[dict]:
    """JSON-ready rows: ``rank``, ``start_no``, ``name``, ``club``, ``rating``, ``points``,
    ``official_rank`` (the rank an imported file published, or None) and one key per tie-break (its
    registry key)."""
    out = []
    for line in standings.lines:
        row = {
            "rank": line.rank, "shared": line.shared, "start_no": line.start_no, "name": line.name,
            "club": line.club, "rating": line.rating, "points": line.points, "withdrawn": line.withdrawn,
            "official_rank": line.official_rank,
        }
        if line.overall_rank is not None:  # a category's table
            row["overall_rank"] = line.overall_rank
        for key, value in zip(standings.tiebreak_keys, line.tiebreaks):
            row[key] = value
        out.append(row)
    return out


def tiebreak_keys_valid() -> Sequence[str]:
    return sorted(TIEBREAKS)
