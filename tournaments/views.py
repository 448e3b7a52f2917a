"""Tournament pages: thin views that read through selectors and write through services.

Every refusal of a service (:class:`federation.errors.ApplicationError`) is shown to the user as a
message next to the form, in the same words the API uses.
"""
from __future__ import annotations

from pathlib import Path

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
from federation import roles
from tournaments import access, history, publication, selectors, services, trf_io
from tournaments.forms import (
    EntriesForm,
    ForbiddenPairForm,
    MatchResultForm,
    PlayerRegisterForm,
    TournamentDeleteForm,
    TournamentEditForm,
    TournamentForm,
    TrfUploadForm,
)
from tournaments.models import Absence, ForbiddenPair, Match, Round, Tournament
from tournaments.standings import TIEBREAKS, tiebreak_label
from tournaments.trf_io import tournament_export_trf, tournament_import_trf

#: Seconds between reloads of a TRF import job's progress page.
TRF_IMPORT_REFRESH_SECONDS = 2


def _lang() -> str:
    return "en" if (get_language() or "tr").startswith("en") else "tr"


def _tournament(request, slug: str) -> Tournament:
    """The tournament as this user may see it (the publish gate: archived ones for staff only); 404."""
    t = get_object_or_404(Tournament, slug=slug)
    if not publication.tournament_visible(t, request.user):
        raise Http404("archived")
    return t


def home(request):
    """Tournament list (newest first) with links to standings, crosstables and ratings."""
    tournaments = selectors.tournament_list(user=request.user)
    return render(
        request, "tournaments/home.html",
        {"tournaments": tournaments, "can_create": access.can_create_tournament(request.user)},
    )


def tournament_detail(request, slug: str):
    """A tournament's page: facts, visible rounds, and the actions the user may take."""
    t = _tournament(request, slug)
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
            "last_round": last, "is_staff": roles.is_staff(request.user),
            "history": history.tournament_history(tournament=t, limit=15) if can_org else [],
        },
    )


