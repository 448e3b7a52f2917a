"""The history of everything: who, when, why, before and after — on django-simple-history.

Why django-simple-history (and not django-auditlog): it stores a full snapshot of the row for every
change (``HistoricalX`` tables), so "before" and "after" are rows we can show, compare and restore
(``instance.history.as_of(t)``), not a JSON diff we would have to replay; it has a change reason and a
user built in, an admin history page with revert, and extra fields on the history rows (``bases=``),
which we use to group the rows of one action and to find a tournament's history with one index.

Every service that writes opens an :func:`audit_context` naming the *action* (e.g.
``"result.correct"``), the user, the reason and the tournament. Each history row written inside it
gets those values (:func:`_fill_history_row`), plus an ``audit_action_id`` shared by every row of the
same action, so a correction that replaces three sets and changes a match reads as one event
(:mod:`tournaments.history.selectors`). Rows written outside any context (the admin, a shell) get the request
user from ``simple_history``'s middleware and an action id of their own.
"""
from __future__ import annotations

import contextvars
import functools
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, replace

from django.db import models
from django.dispatch import receiver
from simple_history.signals import pre_create_historical_record


@dataclass(frozen=True, slots=True)
class AuditContext:
    """What the history rows of one action carry: ``action`` (dotted name), ``action_id`` (32 hex
    characters, shared by the rows of one action), ``user`` (or None), ``reason`` (may be empty) and
    ``tournament_id`` (or None)."""

    action: str
    action_id: str
    user: object | None = None
    reason: str = ""
    tournament_id: int | None = None


_current: contextvars.ContextVar[AuditContext | None] = contextvars.ContextVar("audit_context", default=None)


def current() -> AuditContext | None:
    """The innermost active :class:`AuditContext`, or None."""
    return _current.get()


@contextmanager
def audit_context(*, action: str, user=None, reason: str = "", tournament_id: int | None = None):
    """Run a block as one audited action.

    Nested contexts belong to the outer action (same ``action`` and ``action_id``): a service that
    calls another service is one event in the history. A nested context may add what the outer one
    lacks (a user, a reason, a tournament). ``user`` that is not authenticated is stored as None.
    """
    if not getattr(user, "is_authenticated", False):
        user = None
    outer = _current.get()
    if outer is None:
        ctx = AuditContext(action=action, action_id=uuid.uuid4().hex, user=user, reason=(reason or "").strip(),
                           tournament_id=tournament_id)
    else:
        ctx = replace(
            outer,
            user=outer.user or user,
            reason=outer.reason or (reason or "").strip(),
            tournament_id=outer.tournament_id or tournament_id,
        )
    token = _current.set(ctx)
    try:
        yield ctx
    finally:
        _current.reset(token)


def history(**kwargs):
    """``HistoricalRecords`` as every tracked model of the product uses it: the audit columns of
    :class:`AuditedHistoryModel` and a change reason of any length."""
    from simple_history.models import HistoricalRecords

    kwargs.setdefault("history_change_reason_field", models.TextField(null=True, blank=True))
    return HistoricalRecords(bases=[AuditedHistoryModel], **kwargs)


class AuditedHistoryModel(models.Model):
    """Extra columns of every history table: the action, the id grouping one action's rows and the
    tournament the row belongs to (for ``GET /api/tournaments/{slug}/history/``)."""

    audit_action = models.CharField(max_length=40, blank=True, default="")
    audit_action_id = models.CharField(max_length=32, blank=True, default="", db_index=True)
    audit_tournament_id = models.BigIntegerField(null=True, blank=True, db_index=True)

    class Meta:
        abstract = True


def _tournament_id_of(instance) -> int | None:
    """The tournament a tracked row belongs to, without a query where the row knows it."""
    name = type(instance).__name__
    if name == "Tournament":
        return instance.pk
    if hasattr(instance, "tournament_id"):
        return instance.tournament_id
    if name == "Match":
        return _cached_or_query(instance, "round", "tournament_id")
    if name == "SetResult":  # one query through the match to its round (federation names no tournaments model)
        match_model = type(instance)._meta.get_field("match").related_model
        return match_model.objects.filter(pk=instance.match_id).values_list("round__tournament_id", flat=True).first()
    if name == "Absence":
        return _cached_or_query(instance, "entry", "tournament_id")
    if name == "TeamMember":  # team championships (tournaments/teams/services.py)
        return _cached_or_query(instance, "team", "tournament_id")
    if name == "TeamMatch":
        return _cached_or_query(instance, "round", "tournament_id")
    return None


