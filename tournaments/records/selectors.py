"""Reads of tournament set records: a stored set replayed ply by ply, and a tournament's records as notation.

The replay uses the rules engine (:func:`games.engine.play`) from the initial position; player 0 of
the engine is the set's first mover, the stored ``SetResult.starter`` (white in odd sets, black in
even sets — 003 "Turnuva maçı").
"""
from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

import games.engine as engine
from federation.errors import NotFound
from games.engine import MoveResult, Position
from games.engine.notation import GameRecord, write
from games.record_messages import engine_error_message
from tournaments import access
from tournaments.models import Match, Round, SetResult, Tournament


@dataclass(frozen=True, slots=True)
class Ply:
    """One move of a replay: ``number`` 1-based; ``player`` 0 (first mover) or 1; ``colour``
    ``"white"``/``"black"``; ``pit`` 1..6 from the mover's view; ``result`` the engine's
    :class:`games.engine.MoveResult` (extra turn, capture kind and stones, set over, sweep).
    ``sweeps``: ``(colour, stones)`` pairs of the end-of-set sweep (Kural 14), empty otherwise."""

    number: int
    player: int
    colour: str
    name: str
    pit: int
    result: MoveResult
    sweeps: tuple[tuple[str, int], ...]

    @property
    def capture(self) -> str | None:
        """``"even"``, ``"empty-pit"``, ``"castle"`` or ``None``."""
        return self.result.capture.value if self.result.capture is not None else None


@dataclass(frozen=True, slots=True)
class SetReplay:
    """A stored set replayed: ``positions[n]`` is the board after ply ``n`` (``positions[0]`` the
    initial position), ``plies[n - 1]`` the move that led to it. ``names``/``colours`` are indexed by
    engine player (0 = first mover). ``error``: why the stored moves could not be replayed (then
    ``plies`` holds the moves up to the bad one)."""

    set: SetResult
    match: Match
    round: Round
    tournament: Tournament
    white_name: str
    black_name: str
    names: tuple[str, str]
    colours: tuple[str, str]
    positions: tuple[Position, ...]
    plies: tuple[Ply, ...]
    error: str | None = None

    @property
    def length(self) -> int:
        return len(self.plies)


def set_for_replay(*, set_id: int, user=None) -> SetResult:
    """The stored set ``set_id`` with its match, round, tournament and players.

    Raises :class:`federation.errors.NotFound` when it does not exist or its round is not public
    (published/closed) and ``user`` may not enter results of the tournament.
    """
    s = (
        SetResult.objects.select_related(
            "match__round__tournament", "match__white__player", "match__black__player"
        )
        .filter(pk=set_id)
        .first()
    )
    if s is None:
        raise NotFound("no such set")
    rnd = s.match.round
    if not rnd.is_public and not (user is not None and access.can_enter_results(user, rnd.tournament)):
        raise NotFound("no such set")
    return s


def set_replay(*, set_result: SetResult) -> SetReplay:
    """Replay the stored moves of ``set_result`` (see :class:`SetReplay`)."""
    s = set_result
    m = s.match
    t = m.round.tournament
    white = m.white.player.full_name
    black = m.black.player.full_name if m.black_id else "?"
    colours = ("white", "black") if s.starter == "white" else ("black", "white")
    names = (white, black) if s.starter == "white" else (black, white)
    pos = Position.initial(t.variant)
    positions = [pos]
    plies: list[Ply] = []
    error = None
    for n, token in enumerate(s.moves.split(), start=1):
        try:
            pit = int(token)
            mover = pos.to_move
            r = engine.play(pos, pit)
        except (ValueError, engine.RulesError) as exc:
            text = engine_error_message(exc)  # in the user's language
            if not str(exc).startswith("ply"):
                text = gettext("ply %(ply)s: %(reason)s") % {"ply": n, "reason": text}
            error = text
            break
        sweeps = tuple((colours[p], r.sweep[p]) for p in (0, 1) if r.sweep[p])
        plies.append(Ply(n, mover, colours[mover], names[mover], pit, r, sweeps))
        pos = r.position
        positions.append(pos)
    return SetReplay(
        set=s, match=m, round=m.round, tournament=t, white_name=white, black_name=black,
        names=names, colours=colours, positions=tuple(positions), plies=tuple(plies), error=error,
    )


def _termination(s: SetResult) -> str:
    if s.termination == SetResult.Termination.COMPLETED:
        return "completed"
    colour = "white" if s.termination == SetResult.Termination.WHITE_WITHDREW else "black"
    return "first_withdrew" if colour == s.starter else "second_withdrew"


def set_record(s: SetResult) -> GameRecord:
    """The game record of a stored set (its match, round and tournament loaded). Tags: Event (the
    tournament's name), Round, White/Black (full names "Last, First"), Set, Starter, Variant, Result
    (stored White-Black stones), Termination; extra ``EventSlug`` and ``Board`` tags make the
    re-import unambiguous."""
    m = s.match
    t = m.round.tournament
    return GameRecord(
        white=m.white.player.full_name,
        black=m.black.player.full_name,
        result=(s.white_stones, s.black_stones),
        moves=tuple(int(x) for x in s.moves.split()),
        event=t.name,
        round=str(m.round.number),
        set_number=s.number,
        starter=s.starter,
        variant=t.variant,
        termination=_termination(s),
        extra_tags=(("EventSlug", t.slug), ("Board", str(m.board))),
    )


def tournament_sets_with_moves(*, tournament: Tournament, public_only: bool = False) -> list[SetResult]:
    """Every set of ``tournament`` with a move record, in round, board and set order (one query)."""
    qs = (
        SetResult.objects.filter(match__round__tournament=tournament)
        .exclude(moves="")
        .select_related("match__round__tournament", "match__white__player", "match__black__player")
        .order_by("match__round__number", "match__board", "number")
    )
    if public_only:
        qs = qs.filter(match__round__status__in=[Round.Status.PUBLISHED, Round.Status.CLOSED])
    return list(qs)


def tournament_records(*, tournament: Tournament, public_only: bool = False) -> list[GameRecord]:
    """:func:`set_record` of every set with moves (see :func:`tournament_sets_with_moves`)."""
    return [set_record(s) for s in tournament_sets_with_moves(tournament=tournament, public_only=public_only)]


def tournament_records_text(*, tournament: Tournament, public_only: bool = False) -> str:
    """The records of :func:`tournament_records` as one notation text (``games.engine.notation.write``)."""
    return write(tournament_records(tournament=tournament, public_only=public_only))


def match_sets(*, match: Match) -> list[SetResult]:
    """The sets of ``match`` in order (for the set switcher of the replay page)."""
    return list(match.sets.order_by("number"))


__all__ = [
    "Ply",
    "SetReplay",
    "match_sets",
    "set_for_replay",
    "set_record",
    "set_replay",
    "tournament_records",
    "tournament_records_text",
    "tournament_sets_with_moves",
]
