"""Server-rendered SVG of a Mangala board (the replay page draws every position with it).

Layout (RULES.md "Board and notation"): the player at the bottom sows counter-clockwise — along the
bottom row left to right (their pits 1..6), into their store on the right, then along the top row
right to left (the opponent's pits 1..6 from the opponent's own left), into the opponent's store on
the left. So the bottom row shows cells 0..5 and the right store cell 6 for the first mover (player 0);
``flip=True`` puts the second mover (cells 7..12, store 13) at the bottom instead.

Every cell is a ``<g class="cell pit|store" data-index="i" data-player="p" data-pit="k">`` holding a
``<text class="count">`` with its stone count (``data-pit`` is 1..6, or 0 for a store), so tests and
scripts can read the drawn board back. Pits with up to 12 stones also show them as small dots.
The SVG has no fixed size: ``width="100%"`` and a ``viewBox``, so it fills a phone screen.

The SVG carries no ``<style>`` of its own: the site's Content-Security-Policy (``style-src 'self'``) forbids
inline styles, so its colours and fonts are rules under ``.mangala-board`` in ``static/css/site.css``.
"""
from __future__ import annotations

from xml.sax.saxutils import escape

from django.utils.translation import gettext as _

from games.engine import Move, Position

__all__ = ["board_svg"]

# geometry in viewBox units
_M = 10  # outer margin
_LABEL = 32  # height of the pit-number label strip above and below the rows
_STORE_W = 84
_PIT = 100  # pit width and height
_GAP = 8  # between pits
_ROW_GAP = 16  # between the two rows
_SIDE_GAP = 14  # between a store and the rows
_ROWS_W = 6 * _PIT + 5 * _GAP
_W = 2 * _M + 2 * _STORE_W + 2 * _SIDE_GAP + _ROWS_W
_TOP_Y = _M + _LABEL
_BOTTOM_Y = _TOP_Y + _PIT + _ROW_GAP
_H = _BOTTOM_Y + _PIT + _LABEL + _M
_ROWS_X = _M + _STORE_W + _SIDE_GAP
_MAX_DOTS = 12


