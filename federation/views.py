"""Member pages: player list and player page; for federation staff the edit, (de)activate and
merge pages of players and the club pages. Writes go through :mod:`federation.services`; a refusal
(:class:`federation.errors.ApplicationError`) is shown next to the field it names."""
from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from federation import privacy, roles, services
from federation.collation import player_sort_key, turkish_sort_key
from federation.errors import ApplicationError
from federation.forms import ClubForm, PlayerCreateForm, PlayerForm, PlayerMergeForm, ReasonForm
from federation.models import Club, Player
from federation.selectors import club_change_history, club_q, name_search_q, player_change_history, player_resolve
from ratings.views import player_rating_context


def player_list(request):
    """Players in Turkish alphabetical order, filterable by name, club and sex; 50 per page.
    Deactivated players (and merged records) are hidden unless ``?all=1``."""
    qs = Player.objects.select_related("club")
    show_all = request.GET.get("all") == "1"
    if not show_all:
        qs = qs.filter(active=True)
    q = (request.GET.get("q") or "").strip()[:100]
    if q:
        qs = qs.filter(name_search_q(q))
    club = (request.GET.get("club") or "").strip()[:20]
    if club:
        qs = qs.filter(club_q(club))
    sex = request.GET.get("sex") if roles.is_staff(request.user) else None  # KVKK: sex is staff-only
    if sex in ("m", "f"):
        qs = qs.filter(sex=sex)
    ordered = sorted(qs, key=player_sort_key)  # Turkish alphabet: Akın before Aktaş, Kılıç before Koç
    page = Paginator(ordered, 50).get_page(request.GET.get("page"))
    query = urlencode({k: v for k, v in (("q", q), ("club", club), ("sex", sex), ("all", "1" if show_all else "")) if v})
    return render(
        request, "federation/player_list.html",
        {"page": page, "q": q, "clubs": Club.objects.all(), "club": club, "sex": sex, "show_all": show_all,
         "query": query, "is_staff": roles.is_staff(request.user)},
    )


def player_detail(request, federation_id: str):
    """A player's page: club, rating, rating history (chart and each event's calculation), tournaments;
    for staff the edit, (de)activate and merge actions and the change history. A merged record's id
    redirects (301) to the surviving player."""
    qs = Player.objects.select_related("club")
    player = qs.filter(federation_id=federation_id).first() or qs.filter(federation_id__iexact=federation_id).first()
    if player is None:
        raise Http404("no such player")
    if player.federation_id != federation_id and player.merged_into_id is None:  # tmf-0001 → TMF-0001
        return redirect("player-detail", federation_id=player.federation_id, permanent=True)
    if player.merged_into_id is not None:
        return redirect("player-detail", federation_id=player_resolve(federation_id).federation_id, permanent=True)
    return render(request, "federation/player_detail.html", _player_context(request, player))


def _player_context(request, player: Player, *, merge_form: PlayerMergeForm | None = None) -> dict:
    entries = player.entries.select_related("tournament").order_by("-tournament__start_date")
    if not roles.is_staff(request.user):  # the publish gate: archived tournaments are staff-only
        entries = entries.filter(tournament__archived_at__isnull=True)
    context = {"player": player, "entries": entries, **player_rating_context(player),
               # KVKK: birth year and sex for staff and the player's own account; the age category for all
               "sees_personal": privacy.sees_personal_data(request.user, player),
               "own_record": player.user_id is not None and player.user_id == request.user.pk}
    if roles.is_staff(request.user):
        context.update(
            is_staff=True, merge_form=merge_form or PlayerMergeForm(), change_history=player_change_history(player),
            merged_records=list(player.merged_records.order_by("federation_id")),
        )
    return context


# --------------------------------------------------------------------------------------------
# Staff: players
# --------------------------------------------------------------------------------------------


