"""Seeded simulation of a Mangala league whose players are engine policies playing real sets.

Every set is played move by move through the project's rules engine (``games.engine``: ``Position``,
``legal_moves``, ``play``, ``set_result``), so margins, draws and withdrawals are real Mangala results.

A player's hidden strength is ``skill`` in 0..1, turned into a policy (:class:`Policy`):

- on each move the player searches 2 plies with probability ``skill`` and 1 ply otherwise (an extra
  turn is a ply of the same player, Kural 13A); the leaf value is the store difference;
- every candidate move's value gets Gaussian noise of ``0.5 + 7.5 * (1 - skill)`` stones.

So skill 1 is a clean 2-ply searcher and skill 0 a very noisy greedy player. Skills drift between
events (a random walk; new players - juniors - improve on average), so ratings must track a moving
target. Pairings are Swiss-like (score groups, no rematches when avoidable), matches are 3 sets
(003 "Turnuva maçı": 2-0 ends the match; the starter alternates), odd fields give a bye, and a few
matches are forfeited: both are recorded as unrated sets.

Everything is driven by one ``random.Random(seed)``: the same seed gives the same league.
"""
from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass

from games.engine import Position, legal_moves, match_result, play, set_result

from ratings.engine import Event, RatedSet

__all__ = ["LeagueConfig", "Policy", "SimulatedLeague", "play_set", "simulate_league"]

_CACHE_LIMIT = 400_000


class _SearchCache:
    """Children of positions (via ``games.engine.play``) and 1-ply values, bounded in size."""

    __slots__ = ("children", "best1")

    def __init__(self) -> None:
        self.children: dict[Position, tuple[Position, ...]] = {}
        self.best1: dict[tuple[Position, int], int] = {}

    def kids(self, pos: Position) -> tuple[Position, ...]:
        c = self.children.get(pos)
        if c is None:
            if len(self.children) > _CACHE_LIMIT:
                self.children.clear()
            c = tuple(play(pos, m).position for m in legal_moves(pos))
            self.children[pos] = c
        return c

    def value1(self, pos: Position, p: int) -> int:
        """Store difference for ``p`` after the best 1-ply reply of whoever moves at ``pos``."""
        key = (pos, p)
        v = self.best1.get(key)
        if v is None:
            if len(self.best1) > _CACHE_LIMIT:
                self.best1.clear()
            if pos.to_move is None:
                v = _leaf(pos, p)
            else:
                vals = [_leaf(c, p) for c in self.kids(pos)]
                v = max(vals) if pos.to_move == p else min(vals)
            self.best1[key] = v
        return v


def _leaf(pos: Position, p: int) -> int:
    b = pos.board
    return b[6] - b[13] if p == 0 else b[13] - b[6]


@dataclass(frozen=True, slots=True)
class Policy:
    """A simulated player's move policy: ``deep`` = probability of a 2-ply search, ``noise`` in stones."""

    deep: float
    noise: float

    @classmethod
    def of_skill(cls, skill: float) -> "Policy":
        s = min(1.0, max(0.0, skill))
        return cls(s, 0.5 + 7.5 * (1.0 - s))


def _choose(pos: Position, pol: Policy, rng: random.Random, cache: _SearchCache) -> int:
    p = pos.to_move
    kids = cache.kids(pos)
    deep = rng.random() < pol.deep
    best = -math.inf
    best_i = 0
    gauss = rng.gauss
    for i, c in enumerate(kids):
        v = cache.value1(c, p) if deep else _leaf(c, p)
        v += gauss(0.0, pol.noise)
        if v > best:
            best, best_i = v, i
    return best_i


def play_set(
    first: Policy,
    second: Policy,
    rng: random.Random,
    *,
    withdraw_loser: float = 0.0,
    withdraw_winner: float = 0.0,
    cache: _SearchCache | None = None,
):
    """Play one federation set (``first`` moves first) through ``games.engine``; return its SetResult.

    Once a store reaches 25 stones (Kural 14.2) the set may end by withdrawal (Kural 14.5): the loser
    withdraws with probability ``withdraw_loser``, else the winner with ``withdraw_winner`` (checked once).
    The recorded result comes from ``games.engine.set_result`` (25-23 / pits credited to the winner).
    """
    cache = cache if cache is not None else _SearchCache()
    pos = Position.initial()
    pols = (first, second)
    checked = False
    while pos.to_move is not None:
        i = _choose(pos, pols[pos.to_move], rng, cache)
        pos = cache.kids(pos)[i]
        b = pos.board
        if not checked and (b[6] >= 25 or b[13] >= 25) and pos.to_move is not None:
            checked = True
            u = rng.random()
            leader = "first" if b[6] >= 25 else "second"
            if u < withdraw_loser:
                return set_result(b[6], b[13], "second" if leader == "first" else "first")
            if u < withdraw_loser + withdraw_winner:
                return set_result(b[6], b[13], leader)
    return set_result(pos.board[6], pos.board[13])


