"""Tournament pages: thin views that read through selectors and write through services.

Every refusal of a service (:class:`federation.errors.ApplicationError`) is shown to the user as a
message next to the form, in the same words the API uses.
"""
from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from federation.collation import player_sort_key
from federation.errors import ApplicationError
from federation.services import player_register
from tournaments import access, selectors, services
from tournaments.forms import EntriesForm, MatchResultForm, PlayerRegisterForm, TournamentForm, TrfUploadForm
from tournaments.models import Absence, Match, Round, Tournament
from tournaments.standings import TIEBREAKS, tiebreak_label
from tournaments.trf_io import tournament_export_trf, tournament_import_trf


def _lang() -> str:
    return "en" if (get_language() or "tr").startswith("en") else "tr"


def home(request):
    """Tournament list (newest first) with links to standings, crosstables and ratings."""
    tournaments = selectors.tournament_list()
    return render(
        request, "tournaments/home.html",
        {"tournaments": tournaments, "can_create": access.can_create_tournament(request.user)},
    )


def tournament_detail(request, slug: str):
    """A tournament's page: facts, visible rounds, and the actions the user may take."""
    t = get_object_or_404(Tournament, slug=slug)
    rounds = selectors.visible_rounds(tournament=t, user=request.user)
    can_org = access.can_organise(request.user, t)
    last = t.rounds.order_by("-number").first()
    can_pair = can_org and (last is None or last.status == Round.Status.CLOSED) and (last.number if last else 0) < t.rounds_total
    entries = list(t.entries.select_related("player__club").order_by("start_no"))
    return render(
        request, "tournaments/detail.html",
        {
            "t": t, "rounds": rounds, "entries": entries, "can_organise": can_org, "can_pair": can_pair,
            "next_round": (last.number if last else 0) + 1,
            "can_add_entries": can_org and t.status != Tournament.Status.FINISHED,
            "absences": list(Absence.objects.filter(entry__tournament=t).select_related("entry__player")),
            "tiebreak_choices": sorted(TIEBREAKS), "bye_rounds": range((last.number if last else 0) + 1, t.rounds_total + 1),
            "standings_visible": t.standings_published or can_org,
        },
    )


def round_detail(request, slug: str, number: int):
    """Pairing list of one round with results; round 1 shows the coin toss."""
    t = get_object_or_404(Tournament, slug=slug)
    rnd = get_object_or_404(Round.objects.select_related("coin_toss"), tournament=t, number=number)
    can_enter = access.can_enter_results(request.user, t)
    if not rnd.is_public and not can_enter:
        raise Http404("round not published")
    boards = selectors.round_boards(round=rnd)
    return render(
        request, "tournaments/round.html",
        {
            "t": t, "round": rnd, "boards": boards, "can_enter": can_enter and rnd.status == Round.Status.PUBLISHED,
            "can_organise": access.can_organise(request.user, t), "toss": getattr(rnd, "coin_toss", None),
            "changes": _readable_changes(rnd),
        },
    )


def _readable_changes(rnd: Round) -> list[dict]:
    """Hand changes of ``rnd`` as ``{"at", "user", "reason", "before", "after"}`` with boards written
    like ``1: 4 – 2`` (starting numbers)."""
    changes = list(rnd.changes.select_related("user"))
    if not changes:
        return []
    start_no = dict(rnd.tournament.entries.values_list("id", "start_no"))

    def boards(rows):
        return ", ".join(f"{b}: {start_no.get(w, '?')} – {start_no.get(k, '?')}" for b, w, k in rows)

    return [
        {"at": c.at, "user": c.user, "reason": c.reason, "before": boards(c.before), "after": boards(c.after)}
        for c in changes
    ]


def _act(request, func, ok_message: str, **kwargs):
    try:
        result = func(user=request.user, **kwargs)
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return None
    messages.success(request, ok_message)
    return result


@login_required
@require_POST
def round_pair(request, slug: str):
    t = get_object_or_404(Tournament, slug=slug)
    seed = (request.POST.get("coin_seed") or "").strip() or None
    rnd = _act(request, services.round_pair, _("Round paired. Check it, then publish it."), tournament=t, coin_seed=seed)
    if rnd is not None:
        return redirect("round-detail", slug=slug, number=rnd.number)
    return redirect("tournament-detail", slug=slug)


@login_required
@require_POST
def round_publish(request, slug: str, number: int):
    rnd = get_object_or_404(Round, tournament__slug=slug, number=number)
    _act(request, services.round_publish, _("Pairings published."), round=rnd)
    return redirect("round-detail", slug=slug, number=number)


@login_required
@require_POST
def round_close(request, slug: str, number: int):
    rnd = get_object_or_404(Round, tournament__slug=slug, number=number)
    _act(request, services.round_close, _("Round closed."), round=rnd)
    return redirect("round-detail", slug=slug, number=number)


