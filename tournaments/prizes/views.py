"""Pages of category rankings and prizes (issue 14): the organiser's settings page (categories, quick-add
buttons, the prize list), their edit pages, the public prize list and its PDF. Thin views: reads through
``tournaments.prizes.selectors``, writes through ``tournaments.prizes.services``; every refusal is
shown next to the form in the words the API uses.
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from federation.errors import ApplicationError
from tournaments import access, caching, publication
from tournaments.prizes import selectors as category_selectors
from tournaments.prizes import services as category_services
from tournaments.prizes.forms import CategoryForm, PrizeForm, PrizeRulesForm
from tournaments.models import Category, Prize, Tournament
from tournaments import view_helpers

_lang = view_helpers.page_lang
_tournament = view_helpers.visible_tournament


def _organised(request, slug: str) -> tuple[Tournament, bool]:
    """The tournament and whether ``request.user`` organises it (else a message is queued)."""
    t = _tournament(request, slug)
    if access.can_organise(request.user, t):
        return t, True
    messages.error(request, _("Only the organiser can change the categories and prizes."))
    return t, False


_form_error = view_helpers.form_error
_role = view_helpers.role_required


@login_required
@_role(access.can_organise, _lazy("Only the organiser can change the categories and prizes."))
def categories(request, slug: str):
    """Organiser: the tournament's categories (with how many players each has now), quick-add buttons
    (U8, U10, U12, U14, girls), a form to add one, and the prize list with a form to add a prize."""
    t, ok = _organised(request, slug)
    if not ok:
        return redirect("tournament-detail", slug=slug)
    cats = category_selectors.tournament_categories(tournament=t)
    which = request.POST.get("form") if request.method == "POST" else None
    cat_form = CategoryForm(request.POST if which == "category" else None, tournament=t,
                            initial={"kind": Category.Kind.AGE})
    prize_form = PrizeForm(request.POST if which == "prize" else None, categories=cats,
                           initial={"place": 1})
    rules_form = PrizeRulesForm(request.POST if which == "rules" else None, tournament=t,
                                paired=t.rounds.exists())
    if which == "rules" and rules_form.is_valid():
        data = rules_form.cleaned_data
        try:
            category_services.tournament_prize_rules_update(
                tournament=t, user=request.user, reason=data.get("reason") or "",
                prize_sharing=data["prize_sharing"], prizes_to_withdrawn=data["prizes_to_withdrawn"],
            )
        except ApplicationError as exc:
            _form_error(rules_form, exc)
        else:
            messages.success(request, _("Prize rules saved."))
            return redirect("categories", slug=slug)
    if which == "category" and cat_form.is_valid():
        try:
            c = category_services.category_create(tournament=t, user=request.user, **cat_form.values())
        except ApplicationError as exc:
            _form_error(cat_form, exc)
        else:
            messages.success(request, _("Category %(code)s added.") % {"code": c.code})
            return redirect("categories", slug=slug)
    if which == "prize" and prize_form.is_valid():
        try:
            category_services.prize_create(tournament=t, user=request.user, **prize_form.values())
        except ApplicationError as exc:
            _form_error(prize_form, exc)
        else:
            messages.success(request, _("Prize added."))
            return redirect("categories", slug=slug)
    counts = {code: len(ids) for code, ids in category_selectors.category_members(tournament=t, categories=cats).items()}
    prizes = list(Prize.objects.filter(tournament=t).select_related("category"))
    position = {c.pk: i for i, c in enumerate(cats)}
    prizes.sort(key=lambda p: (p.category_id is not None, position.get(p.category_id, -1), p.place))
    existing = {c.code for c in cats}
    year = category_selectors.category_age_year(t)
    return render(request, "tournaments/categories.html", {
        "t": t, "prizes": prizes, "cat_form": cat_form, "prize_form": prize_form, "age_year": year,
        "rules_form": rules_form,
        "rows": [{"category": c, "members": counts.get(c.code, 0), "rule": category_selectors.rule_text(c, year)}
                 for c in cats],
        "presets": [(code, code in existing) for code in category_services.PRESETS],
    })


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can change the categories and prizes."))
def prize_lot_draw(request, slug: str):
    """Organiser: draw the seed of the lot for indivisible prizes among players level on everything (once)."""
    t, ok = _organised(request, slug)
    if ok:
        try:
            category_services.tournament_prize_lot_draw(tournament=t, user=request.user)
        except ApplicationError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The prize lot is drawn."))
    return redirect("categories", slug=slug)


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can change the categories and prizes."))
def category_quick_add(request, slug: str):
    """Organiser: add one of the usual categories (``preset``: U8, U10, U12, U14, KIZ)."""
    t, ok = _organised(request, slug)
    if ok:
        try:
            c = category_services.category_quick_add(tournament=t, preset=request.POST.get("preset", ""),
                                                     user=request.user)
        except ApplicationError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Category %(code)s added.") % {"code": c.code})
    return redirect("categories", slug=slug)


@login_required
@_role(access.can_organise, _lazy("Only the organiser can change the categories and prizes."))
def category_edit(request, slug: str, category_id: int):
    """Organiser: change a category."""
    t, ok = _organised(request, slug)
    if not ok:
        return redirect("tournament-detail", slug=slug)
    category = get_object_or_404(Category, tournament=t, pk=category_id)
    form = CategoryForm(request.POST or None, tournament=t, category=category)
    if request.method == "POST" and form.is_valid():
        try:
            category_services.category_update(category=category, user=request.user,
                                              reason=form.cleaned_data.get("reason") or "", **form.values())
        except ApplicationError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, _("Category saved."))
            return redirect("categories", slug=slug)
    return render(request, "tournaments/category_edit.html", {"t": t, "form": form, "category": category})


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can change the categories and prizes."))
def category_delete(request, slug: str, category_id: int):
    """Organiser: delete a category and its prizes."""
    t, ok = _organised(request, slug)
    if ok:
        category = Category.objects.filter(tournament=t, pk=category_id).first()
        if category is None:  # a double tap: the first one removed it
            messages.info(request, _("This category no longer exists."))
        else:
            try:
                category_services.category_delete(category=category, user=request.user,
                                                   reason=request.POST.get("reason", ""))
            except ApplicationError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("Category %(code)s deleted.") % {"code": category.code})
    return redirect("categories", slug=slug)


@login_required
@_role(access.can_organise, _lazy("Only the organiser can change the categories and prizes."))
def prize_edit(request, slug: str, prize_id: int):
    """Organiser: change a prize."""
    t, ok = _organised(request, slug)
    if not ok:
        return redirect("tournament-detail", slug=slug)
    prize = get_object_or_404(Prize.objects.select_related("category"), tournament=t, pk=prize_id)
    cats = category_selectors.tournament_categories(tournament=t)
    form = PrizeForm(request.POST or None, categories=cats, prize=prize)
    if request.method == "POST" and form.is_valid():
        try:
            category_services.prize_update(prize=prize, user=request.user,
                                           reason=form.cleaned_data.get("reason") or "", **form.values())
        except ApplicationError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, _("Prize saved."))
            return redirect("categories", slug=slug)
    return render(request, "tournaments/prize_edit.html", {"t": t, "form": form, "prize": prize})


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can change the categories and prizes."))
def prize_delete(request, slug: str, prize_id: int):
    """Organiser: delete a prize."""
    t, ok = _organised(request, slug)
    if ok:
        prize = Prize.objects.filter(tournament=t, pk=prize_id).first()
        if prize is None:
            messages.info(request, _("This prize no longer exists."))
        else:
            try:
                category_services.prize_delete(prize=prize, user=request.user, reason=request.POST.get("reason", ""))
            except ApplicationError as exc:
                messages.error(request, exc.message)
            else:
                messages.success(request, _("Prize deleted."))
    return redirect("categories", slug=slug)


# --------------------------------------------------------------------------------------------
# The prize list (public once the final standings are published)
# --------------------------------------------------------------------------------------------


def prizes(request, slug: str):
    """Each prize and its winner, then each category's table. The public sees it once the final standings
    are published (:func:`tournaments.publication.prizes_visible`); organisers always (provisional
    before). Cached per tournament version, language and audience."""
    t = _tournament(request, slug)
    can_org = access.can_organise(request.user, t)
    if not publication.prizes_visible(t, request.user):
        return render(request, "tournaments/not_published.html", {"t": t, "prizes_pending": True}, status=404)
    lang, public_only = _lang(), not can_org

    def body() -> str:
        pl = category_selectors.prize_list(tournament=t, public_only=public_only, lang=lang)
        return render_to_string("tournaments/_prizes_body.html", {"t": t, "pl": pl})

    html = caching.tournament_cached("prizes-html", tournament=t, parts=(lang,), public=public_only, build=body)
    return render(request, "tournaments/prizes.html", {
        "t": t, "body": mark_safe(html), "can_organise": can_org,  # noqa: S308 - rendered by our own template
    })


def prizes_pdf(request, slug: str):
    """The prize list and the category tables as a printable PDF, behind the prize list's gate; cached
    and built like the crosstable PDF (``tournaments.view_helpers.cached_pdf_response``)."""
    from tournaments.paper.prizes import prizes_pdf_path
    from tournaments.tasks import prizes_pdf_task

    t = _tournament(request, slug)
    if not publication.prizes_visible(t, request.user):
        return render(request, "tournaments/not_published.html", {"t": t, "prizes_pending": True}, status=404)
    lang = _lang()
    public_only = not access.can_organise(request.user, t)
    return view_helpers.cached_pdf_response(
        request, t, path=prizes_pdf_path(t, lang, public_only), task=prizes_pdf_task,
        args=[t.id, lang, public_only], filename=f"{t.slug}-oduller.pdf", private=not public_only,
        pending={"title": _("Prize list (PDF)"), "again_url": reverse("prizes-pdf", args=[t.slug]),
                 "page_url": reverse("prizes", args=[t.slug]), "page_label": _("Prize list"),
                 "failed_text": _("The PDF cannot be prepared right now (the job queue is not reachable). Try "
                                  "again in a minute; the prize list page works meanwhile.")},
    )
