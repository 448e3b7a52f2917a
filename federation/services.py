"""Writes to the member register (``<entity>_<action>``, keyword-only, atomic).

Every write runs inside :func:`federation.audit.audit_context`, so the history rows it leaves
(``player.history``, ``club.history``, ``entry.history``) carry the action, the user and the reason.
Editing, (de)activating and merging are for federation staff (:func:`federation.roles.is_staff`);
anyone else gets :class:`PermissionDenied`. ``Player.rating`` is never written here except by
:func:`player_register` (the starting rating) and :func:`player_merge` (the merged record's, to 0):
the rating run owns it.
"""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from federation import roles, signals
from federation.audit import audit_context
from federation.errors import Conflict, PermissionDenied, ValidationFailed
from federation.input_checks import clean_reason_text, clean_text, require_staff, save_fields
from federation.models import Club, Player

#: Player fields :func:`player_update` may change, with their longest text (None: not text).
PLAYER_EDITABLE = {
    "federation_id": 20, "first_name": 60, "last_name": 60, "sex": None, "birth_year": None, "club": None, "city": 60,
}
#: Club fields :func:`club_create` / :func:`club_update` may set, with their longest text.
CLUB_EDITABLE = {"name": 120, "short_name": 12, "city": 60}



# --------------------------------------------------------------------------------------------
# Checks shared by the services
# --------------------------------------------------------------------------------------------


def _members_changed(*, players=(), clubs=()) -> None:
    """Tell the apps above that ``players`` or the players of ``clubs`` changed
    (:data:`federation.signals.members_changed`): tournaments bump the version of every tournament with an
    entry of one of them — their standings, crosstables and PDFs show names and clubs, and their cached
    copies are keyed on that version."""
    players, clubs = [getattr(p, "pk", p) for p in players], [getattr(c, "pk", c) for c in clubs]
    if not players and not clubs:
        return
    signals.members_changed.send(sender=Player, players=players, clubs=clubs)


def _federation_id(value) -> str:
    fid = clean_text(value, model=Player, field="federation_id", max_length=20)
    if not fid:
        raise ValidationFailed(_("A player needs a federation id."), field="federation_id")
    if any(ch.isspace() for ch in fid) or "/" in fid:
        raise ValidationFailed(_("A federation id has no spaces and no slash."), field="federation_id")
    return fid


def _birth_year(value) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationFailed(_("The birth year must be a whole number."), field="birth_year")
    if not 1900 <= value <= 2100:
        raise ValidationFailed(_("The birth year must be between 1900 and 2100."), field="birth_year")
    return value


def _sex(value) -> str:
    value = value or ""
    if value not in ("", "m", "f"):
        raise ValidationFailed(_("Sex is m or f."), field="sex")
    return value


# --------------------------------------------------------------------------------------------
# Players
# --------------------------------------------------------------------------------------------


@transaction.atomic
def player_register(
    *,
    federation_id: str,
    first_name: str,
    last_name: str,
    sex: str = "",
    birth_year: int | None = None,
    club: Club | None = None,
    city: str = "",
    rating: int = 0,
    user=None,
    reason: str = "",
) -> Player:
    """Register a new player (organisers and staff); ``reason`` goes on the history row.

    ``federation_id`` must be new (Conflict otherwise, naming the existing player); ``rating`` in
    0..4000 rating points (0 = unrated); ``birth_year`` 1900..2100; texts no longer than their columns
    and without control characters; a deactivated club is refused. Raises ValidationFailed with the
    field at fault.
    """
    if user is not None and not (roles.is_staff(user) or roles.in_group(user, roles.ORGANISER)):
        raise PermissionDenied(_("Only organisers can register players."))
    federation_id = _federation_id(federation_id)
    last_name = clean_text(last_name, model=Player, field="last_name", max_length=60)
    if not last_name:
        raise ValidationFailed(_("A player needs a last name."), field="last_name")
    first_name = clean_text(first_name, model=Player, field="first_name", max_length=60)
    city = clean_text(city, model=Player, field="city", max_length=60)
    existing = Player.objects.filter(federation_id__iexact=federation_id).first()  # TMF-1 = tmf-1
    if existing is not None:
        raise Conflict(
            _("Federation id %(id)s is already %(p)s.") % {"id": federation_id, "p": existing.full_name},
            field="federation_id",
        )
    sex = _sex(sex)
    birth_year = _birth_year(birth_year)
    if club is not None and not club.active:
        raise ValidationFailed(_("Club %(c)s is deactivated.") % {"c": club.name}, field="club")
    if isinstance(rating, bool) or not isinstance(rating or 0, int) or not 0 <= int(rating or 0) <= 4000:
        raise ValidationFailed(_("A rating is between 0 and 4000."), field="rating")
    reason = clean_reason_text(reason)
    with audit_context(action="player.create", user=user, reason=reason):
        return Player.objects.create(
            federation_id=federation_id, first_name=first_name, last_name=last_name,
            sex=sex, birth_year=birth_year, club=club, city=city or (club.city if club else ""),
            rating=int(rating or 0),
        )


