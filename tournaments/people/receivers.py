"""Receivers of :mod:`federation.signals` for the tournaments, connected in
:meth:`tournaments.apps.TournamentsConfig.ready`: the member register never imports tournaments."""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from federation.errors import Conflict


def touch_tournaments(sender, *, players=(), clubs=(), **kwargs) -> None:
    """Players or clubs changed (:data:`federation.signals.members_changed`): bump the version of every
    tournament with an entry of one of ``players`` or of a player of one of ``clubs``
    (:func:`tournaments.services.tournaments_touch`): their standings, crosstables and PDFs show names and
    clubs, and their cached copies are keyed on that version (``tournaments/caching.py``)."""
    from tournaments.models import Tournament
    from tournaments.services import tournaments_touch

    tournaments_touch(
        Tournament.objects.filter(Q(entries__player__in=players) | Q(entries__player__club__in=clubs))
        .values_list("pk", flat=True)
    )


def refuse_shared_tournament(sender, *, keep, merge, **kwargs) -> None:
    """Before ``merge`` is merged into ``keep`` (:data:`federation.signals.player_merging`): Conflict (field
    ``into``) naming the tournaments both records are entered in — then they cannot be the same person."""
    from tournaments.models import Entry

    shared = list(
        Entry.objects.filter(player=keep, tournament__entries__player=merge)
        .select_related("tournament").order_by("tournament__name")
    )
    if shared:
        raise Conflict(
            _("%(a)s and %(b)s both played in %(t)s: they cannot be the same person.")
            % {"a": keep.federation_id, "b": merge.federation_id, "t": ", ".join(e.tournament.name for e in shared)},
            field="into",
        )


def move_entries(sender, *, keep, merge, **kwargs) -> None:
    """``merge`` is merged into ``keep`` (:data:`federation.signals.player_merged`): every entry of ``merge``
    becomes ``keep``'s, saved one by one so each entry's history records the move (inside the merge's audit
    context); their matches follow the entries. An entry added meanwhile to a tournament of the other
    record: Conflict (field ``into``)."""
    from tournaments.models import Entry

    try:
        with transaction.atomic():
            for entry in Entry.objects.select_for_update().filter(player=merge).order_by("pk"):
                entry.player = keep
                entry.save(update_fields=["player"])
    except IntegrityError as exc:  # an entry added meanwhile to a tournament of the other record
        raise Conflict(_("Both records are now entered in the same tournament."), field="into") from exc


def player_tournament_data(sender, *, player, ids, **kwargs) -> dict:
    """The ``"entries"``, ``"byes_requested"`` and ``"results"`` sections of a player's own data
    (:data:`federation.signals.player_data_exported`): :func:`tournaments.people.selectors.player_tournament_data`."""
    from tournaments.people.selectors import player_tournament_data as data

    return data(ids)


def assign_first_role(sender, *, user, account, kind, tournament=None, **kwargs) -> None:
    """A new account (:data:`federation.signals.account_created`) given a ``tournament``: it gets the role
    ``kind`` there (:func:`tournaments.people.services.tournament_role_assign`)."""
    if tournament is None:
        return
    from tournaments.people.services import tournament_role_assign

    tournament_role_assign(user=user, account=account, tournament=tournament, role=kind)


def account_form_fields(sender, *, form, **kwargs) -> None:
    """The staff's account form (:data:`federation.signals.account_form_built`) gets the field ``tournament``
    (:func:`tournaments.people.forms.add_first_tournament_field`)."""
    from tournaments.people.forms import add_first_tournament_field

    add_first_tournament_field(form)


def account_page_section(sender, *, account, forms=None, **kwargs) -> dict:
    """The tournament roles section of the staff page of an account
    (:data:`federation.signals.account_page_shown`): its roles and the form to assign one."""
    from tournaments.people.forms import TournamentRoleForm
    from tournaments.people.selectors import account_tournament_roles

    return {"tournament_roles": account_tournament_roles(account),
            "role_form": (forms or {}).get("role") or TournamentRoleForm()}


def account_role_events(sender, *, account, limit, **kwargs) -> list:
    """The roles given and taken of an account's history (:data:`federation.signals.account_history_read`)."""
    from tournaments.people.selectors import account_role_events as events

    return events(account, limit=limit)
