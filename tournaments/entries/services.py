"""Entries of a tournament: late entries with their missed-round byes, requested byes, the start
numbers' order, withdrawals and reinstatements. Writes as in :mod:`tournaments.services`: ``<entity>_<action>``,
keyword-only, atomic, audited."""
from __future__ import annotations


from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from federation.collation import player_sort_key
from federation.errors import Conflict, ValidationFailed
from federation.models import Player
from tournaments import access
from tournaments.knockout.walkovers import walkovers_for_withdrawal
from tournaments.models import Absence, Entry, Match, Round, Tournament
from tournaments.services import HALF, ZERO, audited, tournament_touch


def _first_round_paired(tournament: Tournament) -> bool:
    return tournament.rounds.exclude(status=Round.Status.DRAFT).exists()


MISSED_ROUND_KINDS = ("zero", "half")
"""What a late entrant gets for each round played before they joined: a zero- or half-point bye
(FIDE C.04.2 / General Regulations: the organiser announces which)."""


def _unplayed_pairing(rnd: Round | None) -> bool:
    """True when ``rnd`` is paired or published but no game result is entered in it yet."""
    return (
        rnd is not None and rnd.status in (Round.Status.PAIRED, Round.Status.PUBLISHED)
        and not rnd.matches.filter(kind=Match.Kind.GAME, result_entered_at__isnull=False).exists()
    )


def _refuse_unplayed_pairing(rnd: Round, who: str, *, reinstating: bool = False) -> None:
    if reinstating:
        message = _("Round %(n)d is paired but not played yet, so %(p)s would be left out of it: delete the "
                    "pairing of round %(n)d, undo the withdrawal, then pair the round again.")
    else:
        message = _("Round %(n)d is paired but not played yet, so %(p)s would be left out of it: delete the pairing "
                    "of round %(n)d, add the player, then pair the round again.")
    raise Conflict(message % {"n": rnd.number, "p": who}, field="player", code="round_paired_not_played",
                   extra={"round": rnd.number})


def _give_missed_byes(*, entry: Entry, rounds, kind: str) -> list[int]:
    """A bye of ``kind`` (zero/half) for ``entry`` on a new board of each round in ``rounds`` where it
    has none. Returns the round numbers."""
    points = {"zero": ZERO, "half": HALF}[kind]
    done = []
    for rnd in rounds:
        if rnd.matches.filter(Q(white=entry) | Q(black=entry)).exists():
            continue
        board = (rnd.matches.aggregate(m=Max("board"))["m"] or 0) + 1
        Match.objects.create(round=rnd, board=board, kind=Match.Kind.BYE, bye_kind=kind, white=entry, white_points=points)
        done.append(rnd.number)
    return done


@audited("entry.add")
@transaction.atomic
def entry_add(*, tournament: Tournament, player: Player, user=None, missed_rounds: str = "zero",
              team_member: bool = False) -> Entry:
    """Enter ``player``; before round 1 starting numbers are re-sorted by rating (desc), then name
    (C.04.2 A.2); a late entry takes the next number.

    A late entrant gets a bye of ``missed_rounds`` (``"zero"`` or ``"half"``) in every round already
    played — never a silent absence. While the last round is paired but not played, the player is
    refused with code ``round_paired_not_played`` (delete that pairing, add, pair again).
    Raises Conflict when already entered, the event is finished or archived, the player is
    deactivated or merged, or a round robin has started, or the event is a team event (its players are
    entered as members of a team: :func:`tournaments.teams.services.team_member_add` passes ``team_member``);
    ValidationFailed for another ``missed_rounds``.
    """
    if user is not None:
        access.require(access.can_organise(user, tournament))
    if tournament.entries.filter(player=player).exists():
        raise Conflict(_("%(p)s is already entered.") % {"p": player.full_name}, field="player")
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(_("The tournament is finished."), field="player")
    if not player.active or player.merged_into_id:
        raise Conflict(_("%(p)s is deactivated or merged into another record.") % {"p": player.full_name}, field="player")
    last_round = tournament.rounds.order_by("-number").first()
    late = last_round is not None
    if late and tournament.system == Tournament.System.ROUND_ROBIN:
        raise Conflict(_("A round robin cannot take late entries."), field="player")
    if late and tournament.system == Tournament.System.KNOCKOUT:
        raise Conflict(_("A knockout cannot take late entries: the bracket is drawn."), field="player")
    if tournament.format == Tournament.Format.TEAM and not team_member:
        raise Conflict(_("The players of a team event are entered as members of a team (the teams page)."),
                       field="player", code="team_event")
    if tournament.qualified_from_id:
        raise Conflict(
            _("The players of this final stage qualify from %(t)s; they are entered when round 1 is paired.")
            % {"t": tournament.qualified_from.name}, field="player",
        )
    if late:
        if missed_rounds not in MISSED_ROUND_KINDS:
            raise ValidationFailed(_("Missed rounds are zero- or half-point byes."), field="missed_rounds")
        if _unplayed_pairing(last_round):
            _refuse_unplayed_pairing(last_round, player.full_name)
    last = tournament.entries.aggregate(m=Max("start_no"))["m"] or 0
    # the rating as of now, from the database (a rating run may have changed it since `player` was loaded)
    rating = Player.objects.filter(pk=player.pk).values_list("rating", flat=True).get()
    entry = Entry.objects.create(tournament=tournament, player=player, start_no=last + 1, rating=rating)
    if late:
        _give_missed_byes(entry=entry, rounds=tournament.rounds.order_by("number"), kind=missed_rounds)
    else:
        entries_sort(tournament=tournament)
        entry.refresh_from_db()
    tournament_touch(tournament)
    return entry


