"""Tournament pages: thin views that read through selectors and write through services.

Every refusal of a service (:class:`federation.errors.ApplicationError`) is shown to the user as a
message next to the form, in the same words the API uses.
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from federation.errors import ApplicationError
from federation import roles
from tournaments import access, caching, publication, selectors, services, signals, view_helpers
from tournaments.forms import TournamentDeleteForm, TournamentEditForm, TournamentForm, TrfUploadForm
from tournaments.history import selectors as history
from tournaments.knockout import settings as knockout_settings
from tournaments.knockout import views as knockout_views
from tournaments.models import Absence, Round, Tournament
from tournaments.prizes import selectors as category_selectors
from tournaments.results import selectors as result_selectors
from tournaments.standings import TIEBREAKS, tiebreak_label
from tournaments.trf import jobs as trf_jobs
from tournaments.trf import selectors as trf_selectors
from tournaments.trf.players import PlayerConflicts
from tournaments.trf.selectors import tournament_export_trf
from tournaments.trf.services import tournament_import_trf

#: Seconds between reloads of a TRF import job's progress page.
TRF_IMPORT_REFRESH_SECONDS = 2


_lang = view_helpers.page_lang
_tournament = view_helpers.visible_tournament
_act = view_helpers.run_service
_role = view_helpers.role_required


def home(request):
    """Tournament list (newest first) with links to standings, crosstables and ratings."""
    tournaments = selectors.tournament_list(user=request.user)
    # a referee's boards of the rounds being played come first (the page they land on after logging in)
    duties = [d for d in result_selectors.referee_rounds(user=request.user) if d.open]
    return render(
        request, "tournaments/home.html",
        {"tournaments": tournaments, "can_create": access.can_create_tournament(request.user), "duties": duties},
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


def standings(request, slug: str):
    """Standings with the tournament's tie-breaks; public once published. A knockout shows its final
    ranking instead (:func:`tournaments.knockout.views.standings`)."""
    t = _tournament(request, slug)
    if t.system == Tournament.System.KNOCKOUT:
        return knockout_views.standings(request, t)
    can_org = access.can_organise(request.user, t)
    if not t.standings_published and not can_org:
        return render(request, "tournaments/not_published.html", {"t": t}, status=404)
    lang, public_only = _lang(), not can_org
    categories, code, unknown = _chosen_category(request, t, public=public_only)

    def body() -> str:
        category = None
        if code:
            category, st = category_selectors.category_standings(
                tournament=t, code=code, public_only=public_only, lang=lang
            )
        else:
            st = selectors.tournament_standings(tournament=t, public_only=public_only, lang=lang)
        return render_to_string(
            "tournaments/_standings_body.html",
            {"t": t, "st": st, "category": category,
             "tiebreak_rules_text": selectors.tiebreak_rules_text(st.tiebreak_rules)},
        )

    context = {
        "t": t, "can_organise": can_org, "categories": categories, "category_code": code, "unknown_category": unknown,
        # the table (and its heading) as HTML, cached per tournament version, language, audience and category
        "body": mark_safe(caching.tournament_cached(  # noqa: S308 - rendered by our own template
            "standings-html", tournament=t, parts=(lang, code) if code else (lang,), public=public_only, build=body
        )),
    }
    if can_org:
        current = list(t.tiebreaks or [])
        context["tiebreak_slots"] = current + [""] * max(0, 6 - len(current))
        context["tiebreak_options"] = [(k, tiebreak_label(k, lang)) for k in sorted(TIEBREAKS)]
    return _not_stored_if(unknown, render(request, "tournaments/standings.html", context))


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can publish standings."))
def standings_publish(request, slug: str):
    t = _tournament(request, slug)
    _act(request, services.standings_publish, _("Standings published."), tournament=t)
    return redirect("standings", slug=slug)


def crosstable(request, slug: str):
    """Crosstable page (published rounds only)."""
    t = _tournament(request, slug)
    if not t.standings_published and not access.can_organise(request.user, t):
        return render(request, "tournaments/not_published.html", {"t": t}, status=404)
    lang = _lang()
    categories, code, unknown = _chosen_category(request, t, public=True)

    def table_html() -> str:
        category = None
        if code:
            category, table = category_selectors.category_crosstable(tournament=t, code=code, public_only=True,
                                                                     lang=lang)
        else:
            table = selectors.tournament_crosstable(tournament=t, public_only=True, lang=lang)
        return render_to_string("tournaments/_crosstable_table.html", {"t": t, "table": table, "category": category})

    html = caching.tournament_cached("crosstable-html", tournament=t, parts=(lang, code) if code else (lang,),
                                     public=True, build=table_html)
    return _not_stored_if(unknown, render(request, "tournaments/crosstable.html", {
        "t": t, "table_html": mark_safe(html),  # noqa: S308 - rendered by our own template
        "categories": categories, "category_code": code, "unknown_category": unknown,
    }))


def _not_stored_if(unknown: str, response):
    """A page for a ``?category=`` no category has is answered but never kept by a cache (ours or a proxy's):
    made-up codes must not fill it (federation/pagecache.py)."""
    if unknown:
        response["Cache-Control"] = "no-store"
    return response


def _chosen_category(request, t: Tournament, *, public: bool) -> tuple[tuple, str, str]:
    """The tournament's categories (:class:`tournaments.prizes.selectors.CategoryInfo`, cached per
    version: no query on a warm page), the code of the one ``?category=`` chose ("" for the whole field)
    and the text asked for when no category has it ("" otherwise). Only a known code reaches a cache key."""
    categories = _category_infos(t, public=public)
    asked = (request.GET.get("category") or "").strip()
    if not asked:
        return categories, "", ""
    try:
        return categories, category_selectors.find_category(categories, asked).code, ""
    except ApplicationError:
        return categories, "", asked[:40]


def _category_infos(t: Tournament, *, public: bool) -> tuple:
    """The tournament's categories for the menus, cached per version (tournaments/caching.py)."""
    return caching.tournament_cached(
        "categories", tournament=t, public=public, build=lambda: category_selectors.category_infos(tournament=t)
    )