def round_detail(request, slug: str, number: int):
    """Pairing list of one round with results; round 1 shows the coin toss."""
    t = _tournament(request, slug)
    rnd = get_object_or_404(Round.objects.select_related("coin_toss"), tournament=t, number=number)
    can_enter = access.can_enter_results(request.user, t)
    if not rnd.is_public and not can_enter:
        raise Http404("round not published")
    boards = selectors.round_boards(round=rnd)
    can_org = access.can_organise(request.user, t)
    return render(
        request, "tournaments/round.html",
        {
            "t": t, "round": rnd, "boards": boards, "can_enter": can_enter and rnd.status == Round.Status.PUBLISHED,
            "can_organise": can_org, "toss": getattr(rnd, "coin_toss", None),
            "changes": _readable_changes(rnd),
            "is_last": not t.rounds.filter(number__gt=rnd.number).exists(),
            "has_results": rnd.matches.filter(kind=Match.Kind.GAME, result_entered_at__isnull=False).exists(),
            "history": history.tournament_history(tournament=t, round_number=rnd.number, limit=50) if can_org else [],
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
    t = _tournament(request, slug)
    seed = (request.POST.get("coin_seed") or "").strip() or None
    rnd = _act(request, services.round_pair, _("Round paired. Check it, then publish it."), tournament=t, coin_seed=seed)
    if rnd is not None:
        return redirect("round-detail", slug=slug, number=rnd.number)
    return redirect("tournament-detail", slug=slug)


@login_required
@require_POST
def round_publish(request, slug: str, number: int):
    rnd = get_object_or_404(Round, tournament=_tournament(request, slug), number=number)
    _act(request, services.round_publish, _("Pairings published."), round=rnd)
    return redirect("round-detail", slug=slug, number=number)


@login_required
@require_POST
def round_close(request, slug: str, number: int):
    rnd = get_object_or_404(Round, tournament=_tournament(request, slug), number=number)
    _act(request, services.round_close, _("Round closed."), round=rnd)
    return redirect("round-detail", slug=slug, number=number)


@login_required
@require_POST
def round_swap(request, slug: str, number: int):
    rnd = get_object_or_404(Round, tournament=_tournament(request, slug), number=number)
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
    t = _tournament(request, slug)
    match = get_object_or_404(
        Match.objects.select_related("white__player", "black__player", "round"), round__tournament=t,
        round__number=number, board=board,
    )
    if not access.can_enter_results(request.user, t):
        messages.error(request, _("Only referees and organisers can enter results."))
        return redirect("round-detail", slug=slug, number=number)
    if match.kind == Match.Kind.BYE:
        messages.info(request, _("A bye has no result to enter."))
        return redirect("round-detail", slug=slug, number=number)
    existing = list(match.sets.order_by("number"))
    closed = match.round.status == Round.Status.CLOSED
    can_correct = closed and access.can_organise(request.user, t)
    if request.method == "POST":
        form = MatchResultForm(request.POST, sets_per_match=t.sets_per_match, with_reason=can_correct)
        if form.is_valid():
            try:
                services.match_result_enter(
                    match=match, user=request.user, forfeit=form.cleaned_data.get("forfeit") or "",
                    sets=[services.SetInput(**s) for s in form.cleaned_data["sets"]],
                    expected_version=form.cleaned_data.get("version"),
                    reason=form.cleaned_data.get("reason") or "",
                )
            except ApplicationError as exc:
                if exc.field == "reason" and "reason" in form.fields:
                    form.add_error("reason", exc.message)
                else:
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
        form = MatchResultForm(initial=initial, sets_per_match=t.sets_per_match, with_reason=can_correct)
        if closed and not can_correct:
            for f in form.fields.values():
                f.disabled = True
    board_history = (
        history.tournament_history(tournament=t, round_number=number, board=board, limit=50)
        if access.can_organise(request.user, t) else []
    )
    return render(
        request, "tournaments/match_result.html",
        {"t": t, "match": match, "form": form, "sets": existing, "closed": closed, "can_correct": can_correct,
         "history": board_history},
    )


def standings(request, slug: str):
    """Standings with the tournament's tie-breaks; public once published."""
    t = _tournament(request, slug)
    can_org = access.can_organise(request.user, t)
    if not t.standings_published and not can_org:
        return render(request, "tournaments/not_published.html", {"t": t}, status=404)
    st = selectors.tournament_standings(tournament=t, public_only=not can_org, lang=_lang())
    current = list(t.tiebreaks or [])
    slots = current + [""] * max(0, 6 - len(current))
    options = [(k, tiebreak_label(k, _lang())) for k in sorted(TIEBREAKS)]
    return render(
        request, "tournaments/standings.html",
        {"t": t, "st": st, "can_organise": can_org, "tiebreak_slots": slots, "tiebreak_options": options,
         "tiebreak_rules_text": selectors.tiebreak_rules_text(st.tiebreak_rules)},
    )


@login_required
@require_POST
def standings_publish(request, slug: str):
    t = _tournament(request, slug)
    _act(request, services.standings_publish, _("Standings published."), tournament=t)
    return redirect("standings", slug=slug)


def crosstable(request, slug: str):
    """Crosstable page (published rounds only)."""
    t = _tournament(request, slug)
    if not t.standings_published and not access.can_organise(request.user, t):
        return render(request, "tournaments/not_published.html", {"t": t}, status=404)
    table = selectors.tournament_crosstable(tournament=t, public_only=True, lang=_lang())
    return render(request, "tournaments/crosstable.html", {"t": t, "table": table})


def crosstable_pdf(request, slug: str):
    """Crosstable PDF, cached per tournament version and language. The web never waits on a worker:
    a PDF that is ready is served from storage; otherwise (with a broker) it is queued once and the
    request answers at once with 202 and a page that reloads until the file is there. In the embedded
    mode (Celery eager, no worker) it is built in this request."""
    from tournaments.crosstable_pdf import crosstable_pdf_path
    from tournaments.tasks import crosstable_pdf_task

    t = _tournament(request, slug)
    if not publication.results_visible(t, request.user):
        return render(request, "tournaments/not_published.html", {"t": t}, status=404)
    lang = _lang()
    path = crosstable_pdf_path(t, lang)
    if not path.exists() and settings.CELERY_TASK_ALWAYS_EAGER:
        path = Path(crosstable_pdf_task.apply(args=[t.id, lang]).get())
    if path.exists():
        return FileResponse(open(path, "rb"), content_type="application/pdf", filename=f"{t.slug}-capraz-tablo.pdf")
    failed = None
    if _claim_job(path):
        try:
            crosstable_pdf_task.delay(t.id, lang)
        except Exception as exc:  # broker unreachable: say so now rather than hang the worker process
            _release_job(path)
            failed = str(exc) or exc.__class__.__name__
    response = render(
        request, "tournaments/pdf_pending.html", {"t": t, "failed": failed}, status=503 if failed else 202,
    )
    response["Retry-After"] = "2"
    response["Cache-Control"] = "no-store"
    return response


_JOB_CLAIM_SECONDS = 120


def _claim_job(path: Path) -> bool:
    """True for the first request that asks for ``path`` to be built (a marker file created with
    O_EXCL, shared by every web process); a marker older than two minutes is stale (a lost job)."""
    import os
    import time

    marker = path.with_suffix(".queued")
    marker.parent.mkdir(parents=True, exist_ok=True)
    try:
        if time.time() - marker.stat().st_mtime > _JOB_CLAIM_SECONDS:
            marker.unlink(missing_ok=True)
    except FileNotFoundError:
        pass
    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def _release_job(path: Path) -> None:
    path.with_suffix(".queued").unlink(missing_ok=True)


def export_trf(request, slug: str):
    """Download the tournament as TRF-16 (published rounds only for the public)."""
    t = _tournament(request, slug)
    if not publication.results_visible(t, request.user):
        raise Http404("not published")
    organiser = publication.sees_everything(t, request.user)
    up_to = None if organiser else publication.published_round(t)
    # the public's file has no birth dates and no sex (KVKK); the organisers' file keeps them
    text = tournament_export_trf(tournament=t, up_to_round=up_to, personal=organiser)
    resp = HttpResponse(text, content_type="text/plain; charset=utf-8")
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
                acceleration=d.get("acceleration") or Tournament.Acceleration.NONE,
                tiebreak_rules=d.get("tiebreak_rules") or Tournament.TiebreakRules.AUTO,
                second_cycle_swap=d.get("second_cycle_swap", True),
            )
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Tournament created. Now add the players."))
            return redirect("tournament-entries", slug=t.slug)
    return render(request, "tournaments/create.html", {"form": form})


@login_required
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
                    services.entry_add(tournament=t, player=player, user=request.user,
                                       missed_rounds=request.POST.get("missed_rounds") or "zero")
            except ApplicationError as exc:
                register.add_error(exc.field if exc.field in register.fields else None, exc.message)
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
                    services.entry_add(tournament=t, player=p, user=request.user, missed_rounds=missed)
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
         "unplayed_pairing": last is not None and services._unplayed_pairing(last)},
    )


