"""Pages of multi-section events (issue 14): thin views reading through
:mod:`tournaments.events.selectors` and writing through :mod:`tournaments.events.services`.

* ``/events/`` the list; ``/events/<slug>/`` the public page: the sections with their rules, each
  linked to its pages once something of it is published (its name only until then);
* organisers: ``/events/new/``, ``…/edit/``, ``…/sections/new/`` (a section and its rule) and
  ``…/registrations/`` — search players, register them (placed by the rules, or in a section chosen
  by hand with a note), see who went where and why, move with a reason, the unplaced list, and make
  the sections' entries;
* ``…/report/`` the event report (printable; ``…/report.pdf`` as a PDF).
"""
from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from federation.collation import player_sort_key
from federation.error_views import forbidden
from federation.errors import ApplicationError
from federation.models import Player
from federation.selectors import player_search_q
from tournaments.events import selectors as sel
from tournaments import view_helpers
from tournaments.events import services as events
from tournaments.events.forms import EventForm, MoveForm, RegisterForm, SectionForm
from tournaments.models import Event, EventRegistration, Tournament

#: At most this many players found by the registration page's search.
SEARCH_LIMIT = 30


_lang = view_helpers.page_lang


def _event(slug: str) -> Event:
    return get_object_or_404(Event, slug=slug)


def _organiser_or_redirect(request, event: Event):
    """None for the event's organisers; otherwise the 403 page (before any form is read; issue 23)."""
    if events.can_organise_event(request.user, event):
        return None
    return forbidden(request, _("Only the event's organisers can do this."))


def _event_organiser_required(view):
    """Permission before validation (issue 23): the event of the ``slug`` in the path (404 when unknown),
    then the 403 page for anyone but its organisers, before the view looks at the registration or the form."""
    from functools import wraps

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        return _organiser_or_redirect(request, _event(kwargs["slug"])) or view(request, *args, **kwargs)

    return wrapped


_form_error = view_helpers.form_error


def event_list(request):
    return render(request, "tournaments/events/list.html", {
        "events": sel.event_list(user=request.user), "can_create": events.can_create_event(request.user),
    })


@login_required
def event_create(request):
    if not events.can_create_event(request.user):
        return forbidden(request, _("Only organisers can create events."))
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = events.event_create(user=request.user, **form.cleaned_data)
        except ApplicationError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, _("Event created. Now add its sections."))
            return redirect("event-section-add", slug=event.slug)
    return render(request, "tournaments/events/form.html", {"form": form, "event": None})


@login_required
def event_edit(request, slug: str):
    event = _event(slug)
    refused = _organiser_or_redirect(request, event)
    if refused:
        return refused
    form = EventForm(request.POST or None, instance=None, initial={f: getattr(event, f) for f in events.EVENT_SETTINGS})
    if request.method == "POST" and form.is_valid():
        try:
            events.event_update(event=event, user=request.user, **form.cleaned_data)
        except ApplicationError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, _("Event saved."))
            return redirect("event-detail", slug=event.slug)
    return render(request, "tournaments/events/form.html", {"form": form, "event": event})


def event_detail(request, slug: str):
    """The public page: facts and sections (links behind each section's publish gate)."""
    event = _event(slug)
    organiser = events.can_organise_event(request.user, event)
    return render(request, "tournaments/events/detail.html", {
        "event": event, "cards": sel.event_section_cards(event=event, user=request.user), "can_organise": organiser,
    })


@login_required
def event_section_add(request, slug: str):
    event = _event(slug)
    refused = _organiser_or_redirect(request, event)
    if refused:
        return refused
    form = SectionForm(request.POST or None, age_year=event.age_year)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            section = events.event_section_add(
                event=event, user=request.user, name=d["name"], system=d["system"], rounds_total=d["rounds_total"],
                sets_per_match=d["sets_per_match"], birth_year_min=d["birth_year_min"],
                birth_year_max=d["birth_year_max"], sex=d["sex"] or "", order=d["order"],
                chief_arbiter=d["chief_arbiter"] or "",
            )
        except ApplicationError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, _("Section %(s)s added.") % {"s": events.section_label(section)})
            if request.POST.get("another"):
                return redirect("event-section-add", slug=event.slug)
            return redirect("event-detail", slug=event.slug)
    cards = sel.event_section_cards(event=event, user=request.user)
    return render(request, "tournaments/events/section_form.html", {"event": event, "form": form, "cards": cards})


@login_required
def event_registrations(request, slug: str):
    """The registration list; ``?q=`` searches players to register (each shown with the section the
    rules would give them)."""
    event = _event(slug)
    refused = _organiser_or_redirect(request, event)
    if refused:
        return refused
    q = (request.GET.get("q") or "").strip()
    sections = list(event.sections.filter(archived_at__isnull=True).order_by("section_order", "name", "id"))
    for s in sections:
        s.event = event
    found = []
    if q:
        players = (
            Player.objects.filter(player_search_q(q), active=True, merged_into__isnull=True)
            .exclude(event_registrations__event=event).select_related("club").order_by("last_name", "first_name")
        )[:SEARCH_LIMIT]
        found = [(p, events.placement_for(event=event, player=p, sections=sections))
                 for p in sorted(players, key=player_sort_key)]
    return render(request, "tournaments/events/registrations.html", {
        "event": event, "q": q, "found": found, "sections": [(s, events.section_label(s)) for s in sections],
        "list": sel.registration_list(event=event),
    })


