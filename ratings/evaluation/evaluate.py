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
    TAU_RANGE,
    Elo,
    EloParams,
    Glicko2,
    Glicko2Params,
    MarginElo,
    MarginEloParams,
    Rater,
    federation_params,
    federation_system,
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
]

SYSTEMS = ("margin", "elo", "glicko2")
"""``margin`` is the federation's rating (:func:`ratings.engine.federation_system`); the other two baselines."""
EXTRAS = ("margin_glicko2", "margin_elo")
"""Further systems :func:`evaluate` can tune and score beside :data:`SYSTEMS`."""
TUNING_SEED_OFFSET = 100003
"""The tuning league of ``evaluate(seed)`` is simulated with ``seed + TUNING_SEED_OFFSET``."""
_EPS = 1e-12


# --------------------------------------------------------------------------------------------------
# systems and their search boxes
def _make_system(name: str, params: dict[str, Any]):
    if name == "margin":
        return federation_system(params)
    if name == "margin_elo":
        return MarginElo(MarginEloParams(**params))
    if name == "margin_w0":
        return federation_system({**params, "margin_weight": 0.0})
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


def _draw_glicko(rng: random.Random) -> dict[str, Any]:
    return {
        "tau": rng.uniform(*TAU_RANGE),
        "initial_rd": rng.uniform(150.0, 350.0),
        "initial_volatility": _log_uniform(rng, 0.02, 0.15),
        "period_days": rng.choice((15, 30, 60, 365)),
    }


def _draw_margin(rng: random.Random) -> dict[str, Any]:
    return {"margin_weight": rng.uniform(0.2, 1.0), "margin_scale": _log_uniform(rng, 1.5, 12.0)}


def _family(name: str) -> str:
    """``"elo"`` or ``"glicko2"``: the engine family of a system name (``margin`` = the federation's)."""
    if name in ("margin", "margin_w0"):
        return "glicko2" if isinstance(federation_params(), Glicko2Params) else "elo"
    return "glicko2" if "glicko" in name else "elo"


def _candidates(name: str, budget: int, rng: random.Random) -> list[dict[str, Any]]:
    """``budget`` parameter dicts: the documented defaults first, then seeded random draws."""
    out: list[dict[str, Any]] = [{}]
    family = _family(name)
    while len(out) < budget:
        if name == "elo":
            out.append(_draw_elo_common(rng))
        elif family == "elo":  # margin Elo, the federation's rating if it is margin Elo, the ablation
            d = _draw_elo_common(rng)
            d["k_provisional"] = _log_uniform(rng, 20.0, 200.0)  # decaying schedule: K at the first rating
            d.update(_draw_margin(rng))
            if name == "margin_w0":
                d["margin_weight"] = 0.0
            out.append(d)
        else:
            d = _draw_glicko(rng)
            if name != "glicko2":
                d.update(_draw_margin(rng))
            if name == "margin_w0":
                d["margin_weight"] = 0.0
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
    diff: float = 0.0  # A's rating minus B's in the system, at prediction time (rating points)


def _date_groups(events, stop: int) -> list[tuple[int, int]]:
    """``[start, end)`` index ranges of consecutive events sharing a date, up to ``stop``."""
    groups = []
    i = 0
    while i < stop:
        j = i + 1
        while j < stop and events[j].date == events[i].date:
            j += 1
        groups.append((i, j))
        i = j
    return groups