@login_required
@require_POST
def round_swap(request, slug: str, number: int):
    rnd = get_object_or_404(Round, tournament__slug=slug, number=number)
    try:
        a, b = int(request.POST.get("board_a", "0")), int(request.POST.get("board_b", "0"))
    except ValueError:
        messages.error(request, _("Board numbers must be numbers."))
        return redirect("round-detail", slug=slug, number=number)
    _act(
        request, services.round_swap_pairing, _("Pairing changed; the change is recorded."), round=rnd,
        board_a=a, board_b=b, swap=request.POST.get("swap", "black"), reason=request.POST.get("reason", ""),
    )
    return redirect("round-detail", slug=slug, number=number)


@login_required
def match_result(request, slug: str, number: int, board: int):
    """Result entry for one board, set by set (phone-friendly)."""
    t = get_object_or_404(Tournament, slug=slug)
    match = get_object_or_404(
        Match.objects.select_related("white__player", "black__player", "round"), round__tournament=t,
        round__number=number, board=board,
    )
    if not access.can_enter_results(request.user, t):
        messages.error(request, _("Only referees and organisers can enter results."))
        return redirect("round-detail", slug=slug, number=number)
    existing = list(match.sets.order_by("number"))
    if request.method == "POST":
        form = MatchResultForm(request.POST, sets_per_match=t.sets_per_match)
        if form.is_valid():
            try:
                services.match_result_enter(
                    match=match, user=request.user, forfeit=form.cleaned_data.get("forfeit") or "",
                    sets=[services.SetInput(**s) for s in form.cleaned_data["sets"]],
                    expected_version=form.cleaned_data.get("version"),
                )
            except ApplicationError as exc:
                form.add_error(None, exc.message)
            else:
                match.refresh_from_db()
                if match.white_points is None:
                    messages.warning(
                        request, _("Board %(b)d: sets saved; the match is not finished yet.") % {"b": board}
                    )
                else:
                    messages.success(request, _("Result of board %(b)d saved.") % {"b": board})
                return redirect("round-detail", slug=slug, number=number)
    else:
        initial = {"version": match.version, "forfeit": match.forfeit}
        for s in existing:
            initial[f"set{s.number}_white"] = s.white_store if s.white_store is not None else s.white_stones
            initial[f"set{s.number}_black"] = s.black_store if s.black_store is not None else s.black_stones
            initial[f"set{s.number}_termination"] = s.termination
            initial[f"set{s.number}_moves"] = s.moves
        form = MatchResultForm(initial=initial, sets_per_match=t.sets_per_match)
        if match.round.status == Round.Status.CLOSED:
            for f in form.fields.values():
                f.disabled = True
    return render(request, "tournaments/match_result.html", {"t": t, "match": match, "form": form, "sets": existing})


def standings(request, slug: str):
    """Standings with the tournament's tie-breaks; public once published."""
    t = get_object_or_404(Tournament, slug=slug)
    can_org = access.can_organise(request.user, t)
    if not t.standings_published and not can_org:
        return render(request, "tournaments/not_published.html", {"t": t}, status=404)
    st = selectors.tournament_standings(tournament=t, public_only=not can_org, lang=_lang())
    current = list(t.tiebreaks or [])
    slots = current + [""] * max(0, 6 - len(current))
    options = [(k, tiebreak_label(k, _lang())) for k in sorted(TIEBREAKS)]
    return render(
        request, "tournaments/standings.html",
        {"t": t, "st": st, "can_organise": can_org, "tiebreak_slots": slots, "tiebreak_options": options},
    )


@login_required
@require_POST
def standings_publish(request, slug: str):
    t = get_object_or_404(Tournament, slug=slug)
    _act(request, services.standings_publish, _("Standings published."), tournament=t)
    return redirect("standings", slug=slug)


def crosstable(request, slug: str):
    """Crosstable page (published rounds only)."""
    t = get_object_or_404(Tournament, slug=slug)
    if not t.standings_published and not access.can_organise(request.user, t):
        return render(request, "tournaments/not_published.html", {"t": t}, status=404)
    table = selectors.tournament_crosstable(tournament=t, public_only=True, lang=_lang())
    return render(request, "tournaments/crosstable.html", {"t": t, "table": table})


def crosstable_pdf(request, slug: str):
    """Crosstable PDF; built by the Celery task when a broker is configured, cached per version."""
    from tournaments.tasks import crosstable_pdf_task

    t = get_object_or_404(Tournament, slug=slug)
    if not t.standings_published and not access.can_organise(request.user, t):
        return render(request, "tournaments/not_published.html", {"t": t}, status=404)
    lang = _lang()
    if settings.CELERY_TASK_ALWAYS_EAGER:
        path = crosstable_pdf_task.apply(args=[t.id, lang]).get()
    else:
        path = crosstable_pdf_task.delay(t.id, lang).get(timeout=120)
    return FileResponse(open(path, "rb"), content_type="application/pdf", filename=f"{t.slug}-capraz-tablo.pdf")


