"""Reads of the member register that more than one page or endpoint needs."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from federation.collation import search_fold
from federation import signals
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
    "player.create": gettext_lazy("registered"),
    "player.edit": gettext_lazy("edited"),
    "player.deactivate": gettext_lazy("deactivated"),
    "player.activate": gettext_lazy("activated"),
    "player.merge": gettext_lazy("merged"),
    "player.anonymise": gettext_lazy("anonymised"),
    "player.link_user": gettext_lazy("login changed"),
    "club.create": gettext_lazy("created"),
    "club.edit": gettext_lazy("edited"),
    "club.deactivate": gettext_lazy("deactivated"),
    "club.activate": gettext_lazy("activated"),
}
_TYPE_LABELS = {"+": gettext_lazy("created"), "~": gettext_lazy("changed"), "-": gettext_lazy("deleted")}


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
    """A filter on a player's club given as the club's id or short name (``"12"``, ``"AMK"``, ``"amk"``;
    the short name compared folded, so "izok" finds "İZOK"); ids beyond 9 digits cannot exist and match
    nothing (no integer overflow in the database)."""
    value = (value or "").strip()
    if value.isascii() and value.isdigit():
        return Q(**{f"{prefix}_id": int(value)}) if len(value) <= 9 else Q(pk__in=[])
    key = search_fold(value)
    if not key:
        return Q(pk__in=[])
    return Q(**{f"{prefix}__short_key": key})


def city_q(value: str, *, field: str = "city") -> Q:
    """Rows whose city is ``value`` folded (:func:`federation.collation.search_fold`): "ISTANBUL",
    "istanbul" and "İstanbul" are one city. ``field`` names the stored key's source (``"city"`` →
    ``city_key``, ``"club__city"`` → ``club__city_key``)."""
    return Q(**{f"{field}_key": search_fold(value)})


def search_words(text: str, *, max_words: int = 6) -> list[tuple[str, str]]:
    """The words of a search as typed and folded (``[("Güneş", "gunes"), …]``): at most ``max_words``
    words of the first 100 characters (bounded work), commas count as spaces, words that fold to nothing
    are dropped."""
    words = (text or "")[:100].replace(",", " ").split()[:max_words]
    return [(w, key) for w, key in ((w, search_fold(w)) for w in words) if key]


def name_search_q(text: str, *, max_words: int = 6) -> Q:
    """Players whose first or last name contains every word of ``text``, or whose federation id equals a
    word. Names are compared folded (:func:`federation.collation.search_fold` on both sides: the stored
    ``Player.search_key`` and the query), so the keyboard is forgiven: "gunes" and "GÜNEŞ" find "Güneş",
    "ışık", "ISIK" and "Işık" find "IŞIK", "ismail" finds "İSMAİL" — the same on SQLite and PostgreSQL."""
    q = Q()
    for word, key in search_words(text, max_words=max_words):
        q &= Q(federation_id__iexact=word) | Q(search_key__contains=key)
    return q


def player_search_q(text: str, *, max_words: int = 6) -> Q:
    """Players matching every word of ``text`` in their name or federation id (:func:`name_search_q`), their
    city, or their club's name or short name (a player without a city: the club's city), all compared
    folded — so "ISTANBUL", "istanbul" and "İstanbul" find the players of İstanbul and "izmir" the members
    of "İzmir Mangala Kulübü". The search box of the player list and the rating list.

    The clubs a word matches are found first (one query over the clubs, a few hundred rows), so each
    word's condition names columns of the player table only (``club_id IN (…)``): PostgreSQL combines
    the trigram indexes of ``search_key`` and ``city_key`` (migration ``federation.0006``), the index of
    ``UPPER(federation_id)`` and the club index instead of scanning every player. Same rows as the
    joined condition ``club__search_key__contains`` would give."""
    words = search_words(text, max_words=max_words)
    if not words:
        return Q()
    clubs = list(Club.objects.order_by().values_list("pk", "search_key", "short_key", "city_key"))
    q = Q()
    for word, key in words:
        by_name = [pk for pk, name, short, _city in clubs if key in name or key in short]
        by_city = [pk for pk, _name, _short, city in clubs if key in city]
        q &= (Q(federation_id__iexact=word) | Q(search_key__contains=key) | Q(city_key__contains=key)
              | Q(club_id__in=by_name) | (Q(city="") & Q(club_id__in=by_city)))
    return q


def club_search_q(text: str, *, max_words: int = 6) -> Q:
    """Clubs whose name, short name or city contains every word of ``text``, compared folded like
    :func:`name_search_q` ("izmir" finds "İzmir Mangala Kulübü")."""
    q = Q()
    for _word, key in search_words(text, max_words=max_words):
        q &= Q(search_key__contains=key) | Q(short_key__contains=key) | Q(city_key__contains=key)
    return q


# --------------------------------------------------------------------------------------------
# People: the next federation id, accounts for the staff pages
# --------------------------------------------------------------------------------------------

#: The federation's own ids: ``TMF-0001`` … (sample data, registrations). Imported players keep their
#: FIDE id or get ``T<tournament>-<no>``; those are left out of the numbering.
FEDERATION_ID_PREFIX = "TMF-"
FEDERATION_ID_DIGITS = 4


def player_next_federation_id(*, prefix: str = FEDERATION_ID_PREFIX, digits: int = FEDERATION_ID_DIGITS) -> str:
    """The next federation id of the form ``TMF-0041``: one more than the highest ``TMF-<number>`` in
    use (merged and anonymised records keep theirs, so no id is handed out twice), zero-padded to
    ``digits`` (more when the numbers grew longer); ``TMF-0001`` for the first player."""
    import re

    pattern = re.compile(rf"^{re.escape(prefix)}(\d+)$", re.IGNORECASE)
    highest, width = 0, digits
    for fid in Player.objects.filter(federation_id__istartswith=prefix).values_list("federation_id", flat=True):
        m = pattern.match(fid)
        if m:
            highest = max(highest, int(m.group(1)))
            width = max(width, len(m.group(1)))
    n = highest + 1
    while True:  # a taken id of another spelling (tmf-41) is never suggested
        candidate = f"{prefix}{n:0{width}d}"
        if not Player.objects.filter(federation_id__iexact=candidate).exists():
            return candidate
        n += 1


def user_list(*, q: str = "", role: str = ""):
    """Accounts for the staff page, by user name: with their groups, tournament roles and player.
    ``q`` matches the user name, names or e-mail; ``role`` keeps ``staff``, ``organiser``, ``referee``
    (global group or a tournament role) or ``player`` (a linked player) accounts."""
    from django.contrib.auth import get_user_model

    from federation import roles as r

    # the tournament roles (the tournaments' model, never imported here) by their relation's name
    qs = get_user_model().objects.order_by("username").prefetch_related(
        "groups", "tournament_roles__tournament",
    ).select_related("player")
    q = (q or "").strip()[:100]
    from federation.collation import turkish_case_variants

    for word in q.split()[:6]:  # Turkish case rules: "YILMAZ" and "yılmaz" find "Yılmaz"
        any_form = Q()
        for form in turkish_case_variants(word):
            any_form |= (Q(username__icontains=form) | Q(first_name__icontains=form) | Q(last_name__icontains=form)
                         | Q(email__icontains=form))
        qs = qs.filter(any_form)
    if role == r.STAFF:
        qs = qs.filter(Q(is_staff=True) | Q(is_superuser=True) | Q(groups__name=r.STAFF))
    elif role in (r.ORGANISER, r.REFEREE):
        qs = qs.filter(Q(groups__name=role) | Q(tournament_roles__role=role))
    elif role == "player":
        qs = qs.filter(player__isnull=False)
    return qs.distinct()


@dataclass(frozen=True, slots=True)
class AccountEvent:
    """One line of an account's history: when, by whom (a user or None), what (``action`` key and
    label), the detail and the tournament it concerns (or None)."""

    at: dt.datetime
    by: object | None
    action: str
    label: str
    detail: str
    tournament: object | None = None


#: The labels of an account's history lines by action (also those the apps above add:
#: :data:`federation.signals.account_history_read`).
ACCOUNT_LABELS = {
    "user.create": gettext_lazy("account created"),
    "password.set": gettext_lazy("temporary password set"),
    "password.link": gettext_lazy("password link e-mailed"),
    "password.reset": gettext_lazy("password chosen through an e-mailed link"),
    "role.assign": gettext_lazy("tournament role given"),
    "role.remove": gettext_lazy("tournament role taken away"),
    "player.link_user": gettext_lazy("login linked to a player"),
}
#: Words of the admin-log details of ``user.create`` shown translated.
_DETAIL_WORDS = {
    "referee": gettext_lazy("referee"), "organiser": gettext_lazy("organiser"), "player": gettext_lazy("player"),
    "federation-wide": gettext_lazy("every tournament"), "temporary password": gettext_lazy("temporary password"),
}


def account_history(account, *, limit: int = 50) -> list[AccountEvent]:
    """What was done to ``account``, newest first: admin-log lines (created, passwords), what the apps above
    add (:data:`federation.signals.account_history_read`; tournaments: its tournament roles given and taken)
    and its player links."""
    from django.contrib.admin.models import LogEntry
    from django.contrib.contenttypes.models import ContentType

    events: list[AccountEvent] = []
    ct = ContentType.objects.get_for_model(account, for_concrete_model=False)
    for e in LogEntry.objects.filter(content_type=ct, object_id=str(account.pk)).select_related("user")[:limit]:
        key, _sep, detail = (e.change_message or "").partition(": ")
        label = ACCOUNT_LABELS.get(key) or e.get_change_message() or key
        if key == "user.create":
            detail = ", ".join(str(_DETAIL_WORDS.get(w, w)) for w in detail.split(", ") if w)
        events.append(AccountEvent(at=e.action_time, by=e.user, action=key, label=str(label), detail=detail))
    events.extend(signals.collected(signals.account_history_read, account=account, limit=limit))
    prow = Player.history.filter(user_id=account.pk).select_related("history_user").order_by("-history_date")
    for r in prow[:limit]:
        if r.audit_action != "player.link_user":
            continue
        events.append(AccountEvent(at=r.history_date, by=r.history_user, action=r.audit_action,
                                   label=str(ACCOUNT_LABELS[r.audit_action]), detail=r.federation_id))
    events.sort(key=lambda ev: ev.at, reverse=True)
    return events[:limit]
