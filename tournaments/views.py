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
from django.http import FileResponse, Http404, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from federation.collation import player_sort_key
from federation.errors import ApplicationError
from federation.services import player_register
from federation import roles
from federation.error_views import forbidden as _forbidden
from tournaments import access, caching, publication, selectors, signals
from tournaments import services
from tournaments.entries import services as entry_services
from tournaments.results import services as result_services
from tournaments.rounds import services as round_services
from tournaments.prizes import selectors as category_selectors
from tournaments.history import selectors as history
from tournaments.trf import exchange as trf_io
from tournaments import view_helpers
from tournaments.teams import views as team_views
from tournaments.teams import services as teams
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
from tournaments.trf.exchange import tournament_export_trf, tournament_import_trf

#: Seconds between reloads of a TRF import job's progress page.
TRF_IMPORT_REFRESH_SECONDS = 2


_lang = view_helpers.page_lang
_tournament = view_helpers.visible_tournament


def home(request):
    """Tournament list (newest first) with links to standings, crosstables and ratings."""
    tournaments = selectors.tournament_list(user=request.user)
    # a referee's boards of the rounds being played come first (the page they land on after logging in)
    duties = [d for d in selectors.referee_rounds(user=request.user) if d.open]
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


_act = view_helpers.run_service
_role = view_helpers.role_required


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


#: ``?from=referee`` on a result form: after saving, back to the referee's home (not the round page).
_FROM_REFEREE = "referee"


@login_required
def match_result(request, slug: str, number: int, board: int):
    """Result entry for one board, set by set (phone-friendly).

    Each set's stores are labelled with the players' names in the order the set is played (white
    starts odd sets, black even ones: :func:`games.engine.set_starter`). A refused save (the form's
    checks or the service's :class:`ApplicationError`, whose ``field`` names the set: ``sets[3]``)
    marks the fields of that set (``aria-invalid``) and lists every reason, naming its set and linking
    to its field, in a summary above the first set that takes the focus."""
    # the board with its round, tournament and players in one query (the service reads none of them again)
    match = (
        Match.objects.select_related("white__player", "black__player", "round__tournament", "result_entered_by")
        .filter(round__tournament__slug=slug, round__number=number, board=board).first()
    )
    # permission before validation (issue 23): the role is checked on the tournament (one query for the
    # board with its tournament when it exists) before a missing board, a bye or the form is looked at
    if match is None or not publication.tournament_visible(match.round.tournament, request.user):
        t = _tournament(request, slug)  # Http404 for a missing or hidden tournament
        if not access.can_enter_results(request.user, t):
            return _forbidden(request, _("Only referees and organisers can enter results."))
        raise Http404("no such board")
    t = match.round.tournament
    if not access.can_enter_results(request.user, t):
        return _forbidden(request, _("Only referees and organisers can enter results."))
    if match.kind == Match.Kind.BYE:
        messages.info(request, _("A bye has no result to enter."))
        return redirect("round-detail", slug=slug, number=number)
    if not match.round.is_public:  # no form before the pairing is published (the service would refuse it)
        messages.error(request, _("Results are entered once the pairing is published."))
        return redirect("round-detail", slug=slug, number=number)
    from_referee = (request.POST.get("from") or request.GET.get("from")) == _FROM_REFEREE
    closed = match.round.status == Round.Status.CLOSED
    can_correct = closed and access.can_organise(request.user, t)
    conflict = None
    from tournaments.knockout import views as knockout_views

    # a knockout game (issue 14): its round's planned sets, then decider rows and the lot for the first decider
    form_class, n_sets, ko_info = knockout_views.result_form_setup(match)
    if request.method == "POST":
        form = form_class(request.POST, sets_per_match=n_sets, with_reason=can_correct)
        if form.is_valid():
            try:
                saved = result_services.match_result_enter(
                    match=match, user=request.user, forfeit=form.cleaned_data.get("forfeit") or "",
                    sets=[result_services.SetInput(**s) for s in form.cleaned_data["sets"]],
                    expected_version=form.cleaned_data.get("version"),
                    reason=form.cleaned_data.get("reason") or "",
                    decider_starter=form.cleaned_data.get("decider_starter") or "",
                )
            except ApplicationError as exc:
                if exc.extra.get("current"):  # someone else saved meanwhile: show theirs, keep mine
                    conflict = _result_conflict(match, exc.extra["current"])
                    data = form.data.copy()
                    data["version"] = str(exc.extra["current"]["version"])  # a second submit overwrites
                    form.data = data
                _result_error_to_form(form, exc)
            else:
                if saved.white_points is None:  # the match as written (not read back)
                    messages.warning(
                        request, _("Board %(b)d: sets saved; the match is not finished yet.") % {"b": board}
                    )
                else:
                    messages.success(request, _("Result of board %(b)d saved.") % {"b": board})
                if from_referee:
                    return redirect("referee-home")
                return redirect("round-detail", slug=slug, number=number)
    existing = list(match.sets.order_by("number"))  # for the page (a saved result redirects before)
    if request.method != "POST":
        initial = {"version": match.version, "forfeit": match.forfeit}
        for s in existing:
            initial[f"set{s.number}_white"] = s.white_store if s.white_store is not None else s.white_stones
            initial[f"set{s.number}_black"] = s.black_store if s.black_store is not None else s.black_stones
            initial[f"set{s.number}_termination"] = s.termination
            initial[f"set{s.number}_moves"] = s.moves
        initial["decider_starter"] = match.decider_starter
        form = form_class(initial=initial, sets_per_match=n_sets, with_reason=can_correct)
        if closed and not can_correct:
            for f in form.fields.values():
                f.disabled = True
    rows = _result_rows(form, match)
    _describe_field_errors(form)
    board_history = (
        history.tournament_history(tournament=t, round_number=number, board=board, limit=50)
        if access.can_organise(request.user, t) else []
    )
    return render(
        request, "tournaments/match_result.html",
        {"t": t, "match": match, "form": form, "sets": existing, "closed": closed, "can_correct": can_correct,
         "history": board_history, "rows": rows, "error_summary": _result_error_summary(form, rows),
         "from_referee": from_referee, "conflict": conflict, "knockout": ko_info,
         "entered_by": _user_label(match.result_entered_by) if match.result_entered_at else ""},
    )