@login_required
@require_POST
@_event_organiser_required
def event_register(request, slug: str):
    event = _event(slug)
    form = RegisterForm(request.POST)
    q = request.POST.get("q") or ""
    back = redirect(f"{_registrations_url(event)}?{urlencode({'q': q})}" if q else _registrations_url(event))
    if not form.is_valid():
        messages.error(request, _("Choose a player."))
        return back
    d = form.cleaned_data
    player = get_object_or_404(Player, pk=d["player"])
    section = get_object_or_404(Tournament, pk=d["section"]) if d.get("section") else None
    try:
        reg = events.event_register(event=event, player=player, section=section, note=d.get("note") or "",
                                    user=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return back
    if reg.section_id:
        messages.success(request, _("%(p)s registered in %(s)s.") % {
            "p": player.full_name, "s": events.section_label(reg.section)})
    else:
        messages.warning(request, reg.placement_message)
    return back


def _registrations_url(event: Event) -> str:
    from django.urls import reverse

    return reverse("event-registrations", args=[event.slug])


@login_required
@require_POST
@_event_organiser_required
def event_registration_move(request, slug: str, reg_id: int):
    event = _event(slug)
    reg = get_object_or_404(EventRegistration.objects.select_related("player"), pk=reg_id, event=event)
    form = MoveForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say why the player changes sections (the reason is recorded)."))
        return redirect("event-registrations", slug=slug)
    d = form.cleaned_data
    section = get_object_or_404(Tournament, pk=d["section"]) if d.get("section") else None
    try:
        events.event_registration_move(registration=reg, section=section, reason=d["reason"], user=request.user)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        where = events.section_label(section) if section else _("unplaced")
        messages.success(request, _("%(p)s moved: %(s)s.") % {"p": reg.player.full_name, "s": where})
    return redirect("event-registrations", slug=slug)


@login_required
@require_POST
@_event_organiser_required
def event_registration_remove(request, slug: str, reg_id: int):
    event = _event(slug)
    reg = get_object_or_404(EventRegistration.objects.select_related("player"), pk=reg_id, event=event)
    try:
        events.event_registration_remove(registration=reg, user=request.user, reason=request.POST.get("reason") or "")
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(p)s taken off the list.") % {"p": reg.player.full_name})
    return redirect("event-registrations", slug=slug)


@login_required
@require_POST
@_event_organiser_required
def event_sync(request, slug: str):
    event = _event(slug)
    try:
        report = events.event_sections_sync(event=event, user=request.user,
                                            missed_rounds=request.POST.get("missed_rounds") or "zero")
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, ngettext(
            "%(n)d entry made in the sections.", "%(n)d entries made in the sections.", len(report.added),
        ) % {"n": len(report.added)} + (" " + ngettext(
            "%(n)d entry removed.", "%(n)d entries removed.", len(report.removed)) % {"n": len(report.removed)}
            if report.removed else ""))
        if report.unplaced:
            messages.warning(request, ngettext(
                "%(n)d player is not placed yet.", "%(n)d players are not placed yet.", report.unplaced,
            ) % {"n": report.unplaced})
    return redirect("event-registrations", slug=slug)


def _report_context(request, event: Event) -> dict:
    return {
        "event": event, "sections": sel.event_report(event=event, user=request.user, lang=_lang()),
        "generated_at": timezone.now(), "can_organise": events.can_organise_event(request.user, event),
    }


def event_report(request, slug: str):
    """The event report: each section's top ten (when published), players, rounds, chief arbiter.
    Printable (the site's print stylesheet)."""
    event = _event(slug)
    return render(request, "tournaments/events/report.html", _report_context(request, event))


def event_report_pdf(request, slug: str):
    """The event report as a PDF, as the reader may see it (:mod:`tournaments.paper.event_report`): built by
    the Celery task ``tournaments.paper.event_report`` on the ``pdf`` queue, cached by the report's
    fingerprint (a change in any section rebuilds it) and served like the crosstable PDF
    (``tournaments.view_helpers.cached_pdf_response``: 202 and a reloading page until the file is there)."""
    from django.urls import reverse

    from tournaments.paper.event_report import event_report_pdf_path
    from tournaments.tasks import event_report_pdf_task

    event = _event(slug)
    lang = _lang()
    user_id = request.user.pk if request.user.is_authenticated else None
    return view_helpers.cached_pdf_response(
        request, None, path=event_report_pdf_path(event, request.user, lang), task=event_report_pdf_task,
        args=[event.id, lang, user_id], filename=f"{event.slug}-rapor.pdf",
        private=events.can_organise_event(request.user, event) or user_id is not None,
        pending={"title": _("Event report (PDF)"), "again_url": reverse("event-report-pdf", args=[event.slug]),
                 "page_url": reverse("event-report", args=[event.slug]), "page_label": _("Event report"),
                 "crumb_url": reverse("event-detail", args=[event.slug]), "crumb_name": event.name,
                 "failed_text": _("The PDF cannot be prepared right now (the job queue is not reachable). Try "
                                  "again in a minute; the event report page works meanwhile.")},
    )
