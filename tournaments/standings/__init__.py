"""Standings and tie-breaks of individual events (pure Python, no Django).

Public API::

    from tournaments.standings import (
        RoundKind, RoundEntry, PlayerRecord, StandingRow, StandingsError,
        TieBreak, TIEBREAKS, compute_standings, separating_step, tiebreak_label,
    )

    rows = compute_standings(players, tiebreaks=["buchholz_cut1", "buchholz", "direct_encounter"])
    step = separating_step(players, tiebreaks=[...], first=3, second=7)  # 0 points, k: k-th tie-break, None level

Tie-breaks follow FIDE C.07 (Tie-Break Regulations, 2023 text): see
:mod:`tournaments.standings.tiebreaks` for each article and the handling of unplayed rounds.
"""
from tournaments.standings.base import (
    PlayerRecord,
    RoundEntry,
    RoundKind,
    StandingRow,
    StandingsError,
)
from tournaments.standings.standings import compute_standings, separating_step
from tournaments.standings.tiebreaks import TIEBREAKS, TieBreak, tiebreak_label

__all__ = [
    "PlayerRecord",
    "RoundEntry",
    "RoundKind",
    "StandingRow",
    "StandingsError",
    "TIEBREAKS",
    "TieBreak",
    "compute_standings",
    "separating_step",
    "tiebreak_label",
]
