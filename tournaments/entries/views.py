"""Entry pages: the entries of a tournament (add a player, late entries), withdraw and reinstate, requested
byes and their withdrawal."""
from __future__ import annotations

from django.db import transaction
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from federation.collation import player_sort_key
from federation.errors import ApplicationError
from federation.services import player_register
from tournaments import access, view_helpers
from tournaments.entries import services as entry_services
from tournaments.forms import EntriesForm, PlayerRegisterForm


_tournament = view_helpers.visible_tournament
_act = view_helpers.run_service
_role = view_helpers.role_required


@login_required
@_role(access.can_organise, _lazy("Only the organiser can change entries."))
def tournament_entries(request, slug: str):
    t = _tournament(request, slug)
    if not access.can_organise(request.user, t):
        messages.error(request, _("Only the organiser can change entries."))
        return redirect("tournament-detail", slug=slug)
    form = EntriesForm(request.POST or None)
    field = form.fields["players"]
    field.queryset = field.queryset.exclude(entries__tournament=t).filter(active=True, merged_into__isnull=True)
    field.choices = [
        (p.pk, f"{p.full_name} · {p.rating or '—'} · {p.club.name if p.club else p.city} · {p.federation_id}")
        for p in sorted(field.queryset, key=player_sort_key)
    ]
    register = PlayerRegisterForm(request.POST if request.POST.get("register") else None, prefix="new")
    if request.method == "POST" and request.POST.get("register"):
        if register.is_valid():
            d = register.cleaned_data
            try:
                with transaction.atomic():
                    player = player_register(user=request.user, **d)
                    entry_services.entry_add(tournament=t, player=player, user=request.user,
                                             missed_rounds=request.POST.get("missed_rounds") or "zero")
            except ApplicationError as exc:
                view_helpers.form_error(register, exc)
            else:
                messages.success(request, _("%(p)s registered and added.") % {"p": player.full_name})
                return redirect("tournament-entries", slug=slug)
        form = EntriesForm()
        form.fields["players"] = field
    elif request.method == "POST" and form.is_valid():
        chosen = list(form.cleaned_data["players"])
        missed = request.POST.get("missed_rounds") or "zero"
        added = 0
        try:
            with transaction.atomic():  # all chosen players or none
                for p in chosen:
                    entry_services.entry_add(tournament=t, player=p, user=request.user, missed_rounds=missed)
            added = len(chosen)
        except ApplicationError as exc:
            messages.error(request, exc.message)
        if added:
            messages.success(request, ngettext("%(n)d player added.", "%(n)d players added.", added) % {"n": added})
        return redirect("tournament-entries", slug=slug)
    entries = t.entries.select_related("player__club").order_by("start_no")
    last = t.rounds.order_by("-number").first()
    return render(
        request, "tournaments/entries.html",
        {"t": t, "form": form, "register": register, "entries": entries, "last_round": last,
         "unplayed_pairing": last is not None and entry_services._unplayed_pairing(last)},
    )


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can change entries."))
def entry_withdraw(request, slug: str, start_no: int):
    t = _tournament(request, slug)
    entry = get_object_or_404(t.entries, start_no=start_no)
    _act(request, entry_services.entry_withdraw, _("%(p)s withdrawn.") % {"p": entry.player.full_name}, entry=entry)
    return redirect("tournament-detail", slug=slug)


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can change entries."))
def entry_request_bye(request, slug: str):
    """Organiser: a bye requested ahead for a later round (half point or excused zero)."""
    t = _tournament(request, slug)
    entry = t.entries.filter(start_no=request.POST.get("start_no") or 0).first()
    if entry is None:
        messages.error(request, _("Choose a player."))
        return redirect("tournament-detail", slug=slug)
    try:
        number = int(request.POST.get("round_number", ""))
    except ValueError:
        messages.error(request, _("Choose a round."))
        return redirect("tournament-detail", slug=slug)
    _act(request, entry_services.entry_request_bye, _("Bye recorded."), entry=entry, round_number=number,
         kind=request.POST.get("kind", "half"))
    return redirect("tournament-detail", slug=slug)


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can change entries."))
def entry_reinstate(request, slug: str, start_no: int):
    t = _tournament(request, slug)
    entry = get_object_or_404(t.entries, start_no=start_no)
    _act(request, entry_services.entry_reinstate, _("%(p)s is back in the tournament.") % {"p": entry.player.full_name},
         entry=entry, reason=request.POST.get("reason", ""))
    return redirect("tournament-detail", slug=slug)


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can change entries."))
def bye_withdraw(request, slug: str, start_no: int, number: int):
    t = _tournament(request, slug)
    entry = get_object_or_404(t.entries, start_no=start_no)
    _act(request, entry_services.entry_bye_withdraw, _("Bye request withdrawn."), entry=entry, round_number=number,
         reason=request.POST.get("reason", ""))
    return redirect("tournament-detail", slug=slug)
