"""Build :class:`PlayerRecord` lists from a compact crosstable notation (test helper).

One string per player, one token per round, separated by spaces:

* ``+W9`` / ``=B13`` / ``-W2`` — win / draw / loss over the board, with white / black, against 9;
* ``+F9`` / ``-F11`` — forfeit win / forfeit loss against the given player; ``0F4`` double forfeit;
* ``+BYE`` pairing-allocated bye (1 point), ``=PAB`` a PAB worth ½, ``+FPB`` full-point bye,
  ``=BYE`` half-point bye, ``-BYE`` zero-point bye, ``--`` absent (no entry at all);
* an optional Mangala suffix ``@<set points>:<stone margin>``, e.g. ``+W2@2:+13``.
"""
from __future__ import annotations

from collections.abc import Mapping

from tournaments.standings import PlayerRecord, RoundEntry, RoundKind

_SIGN = {"+": 1.0, "=": 0.5, "-": 0.0, "0": 0.0}
_BYES = {
    "+BYE": RoundKind.PAIRING_BYE,
    "=PAB": RoundKind.PAIRING_BYE,
    "+FPB": RoundKind.FULL_BYE,
    "=BYE": RoundKind.HALF_BYE,
    "-BYE": RoundKind.ZERO_BYE,
}


def parse_token(token: str, rnd: int) -> RoundEntry | None:
    set_points = stone_margin = None
    if "@" in token:
        token, detail = token.split("@")
        sp, sm = detail.split(":")
        set_points, stone_margin = float(sp), int(sm)
    if token == "--":
        return None
    if token in _BYES:
        return RoundEntry(rnd, _BYES[token], _SIGN[token[0]])
    pts = _SIGN[token[0]]
    code, opp = token[1], int(token[2:])
    if code == "F":
        kind = RoundKind.FORFEIT_WIN if pts == 1.0 else RoundKind.FORFEIT_LOSS
        return RoundEntry(rnd, kind, pts, opponent=opp)
    colour = {"W": "w", "B": "b"}[code]
    return RoundEntry(rnd, RoundKind.PLAYED, pts, opponent=opp, colour=colour,
                      set_points=set_points, stone_margin=stone_margin)


def crosstable(rows: Mapping[int, str], ratings: Mapping[int, int] | None = None) -> list[PlayerRecord]:
    """Player records from ``{player id: "token token ..."}`` (see the module docstring)."""
    players = []
    for pid, line in rows.items():
        entries = []
        for rnd, token in enumerate(line.split(), start=1):
            entry = parse_token(token, rnd)
            if entry is not None:
                entries.append(entry)
        rating = (ratings or {}).get(pid, 1500)
        players.append(PlayerRecord(id=pid, name=f"Player {pid}", rating=rating, rounds=tuple(entries)))
    return players