@login_required
@require_POST
def entry_withdraw(request, slug: str, start_no: int):
    t = _tournament(request, slug)
    entry = get_object_or_404(t.entries, start_no=start_no)
    _act(request, services.entry_withdraw, _("%(p)s withdrawn.") % {"p": entry.player.full_name}, entry=entry)
    return redirect("tournament-detail", slug=slug)


@login_required
def trf_import(request):
    """Upload a TRF file; the whole file is imported or nothing is.

    "Preview" runs the import and rolls it back (``dry_run``): the page lists the notes and the known
    players the lines would be matched to, each with a box to refuse the match; "Import" then imports
    the same file (kept in the session under a token, so it is not chosen again), with the refused
    matches registered as new players. A refusal that only asks for the system keeps the file too."""
    if not access.can_create_tournament(request.user):
        messages.error(request, _("Only organisers can import tournaments."))
        return redirect("home")
    form = TrfUploadForm(request.POST or None, request.FILES or None,
                         initial={"publish": True, "match_players": True})
    preview = None
    refused: set[int] = set()
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data.get("name") or None
        shown = "options" in request.POST  # the page's form: its boxes say; a bare post takes the defaults
        options = {
            "system": form.cleaned_data.get("system") or None,
            "publish": form.cleaned_data.get("publish") if shown else True,
            "match_players": form.cleaned_data.get("match_players") if shown else True,
        }
        try:
            data, source = _trf_upload_data(request, form)
            if trf_io.needs_job(data):  # a big file: a job with a progress page
                if "preview" in request.POST:
                    raise ApplicationError(_("A file this big is imported by a job and cannot be previewed."),
                                           field="file")
                row = trf_io.trf_import_queue(data=data, source=source, user=request.user, name=name, **options)
                _trf_upload_forget(request)
                return redirect("trf-import-detail", import_id=row.id)
            offered = {int(n) for n in request.POST.getlist("offered") if n.isdigit()}
            kept = {int(n) for n in request.POST.getlist("keep") if n.isdigit()}
            refused = (offered - kept) | {int(n) for n in request.POST.getlist("refused") if n.isdigit()}
            matches = {n: None for n in sorted(refused)} or None
            report = tournament_import_trf(data=data, source=source, user=request.user, name=name,
                                           player_matches=matches, dry_run="preview" in request.POST, **options)
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in ("name", "system") else "file", exc.message)
            if exc.field == "player_matches":
                _trf_upload_forget(request)
        else:
            if report.dry_run:
                preview = report
            else:
                _trf_upload_forget(request)
                messages.success(request, _("Imported %(name)s.") % {"name": report.tournament.name})
                for note in report.notes:
                    messages.info(request, note)
                return redirect("tournament-detail", slug=report.tournament.slug)
    stored = request.session.get(_TRF_UPLOAD_KEY) if request.method == "POST" else None
    if stored and form.is_bound:
        form.data = form.data.copy()
        form.data["upload"] = stored["token"]
    return render(request, "tournaments/import.html", {
        "form": form, "preview": preview, "stored": stored if form.is_bound else None,
        "matches": preview.matches if preview else [], "refused": sorted(refused) if preview else [],
    })


