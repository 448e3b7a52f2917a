"""Rounds: pairing the next round, publishing, closing, reopening and deleting a pairing, changing
pairings by hand, and the forbidden pairs the pairing avoids. Writes as in :mod:`tournaments.services`:
``<entity>_<action>``, keyword-only, atomic, audited."""
from __future__ import annotations


from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.errors import Conflict, ValidationFailed
from tournaments import access, races, signals
from tournaments.knockout import services as knockout
from tournaments.models import Absence, CoinToss, Entry, ForbiddenPair, Match, PairingChange, Round, Tournament
from tournaments.pairing_adapter import pair_next_round
from tournaments.lots import services as lots
from tournaments.services import HALF, ONE, ZERO, _reason, audited, tournament_touch


# --------------------------------------------------------------------------------------------
# Rounds
# --------------------------------------------------------------------------------------------

@audited("round.pair")
@transaction.atomic
def round_pair(*, tournament: Tournament, user=None, coin_seed: str | None = None) -> Round:
    """Pair the next round and store its boards (status ``paired``, not public yet).

    Round 1 starts with a recorded coin toss (Kural 5): the secret committed when the tournament was
    created is revealed (:func:`tournaments.lots.services.coin_toss_lot`; a ``coin_seed`` given instead is a
    seeded toss) and decides the colour of the top seed; the pairing system does the rest (FIDE C.04.3 / C.05), with
    the forbidden pairs of the round and the event's accelerated pairing
    (:func:`tournaments.pairing_adapter.pair_next_round`). A bye assigned ahead for the round
    (:class:`Absence`) becomes a bye board of its kind: half (½), zero (0), full (1) or ``pab`` (worth
    ``bye_points`` and counted as the player's pairing-allocated bye, C.04.1 c).
    Raises Conflict when the previous round is not closed, all rounds are paired, or fewer than two
    players are available; ValidationFailed (code ``no_pairing``) when no legal pairing exists.
    """
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can pair rounds."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.system == Tournament.System.KNOCKOUT:  # the bracket (issue 14)
        rnd = knockout.round_pair_knockout(tournament=tournament, user=user, coin_seed=coin_seed)
        tournament_touch(tournament)
        return rnd
    last = tournament.rounds.order_by("-number").first()
    if last is not None and last.status != Round.Status.CLOSED:
        raise Conflict(_("Round %(n)d is not closed yet.") % {"n": last.number})
    number = (last.number if last else 0) + 1
    if number > tournament.rounds_total:
        raise Conflict(_("All %(n)d rounds are already paired.") % {"n": tournament.rounds_total})
    entries = list(tournament.entries.select_related("player").order_by("start_no"))
    active = [e for e in entries if not e.withdrawn]
    if len(active) < 2:
        raise Conflict(_("At least two players are needed to pair a round."))

    if number == 1 and tournament.system == Tournament.System.ROUND_ROBIN:
        needed = (len(active) if len(active) % 2 else len(active) - 1) * (2 if tournament.double_round_robin else 1)
        if tournament.rounds_total != needed:
            tournament.rounds_total = needed  # C.05: n − 1 rounds (n odd: n), twice for a double round robin
            tournament.save(update_fields=["rounds_total"])
    toss = None
    if number == 1:
        lot = lots.coin_toss_lot(tournament=tournament, coin_seed=coin_seed, user=user)  # committed before, revealed now
        toss = (lot.secret, lot.outcome)
        first_colour = toss[1]
    else:
        # the round-1 toss stays the initial colour of the event (C.04.3: used when colour rules tie)
        first_toss = CoinToss.objects.filter(round__tournament=tournament, round__number=1).first()
        first_colour = first_toss.outcome if first_toss else "w"

    absent = {a.entry_id: a.kind for a in Absence.objects.filter(entry__tournament=tournament, round_number=number)}
    boards = pair_next_round(
        tournament=tournament, entries=entries, round_no=number, first_colour=first_colour, absent=set(absent)
    )
    if tournament.system == Tournament.System.SWISS:
        by_id = {e.id: e for e in entries}
        boards += [(by_id[eid].start_no, None, kind) for eid, kind in sorted(absent.items(), key=lambda x: by_id[x[0]].start_no)
                   if not by_id[eid].withdrawn]
    rnd = Round.objects.create(tournament=tournament, number=number, status=Round.Status.PAIRED, paired_at=timezone.now())
    if toss:
        CoinToss.objects.create(
            round=rnd, seed=toss[0], outcome=toss[1], tossed_at=timezone.now(),
            tossed_by=user if getattr(user, "is_authenticated", False) else None,
        )
    by_no = {e.start_no: e for e in entries}
    for board_no, (white_no, black_no, bye_kind) in enumerate(boards, start=1):
        m = Match(round=rnd, board=board_no, white=by_no[white_no])
        if black_no is None:
            m.kind = Match.Kind.BYE
            m.bye_kind = bye_kind
            m.white_points = {"pab": tournament.bye_points, "half": HALF, "full": ONE, "zero": ZERO}[bye_kind]
        else:
            m.black = by_no[black_no]
        m.save()
    if tournament.status == Tournament.Status.DRAFT:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    tournament_touch(tournament)
    return rnd


