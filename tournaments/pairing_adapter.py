"""Loads what a pairing needs from the database into the pure pairing core and back.

The pure generators live in :mod:`tournaments.pairing` (FIDE Dutch C.04.3, Berger C.05 Annex 1);
this module only translates rows to :class:`tournaments.pairing.PairingPlayer` values and the
generator's boards to ``(white_start_no, black_start_no | None, bye_kind)`` triples.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Iterable

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from federation.errors import ValidationFailed
from tournaments.models import Entry, ForbiddenPair, Match, Round, Tournament
from tournaments.pairing import PairingError, PairingPlayer, RoundRecord, berger_round, pair_dutch
from tournaments.pairing.acceleration import baku_accelerations, baku_group_a_size

Board = tuple[int, "int | None", str]


def match_codes(match: Match) -> tuple[str, str | None]:
    """TRF-16 result codes ``(white_code, black_code)`` of a stored match.

    Game: ``1``/``=``/``0``; forfeits ``+``/``-``; unrated results ``W``/``D``/``L``; a bye:
    ``U`` (pairing-allocated), ``H``, ``F``, ``Z``; no result yet: ``""``.
    """
    if match.kind == Match.Kind.BYE:
        return {"pab": "U", "half": "H", "full": "F", "zero": "Z"}[match.bye_kind], None
    if match.forfeit:
        return {"white": ("-", "+"), "black": ("+", "-"), "both": ("-", "-")}[match.forfeit]
    if match.white_points is None:
        return "", ""
    w = float(match.white_points)
    if match.rated:
        table = {1.0: ("1", "0"), 0.5: ("=", "="), 0.0: ("0", "1")}
    else:
        table = {1.0: ("W", "L"), 0.5: ("D", "D"), 0.0: ("L", "W")}
    return table[w]


def match_points(match: Match) -> tuple[float, float | None]:
    """Match points scored by white and black (``None`` for a bye's missing black)."""
    w = float(match.white_points) if match.white_points is not None else 0.0
    b = float(match.black_points) if match.black_points is not None else (None if match.black_id is None else 0.0)
    return w, b


def history_by_entry(entries: Iterable[Entry], matches: Iterable[Match], rounds: int) -> dict[int, list[RoundRecord]]:
    """Per entry id, one :class:`RoundRecord` per round 1..``rounds`` (absent rounds: no opponent, code ``Z``)."""
    start_no = {e.id: e.start_no for e in entries}
    per_round: dict[int, dict[int, RoundRecord]] = defaultdict(dict)
    for m in matches:
        wc, bc = match_codes(m)
        r = m.round.number
        if m.black_id is None:
            per_round[m.white_id][r] = RoundRecord(opponent=None, colour=None, code=wc)
        else:
            per_round[m.white_id][r] = RoundRecord(opponent=start_no[m.black_id], colour="w", code=wc)
            per_round[m.black_id][r] = RoundRecord(opponent=start_no[m.white_id], colour="b", code=bc)
    absent = RoundRecord(opponent=None, colour=None, code="Z")
    return {eid: [per_round[eid].get(r, absent) for r in range(1, rounds + 1)] for eid in start_no}


def forbidden_pairs_for_round(tournament: Tournament, round_no: int) -> list[tuple[int, int]]:
    """The forbidden pairs (:class:`ForbiddenPair`) active in round ``round_no`` as pairs of start
    numbers: ``first_round <= round_no <= last_round`` (open-ended when ``last_round`` is blank)."""
    rows = (
        ForbiddenPair.objects.filter(tournament=tournament, first_round__lte=round_no)
        .filter(Q(last_round__isnull=True) | Q(last_round__gte=round_no))
        .values_list("first__start_no", "second__start_no")
    )
    return sorted({tuple(sorted(pair)) for pair in rows})


def round_one_field(tournament: Tournament, entries: list[Entry]) -> list[Entry]:
    """The entries that made up the field when round 1 was paired, in start-number order.

    Before round 1 is paired: the entries not withdrawn. Afterwards: the entries with a board in
    round 1 that were entered before it was paired (a late entrant gets byes for the rounds it missed
    but was not in round 1's field); when the history cannot tell (rows written without it), every
    entry with a board in round 1; when round 1 has no board at all, the whole field.
    """
    first = Round.objects.filter(tournament=tournament, number=1).first()
    ordered = sorted(entries, key=lambda e: e.start_no)
    if first is None:
        return [e for e in ordered if not e.withdrawn]
    in_round = set(
        Match.objects.filter(round=first).values_list("white_id", flat=True)
    ) | set(Match.objects.filter(round=first, black__isnull=False).values_list("black_id", flat=True))
    if not in_round:
        return ordered
    field = [e for e in ordered if e.id in in_round]
    if first.paired_at is not None:
        created = dict(
            Entry.history.filter(id__in=[e.id for e in field], history_type="+").values_list("id", "history_date")
        )
        field = [e for e in field if e.id not in created or created[e.id] <= first.paired_at]
    return field


def entry_accelerations(tournament: Tournament, entries: list[Entry]) -> dict[int, tuple[float, ...]]:
    """Virtual points per round (round 1 first) for each entry id, for pairing only.

    ``baku``: FIDE C.04.5.1 over the round-1 field in pairing order (:func:`round_one_field`), group A
    fixed at its size then; entries outside that field (late entries) are in group B. ``manual``: the
    entries' own ``accelerations`` (an imported file's ``XXA`` / ``250`` lines). ``none``: nothing.
    """
    if tournament.acceleration == Tournament.Acceleration.BAKU:
        field = round_one_field(tournament, entries)
        in_field = {e.id for e in field}
        ordered = field + [e for e in sorted(entries, key=lambda e: e.start_no) if e.id not in in_field]
        by_no = baku_accelerations(
            [e.start_no for e in ordered], total_rounds=tournament.rounds_total, group_a=baku_group_a_size(len(field)),
        )
        return {e.id: by_no[e.start_no] for e in ordered}
    if tournament.acceleration == Tournament.Acceleration.MANUAL:
        out = {}
        for e in entries:
            values = []
            for x in e.accelerations or ():
                try:
                    values.append(float(x))
                except (TypeError, ValueError):
                    values.append(0.0)
            out[e.id] = tuple(values)
        return out
    return {}


def pair_next_round(
    *, tournament: Tournament, entries: list[Entry], round_no: int, first_colour: str, absent: set[int] = frozenset()
) -> list[Board]:
    """Boards of round ``round_no`` in board order: ``(white, black | None, bye_kind)`` by start number.

    Swiss: FIDE Dutch over the players not withdrawn; the pairing-allocated bye is ``"pab"``. The
    forbidden pairs active in the round are never paired (:func:`forbidden_pairs_for_round`); an
    accelerated event adds virtual points for pairing only (:func:`entry_accelerations`).
    Round robin: the Berger table of the whole field (C.05 Annex 1; a withdrawn player's games
    become zero-point absences, "zero"); ``first_colour`` ``"b"`` reverses the table's colours; a
    double round robin's second cycle follows ``tournament.second_cycle_swap``.
    ``absent``: entry ids with a bye requested ahead for this round (Swiss only; the caller adds
    their bye boards). Raises ValidationFailed when the pairing core finds no legal pairing.
    """
    if tournament.system == Tournament.System.ROUND_ROBIN:
        try:
            return _round_robin(tournament, entries, round_no, first_colour)
        except PairingError as exc:
            raise ValidationFailed(_("No pairing possible: %(r)s") % {"r": exc}) from exc
    forbidden = forbidden_pairs_for_round(tournament, round_no)
    try:
        return _swiss(tournament, entries, round_no, first_colour, absent, forbidden)
    except PairingError as exc:
        if forbidden:
            raise ValidationFailed(
                ngettext(
                    "No pairing possible: %(r)s. %(n)d forbidden pair applies to round %(round)d; remove it or "
                    "narrow its rounds and pair again.",
                    "No pairing possible: %(r)s. %(n)d forbidden pairs apply to round %(round)d; remove or narrow "
                    "one of them and pair again.",
                    len(forbidden),
                ) % {"r": exc, "n": len(forbidden), "round": round_no},
                field="forbidden_pairs", code="no_pairing",
            ) from exc
        raise ValidationFailed(_("No pairing possible: %(r)s") % {"r": exc}, code="no_pairing") from exc


def _swiss(
    tournament: Tournament, entries: list[Entry], round_no: int, first_colour: str, absent: set[int],
    forbidden: list[tuple[int, int]] = (),
) -> list[Board]:
    matches = list(
        Match.objects.filter(round__tournament=tournament, round__number__lt=round_no).select_related("round")
    )
    hist = history_by_entry(entries, matches, round_no - 1)
    points: dict[int, float] = defaultdict(float)
    for m in matches:
        w, b = match_points(m)
        points[m.white_id] += w
        if m.black_id is not None:
            points[m.black_id] += b or 0.0
    acc = entry_accelerations(tournament, entries)
    players = [
        PairingPlayer(
            id=e.start_no, rating=e.rating, points=points[e.id], history=tuple(hist[e.id]),
            available=not e.withdrawn and e.id not in absent, accelerations=acc.get(e.id, ()),
        )
        for e in entries
    ]
    pairs = pair_dutch(
        players, round_no=round_no, total_rounds=tournament.rounds_total, first_colour=first_colour,
        forbidden_pairs=tuple(forbidden), pab_points=float(tournament.bye_points),
    )
    boards: list[Board] = [(p.white, p.black, "") for p in pairs if p.black is not None]
    boards += [(p.white, None, "pab") for p in pairs if p.black is None]
    return boards


def _round_robin(tournament: Tournament, entries: list[Entry], round_no: int, first_colour: str) -> list[Board]:
    n = len(entries)
    pairs = berger_round(
        n, round_no, double=tournament.double_round_robin, second_cycle_swap=tournament.second_cycle_swap
    )
    by_no = {e.start_no: e for e in entries}
    boards: list[Board] = []
    byes: list[Board] = []
    for white, black in pairs:
        if first_colour == "b":
            white, black = black, white
        ids = [x for x in (white, black) if x in by_no]
        if len(ids) == 1:
            byes.append((ids[0], None, "zero"))  # the Berger dummy: a free round, no points
            continue
        w_out, b_out = by_no[white].withdrawn, by_no[black].withdrawn
        if w_out or b_out:
            for x, out in ((white, w_out), (black, b_out)):
                if not out:
                    byes.append((x, None, "full"))
            continue
        boards.append((white, black, ""))
    return boards + byes