def _user_label(user) -> str:
    """A user as shown to referees: the full name, else the user name."""
    if user is None:
        return _("someone")
    return user.get_full_name() or user.get_username()


def _result_conflict(match: Match, current: dict) -> dict:
    """What the other writer saved (``result_services.result_snapshot``), for the conflict summary: ``sets``
    ("30–18, 28–20" or the forfeit), ``by`` and ``at`` (aware; shown in the site's time zone)."""
    saved = Match.objects.select_related("result_entered_by").get(pk=match.pk)
    if current.get("forfeit"):
        sets_text = str(Match.Forfeit(current["forfeit"]).label)
    else:
        sets_text = ", ".join(f"{s['white_stones']}–{s['black_stones']}" for s in current.get("sets") or [])
    return {"sets": sets_text or "–", "by": _user_label(saved.result_entered_by), "at": saved.result_entered_at,
            "version": current.get("version")}


def _record_error(exc: BaseException | None) -> bool:
    """True when a refusal came from the move record (not from the stores)."""
    from games import engine

    return isinstance(exc, (engine.IllegalMoveError, engine.IncompleteRecordError, engine.RecordMismatchError))


def _result_error_to_form(form: MatchResultForm, exc: ApplicationError) -> None:
    """Put a refusal of :func:`result_services.match_result_enter` on the fields it is about: ``sets[k]`` (or
    ``sets`` for a set entered after the match was decided) on set k's stores (its move record when
    the record is at fault, its end when a withdrawal is), ``reason``/``forfeit`` on theirs, anything
    else (a stale version, the match as a whole) on the form."""
    import re

    from games import engine

    found = re.fullmatch(r"sets\[(\d+)\]", exc.field or "")
    k = int(found.group(1)) if found else None
    if exc.field == "sets" and isinstance(exc.__cause__, engine.MatchSetsError):
        k = _set_after_decision(form)
    if k is not None and f"set{k}_white" in form.fields:
        cause = exc.__cause__
        stores = [f"set{k}_white", f"set{k}_black"]
        if isinstance(cause, engine.RecordMismatchError):  # the record gives other stores: both may be wrong
            names = stores + [f"set{k}_moves"]
        elif _record_error(cause):
            names = [f"set{k}_moves"]
        else:
            names = stores
        term = form.data.get(f"set{k}_termination") or ""
        if isinstance(cause, engine.WithdrawalTooEarlyError) or term not in ("", "completed"):
            names.append(f"set{k}_termination")
        for name in names:
            form.add_error(name, exc.message)
    elif exc.field in ("reason", "forfeit") and exc.field in form.fields:
        form.add_error(exc.field, exc.message)
    else:
        form.add_error(None, exc.message)


