"""Geometry of the server-rendered rating-history chart (``templates/ratings/_history_chart.html``).

The chart is plain SVG drawn by the template, so it works without JavaScript and scales to a phone
(``viewBox`` and ``width="100%"``). The x axis is time: each rated event sits at its date (two events a
year apart are twice as far apart as two events six months apart); the rating before the first event
(when there was one) sits a little before it, at the left edge. Date labels ("Ara 2026" / "Dec 2026")
stand under the points, never closer to each other than :data:`LABEL_GAP`. The y axis has round ticks
(25, 50, 100 or 200 rating points apart).
"""
from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import Sequence

WIDTH = 480
HEIGHT = 220
_LEFT, _RIGHT, _TOP, _BOTTOM = 50, 30, 14, 36
#: Least horizontal distance between two date labels (viewBox units; a label is about 65 wide, the
#: last one ends at its point, the others are centred on theirs).
LABEL_GAP = 100
#: Where the first event sits when the rating before it is drawn too (fraction of the plot width).
_START_GAP = 0.08


@dataclass(frozen=True, slots=True)
class ChartPoint:
    x: float
    y: float
    rating: float
    label: str  # the event's name, or "start"
    date: dt.date | None
    show_date: bool
    anchor: str = "middle"  # text-anchor of the date label ("end" for the last point)


@dataclass(frozen=True, slots=True)
class ChartTick:
    y: float
    value: int


@dataclass(frozen=True, slots=True)
class HistoryChart:
    """What the template draws: ``points`` (polyline in ``polyline``), y-axis ``ticks``, plot box."""

    width: int
    height: int
    left: int
    right: float
    top: int
    bottom: float
    points: tuple[ChartPoint, ...]
    ticks: tuple[ChartTick, ...]
    polyline: str
    label_y: float


def _tick_step(span: float) -> int:
    for step in (25, 50, 100, 200, 500):
        if span / step <= 6:
            return step
    return 1000


def history_chart(history: Sequence, *, start_label: str = "start") -> HistoryChart | None:
    """The chart of a player's history (:func:`ratings.selectors.player_history` items: ``rating_before``,
    ``rating_after``, ``status_before``, ``status_after``, ``period``, ``tournament``).

    The first point is the rating before the first event (left out when the player was unrated then);
    events after which the player is still unrated are left out. None when nothing is left to draw.
    """
    if not history:
        return None
    values: list[tuple[float, str, dt.date | None]] = []
    if history[0].status_before != "unrated":
        values.append((history[0].rating_before, start_label, None))
    values += [(h.rating_after, h.tournament.name, h.period) for h in history if h.status_after != "unrated"]
    if not values:
        return None
    lo, hi = min(v[0] for v in values), max(v[0] for v in values)
    step = _tick_step(max(hi - lo, 1.0))
    y0 = math.floor(lo / step) * step
    y1 = math.ceil(hi / step) * step
    if y1 - y0 < step:
        y1 = y0 + step
    right, bottom = WIDTH - _RIGHT, HEIGHT - _BOTTOM
    plot_h = bottom - _TOP

    def y_of(r: float) -> float:
        return round(bottom - (r - y0) / (y1 - y0) * plot_h, 1)

    xs = _x_positions([date for _r, _label, date in values], _LEFT, right)
    n = len(values)
    shown = _labelled(xs, [date for _r, _label, date in values])
    points = []
    for i, ((r, label, date), x) in enumerate(zip(values, xs)):
        # a label never runs off the plot: the last one ends at its point, one at the left edge starts there
        anchor = "end" if i == n - 1 and n > 1 else ("start" if x - _LEFT < 30 and n > 1 else "middle")
        points.append(ChartPoint(x, y_of(r), r, label, date, i in shown, anchor))
    ticks = tuple(ChartTick(y_of(v), v) for v in range(int(y0), int(y1) + 1, step))
    return HistoryChart(
        WIDTH, HEIGHT, _LEFT, right, _TOP, bottom, tuple(points), ticks,
        " ".join(f"{p.x},{p.y}" for p in points), bottom + 24,
    )


def _x_positions(dates: Sequence[dt.date | None], left: float, right: float) -> list[float]:
    """x of each point: the dated points on a time scale from the first date (``left``, or a little
    right of it when an undated start point comes first) to the last (``right``); evenly spaced when every
    date is the same (or missing); a single point in the middle."""
    n = len(dates)
    if n == 1:
        return [round((left + right) / 2, 1)]
    dated = [d for d in dates if d is not None]
    first, last = (min(dated), max(dated)) if dated else (None, None)
    if first is None or first == last or any(d is None for d in dates[1:]):
        return [round(left + (right - left) * i / (n - 1), 1) for i in range(n)]
    start = left
    if dates[0] is None:  # the rating before the first event: at the left edge, the events after a gap
        start = left + (right - left) * _START_GAP
    span = (last - first).days
    out = []
    for d in dates:
        if d is None:
            out.append(round(left, 1))
        else:
            out.append(round(start + (right - start) * (d - first).days / span, 1))
    return out


def _labelled(xs: Sequence[float], dates: Sequence[dt.date | None]) -> set[int]:
    """Indexes of the points whose date is written under them: the last one always, then from the right
    every point at least :data:`LABEL_GAP` left of the previous label."""
    shown: set[int] = set()
    last_x = None
    for i in range(len(xs) - 1, -1, -1):
        if dates[i] is None:
            continue
        if last_x is None or last_x - xs[i] >= LABEL_GAP:
            shown.add(i)
            last_x = xs[i]
    return shown
