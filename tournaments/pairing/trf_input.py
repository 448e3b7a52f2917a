"""Build :class:`~tournaments.pairing.base.PairingPlayer` lists from a parsed TRF-16 file.

Source: FIDE Handbook C.04 Annex 2 (TRF-16) with the ``XXR`` (total rounds) and ``XXC``
(``white1``/``black1``) extensions used by pairing engines; C.04.2 B (pre-assigned byes and
absences are not paired).
"""
from __future__ import annotations

from ..trf import TrfTournament, code_points, played_rounds
from .base import PairingError, PairingPlayer, RoundRecord

__all__ = ["first_colour_from_trf", "players_from_trf"]


def _cell_points(code: str) -> float:
    pts = code_points(code)
    return 0.0 if pts is None else pts


def players_from_trf(t: TrfTournament, round_no: int | None = None
                     ) -> tuple[list[PairingPlayer], int, int]:
    """Players of ``t`` as they stand before round ``round_no``.

    ``round_no`` defaults to the number of rounds with results (over all players: the last
    round in which any cell names an opponent or is a ``U``/``+``) plus one.  Cells of the
    round being paired that are pre-assigned absences (``H``, ``F``, ``Z``, ``-``, ...) make
    the player unavailable.  ``points`` is the score before the round (the published points
    minus whatever the file already records for rounds ``>= round_no``).

    Returns ``(players, round_no, total_rounds)``; ``total_rounds`` is ``XXR`` (or the TRF-2026
    tag ``142``).  Raises :class:`PairingError` when the number of rounds is unknown or the
    round cannot be paired (a cell of that round already names an opponent, or there are
    fewer rounds).
    """
    played = played_rounds(t)
    if round_no is None:
        round_no = played + 1
    if round_no < 1:
        raise PairingError(f"round {round_no} does not exist")
    total = t.total_rounds or _tag_142(t)
    if total is None:
        raise PairingError("the number of rounds is not given (no XXR line; give it with --rounds N)")
    if total < round_no:
        raise PairingError(f"round {round_no} is to be paired but XXR says {total} rounds")
    players: list[PairingPlayer] = []
    for tp in t.players:
        cells = {r.round: r for r in tp.results}
        history: list[RoundRecord] = []
        for rnd in range(1, round_no):
            c = cells.get(rnd)
            if c is None:
                history.append(RoundRecord(None, None, ""))
            else:
                history.append(RoundRecord(c.opponent, c.colour, c.code))
        later = [r for r in tp.results if r.round >= round_no]
        available = True
        for r in later:
            if r.round == round_no and not r.is_blank:
                if r.opponent is not None:
                    raise PairingError(
                        f"player {tp.start_no} is already paired in round {round_no}")
                available = False
        if tp.points is not None:
            points = tp.points - sum(_cell_points(r.code) for r in later)
        else:
            points = sum(_cell_points(r.code) for r in tp.results if r.round < round_no)
        players.append(PairingPlayer(id=tp.start_no, rating=tp.rating or 0, points=points,
                                     history=tuple(history), available=available))
    return players, round_no, total


def _tag_142(t: TrfTournament) -> int | None:
    """Number of rounds from a TRF-2026 ``142`` line kept among the uninterpreted lines."""
    for line in t.extra_lines:
        if line.startswith("142 ") and line[4:].strip().isdigit():
            return int(line[4:].strip())
    return None


def first_colour_from_trf(t: TrfTournament) -> str:
    """Colour of the top seed in round 1 (``"w"``/``"b"``).

    ``XXC white1``/``black1`` when given; otherwise inferred from the earliest round with a
    coloured game: the colour of the first player (by pairing id) who took part in the pairing
    by then, flipped when that player's position among such players is odd.  ``"w"`` when
    nothing is known (C.04.3 E.5: the initial colour is drawn by lot before round 1).
    """
    toks = {x.lower() for x in t.xxc}
    if "white1" in toks:
        return "w"
    if "black1" in toks:
        return "b"
    first = None
    for tp in t.players:
        for r in tp.results:
            if r.colour in ("w", "b") and (first is None or r.round < first):
                first = r.round
    if first is None:
        return "w"
    pos = 0
    for tp in sorted(t.players, key=lambda p: p.start_no):
        took_part = any(r.round <= first and (r.opponent is not None or r.code in ("U", "+"))
                        for r in tp.results)
        if not took_part:
            continue
        cell = next((r for r in tp.results if r.round == first), None)
        if cell is not None and cell.colour in ("w", "b"):
            c = cell.colour
            if pos & 1:
                c = "b" if c == "w" else "w"
            return c
        pos += 1
    return "w"
