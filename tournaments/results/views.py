"""Result pages: a board's result form (entry and correction), the referee's home page, and the live
pages (live boards, TV view, their JSON)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from federation.errors import ApplicationError
from federation.error_views import forbidden as _forbidden
from tournaments import access, caching, publication, view_helpers
from tournaments.forms import MatchResultForm
from tournaments.history import selectors as history
from tournaments.knockout import views as knockout_views
from tournaments.knockout.matches import row_info
from tournaments.models import Match, Round, Tournament
from tournaments.results import selectors
from tournaments.results import services as result_services


_lang = view_helpers.page_lang
_tournament = view_helpers.visible_tournament

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
            return _forbidden(request, access.results_refused_message(request.user, t))
        raise Http404("no such board")
    t = match.round.tournament
    if not access.can_enter_results(request.user, t):
        return _forbidden(request, access.results_refused_message(request.user, t))
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