def export_trf(request, slug: str):
    """Download the tournament as TRF-16 (published rounds only for the public)."""
    t = get_object_or_404(Tournament, slug=slug)
    if not t.standings_published and not access.can_organise(request.user, t):
        raise Http404("not published")
    resp = HttpResponse(tournament_export_trf(tournament=t), content_type="text/plain; charset=utf-8")
    resp["Content-Disposition"] = f'attachment; filename="{t.slug}.trf"'
    return resp


@login_required
def tournament_create(request):
    if not access.can_create_tournament(request.user):
        messages.error(request, _("Only organisers can create tournaments."))
        return redirect("home")
    form = TournamentForm(request.POST or None, lang=_lang())
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            t = services.tournament_create(
                name=d["name"], rounds_total=d["rounds_total"], system=d["system"], start_date=d["start_date"],
                end_date=d["end_date"], city=d["city"], venue=d["venue"], sets_per_match=d["sets_per_match"],
                variant=d["variant"], tiebreaks=d["tiebreak_order"] or None,
                double_round_robin=d["double_round_robin"], created_by=request.user,
            )
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Tournament created. Now add the players."))
            return redirect("tournament-entries", slug=t.slug)
    return render(request, "tournaments/create.html", {"form": form})


@login_required
def tournament_entries(request, slug: str):
    t = get_object_or_404(Tournament, slug=slug)
    if not access.can_organise(request.user, t):
        messages.error(request, _("Only the organiser can change entries."))
        return redirect("tournament-detail", slug=slug)
    form = EntriesForm(request.POST or None)
    field = form.fields["players"]
    field.queryset = field.queryset.exclude(entries__tournament=t)
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
                    services.entry_add(tournament=t, player=player, user=request.user)
            except ApplicationError as exc:
                register.add_error(exc.field if exc.field in register.fields else None, exc.message)
            else:
                messages.success(request, _("%(p)s registered and added.") % {"p": player.full_name})
                return redirect("tournament-entries", slug=slug)
        form = EntriesForm()
        form.fields["players"] = field
    elif request.method == "POST" and form.is_valid():
        chosen = list(form.cleaned_data["players"])
        added = 0
        try:
            with transaction.atomic():  # all chosen players or none
                for p in chosen:
                    services.entry_add(tournament=t, player=p, user=request.user)
            added = len(chosen)
        except ApplicationError as exc:
            messages.error(request, exc.message)
        if added:
            messages.success(request, ngettext("%(n)d player added.", "%(n)d players added.", added) % {"n": added})
        return redirect("tournament-entries", slug=slug)
    entries = t.entries.select_related("player__club").order_by("start_no")
    return render(
        request, "tournaments/entries.html", {"t": t, "form": form, "register": register, "entries": entries}
    )


@login_required
@require_POST
def entry_withdraw(request, slug: str, start_no: int):
    t = get_object_or_404(Tournament, slug=slug)
    entry = get_object_or_404(t.entries, start_no=start_no)
    _act(request, services.entry_withdraw, _("%(p)s withdrawn.") % {"p": entry.player.full_name}, entry=entry)
    return redirect("tournament-detail", slug=slug)


@login_required
def trf_import(request):
    """Upload a TRF file; the whole file is imported or nothing is."""
    if not access.can_create_tournament(request.user):
        messages.error(request, _("Only organisers can import tournaments."))
        return redirect("home")
    form = TrfUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        f = form.cleaned_data["file"]
        try:
            report = tournament_import_trf(
                data=f.read(), source=f.name, user=request.user, name=form.cleaned_data.get("name") or None
            )
        except ApplicationError as exc:
            form.add_error("file", exc.message)
        else:
            messages.success(request, _("Imported %(name)s.") % {"name": report.tournament.name})
            for note in report.notes:
                messages.info(request, note)
            return redirect("tournament-detail", slug=report.tournament.slug)
    return render(request, "tournaments/import.html", {"form": form})


@login_required
@require_POST
def entry_request_bye(request, slug: str):
    """Organiser: a bye requested ahead for a later round (half point or excused zero)."""
    t = get_object_or_404(Tournament, slug=slug)
    entry = t.entries.filter(start_no=request.POST.get("start_no") or 0).first()
    if entry is None:
        messages.error(request, _("Choose a player."))
        return redirect("tournament-detail", slug=slug)
    try:
        number = int(request.POST.get("round_number", ""))
    except ValueError:
        messages.error(request, _("Choose a round."))
        return redirect("tournament-detail", slug=slug)
    _act(request, services.entry_request_bye, _("Bye recorded."), entry=entry, round_number=number,
         kind=request.POST.get("kind", "half"))
    return redirect("tournament-detail", slug=slug)


@login_required
@require_POST
def tiebreaks_update(request, slug: str):
    """Organiser: the ordered tie-break keys, one per select, blanks ignored."""
    t = get_object_or_404(Tournament, slug=slug)
    keys = [k for k in request.POST.getlist("tiebreak") if k]
    _act(request, services.tournament_update_tiebreaks, _("Tie-break order saved."), tournament=t, tiebreaks=keys)
    return redirect("standings", slug=slug)
