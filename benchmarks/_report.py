"""One line per measured figure, the same in every benchmark, so ``make bench`` reads as a table.

``figure("standings page p95, 300 players, cached", 12.3, "ms", target=50)`` prints::

    FIGURE  standings page p95, 300 players, cached ........ 12.3 ms   target <= 50 ms   ok

``better="higher"`` for throughputs (target is a minimum). ``target=None``: a figure measured for the
record (how it grows with size) with no goal of its own. Returns whether the target is met (True
without a target). Nothing here fails a run: the figures are read, not asserted (timed tests are not
tests, see README "Benchmarks").
"""
from __future__ import annotations

import sys

_WIDTH = 64


def figure(name: str, value: float, unit: str, *, target: float | None = None, better: str = "lower",
           digits: int | None = None, note: str = "") -> bool:
    """Print one figure line (see the module docstring) and return whether ``value`` meets ``target``."""
    if better not in ("lower", "higher"):
        raise ValueError(f"better must be 'lower' or 'higher', not {better!r}")
    if digits is None:
        digits = 0 if abs(value) >= 100 else (1 if abs(value) >= 10 else 2)
    shown = f"{value:,.{digits}f} {unit}"
    if target is None:
        goal, verdict, met = "", "", True
    else:
        op = "<=" if better == "lower" else ">="
        met = value <= target if better == "lower" else value >= target
        goal = f"target {op} {target:g} {unit}"
        verdict = "ok" if met else "MISSED"
    label = f"{name} ".ljust(_WIDTH, ".")
    line = f"FIGURE  {label} {shown:>14}   {goal:<24} {verdict}"
    if note:
        line += f"   ({note})"
    print(line.rstrip(), flush=True)
    return met


if __name__ == "__main__":  # `make bench` runs every benchmarks/*.py: this one has nothing to measure
    sys.exit(0)
