"""Walk-forward evaluation of the rating systems on a simulated league (docs/ratings.md, "Evidence").

Protocol:

1. Simulate the evaluation league (:func:`ratings.evaluation.simulate.simulate_league`, real Mangala
   sets) and, separately, a *tuning league* from another seed (same configuration): a separate period of
   play of the same kind. The first ``burn_in`` fraction of each league's events is a burn-in (ratings
   form; nothing is scored).
2. Tuning, same budget for every system: ``budget`` parameter sets (the documented defaults first, then
   seeded random draws from each system's search box). Each is run walk-forward over the tuning league and
   judged by its log loss on the sets after the burn-in, with its prediction layer (below) fitted on the
   same predictions. The best one is kept.
3. The kept parameters and prediction layer are run walk-forward over the evaluation league; its sets after
   the burn-in are the held-out sets. Walk-forward: before an event is rated, every one of its sets is
   predicted from the ratings at the start of the event (which are exactly the ratings the event will be
   rated against).

(``protocol="time"`` instead tunes on events ``[burn_in, tune_fraction)`` of the one league and scores
the rest. A first version tuned on the cold start of a single league and picked K-factors far too large
for later events; tuning on the short window of one league still picked noisy parameters: the selection
noise of 24 candidates on about 3,000 sets was as large as the differences between the systems.)

Prediction layer (the same for every system, fitted on the tuning sets only). A system gives the
expected score ``E`` of the set's first mover (player A) against B. Then

- ``q = sigmoid(beta * logit(E) + alpha)``: ``beta`` rescales (a margin-blended score compresses rating
  differences), ``alpha`` is the first mover's advantage;
- ``p_draw = delta * 4 q (1 - q)`` (draws, 24-24, are most likely between equal players; ``delta`` in
  0..0.5 so that every probability stays >= 0), ``p_win = q - p_draw / 2``, ``p_loss = 1 - q - p_draw / 2``.

So ``q`` is A's expected set score and the three outcome probabilities add up to 1. Log loss is
``-ln p(observed outcome)`` in nats per set (a draw is scored with ``p_draw``, not as half a win);
Brier score is the three-class sum of squares; calibration compares the predicted and observed win
frequencies of player A in ten bins of ``p_win``.

Paired comparison: per held-out set ``d = logloss(margin) - logloss(baseline)``; the 95% interval is a
percentile bootstrap over *events* (sets of one event share ratings, so events are resampled whole).
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ratings.engine import (
    Elo,
    EloParams,
    Glicko2,
    Glicko2Params,
    MarginElo,
    MarginEloParams,
    Rater,
)
from ratings.engine.types import Event

from .simulate import LeagueConfig, SimulatedLeague, simulate_league

__all__ = [
    "SYSTEMS",
    "PredictionLayer",
    "SystemResult",
    "Evaluation",
    "walk_forward",
    "fit_prediction_layer",
    "evaluate",
    "run",
    "render_table",
]

SYSTEMS = ("margin", "elo", "glicko2")
TUNING_SEED_OFFSET = 100003
"""The tuning league of ``evaluate(seed)`` is simulated with ``seed + TUNING_SEED_OFFSET``."""
_EPS = 1e-12


# --------------------------------------------------------------------------------------------------
# systems and their search boxes
def _make_system(name: str, params: dict[str, Any]):
    if name == "margin":
        return MarginElo(MarginEloParams(**params))
    if name == "margin_w0":
        return MarginElo(MarginEloParams(**{**params, "margin_weight": 0.0}))
    if name == "elo":
        return Elo(EloParams(**params))
    if name in ("glicko2", "margin_glicko2"):
        return Glicko2(Glicko2Params(**params))
    raise ValueError(f"unknown system {name!r}")


def _log_uniform(rng: random.Random, lo: float, hi: float) -> float:
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def _draw_elo_common(rng: random.Random) -> dict[str, Any]:
    k = _log_uniform(rng, 4.0, 48.0)
    return {
        "k_provisional": _log_uniform(rng, 10.0, 96.0),
        "k": k,
        "k_top": k,
        "provisional_sets": rng.choice((10, 20, 30, 60)),
        "first_rating_sets": rng.choice((3, 5, 9, 15)),
        "rate_against_unrated": rng.random() < 0.5,
    }


def _candidates(name: str, budget: int, rng: random.Random) -> list[dict[str, Any]]:
    """``budget`` parameter dicts: the documented defaults first, then seeded random draws."""
    out: list[dict[str, Any]] = [{}]
    while len(out) < budget:
        if name == "elo":
            out.append(_draw_elo_common(rng))
        elif name in ("margin", "margin_w0"):
            d = _draw_elo_common(rng)
            d["k_provisional"] = _log_uniform(rng, 20.0, 200.0)  # decaying schedule: K at the first rating
            d["margin_weight"] = rng.uniform(0.2, 1.0)
            d["margin_scale"] = _log_uniform(rng, 1.5, 12.0)
            if name == "margin_w0":
                d["margin_weight"] = 0.0
            out.append(d)
        else:
            d = {
                "tau": rng.uniform(0.2, 1.2),
                "initial_rd": rng.uniform(150.0, 400.0),
                "initial_volatility": _log_uniform(rng, 0.02, 0.15),
                "period_days": rng.choice((15, 30, 60)),
            }
            if name == "margin_glicko2":
                d["margin_weight"] = rng.uniform(0.2, 1.0)
                d["margin_scale"] = _log_uniform(rng, 1.5, 12.0)
            out.append(d)
    if name == "margin_glicko2":
        out[0] = {"margin_weight": 0.75, "margin_scale": 6.0}  # margin Elo's default blend
    return out[:budget]


# --------------------------------------------------------------------------------------------------
# walk forward and the prediction layer
@dataclass(frozen=True, slots=True)
class _Pred:
    event: int
    expected: float  # system's expected score of player A (first mover)
    outcome: int  # 0 = A won, 1 = draw, 2 = A lost


def walk_forward(events: tuple[Event, ...] | list[Event], system, stop: int | None = None) -> list[_Pred]:
    """Predict every rated set of each event before rating the event; events ``[0, stop)``.

    Returns one prediction per rated set with the event index, the expected score of ``player_a`` and the
    observed outcome (0 win, 1 draw, 2 loss for ``player_a``).
    """
    rater = Rater(system, history=False)
    preds: list[_Pred] = []
    n = len(events) if stop is None else stop
    for i in range(n):
        ev = events[i]
        for s in ev.sets:
            if not s.rated:
                continue
            e = rater.expected(s.player_a, s.player_b)
            o = 0 if s.a_stones > s.b_stones else (1 if s.a_stones == s.b_stones else 2)
            preds.append(_Pred(i, e, o))
        rater.rate(ev)
    return preds


@dataclass(frozen=True, slots=True)
class PredictionLayer:
    """``q = sigmoid(beta * logit(E) + alpha)``, ``p_draw = delta * 4q(1-q)`` (module docstring)."""

    beta: float = 1.0
    alpha: float = 0.0
    delta: float = 0.0

    def probabilities(self, expected: float) -> tuple[float, float, float]:
        """(p_win, p_draw, p_loss) of player A from the system's expected score ``expected``."""
        e = min(1.0 - 1e-9, max(1e-9, expected))
        z = self.beta * math.log(e / (1.0 - e)) + self.alpha
        q = 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0
        d = self.delta * 4.0 * q * (1.0 - q)
        return q - d / 2.0, d, 1.0 - q - d / 2.0


