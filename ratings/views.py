"""Pages of the national rating: the rating list (filters: club, city, sex, age group; Turkish name
order), one rated event's changes, and the official lists (archive, one list with its CSV and PDF, the
staff's publish and withdraw forms). The player page (``federation.views.player_detail``) shows a
player's history with :func:`player_rating_context`."""
from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _

from federation.collation import turkish_sort_key
from federation.models import Club, Player
from federation.privacy import AGE_GROUPS
from ratings import charts, selectors
from ratings.lists import selectors as list_selectors
from ratings.lists import services as list_services
from ratings.parameters.selectors import display_rating_system
from ratings.models import RatingEvent
from tournaments.models import Tournament

PAGE_SIZE = 100


def rating_filters(params, *, personal: bool = True) -> tuple[selectors.RatingFilters, dict]:
    """:class:`selectors.RatingFilters` from query ``params``; unknown values are ignored (a page never
    fails on a bad filter). Also returns the cleaned values for the form. Without ``personal`` (the
    public, KVKK) ``sex`` and ``year`` are ignored: filtering by sex would reveal it, and age groups
    counted in chosen years would reveal the birth year."""
    club = (params.get("club") or "").strip()[:20]
    city = (params.get("city") or "").strip()[:60]
    sex = params.get("sex") if personal and params.get("sex") in ("m", "f") else ""
    age = params.get("age") if params.get("age") in AGE_GROUPS else ""
    q = (params.get("q") or "").strip()[:100]
    year = (params.get("year") or "") if personal else ""
    year = int(year) if year.isdigit() and len(year) == 4 and 1900 <= int(year) <= 2100 else timezone.localdate().year
    order = "name" if params.get("order") == "name" else "rating"
    cleaned = {"club": club, "city": city, "sex": sex, "age": age, "q": q, "year": year, "order": order}
    return selectors.RatingFilters(club=club, city=city, sex=sex, age=age, search=q, year=year), cleaned


def rating_list(request):
    """The rating list: rated players by rating (then Turkish name order), or by name; 100 per page."""
    from federation import privacy

    sees_personal = privacy.sees_personal_data(request.user)
    filters, cleaned = rating_filters(request.GET, personal=sees_personal)
    lines = selectors.rating_list(filters, order=cleaned["order"])
    page = Paginator(lines, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request, "ratings/list.html",
        {
            "page": page, "lines": page.object_list, "total": len(lines), "f": cleaned, "query": query.urlencode(),
            "clubs": sorted(Club.objects.all(), key=lambda c: turkish_sort_key(c.name)),
            "cities": selectors.rating_cities(),
            "age_groups": [(k, v[0]) for k, v in AGE_GROUPS.items()],
            "events": selectors.rating_events()[:5],
            "provisional_rd": int(display_rating_system().params.provisional_rd),  # never a 500 (issue 23)
            "sees_personal": sees_personal,
            "official": list_selectors.rating_list_current(),
        },
    )


def rating_event(request, slug: str):
    """One rated tournament: each player's rating before and after, and what was not rated."""
    tournament = get_object_or_404(Tournament, slug=slug)
    event = RatingEvent.objects.filter(tournament=tournament).first()
    if event is None:
        raise Http404(_("This tournament is not rated."))
    return render(
        request, "ratings/event.html",
        {"t": tournament, "event": event, "changes": selectors.rating_event_changes(tournament)},
    )


def player_rating_context(player: Player) -> dict:
    """Context of the player page's rating section: ``history`` (oldest first), ``history_newest_first``,
    ``chart`` (:class:`ratings.charts.HistoryChart` or None), ``rated_sets``, ``rating_status``, and
    ``list_history``: their lines on the official lists in force, newest first."""
    history = selectors.player_history(player)
    return {
        "history": history,
        "history_newest_first": list(reversed(history)),
        "chart": charts.history_chart(history, start_label=_("start")),
        "rated_sets": sum(h.sets for h in history),
        "rating_status": history[-1].status_after if history else ("established" if player.rating else "unrated"),
        "list_history": list_selectors.player_rating_list_history(player),
    }