def crosstable_pdf(request, slug: str):
    """Crosstable PDF, cached per tournament version and language. The web never waits on a worker:
    a PDF that is ready is served from storage; otherwise (with a broker) it is queued once and the
    request answers at once with 202 and a page that reloads until the file is there. In the embedded
    mode (Celery eager, no worker) it is built in this request."""
    from tournaments.paper.crosstable import crosstable_pdf_path
    from tournaments.tasks import crosstable_pdf_task

    t = _tournament(request, slug)
    if not publication.results_visible(t, request.user):
        return render(request, "tournaments/not_published.html", {"t": t}, status=404)
    lang = _lang()
    return view_helpers.cached_pdf_response(
        request, t, path=crosstable_pdf_path(t, lang), task=crosstable_pdf_task, args=[t.id, lang],
        filename=f"{t.slug}-capraz-tablo.pdf",
        pending={"title": _("Crosstable (PDF)"), "again_url": reverse("crosstable-pdf", args=[t.slug]),
                 "page_url": reverse("crosstable", args=[t.slug]), "page_label": _("Crosstable"),
                 "failed_text": _("The PDF cannot be prepared right now (the job queue is not reachable). Try "
                                  "again in a minute; the crosstable page works meanwhile.")},
    )


def standings_pdf(request, slug: str):
    """Standings PDF with the tie-break columns, behind the same publish gate as the standings page
    (organisers get their page's table, the public the published one); cached and built like the
    crosstable PDF (:func:`view_helpers.cached_pdf_response`)."""
    from tournaments.paper.hall import standings_pdf_path
    from tournaments.tasks import standings_pdf_task

    t = _tournament(request, slug)
    if not publication.results_visible(t, request.user):
        return render(request, "tournaments/not_published.html", {"t": t}, status=404)
    lang = _lang()
    public_only = not access.can_organise(request.user, t)
    return view_helpers.cached_pdf_response(
        request, t, path=standings_pdf_path(t, lang, public_only), task=standings_pdf_task,
        args=[t.id, lang, public_only], filename=f"{t.slug}-siralama.pdf",
        pending={"title": _("Standings (PDF)"), "again_url": reverse("standings-pdf", args=[t.slug]),
                 "page_url": reverse("standings", args=[t.slug]), "page_label": _("Standings"),
                 "failed_text": _("The PDF cannot be prepared right now (the job queue is not reachable). Try "
                                  "again in a minute; the standings page works meanwhile.")},
    )


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
@_role(access.can_create_tournament, _lazy("Only organisers can create tournaments."), tournament=False)
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
                # knockout sections (issue 14)
                knockout_sets=d.get("knockout_sets") or [], third_place_match=d.get("third_place_match") or False,
                level_match_rule=d.get("level_match_rule") or Tournament.LevelMatchRule.DECIDERS,
                max_deciders=d.get("max_deciders") or 0, qualified_from=d.get("qualified_from"),
                qualifiers=d.get("qualifiers"),
            )
        except ApplicationError as exc:
            view_helpers.form_error(form, exc)
        else:
            messages.success(request, _("Tournament created. Now add the players."))
            if t.system == Tournament.System.KNOCKOUT:
                messages.info(request, knockout_settings.rounds_note(t))
            return redirect("tournament-entries", slug=t.slug)
    return render(request, "tournaments/create.html", {"form": form})