def _losses(layer: PredictionLayer, preds: list[_Pred]) -> list[float]:
    out = []
    for p in preds:
        probs = layer.probabilities(p.expected)
        out.append(-math.log(max(probs[p.outcome], _EPS)))
    return out


def _mean_loss(layer: PredictionLayer, logits: list[float], outcomes: list[int]) -> float:
    b, a, dl = layer.beta, layer.alpha, layer.delta
    total = 0.0
    log = math.log
    exp = math.exp
    for z0, o in zip(logits, outcomes):
        z = b * z0 + a
        q = 1.0 / (1.0 + exp(-z)) if z > -700 else 0.0
        d = dl * 4.0 * q * (1.0 - q)
        p = q - d / 2.0 if o == 0 else (d if o == 1 else 1.0 - q - d / 2.0)
        total -= log(p if p > _EPS else _EPS)
    return total / max(1, len(outcomes))


def _golden(f: Callable[[float], float], lo: float, hi: float, iters: int = 22) -> float:
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(iters):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return (a + b) / 2


def fit_prediction_layer(preds: list[_Pred]) -> PredictionLayer:
    """Fit (beta, alpha, delta) by coordinate-wise golden-section search on the mean log loss."""
    logits = []
    for p in preds:
        e = min(1.0 - 1e-9, max(1e-9, p.expected))
        logits.append(math.log(e / (1.0 - e)))
    outcomes = [p.outcome for p in preds]
    n = len(outcomes)
    draws = sum(1 for o in outcomes if o == 1)
    layer = PredictionLayer(1.0, 0.0, min(0.5, max(1e-4, 1.2 * draws / max(1, n))))
    for _sweep in range(3):
        layer = PredictionLayer(
            _golden(lambda x: _mean_loss(PredictionLayer(x, layer.alpha, layer.delta), logits, outcomes), 0.05, 4.0),
            layer.alpha,
            layer.delta,
        )
        layer = PredictionLayer(
            layer.beta,
            _golden(lambda x: _mean_loss(PredictionLayer(layer.beta, x, layer.delta), logits, outcomes), -1.0, 1.0),
            layer.delta,
        )
        layer = PredictionLayer(
            layer.beta,
            layer.alpha,
            _golden(lambda x: _mean_loss(PredictionLayer(layer.beta, layer.alpha, x), logits, outcomes), 0.0, 0.5),
        )
    return layer