@audited("round.delete")
@transaction.atomic
def round_delete(*, round: Round, user=None, reason: str = "") -> int:
    """Undo the pairing of the last round: delete it with its boards (and round 1's coin toss) while
    no game result is entered in it; then it can be paired again (a player added meanwhile is
    included). Requested byes stay. Returns the deleted round's number.

    Raises Conflict for a round that is not the last one, is closed, or has a result entered.
    """
    tournament = round.tournament
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can delete a pairing."))
    tournament, rnd, matches = races.round_lock(round)  # tournament, round, boards (tournaments.races)
    last = tournament.rounds.order_by("-number").first()
    if last.pk != rnd.pk:
        raise Conflict(_("Only the last round (%(n)d) can be deleted.") % {"n": last.number})
    if rnd.status == Round.Status.CLOSED:
        raise Conflict(_("Round %(n)d is closed; correct its results instead.") % {"n": rnd.number})
    entered = [m.board for m in matches if m.kind == Match.Kind.GAME and m.result_entered_at is not None]
    if entered:
        raise Conflict(
            _("Results are entered on boards %(b)s; a round with results cannot be deleted.")
            % {"b": ", ".join(str(b) for b in entered)}
        )
    if rnd.status == Round.Status.PUBLISHED:
        _reason(reason, message=_("The pairing of round %(n)d is published: say why it is deleted.") % {"n": rnd.number})
    number = rnd.number
    rnd.matches.all().delete()
    rnd.delete()
    if number == 1 and tournament.system != Tournament.System.KNOCKOUT:
        lots.coin_toss_commit(tournament=tournament)  # the next toss has its commitment before it
    if not tournament.rounds.exists() and tournament.status == Tournament.Status.RUNNING:
        tournament.status = Tournament.Status.DRAFT
        tournament.save(update_fields=["status"])
    tournament_touch(tournament)
    return number


@audited("round.reopen")
@transaction.atomic
def round_reopen(*, round: Round, user=None, reason: str = "") -> Round:
    """Reopen the last round after it was closed (closed → published) so results can be entered
    again by referees; a reason is required. Public standings fall back to the round before it; a
    finished event becomes running again and its rating is withdrawn until it is final again.

    Raises Conflict when the round is not closed or a later round exists.
    """
    tournament = round.tournament
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can reopen a round."))
    reason = _reason(reason)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    rnd = Round.objects.select_for_update().get(pk=round.pk)
    if rnd.status != Round.Status.CLOSED:
        raise Conflict(_("Only a closed round can be reopened."))
    if tournament.rounds.filter(number__gt=rnd.number).exists():
        raise Conflict(_("Round %(n)d is already paired; delete it before reopening this one.") % {"n": rnd.number + 1})
    rnd.status = Round.Status.PUBLISHED
    rnd.closed_at = None
    rnd.save(update_fields=["status", "closed_at"])
    fields = []
    if tournament.standings_round is not None and tournament.standings_round >= rnd.number:
        if rnd.number > 1:
            tournament.standings_round = rnd.number - 1
            fields.append("standings_round")
        else:
            tournament.standings_round = None
            tournament.standings_published_at = None
            fields += ["standings_round", "standings_published_at"]
    rerate = False
    if tournament.status == Tournament.Status.FINISHED:
        tournament.status = Tournament.Status.RUNNING
        fields.append("status")
        rerate = signals.tournament_was_rated(tournament)
    if fields:
        tournament.save(update_fields=fields)
    tournament_touch(tournament)
    if rerate:
        signals.rerate_on_commit(tournament)
    return rnd


@audited("round.publish")
@transaction.atomic
def round_publish(*, round: Round, user=None) -> Round:
    """Make a paired round's pairing list public (paired → published)."""
    if user is not None:
        access.require(access.can_organise(user, round.tournament), _("Only the organiser can publish pairings."))
    # tournament, round, boards locked in that order (tournaments.races; issue 23): never the round first
    _tournament, round, _boards = races.round_lock(round)
    if round.status != Round.Status.PAIRED:
        raise Conflict(_("Only a paired round can be published (this one is %(s)s).") % {"s": round.get_status_display()})
    round.status = Round.Status.PUBLISHED
    round.published_at = timezone.now()
    round.save(update_fields=["status", "published_at"])
    tournament_touch(round.tournament)
    return round