def _set_after_decision(form: MatchResultForm) -> int | None:
    """The first set of the form entered after the match was already decided (the engine's rule:
    :func:`games.engine.match_result`), or ``None``."""
    from games import engine

    withdrawn = {"white_withdrew": "first", "black_withdrew": "second"}
    recorded = []
    sets = form.cleaned_data.get("sets") or []
    for i, s in enumerate(sets, start=1):
        try:
            res = engine.set_result(int(s["white_store"]), int(s["black_store"]),
                                    withdrawn_by=withdrawn.get(s["termination"]))
            recorded.append((res.first, res.second))
            decided = engine.match_result(recorded, sets_per_match=form.sets_per_match, allow_incomplete=True).complete
        except ValueError:
            return None
        if decided and i < len(sets):
            return i + 1
    return None


def _result_rows(form: MatchResultForm, match: Match) -> list[dict]:
    """The sets of the result form as the page shows them: ``n``, ``label`` ("Set 2"), ``stores`` in
    the order the set is played (the starter first: white in odd sets, black in even ones —
    :func:`games.engine.set_starter`), each ``{"field", "colour", "name", "starts"}``; the set's
    ``termination`` and ``moves`` fields; ``errors`` (each reason once) and ``first_invalid`` (the id of
    its first field in error, for the summary's link). Fields in error get ``aria-invalid`` and point
    to the set's error text (``aria-describedby``). A knockout's decider rows are labelled "Decider 1 (set 4)"
    and started as the lot says (:func:`tournaments.knockout.matches.row_info`)."""

    def name(entry) -> str:
        p = entry.player
        return f"{p.first_name} {p.last_name}".strip() if p.first_name else p.last_name

    names = {"white": name(match.white), "black": name(match.black)}
    rows = []
    from tournaments.knockout.matches import row_info

    for n, w, b, term, moves in form.set_rows():
        label, starter = row_info(match, n)  # a knockout's decider: by the lot (None: not drawn yet)
        other = "black" if starter == "white" else "white"
        fields = {"white": w, "black": b}
        stores = [{"field": fields[c], "colour": c, "name": names[c], "starts": c == starter}
                  for c in ((starter, other) if starter else ("white", "black"))]
        in_order = [stores[0]["field"], stores[1]["field"], term, moves]
        errors: list[str] = []
        invalid = [bf for bf in in_order if bf.errors]
        for bf in invalid:
            for e in bf.errors:
                if e not in errors:
                    errors.append(e)
            bf.field.widget.attrs.update({"aria-invalid": "true", "aria-describedby": f"set{n}-errors"})
        rows.append({
            "n": n, "label": label, "starter": starter, "stores": stores, "termination": term,
            "moves": moves, "errors": errors, "first_invalid": invalid[0].id_for_label if invalid else "",
        })
    return rows


#: Result-form fields outside the sets whose errors the page shows under the field (``<id>_error``).
_RESULT_OTHER_FIELDS = ("forfeit", "decider_starter", "reason")