@transaction.atomic
def player_update(*, player: Player, user, reason: str = "", **fields) -> Player:
    """Change ``fields`` of ``player`` (staff only) and return the saved player.

    ``fields`` are among :data:`PLAYER_EDITABLE`: ``federation_id`` (1..20 characters, no spaces or
    slash, unique), ``first_name``/``last_name`` (up to 60; a last name is required), ``sex``
    ("", "m", "f"), ``birth_year`` (None or 1900..2100), ``club`` (a :class:`Club` or None; a
    deactivated club only if it is already the player's), ``city`` (up to 60). ``rating`` is refused
    (the rating run owns it), like any other field. Texts are stripped; control characters are refused.
    Every refusal is ValidationFailed naming the field; a taken federation id too. A merged record
    cannot be edited (Conflict). Nothing changed → nothing saved, no history row.
    """
    require_staff(user, _("Only federation staff can edit players."))
    for name in fields:
        if name == "rating":
            raise ValidationFailed(_("The rating is set by the rating run, not by hand."), field="rating")
        if name not in PLAYER_EDITABLE:
            raise ValidationFailed(_("%(field)s cannot be changed here.") % {"field": name}, field=name)
    reason = clean_reason_text(reason)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.merged_into_id is not None:
        raise Conflict(_("%(id)s was merged into another record; edit that one.") % {"id": player.federation_id})
    clean: dict = {}
    for name, value in fields.items():
        if name == "federation_id":
            clean[name] = _federation_id(value)
        elif name == "sex":
            clean[name] = _sex(value)
        elif name == "birth_year":
            clean[name] = _birth_year(value)
        elif name == "club":
            if value is not None and not isinstance(value, Club):
                raise ValidationFailed(_("Choose a club."), field="club")
            if value is not None and not value.active and value.pk != player.club_id:
                raise ValidationFailed(_("Club %(c)s is deactivated.") % {"c": value.name}, field="club")
            clean[name] = value
        else:
            clean[name] = clean_text(value, model=Player, field=name, max_length=PLAYER_EDITABLE[name])
            if name == "last_name" and not clean[name]:
                raise ValidationFailed(_("A player needs a last name."), field="last_name")
    new_id = clean.get("federation_id")
    taken_message = _("Federation id %(id)s is already taken.") % {"id": new_id}
    if new_id is not None and Player.objects.filter(federation_id__iexact=new_id).exclude(pk=player.pk).exists():
        raise Conflict(taken_message, field="federation_id")
    changed = []
    for name, value in clean.items():
        current = player.club if name == "club" else getattr(player, name)
        if current != value:
            setattr(player, name, value)
            changed.append(name)
    if not changed:
        return player
    with audit_context(action="player.edit", user=user, reason=reason):
        save_fields(player, changed, unique={"federation_id": taken_message})
    _members_changed(players=[player])
    return player


def _player_set_active(*, player: Player, user, reason: str, active: bool) -> Player:
    require_staff(user, _("Only federation staff can deactivate or activate players."))
    reason = clean_reason_text(reason)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.merged_into_id is not None:
        raise Conflict(_("%(id)s was merged into another record and stays inactive.") % {"id": player.federation_id})
    if player.active == active:
        return player
    player.active = active
    with audit_context(action="player.activate" if active else "player.deactivate", user=user, reason=reason):
        player.save(update_fields=["active"])
    return player


@transaction.atomic
def player_deactivate(*, player: Player, user, reason: str = "") -> Player:
    """Deactivate ``player`` (staff only): kept with their results and rating history, no longer
    listed or offered. Already inactive → unchanged. A merged record: Conflict."""
    return _player_set_active(player=player, user=user, reason=reason, active=False)


@transaction.atomic
def player_activate(*, player: Player, user, reason: str = "") -> Player:
    """Activate ``player`` again (staff only). Already active → unchanged. A merged record stays
    inactive: Conflict."""
    return _player_set_active(player=player, user=user, reason=reason, active=True)


