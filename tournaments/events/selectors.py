"""Reads of multi-section events (issue 14): the list, an event's sections as its page shows them, the
registration list with where each player went and why, and the event report.

Every section passes the one publish gate (:mod:`tournaments.publication`): an archived section exists
for federation staff only; the public sees a section's pages only once something of it is published
(a published round or published standings) — until then only its name; standings count what the
public may see unless the user organises the section. Query counts do not grow with the number of
players (the report reads standings once per section).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

from federation import roles
from federation.collation import player_sort_key
from federation.errors import NotFound
from tournaments import access, publication, selectors
from tournaments.events.services import placement_for, section_label, sex_word
from tournaments.models import Event, EventRegistration, Round, Tournament
from tournaments.events.sections import SectionRule

REPORT_TOP = 10


def event_list(*, user=None) -> QuerySet[Event]:
    """Events, newest first, with the number of sections ``user`` may see (``n_sections``)."""
    visible = Q() if roles.is_staff(user) else Q(sections__archived_at__isnull=True)
    return Event.objects.annotate(n_sections=Count("sections", filter=visible, distinct=True)).order_by(
        "-start_date", "name", "-id")


def event_get(slug: str) -> Event:
    """The event ``slug``; :class:`NotFound` otherwise."""
    event = Event.objects.filter(slug=slug).first()
    if event is None:
        raise NotFound(_("No event %(slug)s.") % {"slug": slug})
    return event


def event_sections(*, event: Event, user=None) -> list[Tournament]:
    """The sections ``user`` may see (archived ones for staff only), in the event's order, with
    ``n_entries``, ``n_public_rounds`` and ``n_closed_rounds``."""
    qs = (
        event.sections.annotate(
            n_entries=Count("entries", distinct=True),
            n_public_rounds=Count("rounds", filter=Q(rounds__status__in=[Round.Status.PUBLISHED, Round.Status.CLOSED]),
                                  distinct=True),
            n_closed_rounds=Count("rounds", filter=Q(rounds__status=Round.Status.CLOSED), distinct=True),
        )
        .order_by("section_order", "name", "id")
    )
    if not roles.is_staff(user):
        qs = qs.filter(archived_at__isnull=True)
    sections = list(qs)
    for s in sections:
        s.event = event  # no query per section for its label
    return sections


def rule_text(section: Tournament, age_year: int | None) -> str:
    """A section's rule in words: "born 2015–2018 (ages 8–11 in 2026) · girls"; "open to all"."""
    rule = SectionRule.of(section)
    parts = []
    low, high = rule.birth_year_min, rule.birth_year_max
    if low is not None or high is not None:
        if low is not None and high is not None:
            years = _("born %(a)d–%(b)d") % {"a": low, "b": high} if low != high else _("born %(a)d") % {"a": low}
        elif low is not None:
            years = _("born %(a)d or later") % {"a": low}
        else:
            years = _("born %(b)d or earlier") % {"b": high}
        young, old = rule.ages(age_year)
        if age_year is not None:
            if young is not None and old is not None:
                ages = (_("ages %(a)d–%(b)d in %(y)d") if young != old else _("age %(a)d in %(y)d")) % {
                    "a": young, "b": old, "y": age_year}
            elif young is not None:
                ages = _("%(a)d or older in %(y)d") % {"a": young, "y": age_year}
            else:
                ages = _("%(b)d or younger in %(y)d") % {"b": old, "y": age_year}
            years = f"{years} ({ages})"
        parts.append(years)
    if rule.sex:
        parts.append(_("girls / women") if rule.sex == "f" else _("boys / men"))
    return " · ".join(parts) if parts else _("open to all")


@dataclass
class SectionCard:
    """A section as the event page shows it. ``public``: something of it is published (its pages are
    linked); ``standings``: its standings may be opened by this user; ``organiser``: the user
    organises it (every page linked)."""

    section: Tournament
    label: str
    rule: str
    public: bool
    standings: bool
    organiser: bool
    players: int
    rounds_closed: int


def event_section_cards(*, event: Event, user=None) -> list[SectionCard]:
    cards = []
    org_all = user is not None and (roles.is_staff(user) or roles.in_group(user, roles.ORGANISER))
    for s in event_sections(event=event, user=user):
        organiser = org_all or access.can_organise(user, s)
        published = s.standings_published_at is not None
        cards.append(SectionCard(
            section=s, label=section_label(s), rule=rule_text(s, event.age_year),
            public=organiser or published or s.n_public_rounds > 0, standings=organiser or published,
            organiser=organiser, players=s.n_entries, rounds_closed=s.n_closed_rounds,
        ))
    return cards