def _describe_field_errors(form: MatchResultForm) -> None:
    """Mark the forfeit, the decider's lot and the correction's reason when in error (``aria-invalid``)
    and point each to its error text (``aria-describedby="<id>_error"``, the id the template gives it)."""
    for name in _RESULT_OTHER_FIELDS:
        if name in form.fields and form.errors.get(name):
            form.fields[name].widget.attrs.update(
                {"aria-invalid": "true", "aria-describedby": f"{form[name].auto_id}_error"}
            )


def _result_error_summary(form: MatchResultForm, rows: list[dict]) -> list[dict]:
    """Every reason a save was refused, in the order of the page, as ``{"text", "href"}``: the form's
    own first, then the forfeit, each set ("Set 3: …", unless the reason already names its set) and the
    correction's reason, each linking to its field."""
    if not form.errors:
        return []
    items = [{"text": e, "href": ""} for e in form.non_field_errors()]
    items += [{"text": e, "href": ""} for e in form.errors.get("version", [])]
    for e in form.errors.get("forfeit", []):
        items.append({"text": f"{form['forfeit'].label}: {e}", "href": f"#{form['forfeit'].id_for_label}"})
    for row in rows:
        label = row["label"]
        for e in row["errors"]:
            named = e.startswith(label) and not e[len(label):len(label) + 1].isdigit()
            items.append({"text": e if named else f"{label}: {e}", "href": f"#{row['first_invalid']}"})
    if "decider_starter" in form.fields:
        bf = form["decider_starter"]
        for e in form.errors.get("decider_starter", []):
            items.append({"text": f"{bf.label}: {e}", "href": f"#{bf.id_for_label}"})
    if "reason" in form.fields:
        for e in form.errors.get("reason", []):
            items.append({"text": f"{form['reason'].label}: {e}", "href": f"#{form['reason'].id_for_label}"})
    return items


@login_required
def referee_home(request):
    """The referee's home: the current round of every tournament they referee, each board with what is
    still missing, one tap from its result form (a round not published yet offers no form)."""
    return render(request, "tournaments/referee_home.html", {"duties": selectors.referee_rounds(user=request.user)})


#: Seconds between two updates of a live round page (its script asks :func:`live_json`).
LIVE_POLL_SECONDS = 3


def _live_data(request, t: Tournament, number: int | None = None) -> tuple[dict, str] | None:
    """(:func:`selectors.live_data` of round ``number`` (default: the live round) with ``standings_url``
    when the standings are public to this user, its ETag), cached per language and that visibility and
    rebuilt at most once per :func:`tournaments.caching.live_seconds` (:func:`caching.live_cached`);
    ``None`` when round ``number`` is not public. The dict is a fresh copy each call. Polled by every
    phone in the hall: anonymous polls are answered by federation/pagecache.py before they get here."""
    import hashlib
    import json

    lang = _lang()
    visible = publication.results_visible(t, request.user)

    def build() -> tuple[dict, str] | None:
        rnd = selectors.live_round(tournament=t, number=number)
        if rnd is None and number is not None:
            return None
        data = selectors.live_data(tournament=t, round=rnd)
        if visible:
            data["standings_url"] = reverse("standings", args=[t.slug])
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        return data, '"%s"' % hashlib.sha1(body).hexdigest()[:20]

    # rate-limited: however many results arrive, built at most once per LIVE_RECOMPUTE_SECONDS
    cached = caching.live_cached("live", tournament=t, parts=(lang, number or 0, int(visible)), build=build)
    return None if cached is None else (dict(cached[0]), cached[1])


def _live_context(request, t: Tournament) -> dict:
    return _live_data(request, t)[0]


def live(request, slug: str, tv: bool = False):
    """The round being played, for spectators: results appear as they are entered (``static/js/live.js``
    asks :func:`live_json` every few seconds). ``tv``, or ``?tv=1``: the hall's screen — large type, no
    navigation. Shows what the public sees, whoever is logged in (the publish gate)."""
    t = _tournament(request, slug)
    tv = tv or request.GET.get("tv") == "1"
    data = _live_context(request, t)
    return render(
        request, "tournaments/live_tv.html" if tv else "tournaments/live.html",
        {"t": t, "live": data, "interval": LIVE_POLL_SECONDS,
         "json_url": reverse("live-json", args=[t.slug]), "tv": tv},
    )


