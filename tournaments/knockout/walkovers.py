"""Walkovers in a knockout (issue 25; RULES.md "Knockout matches"): a withdrawal never leaves a match waiting.

* A player who withdraws while a match of theirs is paired and undecided forfeits it: the opponent advances
  by walkover (``Match.forfeit`` = the withdrawn side, 1–0, ``decided_by`` ``forfeit``, not rated); both
  withdrawn: both forfeit and nobody advances from the slot. Called by
  :func:`tournaments.entries.services.entry_withdraw` inside its transaction.
* A winner who withdrew before the next round is paired leaves the slot empty: the opponent advances with a
  bye, shown as a walkover in the bracket (:func:`tournaments.knockout.services.round_pair_knockout`).
* The match for third place when a semi-final loser withdrew before it was paired: it is paired and forfeited
  at once, so the player who stayed takes 3rd by walkover and the withdrawn one is 4th — the two never share
  3rd (:func:`third_place_walkover`).
"""
from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from tournaments.models import Entry, Match, Tournament
from tournaments.pairing import knockout as core
from tournaments.services import ONE, ZERO

_POINTS = {"white": (ZERO, ONE), "black": (ONE, ZERO), "both": (ZERO, ZERO)}


def forfeit_side(*, white_withdrawn: bool, black_withdrawn: bool) -> str:
    """Who forfeits a match because of withdrawals: ``"white"``, ``"black"``, ``"both"`` or ``""`` (nobody)."""
    if white_withdrawn and black_withdrawn:
        return "both"
    return "white" if white_withdrawn else "black" if black_withdrawn else ""


def walkover_record(*, match: Match, side: str, user=None) -> Match:
    """Record ``match`` as forfeited by ``side`` (``white``/``black``/``both``) because of a withdrawal: the
    opponent advances by walkover; sets already entered of a match in play are deleted (a forfeit has no
    sets), each with its history. Writes the match with its history (the caller holds the tournament's
    lock and its audit context)."""
    for s in match.sets.all():
        s.delete()
    match.forfeit = side
    match.white_points, match.black_points = _POINTS[side]
    match.rated = False
    match.decided_by = "forfeit"
    match.result_entered_at = timezone.now()
    match.result_entered_by = user if getattr(user, "is_authenticated", False) else None
    match.version += 1
    match.save(update_fields=["forfeit", "white_points", "black_points", "rated", "decided_by",
                              "result_entered_at", "result_entered_by", "version"])
    return match


def walkovers_for_withdrawal(*, entry: Entry, user=None) -> list[Match]:
    """The walkovers a withdrawal of ``entry`` from a knockout causes: each undecided match of the player
    (the match for third place included) is forfeited by them (both sides when the opponent withdrew
    too). Nothing for another system. Returns the matches written."""
    tournament = entry.tournament
    if tournament.system != Tournament.System.KNOCKOUT:
        return []
    out = []
    pending = (Match.objects.select_for_update(of=("self",)).select_related("white", "black")
               .filter(Q(white=entry) | Q(black=entry), round__tournament=tournament, kind=Match.Kind.GAME,
                       white_points__isnull=True).order_by("round__number", "board"))
    for m in pending:
        side = forfeit_side(white_withdrawn=m.white_id == entry.id or m.white.withdrawn,
                            black_withdrawn=m.black_id == entry.id or m.black.withdrawn)
        out.append(walkover_record(match=m, side=side, user=user))
    return out


def third_place_walkover(first: Entry | None, second: Entry | None) -> tuple[Entry, Entry, str] | None:
    """The match for third place between the semi-final losers ``first`` and ``second`` (``None``: a
    semi-final was a bye or nobody lost it) when it is paired: ``(a, b, forfeit)`` with ``a`` the higher
    seed and ``forfeit`` the side that withdrew (``"a"``, ``"b"``, ``"both"``, ``""`` none), or ``None``
    when there is no match to pair (fewer than two losers)."""
    if core.third_place_pair([e.start_no if e is not None else None for e in (first, second)]) is None:
        return None
    a, b = sorted((first, second), key=lambda e: e.start_no)
    if a.withdrawn and b.withdrawn:
        return a, b, "both"
    return a, b, "a" if a.withdrawn else "b" if b.withdrawn else ""
