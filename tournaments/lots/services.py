"""Writes of the drawing of lots (:mod:`tournaments.lots`): commit, reveal, draw, and round 1's coin toss.
Writes as in :mod:`tournaments.services`: ``<entity>_<action>``, keyword-only, atomic, audited."""
from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.errors import Conflict, ValidationFailed
from tournaments.lots import draw
from tournaments.models import Lot, Tournament
from tournaments.lots.selectors import lot_pending
from tournaments.services import audited

def _commit(tournament: Tournament, purpose: str, context: str, rule: str, secret: str, *,
            given: bool = False) -> Lot:
    return Lot.objects.create(tournament=tournament, purpose=purpose, context=context, rule=rule,
                              commitment=draw.commitment(secret), secret=secret, given=given,
                              committed_at=timezone.now())


def _check(purpose: str, context: str, rule: str) -> str:
    if purpose not in Lot.Purpose.values:
        raise ValidationFailed(_("Unknown purpose of a lot."), field="purpose")
    if rule not in Lot.Rule.values:
        raise ValidationFailed(_("Unknown rule of a lot."), field="rule")
    context = " ".join(str(context or "").split())
    if not context or len(context) > 200:
        raise ValidationFailed(_("Name the lot in 1 to 200 characters."), field="context")
    return context


def _reveal(lot: Lot, items: Sequence[str] = ()) -> Lot:
    lot = Lot.objects.select_for_update().get(pk=lot.pk)
    if lot.revealed:
        raise Conflict(_("This lot is already drawn."))
    labels = [str(x) for x in items]
    if lot.rule == draw.ORDER and (len(labels) < 2 or len(set(labels)) != len(labels)):
        raise ValidationFailed(_("A lot needs at least two different candidates."), field="items")
    lot.items = labels if lot.rule == draw.ORDER else []
    lot.outcome = draw.outcome(lot.rule, lot.secret, lot.context, lot.items)
    lot.revealed_at = timezone.now()
    lot.save(update_fields=["items", "outcome", "revealed_at"])
    return lot


@audited("lot.commit")
@transaction.atomic
def lot_commit(*, tournament: Tournament, purpose: str, context: str, rule: str = draw.ORDER, user=None) -> Lot:
    """Commit a lot ahead of the draw: a fresh random secret is kept on the server and only its SHA-256
    (``commitment``) is published. Raises ValidationFailed for an unknown purpose or rule or an empty
    ``context``."""
    context = _check(purpose, context, rule)
    return _commit(tournament, purpose, context, rule, draw.new_secret())


@audited("lot.reveal")
@transaction.atomic
def lot_reveal(*, lot: Lot, items: Sequence[str] = (), user=None) -> Lot:
    """Reveal ``lot``: publish its secret and draw the outcome by its rule (``items``: the candidates, as
    text, in starting-number order; a coin takes none). Raises Conflict when the lot is already revealed,
    ValidationFailed when an ``order`` lot gets fewer than two candidates or the same one twice."""
    return _reveal(lot, items)


@transaction.atomic
def lot_draw(*, tournament: Tournament, purpose: str, context: str, items: Sequence[str], user=None) -> Lot:
    """Draw the lot ``context`` now: reveal the commitment made for it ahead (:func:`lot_commit`), or commit
    and reveal at once when none was made. Returns the revealed lot (``outcome``: the drawn order, the first
    wins)."""
    lot = lot_pending(tournament=tournament, purpose=purpose, context=context)
    if lot is None:
        lot = lot_commit(tournament=tournament, purpose=purpose, context=context, user=user)
    return lot_reveal(lot=lot, items=items, user=user)


def coin_toss_commit(*, tournament: Tournament) -> Lot:
    """Commit round 1's coin toss again when round 1's pairing is deleted (the first commitment is made when
    the tournament is created: :func:`tournaments.services.tournament_create`): the commitment is public
    before the toss."""
    return _commit(tournament, Lot.Purpose.COIN_TOSS, draw.COIN_TOSS_CONTEXT, draw.COIN, draw.new_secret())


@transaction.atomic
def coin_toss_lot(*, tournament: Tournament, coin_seed: str | None = None, user=None) -> Lot:
    """Round 1's coin toss as a revealed lot: the pending commitment's secret decides (:func:`draw.coin`),
    committed now when there is none. A ``coin_seed`` given by the organiser (or a test) replaces the pending
    commitment — nothing was drawn from it — and is recorded as a seeded toss (``given``), committed and
    revealed at once. The secret is the :class:`~tournaments.models.CoinToss` seed."""
    pending = Lot.objects.filter(tournament=tournament, purpose=Lot.Purpose.COIN_TOSS, revealed_at__isnull=True)
    if coin_seed:
        pending.delete()
        lot = _commit(tournament, Lot.Purpose.COIN_TOSS, draw.COIN_TOSS_CONTEXT, draw.COIN, coin_seed, given=True)
    else:
        lot = pending.order_by("committed_at", "id").first() or coin_toss_commit(tournament=tournament)
    return _reveal(lot)