@audited("bye.request")
@transaction.atomic
def entry_request_bye(*, entry: Entry, round_number: int, kind: str = "half", user=None) -> Absence:
    """Record a bye requested ahead for ``round_number`` (``half`` or ``zero``), before it is paired.
    ``full`` (1 point) and ``pab`` (a pairing-allocated bye assigned ahead, worth ``bye_points`` and
    counted as the player's PAB) are accepted too, as imported files record them.

    The player is left out of that round's pairing and gets the bye (C.04.2 pre-assigned byes).
    Raises Conflict when the round is already paired, ValidationFailed for a round outside the event.
    """
    tournament = entry.tournament
    if user is not None:
        access.require(access.can_organise(user, tournament))
    if kind not in Absence.Kind.values:
        raise ValidationFailed(_("A requested bye is half or zero."), field="kind")
    if tournament.system == Tournament.System.KNOCKOUT:
        raise Conflict(_("A knockout has no requested byes: a player who cannot play a match loses it by forfeit."))
    if not 1 <= int(round_number) <= tournament.rounds_total:
        raise ValidationFailed(
            _("Round must be between 1 and %(n)d.") % {"n": tournament.rounds_total}, field="round_number"
        )
    if tournament.rounds.filter(number=round_number).exists():
        raise Conflict(_("Round %(n)d is already paired.") % {"n": round_number}, field="round_number")
    absence, _created = Absence.objects.update_or_create(
        entry=entry, round_number=round_number,
        defaults={"kind": kind, "created_by": user if getattr(user, "is_authenticated", False) else None},
    )
    tournament_touch(tournament)
    return absence


@audited("bye.withdraw")
@transaction.atomic
def entry_bye_withdraw(*, entry: Entry, round_number: int, user=None, reason: str = "") -> None:
    """Withdraw a bye requested ahead for ``round_number`` (the player will be paired in it).

    Raises NotFound when there is no such request, Conflict when the round is already paired (delete
    its pairing first).
    """
    from federation.errors import NotFound

    tournament = entry.tournament
    if user is not None:
        access.require(access.can_organise(user, tournament))
    absence = Absence.objects.filter(entry=entry, round_number=round_number).first()
    if absence is None:
        raise NotFound(_("No bye is requested for round %(n)d.") % {"n": int(round_number)}, field="round_number")
    if tournament.rounds.filter(number=round_number).exists():
        raise Conflict(
            _("Round %(n)d is already paired; delete its pairing first.") % {"n": int(round_number)}, field="round_number"
        )
    absence.delete()
    tournament_touch(tournament)


