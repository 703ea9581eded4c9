"""The geometry of the structure chart: a server-drawn SVG of the average stack in big blinds."""

from __future__ import annotations

import math
from dataclasses import dataclass

from tournaments.structure_shape import Shape

WIDTH, HEIGHT = 720, 300
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 16, 40
TICKS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000)


@dataclass(frozen=True, kw_only=True, slots=True)
class Tick:
    label: str
    x: float
    y: float


@dataclass(frozen=True, kw_only=True, slots=True)
class Point:
    number: int
    x: float
    y: float
    average: float


@dataclass(frozen=True, kw_only=True, slots=True)
class Chart:
    width: int
    height: int
    left: int
    right: int  # x of the plot's right edge
    top: int
    bottom: int  # y of the plot's bottom edge
    plot_height: int
    points: tuple[Point, ...]
    polyline: str
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]  # hours
    end_x: float | None
    breaks: tuple[tuple[float, float], ...]  # x from, width


def structure_chart(shape: Shape) -> Chart:
    """Plot the average in big blinds (log scale) against the time since the start (hours)."""
    total = max(1, sum(row.level.minutes for row in shape.rows))
    averages = [row.average_big_blinds for row in shape.rows if row.average_big_blinds]
    high = max(averages, default=10.0)
    low = min(averages, default=1.0)
    top_value = min((t for t in TICKS if t >= high), default=high)
    bottom_value = max((t for t in TICKS if t <= low), default=low)
    if top_value <= bottom_value:
        top_value = bottom_value * 10
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    span = math.log10(top_value) - math.log10(bottom_value)

    def x_at(minutes: float) -> float:
        return round(LEFT + plot_w * minutes / total, 1)

    def y_at(value: float) -> float:
        return round(TOP + plot_h * (math.log10(top_value) - math.log10(value)) / span, 1)

    points = tuple(
        Point(
            number=row.number,
            x=x_at(row.starts_after_minutes + row.level.minutes / 2),
            y=y_at(row.average_big_blinds),
            average=row.average_big_blinds,
        )
        for row in shape.rows
        if row.average_big_blinds
    )
    y_ticks = tuple(
        Tick(label=f"{t:,}", x=LEFT, y=y_at(t)) for t in TICKS if bottom_value <= t <= top_value
    )
    hours = total / 60
    step = 0.5 if hours <= 4 else 1 if hours <= 10 else 2
    x_ticks = tuple(
        Tick(label=f"{h:g} h", x=x_at(h * 60), y=HEIGHT - BOTTOM)
        for h in (i * step for i in range(int(hours / step) + 1))
    )
    breaks = tuple(
        (x_at(row.starts_after_minutes), round(plot_w * row.level.minutes / total, 1))
        for row in shape.rows
        if row.level.is_break
    )
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=WIDTH - RIGHT,
        top=TOP,
        bottom=HEIGHT - BOTTOM,
        plot_height=HEIGHT - TOP - BOTTOM,
        points=points,
        polyline=" ".join(f"{p.x},{p.y}" for p in points),
        y_ticks=y_ticks,
        x_ticks=x_ticks,
        end_x=x_at(shape.hours * 60) if shape.ends_within_structure else None,
        breaks=breaks,
    )