def walk_forward(
    events: tuple[Event, ...] | list[Event],
    system,
    stop: int | None = None,
    *,
    initial=None,
    lines_from: int | None = None,
) -> list[_Pred] | tuple[list[_Pred], dict[str, int]]:
    """Predict every rated set of each date's events before rating them; events ``[0, stop)``.

    Events sharing a date are all predicted from the ratings before that date, then rated in the
    given order (a file's order). Returns one prediction per rated set with the event index, the
    expected score of ``player_a``, the observed outcome (0 win, 1 draw, 2 loss for ``player_a``) and
    the rating difference. ``initial`` as for :class:`~ratings.engine.Rater`. With ``lines_from``, also
    returns counts over the rated set lines of events from that index on: ``won`` / ``won_lowered``
    (won sets whose line lowered the winner's rating) and ``lost`` / ``lost_raised``.
    """
    rater = Rater(system, initial, history=lines_from is not None)
    preds: list[_Pred] = []
    n = len(events) if stop is None else stop
    counts = {"won": 0, "won_lowered": 0, "lost": 0, "lost_raised": 0}
    for lo, hi in _date_groups(events, n):
        on = events[lo].date
        for i in range(lo, hi):
            for s in events[i].sets:
                if not s.rated:
                    continue
                e = rater.expected(s.player_a, s.player_b, on)
                o = 0 if s.a_stones > s.b_stones else (1 if s.a_stones == s.b_stones else 2)
                preds.append(_Pred(i, e, o, rater.rating(s.player_a) - rater.rating(s.player_b)))
        for i in range(lo, hi):
            entries = rater.rate(events[i])
            if lines_from is not None:
                rater.history.clear()  # only this event's lines are needed
                if i >= lines_from and entries:
                    for entry in entries.values():
                        if entry.status_before == "unrated":
                            continue  # a first rating is a performance, not a change
                        for ln in entry.lines:
                            if ln.margin > 0:
                                counts["won"] += 1
                                counts["won_lowered"] += ln.change < -1e-9
                            elif ln.margin < 0:
                                counts["lost"] += 1
                                counts["lost_raised"] += ln.change > 1e-9
    if lines_from is not None:
        return preds, counts
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
    """One system's tuned parameters and held-out scores (log loss in nats per set).

    ``default_logloss`` / ``default_brier``: the same scores for the system's shipped (untuned)
    parameters, with their own prediction layer fitted on the tuning sets. ``won`` / ``won_lowered``
    and ``lost`` / ``lost_raised``: held-out set lines of rated players that were won (lost), and of
    those how many lowered (raised) the player's rating with the tuned parameters.
    """

    name: str
    params: dict[str, Any]
    layer: PredictionLayer
    tuning_logloss: float
    logloss: float
    brier: float
    ece: float
    calibration: tuple[tuple[float, float, int, float, float], ...]
    losses: tuple[float, ...] = field(repr=False, default=())
    default_logloss: float = math.nan
    default_brier: float = math.nan
    won: int = 0
    won_lowered: int = 0
    lost: int = 0
    lost_raised: int = 0
    diffs: tuple[float, ...] = field(repr=False, default=())

    @property
    def won_lowered_share(self) -> float:
        """Share of won held-out sets that lowered the winner's rating (0..1)."""
        return self.won_lowered / self.won if self.won else 0.0


BANDS = ((0.0, 100.0), (100.0, 200.0), (200.0, 400.0), (400.0, math.inf))
"""Bands of the absolute rating difference (federation system, rating points) for the gain report."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Everything :func:`evaluate` / :func:`evaluate_events` measured; :meth:`summary` is the JSON line.

    ``bands``: per band of :data:`BANDS` (lo, hi, sets, {baseline: (mean, ci_lo, ci_hi)}) of the per-set
    log-loss difference "federation system - baseline"; ``source`` says what was evaluated.
    """

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
    bands: tuple = ()
    source: str = ""
    held_out_from: str = ""

    def summary(self) -> dict[str, Any]:
        names = [n for n in SYSTEMS if n in self.systems]
        return {
            "sets": self.sets,
            "logloss": {name: round(self.systems[name].logloss, 6) for name in names},
            "ci_margin_minus_elo": [round(x, 6) for x in self.ci_margin_minus_elo],
            "ci_margin_minus_glicko2": [round(x, 6) for x in self.ci_margin_minus_glicko2],
            "brier": {name: round(self.systems[name].brier, 6) for name in names},
            "defaults": {
                "logloss": {name: round(self.systems[name].default_logloss, 6) for name in names},
                "brier": {name: round(self.systems[name].default_brier, 6) for name in names},
            },
            "won_sets_lowering_rating": {name: round(self.systems[name].won_lowered_share, 6) for name in names},
        }