def live_json(request, slug: str):
    """The live round as JSON (:func:`selectors.live_data`): the last published or closed round, or
    ``?round=N`` (404 unless public). Answers 304 to a poll whose ``If-None-Match`` is still current."""
    from django.http import HttpResponseNotModified, JsonResponse
    from django.utils import timezone

    from federation import formatting

    t = _tournament(request, slug)
    number = request.GET.get("round")
    if number is not None and not (number.isascii() and number.isdigit()):
        raise Http404("round")
    live = _live_data(request, t, int(number) if number is not None else None)
    if live is None:
        raise Http404("round not published")
    data, etag = live
    # "Updated 14:02:10" in the site's time zone (TIME_ZONE), not the device's: in the body and, for a
    # 304 (the browser then hands the script its cached body), in a header too; not part of the ETag.
    now = formatting.clock(timezone.now(), seconds=True)
    data["server_time"] = now
    headers = {"ETag": etag, "Cache-Control": "private, no-cache", "Vary": "Cookie, Accept-Language",
               "X-Server-Time": now}
    if etag in [x.strip() for x in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponseNotModified()
    else:
        response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    for k, v in headers.items():
        response[k] = v
    return response


def standings(request, slug: str):
    """Standings with the tournament's tie-breaks; public once published. A knockout shows its final
    ranking instead (:func:`tournaments.knockout.views.standings`)."""
    t = _tournament(request, slug)
    if t.system == Tournament.System.KNOCKOUT:
        from tournaments.knockout import views as knockout_views

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
    return _cached_pdf_response(
        request, t, path=crosstable_pdf_path(t, lang), task=crosstable_pdf_task, args=[t.id, lang],
        filename=f"{t.slug}-capraz-tablo.pdf",
        pending={"title": _("Crosstable (PDF)"), "again_url": reverse("crosstable-pdf", args=[t.slug]),
                 "page_url": reverse("crosstable", args=[t.slug]), "page_label": _("Crosstable"),
                 "failed_text": _("The PDF cannot be prepared right now (the job queue is not reachable). Try "
                                  "again in a minute; the crosstable page works meanwhile.")},
    )


def _cached_pdf_response(request, t: Tournament | None, *, path: Path, task, args: list, filename: str, pending: dict,
                         private: bool = False):
    """A PDF cached at ``path`` (built by the Celery ``task`` with ``args``): served when ready; built in
    this request in the embedded mode (Celery eager); otherwise queued once (:func:`_claim_job`) and
    answered at once with 202 and a page (``pdf_pending.html`` with the ``pending`` texts) that reloads
    until the file is there — 503 when the broker cannot be reached. ``private``: not kept by caches
    (a draft for the staff). ``t`` names the pending page's crumb; None (an event's PDF) when
    ``pending`` carries ``crumb_url`` and ``crumb_name`` instead."""
    if not path.exists() and settings.CELERY_TASK_ALWAYS_EAGER:
        path = Path(task.apply(args=args).get())
    if path.exists():
        response = FileResponse(open(path, "rb"), content_type="application/pdf", filename=filename)
        if private:
            response["Cache-Control"] = "private, no-store"
        return response
    failed = None
    if _claim_job(path):
        try:
            task.delay(*args)
        except Exception as exc:  # broker unreachable: say so now rather than hang the worker process
            _release_job(path)
            failed = str(exc) or exc.__class__.__name__
    response = render(
        request, "tournaments/pdf_pending.html", {"t": t, "failed": failed, **pending},
        status=503 if failed else 202,
    )
    response["Retry-After"] = "2"
    response["Cache-Control"] = "no-store"
    return response


def standings_pdf(request, slug: str):
    """Standings PDF with the tie-break columns, behind the same publish gate as the standings page
    (organisers get their page's table, the public the published one); cached and built like the
    crosstable PDF (:func:`_cached_pdf_response`)."""
    from tournaments.paper.hall import standings_pdf_path
    from tournaments.tasks import standings_pdf_task

    t = _tournament(request, slug)
    if not publication.results_visible(t, request.user):
        return render(request, "tournaments/not_published.html", {"t": t}, status=404)
    lang = _lang()
    public_only = not access.can_organise(request.user, t)
    return _cached_pdf_response(
        request, t, path=standings_pdf_path(t, lang, public_only), task=standings_pdf_task,
        args=[t.id, lang, public_only], filename=f"{t.slug}-siralama.pdf",
        pending={"title": _("Standings (PDF)"), "again_url": reverse("standings-pdf", args=[t.slug]),
                 "page_url": reverse("standings", args=[t.slug]), "page_label": _("Standings"),
                 "failed_text": _("The PDF cannot be prepared right now (the job queue is not reachable). Try "
                                  "again in a minute; the standings page works meanwhile.")},
    )


def _pdf_inline(data: bytes, filename: str, *, private: bool) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    if private:
        response["Cache-Control"] = "private, no-store"
    return response


def round_pairings_pdf(request, slug: str, number: int):
    """The pairing list of a round for the wall (by board with points before the round, then
    alphabetical); ``?large=1`` prints big type. Public once the round is published, like the round
    page; a draft for organisers and referees only (404 for anyone else). Cached per state of the round
    and built like the crosstable PDF (:func:`_cached_pdf_response`)."""
    from tournaments.paper.hall import pairings_pdf_path
    from tournaments.tasks import round_pairings_pdf_task

    t = _tournament(request, slug)
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament=t, number=number)
    if not rnd.is_public and not access.can_enter_results(request.user, t):
        raise Http404("round not published")
    large = request.GET.get("large") in ("1", "true", "yes")
    lang = _lang()
    again = reverse("round-pairings-pdf", args=[t.slug, number]) + ("?large=1" if large else "")
    return _cached_pdf_response(
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
    return _pdf_inline(data, f"{t.slug}-tur-{number}-sonuc-fisleri.pdf", private=True)


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
            return redirect("tournament-entries", slug=t.slug)
    return render(request, "tournaments/create.html", {"form": form})


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
            if trf_io.needs_job(data):  # a big file: a job with a progress page
                if dry_run:
                    raise ApplicationError(_("A file this big is imported by a job and cannot be previewed."),
                                           field="file")
                row = trf_io.trf_import_queue(data=data, source=source, user=request.user, name=name, **options)
                _trf_upload_forget(request)
                return redirect("trf-import-detail", import_id=row.id)
            matches, refused = _trf_page_choices(request.POST)
            if not dry_run:
                done = _trf_import_claim(current["token"])
                if done is not None:  # a double submit: the first one imported it meanwhile
                    _trf_upload_forget(request)
                    messages.info(request, _("This file has been imported already: %(name)s.") % {"name": done["name"]})
                    return redirect("tournament-detail", slug=done["slug"])
                claimed = current["token"]
            report = tournament_import_trf(data=data, source=source, user=request.user, name=name,
                                           player_matches=matches or None, dry_run=dry_run, **options)
        except trf_io.PlayerConflicts as exc:
            form.add_error("file", exc.message)
            conflicts = exc.conflicts
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in ("name", "system") else "file", exc.message)
        else:
            if report.dry_run:
                preview = report
                conflicts = report.conflicts
            else:
                _trf_import_finished(request, claimed, report.tournament)
                claimed = None
                _trf_upload_forget(request)
                messages.success(request, _("Imported %(name)s.") % {"name": report.tournament.name})
                for note in report.notes:
                    messages.info(request, note)
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
        "conflicts": conflicts, "refused": sorted(refused) if preview else [],
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
        data = trf_io.read_upload(f)
        stored = {"token": secrets.token_urlsafe(16), "data": base64.b64encode(data).decode("ascii"),
                  "source": f.name or "upload.trf"}
        request.session[_TRF_UPLOAD_KEY] = stored
        return data, stored["source"], stored
    if kept is not None:
        return base64.b64decode(kept["data"]), kept.get("source") or "upload.trf", kept
    raise ApplicationError(_("Choose the TRF file."), field="file")


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
@_role(access.can_organise, _lazy("Only the organiser can edit the tournament."))
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
