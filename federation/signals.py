"""What the member register tells the apps above it (games, tournaments, ratings) without importing them
(docs/architecture.md).

Imports run one way — federation → games → tournaments → ratings — so the register never calls their
code: it sends these signals and the apps' ``ready()`` connect the receivers (:mod:`games.receivers`,
:mod:`tournaments.people.receivers`, :mod:`ratings.receivers`; in the order of ``INSTALLED_APPS``:
tournaments, games, ratings). Each is sent synchronously inside the caller's transaction.
"""
from __future__ import annotations

from django.dispatch import Signal

#: Players or clubs were changed in a way pages of other apps show (names, clubs), sent with ``players``
#: and ``clubs`` (ids) after the change: receivers refresh what they cached (tournaments: the version of
#: every tournament with an entry of one of the players or of a player of one of the clubs).
members_changed = Signal()

#: ``merge`` is about to be merged into ``keep`` (:func:`federation.services.player_merge`), sent with
#: ``keep`` and ``merge`` (locked) before anything is written: a receiver refuses the merge by raising
#: :class:`~federation.errors.Conflict` (tournaments: both records entered in the same tournament).
player_merging = Signal()

#: ``merge`` is being merged into ``keep`` (:func:`federation.services.player_merge`), sent with ``keep`` and
#: ``merge`` (:class:`~federation.models.Player`) inside the merge's audit context: receivers move or drop
#: what they store about ``merge`` and queue what must follow the commit (tournaments: the entries become
#: ``keep``'s; ratings: the initial rating moves, the rating rows go, a full re-rating is queued).
player_merged = Signal()

#: The records ``player_ids`` (list of ids) were anonymised (:func:`federation.services.player_anonymise`),
#: sent with ``old_names`` (the full names they had, a set) and ``new_name`` (the name the record has now):
#: receivers overwrite the names and cities they copied (games: the tags of imported move records;
#: ratings: the lines of the official rating lists).
players_anonymised = Signal()

#: A player's own data is exported (:func:`federation.personal_data.player_data_export`), sent with ``player``
#: and ``ids`` (the player's id and those of the records merged into it): each receiver answers a dict of
#: the export's further sections (tournaments: ``"entries"``, ``"byes_requested"``, ``"results"``;
#: ratings: ``"rating"``).
player_data_exported = Signal()

#: The player page is shown (``federation.views.player_detail``), sent with ``player``: each receiver
#: answers a dict of template context for its section (ratings: the rating history, chart and lists).
player_page_shown = Signal()

#: An account was created (:func:`federation.accounts.user_create`), sent with ``user`` (who created it),
#: ``account``, ``kind`` and ``tournament`` (what the caller gave, or None): receivers add what the account
#: starts with (tournaments: the role ``kind`` in ``tournament``).
account_created = Signal()

#: The staff's account form is built (:class:`federation.forms.UserCreateForm`), sent with ``form``:
#: receivers add their fields (tournaments: ``tournament``, the first tournament of a referee or organiser).
account_form_built = Signal()

#: The staff page of an account is shown (``federation.views.user_detail``), sent with ``account`` and
#: ``forms`` (the bound forms of a refused post, by name): each receiver answers a dict of template context
#: (tournaments: the account's tournament roles and the form to assign one).
account_page_shown = Signal()

#: The history of an account is read (:func:`federation.selectors.account_history`), sent with ``account``
#: and ``limit``: each receiver answers a list of :class:`federation.selectors.AccountEvent` (tournaments:
#: the roles given and taken).
account_history_read = Signal()


def answers(signal: Signal, **kwargs) -> dict:
    """The dicts the receivers of ``signal`` answer, merged in the order they were connected."""
    out: dict = {}
    for _receiver, answer in signal.send(sender=None, **kwargs):
        out.update(answer or {})
    return out


def collected(signal: Signal, **kwargs) -> list:
    """The lists the receivers of ``signal`` answer, joined in the order they were connected."""
    out: list = []
    for _receiver, answer in signal.send(sender=None, **kwargs):
        out.extend(answer or [])
    return out