# --------------------------------------------------------------------------------------------
# Official rating lists
# --------------------------------------------------------------------------------------------

#: Columns of an official list's CSV file (UTF-8 with a byte order mark, comma-separated): fixed
#: names and codes whatever the page's language (``status``: provisional / established; ``active``:
#: 1 / 0; ``category``: a key of the rating list's age groups; ``rank`` and ``change`` empty when none).
CSV_COLUMNS = ("rank", "federation_id", "name", "club", "city", "rating", "change", "sets", "status", "active",
               "category")


def official_filters(params) -> tuple[list_selectors.ListEntryFilters, dict]:
    """:class:`list_selectors.ListEntryFilters` from query ``params`` (``category``: an age group key;
    ``active``: 1 / 0); unknown values are ignored. Also the cleaned values for the form."""
    category = params.get("category") if params.get("category") in AGE_GROUPS else ""
    raw = params.get("active")
    active = True if raw == "1" else (False if raw == "0" else None)
    cleaned = {"category": category, "active": raw if active is not None else ""}
    return list_selectors.ListEntryFilters(category=category, active=active), cleaned


def _list_of(on, request=None, *, in_force: bool = False):
    """The official list of date ``on`` (``?id=`` picks a withdrawn one of that date); 404 when none,
    or when ``in_force`` and it is withdrawn (downloads are of lists in force only)."""
    raw = request.GET.get("id", "") if request is not None and not in_force else ""
    rating_list = list_selectors.rating_list_for_date(on, list_id=int(raw) if raw.isdigit() and len(raw) < 19 else None)
    if rating_list is None or (in_force and not rating_list.in_force):
        raise Http404(_("No official rating list of this date."))
    return rating_list


def _age_groups() -> list[tuple[str, str]]:
    from federation.privacy import age_category_label

    return [(k, age_category_label(k)) for k in AGE_GROUPS]


def official_lists(request):
    """The archive of official lists, newest first: withdrawn ones marked, with the reason."""
    from federation import roles

    lists = list(list_selectors.rating_list_archive())
    return render(request, "ratings/official_archive.html", {
        "lists": lists, "current": next((rl for rl in lists if rl.in_force), None),
        "is_staff": roles.is_staff(request.user), "activity_months": list_selectors.ACTIVITY_WINDOW_MONTHS,
    })


