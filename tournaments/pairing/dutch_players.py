"""Player data of the FIDE Dutch system (:mod:`.dutch`) rebuilt from the history: accelerated
scores, past opponents, colour differences and preferences (C.04.3 A.6), float history (A.4) and
eligibility for the pairing-allocated bye (C.04.1 f, C.04.3 C.2).

Conventions: scores are handled internally in tenths of a point; the score that places a
player in a score group is the *accelerated* score (points plus the virtual points of the round
in question, FIDE C.04.5.1, TRF ``XXA``), in the current round as in the float history of past
rounds (bbpPairings v6 ``scoreWithAcceleration``).  ``rank`` is the 0-based position of a player
by pairing id among the players taking part in the tournament (A.2).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .base import PairingError, PairingPlayer, PointSystem, RoundRecord

__all__ = ["DOWN", "UP", "NONE", "DutchPlayer", "build_players", "colour_data", "other_colour", "tenths"]

DOWN, UP, NONE = 0, 1, 2


def other_colour(colour: str | None) -> str | None:
    """The opposite colour (``"w"`` / ``"b"``), ``None`` for ``None``."""
    return {"w": "b", "b": "w"}.get(colour)  # type: ignore[arg-type]


@dataclass(slots=True)
class DutchPlayer:
    """Per-player data derived from the history (C.04.3 A.6 colour preferences etc.)."""

    pid: int
    rank: int
    score: int  # tenths of a point, accelerated (virtual points of this round included)
    opponents: set[int] = field(default_factory=set)
    colours: list[str] = field(default_factory=list)  # colours of played games, in order
    imbalance: int = 0
    pref: str | None = None
    repeated: str | None = None  # colour played in the last two played games (if same)
    strong: bool = False
    played_games: int = 0
    bye_ok: bool = True
    float1: int = NONE
    float2: int = NONE
    abs_imbalance: bool = False  # colour difference beyond +-1
    abs_pref: bool = False  # absolute colour preference (A.6 a)
    not_bye_candidate: int = 0  # 1 when the player cannot take the bye at the bye score
    tid: int = 0  # type number (players of one type have the same edge weights)


def tenths(x: float) -> int:
    """Points as an integer number of tenths (bbpPairings v6 keeps scores in tenths too)."""
    h = round(x * 10)
    if abs(h - x * 10) > 1e-6:
        raise PairingError(f"score {x} is not a multiple of 0.1")
    return h


def colour_data(p: DutchPlayer) -> None:
    """C.04.3 A.6: colour difference, absolute / strong / mild preference."""
    white = black = 0
    consecutive = 0
    last: str | None = None
    for c in p.colours:
        if c == "w":
            white += 1
        else:
            black += 1
        consecutive = consecutive + 1 if (consecutive and c == last) else 1
        last = c
    p.played_games = len(p.colours)
    lower = "b" if white > black else "w"
    p.imbalance = abs(white - black)
    if p.imbalance > 1:
        p.pref = lower
    elif consecutive > 1:
        p.pref = other_colour(last)
    elif p.imbalance > 0:
        p.pref = lower
    elif consecutive:
        p.pref = other_colour(last)
    else:
        p.pref = None
    p.repeated = last if consecutive > 1 else None
    p.abs_imbalance = p.imbalance > 1
    p.abs_pref = p.imbalance > 1 or p.repeated is not None
    p.strong = (not p.abs_pref) and p.imbalance > 0


def build_players(players: list[PairingPlayer], round_no: int, ps: PointSystem
                  ) -> tuple[list[DutchPlayer], dict[int, PairingPlayer]]:
    """The players available for round ``round_no`` with their data (sorted by accelerated
    score, then rank), and every player by pairing id; :class:`PairingError` on an inconsistent
    history."""
    by_id: dict[int, PairingPlayer] = {}
    for pl in players:
        if pl.id in by_id:
            raise PairingError(f"pairing id {pl.id} appears twice")
        if pl.id < 1:
            raise PairingError(f"pairing id {pl.id} must be positive")
        by_id[pl.id] = pl
    r = round_no - 1
    for pl in players:
        if len(pl.history) > r:
            raise PairingError(
                f"player {pl.id} has {len(pl.history)} rounds of history but round {round_no} is to be paired")
        for i, rec in enumerate(pl.history, 1):
            if rec.opponent is not None and rec.opponent not in by_id:
                raise PairingError(f"player {pl.id}, round {i}: unknown opponent {rec.opponent}")
            if rec.opponent == pl.id:
                raise PairingError(f"player {pl.id}, round {i}: paired against himself")
            if rec.code not in ("1", "0", "=", "+", "-", "W", "D", "L", "H", "F", "U", "Z", ""):
                raise PairingError(f"player {pl.id}, round {i}: unknown result code {rec.code!r}")

    def hist(pl: PairingPlayer) -> tuple[RoundRecord, ...]:
        h = pl.history
        if len(h) < r:
            h = h + (RoundRecord(None, None, ""),) * (r - len(h))
        return h

    hists = {pid: hist(pl) for pid, pl in by_id.items()}

    def participated(pl: PairingPlayer) -> bool:
        return any(rec.opponent is not None or rec.code in ("U", "+") for rec in pl.history)

    valid = sorted(pid for pid, pl in by_id.items() if pl.available or participated(pl))
    rank = {pid: i for i, pid in enumerate(valid)}

    def acc(pid: int, index: int) -> int:
        """Virtual points (tenths) of player ``pid`` in round ``index + 1``."""
        a = by_id[pid].accelerations
        return tenths(a[index]) if index < len(a) else 0

    def score_back(pid: int, k: int) -> int:
        """Accelerated score (tenths) before round r+1-k (bbpPairings ``scoreWithAcceleration``):
        the points less those of the last ``k`` rounds, plus the virtual points of that round."""
        h = hists[pid]
        score = tenths(by_id[pid].points)
        if k:
            score -= sum(tenths(ps.points(rec)) for rec in h[r - k:])
        return score + acc(pid, r - k)

    loss = tenths(ps.loss)
    win = tenths(ps.win)

    def flt(pid: int, k: int) -> int:
        rec = hists[pid][r - k]
        if not rec.played:
            return DOWN if tenths(ps.points(rec)) > loss else NONE
        a, b = score_back(pid, k), score_back(rec.opponent, k)  # type: ignore[arg-type]
        return DOWN if a > b else UP if a < b else NONE

    out: list[DutchPlayer] = []
    for pl in players:
        if not pl.available:
            continue
        p = DutchPlayer(pid=pl.id, rank=rank[pl.id], score=score_back(pl.id, 0))
        for rec in hists[pl.id]:
            if rec.played:
                p.opponents.add(rec.opponent)  # type: ignore[arg-type]
                p.colours.append(rec.colour)  # type: ignore[arg-type]
            elif tenths(ps.points(rec)) >= win or (rec.opponent is None and rec.code in ("U", "+")):
                # C.04.1 f / C.04.3 C.2: a player who already received a pairing-allocated
                # bye, or scored the points of a win without playing (forfeit win, full-point
                # bye), gets no pairing-allocated bye (bbpPairings v6 ``eligibleForBye``).
                p.bye_ok = False
        colour_data(p)
        if r >= 1:
            p.float1 = flt(pl.id, 1)
        if r >= 2:
            p.float2 = flt(pl.id, 2)
        out.append(p)
    # Played games are mutual: make the "already met" relation symmetric.
    idset = {p.pid: p for p in out}
    for p in out:
        for o in list(p.opponents):
            if o in idset:
                idset[o].opponents.add(p.pid)
    out.sort(key=lambda p: (-p.score, p.rank))
    return out, by_id