#: Session key of the TRF file uploaded last on the import page (token, base64 bytes, file name).
_TRF_UPLOAD_KEY = "trf_import_upload"


def _trf_upload_data(request, form) -> tuple[bytes, str]:
    """The file of an import post: the uploaded one (kept in the session for the next post), or the one
    kept under the form's ``upload`` token."""
    import base64
    import secrets

    f = form.cleaned_data.get("file")
    if f is not None:
        data = trf_io.read_upload(f)
        request.session[_TRF_UPLOAD_KEY] = {
            "token": secrets.token_urlsafe(16), "data": base64.b64encode(data).decode("ascii"),
            "source": f.name or "upload.trf",
        }
        return data, f.name or "upload.trf"
    stored = request.session.get(_TRF_UPLOAD_KEY)
    token = form.cleaned_data.get("upload") or ""
    if stored and token and secrets.compare_digest(stored.get("token", ""), token):
        return base64.b64decode(stored["data"]), stored.get("source") or "upload.trf"
    raise ApplicationError(_("Choose the TRF file."), field="file")


def _trf_upload_forget(request) -> None:
    request.session.pop(_TRF_UPLOAD_KEY, None)


@login_required
def trf_import_detail(request, import_id: int):
    """Progress of a TRF file imported by a job; reloads every 2 s while queued or running, then links
    the new tournament (with the import's notes) or shows why nothing was imported."""
    try:
        row = trf_io.trf_import_get(import_id=import_id, user=request.user)
    except ApplicationError as exc:
        raise Http404(exc.message) from exc
    refresh = TRF_IMPORT_REFRESH_SECONDS if row.is_active else None
    response = render(request, "tournaments/import_detail.html", {"imp": row, "refresh": refresh})
    if refresh:
        response["Refresh"] = str(refresh)
    return response