@login_required
@_role(access.can_create_tournament, _lazy("Only organisers can import tournaments."), tournament=False)
def trf_import(request):
    """Upload a TRF file; the whole file is imported or nothing is.

    "Preview" runs the import and rolls it back (``dry_run``): the page lists the notes and the player
    choices — a box to refuse the one known player a line matches, a list to choose among several known
    players (or a new one), and for a line whose FIDE id belongs to a stored player with another name or
    birth year the choice "same person" / "refuse" (unconfirmed, the import is refused). "Import" then
    imports the same file (kept in the session under a token, so it is not chosen again) with those
    choices. A refusal keeps the file too. A new upload (even an empty or invalid one) replaces the kept
    file; a post without a file and without the kept file's token never brings an old file back. A second
    "Import" of the same token (a double submit) lands on the tournament the first one imported."""
    if not access.can_create_tournament(request.user):
        messages.error(request, _("Only organisers can import tournaments."))
        return redirect("home")
    form = TrfUploadForm(request.POST or None, request.FILES or None,
                         initial={"publish": True, "match_players": True})
    preview = None
    conflicts: list = []
    differing: list = []
    refused: set[int] = set()
    current = None  # the kept file this post works on (shown as kept)
    if request.method == "POST":
        token = (request.POST.get("upload") or "").strip()
        if "file" in request.FILES:  # a new file replaces the kept one, whatever becomes of it
            _trf_upload_forget(request)
        else:
            done = _trf_import_done(request, token) if token else None
            if done is not None:
                messages.info(request, _("This file has been imported already: %(name)s.") % {"name": done["name"]})
                return redirect("tournament-detail", slug=done["slug"])
            current = _trf_upload_kept(request, token)
            if current is None:  # no token, or a stale one: an old kept file is not used nor shown again
                _trf_upload_forget(request)
    if request.method == "POST" and form.is_valid():
        name = form.cleaned_data.get("name") or None
        shown = "options" in request.POST  # the page's form: its boxes say; a bare post takes the defaults
        options = {
            "system": form.cleaned_data.get("system") or None,
            "publish": form.cleaned_data.get("publish") if shown else True,
            "match_players": form.cleaned_data.get("match_players") if shown else True,
        }
        dry_run = "preview" in request.POST
        claimed = None
        try:
            data, source, current = _trf_upload_data(request, form, current)
            if trf_jobs.needs_job(data):  # a big file: a job with a progress page
                if dry_run:
                    raise ApplicationError(_("A file this big is imported by a job and cannot be previewed."),
                                           field="file")
                from tournaments.tasks import import_trf_task

                row = trf_jobs.trf_import_queue(data=data, task=import_trf_task, source=source, user=request.user,
                                                name=name, **options)
                _trf_upload_forget(request)
                return redirect("trf-import-detail", import_id=row.id)
            matches, refused = _trf_page_choices(request.POST)
            values = _trf_page_values(request.POST)
            if not dry_run:
                done = _trf_import_claim(current["token"])
                if done is not None:  # a double submit: the first one imported it meanwhile
                    _trf_upload_forget(request)
                    messages.info(request, _("This file has been imported already: %(name)s.") % {"name": done["name"]})
                    return redirect("tournament-detail", slug=done["slug"])
                claimed = current["token"]
            report = tournament_import_trf(data=data, source=source, user=request.user, name=name,
                                           player_matches=matches or None, dry_run=dry_run,
                                           player_values=values or None, **options)
        except PlayerConflicts as exc:
            form.add_error("file", exc.message)
            if exc.field == "player_values":
                differing = exc.conflicts
            else:
                conflicts = exc.conflicts
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in ("name", "system") else "file", exc.message)
        else:
            if report.dry_run:
                preview = report
                conflicts = report.conflicts
                differing = report.differing
            else:
                _trf_import_finished(request, claimed, report.tournament)
                claimed = None
                _trf_upload_forget(request)
                imported = _("Imported %(name)s.") % {"name": report.tournament.name}
                if report.notes:
                    row = trf_jobs.trf_import_record(tournament=report.tournament, notes=report.notes, data=data,
                                                     source=source, user=request.user)
                    n = len(report.notes)
                    imported = format_html('{} <a href="{}" data-testid="import-notes-link">{}</a>', imported,
                                           reverse("trf-import-detail", args=[row.id]),
                                           ngettext("%(n)d note", "%(n)d notes", n) % {"n": n})
                messages.success(request, imported)
                return redirect("tournament-detail", slug=report.tournament.slug)
        finally:
            if claimed is not None:
                _trf_import_release(claimed)
    if current is not None and form.is_bound:
        form.data = form.data.copy()
        form.data["upload"] = current["token"]
    return render(request, "tournaments/import.html", {
        "form": form, "preview": preview, "stored": current if form.is_bound else None,
        "matches": preview.single_matches if preview else [], "several": preview.several if preview else [],
        "conflicts": conflicts, "refused": sorted(refused) if preview else [], "differing": differing,
    })


