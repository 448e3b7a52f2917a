"""Colour allocation of the FIDE Dutch system (C.04.3 E.1-E.5): the colour of a player against
the opponent found, from the colour preferences of :mod:`.dutch_players`."""
from __future__ import annotations

from .dutch_players import DutchPlayer, other_colour

__all__ = ["choose_colour", "prefs_compatible"]


def prefs_compatible(a: str | None, b: str | None) -> bool:
    """True unless both players prefer the same colour."""
    return a != b or a is None or b is None


def first_colour_difference(a: DutchPlayer, b: DutchPlayer) -> tuple[str | None, str | None]:
    """Colours of a and b in the latest round (counting back over each one's played games)
    in which they differed (C.04.3 E.3)."""
    i, j = len(a.colours) - 1, len(b.colours) - 1
    while i >= 0 and j >= 0 and a.colours[i] == b.colours[j]:
        i -= 1
        j -= 1
    return (a.colours[i] if i >= 0 else None, b.colours[j] if j >= 0 else None)


def neutral_colour(p: DutchPlayer, o: DutchPlayer) -> str | None:
    """Colour for ``p`` against ``o`` by C.04.3 E.1-E.4, ``None`` if undecided there."""
    if prefs_compatible(p.pref, o.pref):
        if p.pref is not None:
            return p.pref
        if o.pref is not None:
            return other_colour(o.pref)
        return None
    if p.abs_pref and (p.imbalance > o.imbalance or not o.abs_pref):
        return p.pref
    if o.abs_pref and (o.imbalance > p.imbalance or not p.abs_pref):
        return other_colour(o.pref)
    if p.strong and not o.strong:
        return p.pref
    if o.strong and not p.strong:
        return other_colour(o.pref)
    pc, oc = first_colour_difference(p, o)
    if pc is not None and oc is not None:
        return oc
    return None


def ranks_higher(a: DutchPlayer, b: DutchPlayer) -> bool:
    """True if ``a`` is placed before ``b`` (higher score, then smaller pairing number; A.2)."""
    return (a.score, -a.rank) > (b.score, -b.rank)


def choose_colour(p: DutchPlayer, o: DutchPlayer, first: str) -> str:
    """Colour of ``p`` against ``o`` (C.04.3 E.1-E.5)."""
    c = neutral_colour(p, o)
    if c is not None:
        return c
    if p.pref is None:
        # E.5: the higher ranked player gets the colour determined by its rank parity.
        if ranks_higher(o, p):
            return first if o.rank & 1 else other_colour(first)  # type: ignore[return-value]
        return other_colour(first) if p.rank & 1 else first  # type: ignore[return-value]
    # E.4: the higher ranked player gets his preference.
    if ranks_higher(o, p):
        return other_colour(o.pref)  # type: ignore[return-value]
    return p.pref
