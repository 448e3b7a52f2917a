"""Reads of the drawing of lots (:mod:`tournaments.lots`): a tournament's lots as the public page shows
them — the secret only once revealed."""
from __future__ import annotations

from dataclasses import dataclass

from tournaments.lots import draw
from tournaments.models import Lot, Tournament


@dataclass(frozen=True, slots=True)
class LotLine:
    """A lot of the public page: what it decides, its commitment, and once drawn the secret, the candidates,
    the outcome and the Python lines that check them (``secret``/``check`` are ``None`` before)."""

    id: int
    context: str
    rule: str
    given: bool
    committed_at: object
    revealed_at: object
    purpose_label: str
    commitment: str
    revealed: bool
    secret: str | None
    items: tuple
    outcome: object
    check: str | None


def lot_pending(*, tournament: Tournament, purpose: str, context: str) -> Lot | None:
    """The oldest commitment of ``tournament`` for ``purpose`` and ``context`` not revealed yet."""
    return (Lot.objects.filter(tournament=tournament, purpose=purpose, context=" ".join(context.split()),
                               revealed_at__isnull=True).order_by("committed_at", "id").first())


def tournament_lots(*, tournament: Tournament) -> list[LotLine]:
    """The lots of ``tournament`` in the order they were committed (one query). A lot not drawn yet shows
    its commitment only."""
    out = []
    for lot in Lot.objects.filter(tournament=tournament).order_by("committed_at", "id"):  # secret: read, shown once revealed
        shown = lot.revealed
        out.append(LotLine(
            id=lot.id, context=lot.context, rule=lot.rule, given=lot.given, committed_at=lot.committed_at,
            revealed_at=lot.revealed_at, purpose_label=str(lot.get_purpose_display()), commitment=lot.commitment, revealed=shown,
            secret=lot.secret if shown else None, items=tuple(lot.items or ()) if shown else (),
            outcome=lot.outcome if shown else None,
            check=draw.check_recipe(lot.rule, lot.secret, lot.context, lot.items or ()) if shown else None,
        ))
    return out