def _refuse_non_staff(request, to: str, *args):
    """None for staff; otherwise the response: the login page for anonymous users, else a redirect
    to ``to`` with an error message."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if roles.is_staff(request.user):
        return None
    messages.error(request, _("Only federation staff can change players and clubs."))
    return redirect(to, *args)


def _form_errors(form, exc: ApplicationError) -> None:
    """Show a service refusal on the field it names (or on the whole form)."""
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


def player_create(request):
    """Register a player (staff)."""
    refused = _refuse_non_staff(request, "player-list")
    if refused:
        return refused
    form = PlayerCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        data["rating"] = data.get("rating") or 0
        try:
            player = services.player_register(user=request.user, **data)
        except ApplicationError as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, _("%(p)s registered.") % {"p": player.full_name})
            return redirect("player-detail", federation_id=player.federation_id)
    return render(request, "federation/player_form.html", {"form": form, "player": None})


def player_edit(request, federation_id: str):
    """Edit a player (staff), with a reason kept in the change history. A merged record's id leads to
    the surviving player's edit page."""
    player = get_object_or_404(Player.objects.select_related("club"), federation_id=federation_id)
    refused = _refuse_non_staff(request, "player-detail", federation_id)
    if refused:
        return refused
    if player.merged_into_id is not None:
        return redirect("player-edit", federation_id=player_resolve(federation_id).federation_id)
    # the form works on its own copy: a refused edit leaves ``player`` (and the page's links) as stored
    form = PlayerForm(request.POST or None, instance=Player.objects.get(pk=player.pk))
    if request.method == "POST" and form.is_valid():
        data = {name: form.cleaned_data[name] for name in PlayerForm.Meta.fields}
        try:
            player = services.player_update(
                player=player, user=request.user, reason=form.cleaned_data["reason"], **data
            )
        except ApplicationError as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, _("Changes to %(p)s saved.") % {"p": player.full_name})
            return redirect("player-detail", federation_id=player.federation_id)
    return render(request, "federation/player_form.html", {"form": form, "player": player})


def _player_set_active(request, federation_id: str, *, active: bool):
    player = get_object_or_404(Player, federation_id=federation_id)
    refused = _refuse_non_staff(request, "player-detail", federation_id)
    if refused:
        return refused
    form = ReasonForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    service = services.player_activate if active else services.player_deactivate
    try:
        service(player=player, user=request.user, reason=reason)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(p)s is active again.") % {"p": player.full_name} if active
                         else _("%(p)s is deactivated.") % {"p": player.full_name})
    return redirect("player-detail", federation_id=player_resolve(federation_id).federation_id)


@require_POST
def player_deactivate(request, federation_id: str):
    return _player_set_active(request, federation_id, active=False)


@require_POST
def player_activate(request, federation_id: str):
    return _player_set_active(request, federation_id, active=True)


@require_POST
def player_merge(request, federation_id: str):
    """Merge this record into the one whose federation id is given (staff, reason and confirmation
    required); then show the kept player. A refusal shows this player's page with the form."""
    merge = get_object_or_404(Player.objects.select_related("club"), federation_id=federation_id)
    refused = _refuse_non_staff(request, "player-detail", federation_id)
    if refused:
        return refused
    if merge.merged_into_id is not None:
        messages.error(request, _("This record was merged already."))
        return redirect("player-detail", federation_id=player_resolve(federation_id).federation_id)
    form = PlayerMergeForm(request.POST)
    if form.is_valid():
        into = form.cleaned_data["into"].strip()
        keep = Player.objects.filter(federation_id=into).first()
        if keep is None:
            form.add_error("into", _("No player with federation id %(id)s.") % {"id": into})
        else:
            try:
                keep = services.player_merge(keep=keep, merge=merge, user=request.user,
                                             reason=form.cleaned_data["reason"])
            except ApplicationError as exc:
                form.add_error("reason" if exc.field == "reason" else "into", exc.message)
            else:
                messages.success(
                    request,
                    _("%(merged)s was merged into %(kept)s. The ratings are being recomputed.")
                    % {"merged": merge.federation_id, "kept": keep.federation_id},
                )
                return redirect("player-detail", federation_id=keep.federation_id)
    return render(request, "federation/player_detail.html", _player_context(request, merge, merge_form=form),
                  status=400)


# --------------------------------------------------------------------------------------------
# Clubs
# --------------------------------------------------------------------------------------------


def club_list(request):
    """Member clubs in Turkish alphabetical order with their number of active players; deactivated
    clubs only with ``?all=1``."""
    show_all = request.GET.get("all") == "1"
    qs = Club.objects.annotate(n_players=Count("players", filter=Q(players__active=True)))
    if not show_all:
        qs = qs.filter(active=True)
    clubs = sorted(qs, key=lambda c: turkish_sort_key(c.name))
    return render(request, "federation/club_list.html",
                  {"clubs": clubs, "show_all": show_all, "is_staff": roles.is_staff(request.user)})


