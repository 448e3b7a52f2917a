"""Geometry of the server-rendered rating-history chart (``templates/ratings/_history_chart.html``).

The chart is plain SVG drawn by the template, so it works without JavaScript and scales to a phone
(``viewBox`` and ``width="100%"``). Points are evenly spaced, one per rated event (plus the rating
before the first event); the y axis has round ticks (25, 50, 100 or 200 rating points apart).
"""
from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from typing import Sequence

WIDTH = 480
HEIGHT = 220
_LEFT, _RIGHT, _TOP, _BOTTOM = 50, 30, 14, 36


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
    plot_w, plot_h = right - _LEFT, bottom - _TOP

    def y_of(r: float) -> float:
        return round(bottom - (r - y0) / (y1 - y0) * plot_h, 1)

    n = len(values)
    every = max(1, math.ceil((n - 1) / 4))  # about four date labels at most (phone width)
    points = []
    for i, (r, label, date) in enumerate(values):
        x = round(_LEFT + (plot_w * i / (n - 1) if n > 1 else plot_w / 2), 1)
        # every ``every``-th point and the last one, never two labels closer than ``every`` points
        show = date is not None and ((i % every == 0 and n - 1 - i >= every) or i == n - 1)
        points.append(ChartPoint(x, y_of(r), r, label, date, show, "end" if i == n - 1 and n > 2 else "middle"))
    ticks = tuple(ChartTick(y_of(v), v) for v in range(int(y0), int(y1) + 1, step))
    return HistoryChart(
        WIDTH, HEIGHT, _LEFT, right, _TOP, bottom, tuple(points), ticks,
        " ".join(f"{p.x},{p.y}" for p in points), bottom + 24,
    )
