"""Realistic three-set match results, as a referee types them (no Django: the locust users import it too).

A set is won by the higher-rated player with the Elo probability; the winner's margin is 1..20 stones
(small margins more likely), about 4 % of sets end level (24-24) and about 3 % end by a withdrawal once
someone has 25 stones (Kural 14.5: the winner withdrawing is recorded 25-23, the loser withdrawing hands
the stones in the pits to the winner). Sets stop as soon as the match is decided (2-0), checked with the
rules engine, so every result here is one the API must accept.
"""
from __future__ import annotations

import random

import games.engine as engine

_MARGINS = list(range(1, 21))
_MARGIN_WEIGHTS = [21 - m for m in _MARGINS]  # 1 stone is 20x as likely as 20 stones


def _one_set(rng: random.Random, p_white: float) -> dict:
    if rng.random() < 0.04:
        return {"white_store": 24, "black_store": 24, "termination": "completed"}
    white_wins = rng.random() < p_white
    if rng.random() < 0.03:  # a withdrawal once the winner has 25 or more in store
        win_store = rng.randint(25, 32)
        lose_store = rng.randint(3, 48 - win_store - 2)
        winner_withdrew = rng.random() < 0.3
        w, b = (win_store, lose_store) if white_wins else (lose_store, win_store)
        withdrew_white = white_wins == winner_withdrew
        return {"white_store": w, "black_store": b,
                "termination": "white_withdrew" if withdrew_white else "black_withdrew"}
    margin = rng.choices(_MARGINS, _MARGIN_WEIGHTS)[0]
    w, b = (24 + margin, 24 - margin) if white_wins else (24 - margin, 24 + margin)
    return {"white_store": w, "black_store": b, "termination": "completed"}


def recorded(s: dict) -> tuple[int, int]:
    """The recorded (white, black) stones of a set as typed (Kural 14.5 applied by the engine)."""
    withdrawn = {"completed": None, "white_withdrew": "first", "black_withdrew": "second"}[s.get("termination") or "completed"]
    res = engine.set_result(int(s["white_store"]), int(s["black_store"]), withdrawn_by=withdrawn)
    return res.first, res.second


def match_sets(rng: random.Random, white_rating: float = 1500, black_rating: float = 1500,
               sets_per_match: int = 3) -> list[dict]:
    """The sets of one match in play order (``white_store``, ``black_store``, ``termination``), ending
    as soon as the match is decided."""
    p_white = 1.0 / (1.0 + 10 ** ((black_rating - white_rating) / 400.0))
    sets: list[dict] = []
    done: list[tuple[int, int]] = []
    for _ in range(sets_per_match):
        s = _one_set(rng, p_white)
        sets.append(s)
        done.append(recorded(s))
        if engine.match_result(done, sets_per_match=sets_per_match, allow_incomplete=True).complete:
            break
    return sets


def other_result(rng: random.Random, sets: list[dict], sets_per_match: int = 3) -> list[dict]:
    """A correction: a different valid result of the same match (the referee misread a store)."""
    for _ in range(50):
        new = match_sets(rng, sets_per_match=sets_per_match)
        if new != sets:
            return new
    return [{"white_store": 30, "black_store": 18, "termination": "completed"},
            {"white_store": 18, "black_store": 30, "termination": "completed"},
            {"white_store": 26, "black_store": 22, "termination": "completed"}]
