"""What the member register tells the apps above it (ratings) without importing them (docs/architecture.md).

Imports run one way — federation → games → tournaments → ratings — so the register never calls the rating
code: it sends these signals and ``ratings.apps.RatingsConfig.ready`` connects the receivers
(:mod:`ratings.receivers`). Each is sent synchronously inside the caller's transaction.
"""
from __future__ import annotations

from django.dispatch import Signal

#: ``merge`` is being merged into ``keep`` (:func:`federation.services.player_merge`), sent with ``keep`` and
#: ``merge`` (:class:`~federation.models.Player`) after the entries moved: receivers move or drop what they
#: store about ``merge`` and queue what must follow the commit (ratings: the initial rating moves, the rating
#: rows go, a full re-rating is queued).
player_merged = Signal()

#: The records ``player_ids`` (list of ids) were anonymised (:func:`federation.services.player_anonymise`):
#: receivers overwrite the names and cities they copied (ratings: the lines of the official rating lists).
players_anonymised = Signal()

#: A player's own data is exported (:func:`federation.personal_data.player_data_export`), sent with ``player``
#: and ``ids`` (the player's id and those of the records merged into it): each receiver answers a dict of
#: the export's further sections (ratings: ``"rating"``).
player_data_exported = Signal()

#: The player page is shown (``federation.views.player_detail``), sent with ``player``: each receiver
#: answers a dict of template context for its section (ratings: the rating history, chart and lists).
player_page_shown = Signal()


def answers(signal: Signal, **kwargs) -> dict:
    """The dicts the receivers of ``signal`` answer, merged in the order they were connected."""
    out: dict = {}
    for _receiver, answer in signal.send(sender=None, **kwargs):
        out.update(answer or {})
    return out
