"""Glicko-2 baseline (Glickman, "Example of the Glicko-2 system", 2013 revision).

Each event is one rating period: all its sets are rated against the opponents' (rating, deviation) at the
start of the event. Margins are ignored (set result 1 / 0.5 / 0). A player absent for whole periods of
``period_days`` gets the step-6 inflation ``phi^2 + sigma^2`` once per idle period when they next play
(computed lazily; Glickman step "if a player does not compete during the rating period").
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

from .elo import result_score
from .types import Event, HistoryEntry, Player, PlayerRating, RatingInputError, SetLine

__all__ = ["Glicko2Params", "Glicko2", "MarginGlicko2", "glicko2_update", "GLICKO2_SCALE", "TAU_RANGE"]

GLICKO2_SCALE = 173.7178
"""Rating points per Glicko-2 unit: ``400 / ln 10`` (Glickman 2013, step 2)."""


_MAX_ITERATIONS = 200
"""Iterations of the volatility root search before it stops (it converges in < 20 on real data)."""

TAU_RANGE = (0.3, 1.2)
"""Glickman (2013): "Reasonable choices are between 0.3 and 1.2"; other values are refused."""


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float, eps: float) -> float:
    """Step 5 of Glickman (2013): the Illinois-algorithm root of f(x) for the new volatility."""
    a = math.log(sigma * sigma)
    phi2 = phi * phi
    d2 = delta * delta

    def f(x: float) -> float:
        ex = math.exp(x)
        t = phi2 + v + ex
        return ex * (d2 - phi2 - v - ex) / (2.0 * t * t) - (x - a) / (tau * tau)

    big_a = a
    if d2 > phi2 + v:
        big_b = math.log(d2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0 and k < _MAX_ITERATIONS:
            k += 1
        big_b = a - k * tau
    fa, fb = f(big_a), f(big_b)
    for _ in range(_MAX_ITERATIONS):
        if abs(big_b - big_a) <= eps:
            break
        big_c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(big_c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa = fa / 2.0
        big_b, fb = big_c, fc
    return math.exp(big_a / 2.0)


def glicko2_update(
    rating: float,
    deviation: float,
    volatility: float,
    results: Iterable[tuple[float, float, float]],
    *,
    tau: float = 0.5,
    eps: float = 1e-6,
) -> tuple[float, float, float]:
    """One Glicko-2 rating period for one player (Glickman 2013, steps 1-8).

    ``rating`` and ``deviation`` in rating points (Glicko scale, 1500 centre), ``volatility`` sigma;
    ``results``: (opponent rating, opponent deviation, score 1/0.5/0) triples. Returns the new
    (rating, deviation, volatility). With no results only the deviation grows: ``sqrt(phi^2 + sigma^2)``.
    Example (Glickman): 1500/200/0.06 against (1400, 30, 1), (1550, 100, 0), (1700, 300, 0), tau 0.5
    gives 1464.06 / 151.52 / 0.05999.
    """
    if deviation <= 0 or volatility <= 0 or tau <= 0:
        raise RatingInputError("glicko2_update: deviation, volatility and tau must be > 0")
    mu = (rating - 1500.0) / GLICKO2_SCALE
    phi = deviation / GLICKO2_SCALE
    v_inv = 0.0
    dsum = 0.0
    any_result = False
    for r_j, rd_j, s_j in results:
        any_result = True
        mu_j = (r_j - 1500.0) / GLICKO2_SCALE
        g = _g(rd_j / GLICKO2_SCALE)
        e = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        v_inv += g * g * e * (1.0 - e)
        dsum += g * (s_j - e)
    if not any_result:
        return rating, math.sqrt(phi * phi + volatility * volatility) * GLICKO2_SCALE, volatility
    v = 1.0 / v_inv
    delta = v * dsum
    sigma2 = _new_volatility(phi, volatility, delta, v, tau, eps)
    phi_star = math.sqrt(phi * phi + sigma2 * sigma2)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * dsum
    return mu_new * GLICKO2_SCALE + 1500.0, phi_new * GLICKO2_SCALE, sigma2


@dataclass(frozen=True, slots=True)
class Glicko2Params:
    """Glicko-2 parameters (rating points unless noted; Glickman 2013 defaults).

    ``period_days``: length of an idle rating period for the inactivity inflation; ``provisional_rd``: a
    player whose deviation is above it is shown as "provisional" (display only).
    ``margin_weight`` / ``margin_scale`` (default 0 = plain Glicko-2): use margin Elo's blended result
    score ``(1 - w) * s + w * L(m)`` (docs/ratings.md) instead of the set result; ``monotone`` (default
    True) then keeps a won set's score at least its expected score and a lost set's at most (a win never
    lowers a rating).

    Bounds (as published implementations keep them, e.g. lichess: RD 45..500, volatility <= 0.1): the
    deviation stays in ``min_rd``..``initial_rd`` and the volatility at most ``max_volatility``; ``tau``
    must lie in Glickman's recommended 0.3..1.2. Without them a few extreme periods (yearly periods, tau
    near 1.2) drove a volatility from 0.65 to 64 and a rating to 32,915 before overflowing.
    """

    default_rating: float = 1500.0
    initial_rd: float = 350.0
    initial_volatility: float = 0.06
    tau: float = 0.5
    known_rd: float = 100.0
    period_days: int = 30
    provisional_rd: float = 110.0
    eps: float = 1e-6
    margin_weight: float = 0.0
    margin_scale: float = 6.0
    monotone: bool = True
    min_rd: float = 30.0
    max_volatility: float = 0.15

    def __post_init__(self) -> None:
        if not 0.0 <= self.margin_weight <= 1.0 or not self.margin_scale > 0:
            raise RatingInputError("margin_weight must be in 0..1 and margin_scale > 0 stones")
        for name in ("initial_rd", "initial_volatility", "tau", "known_rd", "min_rd", "max_volatility"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v > 0):
                raise RatingInputError(f"{name} must be a finite number > 0, got {v!r}")
        if not TAU_RANGE[0] <= self.tau <= TAU_RANGE[1]:
            raise RatingInputError(
                f"tau must be in {TAU_RANGE[0]}..{TAU_RANGE[1]} (Glickman 2013), got {self.tau!r}"
            )
        if not self.min_rd <= self.known_rd <= self.initial_rd:
            raise RatingInputError("need min_rd <= known_rd <= initial_rd")
        if not self.initial_volatility <= self.max_volatility:
            raise RatingInputError("initial_volatility must not exceed max_volatility")
        if type(self.period_days) is not int or self.period_days <= 0:
            raise RatingInputError("period_days must be an integer > 0")


class _GState:
    __slots__ = ("mu", "phi", "sigma", "sets", "last", "rated")

    def __init__(self, mu: float, phi: float, sigma: float, sets: int, rated: bool = False) -> None:
        self.mu = mu
        self.phi = phi
        self.sigma = sigma
        self.sets = sets
        self.last = None
        self.rated = rated  # a published starting rating: not "unrated" before the first set


class Glicko2:
    """Glicko-2 rating system with one rating period per event (baseline; margins ignored)."""

    name = "glicko2"

    def __init__(self, params: Glicko2Params | None = None) -> None:
        self.params = params if params is not None else Glicko2Params()
        p = self.params
        self._w = p.margin_weight
        self._score_table = tuple(
            result_score(1.0 if m > 0 else (0.0 if m < 0 else 0.5), m, p.margin_weight, p.margin_scale)
            for m in range(-24, 25)
        )

    def __repr__(self) -> str:
        return f"Glicko2({self.params!r})"

    def new_state(self, player: Player, initial: float | PlayerRating | None) -> _GState:
        p = self.params
        if initial is None:
            r, rd, vol, n, rated = p.default_rating, p.initial_rd, p.initial_volatility, 0, False
        elif isinstance(initial, PlayerRating):
            r = initial.rating
            rd = initial.deviation if initial.deviation is not None else p.known_rd
            vol = initial.volatility if initial.volatility is not None else p.initial_volatility
            n = initial.sets
            rated = initial.status != "unrated"
        else:
            r, rd, vol, n, rated = initial, p.known_rd, p.initial_volatility, 0, True
        if not (isinstance(r, (int, float)) and math.isfinite(r)):
            raise RatingInputError(f"initial rating of player {player!r} must be a finite number, got {r!r}")
        rd = min(max(rd, p.min_rd), p.initial_rd)
        vol = min(vol, p.max_volatility)
        return _GState((r - 1500.0) / GLICKO2_SCALE, rd / GLICKO2_SCALE, vol, n, rated)

    def rating_of(self, st: _GState) -> float:
        return st.mu * GLICKO2_SCALE + 1500.0

    def status(self, st: _GState) -> str:
        if st.sets == 0 and not st.rated:
            return "unrated"
        return "provisional" if st.phi * GLICKO2_SCALE > self.params.provisional_rd else "established"

    def player_rating(self, player: Player, st: _GState) -> PlayerRating:
        return PlayerRating(
            player, self.rating_of(st), st.sets, self.status(st), st.phi * GLICKO2_SCALE, st.sigma
        )

    def expected(self, sa: _GState, sb: _GState, on=None) -> float:
        """Predicted score of A against B: ``1 / (1 + exp(-g(sqrt(phi_A^2 + phi_B^2)) (mu_A - mu_B)))``.

        Both deviations enter (Glickman 1999, "expected outcome" of a game between two players). With
        ``on`` (the date of the game) each deviation is first inflated for the idle rating periods since
        the player's last event, as the rating step will do: a player back after a year is predicted
        less confidently than one who never left.
        """
        pa = sa.phi if on is None else self._idle(sa, on)
        pb = sb.phi if on is None else self._idle(sb, on)
        phi = math.sqrt(pa * pa + pb * pb)
        return 1.0 / (1.0 + math.exp(-_g(phi) * (sa.mu - sb.mu)))

    def _idle(self, st: _GState, date) -> float:
        """phi of a player at the start of an event on ``date``, after idle-period inflation."""
        if st.last is None:
            return st.phi
        idle = (date - st.last).days // self.params.period_days - 1
        if idle <= 0:
            return st.phi
        cap = self.params.initial_rd / GLICKO2_SCALE
        return min(math.sqrt(st.phi * st.phi + idle * st.sigma * st.sigma), cap)

    def rate_event(
        self, event: Event, states: dict[Player, _GState], history: bool
    ) -> dict[Player, HistoryEntry] | None:
        p = self.params
        exp = math.exp
        snap: dict[Player, tuple[float, float, float]] = {}  # mu, phi, g(phi)
        terms: dict[Player, list[tuple[float, float, float, int, Player]]] = {}
        for s in event.sets:
            b = s.player_b
            if b is None or s.forfeit:
                continue
            a = s.player_a
            for pl in (a, b):
                if pl not in snap:
                    st = states[pl]
                    phi = self._idle(st, event.date)
                    snap[pl] = (st.mu, phi, _g(phi))
                    terms[pl] = []
            mu_a, _pa, g_a = snap[a]
            mu_b, _pb, g_b = snap[b]
            m = s.margin
            sc = s.score if self._w == 0.0 else self._score_table[m + 24]
            terms[a].append((mu_b, g_b, sc, m, b))
            terms[b].append((mu_a, g_a, 1.0 - sc, -m, a))
        monotone = p.monotone and self._w != 0.0
        phi_lo, phi_hi = p.min_rd / GLICKO2_SCALE, p.initial_rd / GLICKO2_SCALE
        out: dict[Player, HistoryEntry] | None = {} if history else None
        fsum = math.fsum
        for pl, (mu, phi, _g_self) in snap.items():
            st = states[pl]
            before_status = self.status(st)
            es = []
            vs = []
            ds = []
            ss = []
            for mu_j, g_j, s_j, m_j, _o in terms[pl]:
                e = 1.0 / (1.0 + exp(-g_j * (mu - mu_j)))
                if monotone and ((m_j > 0 and s_j < e) or (m_j < 0 and s_j > e)):
                    s_j = e  # a won set never lowers the rating, a lost one never raises it
                es.append(e)
                ss.append(s_j)
                vs.append(g_j * g_j * e * (1.0 - e))
                ds.append(g_j * (s_j - e))
            v_inv = fsum(vs)
            dsum = fsum(ds)
            if v_inv > 0.0:
                v = 1.0 / v_inv
                try:
                    sigma = _new_volatility(phi, st.sigma, v * dsum, v, p.tau, p.eps)
                except (OverflowError, ZeroDivisionError, ValueError):
                    sigma = st.sigma  # the root search failed: keep the volatility (never crash a run)
                if not (math.isfinite(sigma) and sigma > 0.0):
                    sigma = st.sigma
                sigma = min(sigma, p.max_volatility)
                phi_star = math.sqrt(phi * phi + sigma * sigma)
                phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + v_inv)
            else:  # every opponent infinitely uncertain: nothing learnt
                sigma, phi_new = st.sigma, phi
            phi_new = min(max(phi_new, phi_lo), phi_hi)
            mu_new = mu + phi_new * phi_new * dsum
            st.mu, st.phi, st.sigma = mu_new, phi_new, sigma
            st.sets += len(es)
            st.last = event.date
            if out is not None:
                f = phi_new * phi_new * GLICKO2_SCALE
                lines = tuple(
                    SetLine(o, mu_j * GLICKO2_SCALE + 1500.0, s_j, m, e, f * d)
                    for (mu_j, _g2, _s0, m, o), s_j, e, d in zip(terms[pl], ss, es, ds)
                )
                out[pl] = HistoryEntry(
                    event.id,
                    event.date,
                    mu * GLICKO2_SCALE + 1500.0,
                    mu_new * GLICKO2_SCALE + 1500.0,
                    before_status,
                    self.status(st),
                    lines,
                    phi_new * GLICKO2_SCALE,
                )
        return out


class MarginGlicko2(Glicko2):
    """The federation's rating: Glicko-2 fed with the margin-blended result score, under the rule that
    a won set never lowers a rating (docs/ratings.md, "The federation's rating"). Same engine as
    :class:`Glicko2`; only the name differs, so stored runs say which system made them."""

    name = "margin_glicko2"