def _score(name: str, params: dict[str, Any], layer: PredictionLayer, events, split: int, initial, lines: bool):
    preds, counts = walk_forward(events, _make_system(name, params), initial=initial,
                                 lines_from=split if lines else len(events))
    return [p for p in preds if p.event >= split], counts


def _tune_and_score(
    *, seed: int, names, tune_events, tune_burn: int, tune_stop: int, tune_initial, events, split: int,
    initial, budget: int, bootstrap: int, say,
) -> tuple[dict[str, SystemResult], dict[str, list[_Pred]], dict, tuple]:
    """Tune every system in ``names`` on ``tune_events[tune_burn:tune_stop]`` (same budget), score the
    best and the shipped defaults on ``events[split:]``; paired bootstrap and bands against "margin"."""
    results: dict[str, SystemResult] = {}
    held: dict[str, list[_Pred]] = {}
    for name in names:
        # the ablation draws the same candidates as margin Elo, only with margin weight 0
        rng = random.Random(f"{seed}-{'margin' if name == 'margin_w0' else name}-search")
        best = None
        default = None
        for params in _candidates(name, budget, rng):
            preds = [
                p
                for p in walk_forward(tune_events, _make_system(name, params), stop=tune_stop, initial=tune_initial)
                if p.event >= tune_burn
            ]
            layer = fit_prediction_layer(preds)
            loss = math.fsum(_losses(layer, preds)) / len(preds)
            if default is None:
                default = (loss, params, layer)
            if best is None or loss < best[0]:
                best = (loss, params, layer)
        assert best is not None and default is not None
        tune_loss, params, layer = best
        preds, counts = _score(name, params, layer, events, split, initial, True)
        if params == default[1]:
            d_preds = preds
        else:
            d_preds, _c = _score(name, default[1], default[2], events, split, initial, False)
        held[name] = preds
        losses = _losses(layer, preds)
        rows, ece = _calibration(layer, preds)
        results[name] = SystemResult(
            name, params, layer, tune_loss, math.fsum(losses) / len(losses),
            math.fsum(_brier(layer, preds)) / len(preds), ece, tuple(rows), tuple(losses),
            default_logloss=math.fsum(_losses(default[2], d_preds)) / len(d_preds),
            default_brier=math.fsum(_brier(default[2], d_preds)) / len(d_preds),
            won=counts["won"], won_lowered=counts["won_lowered"], lost=counts["lost"],
            lost_raised=counts["lost_raised"], diffs=tuple(p.diff for p in preds),
        )
        say(
            f"{name}: tuning log loss {tune_loss:.4f}, held-out {results[name].logloss:.4f} "
            f"(defaults {results[name].default_logloss:.4f}); won sets lowering the rating "
            f"{counts['won_lowered']}/{counts['won']}"
        )
    ev_idx = [p.event for p in held["margin"]]
    brng = random.Random(f"{seed}-bootstrap")
    comparisons = {}
    for base in [n for n in names if n != "margin"]:
        by_event: dict[int, list[float]] = {}
        for k, (lm, lb) in enumerate(zip(results["margin"].losses, results[base].losses)):
            by_event.setdefault(ev_idx[k], []).append(lm - lb)
        lo, hi = _bootstrap_ci(by_event, bootstrap, brng)
        comparisons[base] = (math.fsum(math.fsum(v) for v in by_event.values()) / len(ev_idx), lo, hi)
    bands = []
    diffs = results["margin"].diffs
    for lo_b, hi_b in BANDS:
        idx = [k for k, d in enumerate(diffs) if lo_b <= abs(d) < hi_b]
        per = {}
        for base in [n for n in ("elo", "glicko2") if n in results]:
            by_event = {}
            for k in idx:
                by_event.setdefault(ev_idx[k], []).append(results["margin"].losses[k] - results[base].losses[k])
            if idx:
                ci = _bootstrap_ci(by_event, max(200, bootstrap // 4), brng)
                per[base] = (math.fsum(math.fsum(v) for v in by_event.values()) / len(idx), ci[0], ci[1])
        bands.append((lo_b, hi_b, len(idx), per))
    return results, held, comparisons, tuple(bands)


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
    """Run the whole evaluation on a *simulated* league (module docstring) and return an :class:`Evaluation`.

    ``seed`` drives the leagues, the random search and the bootstrap; ``budget`` parameter sets per system.
    ``protocol="separate"`` (default) tunes on a separate league simulated with seed ``seed + 100003``
    (its events after the burn-in) and scores the evaluation league's events after the burn-in;
    ``protocol="time"`` tunes on events ``[burn_in, tune_fraction)`` of the one league and scores the rest.
    ``league`` / ``tuning_league`` may be given to skip the simulations; ``ablation`` also tunes and scores
    the federation's system with margin weight 0 (same candidates) to show what the margins add;
    ``extras`` (any of :data:`EXTRAS`) also tunes and scores other systems (reported in the table, not in
    :meth:`Evaluation.summary`).
    Raises ``ValueError`` for a budget < 1, an unknown protocol or extra, ``0 <= burn_in < tune_fraction < 1``
    not holding, or a league with too few events to split.
    """
    _check_arguments(budget, extras, burn_in, tune_fraction)
    if protocol not in ("separate", "time"):
        raise ValueError(f"protocol must be 'separate' or 'time', got {protocol!r}")
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
    names = SYSTEMS + (("margin_w0",) if ablation else ()) + tuple(extras)
    return _evaluation(
        seed=seed, names=names, tune_events=tune_events, tune_burn=tune_burn, tune_stop=tune_stop,
        tune_initial=None, events=events, split=split, burn=burn, initial=None, budget=budget,
        bootstrap=bootstrap, say=say, protocol=protocol, t0=t0, t_prep=t_sim,
        source=f"simulated league, seed {seed}",
    )


def _check_arguments(budget, extras, burn_in, tune_fraction) -> None:
    if budget < 1:
        raise ValueError(f"budget must be >= 1, got {budget!r}")
    for x in extras:
        if x not in EXTRAS:
            raise ValueError(f"unknown extra system {x!r} (known: {', '.join(map(repr, EXTRAS))})")
    if not 0.0 <= burn_in < tune_fraction < 1.0:
        raise ValueError(
            f"need 0 <= burn_in < tune_fraction < 1, got burn_in={burn_in!r}, tune_fraction={tune_fraction!r}"
        )


def _evaluation(
    *, seed, names, tune_events, tune_burn, tune_stop, tune_initial, events, split, burn, initial, budget,
    bootstrap, say, protocol, t0, t_prep, source, held_out_from="",
) -> Evaluation:
    t1 = time.perf_counter()
    results, held, comparisons, bands = _tune_and_score(
        seed=seed, names=names, tune_events=tune_events, tune_burn=tune_burn, tune_stop=tune_stop,
        tune_initial=tune_initial, events=events, split=split, initial=initial, budget=budget,
        bootstrap=bootstrap, say=say,
    )
    t_tune = time.perf_counter() - t1
    n_sets = len(held["margin"])
    draws = sum(1 for p in held["margin"] if p.outcome == 1)
    tuning_sets = sum(1 for i in range(tune_burn, tune_stop) for s in tune_events[i].sets if s.rated)
    nan2 = (math.nan, math.nan)
    return Evaluation(
        seed=seed,
        sets=n_sets,
        tuning_sets=tuning_sets,
        events=len(events),
        held_out_events=len(events) - split,
        tuning_events=tune_stop - tune_burn,
        burn_in_events=burn,
        protocol=protocol,
        draw_rate=draws / max(1, n_sets),
        systems=results,
        ci_margin_minus_elo=comparisons["elo"][1:] if "elo" in comparisons else nan2,
        ci_margin_minus_glicko2=comparisons["glicko2"][1:] if "glicko2" in comparisons else nan2,
        mean_margin_minus_elo=comparisons["elo"][0] if "elo" in comparisons else math.nan,
        mean_margin_minus_glicko2=comparisons["glicko2"][0] if "glicko2" in comparisons else math.nan,
        budget=budget,
        comparisons=comparisons,
        seconds={"preparation": t_prep, "tuning_and_scoring": t_tune, "total": time.perf_counter() - t0},
        bands=bands,
        source=source,
        held_out_from=held_out_from,
    )


def _sets_split(events, fraction: float) -> int:
    """Index of the first event after the date group in which the rated sets reach ``fraction``."""
    total = sum(1 for e in events for s in e.sets if s.rated)
    target = fraction * total
    seen = 0
    for lo, hi in _date_groups(events, len(events)):
        seen += sum(1 for i in range(lo, hi) for s in events[i].sets if s.rated)
        if seen >= target:
            return hi
    return len(events)


def evaluate_events(
    events,
    *,
    seed: int = 1,
    budget: int = 24,
    burn_in: float = 0.1,
    tune_fraction: float = 0.6,
    bootstrap: int = 2000,
    initial=None,
    systems: tuple[str, ...] = SYSTEMS,
    extras: tuple[str, ...] = (),
    ablation: bool = False,
    progress: Callable[[str], None] | None = None,
    source: str = "",
) -> Evaluation:
    """Evaluate the rating systems on recorded results (a results file, the federation's own sets).

    ``events``: :class:`~ratings.engine.Event` values in rating order (date, then the file's order).
    Chronological split by rated sets: the date groups holding the first ``burn_in`` share of the sets
    are a burn-in (rated, never scored), the sets up to ``tune_fraction`` tune every system with the
    same ``budget`` (and fit its prediction layer), and the sets after that are held out; the tuned
    systems run walk-forward over everything and are scored on the held-out sets. ``initial`` as for
    :class:`~ratings.engine.Rater` (published ratings the history starts from). ``systems`` must contain
    ``"margin"`` (the federation's rating, what the comparisons are made against).
    Raises ``ValueError`` for bad arguments or too few events to split (at least one date group in each part).
    """
    _check_arguments(budget, extras, burn_in, tune_fraction)
    if "margin" not in systems:
        raise ValueError("systems must include 'margin'")
    for n in systems:
        if n not in SYSTEMS:
            raise ValueError(f"unknown system {n!r} (known: {', '.join(SYSTEMS)})")
    say = progress or (lambda _msg: None)
    t0 = time.perf_counter()
    events = tuple(events)
    burn = _sets_split(events, burn_in) if burn_in > 0 else 0
    split = _sets_split(events, tune_fraction)
    if not 0 <= burn < split < len(events):
        raise ValueError(
            f"cannot split {len(events)} events on {len({e.date for e in events})} dates into a burn-in, a tuning "
            f"part and a held-out part (burn_in={burn_in}, tune_fraction={tune_fraction}): at least 3 dates with "
            "rated sets are needed"
        )
    n_sets = sum(1 for e in events for s in e.sets if s.rated)
    say(f"{len(events)} events, {n_sets} rated sets; burn-in {burn} events, tuning to event {split}")
    names = tuple(systems) + (("margin_w0",) if ablation else ()) + tuple(extras)
    return _evaluation(
        seed=seed, names=names, tune_events=events, tune_burn=burn, tune_stop=split, tune_initial=initial,
        events=events, split=split, burn=burn, initial=initial, budget=budget, bootstrap=bootstrap, say=say,
        protocol="time", t0=t0, t_prep=0.0, source=source, held_out_from=str(events[split].date),
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
    "ci_margin_minus_glicko2": [lo, hi], "brier": {...}, "defaults": {"logloss": {...}, "brier": {...}},
    "won_sets_lowering_rating": {...}}`` - held-out sets, log loss in nats per set, 95% bootstrap
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
