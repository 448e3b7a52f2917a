"""Play-offs (issue 14): a mini-match between the players who share a place in the final standings of a
Swiss (or round robin) — typically the title, or the last qualifying place of a final stage — recorded and
shown in that event's final ranking.

A play-off is a small section of the tied players: ``qualified_from`` = the event whose tie it breaks, no
``qualifiers`` (its players are the tied ones). The tied players meet on equal terms (issue 25): two play a
knockout match (seeded in the standings' order); three or four a round robin by default; five or more (or
three or four if the organiser chooses) a knockout (:mod:`tournaments.knockout.services`) whose byes follow
the starting numbers. With three or more the starting numbers are drawn by a recorded lot
(:func:`playoff_draw` of the seed stored in ``Tournament.playoff_lot``), never by the standings' order.
A knockout play-off's matches are played and entered like every knockout match (planned sets, then decider
sets on a level match: RULES.md "Knockout matches"), its sets are rated like any set. Once its final standings are published, the event's final standings order the tied players by
the play-off's final ranking (:func:`tournaments.knockout.selectors.apply_playoffs`, called by
:func:`tournaments.selectors.tournament_standings` for final standings with a shared place) and name the
play-off under the table.

Every write to a play-off also bumps its event's versions (:func:`tournaments.services.tournament_touch`),
so the event's cached standings follow the play-off.
"""
from __future__ import annotations

import hashlib
import secrets

from django.db import transaction
from django.utils.translation import gettext as _

from federation.errors import Conflict, ValidationFailed
from tournaments import access
from tournaments.knockout.selectors import PLAYOFF_SYSTEMS, playoffs_of
from tournaments.models import Entry, Round, Tournament
from tournaments.selectors import tournament_standings
from tournaments.services import audited, tournament_create, tournament_touch


#: The formats of a play-off (issue 25): the tied players meet on equal terms.
FORMATS = ("round_robin", "knockout")
#: A round robin is the default for a play-off of up to this many players; more play a knockout.
ROUND_ROBIN_UP_TO = 4


def is_playoff(tournament: Tournament) -> bool:
    return (tournament.system in PLAYOFF_SYSTEMS and tournament.qualified_from_id is not None
            and not tournament.qualifiers)


def default_format(players: int) -> str:
    """The play-off format for ``players`` tied players: a round robin for 3 or 4, a knockout otherwise
    (2 players: one match; 5 or more: byes drawn by lot)."""
    return "round_robin" if 3 <= players <= ROUND_ROBIN_UP_TO else "knockout"


def playoff_draw(seed: str, keys: list[str]) -> list[str]:
    """The lot of a play-off's starting numbers: ``keys`` (the players' federation ids) ordered by
    SHA-256 of ``"<seed>:<key>"`` as hexadecimal text, lowest first — starting number 1 first. Anyone
    can re-check it from the published seed; a knockout's byes go to the first numbers drawn, never by
    the standings' order. (One small function, to be swapped for the federation's commit/reveal lot.)"""
    return sorted(keys, key=lambda k: (hashlib.sha256(f"{seed}:{k}".encode()).hexdigest(), k))


def tied_places(tournament: Tournament) -> list[tuple[int, list[str]]]:
    """The places of the final standings of ``tournament`` that several players share (after the play-offs
    already applied): ``[(rank, [names])]``; empty while a round is not closed."""
    if not _final(tournament):
        return []
    groups: dict[int, list[str]] = {}
    for line in tournament_standings(tournament=tournament).lines:
        if line.shared and not line.withdrawn:
            groups.setdefault(line.rank, []).append(line.name)
    return [(rank, names) for rank, names in sorted(groups.items()) if len(names) > 1]


def _final(tournament: Tournament) -> bool:
    closed = tournament.rounds.filter(status=Round.Status.CLOSED).count()
    return closed > 0 and closed >= tournament.rounds_total


