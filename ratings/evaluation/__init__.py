"""Evidence for the rating formulas: a simulated league of engine policies playing real Mangala sets
(:mod:`.simulate`) and a walk-forward evaluation with tuning, log loss, Brier score, calibration and a
paired bootstrap (:mod:`.evaluate`), reported in markdown (:mod:`.report`). Pure Python, no Django; the ``rating_eval`` management command
calls :func:`run` (JSON summary) or :func:`evaluate` + :func:`render_table` (markdown).
"""
from .evaluate import (
    BANDS,
    EXTRAS,
    SYSTEMS,
    Evaluation,
    PredictionLayer,
    SystemResult,
    evaluate,
    evaluate_events,
    run,
    walk_forward,
)
from .report import render_table
from .results import HEADER, ResultsData, ResultsFileError, load_results, read_results
from .simulate import LeagueConfig, Policy, SimulatedLeague, play_set, simulate_league

__all__ = [
    "BANDS",
    "EXTRAS",
    "HEADER",
    "ResultsData",
    "ResultsFileError",
    "evaluate_events",
    "load_results",
    "read_results",
    "SYSTEMS",
    "Evaluation",
    "PredictionLayer",
    "SystemResult",
    "evaluate",
    "render_table",
    "run",
    "walk_forward",
    "LeagueConfig",
    "Policy",
    "SimulatedLeague",
    "play_set",
    "simulate_league",
]
