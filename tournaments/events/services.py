"""Every write to multi-section events (issue 14) goes through one of these functions.

An :class:`~tournaments.models.Event` (e.g. "İl Okullar Mangala Şampiyonası") has sections — each a
:class:`~tournaments.models.Tournament` with ``event`` set and a rule (birth years, sex), paired and
ranked on its own — and one registration list (:class:`~tournaments.models.EventRegistration`) that
places each player in a section by the rule (:mod:`tournaments.events.sections`) or by the organiser's
choice (``override``, with a note saying why). :func:`event_sections_sync` turns the list into the
sections' entries (``tournaments.entries.services.entry_add``).

Style as ``tournaments.services``: ``<entity>_<action>``, keyword-only, ``@transaction.atomic``, each
call one audited action (:func:`federation.audit.audit_context`); a refusal raises an
:class:`federation.errors.ApplicationError` and nothing is half-saved.

Who: federation staff and organisers create events; an event is organised (sections added,
players registered and moved, entries made) by staff, its creator, the global ``organiser`` group
and anyone with an organiser role in one of its sections (:func:`can_organise_event`). The creator
of an event gets the organiser role of every section added to it.
"""
from __future__ import annotations

import functools
from collections import defaultdict
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from federation import roles
from federation.audit import audit_context
from federation.collation import turkish_lower
from federation.errors import ApplicationError, Conflict, PermissionDenied, ValidationFailed
from federation.models import Player
from tournaments import access
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.models import Entry, Event, EventRegistration, Round, Tournament, TournamentRole
from tournaments.events.sections import SEXES, SectionRule, fitting_sections

#: Settings of an event an organiser may edit (:func:`event_update`).
EVENT_SETTINGS = ("name", "start_date", "end_date", "venue", "city", "reference_date")
_TEXT_LIMITS = {"name": 160, "venue": 160, "city": 60}
NOTE_MAX = 200


# --------------------------------------------------------------------------------------------
# Who may do what
# --------------------------------------------------------------------------------------------


def can_create_event(user) -> bool:
    """Staff and organisers create events (as tournaments)."""
    return access.can_create_tournament(user)


def can_organise_event(user, event: Event) -> bool:
    """Add sections, register and move players, make the sections' entries. One condition a line."""
    if not getattr(user, "is_authenticated", False):
        return False
    if roles.is_staff(user):
        return True
    if event.created_by_id == user.id:
        return True
    if roles.in_group(user, roles.ORGANISER):
        return True
    return TournamentRole.objects.filter(
        tournament__event=event, user=user, role=TournamentRole.Role.ORGANISER
    ).exists()


def _require_organiser(user, event: Event) -> None:
    if user is not None and not can_organise_event(user, event):
        raise PermissionDenied(_("Only the event's organisers can do this."))


def _audited(action: str):
    """Run the decorated service as one audited action: ``action``, the ``user`` keyword argument, the
    ``reason`` (checked like every reason of the history) and the section's tournament when one is
    named (``section``)."""

    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if kwargs.get("reason"):
                kwargs["reason"] = services.check_reason_text(kwargs["reason"])
            section = kwargs.get("section")
            with audit_context(action=action, user=kwargs.get("user"), reason=kwargs.get("reason") or "",
                               tournament_id=getattr(section, "pk", None)):
                return func(*args, **kwargs)

        return wrapper

    return decorate


# --------------------------------------------------------------------------------------------
# Placing a player by the sections' rules
# --------------------------------------------------------------------------------------------


@dataclass
class Placement:
    """Where the rule puts a player: ``section`` (None: unplaced), the sections that fit and, when
    unplaced, ``message`` saying why and what to do."""

    section: Tournament | None
    fits: list[Tournament] = field(default_factory=list)
    message: str = ""

    @property
    def label(self) -> str:
        """The section's own name (:func:`section_label`), "" when unplaced."""
        return section_label(self.section) if self.section is not None else ""


def section_label(section: Tournament) -> str:
    """A section's own name: its tournament's name without the event's ("İlkokul Kız" of
    "İl Okullar Şampiyonası – İlkokul Kız")."""
    name = section.name
    event = section.event if section.event_id else None
    if event is not None:
        for sep in (" – ", " - ", ": "):
            prefix = event.name + sep
            if name.startswith(prefix) and len(name) > len(prefix):
                return name[len(prefix):]
    return name


