"""What a parsed TRF file implies: the points of a result code, the rounds played, the system a ``092``
text declares, and the values the points column gives to blank result codes.

Pure Python, no Django imports.
"""
from __future__ import annotations

import math
import re
import unicodedata

from .model import (
    _DRAW_CODES,
    _LOSS_CODES,
    _WIN_CODES,
    Inference,
    TrfError,
    TrfMessage,
    TrfResult,
    TrfTournament,
    _fmt_points,
    _m,
    gettext_noop,
)

__all__ = ["code_points", "computed_points", "declared_type", "infer_blank_codes", "played_rounds"]


def code_points(code: str, *, pab_points: float = 1.0) -> float | None:
    """Points a result code is worth (TRF-16 codes, standard 1-½-0 scoring).

    ``"1" "+" "W" "F"`` -> 1.0; ``"=" "D" "H"`` -> 0.5; ``"0" "-" "L" "Z"`` -> 0.0;
    ``"U"`` (pairing-allocated bye) -> ``pab_points``; ``""`` (blank) -> ``None`` (unknown).
    Raises :class:`TrfError` for anything else.
    """
    if code in _WIN_CODES:
        return 1.0
    if code in _DRAW_CODES:
        return 0.5
    if code in _LOSS_CODES:
        return 0.0
    if code == "U":
        return float(pab_points)
    if code == "":
        return None
    raise TrfError(_m(gettext_noop("%(code)r is not a TRF result code"), code=code))


def played_rounds(t: TrfTournament) -> int:
    """Number of rounds that have been played (or at least paired), 0 if none.

    The last round with a game in it: some cell names an opponent.  Cells without an opponent —
    byes of any kind (``U H F Z``, ``0000 - +``), absences, blank cells of withdrawn players — do
    not make a round played: byes written ahead for the round about to be paired (a
    pairing-allocated bye ``0000 - U`` included) belong to that round, so a file made to pair
    round N gives N-1 (issue 10: the round to pair is the first round with games to make).
    A file whose only "round" holds byes and no game gives 0.
    """
    last = 0
    for p in t.players:
        for r in p.results:
            if r.round > last and r.opponent is not None:
                last = r.round
    return last


def declared_type(text: str) -> tuple[str | None, bool, bool]:
    """``(system, double round robin, team event)`` that a ``092`` text declares: ``system`` is
    ``"swiss"``, ``"round_robin"`` or ``None`` when the text says neither (or is blank).

    Round robin: "Round robin", "Individual: Round-Robin", "Berger", "all-play-all", "RR", Turkish
    "devreli" ("double"/"DRR"/"çift" make it a double round robin); Swiss: "Swiss", "Individual:
    Swiss-System", "Dutch", "İsviçre"; a team event: "Team", "Takım".
    """
    low = unicodedata.normalize("NFC", (text or "").casefold()).replace("\u0307", "").replace("ı", "i")
    if re.search(r"\bteam|takim", low):
        return None, False, True
    if re.search(r"round[\s_-]*robin|berger|all[\s_-]*play[\s_-]*all|\b[d2]?rr\b|devreli", low):
        return "round_robin", bool(re.search(r"double|\b[d2]rr\b|çift|cift|two cycles", low)), False
    if re.search(r"swiss|isviçre|isvicre|dutch|dubov|burstein", low):
        return "swiss", False, False
    return None, False, False


def _is_step(x: float) -> bool:
    return any(math.isclose(x, v, abs_tol=1e-9) for v in (0.0, 0.5, 1.0))