def _cached_or_query(instance, relation: str, attr: str):
    field = type(instance)._meta.get_field(relation)
    if field.is_cached(instance):
        return getattr(getattr(instance, relation), attr)
    related_id = getattr(instance, f"{relation}_id")
    return field.related_model.objects.filter(pk=related_id).values_list(attr, flat=True).first()


@receiver(pre_create_historical_record)
def _fill_history_row(sender, instance, history_instance, **kwargs):
    """Give a new history row the current action, user, reason and tournament."""
    if not isinstance(history_instance, AuditedHistoryModel):
        return
    ctx = _current.get()
    if ctx is not None:
        history_instance.audit_action = ctx.action[:40]
        history_instance.audit_action_id = ctx.action_id
        if ctx.user is not None:
            history_instance.history_user = ctx.user
        if ctx.reason and not history_instance.history_change_reason:
            history_instance.history_change_reason = ctx.reason
    else:
        history_instance.audit_action = {"+": "create", "~": "edit", "-": "delete"}.get(
            history_instance.history_type, "edit"
        )
        history_instance.audit_action_id = uuid.uuid4().hex
    name = type(instance).__name__
    tid = None
    if name in ("Tournament", "Entry", "Round", "TournamentRole", "ForbiddenPair", "Category", "Prize", "Team"):
        tid = _tournament_id_of(instance)  # the row names it: no query
    elif name in ("Match", "SetResult", "Absence", "TeamMember", "TeamMatch"):
        # inside a tournament's action the context names it (no query per row on the result-entry path)
        tid = (ctx.tournament_id if ctx is not None and ctx.tournament_id else None) or _tournament_id_of(instance)
    history_instance.audit_tournament_id = tid


@functools.cache
def _historical_model(model):
    """``model.history.model`` — looked up once (each ``model.history`` builds a manager class)."""
    return model.history.model


def history_bulk_create(model, changes) -> list:
    """Write the history rows of ``changes`` — ``(instance, history_type)`` pairs of one tracked
    ``model``, ``history_type`` ``"+"`` (created), ``"~"`` (changed) or ``"-"`` (deleted) — in one
    ``INSERT``, for rows written without their signals (``bulk_create``, a queryset delete).

    Each row is what django-simple-history's ``post_save``/``post_delete`` would have written, in the
    order given: a snapshot of the tracked fields, ``history_date`` (one time for the batch, or the
    instance's ``_history_date``), ``history_user`` (the instance's ``_history_user``, else the request's
    user from simple-history's middleware), ``history_change_reason`` (the instance's ``_change_reason``);
    then :func:`_fill_history_row` (through ``pre_create_historical_record``) adds the current action, its
    user, reason and tournament, as for a row saved one by one. ``post_create_historical_record`` is sent
    for each row after the insert. Returns the history rows (empty when history is off)."""
    from django.conf import settings
    from django.utils import timezone
    from simple_history.models import HistoricalRecords
    from simple_history.signals import post_create_historical_record
    from simple_history.utils import get_change_reason_from_object

    from federation.prepared import insert_rows

    if not getattr(settings, "SIMPLE_HISTORY_ENABLED", True):
        return []
    historical = _historical_model(model)
    fields = historical.tracked_fields
    now = timezone.now()
    request_user = None
    request = getattr(HistoricalRecords.context, "request", None)
    if request is not None and getattr(getattr(request, "user", None), "is_authenticated", False):
        request_user = request.user
    rows = []
    for instance, history_type in changes:
        if history_type not in ("+", "~", "-"):
            raise ValueError(f"history_type must be '+', '~' or '-', not {history_type!r}")
        date = getattr(instance, "_history_date", now)
        user = getattr(instance, "_history_user", request_user)
        reason = get_change_reason_from_object(instance)
        row = historical(
            history_date=date, history_type=history_type, history_user=user, history_change_reason=reason,
            **{f.attname: getattr(instance, f.attname) for f in fields},
        )
        pre_create_historical_record.send(
            sender=historical, instance=instance, history_date=date, history_user=user,
            history_change_reason=reason, history_instance=row, using=None,
        )
        rows.append((instance, row))
    insert_rows([row for _instance, row in rows])  # as bulk_create, its statement built once
    for instance, row in rows:
        post_create_historical_record.send(
            sender=historical, instance=instance, history_instance=row, history_date=row.history_date,
            history_user=row.history_user, history_change_reason=row.history_change_reason, using=None,
        )
    return [row for _instance, row in rows]
