"""What tournaments tells the apps above it (ratings) without importing them (docs/architecture.md).

Imports run one way — federation → games → tournaments → ratings — so a tournament never calls the rating
code: it sends these signals and ``ratings.apps.RatingsConfig.ready`` connects the receivers.
"""
from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

#: A rated input of a tournament changed (final standings published, a correction to a finished rated
#: event, a deletion/restore, an archive import of a rateable event). Sent once the transaction commits,
#: with ``tournament_id`` (int). Ratings queues the rating run of that event and every later one.
rated_results_changed = Signal()

#: "Has this tournament been rated?" Sent with ``tournament_id`` (int); a receiver answers True or False.
rated_probe = Signal()


def rerate_on_commit(tournament) -> None:
    """Send :data:`rated_results_changed` for ``tournament`` once the current transaction commits
    (at once outside a transaction). Receivers are idempotent."""
    tid = tournament.pk
    transaction.on_commit(lambda: rated_results_changed.send(sender=type(tournament), tournament_id=tid))


def tournament_was_rated(tournament) -> bool:
    """True when a receiver of :data:`rated_probe` says ``tournament`` has been rated (False with none)."""
    return any(bool(answer) for _, answer in rated_probe.send(sender=type(tournament), tournament_id=tournament.pk))