def sex_word(sex: str) -> str:
    return {"f": _("girl / woman"), "m": _("boy / man")}.get(sex or "", _("sex not known"))


def placement_for(*, event: Event, player: Player, sections: list[Tournament] | None = None) -> Placement:
    """Where the sections' rules put ``player`` (:func:`tournaments.events.sections.fitting_sections` with the
    event's age year): the one section that fits, else unplaced with a message (none fits, several
    do). ``sections``: the event's sections (read when not given)."""
    if sections is None:
        sections = list(event.sections.order_by("section_order", "name"))
    fits = [r.key for r in fitting_sections(
        [SectionRule.of(s) for s in sections], birth_year=player.birth_year, sex=player.sex, age_year=event.age_year,
    )]
    if len(fits) == 1:
        return Placement(section=fits[0], fits=fits)
    born = (_("born %(y)d") % {"y": player.birth_year}) if player.birth_year else _("birth year not known")
    who = f"{player.full_name} ({born}, {sex_word(player.sex)})"
    if not sections:
        message = _("The event has no sections yet: %(p)s stays unplaced until one is added.") % {"p": who}
    elif not fits:
        message = _("No section fits %(p)s; choose a section by hand.") % {"p": who}
    else:
        message = _("Several sections fit %(p)s (%(s)s); choose one by hand.") % {
            "p": who, "s": ", ".join(section_label(s) for s in fits)}
    return Placement(section=None, fits=fits, message=message)


# --------------------------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------------------------


def _check_dates(start, end) -> None:
    if start and end and end < start:
        raise ValidationFailed(_("The end date is before the start date."), field="end_date")


@_audited("event.create")
@transaction.atomic
def event_create(
    *, name: str, user=None, start_date=None, end_date=None, venue: str = "", city: str = "",
    reference_date=None, slug: str | None = None,
) -> Event:
    """Create an event (staff and organisers; ``user`` is its creator, who will organise its sections).

    ``reference_date``: ages for the sections' rules are counted in its year (default: the year of
    ``start_date``). Raises ValidationFailed (a name, end before start, text too long),
    PermissionDenied, Conflict (the slug is taken).
    """
    if user is not None and not can_create_event(user):
        raise PermissionDenied(_("Only organisers can create events."))
    name = services._clean_text(name, "name", _TEXT_LIMITS["name"], required=True)
    venue = services._clean_text(venue, "venue", _TEXT_LIMITS["venue"])
    city = services._clean_text(city, "city", _TEXT_LIMITS["city"])
    _check_dates(start_date, end_date)
    if slug and Event.objects.filter(slug=slug).exists():
        raise Conflict(_("There is already an event with this short name."), field="slug")
    return Event.objects.create(
        slug=slug or services.unique_slug(name, model=Event), name=name, start_date=start_date, end_date=end_date,
        venue=venue, city=city, reference_date=reference_date,
        created_by=user if getattr(user, "is_authenticated", False) else None,
    )


def _sections_started(event: Event) -> set[int]:
    """Ids of the event's sections that have paired a round."""
    return set(Round.objects.filter(tournament__event=event).values_list("tournament_id", flat=True).distinct())


@_audited("event.edit")
@transaction.atomic
def event_update(*, event: Event, user=None, reason: str = "", **changes) -> Event:
    """Edit an event's settings (:data:`EVENT_SETTINGS`). A change of the age year (the reference
    date's year, else the start date's) places the players placed by the rule again; it is refused
    (Conflict) once a section has paired a round. Raises ValidationFailed, PermissionDenied, Conflict.
    """
    _require_organiser(user, event)
    unknown = sorted(set(changes) - set(EVENT_SETTINGS))
    if unknown:
        raise ValidationFailed(_("%(f)s cannot be edited.") % {"f": unknown[0]}, field=unknown[0])
    event = Event.objects.select_for_update(of=("self",)).get(pk=event.pk)
    for name, limit in _TEXT_LIMITS.items():
        if name in changes:
            changes[name] = services._clean_text(changes[name], name, limit, required=name == "name")
    _check_dates(changes.get("start_date", event.start_date), changes.get("end_date", event.end_date))
    changes = {k: v for k, v in changes.items() if getattr(event, k) != v}
    if not changes:
        return event
    old_year = event.age_year
    for name, value in changes.items():
        setattr(event, name, value)
    if event.age_year != old_year:
        if _sections_started(event):
            raise Conflict(
                _("A section has already paired a round: the year ages are counted in can no longer change."),
                field="reference_date" if "reference_date" in changes else "start_date",
            )
        event.save(update_fields=list(changes))
        _place_again(event, only_unplaced=False)
    else:
        event.save(update_fields=list(changes))
    return event