@login_required
@require_POST
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
    _act(request, services.entry_request_bye, _("Bye recorded."), entry=entry, round_number=number,
         kind=request.POST.get("kind", "half"))
    return redirect("tournament-detail", slug=slug)


@login_required
@require_POST
def tiebreaks_update(request, slug: str):
    """Organiser: the ordered tie-break keys, one per select, blanks ignored."""
    t = _tournament(request, slug)
    keys = [k for k in request.POST.getlist("tiebreak") if k]
    _act(request, services.tournament_update_tiebreaks, _("Tie-break order saved."), tournament=t, tiebreaks=keys)
    return redirect("standings", slug=slug)


# --------------------------------------------------------------------------------------------
# Mistakes: undo a pairing, reopen a round, withdraw a bye, reinstate a player, edit and delete
# --------------------------------------------------------------------------------------------


@login_required
@require_POST
def round_delete(request, slug: str, number: int):
    """Organiser: undo the pairing of the last round (no result entered yet)."""
    rnd = Round.objects.filter(tournament=_tournament(request, slug), number=number).first()
    if rnd is None:  # a double tap: the first one deleted it
        messages.info(request, _("The pairing of round %(n)d is already deleted.") % {"n": number})
        return redirect("tournament-detail", slug=slug)
    done = _act(request, services.round_delete, _("The pairing of round %(n)d is deleted; pair it again when ready.")
                % {"n": number}, round=rnd, reason=request.POST.get("reason", ""))
    if done is None:
        return redirect("round-detail", slug=slug, number=number)
    return redirect(request.POST.get("next") == "entries" and "tournament-entries" or "tournament-detail", slug=slug)


@login_required
@require_POST
def round_reopen(request, slug: str, number: int):
    """Organiser: reopen the last closed round, with a reason."""
    rnd = get_object_or_404(Round, tournament=_tournament(request, slug), number=number)
    _act(request, services.round_reopen, _("Round %(n)d reopened.") % {"n": number}, round=rnd,
         reason=request.POST.get("reason", ""))
    return redirect("round-detail", slug=slug, number=number)


@login_required
@require_POST
def entry_reinstate(request, slug: str, start_no: int):
    t = _tournament(request, slug)
    entry = get_object_or_404(t.entries, start_no=start_no)
    _act(request, services.entry_reinstate, _("%(p)s is back in the tournament.") % {"p": entry.player.full_name},
         entry=entry, reason=request.POST.get("reason", ""))
    return redirect("tournament-detail", slug=slug)


@login_required
@require_POST
def bye_withdraw(request, slug: str, start_no: int, number: int):
    t = _tournament(request, slug)
    entry = get_object_or_404(t.entries, start_no=start_no)
    _act(request, services.entry_bye_withdraw, _("Bye request withdrawn."), entry=entry, round_number=number,
         reason=request.POST.get("reason", ""))
    return redirect("tournament-detail", slug=slug)


@login_required
def tournament_edit(request, slug: str):
    """Organiser: edit the tournament's settings (tie-breaks until round 1 is paired)."""
    t = _tournament(request, slug)
    if not access.can_organise(request.user, t):
        messages.error(request, _("Only the organiser can edit the tournament."))
        return redirect("tournament-detail", slug=slug)
    form = TournamentEditForm(request.POST or None, tournament=t, lang=_lang())
    if request.method == "POST" and form.is_valid():
        d = dict(form.cleaned_data)
        reason = d.pop("reason", "")
        try:
            services.tournament_update(tournament=t, user=request.user, reason=reason, **form.changes(d))
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Tournament saved."))
            return redirect("tournament-detail", slug=slug)
    return render(request, "tournaments/edit.html", {"t": t, "form": form})