#: Session key of the TRF file uploaded last on the import page (token, base64 bytes, file name).
_TRF_UPLOAD_KEY = "trf_import_upload"
#: Session key of the tokens imported from the page: token → {"slug", "name"} (the last few).
_TRF_DONE_KEY = "trf_import_done"
#: Seconds a double submit waits for the first import of the same token to end.
TRF_IMPORT_WAIT_SECONDS = 30


def _trf_upload_kept(request, token: str) -> dict | None:
    """The kept file (session) when ``token`` is its token; else None."""
    import secrets

    stored = request.session.get(_TRF_UPLOAD_KEY)
    if stored and token and secrets.compare_digest(str(stored.get("token", "")), token):
        return stored
    return None


def _trf_upload_data(request, form, kept: dict | None) -> tuple[bytes, str, dict]:
    """The file of an import post: the uploaded one (kept in the session for the next post), or ``kept`` (the
    one kept under the form's ``upload`` token). Returns ``(bytes, file name, the kept file's entry)``."""
    import base64
    import secrets

    f = form.cleaned_data.get("file")
    if f is not None:
        data = trf_jobs.read_upload(f)
        stored = {"token": secrets.token_urlsafe(16), "data": base64.b64encode(data).decode("ascii"),
                  "source": f.name or "upload.trf"}
        request.session[_TRF_UPLOAD_KEY] = stored
        return data, stored["source"], stored
    if kept is not None:
        return base64.b64decode(kept["data"]), kept.get("source") or "upload.trf", kept
    raise ApplicationError(_("Choose the TRF file."), field="file")


def _trf_page_values(post) -> dict[int, str]:
    """The choices of the import page for stored players whose sex or birth year differs from the file, as
    ``player_values``: ``value_<start no>`` is ``stored``, ``file`` or ``new``."""
    out: dict[int, str] = {}
    for key in post:
        prefix, _sep, no = key.partition("_")
        if prefix == "value" and no.isascii() and no.isdigit() and post.get(key) in ("stored", "file", "new"):
            out[int(no)] = post.get(key)
    return out


def _trf_page_choices(post) -> tuple[dict[int, str | None], set[int]]:
    """The player choices of the import page as ``player_matches``, and the lines whose one known player was
    refused: ``offered``/``keep`` boxes (unticked: a new player), ``refused`` (carried from a preview),
    ``choose_<start no>`` (one of several known players; blank: a new player) and ``confirm_<start no>``
    (a FIDE id conflict confirmed: the value is the FIDE id; blank: refused)."""
    def numbers(key: str) -> set[int]:
        return {int(n) for n in post.getlist(key) if n.isascii() and n.isdigit()}

    refused = (numbers("offered") - numbers("keep")) | numbers("refused")
    out: dict[int, str | None] = {n: None for n in refused}
    for key in post:
        prefix, _sep, no = key.partition("_")
        if prefix in ("choose", "confirm") and no.isascii() and no.isdigit():
            value = (post.get(key) or "").strip()[:20]
            if value:
                out[int(no)] = value
    return out, refused


def _trf_token_key(token: str) -> str:
    import hashlib

    return "trf-import-token:" + hashlib.sha256(token.encode()).hexdigest()


def _trf_import_done(request, token: str) -> dict | None:
    """``{"slug", "name"}`` of the tournament imported from the page with ``token``, or None."""
    from django.core.cache import cache

    done = (request.session.get(_TRF_DONE_KEY) or {}).get(token)
    if done is None:
        value = cache.get(_trf_token_key(token))
        done = value if isinstance(value, dict) else None
    if done is not None and not Tournament.objects.filter(slug=done.get("slug")).exists():
        return None  # deleted since: the file may be imported again
    return done