def _place_again(event: Event, *, only_unplaced: bool) -> int:
    """Place again by the rule every registration the organiser did not choose (``override`` false);
    ``only_unplaced``: only those without a section. Returns how many changed."""
    sections = list(event.sections.order_by("section_order", "name"))
    regs = event.registrations.filter(override=False).select_related("player")
    if only_unplaced:
        regs = regs.filter(section__isnull=True)
    changed = 0
    for reg in regs:
        placed = placement_for(event=event, player=reg.player, sections=sections).section
        if (placed.pk if placed else None) != reg.section_id:
            reg.section = placed
            reg.save(update_fields=["section"])
            changed += 1
    return changed


# --------------------------------------------------------------------------------------------
# Sections
# --------------------------------------------------------------------------------------------


def _birth_year(value, field_name: str) -> int | None:
    if value in (None, ""):
        return None
    try:
        year = int(value)
    except (TypeError, ValueError):
        raise ValidationFailed(_("A birth year is a year such as 2015."), field=field_name) from None
    if not 1900 <= year <= 2100:
        raise ValidationFailed(_("The birth year must be between 1900 and 2100."), field=field_name)
    return year


@_audited("event.section_add")
@transaction.atomic
def event_section_add(
    *, event: Event, name: str, rounds_total: int, user=None, system: str = Tournament.System.SWISS,
    birth_year_min=None, birth_year_max=None, sex: str = "", order: int | None = None,
    sets_per_match: int = 3, tiebreaks=None, chief_arbiter: str = "", double_round_robin: bool = False,
) -> Tournament:
    """Add a section to ``event``: a new tournament (``tournaments.services.tournament_create``, so
    pairing, results, standings and every page work as for any tournament) named "<event> – <name>",
    with the event's dates and place, and the rule: born ``birth_year_min`` .. ``birth_year_max``
    (either open) and of ``sex`` (``""`` any, ``"f"``, ``"m"``). The event's creator becomes organiser
    of the section. Players on the list not placed yet are placed again by the rules.

    Raises ValidationFailed (birth years, sex, the tournament's own checks), PermissionDenied,
    Conflict (a section of that name exists).
    """
    _require_organiser(user, event)
    event = Event.objects.select_for_update(of=("self",)).get(pk=event.pk)
    label = services._clean_text(name, "name", 120, required=True)
    low, high = _birth_year(birth_year_min, "birth_year_min"), _birth_year(birth_year_max, "birth_year_max")
    if low is not None and high is not None and high < low:
        raise ValidationFailed(_("The section's birth years are in the wrong order."), field="birth_year_max")
    sex = sex or ""
    if sex not in SEXES:
        raise ValidationFailed(_("The section's sex is f, m or empty (anyone)."), field="sex")
    full_name = f"{event.name} – {label}"
    if any(turkish_lower(section_label(s)) == turkish_lower(label) for s in event.sections.select_related("event")):
        raise Conflict(_("The event already has a section named %(n)s.") % {"n": label}, field="name")
    if order is None:
        order = (event.sections.aggregate(m=Max("section_order"))["m"] or 0) + 1
    section = services.tournament_create(
        name=full_name, rounds_total=rounds_total, system=system, start_date=event.start_date,
        end_date=event.end_date, city=event.city, venue=event.venue, sets_per_match=sets_per_match,
        tiebreaks=tiebreaks, double_round_robin=double_round_robin, created_by=user,
    )
    section.event = event
    section.section_birth_year_min, section.section_birth_year_max, section.section_sex = low, high, sex
    section.section_order = int(order)
    section.save(update_fields=["event", "section_birth_year_min", "section_birth_year_max", "section_sex",
                                "section_order"])
    if chief_arbiter:
        section = services.tournament_update(tournament=section, user=None, chief_arbiter=chief_arbiter)
    if event.created_by_id is not None:
        TournamentRole.objects.get_or_create(tournament=section, user_id=event.created_by_id,
                                             role=TournamentRole.Role.ORGANISER)
    _place_again(event, only_unplaced=True)
    return section