def _dots(cx: float, cy: float, n: int) -> list[str]:
    """Up to 12 small dots in two rows of six under the count (none for more stones)."""
    if not 0 < n <= _MAX_DOTS:
        return []
    out = []
    per_row = 6
    rows = [min(per_row, n - r * per_row) for r in range((n + per_row - 1) // per_row)]
    step = 13
    for r, count in enumerate(rows):
        y = cy + 27 + r * step
        x0 = cx - (count - 1) * step / 2
        for i in range(count):
            out.append(f'<circle class="dot" cx="{x0 + i * step:.1f}" cy="{y:.1f}" r="5"/>')
    return out


def _castle_icon(x: float, y: float) -> str:
    """A small crenellated tower (kale variant castle, 004) with its top-left corner at (x, y)."""
    return (
        f'<path class="castle" d="M{x} {y}h5v5h5v-5h5v5h5v-5h5v24h-25z"><title>{escape(_("castle"))}</title></path>'
    )


def board_svg(
    position: Position,
    *,
    last_move: Move | None = None,
    flip: bool = False,
    last_index: int | None = None,
    names: tuple[str, str] | None = None,
) -> str:
    """The board of ``position`` as an SVG document fragment (a ``<svg>`` element, UTF-8 text).

    - 14 cells: two rows of six pits and the two stores, each with its stone count (a number) and,
      in pits holding 1..12 stones, that many dots.
    - The player to move (``position.to_move``) has their row framed; nothing is framed once the set
      is over.
    - ``last_move``: the :class:`games.engine.Move` just played — its pit is highlighted (Kural 10:
      the pit it was sown from). ``last_index``: optional cell where the last stone fell (Kural 12),
      outlined.
    - ``flip``: ``False`` draws the first mover (player 0) at the bottom, ``True`` the second mover.
    - ``names``: optional (first mover, second mover) names for the accessible title.
    - Castles of the kale variant (004) are marked with a small tower.
    """
    b = position.board
    bottom = 1 if flip else 0
    top = 1 - bottom
    who = names or (_("first player"), _("second player"))
    to_move = position.to_move
    parts: list[str] = []
    # the accessible name, in the page's language (the titles are read out by screen readers)
    title = " ".join((
        _("Mangala board."),
        _("%(name)s (bottom): pits 1-6 %(pits)s, store %(store)s.") % {
            "name": who[bottom], "pits": " ".join(str(b[7 * bottom + k]) for k in range(6)),
            "store": b[7 * bottom + 6]},
        _("%(name)s (top): pits 1-6 %(pits)s, store %(store)s.") % {
            "name": who[top], "pits": " ".join(str(b[7 * top + k]) for k in range(6)), "store": b[7 * top + 6]},
        _("Set over.") if to_move is None else _("%(name)s to move.") % {"name": who[to_move]},
    ))
    parts.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" class="mangala-board" width="100%" '
        f'viewBox="0 0 {_W} {_H}" role="img" aria-labelledby="board-title" '
        f'data-to-move="{"" if to_move is None else to_move}" data-flip="{int(flip)}">'
    )
    parts.append(f'<title id="board-title">{escape(title)}</title>')
    parts.append(
        f'<rect class="board" x="{_M / 2}" y="{_M / 2}" width="{_W - _M}" height="{_H - _M}" rx="28"/>'
    )
    last_cell = last_move.index if last_move is not None else None
    castle_cells = {c for c in position.castles if c != -1}

    def pit_x(player: int, k: int) -> float:
        """Left x of pit k (0-based) of ``player``'s row."""
        slot = k if player == bottom else 5 - k
        return _ROWS_X + slot * (_PIT + _GAP)

    for player in (top, bottom):
        y = _BOTTOM_Y if player == bottom else _TOP_Y
        band = "band to-move" if player == to_move else "band"
        parts.append(
            f'<rect class="{band}" data-player="{player}" x="{_ROWS_X - 6}" y="{y - 6}" '
            f'width="{_ROWS_W + 12}" height="{_PIT + 12}" rx="18"/>'
        )
        label_y = y + _PIT + _LABEL / 2 + 2 if player == bottom else y - _LABEL / 2 - 2
        label_cls = "label to-move" if player == to_move else "label"
        for k in range(6):
            cx = pit_x(player, k) + _PIT / 2
            parts.append(f'<text class="{label_cls}" x="{cx}" y="{label_y}">{k + 1}</text>')
        for k in range(6):
            i = 7 * player + k
            x = pit_x(player, k)
            classes = ["cell", "pit"]
            if i == last_cell:
                classes.append("last")
            if i == last_index:
                classes.append("last-stone")
            cx, cy = x + _PIT / 2, y + _PIT / 2
            parts.append(
                f'<g class="{" ".join(classes)}" data-index="{i}" data-player="{player}" data-pit="{k + 1}">'
            )
            parts.append(f'<rect class="hole" x="{x}" y="{y}" width="{_PIT}" height="{_PIT}" rx="40"/>')
            parts.extend(_dots(cx, cy, b[i]))
            parts.append(f'<text class="count" x="{cx}" y="{cy - (8 if 0 < b[i] <= _MAX_DOTS else 0)}">{b[i]}</text>')
            if i in castle_cells:
                parts.append(_castle_icon(x + 6, y + 4))
            parts.append("</g>")
    for player in (bottom, top):
        i = 7 * player + 6
        x = _W - _M - _STORE_W if player == bottom else _M
        y = _TOP_Y
        h = 2 * _PIT + _ROW_GAP
        classes = ["cell", "store"]
        if i == last_index:
            classes.append("last-stone")
        parts.append(f'<g class="{" ".join(classes)}" data-index="{i}" data-player="{player}" data-pit="0">')
        parts.append(f'<rect class="hole" x="{x}" y="{y}" width="{_STORE_W}" height="{h}" rx="44"/>')
        parts.append(f'<text class="count" x="{x + _STORE_W / 2}" y="{y + h / 2}">{b[i]}</text>')
        parts.append(f"<title>{escape(_('%(name)s: store %(n)s') % {'name': who[player], 'n': b[i]})}</title>")
        parts.append("</g>")
    parts.append("</svg>")
    return "".join(parts)