def official_list(request, on):
    """One official list: 100 lines a page, filters category and active; links to its CSV and PDF."""
    from federation import roles

    rating_list = _list_of(on, request)
    filters, cleaned = official_filters(request.GET)
    page = Paginator(list_selectors.rating_list_entries(rating_list, filters), PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    replaced_by = None
    if not rating_list.in_force:
        replaced_by = list_selectors.rating_list_for_date(on)
        replaced_by = replaced_by if replaced_by is not None and replaced_by.in_force else None
    return render(request, "ratings/official_list.html", {
        "rl": rating_list, "page": page, "entries": page.object_list, "f": cleaned, "query": query.urlencode(),
        "age_groups": _age_groups(), "is_staff": roles.is_staff(request.user), "replaced_by": replaced_by,
        "activity_months": list_selectors.ACTIVITY_WINDOW_MONTHS,
        "download_query": "&".join(f"{k}={v}" for k, v in cleaned.items() if v),
    })


def _csv_text(value: str) -> str:
    """A text cell that a spreadsheet never reads as a formula (=, +, -, @ first: quoted with ')."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@") else value


def official_list_csv(request, on):
    """An official list in force as CSV (:data:`CSV_COLUMNS`), with the page's filters."""
    import csv

    from django.http import HttpResponse

    rating_list = _list_of(on, in_force=True)
    filters, _cleaned = official_filters(request.GET)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{rating_list.file_stem}.csv"'
    response.write("\ufeff")  # a byte order mark: spreadsheets read the Turkish letters as UTF-8
    writer = csv.writer(response, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for e in list_selectors.rating_list_entries(rating_list, filters).iterator(chunk_size=2000):
        writer.writerow([
            "" if e.rank is None else e.rank, e.federation_id, _csv_text(e.name), _csv_text(e.club), _csv_text(e.city),
            e.rating, "" if e.change is None else e.change, e.sets, e.status, int(e.active), e.category,
        ])
    return response


def official_list_pdf(request, on):
    """An official list in force as PDF, built once per language (by a ``pdf`` worker; in this request
    in the embedded mode) and served from storage; while it is being built, 202 and a page that
    reloads until it is there (as the crosstable PDF: ``tournaments.view_helpers.cached_pdf_response``)."""
    from pathlib import Path

    from django.conf import settings
    from django.http import FileResponse
    from django.urls import reverse

    from ratings.lists.pdf import rating_list_pdf_path
    from ratings.lists.tasks import rating_list_pdf_task
    from tournaments.view_helpers import claim_job as _claim_job, page_lang as _lang, release_job as _release_job

    rating_list = _list_of(on, in_force=True)
    lang = _lang()
    path = rating_list_pdf_path(rating_list, lang)
    if not path.exists() and settings.CELERY_TASK_ALWAYS_EAGER:
        path = Path(rating_list_pdf_task.apply(args=[rating_list.pk, lang]).get())
    if path.exists():
        return FileResponse(open(path, "rb"), content_type="application/pdf", filename=f"{rating_list.file_stem}.pdf")
    failed = None
    if _claim_job(path):
        try:
            rating_list_pdf_task.delay(rating_list.pk, lang)
        except Exception as exc:  # broker unreachable: say so now rather than hang the worker process
            _release_job(path)
            failed = str(exc) or exc.__class__.__name__
    response = render(request, "ratings/official_pdf_pending.html", {
        "rl": rating_list, "failed": failed,
        "again_url": reverse("rating-list-official-pdf", args=[rating_list.published_on]),
    }, status=503 if failed else 202)
    response["Retry-After"] = "2"
    response["Cache-Control"] = "no-store"
    return response


def _refuse_non_staff(request):
    """None for staff; else the login page (anonymous) or the 403 page."""
    from django.contrib.auth.views import redirect_to_login

    from federation import roles

    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if roles.is_staff(request.user):
        return None
    from federation.error_views import forbidden

    # the 403 page before any form is read (permission before validation, issue 23)
    return forbidden(request, _("Only federation staff can publish or withdraw rating lists."))


def _form_error(form, exc) -> None:
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


def official_list_publish(request):
    """Staff: publish the official list of a date (proposed: the first day of this month)."""
    from django.contrib import messages
    from django.shortcuts import redirect

    from federation.errors import ApplicationError
    from ratings.forms import RatingListPublishForm

    refused = _refuse_non_staff(request)
    if refused:
        return refused
    form = RatingListPublishForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            rating_list = list_services.rating_list_publish(user=request.user, **form.cleaned_data)
        except ApplicationError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, _("The official rating list of %(d)s is published.")
                             % {"d": _day(rating_list.published_on)})
            return redirect(rating_list.get_absolute_url())
    return render(request, "ratings/official_publish.html", {
        "form": form, "current": list_selectors.rating_list_current(), "activity_months": list_selectors.ACTIVITY_WINDOW_MONTHS,
    }, status=400 if form.errors else 200)


def official_list_withdraw(request, on):
    """Staff: withdraw the official list in force of a date, with a reason."""
    from django.contrib import messages
    from django.shortcuts import redirect

    from federation.errors import ApplicationError
    from ratings.forms import RatingListWithdrawForm

    refused = _refuse_non_staff(request)
    if refused:
        return refused
    rating_list = _list_of(on, in_force=True)
    form = RatingListWithdrawForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            list_services.rating_list_withdraw(rating_list=rating_list, user=request.user, reason=form.cleaned_data["reason"])
        except ApplicationError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, _("The official rating list of %(d)s is withdrawn.")
                             % {"d": _day(rating_list.published_on)})
            return redirect("rating-lists")
    return render(request, "ratings/official_withdraw.html", {"rl": rating_list, "form": form},
                  status=400 if form.errors else 200)


def _day(value) -> str:
    from federation.formatting import day

    return day(value)