def club_detail(request, club_id: int):
    """A club: its facts and active players; for staff the actions and the change history."""
    club = get_object_or_404(Club, pk=club_id)
    players = sorted(club.players.filter(active=True), key=player_sort_key)
    context = {"club": club, "players": players}
    if roles.is_staff(request.user):
        context.update(is_staff=True, change_history=club_change_history(club))
    return render(request, "federation/club_detail.html", context)


def club_create(request):
    """Create a club (staff)."""
    refused = _refuse_non_staff(request, "club-list")
    if refused:
        return refused
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        try:
            club = services.club_create(user=request.user, **data)
        except ApplicationError as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, _("Club %(c)s created.") % {"c": club.name})
            return redirect("club-detail", club_id=club.pk)
    return render(request, "federation/club_form.html", {"form": form, "club": None})


def club_edit(request, club_id: int):
    """Edit a club (staff), with a reason kept in the change history."""
    club = get_object_or_404(Club, pk=club_id)
    refused = _refuse_non_staff(request, "club-detail", club_id)
    if refused:
        return refused
    form = ClubForm(request.POST or None, instance=Club.objects.get(pk=club.pk))
    if request.method == "POST" and form.is_valid():
        data = {name: form.cleaned_data[name] for name in ClubForm.Meta.fields}
        try:
            club = services.club_update(club=club, user=request.user, reason=form.cleaned_data["reason"], **data)
        except ApplicationError as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, _("Changes to %(c)s saved.") % {"c": club.name})
            return redirect("club-detail", club_id=club.pk)
    return render(request, "federation/club_form.html", {"form": form, "club": club})


def _club_set_active(request, club_id: int, *, active: bool):
    club = get_object_or_404(Club, pk=club_id)
    refused = _refuse_non_staff(request, "club-detail", club_id)
    if refused:
        return refused
    form = ReasonForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    service = services.club_activate if active else services.club_deactivate
    try:
        service(club=club, user=request.user, reason=reason)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(c)s is active again.") % {"c": club.name} if active
                         else _("%(c)s is deactivated.") % {"c": club.name})
    return redirect("club-detail", club_id=club.pk)


@require_POST
def club_deactivate(request, club_id: int):
    return _club_set_active(request, club_id, active=False)


@require_POST
def club_activate(request, club_id: int):
    return _club_set_active(request, club_id, active=True)


# --------------------------------------------------------------------------------------------
# Personal data (KVKK): a player's own data, anonymising a player who left
# --------------------------------------------------------------------------------------------


def player_my_data(request, federation_id: str):
    """``/players/<federation_id>/my-data.json``: everything stored about the player, as a JSON download
    (:func:`federation.personal_data.player_data_export`) — for the player's own account
    (``Player.user``) and federation staff; anyone else logged in gets 403, an anonymous visitor the
    login page. A merged record's id leads to the surviving record's file."""
    import json

    from django.http import HttpResponse, HttpResponseForbidden

    from federation.personal_data import player_data_export

    player = get_object_or_404(Player, federation_id=federation_id)
    if player.merged_into_id is not None:
        player = player_resolve(federation_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    own = player.user_id is not None and player.user_id == request.user.pk
    if not (own or roles.is_staff(request.user)):
        return HttpResponseForbidden(_("Only the player themself and federation staff can download this data."),
                                     content_type="text/plain; charset=utf-8")
    body = json.dumps(player_data_export(player), ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{player.federation_id}-my-data.json"'
    response["Cache-Control"] = "no-store"
    return response


@require_POST
def player_anonymise(request, federation_id: str):
    """Anonymise a player who left (staff, reason required; :func:`federation.services.player_anonymise`)."""
    player = get_object_or_404(Player, federation_id=federation_id)
    refused = _refuse_non_staff(request, "player-detail", federation_id)
    if refused:
        return refused
    form = ReasonForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        player = services.player_anonymise(player=player, user=request.user, reason=reason)
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The personal data of %(id)s were removed.") % {"id": player.federation_id})
    return redirect("player-detail", federation_id=player_resolve(federation_id).federation_id)