@audited("round.close")
@transaction.atomic
def round_close(*, round: Round, user=None) -> Round:
    """Close a published round once every board has a result (published → closed)."""
    if user is not None:
        access.require(access.can_organise(user, round.tournament), _("Only the organiser can close rounds."))
    # tournament, round, boards locked in that order (tournaments.races): a result being written meanwhile is
    # waited for and its board seen as written; one written after waits for this close and sees the round closed
    _tournament, round, matches = races.round_lock(round)
    if round.status != Round.Status.PUBLISHED:
        raise Conflict(_("Only a published round can be closed."))
    missing = [m.board for m in matches if m.white_points is None]
    if missing:
        raise Conflict(
            _("Boards without a result: %(b)s.") % {"b": ", ".join(str(b) for b in missing)}, field="matches"
        )
    round.status = Round.Status.CLOSED
    round.closed_at = timezone.now()
    round.save(update_fields=["status", "closed_at"])
    tournament_touch(round.tournament)
    return round


@audited("pairing.change")
@transaction.atomic
def round_swap_pairing(*, round: Round, board_a: int, board_b: int, swap: str, reason: str, user=None) -> Round:
    """Change a pairing by hand before publication: exchange the ``swap`` player ("white"/"black")
    of boards ``board_a`` and ``board_b``. Recorded with who, when and why (PairingChange)."""
    if user is not None:
        access.require(access.can_organise(user, round.tournament))
    _tournament, round, _boards = races.round_lock(round)  # tournament, round, boards (tournaments.races)
    if round.status != Round.Status.PAIRED:
        raise Conflict(_("Pairings can only be changed before they are published."))
    if round.tournament.system == Tournament.System.KNOCKOUT:
        raise Conflict(_("A knockout bracket follows from the seeds and the winners; it is not changed by hand. "
                         "Delete the pairing and pair the round again."))
    if not reason.strip():
        raise ValidationFailed(_("Say why the pairing is changed."), field="reason")
    a = round.matches.select_for_update().filter(board=board_a).first()
    b = round.matches.select_for_update().filter(board=board_b).first()
    if a is None or b is None or a == b:
        raise ValidationFailed(_("Choose two different existing boards."), field="board_b")
    if swap not in ("white", "black") or (swap == "black" and (a.black_id is None or b.black_id is None)):
        raise ValidationFailed(_("Choose white or black of two games."), field="swap")
    before = [[a.board, a.white_id, a.black_id], [b.board, b.white_id, b.black_id]]
    field = f"{swap}_id"
    va, vb = getattr(a, field), getattr(b, field)
    setattr(a, field, vb)
    setattr(b, field, va)
    for m in (a, b):
        if m.black_id is not None and m.white_id == m.black_id:
            raise ValidationFailed(_("A player cannot play themself."), field="swap")
        if m.black_id is not None and Match.objects.filter(
            round__tournament=round.tournament, round__number__lt=round.number, forfeit=""
        ).filter(Q(white_id=m.white_id, black_id=m.black_id) | Q(white_id=m.black_id, black_id=m.white_id)).exists():
            raise ValidationFailed(
                _("%(w)s and %(b)s have already played each other (C.04.1: no rematches).")
                % {"w": m.white.player.full_name, "b": m.black.player.full_name},
                field="swap",
            )
    # move one aside first: (round, board) is unique, entries are not, so a plain save is fine
    a.save(update_fields=[field])
    b.save(update_fields=[field])
    PairingChange.objects.create(
        round=round, user=user if getattr(user, "is_authenticated", False) else None, reason=reason.strip(),
        before=before, after=[[a.board, a.white_id, a.black_id], [b.board, b.white_id, b.black_id]],
    )
    round.modified_by_hand = True
    round.save(update_fields=["modified_by_hand"])
    tournament_touch(round.tournament)
    return round


# --------------------------------------------------------------------------------------------
# Forbidden pairs
# --------------------------------------------------------------------------------------------


def _last_paired_round(tournament: Tournament) -> int:
    return tournament.rounds.aggregate(m=Max("number"))["m"] or 0


def _round_span(first_round: int, last_round: int | None) -> tuple[int, float]:
    return first_round, float("inf") if last_round is None else last_round


