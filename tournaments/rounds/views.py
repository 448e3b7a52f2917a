"""Round pages: a round's boards, pairing the next round, publish, close, reopen, delete a pairing,
change pairings by hand, the forbidden pairs, and a round's PDFs (pairing list, result slips)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from federation.errors import ApplicationError
from tournaments import access, selectors, view_helpers
from tournaments.forms import ForbiddenPairForm
from tournaments.history import selectors as history
from tournaments.models import ForbiddenPair, Match, Round, Tournament
from tournaments.rounds import services as round_services
from tournaments.teams import services as teams
from tournaments.teams import views as team_views


_lang = view_helpers.page_lang
_tournament = view_helpers.visible_tournament
_act = view_helpers.run_service
_role = view_helpers.role_required


def round_detail(request, slug: str, number: int):
    """Pairing list of one round with results; round 1 shows the coin toss."""
    from tournaments.paper.hall import slip_link_base

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
            "can_print_slips": can_enter,
            "slips_loopback": slip_link_base(request)[1] if can_enter else "",
            "changes": _readable_changes(rnd),
            "is_last": not t.rounds.filter(number__gt=rnd.number).exists(),
            "has_results": rnd.matches.filter(kind=Match.Kind.GAME, result_entered_at__isnull=False).exists(),
            "history": history.tournament_history(tournament=t, round_number=rnd.number, limit=50) if can_org else [],
            # team events: the team matches with their boards (tournaments/teams/views.py)
            **team_views.round_team_context(tournament=t, round=rnd, boards=boards),
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


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can pair rounds."))
def round_pair(request, slug: str):
    t = _tournament(request, slug)
    seed = (request.POST.get("coin_seed") or "").strip() or None
    pair = teams.team_round_pair if t.format == Tournament.Format.TEAM else round_services.round_pair  # team events
    rnd = _act(request, pair, _("Round paired. Check it, then publish it."), tournament=t, coin_seed=seed)
    if rnd is not None:
        return redirect("round-detail", slug=slug, number=rnd.number)
    return redirect("tournament-detail", slug=slug)


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can publish pairings."))
def round_publish(request, slug: str, number: int):
    rnd = get_object_or_404(Round, tournament=_tournament(request, slug), number=number)
    _act(request, round_services.round_publish, _("Pairings published."), round=rnd)
    return redirect("round-detail", slug=slug, number=number)


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can close rounds."))
def round_close(request, slug: str, number: int):
    rnd = get_object_or_404(Round, tournament=_tournament(request, slug), number=number)
    _act(request, round_services.round_close, _("Round closed."), round=rnd)
    return redirect("round-detail", slug=slug, number=number)


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can change pairings."))
def round_swap(request, slug: str, number: int):
    rnd = get_object_or_404(Round, tournament=_tournament(request, slug), number=number)
    try:
        a, b = int(request.POST.get("board_a", "0")), int(request.POST.get("board_b", "0"))
    except ValueError:
        messages.error(request, _("Board numbers must be numbers."))
        return redirect("round-detail", slug=slug, number=number)
    _act(
        request, round_services.round_swap_pairing, _("Pairing changed; the change is recorded."), round=rnd,
        board_a=a, board_b=b, swap=request.POST.get("swap", "black"), reason=request.POST.get("reason", ""),
    )
    return redirect("round-detail", slug=slug, number=number)


def round_pairings_pdf(request, slug: str, number: int):
    """The pairing list of a round for the wall (by board with points before the round, then
    alphabetical); ``?large=1`` prints big type. Public once the round is published, like the round
    page; a draft for organisers and referees only (404 for anyone else). Cached per state of the round
    and built like the crosstable PDF (:func:`view_helpers.cached_pdf_response`)."""
    from tournaments.paper.hall import pairings_pdf_path
    from tournaments.tasks import round_pairings_pdf_task

    t = _tournament(request, slug)
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament=t, number=number)
    if not rnd.is_public and not access.can_enter_results(request.user, t):
        raise Http404("round not published")
    large = request.GET.get("large") in ("1", "true", "yes")
    lang = _lang()
    again = reverse("round-pairings-pdf", args=[t.slug, number]) + ("?large=1" if large else "")
    return view_helpers.cached_pdf_response(
        request, t, path=pairings_pdf_path(rnd, lang, large), task=round_pairings_pdf_task,
        args=[rnd.id, lang, large], filename=f"{t.slug}-tur-{number}-eslestirme{'-buyuk' if large else ''}.pdf",
        private=not rnd.is_public,
        pending={"title": _("Pairing list (PDF)"), "again_url": again,
                 "page_url": reverse("round-detail", args=[t.slug, number]),
                 "page_label": _("Round %(n)s") % {"n": number},
                 "failed_text": _("The PDF cannot be prepared right now (the job queue is not reachable). Try "
                                  "again in a minute; the round page works meanwhile.")},
    )


def round_slips_pdf(request, slug: str, number: int):
    """Result slips of a round (one per board, with a QR code of the board's result form) for the
    event's referees and organisers: anonymous visitors get the login page, anyone else 403."""
    from django.contrib.auth.views import redirect_to_login

    from tournaments.paper.hall import slip_link_base, slips_pdf_bytes

    t = _tournament(request, slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not access.can_enter_results(request.user, t):
        return HttpResponseForbidden(_("Only referees and organisers can print result slips."),
                                     content_type="text/plain; charset=utf-8")
    rnd = get_object_or_404(Round, tournament=t, number=number)
    absolute, loopback = slip_link_base(request)
    data = slips_pdf_bytes(round=rnd, absolute=absolute, lang=_lang(), loopback=loopback)
    return view_helpers.pdf_inline(data, f"{t.slug}-tur-{number}-sonuc-fisleri.pdf", private=True)


# --------------------------------------------------------------------------------------------
# Mistakes: undo a pairing, reopen a round, withdraw a bye, reinstate a player, edit and delete
# --------------------------------------------------------------------------------------------


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can delete a pairing."))
def round_delete(request, slug: str, number: int):
    """Organiser: undo the pairing of the last round (no result entered yet)."""
    rnd = Round.objects.filter(tournament=_tournament(request, slug), number=number).first()
    if rnd is None:  # a double tap: the first one deleted it
        messages.info(request, _("The pairing of round %(n)d is already deleted.") % {"n": number})
        return redirect("tournament-detail", slug=slug)
    done = _act(request, round_services.round_delete, _("The pairing of round %(n)d is deleted; pair it again when ready.")
                % {"n": number}, round=rnd, reason=request.POST.get("reason", ""))
    if done is None:
        return redirect("round-detail", slug=slug, number=number)
    return redirect(request.POST.get("next") == "entries" and "tournament-entries" or "tournament-detail", slug=slug)


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can reopen rounds."))
def round_reopen(request, slug: str, number: int):
    """Organiser: reopen the last closed round, with a reason."""
    rnd = get_object_or_404(Round, tournament=_tournament(request, slug), number=number)
    _act(request, round_services.round_reopen, _("Round %(n)d reopened.") % {"n": number}, round=rnd,
         reason=request.POST.get("reason", ""))
    return redirect("round-detail", slug=slug, number=number)


# --------------------------------------------------------------------------------------------
# Forbidden pairs
# --------------------------------------------------------------------------------------------


@login_required
@_role(access.can_organise, _lazy("Only the organiser can change forbidden pairs."))
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
            round_services.forbidden_pair_add(
                tournament=t, first=by_no.get(d["first"]), second=by_no.get(d["second"]),
                first_round=d["first_round"], last_round=d.get("last_round"), reason=d.get("reason") or "",
                user=request.user,
            )
        except ApplicationError as exc:
            view_helpers.form_error(form, exc)
        else:
            messages.success(request, _("Forbidden pair saved; the next pairings will not put them together."))
            return redirect("forbidden-pairs", slug=slug)
    pairs = list(
        t.forbidden_pairs.select_related("first__player", "second__player", "created_by").order_by(
            "first_round", "first__start_no", "second__start_no"
        )
    )
    rows = [{"pair": p, "rounds": round_services.forbidden_pair_rounds_text(p)} for p in pairs]
    return render(
        request, "tournaments/forbidden_pairs.html",
        {"t": t, "form": form, "rows": rows, "paired": paired,
         "can_add": t.system == Tournament.System.SWISS and t.status != Tournament.Status.FINISHED},
    )


@login_required
@require_POST
@_role(access.can_organise, _lazy("Only the organiser can change forbidden pairs."))
def forbidden_pair_delete(request, slug: str, pair_id: int):
    """Organiser: remove a forbidden pair (the next pairings may put the two players together)."""
    t = _tournament(request, slug)
    pair = ForbiddenPair.objects.filter(tournament=t, pk=pair_id).first()
    if pair is None:  # a double tap: the first one removed it
        messages.info(request, _("This forbidden pair no longer exists."))
        return redirect("forbidden-pairs", slug=slug)
    _act(request, round_services.forbidden_pair_remove, _("Forbidden pair removed."), pair=pair,
         reason=request.POST.get("reason", ""))
    return redirect("forbidden-pairs", slug=slug)
