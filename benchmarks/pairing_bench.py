"""Benchmark: one round of the FIDE Dutch system (tournaments.pairing.pair_dutch), clean histories.

Targets (CPU seconds of the timed round): 250 players <= 1 s, 1000 players <= 10 s.
Histories are simulated with the Dutch system itself (seeded, reproducible): 4 rounds with
random results (about 30 % draws, the higher rated player favoured) and everybody present in
every round, then round 5 is timed.  Real files are harder (forfeits, byes, absences,
withdrawals, late entries): see ``pairing_realistic.py``.

Usage: python benchmarks/pairing_bench.py [N ...]   (default: 250 1000)
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).parent))

from _report import figure  # noqa: E402

from tournaments.pairing import PairingPlayer, RoundRecord, pair_dutch  # noqa: E402

TARGETS = {250: 1.0, 1000: 10.0}


def simulate(n: int, rounds: int, total: int, seed: int = 1) -> list[PairingPlayer]:
    """Players after ``rounds`` rounds of a ``total``-round Dutch tournament."""
    rnd = random.Random(seed)
    ratings = sorted((rnd.randint(1200, 2600) for _ in range(n)), reverse=True)
    hist: dict[int, list[RoundRecord]] = {i: [] for i in range(1, n + 1)}
    points = {i: 0.0 for i in range(1, n + 1)}
    for r in range(1, rounds + 1):
        players = [PairingPlayer(i, ratings[i - 1], points[i], tuple(hist[i])) for i in range(1, n + 1)]
        for p in pair_dutch(players, round_no=r, total_rounds=total):
            if p.black is None:
                hist[p.white].append(RoundRecord(None, None, "U"))
                points[p.white] += 1
                continue
            w, b = p.white, p.black
            e = 1 / (1 + 10 ** ((ratings[b - 1] - ratings[w - 1]) / 400))
            x = rnd.random()
            if x < 0.3:
                cw, cb, pw = "=", "=", 0.5
            elif x < 0.3 + 0.7 * e:
                cw, cb, pw = "1", "0", 1.0
            else:
                cw, cb, pw = "0", "1", 0.0
            hist[w].append(RoundRecord(b, "w", cw))
            hist[b].append(RoundRecord(w, "b", cb))
            points[w] += pw
            points[b] += 1 - pw
    return [PairingPlayer(i, ratings[i - 1], points[i], tuple(hist[i])) for i in range(1, n + 1)]


def main(argv: list[str]) -> int:
    sizes = [int(a) for a in argv] or [250, 1000]
    for n in sizes:
        t0 = time.perf_counter()
        players = simulate(n, 4, 9)
        t1 = time.perf_counter()
        c1 = time.process_time()
        res = pair_dutch(players, round_no=5, total_rounds=9)
        c2 = time.process_time()
        t2 = time.perf_counter()
        figure(f"Dutch round 5, {n} players, clean history", c2 - c1, "s", target=TARGETS.get(n),
               note=f"CPU; {t2 - t1:.2f} s wall; {len(res)} boards; rounds 1-4 simulated in {t1 - t0:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
