"""The season at a glance: a server-drawn SVG of each leader's points after each event.

Drawn as the structure chart is (tournaments.structure_chart): geometry here, plain SVG in the
template, no script and nothing from a CDN.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.season_selectors import formula_for, season_results
from scoring.standings import score_results
from tournaments.models import Event, EventStatus, Season

WIDTH, HEIGHT = 720, 300
LEFT, RIGHT, TOP, BOTTOM = 48, 140, 16, 36
LINES = 8  # the leaders drawn; more lines are a tangle nobody reads across a room


@dataclass(frozen=True, kw_only=True, slots=True)
class Tick:
    label: str
    x: float
    y: float
    title: str = ""


@dataclass(frozen=True, kw_only=True, slots=True)
class Line:
    name: str
    colour: int  # a class of the stylesheet: .series-0 … .series-7
    points: str  # the polyline
    end_x: float
    end_y: float
    label_y: float  # the name's height, moved apart from its neighbours' (equal totals)
    total: int


@dataclass(frozen=True, kw_only=True, slots=True)
class SeasonChart:
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    lines: tuple[Line, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]


def _step(top: int) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1_000, 2_000, 5_000):
        if top / step <= 5:
            return step
    return max(1, top // 5)


def _spread(ys: list[float], gap: float = 16.0) -> list[float]:
    """Label heights at least ``gap`` apart, in the order of the lines' ends."""
    order = sorted(range(len(ys)), key=lambda i: (ys[i], i))
    placed: dict[int, float] = {}
    last = -gap
    for i in order:
        placed[i] = max(ys[i], last + gap)
        last = placed[i]
    return [round(placed[i], 1) for i in range(len(ys))]


def draw_season(
    *,
    events: list[tuple[int, str]],
    points: dict[int, dict[int, int]],
    leaders: list[tuple[int, str]],
) -> SeasonChart | None:
    """Running totals per leader (player id, name) over the events (id, name) in order."""
    if not events or not leaders:
        return None
    totals = {
        player: [
            sum(points.get(player, {}).get(e, 0) for e, _name in events[: i + 1])
            for i in range(len(events))
        ]
        for player, _name in leaders
    }
    top = max(1, *(max(series) for series in totals.values()))
    step = _step(top)
    top = -(-top // step) * step
    span_x, span_y = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_at(index: int) -> float:
        return round(
            LEFT + span_x * (index / max(1, len(events) - 1) if len(events) > 1 else 0.5), 1
        )

    def y_at(value: int) -> float:
        return round(TOP + span_y * (1 - value / top), 1)

    labels = _spread([y_at(totals[player][-1]) for player, _name in leaders])
    lines = []
    for colour, (player, name) in enumerate(leaders):
        series = totals[player]
        xy = [(x_at(i), y_at(v)) for i, v in enumerate(series)]
        lines.append(
            Line(
                name=name,
                colour=colour % LINES,
                points=" ".join(f"{x},{y}" for x, y in xy),
                end_x=xy[-1][0],
                end_y=xy[-1][1],
                label_y=labels[colour],
                total=series[-1],
            )  # fmt: skip
        )
    return SeasonChart(
        width=WIDTH, height=HEIGHT, left=LEFT, right=WIDTH - RIGHT, top=TOP, bottom=HEIGHT - BOTTOM,
        lines=tuple(lines),
        x_ticks=tuple(
            Tick(label=str(i + 1), x=x_at(i), y=HEIGHT - BOTTOM, title=name)
            for i, (_e, name) in enumerate(events)
        ),
        y_ticks=tuple(Tick(label=str(v), x=LEFT, y=y_at(v)) for v in range(0, top + 1, step)),
    )  # fmt: skip


def season_chart(season: Season, *, formula: str | None = None) -> SeasonChart | None:
    """The season's leaders (its standings' top lines) and their points after each event."""
    results = season_results(season)
    scored = score_results(results, formula=formula_for(formula or season.formula))
    points: dict[int, dict[int, int]] = {}
    for line in scored:
        points.setdefault(line.player_id, {})[line.event_id] = line.points
    names = {r.player_id: r.player_name for r in results}
    ranked = sorted(points, key=lambda p: (-sum(points[p].values()), names[p].casefold()))
    played = {line.event_id for line in scored}
    events = [
        (e.pk, e.name)
        for e in Event.objects.filter(season=season, status=EventStatus.FINISHED).order_by(
            "scheduled_start", "pk"
        )
        if e.pk in played
    ]
    return draw_season(
        events=events, points=points, leaders=[(p, names[p]) for p in ranked[:LINES]]
    )
