"""People's pages about tournaments: my page, my next board, my results (a logged-in player:
``Player.user``), a player's results, and the staff's forms to assign and remove per-tournament roles
of an account (the account page itself is :func:`federation.views.user_detail`). Routed from
:mod:`federation.urls`; the templates are the member pages' (``federation/…``)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from federation import privacy, roles
from federation.errors import ApplicationError
from federation.forms import ReasonForm
from federation.models import Player
from federation.selectors import player_resolve
from federation.views import account_or_404, form_errors, staff_only, user_detail
from tournaments.models import TournamentRole
from tournaments.people import services
from tournaments.people.forms import TournamentRoleForm
from tournaments.people.selectors import (
    own_tournament_roles, player_current_boards, player_results as results_of, player_waiting_entries,
)


def _own_player(user) -> Player | None:
    """The player whose login ``user`` is, or None."""
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.select_related("club").filter(user=user).first()


def my_page(request):
    """``/me/``: the logged-in person's page — their player (rating, next board, results), their
    tournament roles, and their account (change password)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    player = _own_player(request.user)
    tournament_roles = own_tournament_roles(request.user)
    group_names = set(request.user.groups.values_list("name", flat=True))
    return render(request, "federation/my_page.html", {
        "player": player,
        "boards": player_current_boards(player) if player else [],
        "waiting": player_waiting_entries(player) if player else [],
        "tournament_roles": tournament_roles,
        "is_staff": roles.is_staff(request.user),
        "global_referee": roles.REFEREE in group_names, "global_organiser": roles.ORGANISER in group_names,
    })


def my_next_board(request):
    """``/me/next-board/``: the board of the player's current published round — tournament, round,
    board, opponent and colour — or "no board now" with what the player is waiting for."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    player = _own_player(request.user)
    return render(request, "federation/my_next_board.html", {
        "player": player,
        "boards": player_current_boards(player) if player else [],
        "waiting": player_waiting_entries(player) if player else [],
    })


def my_results(request):
    """``/me/results/``: the logged-in player's results in every tournament (their own page: with their
    personal data)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    player = _own_player(request.user)
    if player is None:
        return render(request, "federation/my_results.html", {"player": None, "own": True})
    return _results_page(request, player)


def player_results(request, federation_id: str):
    """``/players/<federation_id>/results/``: a player's matches in every tournament (public data; the
    player's own account and staff see their birth year and sex too). A merged id leads to the survivor."""
    player = Player.objects.select_related("club").filter(federation_id=federation_id).first()
    if player is None or player.merged_into_id is not None:
        survivor = player_resolve(federation_id) if player is not None or Player.objects.filter(
            federation_id__iexact=federation_id).exists() else None
        if survivor is None:
            raise Http404("no such player")
        return redirect("player-results", federation_id=survivor.federation_id, permanent=True)
    return _results_page(request, player)


def _results_page(request, player: Player):
    own = player.user_id is not None and player.user_id == request.user.pk
    return render(request, "federation/my_results.html", {
        "player": player, "own": own, "results": results_of(player, user=request.user),
        "sees_personal": privacy.sees_personal_data(request.user, player),
    })


@require_POST
def user_role_add(request, user_id: int):
    """``/staff/users/<id>/roles/`` (POST): make the account organiser or referee of a tournament
    (:func:`tournaments.people.services.tournament_role_assign`); a refusal shows the account page again."""
    refused = staff_only(request)
    if refused:
        return refused
    account = account_or_404(user_id)
    form = TournamentRoleForm(request.POST)
    if form.is_valid():
        try:
            row = services.tournament_role_assign(user=request.user, account=account,
                                                  tournament=form.cleaned_data["tournament"],
                                                  role=form.cleaned_data["role"])
        except ApplicationError as exc:
            form_errors(form, exc)
        else:
            messages.success(request, _("%(u)s is now %(role)s of %(t)s.")
                             % {"u": account.username, "role": row.get_role_display(), "t": row.tournament.name})
            return redirect("user-detail", user_id=account.pk)
    return user_detail(request, user_id, forms={"role": form}, status=400)


@require_POST
def user_role_remove(request, user_id: int, role_id: int):
    """``/staff/users/<id>/roles/<role_id>/remove/`` (POST): take a tournament role away
    (:func:`tournaments.people.services.tournament_role_remove`)."""
    refused = staff_only(request)
    if refused:
        return refused
    account = account_or_404(user_id)
    row = get_object_or_404(TournamentRole.objects.select_related("tournament"), pk=role_id, user=account)
    form = ReasonForm(request.POST)
    try:
        services.tournament_role_remove(user=request.user, role=row,
                                        reason=form.cleaned_data["reason"] if form.is_valid() else "")
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(u)s is no longer %(role)s of %(t)s.")
                         % {"u": account.username, "role": row.get_role_display(), "t": row.tournament.name})
    return redirect("user-detail", user_id=account.pk)