@transaction.atomic
def entries_sort(*, tournament: Tournament) -> None:
    """Give starting numbers 1..n by rating (desc), then name, then federation id (C.04.2 A.2).

    Names are compared in Turkish alphabetical order (:func:`federation.collation.player_sort_key`: last
    name, first name — Çelik, Öztürk, Şahin, Yıldız), not by code point.

    Only the entries whose number changes are written, with one history row each (so the history's
    "before" of a later change is the number the entry really had)."""
    from simple_history.utils import bulk_update_with_history

    from federation.audit import current

    entries = list(tournament.entries.select_related("player"))
    entries.sort(key=lambda e: (-e.rating, player_sort_key(e.player)))
    changed = [(i, e) for i, e in enumerate(entries, start=1) if e.start_no != i]
    if not changed:
        return
    tournament_touch(tournament)
    # two passes so the unique (tournament, start_no) constraint holds at every step
    for i, e in changed:
        Entry.objects.filter(pk=e.pk).update(start_no=10000 + i)
    for i, e in changed:
        e.start_no = i
    ctx = current()
    bulk_update_with_history(
        [e for _i, e in changed], Entry, ["start_no"],
        default_user=ctx.user if ctx else None, default_change_reason=(ctx.reason or None) if ctx else None,
        custom_historical_attrs={
            "audit_action": ctx.action if ctx else "entry.renumber",
            "audit_action_id": ctx.action_id if ctx else "",
            "audit_tournament_id": tournament.pk,
        },
    )


@audited("entry.withdraw")
@transaction.atomic
def entry_withdraw(*, entry: Entry, user=None, reason: str = "") -> Entry:
    """Withdraw ``entry`` from the following rounds (it is not paired any more). Conflict when it is
    withdrawn already; :func:`entry_reinstate` undoes it. In a knockout nothing is left waiting: each
    undecided match of the player is forfeited, the opponent advancing by walkover
    (:func:`tournaments.knockout.walkovers.walkovers_for_withdrawal`)."""
    if user is not None:
        access.require(access.can_organise(user, entry.tournament))
    # the tournament first (house lock order, issue 23): tournament_touch below writes it
    Tournament.objects.select_for_update().filter(pk=entry.tournament_id).values_list("pk").first()
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.withdrawn:
        raise Conflict(_("%(p)s is already withdrawn.") % {"p": entry.player.full_name})
    last = entry.tournament.rounds.exclude(status=Round.Status.DRAFT).aggregate(m=Max("number"))["m"] or 0
    entry.withdrawn = True
    entry.withdrawn_after_round = last
    entry.save(update_fields=["withdrawn", "withdrawn_after_round"])
    walkovers_for_withdrawal(entry=entry, user=user)
    tournament_touch(entry.tournament)
    return entry


@audited("entry.reinstate")
@transaction.atomic
def entry_reinstate(*, entry: Entry, user=None, reason: str = "") -> Entry:
    """Undo a withdrawal: the player is paired again from the next round. Rounds paired while they
    were withdrawn get a zero-point bye each (an explicit absence). While the last round is paired
    but not played, Conflict ``round_paired_not_played`` (delete that pairing first). In a knockout,
    Conflict ``knockout_walkover`` once the opponent advanced by walkover (issue 25)."""
    tournament = entry.tournament
    if user is not None:
        access.require(access.can_organise(user, tournament))
    # the tournament first (house lock order, issue 23): byes are written in its rounds, then it is touched
    Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk").first()
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if not entry.withdrawn:
        raise Conflict(_("%(p)s is not withdrawn.") % {"p": entry.player.full_name})
    last_round = tournament.rounds.order_by("-number").first()
    after = entry.withdrawn_after_round or 0
    if last_round is not None and last_round.number > after and _unplayed_pairing(last_round):
        _refuse_unplayed_pairing(last_round, entry.player.full_name, reinstating=True)
    if tournament.system == Tournament.System.KNOCKOUT and (
        tournament.rounds.filter(number__gt=after).exists()
        or Match.objects.filter(Q(white=entry, forfeit__in=("white", "both")) | Q(black=entry, forfeit__in=("black", "both")),
                                round__tournament=tournament).exists()
    ):  # issue 25: the opponent advanced by walkover
        raise Conflict(_("%(p)s withdrew from the knockout and the opponent advanced by walkover: the withdrawal "
                         "cannot be undone.") % {"p": entry.player.full_name}, code="knockout_walkover")
    _give_missed_byes(entry=entry, rounds=tournament.rounds.filter(number__gt=after).order_by("number"), kind="zero")
    entry.withdrawn = False
    entry.withdrawn_after_round = None
    entry.save(update_fields=["withdrawn", "withdrawn_after_round"])
    tournament_touch(tournament)
    return entry