def _trf_import_claim(token: str) -> dict | None:
    """Claim the import of ``token`` (None). When another request is importing it (a double submit), wait up
    to :data:`TRF_IMPORT_WAIT_SECONDS` for it and return what it imported (``{"slug", "name"}``); refuse when
    it does not end in time."""
    import time

    from django.core.cache import cache

    key = _trf_token_key(token)
    deadline = time.monotonic() + TRF_IMPORT_WAIT_SECONDS
    while True:
        if cache.add(key, "running", timeout=15 * 60):
            return None
        value = cache.get(key)
        if isinstance(value, dict):
            return value
        if time.monotonic() > deadline:
            raise ApplicationError(_("This file is being imported already; reload the page in a moment."),
                                   field="file")
        time.sleep(0.2)


def _trf_import_finished(request, token: str | None, tournament: Tournament) -> None:
    """Remember that ``token`` was imported as ``tournament`` (cache and session), for a double submit."""
    from django.core.cache import cache

    if token is None:
        return
    done = {"slug": tournament.slug, "name": tournament.name}
    cache.set(_trf_token_key(token), done, timeout=24 * 3600)
    kept = dict(list((request.session.get(_TRF_DONE_KEY) or {}).items())[-9:])
    kept[token] = done
    request.session[_TRF_DONE_KEY] = kept


def _trf_import_release(token: str) -> None:
    """An import of ``token`` that did not end in a tournament: another submit may try again."""
    from django.core.cache import cache

    if cache.get(_trf_token_key(token)) == "running":
        cache.delete(_trf_token_key(token))


def _trf_upload_forget(request) -> None:
    request.session.pop(_TRF_UPLOAD_KEY, None)


@login_required
def trf_import_detail(request, import_id: int):
    """Progress of a TRF file imported by a job; reloads every 2 s while queued or running, then links
    the new tournament (with the import's notes) or shows why nothing was imported."""
    try:
        row = trf_selectors.trf_import_get(import_id=import_id, user=request.user)
    except ApplicationError as exc:
        raise Http404(exc.message) from exc
    refresh = TRF_IMPORT_REFRESH_SECONDS if row.is_active else None
    response = render(request, "tournaments/import_detail.html", {"imp": row, "refresh": refresh})
    if refresh:
        response["Refresh"] = str(refresh)
    return response


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can edit the tournament."))
def tiebreaks_update(request, slug: str):
    """Organiser: the ordered tie-break keys, one per select, blanks ignored."""
    t = _tournament(request, slug)
    keys = [k for k in request.POST.getlist("tiebreak") if k]
    _act(request, services.tournament_update_tiebreaks, _("Tie-break order saved."), tournament=t, tiebreaks=keys)
    return redirect("standings", slug=slug)


@login_required
@_role(access.can_organise, _lazy("Only the organiser can edit the tournament."))
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
            view_helpers.form_error(form, exc)
        else:
            messages.success(request, _("Tournament saved."))
            return redirect("tournament-detail", slug=slug)
    return render(request, "tournaments/edit.html", {"t": t, "form": form})


@login_required
@_role(lambda user, t: roles.is_staff(user), _lazy("Only federation staff can delete tournaments."))
def tournament_delete(request, slug: str):
    """Staff: delete (or, with rated results, archive) a tournament after typing its slug."""
    t = _tournament(request, slug)
    if not roles.is_staff(request.user):
        messages.error(request, _("Only federation staff can delete tournaments."))
        return redirect("tournament-detail", slug=slug)
    form = TournamentDeleteForm(request.POST or None)
    rated = signals.tournament_was_rated(t)
    if request.method == "POST" and form.is_valid():
        try:
            kept = services.tournament_delete(
                tournament=t, user=request.user, reason=form.cleaned_data["reason"], confirm=form.cleaned_data["confirm"]
            )
        except ApplicationError as exc:
            view_helpers.form_error(form, exc)
        else:
            if kept is None:
                messages.success(request, _("%(name)s deleted.") % {"name": t.name})
                return redirect("home")
            messages.success(request, _("%(name)s archived: hidden and no longer rated.") % {"name": t.name})
            return redirect("tournament-detail", slug=slug)
    return render(request, "tournaments/delete.html", {"t": t, "form": form, "rated": rated})


@login_required
@require_POST
@_role(lambda user, t: roles.is_staff(user), _lazy("Only federation staff can restore tournaments."))
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