@dataclass(frozen=True, slots=True)
class LeagueConfig:
    """Size of the simulated league (defaults: about 11,000 rated sets, about a minute on one core)."""

    initial_players: int = 48
    new_players_per_season: int = 14
    seasons: int = 6
    events_per_season: int = 14
    field_min: int = 12
    field_max: int = 24
    rounds_min: int = 5
    rounds_max: int = 7
    skill_drift: float = 0.025
    junior_gain: float = 0.012
    forfeit_rate: float = 0.01
    withdraw_loser: float = 0.04
    withdraw_winner: float = 0.03
    start: dt.date = dt.date(2022, 1, 8)


@dataclass(frozen=True, slots=True)
class SimulatedLeague:
    """The simulated events (time order) and each player's skill at the start of each event."""

    events: tuple[Event, ...]
    skills: dict  # event id -> {player: skill}
    seed: int
    config: LeagueConfig


def _swiss_pairs(players: list[int], points: dict[int, float], met: set, rng: random.Random):
    order = sorted(players, key=lambda p: (-points[p], rng.random()))
    pairs = []
    bye = None
    if len(order) % 2:
        # bye to the lowest-placed player (C.04-style), simple version
        bye = order.pop()
    unpaired = order
    while unpaired:
        a = unpaired.pop(0)
        j = next((k for k, b in enumerate(unpaired) if (a, b) not in met), 0)
        b = unpaired.pop(j)
        pairs.append((a, b) if rng.random() < 0.5 else (b, a))
    return pairs, bye


def simulate_league(seed: int = 1, config: LeagueConfig | None = None) -> SimulatedLeague:
    """Simulate the league of ``config`` with ``random.Random(seed)``; deterministic for a given seed.

    Returns the events (player ids are ints; in every rated set ``player_a`` is the set's first mover)
    and the hidden skills. Runtime is dominated by the sets (about 10 ms each).
    """
    cfg = config if config is not None else LeagueConfig()
    rng = random.Random(seed)
    cache = _SearchCache()
    skill: dict[int, float] = {}
    junior: dict[int, bool] = {}
    next_id = 1

    def add_player(is_junior: bool) -> None:
        nonlocal next_id
        if is_junior:
            s = min(1.0, max(0.0, rng.gauss(0.3, 0.15)))
        else:
            s = min(1.0, max(0.0, rng.betavariate(2.0, 2.0)))
        skill[next_id] = s
        junior[next_id] = is_junior
        next_id += 1

    for _ in range(cfg.initial_players):
        add_player(False)
    events: list[Event] = []
    skills: dict = {}
    day = cfg.start
    eid = 0
    for season in range(cfg.seasons):
        if season:
            for _ in range(cfg.new_players_per_season):
                add_player(True)
        for _e in range(cfg.events_per_season):
            eid += 1
            event_id = f"S{season + 1}E{_e + 1:02d}"
            pool = sorted(skill)
            n = min(len(pool), rng.randint(cfg.field_min, cfg.field_max))
            field = rng.sample(pool, n)
            skills[event_id] = {p: skill[p] for p in field}
            pols = {p: Policy.of_skill(skill[p]) for p in field}
            rounds = rng.randint(cfg.rounds_min, cfg.rounds_max)
            points = {p: 0.0 for p in field}
            met: set = set()
            sets: list[RatedSet] = []
            for _r in range(rounds):
                pairs, bye = _swiss_pairs(list(field), points, met, rng)
                if bye is not None:
                    sets.append(RatedSet(event_id, bye, None))
                    points[bye] += 1.0
                for a, b in pairs:
                    met.add((a, b))
                    met.add((b, a))
                    if rng.random() < cfg.forfeit_rate:
                        sets.append(RatedSet(event_id, a, b, 48, 0, forfeit=True))
                        points[a] += 1.0
                        continue
                    stones: list[tuple[int, int]] = []
                    k = 0
                    while True:
                        k += 1
                        first, second = (a, b) if k % 2 else (b, a)  # 003: starter alternates
                        res = play_set(
                            pols[first],
                            pols[second],
                            rng,
                            withdraw_loser=cfg.withdraw_loser,
                            withdraw_winner=cfg.withdraw_winner,
                            cache=cache,
                        )
                        sets.append(
                            RatedSet(
                                event_id,
                                first,
                                second,
                                res.first,
                                res.second,
                                a_withdrew=res.withdrawn_by == "first",
                                b_withdrew=res.withdrawn_by == "second",
                            )
                        )
                        stones.append((res.first, res.second) if first == a else (res.second, res.first))
                        mr = match_result(stones, 3, allow_incomplete=True)
                        if mr.complete:
                            break
                    points[a] += mr.match_points[0]
                    points[b] += mr.match_points[1]
            events.append(Event(event_id, day, tuple(sets)))
            day += dt.timedelta(days=rng.randint(10, 24))
            # skills drift between events; juniors improve on average
            for p in skill:
                step = rng.gauss(cfg.junior_gain if junior[p] else 0.0, cfg.skill_drift)
                skill[p] = min(1.0, max(0.0, skill[p] + step))
    return SimulatedLeague(tuple(events), skills, seed, cfg)