@audited("forbidden_pair.add")
@transaction.atomic
def forbidden_pair_add(
    *, tournament: Tournament, first: Entry, second: Entry, first_round: int = 1, last_round: int | None = None,
    reason: str = "", user=None,
) -> ForbiddenPair:
    """Forbid pairing ``first`` with ``second`` in rounds ``first_round`` .. ``last_round`` (blank: to
    the end) of a Swiss — siblings, club mates in the first rounds (C.04.1 allows such restrictions
    when announced). The pairing treats it like the no-rematch rule (an absolute criterion).

    A paired round never changes: the range must start after the last paired round. Recorded in the
    history (who, when, ``reason``). Raises PermissionDenied for anyone but the organisers;
    ValidationFailed naming the field (``second``: the same player twice or another tournament's
    entry, ``first_round``/``last_round``: a range outside the event, backwards or over a paired
    round, ``reason``: too long); Conflict for a round robin (the Berger table fixes its pairings),
    a finished event, or a range overlapping a forbidden pair of the same two players.
    """
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can change forbidden pairs."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.system == Tournament.System.ROUND_ROBIN:
        raise Conflict(_("A round robin's pairings are fixed by the Berger table; forbidden pairs apply to Swiss "
                         "events only."))
    if tournament.system == Tournament.System.KNOCKOUT:
        raise Conflict(_("A knockout bracket follows from the seeds; forbidden pairs apply to Swiss events only."))
    if tournament.status == Tournament.Status.FINISHED:
        raise Conflict(_("The tournament is finished."))
    for field, entry in (("first", first), ("second", second)):
        if entry is None or entry.tournament_id != tournament.pk:
            raise ValidationFailed(_("Choose a player of this tournament."), field=field)
    if first.pk == second.pk:
        raise ValidationFailed(_("Choose two different players."), field="second")
    try:
        first_round = int(first_round)
        last_round = None if last_round in (None, "") else int(last_round)
    except (TypeError, ValueError):
        raise ValidationFailed(_("Rounds are whole numbers."), field="first_round") from None
    n = tournament.rounds_total
    if not 1 <= first_round <= n:
        raise ValidationFailed(_("Round must be between 1 and %(n)d.") % {"n": n}, field="first_round")
    if last_round is not None and not 1 <= last_round <= n:
        raise ValidationFailed(_("Round must be between 1 and %(n)d.") % {"n": n}, field="last_round")
    if last_round is not None and last_round < first_round:
        raise ValidationFailed(_("The last round is before the first one."), field="last_round")
    paired = _last_paired_round(tournament)
    if first_round <= paired:
        if paired >= n or (last_round is not None and last_round <= paired):
            raise ValidationFailed(
                _("Round %(p)d is already paired; a forbidden pair cannot change a paired round and no later "
                  "round is in this range.") % {"p": paired},
                field="last_round" if last_round is not None else "first_round",
            )
        raise ValidationFailed(
            _("Round %(p)d is already paired; a forbidden pair cannot change a paired round: start it at round "
              "%(next)d or later.") % {"p": paired, "next": paired + 1},
            field="first_round",
        )
    if len(reason or "") > ForbiddenPair._meta.get_field("reason").max_length:
        raise ValidationFailed(
            _("At most %(n)d characters.") % {"n": ForbiddenPair._meta.get_field("reason").max_length}, field="reason"
        )
    a, b = sorted((first, second), key=lambda e: e.pk)
    lo, hi = _round_span(first_round, last_round)
    for other in ForbiddenPair.objects.filter(tournament=tournament, first=a, second=b):
        olo, ohi = _round_span(other.first_round, other.last_round)
        if lo <= ohi and olo <= hi:
            raise Conflict(
                _("%(a)s and %(b)s are already a forbidden pair in rounds %(r)s.")
                % {"a": a.player.full_name, "b": b.player.full_name, "r": forbidden_pair_rounds_text(other)},
                field="second",
            )
    pair = ForbiddenPair.objects.create(
        tournament=tournament, first=a, second=b, first_round=first_round, last_round=last_round,
        reason=reason or "", created_by=user if getattr(user, "is_authenticated", False) else None,
    )
    tournament_touch(tournament)
    return pair


def forbidden_pair_rounds_text(pair: ForbiddenPair) -> str:
    """``3``, ``1–4`` or ``2–…`` (open-ended)."""
    if pair.last_round is None:
        return f"{pair.first_round}–…"
    if pair.last_round == pair.first_round:
        return str(pair.first_round)
    return f"{pair.first_round}–{pair.last_round}"


@audited("forbidden_pair.remove")
@transaction.atomic
def forbidden_pair_remove(*, pair: ForbiddenPair, user=None, reason: str = "") -> None:
    """Remove a forbidden pair: the next rounds may pair the two players again (rounds already paired
    stay as they are). Recorded in the history with ``reason`` (optional). Raises PermissionDenied
    for anyone but the organisers; NotFound when it is already gone."""
    from federation.errors import NotFound

    tournament = Tournament.objects.select_for_update().get(pk=pair.tournament_id)
    if user is not None:
        access.require(access.can_organise(user, tournament), _("Only the organiser can change forbidden pairs."))
    row = ForbiddenPair.objects.select_for_update().filter(pk=pair.pk).first()
    if row is None:
        raise NotFound(_("This forbidden pair no longer exists."))
    row.delete()
    tournament_touch(tournament)
