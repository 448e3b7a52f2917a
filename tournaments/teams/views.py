"""Pages of team championships (issue 14): thin views reading through :mod:`tournaments.teams.selectors`
and writing through :mod:`tournaments.teams.services`.

* ``/teams/new/`` — organisers create a team event (format team, boards per team match);
* ``/t/<slug>/teams/`` — the teams and their board order (public); organisers add teams and players
  (by federation id), move players in the board order, make them reserves, remove them, and sort the
  starting numbers by rating — until round 1 is paired;
* ``/t/<slug>/teams/standings/`` — team standings (match points, board points, team Sonneborn-Berger,
  direct encounter) and the board prizes; ``/t/<slug>/teams/crosstable/``; ``/t/<slug>/teams.pdf`` —
  behind the standings' publish gate (:mod:`tournaments.publication`).

Rounds are paired with the tournament page's "Pair round" button (:func:`tournaments.rounds.views.round_pair`
hands a team event to :func:`tournaments.teams.services.team_round_pair`); the round page shows the team matches
with their boards, and board results are entered with the normal result form.
"""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from federation.errors import ApplicationError
from federation.models import Player
from tournaments import access, caching, publication, view_helpers
from tournaments.teams import selectors as team_selectors
from tournaments.teams import services as teams
from tournaments.models import Round, TeamMember, Tournament


_lang = view_helpers.page_lang
_act = view_helpers.run_service
_role = view_helpers.role_required


def _tournament(request, slug: str) -> Tournament:
    """A team event as this user may see it (:func:`view_helpers.visible_tournament`); 404 for others."""
    t = view_helpers.visible_tournament(request, slug)
    if t.format != Tournament.Format.TEAM:
        raise Http404("not a team event")
    return t


# --------------------------------------------------------------------------------------------
# Creating a team event
# --------------------------------------------------------------------------------------------


class TeamTournamentForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("name"), max_length=160)
    start_date = forms.DateField(label=gettext_lazy("start date"), required=False,
                                 widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(label=gettext_lazy("end date"), required=False,
                               widget=forms.DateInput(attrs={"type": "date"}))
    city = forms.CharField(label=gettext_lazy("city"), max_length=60, required=False)
    venue = forms.CharField(label=gettext_lazy("venue"), max_length=160, required=False)
    system = forms.ChoiceField(label=gettext_lazy("system"), choices=[
        (Tournament.System.ROUND_ROBIN, gettext_lazy("Round robin (Berger)")),
        (Tournament.System.SWISS, gettext_lazy("Swiss (FIDE Dutch on match points)")),
    ])
    rounds_total = forms.IntegerField(
        label=gettext_lazy("number of rounds"), min_value=1, max_value=99, initial=5,
        help_text=gettext_lazy("For a round robin the pairing sets it from the number of teams."),
    )
    boards_per_team = forms.IntegerField(label=gettext_lazy("boards per team match"), min_value=teams.MIN_BOARDS,
                                         max_value=teams.MAX_BOARDS, initial=4)
    sets_per_match = forms.TypedChoiceField(label=gettext_lazy("sets per match"), coerce=int, initial=3,
                                            choices=[(1, "1"), (3, "3"), (5, "5"), (7, "7")])


@login_required
@_role(access.can_create_tournament, gettext_lazy("Only organisers can create tournaments."), tournament=False)
def team_tournament_create(request):
    if not access.can_create_tournament(request.user):
        messages.error(request, _("Only organisers can create tournaments."))
        return redirect("home")
    form = TeamTournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            t = teams.team_tournament_create(
                name=d["name"], rounds_total=d["rounds_total"], system=d["system"],
                boards_per_team=d["boards_per_team"], sets_per_match=d["sets_per_match"],
                start_date=d["start_date"], end_date=d["end_date"], city=d["city"], venue=d["venue"],
                created_by=request.user,
            )
        except ApplicationError as exc:
            view_helpers.form_error(form, exc)
        else:
            messages.success(request, _("Team event created. Now add its teams."))
            return redirect("team-list", slug=t.slug)
    return render(request, "tournaments/teams/create.html", {"form": form})


# --------------------------------------------------------------------------------------------
# Teams and their board order
# --------------------------------------------------------------------------------------------


def team_list(request, slug: str):
    """The teams with their players in board order; the organiser's forms until round 1 is paired."""
    t = _tournament(request, slug)
    can_org = access.can_organise(request.user, t)
    started = t.rounds.exists()
    return render(request, "tournaments/teams/list.html", {
        "t": t, "teams": team_selectors.teams_with_members(tournament=t), "can_organise": can_org,
        "can_edit": can_org and not started, "started": started,
    })


@login_required
@require_POST
@_role(access.can_organise, gettext_lazy("Only the organiser can change the teams."))
def team_add(request, slug: str):
    t = _tournament(request, slug)
    _act(request, teams.team_create, _("Team added."), tournament=t, name=request.POST.get("name", ""),
         short_name=request.POST.get("short_name", ""))
    return redirect("team-list", slug=slug)


@login_required
@require_POST
@_role(access.can_organise, gettext_lazy("Only the organiser can change the teams."))
def team_withdraw(request, slug: str, team_id: int):
    t = _tournament(request, slug)
    team = get_object_or_404(t.teams, pk=team_id)
    withdrawn = request.POST.get("withdrawn") == "1"
    _act(request, teams.team_update, _("Team withdrawn.") if withdrawn else _("Withdrawal undone."), team=team,
         withdrawn=withdrawn)
    return redirect("team-list", slug=slug)


@login_required
@require_POST
@_role(access.can_organise, gettext_lazy("Only the organiser can change the teams."))
def team_member_add(request, slug: str, team_id: int):
    t = _tournament(request, slug)
    team = get_object_or_404(t.teams, pk=team_id)
    fid = (request.POST.get("federation_id") or "").strip()
    player = Player.objects.filter(federation_id__iexact=fid).first() if fid else None
    if player is None:
        messages.error(request, _("No player with federation id %(id)s.") % {"id": fid[:40]})
        return redirect("team-list", slug=slug)
    board = request.POST.get("board") or None
    try:
        board = int(board) if board else None
    except ValueError:
        board = None
    _act(request, teams.team_member_add, _("%(p)s added to %(t)s.") % {"p": player.full_name, "t": team.name},
         team=team, player=player, reserve=request.POST.get("reserve") == "1", board=board)
    return redirect("team-list", slug=slug)


def _member(t: Tournament, member_id: int) -> TeamMember:
    return get_object_or_404(TeamMember.objects.select_related("team__tournament", "entry__player"),
                             pk=member_id, team__tournament=t)


@login_required
@require_POST
@_role(access.can_organise, gettext_lazy("Only the organiser can change the teams."))
def team_member_move(request, slug: str, member_id: int):
    t = _tournament(request, slug)
    member = _member(t, member_id)
    # the form's checkbox sends nothing when unticked: "reserve_sent" says the form had it
    if "reserve_sent" in request.POST or "reserve" in request.POST:
        reserve = request.POST.get("reserve") == "1"
    else:
        reserve = None
    _act(request, teams.team_member_move, _("Board order changed."), member=member,
         board=request.POST.get("board", ""), reserve=reserve)
    return redirect("team-list", slug=slug)


@login_required
@require_POST
@_role(access.can_organise, gettext_lazy("Only the organiser can change the teams."))
def team_member_remove(request, slug: str, member_id: int):
    t = _tournament(request, slug)
    member = _member(t, member_id)
    _act(request, teams.team_member_remove, _("%(p)s removed.") % {"p": member.entry.player.full_name},
         member=member)
    return redirect("team-list", slug=slug)


@login_required
@require_POST
@_role(access.can_organise, gettext_lazy("Only the organiser can change the teams."))
def team_seeds(request, slug: str):
    t = _tournament(request, slug)
    _act(request, teams.team_seeds_sort, _("Starting numbers given by rating."), tournament=t)
    return redirect("team-list", slug=slug)


# --------------------------------------------------------------------------------------------
# Standings, crosstable, board prizes, PDF
# --------------------------------------------------------------------------------------------


def _results_gate(request, t: Tournament):
    if not publication.results_visible(t, request.user):
        return render(request, "tournaments/not_published.html", {"t": t}, status=404)
    return None


def team_standings(request, slug: str):
    """Team standings and board prizes; public once the standings are published."""
    t = _tournament(request, slug)
    refused = _results_gate(request, t)
    if refused:
        return refused
    lang, public_only = _lang(), not publication.sees_everything(t, request.user)

    def body() -> str:
        st = team_selectors.team_standings_table(tournament=t, public_only=public_only, lang=lang)
        prizes = team_selectors.board_prize_tables(tournament=t, public_only=public_only)
        return render_to_string("tournaments/teams/_standings_body.html", {"t": t, "st": st, "prizes": prizes})

    html = caching.tournament_cached("team-standings-html", tournament=t, parts=(lang,), public=public_only,
                                     build=body)
    return render(request, "tournaments/teams/standings.html", {
        "t": t, "body": mark_safe(html),  # noqa: S308 - rendered by our own template
        "can_organise": not public_only,
    })


def team_crosstable(request, slug: str):
    t = _tournament(request, slug)
    refused = _results_gate(request, t)
    if refused:
        return refused
    lang, public_only = _lang(), not publication.sees_everything(t, request.user)

    def body() -> str:
        table = team_selectors.team_crosstable_table(tournament=t, public_only=public_only, lang=lang)
        return render_to_string("tournaments/teams/_crosstable_table.html", {"t": t, "table": table})

    html = caching.tournament_cached("team-crosstable-html", tournament=t, parts=(lang,), public=public_only,
                                     build=body)
    return render(request, "tournaments/teams/crosstable.html", {
        "t": t, "table_html": mark_safe(html),  # noqa: S308 - rendered by our own template
    })


def team_pdf(request, slug: str):
    """The team standings, the team crosstable and the board prizes as one PDF (A4), behind the standings'
    gate; cached per version, language and audience (:mod:`tournaments.paper.teams`) and built like the
    crosstable PDF (``tournaments.view_helpers.cached_pdf_response``: the Celery task ``tournaments.paper.teams`` on
    the ``pdf`` queue; 202 and a reloading page until the file is there)."""
    from tournaments.tasks import team_pdf_task
    from tournaments.paper.teams import team_pdf_path

    t = _tournament(request, slug)
    refused = _results_gate(request, t)
    if refused:
        return refused
    lang = _lang()
    public_only = not publication.sees_everything(t, request.user)
    return view_helpers.cached_pdf_response(
        request, t, path=team_pdf_path(t, lang, public_only), task=team_pdf_task,
        args=[t.id, lang, public_only], filename=f"{t.slug}-takimlar.pdf", private=not public_only,
        pending={"title": _("Team standings (PDF)"), "again_url": reverse("team-pdf", args=[t.slug]),
                 "page_url": reverse("team-standings", args=[t.slug]), "page_label": _("Team standings"),
                 "failed_text": _("The PDF cannot be prepared right now (the job queue is not reachable). Try "
                                  "again in a minute; the team standings page works meanwhile.")},
    )


def round_team_context(*, tournament: Tournament, round: Round, boards) -> dict:
    """What the round page needs of a team event: its team matches with their boards and results
    (:func:`tournaments.teams.selectors.round_team_matches`); empty for an individual event."""
    if tournament.format != Tournament.Format.TEAM:
        return {}
    return {"team_matches": team_selectors.round_team_matches(round=round, boards=boards)}

