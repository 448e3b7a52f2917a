"""Member pages: player list and player page; for federation staff the edit, (de)activate and
merge pages of players and the club pages. Writes go through :mod:`federation.services`; a refusal
(:class:`federation.errors.ApplicationError`) is shown next to the field it names."""
from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from federation import accounts, privacy, roles, services, signals
from federation.collation import player_sort_key, turkish_sort_key
from federation.error_views import forbidden
from federation.errors import ApplicationError
from federation.forms import (
    ClubForm, PasswordResetRequestForm, PlayerCreateForm, PlayerForm, PlayerMergeForm, ReasonForm,
)
from federation.models import Club, Player
from federation.selectors import (
    club_change_history, club_q, club_search_q, player_change_history, player_resolve,
    player_search_q,
)
from federation.selectors import player_next_federation_id


def player_list(request):
    """Players in Turkish alphabetical order, filterable by name, club and sex; 50 per page.
    Deactivated players (and merged records) are hidden unless ``?all=1``."""
    qs = Player.objects.select_related("club")
    show_all = request.GET.get("all") == "1"
    if not show_all:
        qs = qs.filter(active=True)
    q = (request.GET.get("q") or "").strip()[:100]
    if q:
        qs = qs.filter(player_search_q(q))  # name, federation id, city or club
    club = (request.GET.get("club") or "").strip()[:20]
    if club:
        qs = qs.filter(club_q(club))
    sex = request.GET.get("sex") if roles.is_staff(request.user) else None  # KVKK: sex is staff-only
    if sex in ("m", "f"):
        qs = qs.filter(sex=sex)
    # Turkish alphabet (Akın before Aktaş, Kılıç before Koç): Player.sort_key is player_sort_key as text,
    # so the database sorts and pages (a count and a page of 50, whatever the number of players)
    page = Paginator(qs.order_by("sort_key"), 50).get_page(request.GET.get("page"))
    query = urlencode({k: v for k, v in (("q", q), ("club", club), ("sex", sex), ("all", "1" if show_all else "")) if v})
    clubs = sorted(Club.objects.all(), key=lambda c: turkish_sort_key(c.name))  # İzmir after Gaziantep
    return render(
        request, "federation/player_list.html",
        {"page": page, "q": q, "clubs": clubs, "club": club, "sex": sex, "show_all": show_all,
         "query": query, "is_staff": roles.is_staff(request.user),
         "can_register": roles.can_register_players(request.user)},
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
    context = {"player": player, "entries": entries, **signals.answers(signals.player_page_shown, player=player),
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
    """None for staff; otherwise the response: the login page for anonymous users, else the 403 page
    (before any form is read: permission before validation, issue 23). ``to`` and ``args`` are kept for
    the callers' sake (the page they came from)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if roles.is_staff(request.user):
        return None
    return forbidden(request, _("Only federation staff can change players and clubs."))


def form_errors(form, exc: ApplicationError) -> None:
    """Show a service refusal (:class:`~federation.errors.ApplicationError`) on the field of ``form`` it
    names (or on the whole form)."""
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


def player_create(request):
    """Register a player (staff and organisers: a walk-in player at a tournament)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not roles.can_register_players(request.user):
        return forbidden(request, _("Only federation staff and organisers can register players."))
    form = PlayerCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data)
        data["rating"] = data.get("rating") or 0
        try:
            player = services.player_register(user=request.user, **data)
        except ApplicationError as exc:
            form_errors(form, exc)
            if exc.field == "federation_id" and exc.code == "conflict":  # taken (meanwhile?): offer the next one
                form.add_error("federation_id", _("The next free federation id is %(id)s.")
                               % {"id": player_next_federation_id()})
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
            form_errors(form, exc)
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
    clubs only with ``?all=1``; ``?q=`` searches name, short name and city ("izmir" finds "İzmir")."""
    show_all = request.GET.get("all") == "1"
    qs = Club.objects.annotate(n_players=Count("players", filter=Q(players__active=True)))
    if not show_all:
        qs = qs.filter(active=True)
    q = (request.GET.get("q") or "").strip()[:100]
    if q:
        qs = qs.filter(club_search_q(q))
    clubs = sorted(qs, key=lambda c: turkish_sort_key(c.name))
    return render(request, "federation/club_list.html",
                  {"clubs": clubs, "show_all": show_all, "q": q, "is_staff": roles.is_staff(request.user)})


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
            form_errors(form, exc)
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
            form_errors(form, exc)
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

    from django.http import HttpResponse

    from federation.personal_data import player_data_export

    player = get_object_or_404(Player, federation_id=federation_id)
    if player.merged_into_id is not None:
        player = player_resolve(federation_id)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    own = player.user_id is not None and player.user_id == request.user.pk
    if not (own or roles.is_staff(request.user)):
        return forbidden(request, _("Only the player themself and federation staff can download this data."))
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


# --------------------------------------------------------------------------------------------
# Password reset by e-mail (Django's views with our form and templates)
# --------------------------------------------------------------------------------------------

class PasswordResetView(auth_views.PasswordResetView):
    """Ask for a link: the same answer whether or not an account has the address (no account is
    revealed); the e-mail is sent by a Celery job, at most a few an hour per address."""

    form_class = PasswordResetRequestForm
    success_url = reverse_lazy("password_reset_done")


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Choose a new password through the e-mailed link. Afterwards a login lockout (django-axes) of the
    account is lifted — the person proved they own it — and the change is logged."""

    success_url = reverse_lazy("password_reset_complete")

    def form_valid(self, form):
        response = super().form_valid(form)
        account = form.user
        accounts.account_log(user=account, account=account, action="password.reset")
        accounts.login_unlock(account)
        return response


class PasswordChangeView(auth_views.PasswordChangeView):
    """Change one's own password (logged in); a lockout of the account is lifted too."""

    success_url = reverse_lazy("password_change_done")

    def form_valid(self, form):
        response = super().form_valid(form)
        accounts.login_unlock(form.user)
        return response


# --------------------------------------------------------------------------------------------
# Staff: accounts of referees, organisers and players (their tournament roles: tournaments.people.views)
# --------------------------------------------------------------------------------------------


def staff_only(request):
    """None for federation staff; otherwise the login page (anonymous) or the 403 page (issue 23)."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if roles.is_staff(request.user):
        return None
    return forbidden(request, _("Only federation staff can manage accounts."))


def user_list(request):
    """``/staff/users/``: every account with its roles and player; filter by text and role; 50 a page."""
    from federation.selectors import user_list as account_list

    refused = staff_only(request)
    if refused:
        return refused
    q = (request.GET.get("q") or "").strip()[:100]
    role = request.GET.get("role") or ""
    if role not in (roles.STAFF, roles.ORGANISER, roles.REFEREE, "player"):
        role = ""
    page = Paginator(account_list(q=q, role=role), 50).get_page(request.GET.get("page"))
    query = urlencode({k: v for k, v in (("q", q), ("role", role)) if v})
    return render(request, "federation/users.html", {"page": page, "q": q, "role": role, "query": query})


def user_create(request):
    """``/staff/users/new/``: create a referee's, an organiser's or a player's account
    (:func:`federation.accounts.user_create`); then a link to choose a password is e-mailed, or the
    temporary password given is told to the person."""
    from django.db import transaction

    from federation.forms import UserCreateForm

    refused = staff_only(request)
    if refused:
        return refused
    form = UserCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        send_link = data["password_mode"] == "link"
        try:
            with transaction.atomic():
                account = accounts.user_create(
                    user=request.user, username=data["username"], first_name=data["first_name"],
                    last_name=data["last_name"], email=data["email"], kind=data["kind"],
                    federation_wide=data["federation_wide"], password="" if send_link else data["password"],
                    player=data["player"], tournament=data.get("tournament"),
                )
        except ApplicationError as exc:
            form_errors(form, exc)
        else:
            if send_link:
                accounts.user_password_link_send(user=request.user, account=account, domain=request.get_host(),
                                                 use_https=request.is_secure(), new_account=True)
                messages.success(request, _("Account %(u)s created. A link to choose a password was e-mailed to "
                                            "%(e)s.") % {"u": account.username, "e": account.email})
            else:
                messages.success(request, _("Account %(u)s created with the temporary password you chose. Tell "
                                            "it to them; they can change it on their page.") % {"u": account.username})
            return redirect("user-detail", user_id=account.pk)
    return render(request, "federation/users_form.html", {"form": form})


def account_or_404(user_id: int):
    """The account ``user_id`` (``auth.User``), or 404."""
    from django.contrib.auth import get_user_model

    return get_object_or_404(get_user_model(), pk=user_id)


def user_detail(request, user_id: int, *, forms: dict | None = None, status: int = 200):
    """``/staff/users/<id>/``: an account — roles, tournaments, player; forms to assign and remove
    tournament roles, set a temporary password, e-mail a password link, link a player; its history."""
    from django.contrib.auth.forms import SetPasswordForm

    from federation.forms import PlayerLinkForm
    from federation.selectors import account_history

    refused = staff_only(request)
    if refused:
        return refused
    account = account_or_404(user_id)
    forms = forms or {}
    player = Player.objects.filter(user=account).first()
    context = {
        "account": account, "player": player,
        "groups": sorted(account.groups.values_list("name", flat=True)),
        "account_is_staff": roles.is_staff(account),
        "may_set_password": accounts.may_manage_login_of(request.user, account),
        # the apps above add their sections (tournaments: the account's tournament roles, the form to assign one)
        **signals.answers(signals.account_page_shown, account=account, forms=forms),
        "password_form": forms.get("password") or SetPasswordForm(account),
        "player_form": forms.get("player")
        or PlayerLinkForm(initial={"player": player.federation_id if player else ""}),
        "history": account_history(account),
    }
    return render(request, "federation/users_detail.html", context, status=status)


@require_POST
def user_password_set(request, user_id: int):
    from django.contrib.auth.forms import SetPasswordForm

    refused = staff_only(request)
    if refused:
        return refused
    account = account_or_404(user_id)
    form = SetPasswordForm(account, request.POST)
    if form.is_valid():
        try:
            accounts.user_set_password(user=request.user, account=account, password=form.cleaned_data["new_password1"])
        except ApplicationError as exc:
            form.add_error("new_password1" if exc.field == "password" else None, exc.message)
        else:
            messages.success(request, _("The temporary password of %(u)s is set. Tell it to them; they can change "
                                        "it on their page.") % {"u": account.username})
            return redirect("user-detail", user_id=account.pk)
    return user_detail(request, user_id, forms={"password": form}, status=400)


@require_POST
def user_password_link(request, user_id: int):
    refused = staff_only(request)
    if refused:
        return refused
    account = account_or_404(user_id)
    try:
        accounts.user_password_link_send(user=request.user, account=account, domain=request.get_host(),
                                         use_https=request.is_secure())
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("A link to choose a new password was e-mailed to %(e)s.") % {"e": account.email})
    return redirect("user-detail", user_id=account.pk)


@require_POST
def user_player_link(request, user_id: int):
    from django.db import transaction

    from federation.forms import PlayerLinkForm

    refused = staff_only(request)
    if refused:
        return refused
    account = account_or_404(user_id)
    form = PlayerLinkForm(request.POST)
    if form.is_valid():
        new = form.cleaned_data["player"]
        current = Player.objects.filter(user=account).first()
        try:
            with transaction.atomic():  # moving the login to another player: both or neither
                if current is not None and (new is None or new.pk != current.pk):
                    accounts.player_link_user(user=request.user, player=current, account=None)
                if new is not None:
                    accounts.player_link_user(user=request.user, player=new, account=account)
        except ApplicationError as exc:
            form_errors(form, exc)
        else:
            if new is not None:
                messages.success(request, _("%(u)s is now the login of %(p)s.") % {"u": account.username,
                                                                                  "p": new.full_name})
            else:
                messages.success(request, _("%(u)s is no longer linked to a player.") % {"u": account.username})
            return redirect("user-detail", user_id=account.pk)
    return user_detail(request, user_id, forms={"player": form}, status=400)