@transaction.atomic
def player_merge(*, keep: Player, merge: Player, user, reason: str) -> Player:
    """Merge the record ``merge`` into ``keep``: they are the same person (staff only). Returns ``keep``.

    - the apps above are asked first (:data:`federation.signals.player_merging`) and may refuse;
    - every tournament entry of ``merge`` becomes ``keep``'s (by the tournaments' receiver of
      :data:`federation.signals.player_merged`: saved one by one, so each entry's history records the move);
      their matches follow the entries;
    - ``merge``'s login (``Player.user``) moves to ``keep`` if ``keep`` has none;
    - the apps above are told (:data:`federation.signals.player_merged`): ``merge``'s
      :class:`~ratings.models.InitialRating` moves to ``keep`` if ``keep`` has none, else it is deleted;
      ``merge``'s rating rows (RatingChange, with their lines) are deleted;
    - ``merge`` gets ``merged_into=keep``, ``active=False`` and rating 0; records merged into
      ``merge`` earlier now point to ``keep`` (chains stay one step long);
    - after the commit a full re-rating is queued (by the ratings' receiver: ``ratings.rerate_all``), so ``keep``'s
      rating history holds both records' events and the opponents' lines name ``keep``.

    Refusals: ``reason`` empty (ValidationFailed, field ``reason``); ``keep`` is ``merge``, either is
    already merged, or both have an entry in the same tournament (Conflict, naming it).
    """
    require_staff(user, _("Only federation staff can merge players."))
    reason = clean_reason_text(reason, required=True)
    if keep.pk == merge.pk:
        raise Conflict(_("A record cannot be merged into itself."), field="into")
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, merge.pk]).order_by("pk")}
    keep, merge = locked[keep.pk], locked[merge.pk]
    for p, field in ((merge, "federation_id"), (keep, "into")):
        if p.merged_into_id is not None:
            target = Player.objects.filter(pk=p.merged_into_id).values_list("federation_id", flat=True).first()
            raise Conflict(
                _("%(id)s was already merged into %(target)s.") % {"id": p.federation_id, "target": target},
                field=field,
            )
    signals.player_merging.send(sender=Player, keep=keep, merge=merge)  # tournaments: no shared tournament
    with audit_context(action="player.merge", user=user, reason=reason):
        moved_user = merge.user if merge.user_id is not None and keep.user_id is None else None
        # tournaments: the entries move; ratings: rows, re-rating queued
        signals.player_merged.send(sender=Player, keep=keep, merge=merge)
        merge.merged_into = keep
        merge.active = False
        merge.rating = 0
        fields = ["merged_into", "active", "rating"]
        if moved_user is not None:
            merge.user = None
            fields.append("user")
        merge.save(update_fields=fields)
        if moved_user is not None:
            keep.user = moved_user
            keep.save(update_fields=["user"])
        for earlier in Player.objects.select_for_update().filter(merged_into=merge).order_by("pk"):
            earlier.merged_into = keep
            earlier.save(update_fields=["merged_into"])

    _members_changed(players=[keep, merge])
    return keep


# --------------------------------------------------------------------------------------------
# Clubs
# --------------------------------------------------------------------------------------------


def _club_fields(fields: dict, *, club: Club | None) -> dict:
    for name in fields:
        if name not in CLUB_EDITABLE:
            raise ValidationFailed(_("%(field)s cannot be changed here.") % {"field": name}, field=name)
    clean = {
        name: clean_text(value, model=Club, field=name, max_length=CLUB_EDITABLE[name], required=name == "name")
        for name, value in fields.items()
    }
    name = clean.get("name")
    if name is not None:
        from federation.collation import turkish_lower

        others = Club.objects.all() if club is None else Club.objects.exclude(pk=club.pk)
        folded = " ".join(turkish_lower(name).split())  # Turkish case rules: "istanbul" = "İstanbul"
        if any(" ".join(turkish_lower(n).split()) == folded for n in others.values_list("name", flat=True)):
            raise Conflict(_("There is already a club named %(name)s.") % {"name": name}, field="name")
    return clean


@transaction.atomic
def club_create(*, user, name: str, short_name: str = "", city: str = "", reason: str = "") -> Club:
    """Create a club (staff only): ``name`` 1..120 characters, unique (case-insensitive);
    ``short_name`` up to 12; ``city`` up to 60; no control characters. ValidationFailed names the field;
    a name already used (Turkish case rules): Conflict (409) naming ``name``."""
    require_staff(user, _("Only federation staff can create clubs."))
    reason = clean_reason_text(reason)
    clean = _club_fields({"name": name, "short_name": short_name, "city": city}, club=None)
    club = Club(**clean)
    with audit_context(action="club.create", user=user, reason=reason):
        try:
            with transaction.atomic():
                club.save()
        except IntegrityError as exc:
            raise Conflict(
                _("There is already a club named %(name)s.") % {"name": clean["name"]}, field="name"
            ) from exc
    return club


