"""Counters of data that cached pages show across tournaments (:class:`federation.models.DataVersion`).

``members`` changes with every saved or deleted player or club (signals, so the admin, the imports and
the services are all counted), ``ratings`` with every rating run (:mod:`ratings.services`, which
writes in bulk, bumps it itself). A counter is bumped once per transaction, *after* it commits
(``transaction.on_commit``): a reader that reads the old value meanwhile computes from data at least
as new as that value, never older — the same rule as the tournament versions (tournaments/caching.py).
The rating list is cached under both counters (:func:`ratings.selectors.rating_list`).
"""
from __future__ import annotations

from django.db import IntegrityError, connection, transaction
from django.db.models import F

#: The counters there are.
NAMES = ("members", "ratings")


def current(*names: str) -> tuple[int, ...]:
    """The values of counters ``names`` (0 for one never bumped), in that order; one query."""
    from federation.models import DataVersion

    values = dict(DataVersion.objects.filter(name__in=names).values_list("name", "value"))
    return tuple(values.get(n, 0) for n in names)


def bump_now(name: str) -> None:
    """``value = value + 1`` for counter ``name`` (created at 1 if missing), in the current transaction."""
    from federation.models import DataVersion

    if name not in NAMES:
        raise ValueError(f"unknown data version {name!r}; known: {', '.join(NAMES)}")
    if DataVersion.objects.filter(name=name).update(value=F("value") + 1):
        return
    try:
        with transaction.atomic():
            DataVersion.objects.create(name=name, value=1)
    except IntegrityError:  # created meanwhile by another writer: count this one too
        DataVersion.objects.filter(name=name).update(value=F("value") + 1)


class _Bump:
    """The on-commit callback of one counter; one per transaction (see :func:`bump_on_commit`)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self) -> None:
        bump_now(self.name)


def bump_on_commit(name: str) -> None:
    """Bump counter ``name`` once the current transaction commits (at once outside a transaction); a
    second call in the same transaction adds nothing."""
    if name not in NAMES:
        raise ValueError(f"unknown data version {name!r}; known: {', '.join(NAMES)}")
    if connection.in_atomic_block and any(
        isinstance(func, _Bump) and func.name == name for _sids, func, _robust in connection.run_on_commit
    ):
        return
    transaction.on_commit(_Bump(name))


def _members_changed(sender, **kwargs) -> None:
    if kwargs.get("raw"):  # loaddata: no signal work
        return
    bump_on_commit("members")


def connect_signals() -> None:
    """Count every save and delete of a player or club (called from ``FederationConfig.ready``)."""
    from django.db.models.signals import post_delete, post_save

    from federation.models import Club, Player

    for model in (Player, Club):
        post_save.connect(_members_changed, sender=model, dispatch_uid=f"versions-{model.__name__}-save")
        post_delete.connect(_members_changed, sender=model, dispatch_uid=f"versions-{model.__name__}-delete")