def infer_blank_codes(t: TrfTournament, *, pab_points: float = 1.0) -> list[Inference]:
    """Values the published points column implies for blank-coded cells.

    For each player with cells whose result code is blank (``0000 -`` byes without a code,
    ``      -`` cells, blank cells of late entrants, paired games without a result):
    ``remaining = points - sum(code_points(known codes))``.

    * *Trailing absences* are blank-coded cells after the player's last cell with a known code
      whose opponent field is blank (withdrawn players).  The others are *interior* cells.
    * ``remaining`` is split equally over the interior cells, trailing absences counting 0.0;
      if that split is not 0, ½ or 1 each, it is split equally over all blank cells instead.
      (When the points already add up, every blank cell gets 0.0.)
    * If no equal split gives 0, ½ or 1 per cell, or the points column is blank, a
      :class:`TrfError` naming the player's line is raised.

    Returns the inferences in file order (player line, then round).  ``pab_points`` is what a
    ``U`` code is worth.
    """
    out: list[Inference] = []
    for p in sorted(t.players, key=lambda q: q.line):
        blanks = [r for r in p.results if r.code == ""]
        if not blanks:
            continue
        if p.points is None:
            raise TrfError(_m(gettext_noop("player %(player)s has blank result codes but a blank points column, "
                                           "so they cannot be inferred"), player=p.start_no),
                           line=p.line or None, column=81)
        known = sum(code_points(r.code, pab_points=pab_points) or 0.0 for r in p.results if r.code)
        remaining = p.points - known
        last_known = max((r.round for r in p.results if r.code), default=0)
        trailing = [r for r in blanks if r.round > last_known and r.opponent is None
                    and (r.raw[:4].strip() == "" if r.raw else True)]
        trailing_rounds = {r.round for r in trailing}
        interior = [r for r in blanks if r.round not in trailing_rounds]
        values: dict[int, tuple[float, str]] = {}
        if abs(remaining) < 1e-9:
            for r in blanks:
                why = (_m(gettext_noop("absent (withdrawn)")) if r.round in trailing_rounds
                       else _m(gettext_noop("points column already adds up")))
                values[r.round] = (0.0, why)
        else:
            done = False
            if interior:
                v = remaining / len(interior)
                if _is_step(v):
                    for r in interior:
                        values[r.round] = (round(v * 2) / 2, _why(r, remaining, len(interior)))
                    for r in trailing:
                        values[r.round] = (0.0, _m(gettext_noop("absent (withdrawn); points column already adds up")))
                    done = True
            if not done:
                v = remaining / len(blanks)
                if _is_step(v):
                    for r in blanks:
                        values[r.round] = (round(v * 2) / 2, _why(r, remaining, len(blanks)))
                    done = True
            if not done:
                rounds = ", ".join(str(r.round) for r in blanks)
                raise TrfError(_m(
                    gettext_noop("player %(player)s: points column %(points)s minus the known results "
                                 "%(known)s leaves %(remaining)s for the blank result codes of round(s) "
                                 "%(rounds)s, which is not 0, 1/2 or 1 point each"),
                    player=p.start_no, points=_fmt_points(p.points), known=_fmt_points(known),
                    remaining=f"{remaining:g}", rounds=rounds),
                    line=p.line or None, column=81)
        for r in blanks:
            v, why = values[r.round]
            out.append(Inference(p.start_no, r.round, v, p.line, why))
    return out


def computed_points(t: TrfTournament, inferences: list[Inference] | None = None, *,
                    pab_points: float = 1.0) -> dict[int, float]:
    """Points of each player (by starting number) from the round cells: the known codes
    (:func:`code_points`) plus the values of ``inferences`` (e.g. from :func:`infer_blank_codes`)
    for blank codes; blank codes without an inference count 0.  Compare with
    :attr:`TrfPlayer.points` to find lines whose points column disagrees with their results.
    """
    totals = {p.start_no: sum(code_points(r.code, pab_points=pab_points) or 0.0 for r in p.results)
              for p in t.players}
    for inf in inferences or ():
        if inf.start_no in totals:
            totals[inf.start_no] += inf.value
    return totals


def _why(r: TrfResult, remaining: float, n: int) -> TrfMessage:
    if r.opponent is not None:
        template = gettext_noop("game without a result; points column leaves %(remaining)s for %(n)s blank cell(s)")
    else:
        template = gettext_noop("bye without a code; points column leaves %(remaining)s for %(n)s blank cell(s)")
    return _m(template, remaining=f"{remaining:g}", n=n)