@transaction.atomic
def club_update(*, club: Club, user, reason: str = "", **fields) -> Club:
    """Change ``fields`` (``name``, ``short_name``, ``city``; same rules as :func:`club_create`) of
    ``club`` (staff only) and return it. Nothing changed → nothing saved."""
    require_staff(user, _("Only federation staff can edit clubs."))
    reason = clean_reason_text(reason)
    club = Club.objects.select_for_update().get(pk=club.pk)
    clean = _club_fields(fields, club=club)
    changed = [name for name, value in clean.items() if getattr(club, name) != value]
    if not changed:
        return club
    for name in changed:
        setattr(club, name, clean[name])
    with audit_context(action="club.edit", user=user, reason=reason):
        save_fields(club, changed, unique={"name": _("There is already a club named %(name)s.") % {"name": club.name}})
    _members_changed(clubs=[club])
    return club


def _club_set_active(*, club: Club, user, reason: str, active: bool) -> Club:
    require_staff(user, _("Only federation staff can deactivate or activate clubs."))
    reason = clean_reason_text(reason)
    club = Club.objects.select_for_update().get(pk=club.pk)
    if club.active == active:
        return club
    club.active = active
    with audit_context(action="club.activate" if active else "club.deactivate", user=user, reason=reason):
        club.save(update_fields=["active"])
    return club


@transaction.atomic
def club_deactivate(*, club: Club, user, reason: str = "") -> Club:
    """Deactivate ``club`` (staff only): kept for history, its players keep it, but it is offered no
    more for new players or club changes. Already inactive → unchanged."""
    return _club_set_active(club=club, user=user, reason=reason, active=False)


@transaction.atomic
def club_activate(*, club: Club, user, reason: str = "") -> Club:
    """Activate ``club`` again (staff only). Already active → unchanged."""
    return _club_set_active(club=club, user=user, reason=reason, active=True)


# --------------------------------------------------------------------------------------------
# Personal data (KVKK)
# --------------------------------------------------------------------------------------------

#: Player fields :func:`player_anonymise` clears (with the name, which it replaces).
ANONYMISED_FIELDS = ("first_name", "last_name", "birth_year", "sex", "city", "user")


def _anonymous_values(pk: int) -> dict:
    return {"first_name": "", "last_name": f"Anonim {pk}", "birth_year": None, "sex": "", "city": "", "user": None}


@transaction.atomic
def player_anonymise(*, player: Player, user, reason: str) -> Player:
    """Anonymise a player who left the federation (staff only; KVKK right to erasure). Returns the player.

    The record — and every record merged into it, the same person — gets the name ``"Anonim <id>"``
    (``<id>`` = the record's database id; first name empty), and loses its birth year, sex, city and
    login (``Player.user``); it is deactivated. The federation id, club, entries, results, rating
    history and current rating stay, so standings, crosstables and everyone else's ratings do not
    change. The action is recorded in the history (``player.anonymise``, who, when, ``reason``).

    **The history is purged too:** every earlier django-simple-history row of the record
    (``Player.history``) had the old name, birth year, sex, city and login; they are overwritten with
    the anonymised values, so neither the player page's change history nor ``/admin/`` history or
    revert can bring them back. Move records of bulk imports (``games.RecordImport.text``) whose tags
    name the player (``[White "Last, First"]``) get the new name in their text as well, and so do the
    record's lines on the official rating lists (their copied name and city; their PDFs are rebuilt) — both
    by the receivers of :data:`federation.signals.players_anonymised` (games, ratings).

    Refusals: ``reason`` empty (ValidationFailed, field ``reason``); a record merged into another
    (Conflict: anonymise the record it was merged into). Anonymising twice changes nothing more.
    """
    require_staff(user, _("Only federation staff can anonymise players."))
    reason = clean_reason_text(reason, required=True)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.merged_into_id is not None:
        raise Conflict(_("%(id)s was merged into another record; anonymise that one.") % {"id": player.federation_id})
    records = [player, *Player.objects.select_for_update().filter(merged_into=player).order_by("pk")]
    old_names = {p.full_name for p in records if p.last_name != f"Anonim {p.pk}"}
    with audit_context(action="player.anonymise", user=user, reason=reason):
        for p in records:
            values = _anonymous_values(p.pk)
            changed = [name for name, value in values.items() if getattr(p, name) != value]
            if p.active:
                changed.append("active")
                p.active = False
            for name in changed:
                if name != "active":
                    setattr(p, name, values[name])
            if changed:
                p.save(update_fields=changed)
    for p in records:  # purge the old values from every history row of the record
        Player.history.filter(id=p.pk).update(**_anonymous_values(p.pk))
    player.refresh_from_db()
    _members_changed(players=[player, *Player.objects.filter(merged_into=player)])
    # the names copied elsewhere (games: the tags of imported move records; ratings: the official rating lists)
    signals.players_anonymised.send(sender=Player, player_ids=[p.pk for p in records], old_names=old_names,
                                    new_name=player.full_name)
    return player
