"""Rank an event: points first, then the requested tie-breaks in order (FIDE C.07 Art. 4.2)."""
from __future__ import annotations

from collections.abc import Sequence

from tournaments.standings.base import PlayerRecord, StandingRow, StandingsError
from tournaments.standings.event import Event, build_event
from tournaments.standings.tiebreaks import TieBreak, get_tiebreak


def _split_by_value(group: list[int], values: list[float]) -> list[list[int]]:
    """Split a tied group by a value, highest first; equal values stay together."""
    ordered = sorted(group, key=lambda i: -values[i])
    out: list[list[int]] = []
    for i in ordered:
        if out and values[out[-1][0]] == values[i]:
            out[-1].append(i)
        else:
            out.append([i])
    return out


def compute_standings(
    players: Sequence[PlayerRecord],
    *,
    tiebreaks: Sequence[str],
    rounds: int | None = None,
    round_robin: bool = False,
    rules: str = "2023",
) -> list[StandingRow]:
    """Standings of an individual event after ``rounds`` rounds.

    ``players``: every participant with its round entries (see :mod:`tournaments.standings.base`).
    ``tiebreaks``: ordered keys of :data:`~tournaments.standings.tiebreaks.TIEBREAKS`, e.g.
    ``["buchholz_cut1", "buchholz", "direct_encounter"]``.
    ``rounds``: standings after this round (later entries ignored); ``None`` = the last round
    present in the input.
    ``round_robin``: pre-determined pairings. C.07 Art. 16 (unplayed rounds) applies to Swiss
    events only; with ``True`` a forfeit counts as a match played against the scheduled opponent
    (Buchholz, Sonneborn-Berger, direct encounter), a bye contributes nothing to opponent-based
    tie-breaks and opponents' scores are not adjusted.
    ``rules``: ``"2023"`` (default: C.07 as in force from 2023 — the dummy opponent of an own
    unplayed round has the participant's own score) or ``"2026"`` (the amendment applied from
    1 March 2026: Art. 16.4.1/16.4.2 cap that score).

    Ranking (C.07 Art. 4.2): match points descending, then each tie-break in the given order,
    applied only to participants still tied. Direct encounter (Art. 6) is evaluated inside each
    group still tied on points and all earlier tie-breaks. Participants equal on everything share
    the rank number (1, 2, 2, 4) and get ``shared=True``; they are listed in input order.

    Each row's ``tiebreaks`` holds the values in the requested order; for direct encounter the
    value is the points scored against the other members of the group the participant was tied
    with when DE was applied (matches over the board; forfeits too with ``round_robin``; 0 when
    not tied). DE may appear more than once in the list.

    Raises :class:`~tournaments.standings.base.StandingsError` for an unknown tie-break key
    (the message lists the valid keys) or invalid results (see
    :func:`~tournaments.standings.event.build_event`).
    """
    if isinstance(tiebreaks, str):
        raise StandingsError("tiebreaks must be a sequence of keys, not a single string")
    specs: list[TieBreak] = [get_tiebreak(key) for key in tiebreaks]
    event = build_event(players, rounds, round_robin=round_robin, rules=rules)
    return rank_event(event, specs)


def rank_event(event: Event, specs: Sequence[TieBreak]) -> list[StandingRow]:
    """Rank an already built :class:`Event` by points and ``specs`` (see :func:`compute_standings`)."""
    count = len(event)
    columns: list[list[float] | None] = []
    for tb in specs:
        columns.append(None if tb.group_wise else tb.func(event))
    group_values: list[list[float]] = [[0.0] * count if tb.group_wise else [] for tb in specs]

    groups = _split_by_value(list(range(count)), event.score)
    for c, tb in enumerate(specs):
        refined: list[list[int]] = []
        column = columns[c]
        for g in groups:
            if tb.group_wise:
                values, parts = tb.split(event, g)  # type: ignore[misc]
                for i, v in values.items():
                    group_values[c][i] = v
                refined.extend(parts)
            elif len(g) == 1:
                refined.append(g)
            else:
                refined.extend(_split_by_value(g, column))  # type: ignore[arg-type]
        groups = refined

    rows: list[StandingRow] = []
    position = 1
    for g in groups:
        shared = len(g) > 1
        for i in sorted(g):
            values = tuple(
                (group_values[c][i] if tb.group_wise else columns[c][i])  # type: ignore[index]
                for c, tb in enumerate(specs)
            )
            rows.append(
                StandingRow(rank=position, player_id=event.ids[i], points=event.score[i], tiebreaks=values,
                            shared=shared)
            )
        position += len(g)
    return rows


def separating_step(
    players: Sequence[PlayerRecord],
    *,
    tiebreaks: Sequence[str],
    first: int,
    second: int,
    rounds: int | None = None,
    round_robin: bool = False,
    rules: str = "2023",
) -> int | None:
    """Which step of the ranking (:func:`compute_standings`, same arguments) puts the players ``first``
    and ``second`` (player ids) on different ranks: ``0`` = match points, ``k`` = the k-th tie-break
    of ``tiebreaks`` (1-based), ``None`` = level on points and every tie-break (they share a rank).

    The ranking is repeated with the first ``k`` tie-breaks for k = 0, 1, …: a value that differs does
    not always separate (direct encounter with missing encounters, C.07 Art. 6.3, leaves the whole
    group tied), so the step is the one after which the ranks differ. Raises
    :class:`~tournaments.standings.base.StandingsError` as :func:`compute_standings` does, and for an
    unknown player id."""
    if isinstance(tiebreaks, str):
        raise StandingsError("tiebreaks must be a sequence of keys, not a single string")
    specs: list[TieBreak] = [get_tiebreak(key) for key in tiebreaks]
    event = build_event(players, rounds, round_robin=round_robin, rules=rules)
    for pid in (first, second):
        if pid not in event.ids:
            raise StandingsError(f"unknown player id {pid}")
    for k in range(len(specs) + 1):
        rank = {r.player_id: r.rank for r in rank_event(event, specs[:k])}
        if rank[first] != rank[second]:
            return k
    return None