@audited("playoff.create")
@transaction.atomic
def playoff_create(
    *, tournament: Tournament, rank: int, user=None, sets: int = 3,
    level_match_rule: str = Tournament.LevelMatchRule.DECIDERS, max_deciders: int = 0, format: str = "",
    lot_seed: str | None = None,
) -> Tournament:
    """Create the play-off for place ``rank`` of the final standings of ``tournament`` between the players
    who share that place, ``sets`` sets a match. The tied players meet on equal terms (issue 25):

    * ``format`` ``"round_robin"`` (the default for 3 or 4 players, :func:`default_format`): a round robin
      of them, everyone playing everyone;
    * ``"knockout"`` (the default for 2, or 5 and more): a knockout section, a level match settled by
      ``level_match_rule`` (default: decider sets until one is won, RULES.md).

    Two players keep the standings' order as starting numbers. For 3 or more the starting numbers (and so
    a knockout's byes) are drawn by lot — never by the standings' order: the seed ``lot_seed`` (default:
    random) is stored in ``playoff_lot`` and the order follows from it by :func:`playoff_draw`.
    Pair, play and publish the play-off like any event; its result then orders the tied players
    (:func:`tournaments.knockout.selectors.apply_playoffs`).

    Organisers only. Conflict when the event is a knockout, is not over (a round not closed), nobody shares
    place ``rank``, or a play-off for those players exists already; ValidationFailed for ``sets`` or
    ``format``."""
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can arrange a play-off."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.system == Tournament.System.KNOCKOUT:
        raise Conflict(_("A knockout has no ties to break."))
    if not _final(tournament):
        raise Conflict(_("A play-off breaks a tie of the final standings: close every round first."))
    try:
        rank = int(rank)
    except (TypeError, ValueError):
        raise ValidationFailed(_("Choose the place to decide."), field="rank") from None
    group = [line for line in tournament_standings(tournament=tournament).lines
             if line.rank == rank and line.shared and not line.withdrawn]
    if len(group) < 2:
        raise Conflict(_("Nobody shares place %(r)d of the final standings.") % {"r": rank}, field="rank")
    entries = {e.id: e for e in Entry.objects.filter(id__in=[line.entry_id for line in group]).select_related("player")}
    players = [entries[line.entry_id].player for line in group]
    wanted = {p.id for p in players}
    for other in playoffs_of(tournament):
        if set(other.entries.values_list("player_id", flat=True)) == wanted:
            raise Conflict(_("A play-off between these players exists already: %(t)s.") % {"t": other.name},
                           field="rank")
    format = format or default_format(len(players))
    if format not in FORMATS:
        raise ValidationFailed(_("A play-off is a round robin or a knockout."), field="format")
    name = (_("%(t)s – play-off for place %(r)d") % {"t": tournament.name, "r": rank})[:160]
    knockout = format == "knockout"
    playoff = tournament_create(
        name=name, rounds_total=1, system=Tournament.System.KNOCKOUT if knockout else Tournament.System.ROUND_ROBIN,
        sets_per_match=sets,
        start_date=tournament.end_date or tournament.start_date, end_date=tournament.end_date or tournament.start_date,
        city=tournament.city, venue=tournament.venue, variant=tournament.variant, created_by=user,
        **({"level_match_rule": level_match_rule, "max_deciders": max_deciders} if knockout else {}),
    )
    playoff.qualified_from = tournament
    playoff.chief_arbiter = tournament.chief_arbiter
    if len(players) > 2:  # drawn by lot, never by the standings' order (issue 25)
        playoff.playoff_lot = lot_seed or secrets.token_hex(16)
        order = playoff_draw(playoff.playoff_lot, [p.federation_id for p in players])
        by_key = {p.federation_id: p for p in players}
        players = [by_key[k] for k in order]
    playoff.save(update_fields=["qualified_from", "chief_arbiter", "playoff_lot"])
    for seed, player in enumerate(players, start=1):
        Entry.objects.create(tournament=playoff, player=player, start_no=seed, rating=player.rating)
    tournament_touch(playoff)
    return playoff
