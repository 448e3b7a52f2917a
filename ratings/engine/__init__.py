"""Rating engine of the federation (pure Python, no Django).

Margin-aware Elo (:class:`MarginElo`, the federation's rating) and two baselines, plain FIDE-style Elo
(:class:`Elo`) and Glicko-2 (:class:`Glicko2`). Every set of a match is one rated game; forfeits and byes
are never rated; each event is one rating period. Formulas, parameters and the evaluation: docs/ratings.md.

Example::

    from datetime import date
    from ratings.engine import Event, RatedSet, rate_events, MarginElo
    ev = Event("E1", date(2026, 1, 10), (RatedSet("E1", "ali", "ayse", 30, 18),))
    run = rate_events([ev], MarginElo(), initial={"ali": 1500.0, "ayse": 1500.0})
    run.rating("ali")  # 1500 + 20 * (S - 0.5)
"""
from .elo import (
    ESTABLISHED,
    PROVISIONAL,
    UNRATED,
    Elo,
    EloFamily,
    EloParams,
    MarginElo,
    MarginEloParams,
    expected_score,
    margin_score,
    performance_rating,
    result_score,
)
from .glicko2 import GLICKO2_SCALE, TAU_RANGE, Glicko2, MarginGlicko2, Glicko2Params, glicko2_update
from .run import Rater, RatingSystem, rate_events
from .federation import FEDERATION_DEFAULTS, FEDERATION_SYSTEM, federation_params, federation_system
from .types import (
    HALF_STONES,
    TOTAL_STONES,
    Event,
    HistoryEntry,
    InvalidEventError,
    InvalidSetError,
    PlayerRating,
    RatedSet,
    RatingInputError,
    RatingRun,
    SetLine,
)

__all__ = [
    "FEDERATION_DEFAULTS",
    "FEDERATION_SYSTEM",
    "federation_params",
    "federation_system",
    "ESTABLISHED",
    "PROVISIONAL",
    "UNRATED",
    "Elo",
    "EloFamily",
    "EloParams",
    "MarginElo",
    "MarginEloParams",
    "expected_score",
    "margin_score",
    "performance_rating",
    "result_score",
    "GLICKO2_SCALE",
    "TAU_RANGE",
    "Glicko2",
    "Glicko2Params",
    "MarginGlicko2",
    "glicko2_update",
    "Rater",
    "RatingSystem",
    "rate_events",
    "HALF_STONES",
    "TOTAL_STONES",
    "Event",
    "HistoryEntry",
    "InvalidEventError",
    "InvalidSetError",
    "PlayerRating",
    "RatedSet",
    "RatingInputError",
    "RatingRun",
    "SetLine",
]