def _section_of(event: Event, section) -> Tournament | None:
    """``section`` checked to be a section of ``event`` (ValidationFailed, field ``section``)."""
    if section is None:
        return None
    if section.event_id != event.pk:
        raise ValidationFailed(
            _("%(s)s is not a section of %(e)s.") % {"s": section.name, "e": event.name}, field="section"
        )
    return section


# --------------------------------------------------------------------------------------------
# The registration list
# --------------------------------------------------------------------------------------------


def _check_player(player: Player) -> None:
    if not player.active or player.merged_into_id:
        raise Conflict(_("%(p)s is deactivated or merged into another record.") % {"p": player.full_name},
                       field="player")


@_audited("event.register")
@transaction.atomic
def event_register(*, event: Event, player: Player, section: Tournament | None = None, note: str = "",
                   user=None) -> EventRegistration:
    """Put ``player`` on the event's registration list. Without ``section`` the rules place them
    (:func:`placement_for`); when no section or several fit they stay unplaced and the returned
    registration's ``placement_message`` says why. With ``section`` the organiser chose it
    (``override``; ``note`` says why). The sections' entries are made by :func:`event_sections_sync`.

    Raises Conflict (already on the list, a deactivated or merged player), ValidationFailed (a section
    of another event, a note too long), PermissionDenied.
    """
    _require_organiser(user, event)
    _check_player(player)
    section = _section_of(event, section)
    note = services._clean_text(note, "note", NOTE_MAX)
    if EventRegistration.objects.filter(event=event, player=player).exists():
        raise Conflict(_("%(p)s is already registered for %(e)s.") % {"p": player.full_name, "e": event.name},
                       field="player")
    if section is not None:
        placement = Placement(section=section, fits=[section])
    else:
        placement = placement_for(event=event, player=player)
    try:
        with transaction.atomic():
            reg = EventRegistration.objects.create(
                event=event, player=player, section=placement.section, override=section is not None, note=note,
            )
    except IntegrityError as exc:  # registered meanwhile
        raise Conflict(_("%(p)s is already registered for %(e)s.") % {"p": player.full_name, "e": event.name},
                       field="player") from exc
    reg.placement_message = placement.message
    return reg


def _played_entries(event: Event, player_id: int, keep_section_id: int | None) -> list[Entry]:
    """The player's entries in sections of ``event`` other than ``keep_section_id`` whose section has
    paired a round (they cannot be taken back)."""
    return list(
        Entry.objects.filter(tournament__event=event, player_id=player_id, tournament__rounds__isnull=False)
        .exclude(tournament_id=keep_section_id).select_related("tournament", "player").distinct()
    )


def _refuse_played(entry: Entry, event: Event) -> None:
    first = entry.tournament.rounds.order_by("number").values_list("number", flat=True).first() or 1
    raise Conflict(
        _("%(p)s is entered in %(s)s, which has already paired round %(n)d: a player cannot leave a section once "
          "its pairing has started. Keep them there, or withdraw them in that section.")
        % {"p": entry.player.full_name, "s": section_label(entry.tournament), "n": first},
        field="section", code="section_started",
        extra={"section": entry.tournament.slug},
    )


