"""Benchmark: standings of a 1000-player, 9-round Swiss with 5 tie-breaks (target ≤ 0.5 s).

Run: ``.venv/bin/python benchmarks/standings_bench.py [--players N] [--rounds R] [--repeat K]``.
Prints one line per tie-break list with the best and median wall time of ``compute_standings``
(validation and event building included) and the best CPU time (steadier on a loaded machine), and
exits 1 if the best wall time is over the target.

The event is generated deterministically (seeded): each round players are sorted by score and
paired neighbour to neighbour (a rough Swiss), with ~2 % requested half-point byes, ~1 % forfeits,
a pairing-allocated bye when the number of players is odd and ~3 % withdrawals from round 5 on.
Matches carry Mangala set detail (set points and stone margins).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.standings import PlayerRecord, RoundEntry, RoundKind, compute_standings  # noqa: E402

TARGET_SECONDS = 0.5
TIEBREAK_LISTS = [
    ["buchholz_cut1", "buchholz", "sonneborn_berger", "direct_encounter", "wins"],
    ["median_buchholz", "progressive", "aro", "set_points", "stone_margin"],
]


def _match(rng: random.Random) -> tuple[float, float, int, int]:
    """(match points, set points, stone margin, sets played) of the first player of a random
    3-set match (decided after two sets at 2-0)."""
    sets = []
    for _ in range(3):
        if len(sets) == 2 and sets[0][0] == sets[1][0] != 0.5:
            break
        margin = rng.choice([-12, -8, -5, -3, -1, 0, 1, 3, 5, 8, 12])
        sets.append((1.0 if margin > 0 else 0.5 if margin == 0 else 0.0, margin))
    sp = sum(s for s, _ in sets)
    opp_sp = len(sets) - sp
    points = 1.0 if sp > opp_sp else 0.5 if sp == opp_sp else 0.0
    return points, sp, sum(m for _, m in sets), len(sets)


def generate(players: int, rounds: int, seed: int = 2026) -> list[PlayerRecord]:
    rng = random.Random(seed)
    entries: list[list[RoundEntry]] = [[] for _ in range(players)]
    score = [0.0] * players
    withdrawn: set[int] = set()
    for rnd in range(1, rounds + 1):
        if rnd >= 5:
            withdrawn.update(i for i in range(players) if rng.random() < 0.006)
        active = []
        for i in range(players):
            if i in withdrawn:
                continue  # absent: no entry
            if rng.random() < 0.02:
                entries[i].append(RoundEntry(rnd, RoundKind.HALF_BYE, 0.5))
                score[i] += 0.5
            else:
                active.append(i)
        active.sort(key=lambda i: (-score[i], i))
        if len(active) % 2:
            bye = active.pop()
            entries[bye].append(RoundEntry(rnd, RoundKind.PAIRING_BYE, 1.0))
            score[bye] += 1.0
        for a, b in zip(active[::2], active[1::2]):
            if rng.random() < 0.01:
                entries[a].append(RoundEntry(rnd, RoundKind.FORFEIT_WIN, 1.0, opponent=b + 1))
                entries[b].append(RoundEntry(rnd, RoundKind.FORFEIT_LOSS, 0.0, opponent=a + 1))
                score[a] += 1.0
                continue
            pts, sp, margin, n_sets = _match(rng)
            entries[a].append(RoundEntry(rnd, RoundKind.PLAYED, pts, opponent=b + 1, colour="w",
                                         set_points=sp, stone_margin=margin))
            entries[b].append(RoundEntry(rnd, RoundKind.PLAYED, 1.0 - pts, opponent=a + 1, colour="b",
                                         set_points=n_sets - sp, stone_margin=-margin))
            score[a] += pts
            score[b] += 1.0 - pts
    return [PlayerRecord(id=i + 1, name=f"P{i + 1}", rating=1200 + (i * 7919) % 1000, rounds=tuple(e))
            for i, e in enumerate(entries)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    players = generate(args.players, args.rounds)
    status = 0
    for tiebreaks in TIEBREAK_LISTS:
        times, cpu = [], []
        for _ in range(args.repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            rows = compute_standings(players, tiebreaks=tiebreaks)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        best, median = min(times), statistics.median(times)
        shared = sum(r.shared for r in rows)
        verdict = "ok" if best <= TARGET_SECONDS else "SLOW"
        print(f"standings {args.players} players x {args.rounds} rounds, {','.join(tiebreaks)}: "
              f"best {best * 1000:.1f} ms, median {median * 1000:.1f} ms, "
              f"CPU best {min(cpu) * 1000:.1f} ms "
              f"(target {TARGET_SECONDS * 1000:.0f} ms) {verdict}; {shared} rows still shared")
        if best > TARGET_SECONDS:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