# --------------------------------------------------------------------------------------------
# The registration list
# --------------------------------------------------------------------------------------------


@dataclass
class RegistrationRow:
    """One line of the registration list: the registration, ``why`` it is where it is, ``entered``
    (the section's entry exists) and, for an unplaced player, the sections that fit."""

    registration: EventRegistration
    why: str
    entered: bool
    fits: list[Tournament] = field(default_factory=list)


@dataclass
class SectionGroup:
    section: Tournament
    label: str
    rule: str
    rows: list[RegistrationRow]


@dataclass
class RegistrationList:
    by_section: list[SectionGroup]
    unplaced: list[RegistrationRow]
    waiting: int  # placed but not entered yet: the sync has something to do
    total: int


def registration_list(*, event: Event) -> RegistrationList:
    """The event's registration list grouped by section (the event's order), with the unplaced ones
    apart, each saying why: the rule that placed them, the organiser's note, or why no rule could."""
    sections = list(event.sections.order_by("section_order", "name", "id"))
    for s in sections:
        s.event = event
    regs = sorted(event.registrations.select_related("player__club"), key=lambda r: player_sort_key(r.player))
    entered = set(
        (tid, pid) for tid, pid in
        Tournament.objects.filter(event=event).values_list("id", "entries__player_id") if pid is not None
    )
    rows: dict[int | None, list[RegistrationRow]] = {s.pk: [] for s in sections}
    unplaced: list[RegistrationRow] = []
    waiting = 0
    for reg in regs:
        p = reg.player
        born = (_("born %(y)d") % {"y": p.birth_year}) if p.birth_year else _("birth year not known")
        if reg.section_id is None:
            placement = placement_for(event=event, player=p, sections=sections)
            why = reg.note if reg.override and reg.note else placement.message
            unplaced.append(RegistrationRow(reg, why, False, placement.fits))
            continue
        section = next(s for s in sections if s.pk == reg.section_id)
        reg.section = section
        if reg.override:
            why = _("chosen by the organiser: %(note)s") % {"note": reg.note} if reg.note else \
                _("chosen by the organiser")
        else:
            why = _("by the rule: %(born)s, %(sex)s") % {"born": born, "sex": sex_word(p.sex)}
        is_in = (section.pk, p.pk) in entered
        waiting += 0 if is_in else 1
        rows[section.pk].append(RegistrationRow(reg, why, is_in))
    return RegistrationList(
        by_section=[SectionGroup(s, section_label(s), rule_text(s, event.age_year), rows[s.pk]) for s in sections],
        unplaced=unplaced, waiting=waiting,
        total=len(regs),
    )


# --------------------------------------------------------------------------------------------
# The report
# --------------------------------------------------------------------------------------------


@dataclass
class ReportSection:
    """One section of the event report: ``lines`` the top of the standings (empty when not shown),
    ``standings_note`` why not or how final they are."""

    section: Tournament
    label: str
    rule: str
    players: int
    rounds_closed: int
    rounds_total: int
    chief_arbiter: str
    lines: list = field(default_factory=list)
    standings_note: str = ""
    final: bool = False


def event_report(*, event: Event, user=None, lang: str = "tr", top: int = REPORT_TOP) -> list[ReportSection]:
    """For each section ``user`` may see: the top ``top`` of the published standings (organisers of
    the section: their standings, marked when not published), players, rounds and chief arbiter."""
    out = []
    for s in event_sections(event=event, user=user):
        organiser = publication.sees_everything(s, user)
        item = ReportSection(
            section=s, label=section_label(s), rule=rule_text(s, event.age_year), players=s.n_entries,
            rounds_closed=s.n_closed_rounds, rounds_total=s.rounds_total, chief_arbiter=s.chief_arbiter,
        )
        published = s.standings_published_at is not None
        if published or (organiser and s.n_closed_rounds):
            st = selectors.tournament_standings(tournament=s, public_only=not organiser, lang=lang)
            item.lines = list(st.lines[:top])
            item.final = s.status == Tournament.Status.FINISHED and st.rounds >= s.rounds_total
            if not published:
                item.standings_note = _("Not published yet: only the organisers see these standings.")
            elif not item.final:
                item.standings_note = _("After round %(n)d of %(t)d.") % {"n": st.rounds, "t": s.rounds_total}
        else:
            item.standings_note = _("The standings are not published yet.")
        out.append(item)
    return out
