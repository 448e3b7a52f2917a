"""Benchmark of the rating engine (run by ``make bench``; not a test).

Measures, single core, pure Python:

1. a full re-rating of 1,000,000 sets (synthetic federation: 20,000 players, events of 100 players,
   7 rounds of 3-set matches) with the federation's margin Glicko-2, margin Elo, plain Elo and Glicko-2, with and without history;
2. one event of 300 players (7 rounds, 3 sets per match: 3,150 sets) on top of established ratings.

Targets (issue 5): 1,000,000 sets <= 60 s; one 300-player event <= 1 s. Both wall-clock and CPU time
(``time.process_time``) are printed: on a busy machine the CPU time is the single-core figure.
Usage: ``python benchmarks/ratings_bench.py [--sets N] [--seed S] [--systems margin,elo,glicko2]``.
"""
from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ratings.engine import Elo, Event, Glicko2, MarginElo, RatedSet, Rater, federation_system, rate_events  # noqa: E402


def _random_set(rng: random.Random, event_id: int, a: int, b: int, sa: float, sb: float) -> RatedSet:
    p = 1.0 / (1.0 + 10 ** ((sb - sa) / 400.0))
    u = rng.random()
    if u < 0.02:
        return RatedSet(event_id, a, b, 24, 24)
    margin = rng.randint(1, 20)
    if u < p:
        return RatedSet(event_id, a, b, 24 + margin, 24 - margin)
    return RatedSet(event_id, a, b, 24 - margin, 24 + margin)


def make_events(n_sets: int, seed: int, players: int = 20_000, field: int = 100) -> list[Event]:
    """Synthetic events (random pairings, 2-3 sets per match) adding up to about ``n_sets`` sets."""
    rng = random.Random(seed)
    strength = [rng.gauss(1500, 200) for _ in range(players)]
    events = []
    day = dt.date(2000, 1, 1)
    total = 0
    eid = 0
    while total < n_sets:
        eid += 1
        sets = []
        entrants = rng.sample(range(players), field)
        for _round in range(7):
            rng.shuffle(entrants)
            for i in range(0, field - 1, 2):
                a, b = entrants[i], entrants[i + 1]
                for _k in range(3 if rng.random() < 0.6 else 2):
                    sets.append(_random_set(rng, eid, a, b, strength[a], strength[b]))
        events.append(Event(eid, day + dt.timedelta(days=eid // 3), tuple(sets)))
        total += len(sets)
    return events


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--systems", default="federation,margin_elo,elo,glicko2")
    args = ap.parse_args(argv)
    systems = {"federation": federation_system, "margin_elo": MarginElo, "elo": Elo, "glicko2": Glicko2}
    chosen = [s for s in args.systems.split(",") if s]
    for s in chosen:
        if s not in systems:
            print(f"ratings_bench: unknown system {s!r} (choose from {', '.join(systems)})", file=sys.stderr)
            return 2

    t0 = time.perf_counter()
    events = make_events(args.sets, args.seed)
    n = sum(len(e.sets) for e in events)
    print(f"generated {n:,} sets in {len(events):,} events in {time.perf_counter() - t0:.1f} s")

    for name in chosen:
        for hist in (True, False):
            t0, c0 = time.perf_counter(), time.process_time()
            run = rate_events(events, systems[name](), history=hist)
            dt_, cpu = time.perf_counter() - t0, time.process_time() - c0
            print(
                f"full re-rating  {name:8s} history={'yes' if hist else 'no ':3s}: {dt_:6.2f} s wall, "
                f"{cpu:6.2f} s CPU ({run.rated_sets:,} sets, {cpu / run.rated_sets * 1e6:.1f} us/set CPU)"
            )
            del run

    # one event of 300 players on top of established ratings
    rng = random.Random(args.seed + 1)
    field = list(range(300))
    initial = {p: rng.gauss(1500, 200) for p in field}
    sets = []
    for _round in range(7):
        rng.shuffle(field)
        for i in range(0, 300, 2):
            for _k in range(3):
                sets.append(_random_set(rng, "big", field[i], field[i + 1], initial[field[i]], initial[field[i + 1]]))
    big = Event("big", dt.date(2030, 1, 1), tuple(sets))
    for name in chosen:
        rater = Rater(systems[name](), initial)
        t0, c0 = time.perf_counter(), time.process_time()
        rater.rate(big)
        rating_list = rater.result()
        dt_, cpu = time.perf_counter() - t0, time.process_time() - c0
        print(
            f"one event       {name:8s} 300 players, {len(sets):,} sets: {dt_ * 1000:7.1f} ms wall, "
            f"{cpu * 1000:7.1f} ms CPU ({len(rating_list.ratings)} ratings)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
