"""Pairing systems (pure Python, no Django).

* :func:`pair_dutch` - FIDE Dutch Swiss system (Handbook C.04.3, 2025 revision), identical
  to bbpPairings ``--dutch`` version 6 on the reference cases.
  Accelerated pairings (virtual points, C.04.5.1) through ``PairingPlayer.accelerations``, other
  point systems through :class:`PointSystem`, forbidden pairs (TRF ``XXP``) as an argument;
  :mod:`.acceleration` computes the Baku virtual points, :mod:`.trf_input` reads all of it from
  a TRF file (:func:`~.trf_input.pairing_input_from_trf`).
* :func:`berger_round`, :func:`round_robin_rounds` - Berger tables (C.05 Annex 1), the double
  round robin with the last two rounds of the first cycle swapped by default.
* :func:`knockout_bracket` - knockout seeding (1 v N, byes to the top seeds); :func:`next_round_pairs`,
  :func:`third_place_pair`, :func:`knockout_ranking` - later rounds, the match for third place and the
  final ranking (:mod:`.knockout`).

Inputs are :class:`PairingPlayer` / :class:`RoundRecord` values; errors are
:class:`PairingError` (a ``ValueError``).  ``python -m tournaments.pairing`` is a CLI.
"""
from .base import Pairing, PairingError, PairingPlayer, PointSystem, RoundRecord
from .dutch import board_order, pair_dutch
from .knockout import (
    BracketMatch,
    RankLine,
    knockout_bracket,
    knockout_ranking,
    knockout_rounds,
    next_round_pairs,
    round_key,
    seed_order,
    third_place_pair,
)
from .roundrobin import berger_round, round_robin_rounds

__all__ = [
    "Pairing",
    "PairingError",
    "PairingPlayer",
    "PointSystem",
    "RoundRecord",
    "berger_round",
    "board_order",
    "knockout_bracket",
    "knockout_ranking",
    "knockout_rounds",
    "next_round_pairs",
    "round_key",
    "third_place_pair",
    "BracketMatch",
    "RankLine",
    "pair_dutch",
    "round_robin_rounds",
    "seed_order",
]
