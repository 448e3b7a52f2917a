"""Speed of the Mangala rules engine (single core).

Generates N random complete sets with a fixed seed (not timed), then measures:

- ``replay``: recorded sets replayed per second and moves per second (the fast path used to validate
  records), target >= 24,000 sets/s on the reference machine;
- ``play``: moves per second through the rich :func:`games.engine.play` (new Position + MoveResult each);
- ``perft``: leaf nodes per second of ``perft(initial, 7)``;
- ``baseline``: the same replays with a straightforward stone-by-stone implementation written here
  (federation only), for the speed-up ratio — a ratio stays meaningful on a busy machine.

Times are CPU time of this process (``time.process_time``, single core), best of ``--repeat`` runs.

Usage: ``python benchmarks/engine_bench.py [--sets 2000] [--seed 1] [--repeat 5] [--variant federation]``
Prints one line per measurement and exits 1 when ``--min-sets-per-second`` is given and not reached.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import Position, legal_moves, perft, play, replay  # noqa: E402


def random_sets(n: int, seed: int, variant: str) -> list[list[int]]:
    """``n`` random complete sets (uniformly random legal move each ply)."""
    rng = random.Random(seed)
    sets = []
    for _ in range(n):
        pos = Position.initial(variant)
        moves = []
        while not pos.is_over:
            move = rng.choice(legal_moves(pos))
            moves.append(move.pit)
            pos = play(pos, move).position
        sets.append(moves)
    return sets


def best_of(repeat: int, fn) -> tuple[float, float]:
    """(best, median) CPU time of ``fn()`` over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times), statistics.median(times)


def baseline_replay(moves: list[int]) -> list[int]:
    """A straightforward federation replay: one stone at a time with modulo arithmetic (for comparison)."""
    board = [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0]
    player = 0
    for ply, pit in enumerate(moves, start=1):
        if player is None:
            raise ValueError(f"ply {ply}: the set is over")
        store, opp_store = (6, 13) if player == 0 else (13, 6)
        start = player * 7 + pit - 1
        stones = board[start]
        if stones == 0:
            raise ValueError(f"ply {ply}: pit {pit} is empty")
        board[start] = 0
        pos = start if stones > 1 else (start + 1) % 14
        while True:
            if pos == opp_store:
                pos = (pos + 1) % 14
            board[pos] += 1
            stones -= 1
            if stones == 0:
                break
            pos = (pos + 1) % 14
        next_player = 1 - player
        own = range(0, 6) if player == 0 else range(7, 13)
        if pos == store:
            next_player = player
        elif pos not in own and board[pos] % 2 == 0:
            board[store] += board[pos]
            board[pos] = 0
        elif pos in own and board[pos] == 1 and board[12 - pos] > 0:
            board[store] += board[12 - pos] + 1
            board[12 - pos] = 0
            board[pos] = 0
        first, second = sum(board[0:6]), sum(board[7:13])
        if first == 0 or second == 0:
            if first == 0:
                board[6] += second
            else:
                board[13] += first
            for i in (0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12):
                board[i] = 0
            next_player = None
        player = next_player
    return board


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--variant", default="federation", choices=["federation", "kale"])
    parser.add_argument("--perft-depth", type=int, default=7)
    parser.add_argument("--min-sets-per-second", type=float, default=None)
    args = parser.parse_args(argv)

    sets = random_sets(args.sets, args.seed, args.variant)
    total_moves = sum(map(len, sets))
    print(f"variant {args.variant}: {len(sets)} random complete sets (seed {args.seed}), "
          f"{total_moves / len(sets):.1f} moves per set on average")

    def replay_all() -> None:
        for moves in sets:
            replay(moves, args.variant)

    best, median = best_of(args.repeat, replay_all)
    sets_per_s = len(sets) / best
    print(f"replay: {sets_per_s:,.0f} sets/s, {total_moves / best:,.0f} moves/s "
          f"(best of {args.repeat}; median {len(sets) / median:,.0f} sets/s)")

    if args.variant == "federation":
        for moves in sets[:200]:  # the baseline must agree before it is worth timing
            assert tuple(baseline_replay(moves)) == replay(moves).board

        def baseline_all() -> None:
            for moves in sets:
                baseline_replay(moves)

        base, _ = best_of(args.repeat, baseline_all)
        print(f"baseline (straightforward stone-by-stone replay): {len(sets) / base:,.0f} sets/s "
              f"-> engine is {base / best:.1f}x faster")

    sample = sets[: max(1, len(sets) // 4)]
    sample_moves = sum(map(len, sample))

    def play_all() -> None:
        for moves in sample:
            pos = Position.initial(args.variant)
            for pit in moves:
                pos = play(pos, pit).position

    best, _ = best_of(max(1, args.repeat // 2), play_all)
    print(f"play (rich MoveResult): {sample_moves / best:,.0f} moves/s")

    start = Position.initial(args.variant)
    t0 = time.process_time()
    nodes = perft(start, args.perft_depth)
    dt = time.process_time() - t0
    print(f"perft({args.perft_depth}) = {nodes}: {nodes / dt:,.0f} leaf nodes/s ({dt:.2f} s)")

    if args.min_sets_per_second is not None and sets_per_s < args.min_sets_per_second:
        print(f"FAIL: {sets_per_s:,.0f} sets/s < {args.min_sets_per_second:,.0f}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
