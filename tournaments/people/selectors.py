"""Reads of what tournaments know about people: a player's boards and results (``/me/``, ``/me/next-board/``,
``/me/results/``, ``/players/<id>/results/``), the tournament sections of a player's own data, and the
per-tournament roles of accounts (my page, the staff account page and its history)."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Prefetch, Q

from federation import roles
from federation.models import Player
from federation.personal_data import json_value
from federation.selectors import ACCOUNT_LABELS, AccountEvent
from tournaments.models import Absence, Entry, Match, Round, SetResult, Tournament, TournamentRole


@dataclass(frozen=True, slots=True)
class PlayerMatch:
    """One match of a player as the player sees it: ``colour`` ``"white"``/``"black"`` (``"bye"`` for a
    bye), the opponent's entry (None for a bye), own and opponent's points (None: no result yet), the
    sets as ``(own stones, opponent's stones)``, and ``outcome`` ``"win"``/``"draw"``/``"loss"``/None."""

    tournament: object
    round: object
    match: object
    own: object
    opponent: object | None
    colour: str
    own_points: object | None
    opponent_points: object | None
    sets: tuple[tuple[int, int], ...]
    outcome: str | None

    @property
    def forfeit(self) -> str:
        """``"own"``, ``"opponent"``, ``"both"`` or "" — who did not appear."""
        f = self.match.forfeit
        if not f:
            return ""
        if f == "both":
            return "both"
        return "own" if f == self.colour else "opponent"


def _player_match(m, player_ids: set[int]) -> PlayerMatch:
    own_white = m.white.player_id in player_ids
    own, opponent = (m.white, m.black) if own_white else (m.black, m.white)
    if m.kind == "bye":
        colour, own_points, opp_points = "bye", m.white_points, None
    else:
        colour = "white" if own_white else "black"
        own_points, opp_points = (m.white_points, m.black_points) if own_white else (m.black_points, m.white_points)
    sets = tuple(
        (s.white_stones, s.black_stones) if own_white else (s.black_stones, s.white_stones) for s in m.sets.all()
    )
    outcome = None
    if own_points is not None:
        if colour == "bye":
            outcome = "win" if own_points >= 1 else ("draw" if own_points > 0 else "loss")
        else:
            outcome = "win" if own_points > opp_points else ("draw" if own_points == opp_points else "loss")
    return PlayerMatch(tournament=m.round.tournament, round=m.round, match=m, own=own, opponent=opponent,
                       colour=colour, own_points=own_points, opponent_points=opp_points, sets=sets, outcome=outcome)


def _player_matches_qs(player: Player):
    return (
        Match.objects.filter(Q(white__player=player) | Q(black__player=player))
        .select_related("round__tournament", "white__player", "black__player")
        .prefetch_related(Prefetch("sets", queryset=SetResult.objects.order_by("number")))
    )


def player_current_boards(player: Player) -> list[PlayerMatch]:
    """The player's boards in rounds whose pairing is published and that are not closed yet (usually
    one; one per tournament played at the same time), tournaments not archived — newest tournament first."""
    qs = _player_matches_qs(player).filter(
        round__status=Round.Status.PUBLISHED, round__tournament__archived_at__isnull=True
    ).order_by("-round__tournament__start_date", "round__tournament__name", "round__number")
    return [_player_match(m, {player.pk}) for m in qs]


def player_waiting_entries(player: Player) -> list:
    """The player's entries (not withdrawn) in tournaments not finished nor archived, with no published
    round now: what "no board now" is waiting for. Each entry gets ``next_round`` (the round paired but
    not published yet, or the one after the last closed round)."""
    entries = list(
        player.entries.filter(withdrawn=False, tournament__archived_at__isnull=True)
        .exclude(tournament__status=Tournament.Status.FINISHED)
        .select_related("tournament").order_by("tournament__start_date", "tournament__name")
    )
    out = []
    for e in entries:
        t = e.tournament
        if t.rounds.filter(status=Round.Status.PUBLISHED).exists():
            continue  # a published round without a board for this player (e.g. paired without them)
        pending = list(t.rounds.exclude(status=Round.Status.CLOSED).order_by("number").values_list("number", flat=True))
        if pending:
            e.next_round = pending[0]  # paired, not published yet
        else:
            last = t.rounds.order_by("-number").values_list("number", flat=True).first() or 0
            if last >= t.rounds_total:
                continue  # every round played: nothing to wait for
            e.next_round = last + 1
        out.append(e)
    return out


@dataclass(frozen=True, slots=True)
class TournamentResults:
    """A player's matches in one tournament (round order) with the points of those that have a result."""

    tournament: object
    entry: object
    matches: tuple[PlayerMatch, ...]
    points: object
    wins: int
    draws: int
    losses: int
    played: int = 0  # matches with a result


def player_results(player: Player, *, user=None) -> list[TournamentResults]:
    """A player's matches in every tournament, newest tournament first, as the public sees them: rounds
    whose pairing is published (or closed) of tournaments not archived — archived ones only for
    federation staff. Every tournament the player is entered in is listed, even without a match yet."""
    staff = roles.is_staff(user)
    qs = _player_matches_qs(player).filter(round__status__in=[Round.Status.PUBLISHED, Round.Status.CLOSED])
    entries = player.entries.select_related("tournament")
    if not staff:
        qs = qs.filter(round__tournament__archived_at__isnull=True)
        entries = entries.filter(tournament__archived_at__isnull=True)
    by_tournament: dict[int, list[PlayerMatch]] = {}
    for m in qs.order_by("round__number"):
        by_tournament.setdefault(m.round.tournament_id, []).append(_player_match(m, {player.pk}))
    out = []
    for e in entries:
        ms = by_tournament.get(e.tournament_id, [])
        points = sum((pm.own_points for pm in ms if pm.own_points is not None), Decimal("0"))
        out.append(TournamentResults(
            tournament=e.tournament, entry=e, matches=tuple(ms), points=points,
            wins=sum(pm.outcome == "win" for pm in ms), draws=sum(pm.outcome == "draw" for pm in ms),
            losses=sum(pm.outcome == "loss" for pm in ms), played=sum(pm.own_points is not None for pm in ms),
        ))
    out.sort(key=lambda r: (r.tournament.start_date or dt.date.min, r.tournament.pk), reverse=True)
    return out


def player_tournament_data(ids) -> dict:
    """The ``"entries"``, ``"byes_requested"`` and ``"results"`` sections of a player's own data
    (:func:`federation.personal_data.player_data_export`) for the records ``ids`` (the player and those
    merged into it): every entry, bye request, match and set played (with byes and forfeits). Unpublished
    pairings (rounds paired but not yet published) are left out: they are not yet results. Four queries."""
    entries = list(Entry.objects.filter(player_id__in=ids).select_related("tournament", "player")
                   .order_by("tournament__start_date", "tournament_id"))
    entry_ids = [e.pk for e in entries]
    matches = list(
        Match.objects.filter(Q(white_id__in=entry_ids) | Q(black_id__in=entry_ids))
        .exclude(round__status__in=[Round.Status.DRAFT, Round.Status.PAIRED])
        .select_related("round__tournament", "white__player", "black__player")
        .order_by("round__tournament_id", "round__number", "board")
    )
    sets: dict[int, list[SetResult]] = {}
    for s in SetResult.objects.filter(match__in=[m.pk for m in matches]).order_by("match_id", "number"):
        sets.setdefault(s.match_id, []).append(s)
    absences = list(Absence.objects.filter(entry_id__in=entry_ids).select_related("entry__tournament")
                    .order_by("entry__tournament_id", "round_number"))

    results = []
    for m in matches:
        own_white = m.white_id in entry_ids
        opponent = m.black if own_white else m.white
        own_points, opp_points = (m.white_points, m.black_points) if own_white else (m.black_points, m.white_points)
        results.append({
            "tournament": m.round.tournament.slug, "round": m.round.number, "board": m.board, "kind": m.kind,
            "bye_kind": m.bye_kind or None, "colour": "white" if own_white else "black",
            "opponent": ({"federation_id": opponent.player.federation_id, "name": opponent.player.full_name}
                         if opponent is not None else None),
            "forfeit": m.forfeit or None, "points": json_value(own_points), "opponent_points": json_value(opp_points),
            "rated": m.rated,
            "sets": [
                {
                    "number": s.number, "starter": s.starter, "termination": s.termination,
                    "own_stones": s.white_stones if own_white else s.black_stones,
                    "opponent_stones": s.black_stones if own_white else s.white_stones,
                    "moves": s.moves,
                }
                for s in sets.get(m.pk, [])
            ],
        })
    return {
        "entries": [
            {
                "tournament": {"slug": e.tournament.slug, "name": e.tournament.name,
                               "start_date": json_value(e.tournament.start_date),
                               "end_date": json_value(e.tournament.end_date)},
                "federation_id": e.player.federation_id, "start_no": e.start_no, "rating": e.rating,
                "withdrawn": e.withdrawn, "withdrawn_after_round": e.withdrawn_after_round,
            }
            for e in entries
        ],
        "byes_requested": [
            {"tournament": a.entry.tournament.slug, "round": a.round_number, "kind": a.kind,
             "requested_at": json_value(a.created_at)}
            for a in absences
        ],
        "results": results,
    }


def own_tournament_roles(user) -> list:
    """The logged-in ``user``'s roles in tournaments not archived (my page), newest tournament first."""
    return list(
        user.tournament_roles.filter(tournament__archived_at__isnull=True)
        .select_related("tournament").order_by("-tournament__start_date", "tournament__name")
    )


def account_tournament_roles(account) -> list:
    """Every tournament role of ``account`` (the staff account page), newest tournament first."""
    return list(account.tournament_roles.select_related("tournament")
                .order_by("-tournament__start_date", "tournament__name"))


def account_role_events(account, *, limit: int = 50) -> list[AccountEvent]:
    """The tournament roles given to and taken from ``account`` (their history rows, at most ``limit``,
    newest first) as lines of the account's history (:func:`federation.selectors.account_history`)."""
    rows = list(TournamentRole.history.filter(user_id=account.pk).select_related("history_user")
                .order_by("-history_date")[:limit])
    tournaments = Tournament.objects.in_bulk({r.tournament_id for r in rows})
    events = []
    for r in rows:
        action = r.audit_action if r.audit_action in ACCOUNT_LABELS else ("role.remove" if r.history_type == "-"
                                                                          else "role.assign")
        role = TournamentRole.Role(r.role).label if r.role in TournamentRole.Role.values else r.role
        events.append(AccountEvent(at=r.history_date, by=r.history_user, action=action,
                                   label=str(ACCOUNT_LABELS[action]), detail=str(role),
                                   tournament=tournaments.get(r.tournament_id)))
    return events
