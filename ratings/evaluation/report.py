"""The markdown report of an evaluation (:class:`ratings.evaluation.evaluate.Evaluation`): scores, paired
differences, tuned parameters and calibration, as docs/ratings.md shows them."""
from __future__ import annotations

import math
from typing import Any

from .evaluate import EXTRAS, SYSTEMS, TUNING_SEED_OFFSET, Evaluation


_LABELS = {
    "margin": "Federation rating",
    "elo": "Elo (FIDE-style K)",
    "glicko2": "Glicko-2",
    "margin_w0": "Ablation: federation rating, margin weight 0",
    "margin_glicko2": "Margin Glicko-2 (blended score)",
    "margin_elo": "Margin Elo",
}


def _fmt_params(params: dict[str, Any]) -> str:
    if not params:
        return "defaults"
    parts = []
    for k, v in params.items():
        if k == "k_top":
            continue
        parts.append(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}")
    return ", ".join(parts)


def render_table(evaluation: Evaluation) -> str:
    """Markdown report of an :class:`Evaluation`: scores, paired differences, tuned parameters, calibration."""
    ev = evaluation
    if ev.source and not ev.source.startswith("simulated"):
        where = (
            f"{ev.source}: {ev.events} events, burn-in {ev.burn_in_events} events, tuning {ev.tuning_events} events "
            f"({ev.tuning_sets} sets), held out from {ev.held_out_from}"
        )
    elif ev.protocol == "separate":
        where = (
            f"tuned on a separate league (seed {ev.seed + TUNING_SEED_OFFSET}; {ev.tuning_events} events after its "
            f"burn-in, {ev.tuning_sets} sets); evaluation league {ev.events} events, burn-in {ev.burn_in_events}"
        )
    else:
        where = (
            f"{ev.events} events, burn-in {ev.burn_in_events}, tuning period {ev.tuning_events} events "
            f"({ev.tuning_sets} sets)"
        )
    lines = [
        f"Seed {ev.seed}: {where}; held out {ev.held_out_events} events ({ev.sets} sets, draw rate "
        f"{ev.draw_rate:.3f}); budget {ev.budget} parameter sets per system.",
        "",
        "| System | Log loss (nats/set) | Brier (3-class) | Calibration error (ECE, p_win) | Tuning log loss "
        "| Shipped defaults: log loss | Shipped defaults: Brier | Won sets lowering the winner's rating |",
        "|---|---|---|---|---|---|---|---|",
    ]
    shown = [n for n in SYSTEMS + ("margin_w0",) + EXTRAS if n in ev.systems]
    for name in shown:
        r = ev.systems[name]
        lines.append(
            f"| {_LABELS[name]} | {r.logloss:.4f} | {r.brier:.4f} | {r.ece:.4f} | {r.tuning_logloss:.4f} | "
            f"{r.default_logloss:.4f} | {r.default_brier:.4f} | {r.won_lowered} of {r.won} |"
        )
    fed = _LABELS["margin"]
    lines += [
        "",
        "| Paired difference (per set, nats) | Mean | 95% CI (event bootstrap) |",
        "|---|---|---|",
    ]
    for base in [n for n in shown if n in ev.comparisons]:
        m, lo, hi = ev.comparisons[base]
        lines.append(f"| {fed} - {_LABELS[base]} | {m:+.4f} | [{lo:+.4f}, {hi:+.4f}] |")
    if ev.bands:
        bases = [b for b in ("elo", "glicko2") if b in ev.systems]
        lines += [
            "",
            f"Gain by rating difference (|difference| in the federation's ratings before the set; per-set mean "
            f"of {fed} minus the baseline, nats, 95% CI):",
            "",
            "| Rating difference | Sets | " + " | ".join(f"{fed} - {_LABELS[b]}" for b in bases) + " |",
            "|---|---|" + "---|" * len(bases),
        ]
        for lo_b, hi_b, n, per in ev.bands:
            label = f"{lo_b:.0f}+" if hi_b == math.inf else f"{lo_b:.0f}-{hi_b:.0f}"
            cells = []
            for b in bases:
                if b in per:
                    m, lo, hi = per[b]
                    cells.append(f"{m:+.4f} [{lo:+.4f}, {hi:+.4f}]")
                else:
                    cells.append("-")
            lines.append(f"| {label} | {n} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "| System | Tuned parameters | Prediction layer (beta, alpha, delta) |",
        "|---|---|---|",
    ]
    for name in shown:
        r = ev.systems[name]
        lines.append(
            f"| {_LABELS[name]} | {_fmt_params(r.params)} | "
            f"{r.layer.beta:.3f}, {r.layer.alpha:+.3f}, {r.layer.delta:.3f} |"
        )
    lines += ["", "Calibration (held-out sets; predicted vs observed win rate of the first mover):", ""]
    lines.append("| p_win bin | " + " | ".join(_LABELS[n] for n in SYSTEMS) + " |")
    lines.append("|---|" + "---|" * len(SYSTEMS))
    for k in range(10):
        lo, hi = k / 10, (k + 1) / 10
        cells = []
        for name in SYSTEMS:
            row = next((r for r in ev.systems[name].calibration if abs(r[0] - lo) < 1e-9), None)
            cells.append("-" if row is None else f"{row[3]:.2f} vs {row[4]:.2f} (n={row[2]})")
        lines.append(f"| {lo:.1f}-{hi:.1f} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
