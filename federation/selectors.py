"""Reads of the member register that more than one page or endpoint needs."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from federation.errors import NotFound
from federation.models import Club, Player

#: Longest ``merged_into`` chain followed (services keep chains one step long; this guards a loop).
_MAX_CHAIN = 20


def player_resolve(federation_id: str) -> Player:
    """The surviving record of ``federation_id``: the player itself, or — when it was merged — the
    player it was merged into, following ``merged_into`` to the end. The club is selected with it.
    :class:`NotFound` (field ``federation_id``) when no player has that id."""
    qs = Player.objects.select_related("club")
    player = qs.filter(federation_id=federation_id).first() or qs.filter(federation_id__iexact=federation_id).first()
    if player is None:
        raise NotFound(_("No player with federation id %(id)s.") % {"id": federation_id}, field="federation_id")
    seen = {player.pk}
    while player.merged_into_id is not None and len(seen) <= _MAX_CHAIN:
        player = Player.objects.select_related("club").get(pk=player.merged_into_id)
        if player.pk in seen:
            break
        seen.add(player.pk)
    return player


# --------------------------------------------------------------------------------------------
# Change history of players and clubs (django-simple-history rows, see federation.audit)
# --------------------------------------------------------------------------------------------

#: How many history rows of one record a page shows (newest first).
HISTORY_LIMIT = 100

_ACTION_LABELS = {
    "player.create": _lazy("registered"),
    "player.edit": _lazy("edited"),
    "player.deactivate": _lazy("deactivated"),
    "player.activate": _lazy("activated"),
    "player.merge": _lazy("merged"),
    "player.anonymise": _lazy("anonymised"),
    "club.create": _lazy("created"),
    "club.edit": _lazy("edited"),
    "club.deactivate": _lazy("deactivated"),
    "club.activate": _lazy("activated"),
}
_TYPE_LABELS = {"+": _lazy("created"), "~": _lazy("changed"), "-": _lazy("deleted")}


@dataclass(frozen=True, slots=True)
class FieldChange:
    """One field of one history row: its label and the values before and after, as text ("" = empty)."""

    field: str
    label: str
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One change of a record: when, who (a user or None), the action (dotted name) and its label, the
    reason, the record's federation id or name at that time (``subject``) and the fields that changed
    (for a creation: the values it was created with)."""

    at: dt.datetime
    user: object | None
    action: str
    action_label: str
    reason: str
    subject: str
    changes: tuple[FieldChange, ...]


def _fields(model) -> list:
    """The fields the history of ``model`` tracks (``Player.rating`` is not: the rating run owns it)."""
    return [f for f in model.history.model.tracked_fields if f.name != "id" and f.editable]


def _value_text(field, value, names: dict) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if field.is_relation:
        return names.get((field.related_model, value), f"#{value}")
    if field.choices:
        return str(dict(field.flatchoices).get(value, value))
    return str(value)


def _related_names(model, records) -> dict:
    """Display names of every related row the records point to, one query per relation."""
    names: dict = {}
    for f in _fields(model):
        if not f.is_relation:
            continue
        ids = {getattr(r, f.attname) for r in records} - {None}
        if not ids:
            continue
        rel = f.related_model
        if rel is Player:
            rows = rel.objects.filter(pk__in=ids).values_list("pk", "federation_id")
        elif rel is Club:
            rows = rel.objects.filter(pk__in=ids).values_list("pk", "name")
        else:  # the user
            rows = [(u.pk, u.get_username()) for u in rel.objects.filter(pk__in=ids)]
        names.update({(rel, pk): str(text) for pk, text in rows})
    return names


def _rows_of(model, records: list, subject_field: str) -> list[HistoryRow]:
    """``records`` = one object's history rows, newest first."""
    if not records:
        return []
    oldest = records[-1]
    before_window = oldest.prev_record if oldest.history_type != "+" else None
    names = _related_names(model, records + ([before_window] if before_window is not None else []))
    fields = _fields(model)
    out = []
    for i, rec in enumerate(records):
        prev = records[i + 1] if i + 1 < len(records) else before_window
        changes = []
        for f in fields:
            new = getattr(rec, f.attname)
            old = getattr(prev, f.attname) if prev is not None and rec.history_type != "+" else None
            if rec.history_type == "+" or prev is None:
                if new in (None, "") or (f.name == "active" and new is True):
                    continue
            elif old == new:
                continue
            changes.append(FieldChange(f.name, str(f.verbose_name), _value_text(f, old, names), _value_text(f, new, names)))
        label = _ACTION_LABELS.get(rec.audit_action) or _TYPE_LABELS.get(rec.history_type, rec.audit_action)
        out.append(
            HistoryRow(
                at=rec.history_date, user=rec.history_user, action=rec.audit_action or "", action_label=str(label),
                reason=rec.history_change_reason or "", subject=str(getattr(rec, subject_field)),
                changes=tuple(changes),
            )
        )
    return out


def player_change_history(player: Player) -> list[HistoryRow]:
    """The change history of ``player`` and of every record merged into it, newest first (at most
    :data:`HISTORY_LIMIT` rows per record)."""
    ids = [player.pk, *player.merged_records.values_list("pk", flat=True)]
    rows: list[HistoryRow] = []
    for pk in ids:
        records = list(
            Player.history.filter(id=pk).select_related("history_user").order_by("-history_date", "-history_id")[
                :HISTORY_LIMIT
            ]
        )
        rows.extend(_rows_of(Player, records, "federation_id"))
    rows.sort(key=lambda r: r.at, reverse=True)
    return rows


def club_change_history(club: Club) -> list[HistoryRow]:
    """The change history of ``club``, newest first (at most :data:`HISTORY_LIMIT` rows)."""
    records = list(
        club.history.select_related("history_user").order_by("-history_date", "-history_id")[:HISTORY_LIMIT]
    )
    return _rows_of(Club, records, "name")


def club_q(value: str, *, prefix: str = "club") -> Q:
    """A filter on a player's club given as the club's id or short name (``"12"`` or ``"AMK"``); ids
    beyond 9 digits cannot exist and match nothing (no integer overflow in the database)."""
    value = (value or "").strip()
    if value.isdigit():
        return Q(**{f"{prefix}_id": int(value)}) if len(value) <= 9 else Q(pk__in=[])
    return Q(**{f"{prefix}__short_name__iexact": value})


def name_search_q(text: str, *, max_words: int = 6) -> Q:
    """Players whose first or last name contains every word of ``text`` — in Turkish case rules
    ("ışık" finds "IŞIK" and "Işık", "inci" finds "İnci") — or whose federation id equals a word.
    At most ``max_words`` words of the first 100 characters are used (bounded work)."""
    from federation.collation import turkish_case_variants

    q = Q()
    for word in (text or "")[:100].replace(",", " ").split()[:max_words]:
        any_form = Q(federation_id__iexact=word)
        for form in turkish_case_variants(word):
            any_form |= Q(first_name__icontains=form) | Q(last_name__icontains=form)
        q &= any_form
    return q