# --------------------------------------------------------------------------------------------------
# metrics
def _brier(layer: PredictionLayer, preds: list[_Pred]) -> list[float]:
    out = []
    for p in preds:
        probs = layer.probabilities(p.expected)
        out.append(sum((pr - (1.0 if k == p.outcome else 0.0)) ** 2 for k, pr in enumerate(probs)))
    return out


def _calibration(layer: PredictionLayer, preds: list[_Pred], bins: int = 10):
    """Ten bins of predicted p_win: (lo, hi, count, mean predicted p_win, observed win rate); and ECE."""
    acc = [[0, 0.0, 0] for _ in range(bins)]
    for p in preds:
        pw = layer.probabilities(p.expected)[0]
        k = min(bins - 1, int(pw * bins))
        acc[k][0] += 1
        acc[k][1] += pw
        acc[k][2] += 1 if p.outcome == 0 else 0
    rows = []
    ece = 0.0
    n = max(1, len(preds))
    for k, (c, sp, w) in enumerate(acc):
        if c:
            rows.append((k / bins, (k + 1) / bins, c, sp / c, w / c))
            ece += c / n * abs(sp / c - w / c)
    return rows, ece


def _bootstrap_ci(
    diffs_by_event: dict[int, list[float]], n_boot: int, rng: random.Random
) -> tuple[float, float]:
    keys = sorted(diffs_by_event)
    sums = [math.fsum(diffs_by_event[k]) for k in keys]
    counts = [len(diffs_by_event[k]) for k in keys]
    m = len(keys)
    stats = []
    for _ in range(n_boot):
        s = 0.0
        c = 0
        for _j in range(m):
            i = rng.randrange(m)
            s += sums[i]
            c += counts[i]
        stats.append(s / c)
    stats.sort()
    lo = stats[int(0.025 * (n_boot - 1))]
    hi = stats[int(math.ceil(0.975 * (n_boot - 1)))]
    return lo, hi


# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SystemResult:
    """One system's tuned parameters and held-out scores (log loss in nats per set)."""

    name: str
    params: dict[str, Any]
    layer: PredictionLayer
    tuning_logloss: float
    logloss: float
    brier: float
    ece: float
    calibration: tuple[tuple[float, float, int, float, float], ...]
    losses: tuple[float, ...] = field(repr=False, default=())


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Everything :func:`evaluate` measured; :meth:`summary` is the JSON of :func:`run`."""

    seed: int
    sets: int
    tuning_sets: int
    events: int
    held_out_events: int
    tuning_events: int
    burn_in_events: int
    protocol: str
    draw_rate: float
    systems: dict[str, SystemResult]
    ci_margin_minus_elo: tuple[float, float]
    ci_margin_minus_glicko2: tuple[float, float]
    mean_margin_minus_elo: float
    mean_margin_minus_glicko2: float
    budget: int
    comparisons: dict[str, tuple[float, float, float]]  # baseline -> (mean, lo, hi) of margin - baseline
    seconds: dict[str, float]

    def summary(self) -> dict[str, Any]:
        return {
            "sets": self.sets,
            "logloss": {name: round(self.systems[name].logloss, 6) for name in SYSTEMS},
            "ci_margin_minus_elo": [round(x, 6) for x in self.ci_margin_minus_elo],
            "ci_margin_minus_glicko2": [round(x, 6) for x in self.ci_margin_minus_glicko2],
        }


def evaluate(
    seed: int = 1,
    *,
    budget: int = 24,
    burn_in: float = 0.2,
    tune_fraction: float = 0.5,
    bootstrap: int = 2000,
    config: LeagueConfig | None = None,
    league: SimulatedLeague | None = None,
    tuning_league: SimulatedLeague | None = None,
    protocol: str = "separate",
    ablation: bool = True,
    extras: tuple[str, ...] = (),
    progress: Callable[[str], None] | None = None,
) -> Evaluation:
    """Run the whole evaluation (module docstring) and return an :class:`Evaluation`.

    ``seed`` drives the leagues, the random search and the bootstrap; ``budget`` parameter sets per system.
    ``protocol="separate"`` (default) tunes on a separate league simulated with seed ``seed + 100003``
    (its events after the burn-in) and scores the evaluation league's events after the burn-in;
    ``protocol="time"`` tunes on events ``[burn_in, tune_fraction)`` of the one league and scores the rest.
    ``league`` / ``tuning_league`` may be given to skip the simulations; ``ablation`` also tunes and scores
    margin Elo with margin weight 0 (same K schedule, same candidates) to show what the margins add;
    ``extras=("margin_glicko2",)`` also tunes and scores Glicko-2 fed with margin Elo's blended score
    (experimental; reported in the table, not in :meth:`Evaluation.summary`).
    Raises ``ValueError`` for a budget < 1, an unknown protocol, ``0 <= burn_in < tune_fraction < 1`` not
    holding, or a league with too few events to split.
    """
    if budget < 1:
        raise ValueError(f"budget must be >= 1, got {budget!r}")
    for x in extras:
        if x != "margin_glicko2":
            raise ValueError(f"unknown extra system {x!r} (known: 'margin_glicko2')")
    if protocol not in ("separate", "time"):
        raise ValueError(f"protocol must be 'separate' or 'time', got {protocol!r}")
    if not 0.0 <= burn_in < tune_fraction < 1.0:
        raise ValueError(
            f"need 0 <= burn_in < tune_fraction < 1, got burn_in={burn_in!r}, tune_fraction={tune_fraction!r}"
        )
    say = progress or (lambda _msg: None)
    t0 = time.perf_counter()
    if league is None:
        league = simulate_league(seed, config)
    events = league.events
    n_ev = len(events)
    burn = int(round(n_ev * burn_in))
    if protocol == "separate":
        if tuning_league is None:
            tuning_league = simulate_league(seed + TUNING_SEED_OFFSET, league.config)
        tune_events = tuning_league.events
        tune_burn = int(round(len(tune_events) * burn_in))
        tune_stop = len(tune_events)
        split = burn
        if tune_burn >= tune_stop or burn >= n_ev:
            raise ValueError(f"cannot use a burn-in of {burn_in} with {n_ev} events")
    else:
        tune_events = events
        split = int(round(n_ev * tune_fraction))
        tune_burn, tune_stop = burn, split
        if burn >= split or split >= n_ev:
            raise ValueError(f"cannot split {n_ev} events with burn_in {burn_in} and tune_fraction {tune_fraction}")
    t_sim = time.perf_counter() - t0
    say(
        f"simulated {n_ev} events, {sum(1 for e in events for s in e.sets if s.rated)} rated sets"
        f"{' (and a tuning league)' if protocol == 'separate' else ''} in {t_sim:.1f} s"
    )

    t1 = time.perf_counter()
    results: dict[str, SystemResult] = {}
    held: dict[str, list[_Pred]] = {}
    names = SYSTEMS + (("margin_w0",) if ablation else ()) + tuple(extras)
    for name in names:
        # the ablation draws the same candidates as margin Elo, only with margin weight 0
        rng = random.Random(f"{seed}-{'margin' if name == 'margin_w0' else name}-search")
        best = None
        for params in _candidates(name, budget, rng):
            preds = [
                p
                for p in walk_forward(tune_events, _make_system(name, params), stop=tune_stop)
                if p.event >= tune_burn
            ]
            layer = fit_prediction_layer(preds)
            loss = math.fsum(_losses(layer, preds)) / len(preds)
            if best is None or loss < best[0]:
                best = (loss, params, layer)
        assert best is not None
        tune_loss, params, layer = best
        preds = [p for p in walk_forward(events, _make_system(name, params)) if p.event >= split]
        held[name] = preds
        losses = _losses(layer, preds)
        rows, ece = _calibration(layer, preds)
        results[name] = SystemResult(
            name,
            params,
            layer,
            tune_loss,
            math.fsum(losses) / len(losses),
            math.fsum(_brier(layer, preds)) / len(preds),
            ece,
            tuple(rows),
            tuple(losses),
        )
        say(f"{name}: tuning log loss {tune_loss:.4f}, held-out {results[name].logloss:.4f}")
    t_tune = time.perf_counter() - t1

    ev_idx = [p.event for p in held["margin"]]
    n_sets = len(ev_idx)
    brng = random.Random(f"{seed}-bootstrap")
    cis = {}
    means = {}
    for base in [n for n in names if n != "margin"]:
        by_event: dict[int, list[float]] = {}
        for k, (lm, lb) in enumerate(zip(results["margin"].losses, results[base].losses)):
            by_event.setdefault(ev_idx[k], []).append(lm - lb)
        cis[base] = _bootstrap_ci(by_event, bootstrap, brng)
        means[base] = math.fsum(math.fsum(v) for v in by_event.values()) / n_sets
    draws = sum(1 for p in held["margin"] if p.outcome == 1)
    tuning_sets = sum(1 for i in range(tune_burn, tune_stop) for s in tune_events[i].sets if s.rated)
    return Evaluation(
        seed=seed,
        sets=n_sets,
        tuning_sets=tuning_sets,
        events=n_ev,
        held_out_events=n_ev - split,
        tuning_events=tune_stop - tune_burn,
        burn_in_events=burn,
        protocol=protocol,
        draw_rate=draws / max(1, n_sets),
        systems=results,
        ci_margin_minus_elo=cis["elo"],
        ci_margin_minus_glicko2=cis["glicko2"],
        mean_margin_minus_elo=means["elo"],
        mean_margin_minus_glicko2=means["glicko2"],
        budget=budget,
        comparisons={b: (means[b], cis[b][0], cis[b][1]) for b in cis},
        seconds={"simulation": t_sim, "tuning_and_scoring": t_tune, "total": time.perf_counter() - t0},
    )


def run(
    seed: int = 1,
    *,
    budget: int = 24,
    burn_in: float = 0.2,
    tune_fraction: float = 0.5,
    bootstrap: int = 2000,
    config: LeagueConfig | None = None,
    protocol: str = "separate",
) -> dict[str, Any]:
    """Evaluation entry point: the summary JSON of :func:`evaluate`.

    ``{"sets": N, "logloss": {"margin": x, "elo": y, "glicko2": z}, "ci_margin_minus_elo": [lo, hi],
    "ci_margin_minus_glicko2": [lo, hi]}`` - held-out sets, log loss in nats per set, 95% bootstrap
    intervals of the paired per-set difference (negative = the margin system is better).
    """
    return evaluate(
        seed,
        budget=budget,
        burn_in=burn_in,
        tune_fraction=tune_fraction,
        bootstrap=bootstrap,
        config=config,
        protocol=protocol,
    ).summary()


_LABELS = {
    "margin": "Margin Elo",
    "elo": "Elo (FIDE-style K)",
    "glicko2": "Glicko-2",
    "margin_w0": "Ablation: margin Elo, weight 0",
    "margin_glicko2": "Experimental: Glicko-2 with the blended score",
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
    if ev.protocol == "separate":
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
        "| System | Log loss (nats/set) | Brier (3-class) | Calibration error (ECE, p_win) | Tuning log loss |",
        "|---|---|---|---|---|",
    ]
    shown = [n for n in SYSTEMS + ("margin_w0", "margin_glicko2") if n in ev.systems]
    for name in shown:
        r = ev.systems[name]
        lines.append(
            f"| {_LABELS[name]} | {r.logloss:.4f} | {r.brier:.4f} | {r.ece:.4f} | {r.tuning_logloss:.4f} |"
        )
    lines += [
        "",
        "| Paired difference (per set, nats) | Mean | 95% CI (event bootstrap) |",
        "|---|---|---|",
        f"| Margin Elo - Elo | {ev.mean_margin_minus_elo:+.4f} | "
        f"[{ev.ci_margin_minus_elo[0]:+.4f}, {ev.ci_margin_minus_elo[1]:+.4f}] |",
        f"| Margin Elo - Glicko-2 | {ev.mean_margin_minus_glicko2:+.4f} | "
        f"[{ev.ci_margin_minus_glicko2[0]:+.4f}, {ev.ci_margin_minus_glicko2[1]:+.4f}] |",
    ]
    if "margin_w0" in ev.comparisons:
        m, lo, hi = ev.comparisons["margin_w0"]
        lines.append(f"| Margin Elo - ablation (weight 0) | {m:+.4f} | [{lo:+.4f}, {hi:+.4f}] |")
    if "margin_glicko2" in ev.comparisons:
        m, lo, hi = ev.comparisons["margin_glicko2"]
        lines.append(f"| Margin Elo - experimental margin Glicko-2 | {m:+.4f} | [{lo:+.4f}, {hi:+.4f}] |")
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