@_audited("event.move")
@transaction.atomic
def event_registration_move(*, registration: EventRegistration, section: Tournament | None, reason: str,
                            user=None) -> EventRegistration:
    """The organiser moves a registered player to ``section`` (None: unplaced), overriding the rule;
    ``reason`` is required and kept as the registration's note. Refused (Conflict) when the player is
    already in that section, or has an entry in a section that has paired a round; ValidationFailed for
    a section of another event or no reason."""
    event = registration.event
    _require_organiser(user, event)
    reg = EventRegistration.objects.select_for_update(of=("self",)).select_related("player").get(pk=registration.pk)
    section = _section_of(event, section)
    reason = services._clean_text(reason, "reason", NOTE_MAX)
    if not reason:
        raise ValidationFailed(_("Say why the player changes sections (the reason is recorded)."), field="reason")
    if (section.pk if section else None) == reg.section_id:
        raise Conflict(_("%(p)s is already there.") % {"p": reg.player.full_name}, field="section")
    played = _played_entries(event, reg.player_id, section.pk if section else None)
    if played:
        _refuse_played(played[0], event)
    reg.section, reg.override, reg.note = section, True, reason
    reg.save(update_fields=["section", "override", "note"])
    return reg


@_audited("event.unregister")
@transaction.atomic
def event_registration_remove(*, registration: EventRegistration, user=None, reason: str = "") -> None:
    """Take a player off the list, and out of the sections of the event that have not paired a round
    yet (their entry is deleted). Refused (Conflict) when the player has an entry in a section that has
    paired a round: withdraw them there instead."""
    event = registration.event
    _require_organiser(user, event)
    reg = EventRegistration.objects.select_for_update(of=("self",)).select_related("player").filter(pk=registration.pk).first()
    if reg is None:
        return
    played = _played_entries(event, reg.player_id, None)
    if played:
        _refuse_played(played[0], event)
    for entry in Entry.objects.filter(tournament__event=event, player_id=reg.player_id).select_related("tournament"):
        _entry_delete(entry)
    reg.delete()


def _entry_delete(entry: Entry) -> None:
    """Delete an entry of a section that has not paired a round (its history keeps a snapshot) and
    number the others again."""
    tournament = entry.tournament
    entry.delete()
    entry_services.entries_sort(tournament=tournament)
    services.tournament_touch(tournament)


@dataclass
class SyncReport:
    """What :func:`event_sections_sync` did: entries ``added`` and ``removed`` (as (player, section)
    names), and how many registrations are ``unplaced``."""

    added: list[tuple[str, str]] = field(default_factory=list)
    removed: list[tuple[str, str]] = field(default_factory=list)
    unplaced: int = 0


@_audited("event.sync")
@transaction.atomic
def event_sections_sync(*, event: Event, user=None, missed_rounds: str = "zero") -> SyncReport:
    """Make the sections' entries follow the registration list: a placed player not entered in their
    section yet is entered (``tournaments.entries.services.entry_add``; a late entrant of a Swiss gets
    ``missed_rounds`` byes); a player moved elsewhere (or unplaced) leaves the section they were
    entered in — refused (Conflict, code ``section_started``, naming the player and section) when that
    section has already paired a round. Players entered in a section without being on the list are
    left alone. All or nothing."""
    _require_organiser(user, event)
    event = Event.objects.select_for_update(of=("self",)).get(pk=event.pk)
    sections = {s.pk: s for s in event.sections.select_related("event")}
    regs = list(event.registrations.select_related("player"))
    entries: dict[int, list[Entry]] = defaultdict(list)
    for e in Entry.objects.filter(tournament_id__in=sections).select_related("player"):
        entries[e.player_id].append(e)
    started = _sections_started(event)
    report = SyncReport(unplaced=sum(1 for r in regs if r.section_id is None))
    leaving = []
    for reg in regs:
        for e in entries[reg.player_id]:
            if e.tournament_id != reg.section_id:
                if e.tournament_id in started:
                    e.tournament = sections[e.tournament_id]
                    _refuse_played(e, event)
                leaving.append(e)
    for e in leaving:
        e.tournament = sections[e.tournament_id]
        report.removed.append((e.player.full_name, section_label(e.tournament)))
        _entry_delete(e)
    for reg in regs:
        if reg.section_id is None or any(e.tournament_id == reg.section_id for e in entries[reg.player_id]):
            continue
        section = sections[reg.section_id]
        try:
            entry_services.entry_add(tournament=section, player=reg.player, user=user, missed_rounds=missed_rounds)
        except ApplicationError as exc:
            exc.message = f"{section_label(section)}: {exc.message}"
            exc.args = (exc.message,)
            raise
        report.added.append((reg.player.full_name, section_label(section)))
    return report
