"""Elo-family rating systems: plain FIDE-style Elo (baseline) and the federation's margin-aware Elo.

Both share one implementation (:class:`EloFamily`); plain Elo is margin Elo with margin weight 0 and FIDE's
K-factors. All formulas, parameters and their reasons are in docs/ratings.md. Summary, for one set of
player A against B (ratings ``R_A``, ``R_B`` fixed at the start of the event):

- expected score ``E_A = 1 / (1 + 10 ** (-(R_A - R_B) / 400))``, the difference capped at ``max_diff``
  (FIDE B.02 §8.3.1: 400);
- result score ``S_A = (1 - w) * s + w * L(m)`` with ``s`` = 1 / 0.5 / 0 (win/draw/loss), ``m`` = A's stone
  margin (Kural 14.4) and ``L(m) = 1 / (1 + exp(-m / c))`` (Kovalchik 2020, "logistic" MOV Elo).
  ``L(-m) = 1 - L(m)``, so ``S_A + S_B = 1``: the system is zero-sum like Elo; with ``monotone`` (default)
  a won set scores at least ``E_A`` and a lost one at most ``E_A`` (a win never costs rating);
- change ``K * (S_A - E_A)``, summed over the event and applied at its end (FIDE rating period);
- K (fixed at the start of the event from the player's ``n`` rated sets): while ``n < provisional_sets``
  ``k_provisional`` (FIDE step), or with ``provisional_decay`` (margin Elo's default)
  ``max(k, k_provisional * min(1, (first_rating_sets + h) / (n + h)))``; afterwards ``k``, or ``k_top``
  once the rating has reached ``top_rating`` (FIDE B.02 §8.3.3: 40 / 20 / 10);
- an unrated player has no K: the first rating is the performance over the first ``first_rating_sets``
  sets, with ``hypothetical_draws`` draws against ``default_rating`` added (FIDE B.02 §8.2, 2024):
  ``Ru = Ra + 400 * log10(P / (1 - P))``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .types import (
    Event,
    HistoryEntry,
    Player,
    PlayerRating,
    RatingInputError,
    SetLine,
)

__all__ = [
    "EloParams",
    "MarginEloParams",
    "EloFamily",
    "Elo",
    "MarginElo",
    "expected_score",
    "margin_score",
    "result_score",
    "performance_rating",
    "UNRATED",
    "PROVISIONAL",
    "ESTABLISHED",
]

UNRATED = "unrated"
PROVISIONAL = "provisional"
ESTABLISHED = "established"

_LN10_400 = math.log(10.0) / 400.0
_MAX_DP = 800.0  # FIDE B.02 table 8.1.a ends at dp = +-800 (p = 1.00 / 0.00)


def expected_score(rating: float, opponent_rating: float, max_diff: float | None = 400.0) -> float:
    """Expected score (0..1) of a player rated ``rating`` against ``opponent_rating`` (both rating points).

    Logistic curve on the 400 scale: ``1 / (1 + 10 ** (-(rating - opponent_rating) / 400))``; the
    difference is clipped to ``+-max_diff`` first (FIDE B.02 §8.3.1, 400 points) unless ``max_diff`` is None.
    """
    d = rating - opponent_rating
    if max_diff is not None:
        if d > max_diff:
            d = max_diff
        elif d < -max_diff:
            d = -max_diff
    return 1.0 / (1.0 + math.exp(-d * _LN10_400))


def margin_score(margin: float, scale: float) -> float:
    """Logistic score of a stone ``margin`` (stones, -24..24): ``1 / (1 + exp(-margin / scale))``.

    ``scale`` is in stones (> 0); ``margin_score(-m) == 1 - margin_score(m)`` and ``margin_score(0) == 0.5``.
    """
    if not scale > 0:
        raise RatingInputError(f"margin scale must be > 0 stones, got {scale!r}")
    return 1.0 / (1.0 + math.exp(-margin / scale))


def result_score(set_score: float, margin: float, weight: float, scale: float) -> float:
    """Margin Elo result score ``(1 - weight) * set_score + weight * margin_score(margin, scale)``.

    ``set_score`` is 1 / 0.5 / 0; ``weight`` in 0..1 (0 gives plain Elo). Zero-sum: the two players' scores
    of a set add up to 1.
    """
    if weight == 0.0:
        return float(set_score)
    return (1.0 - weight) * set_score + weight * margin_score(margin, scale)


def performance_rating(
    opponent_ratings: list[float] | tuple[float, ...],
    scores: list[float] | tuple[float, ...],
    *,
    hypothetical_draws: float = 2.0,
    hypothetical_rating: float = 1500.0,
) -> float:
    """First rating from a player's first sets: ``Ra + 400 * log10(P / (1 - P))`` (rating points).

    ``Ra`` is the mean opponent rating and ``P`` the mean score, both after adding ``hypothetical_draws``
    draws against ``hypothetical_rating`` (FIDE B.02 §8.2 since 2024 adds two draws against 1800; we use the
    federation's default rating). The logistic inverse of :func:`expected_score` replaces FIDE's normal-curve
    table 8.1.a so that the first rating is on the same curve as later updates; ``dp`` is capped at +-800.
    With no sets and no hypothetical draws the result is ``hypothetical_rating``.
    """
    if len(opponent_ratings) != len(scores):
        raise RatingInputError("performance_rating: one score per opponent rating is needed")
    return _performance(
        math.fsum(opponent_ratings), math.fsum(scores), len(scores), hypothetical_draws, hypothetical_rating
    )


def _performance(opp_sum: float, score_sum: float, n: float, h: float, r0: float) -> float:
    total = n + h
    if total <= 0:
        return r0
    ra = (opp_sum + h * r0) / total
    p = (score_sum + 0.5 * h) / total
    if p <= 0.0:
        return ra - _MAX_DP
    if p >= 1.0:
        return ra + _MAX_DP
    dp = 400.0 * math.log10(p / (1.0 - p))
    if dp > _MAX_DP:
        dp = _MAX_DP
    elif dp < -_MAX_DP:
        dp = -_MAX_DP
    return ra + dp


@dataclass(frozen=True, slots=True)
class EloParams:
    """Parameters of the plain Elo baseline; the defaults are FIDE B.02 (2024) adapted to sets.

    Ratings and K in rating points; counts in rated sets. See docs/ratings.md for the reasons.
    """

    default_rating: float = 1500.0
    k_provisional: float = 40.0
    provisional_sets: int = 30
    k: float = 20.0
    k_top: float = 10.0
    top_rating: float | None = 2400.0
    max_diff: float | None = 400.0
    first_rating_sets: int = 5
    hypothetical_draws: float = 2.0
    rate_against_unrated: bool = False
    provisional_decay: bool = False

    def __post_init__(self) -> None:
        _check_common(self)


@dataclass(frozen=True, slots=True)
class MarginEloParams:
    """Parameters of the federation's margin-aware Elo (docs/ratings.md, "Margin Elo").

    ``margin_weight`` (0..1) is the share of the result score given to the margin; ``margin_scale`` (stones)
    the logistic scale of the margin score. ``monotone`` (the federation's rule, default True): the result
    score of a won set is at least the expected score and that of a lost set at most, so a win never
    lowers a rating and a loss never raises one; the margin only changes how much. (Zero-sum still: the
    clip is the same for both sides, ``S_B = 1 - S_A``.) Other fields as in :class:`EloParams`.
    """

    default_rating: float = 1500.0
    k_provisional: float = 40.0
    provisional_sets: int = 30
    k: float = 20.0
    k_top: float = 20.0
    top_rating: float | None = None
    max_diff: float | None = 400.0
    first_rating_sets: int = 5
    hypothetical_draws: float = 2.0
    rate_against_unrated: bool = False
    provisional_decay: bool = True
    margin_weight: float = 0.75
    margin_scale: float = 6.0
    monotone: bool = True

    def __post_init__(self) -> None:
        _check_common(self)
        if not 0.0 <= self.margin_weight <= 1.0:
            raise RatingInputError(f"margin_weight must be in 0..1, got {self.margin_weight!r}")
        if not self.margin_scale > 0:
            raise RatingInputError(f"margin_scale must be > 0 stones, got {self.margin_scale!r}")


def _check_common(p: Any) -> None:
    for name in ("k_provisional", "k", "k_top"):
        v = getattr(p, name)
        if not (isinstance(v, (int, float)) and math.isfinite(v) and v >= 0):
            raise RatingInputError(f"{name} must be a finite number >= 0, got {v!r}")
    if not math.isfinite(p.default_rating):
        raise RatingInputError(f"default_rating must be finite, got {p.default_rating!r}")
    if p.first_rating_sets < 0 or p.provisional_sets < 0:
        raise RatingInputError("first_rating_sets and provisional_sets must be >= 0")
    if p.hypothetical_draws < 0:
        raise RatingInputError("hypothetical_draws must be >= 0")
    if p.max_diff is not None and not p.max_diff > 0:
        raise RatingInputError(f"max_diff must be > 0 or None, got {p.max_diff!r}")


class _EloState:
    """Mutable per-player state of an Elo-family run (internal)."""

    __slots__ = ("rating", "sets", "rated", "top", "opp_sum", "score_sum", "n_unrated")

    def __init__(self, rating: float, sets: int, rated: bool) -> None:
        self.rating = rating
        self.sets = sets
        self.rated = rated
        self.top = False
        self.opp_sum = 0.0
        self.score_sum = 0.0
        self.n_unrated = 0


class EloFamily:
    """Elo-type rating system with an optional margin component; see the module docstring.

    Instances are immutable in practice (they hold frozen params and lookup tables) and can be reused by
    any number of runs. ``name`` identifies the system in a :class:`~ratings.engine.RatingRun`.
    """

    name = "elo-family"

    def __init__(self, params: EloParams | MarginEloParams) -> None:
        self.params = params
        w = getattr(params, "margin_weight", 0.0)
        c = getattr(params, "margin_scale", 1.0)
        self._w = w
        # result score table indexed by margin + 24 (draw/loss/win decided by the margin's sign)
        table = []
        for m in range(-24, 25):
            s = 1.0 if m > 0 else (0.0 if m < 0 else 0.5)
            table.append(result_score(s, m, w, c))
        self._score_table = tuple(table)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.params!r})"

    # -- states ---------------------------------------------------------------------------------
    def new_state(self, player: Player, initial: float | PlayerRating | None) -> _EloState:
        """State of a player first seen: unrated at ``default_rating``, or rated from ``initial``.

        A float ``initial`` is an established published rating; a :class:`PlayerRating` carries its
        ``sets`` count and status too.
        """
        p = self.params
        if initial is None:
            st = _EloState(p.default_rating, 0, p.first_rating_sets == 0)
            return st
        if isinstance(initial, PlayerRating):
            r, n, rated = initial.rating, initial.sets, initial.status != UNRATED
        else:
            r, n, rated = initial, p.provisional_sets, True
        if not (isinstance(r, (int, float)) and math.isfinite(r)):
            raise RatingInputError(f"initial rating of player {player!r} must be a finite number, got {r!r}")
        st = _EloState(float(r), int(n), rated)
        if p.top_rating is not None and r >= p.top_rating:
            st.top = True
        return st

    def status(self, st: _EloState) -> str:
        if not st.rated:
            return UNRATED
        return PROVISIONAL if st.sets < self.params.provisional_sets else ESTABLISHED

    def player_rating(self, player: Player, st: _EloState) -> PlayerRating:
        return PlayerRating(player, st.rating, st.sets, self.status(st))

    def k_factor(self, st: _EloState) -> float:
        """K of a rated player for the next event (FIDE B.02 §8.3.3 style), rating points per score point."""
        p = self.params
        n = st.sets
        if n < p.provisional_sets:
            if p.provisional_decay:
                # continue the 1/n gain of the performance rating: K_prov at the first rating, then
                # K_prov * (N1 + h) / (n + h), never below k
                h = p.hypothetical_draws
                f = (p.first_rating_sets + h) / (n + h) if n + h > 0 else 1.0
                kp = p.k_provisional * (f if f < 1.0 else 1.0)
                return kp if kp > p.k else p.k
            return p.k_provisional
        if st.top:
            return p.k_top
        return p.k

    def expected(self, sa: _EloState, sb: _EloState, on=None) -> float:
        """Expected result score of A against B from the current states (used for prediction); ``on``
        (the game's date) is accepted for the protocol and not needed: an Elo rating has no deviation."""
        return expected_score(sa.rating, sb.rating, self.params.max_diff)

    def rating_of(self, st: _EloState) -> float:
        return st.rating

    # -- one rating period -----------------------------------------------------------------------
    def rate_event(
        self, event: Event, states: dict[Player, _EloState], history: bool
    ) -> dict[Player, HistoryEntry] | None:
        """Rate every set of ``event`` against the ratings at its start; update ``states`` in place.

        Returns player -> :class:`HistoryEntry` when ``history`` is true, else None.
        """
        p = self.params
        exp = math.exp
        c400 = _LN10_400
        maxd = p.max_diff if p.max_diff is not None else math.inf
        table = self._score_table
        w = self._w
        monotone = getattr(p, "monotone", True)
        rate_unrated = p.rate_against_unrated

        snap: dict[Player, tuple[float, bool, float]] = {}
        changes: dict[Player, list[float]] = {}
        unr_opp: dict[Player, list[float]] = {}
        unr_score: dict[Player, list[float]] = {}
        counted: dict[Player, int] = {}
        lines: dict[Player, list[SetLine]] | None = {} if history else None
        k_of = self.k_factor

        for s in event.sets:
            b = s.player_b
            if b is None or s.forfeit:
                continue
            a = s.player_a
            sa_ = snap.get(a)
            if sa_ is None:
                st = states[a]
                sa_ = snap[a] = (st.rating, st.rated, k_of(st) if st.rated else 0.0)
                changes[a] = []
                counted[a] = 0
                if lines is not None:
                    lines[a] = []
            sb_ = snap.get(b)
            if sb_ is None:
                st = states[b]
                sb_ = snap[b] = (st.rating, st.rated, k_of(st) if st.rated else 0.0)
                changes[b] = []
                counted[b] = 0
                if lines is not None:
                    lines[b] = []
            ra, rated_a, ka = sa_
            rb, rated_b, kb = sb_
            d = ra - rb
            if d > maxd:
                d = maxd
            elif d < -maxd:
                d = -maxd
            ea = 1.0 / (1.0 + exp(-d * c400))
            eb = 1.0 - ea
            m = s.margin
            if w == 0.0:
                sc_a = s.score
            else:
                sc_a = table[m + 24]
                if monotone:
                    # the federation's rule: a won set never lowers the winner's rating and a lost set
                    # never raises the loser's; the margin changes only how much (docs/ratings.md)
                    if m > 0:
                        if sc_a < ea:
                            sc_a = ea
                    elif m < 0:
                        if sc_a > ea:
                            sc_a = ea
            sc_b = 1.0 - sc_a
            # player A
            if rated_a:
                if rated_b or rate_unrated:
                    ch_a = ka * (sc_a - ea)
                    changes[a].append(ch_a)
                    counted[a] += 1
                else:
                    ch_a = 0.0
            else:
                ch_a = 0.0
                unr_opp.setdefault(a, []).append(rb)
                unr_score.setdefault(a, []).append(sc_a)
                counted[a] += 1
            # player B
            if rated_b:
                if rated_a or rate_unrated:
                    ch_b = kb * (sc_b - eb)
                    changes[b].append(ch_b)
                    counted[b] += 1
                else:
                    ch_b = 0.0
            else:
                ch_b = 0.0
                unr_opp.setdefault(b, []).append(ra)
                unr_score.setdefault(b, []).append(sc_b)
                counted[b] += 1
            if lines is not None:
                lines[a].append(SetLine(b, rb, sc_a, m, ea, ch_a))
                lines[b].append(SetLine(a, ra, sc_b, -m, eb, ch_b))

        out: dict[Player, HistoryEntry] | None = {} if history else None
        fsum = math.fsum
        top = p.top_rating
        for pl, (r0, rated, _k) in snap.items():
            st = states[pl]
            before_status = self.status(st)
            if rated:
                ch = changes[pl]
                if ch:
                    st.rating = r0 + fsum(ch)
                st.sets += counted[pl]
            else:
                opp = unr_opp.get(pl)
                if opp:
                    st.opp_sum += fsum(opp)
                    st.score_sum += fsum(unr_score[pl])
                    st.n_unrated += len(opp)
                st.sets += counted[pl]
                st.rating = _performance(
                    st.opp_sum, st.score_sum, st.n_unrated, p.hypothetical_draws, p.default_rating
                )
                if st.sets >= p.first_rating_sets:
                    st.rated = True
            if top is not None and st.rated and st.rating >= top:
                st.top = True
            if out is not None:
                out[pl] = HistoryEntry(
                    event.id, event.date, r0, st.rating, before_status, self.status(st), tuple(lines[pl])
                )
        return out


class Elo(EloFamily):
    """Plain Elo baseline with FIDE B.02 rules (K 40/20/10, 400-point cap, first rating after 5 sets).

    Margins are ignored: the result score is the set result 1 / 0.5 / 0.
    """

    name = "elo"

    def __init__(self, params: EloParams | None = None) -> None:
        super().__init__(params if params is not None else EloParams())


class MarginElo(EloFamily):
    """The federation's margin-aware Elo (docs/ratings.md): result score blends set result and margin."""

    name = "margin"

    def __init__(self, params: MarginEloParams | None = None) -> None:
        super().__init__(params if params is not None else MarginEloParams())
