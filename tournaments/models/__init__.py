"""Tournaments, entries, rounds, matches and set results.

Thin models: what must never be stored wrong is a database constraint; everything else is checked by
``tournaments.services`` with the rules engine (``games.engine``).

The models live in one module per capability; import them from here (``from tournaments.models import
Tournament``), which is the package's public interface:

* :mod:`.tournament` — the tournament, who runs it and who plays in it (``Tournament``,
  ``TournamentRole``, ``Entry``) and the default tie-break order;
* :mod:`.rounds` — rounds, pairings and results (``Round``, ``CoinToss``, ``Match``, ``SetResult``,
  ``Absence``, ``ForbiddenPair``, ``PairingChange``);
* :mod:`.trf_import` — a TRF file imported in the background (``TrfImport``);
* :mod:`.events` — multi-section events (``Event``, ``EventRegistration``);
* :mod:`.prizes` — category rankings and prizes (``Category``, ``Prize``);
* :mod:`.teams` — team championships (``Team``, ``TeamMember``, ``TeamMatch``);
* :mod:`.lots` — drawing of lots that anyone can check (``Lot``).

The modules are imported in this order so that the models register in the order of their
dependencies (``Tournament.event`` names ``Event`` lazily). Migrations refer to
``tournaments.models.default_tiebreaks`` and ``tournaments.models._empty_list``: both stay importable here.
"""
from .tournament import DEFAULT_TIEBREAKS, Entry, Tournament, TournamentRole, default_tiebreaks
from .rounds import Absence, CoinToss, ForbiddenPair, Match, PairingChange, Round, SetResult
from .trf_import import TrfImport, _empty_list
from .events import Event, EventRegistration
from .prizes import Category, Prize
from .teams import Team, TeamMatch, TeamMember
from .lots import Lot

__all__ = [
    "DEFAULT_TIEBREAKS",
    "default_tiebreaks",
    "_empty_list",
    "Tournament",
    "TournamentRole",
    "Entry",
    "Round",
    "CoinToss",
    "Match",
    "SetResult",
    "Absence",
    "ForbiddenPair",
    "PairingChange",
    "TrfImport",
    "Event",
    "EventRegistration",
    "Category",
    "Prize",
    "Team",
    "TeamMember",
    "TeamMatch",
    "Lot",
]
