"""A final stage (issue 14): a knockout whose players are the top ``qualifiers`` of an earlier stage's final
standings (``qualified_from``), seeded by their ranks there."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from federation.errors import Conflict
from tournaments import access
from tournaments.models import Entry, Round, Tournament
from tournaments.selectors import tournament_standings
from tournaments.services import audited, tournament_touch


# --------------------------------------------------------------------------------------------
# A final stage: the qualifiers of an earlier stage
# --------------------------------------------------------------------------------------------


def qualifiers_of(tournament: Tournament) -> list:
    """The players who qualify for the final stage ``tournament``: the top ``qualifiers`` lines of the
    final standings of ``qualified_from`` (withdrawn players skipped), as
    :class:`tournaments.selectors.StandingLine` values in rank order.

    Conflict when the earlier stage is not over (a round not closed or not paired), or when the players
    either side of the cut share a rank (equal on every tie-break: a play-off decides; see
    :mod:`tournaments.knockout.playoffs`)."""
    source = tournament.qualified_from
    closed = source.rounds.filter(status=Round.Status.CLOSED).count()
    if closed == 0 or closed < source.rounds_total:
        raise Conflict(
            _("%(t)s is not over yet: its players qualify from its final standings.") % {"t": source.name},
            field="qualified_from",
        )
    # the final standings with the play-offs that broke ties applied (tournaments.knockout.playoffs)
    lines = [line for line in tournament_standings(tournament=source).lines if not line.withdrawn]
    n = tournament.qualifiers or 0
    if n > len(lines):
        raise Conflict(_("%(t)s has only %(n)d players.") % {"t": source.name, "n": len(lines)}, field="qualifiers")
    if n < len(lines) and lines[n - 1].rank == lines[n].rank and lines[n - 1].shared:
        raise Conflict(
            _("%(a)s and %(b)s share rank %(r)d of %(t)s, at the cut for the %(n)d qualifiers: break the tie "
              "(a play-off) first.")
            % {"a": lines[n - 1].name, "b": lines[n].name, "r": lines[n - 1].rank, "t": source.name, "n": n},
            field="qualifiers", code="tie_at_cut",
        )
    return lines[:n]


def take_qualifiers(tournament: Tournament) -> list[Entry]:
    """Enter the qualifiers of a final stage (:func:`qualifiers_of`) with starting number = seed = their
    place in the earlier stage (1 = its winner), replacing the stage's entries — before round 1 only.
    Writes with history (the caller holds the tournament's lock and its audit context)."""
    from federation.models import Player

    if tournament.rounds.exists():
        raise Conflict(_("Round 1 is already paired: the field of the final stage is fixed."))
    lines = qualifiers_of(tournament)
    wanted = [line.entry_id for line in lines]
    source_entries = {e.id: e for e in Entry.objects.filter(id__in=wanted).select_related("player")}
    players = [source_entries[i].player for i in wanted]
    current = {e.player_id: e for e in tournament.entries.all()}
    keep = {p.id for p in players}
    for pid, e in current.items():
        if pid not in keep:
            e.delete()
    ratings = dict(Player.objects.filter(id__in=keep).values_list("id", "rating"))
    # two passes so the unique (tournament, start_no) constraint holds at every step
    for e in tournament.entries.all():
        e.start_no = 10000 + e.start_no
        e.save(update_fields=["start_no"])
    out = []
    for seed, player in enumerate(players, start=1):
        e = Entry.objects.filter(tournament=tournament, player=player).first()
        if e is None:
            e = Entry.objects.create(tournament=tournament, player=player, start_no=seed, rating=ratings[player.id])
        else:
            e.start_no, e.rating, e.withdrawn, e.withdrawn_after_round = seed, ratings[player.id], False, None
            e.save(update_fields=["start_no", "rating", "withdrawn", "withdrawn_after_round"])
        out.append(e)
    return out


# --------------------------------------------------------------------------------------------
# Writes
# --------------------------------------------------------------------------------------------


@audited("knockout.qualifiers")
@transaction.atomic
def knockout_qualifiers_take(*, tournament: Tournament, user=None) -> list[Entry]:
    """Enter the qualifiers of a final stage now (:func:`take_qualifiers`), so the organiser sees the seeded
    field before pairing round 1 (which takes them again: the earlier stage's results may still be
    corrected meanwhile). Organisers only; Conflict for a tournament that is not a final stage, a paired
    round 1, an earlier stage not over, or a tie at the cut."""
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can change entries."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not (tournament.qualified_from_id and tournament.qualifiers):
        raise Conflict(_("This tournament is not a final stage: its players are entered one by one."))
    entries = take_qualifiers(tournament)
    tournament_touch(tournament)
    return entries