@login_required
def tournament_delete(request, slug: str):
    """Staff: delete (or, with rated results, archive) a tournament after typing its slug."""
    t = _tournament(request, slug)
    if not roles.is_staff(request.user):
        messages.error(request, _("Only federation staff can delete tournaments."))
        return redirect("tournament-detail", slug=slug)
    form = TournamentDeleteForm(request.POST or None)
    rated = services._was_rated(t)
    if request.method == "POST" and form.is_valid():
        try:
            kept = services.tournament_delete(
                tournament=t, user=request.user, reason=form.cleaned_data["reason"], confirm=form.cleaned_data["confirm"]
            )
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            if kept is None:
                messages.success(request, _("%(name)s deleted.") % {"name": t.name})
                return redirect("home")
            messages.success(request, _("%(name)s archived: hidden and no longer rated.") % {"name": t.name})
            return redirect("tournament-detail", slug=slug)
    return render(request, "tournaments/delete.html", {"t": t, "form": form, "rated": rated})


@login_required
@require_POST
def tournament_restore(request, slug: str):
    t = _tournament(request, slug)
    _act(request, services.tournament_restore, _("%(name)s restored.") % {"name": t.name}, tournament=t,
         reason=request.POST.get("reason", ""))
    return redirect("tournament-detail", slug=slug)


@login_required
def tournament_history_page(request, slug: str):
    """Organiser: every change of the tournament, newest first (staff: of a deleted one too)."""
    gone = history.deleted_tournament(slug) if roles.is_staff(request.user) else None
    if gone is not None:
        items = history.tournament_history(tournament=gone, limit=1000)
        return render(request, "tournaments/history.html", {"t": gone, "history": items, "deleted": True})
    t = _tournament(request, slug)
    if not access.can_organise(request.user, t):
        messages.error(request, _("Only the organiser can see the history."))
        return redirect("tournament-detail", slug=slug)
    items = history.tournament_history(tournament=t, limit=1000)
    return render(request, "tournaments/history.html", {"t": t, "history": items})


# --------------------------------------------------------------------------------------------
# Forbidden pairs
# --------------------------------------------------------------------------------------------


@login_required
def forbidden_pairs(request, slug: str):
    """Organiser: the players who must not be paired with each other (in a range of rounds), and a form
    to add one (Swiss events)."""
    t = _tournament(request, slug)
    if not access.can_organise(request.user, t):
        messages.error(request, _("Only the organiser can change forbidden pairs."))
        return redirect("tournament-detail", slug=slug)
    paired = t.rounds.count()
    next_round = min(paired + 1, t.rounds_total)
    form = ForbiddenPairForm(request.POST or None, tournament=t, next_round=next_round)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        by_no = {e.start_no: e for e in t.entries.select_related("player")}
        try:
            services.forbidden_pair_add(
                tournament=t, first=by_no.get(d["first"]), second=by_no.get(d["second"]),
                first_round=d["first_round"], last_round=d.get("last_round"), reason=d.get("reason") or "",
                user=request.user,
            )
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.message)
        else:
            messages.success(request, _("Forbidden pair saved; the next pairings will not put them together."))
            return redirect("forbidden-pairs", slug=slug)
    pairs = list(
        t.forbidden_pairs.select_related("first__player", "second__player", "created_by").order_by(
            "first_round", "first__start_no", "second__start_no"
        )
    )
    rows = [{"pair": p, "rounds": services.forbidden_pair_rounds_text(p)} for p in pairs]
    return render(
        request, "tournaments/forbidden_pairs.html",
        {"t": t, "form": form, "rows": rows, "paired": paired,
         "can_add": t.system == Tournament.System.SWISS and t.status != Tournament.Status.FINISHED},
    )


@login_required
@require_POST
def forbidden_pair_delete(request, slug: str, pair_id: int):
    """Organiser: remove a forbidden pair (the next pairings may put the two players together)."""
    t = _tournament(request, slug)
    pair = ForbiddenPair.objects.filter(tournament=t, pk=pair_id).first()
    if pair is None:  # a double tap: the first one removed it
        messages.info(request, _("This forbidden pair no longer exists."))
        return redirect("forbidden-pairs", slug=slug)
    _act(request, services.forbidden_pair_remove, _("Forbidden pair removed."), pair=pair,
         reason=request.POST.get("reason", ""))
    return redirect("forbidden-pairs", slug=slug)
