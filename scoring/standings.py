"""Season standings from final places: pure functions over plain records, no ORM (R6)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

# A points formula: (place, entrants) -> points; scoring/points.py keeps the registry.
Formula = Callable[[int, int], int]


@dataclass(frozen=True)
class Result:
    """One entry of one event: who, the place (None while still in play) and the field size."""

    event_id: int
    player_id: int
    player_name: str
    place: int | None
    entrants: int


@dataclass(frozen=True)
class ScoredResult:
    """A placed result with the points the formula gives it."""

    event_id: int
    player_id: int
    place: int
    entrants: int
    points: int


@dataclass(frozen=True)
class Standing:
    """One player's line in the season table."""

    rank: int
    player_id: int
    player_name: str
    points: int
    events: int
    wins: int
    best_place: int


def check_result(result: Result) -> None:
    """Raise ValueError unless the place lies within the field (1..entrants)."""
    if result.entrants < 1:
        raise ValueError(f"event {result.event_id} has no entrants")
    if result.place is not None and not 1 <= result.place <= result.entrants:
        raise ValueError(
            f"place {result.place} is outside 1..{result.entrants} in event {result.event_id}"
        )


def score_results(results: Iterable[Result], *, formula: Formula) -> list[ScoredResult]:
    """The placed results with their points; entries not yet placed score nothing yet."""
    scored: list[ScoredResult] = []
    for result in results:
        check_result(result)
        if result.place is None:
            continue
        scored.append(
            ScoredResult(
                event_id=result.event_id,
                player_id=result.player_id,
                place=result.place,
                entrants=result.entrants,
                points=formula(result.place, result.entrants),
            )
        )
    return scored


def season_standings(results: Iterable[Result], *, formula: Formula) -> list[Standing]:
    """The season table: points summed per player, best first.

    Equal points share a rank (1, 2, 2, 4); among them more wins, then the better best
    place, then the name decide only the order of the lines.
    """
    results = list(results)
    names = {result.player_id: result.player_name for result in results}
    totals: dict[int, list[int]] = {}  # player -> [points, events, wins, best place]
    for scored in score_results(results, formula=formula):
        line = totals.setdefault(scored.player_id, [0, 0, 0, scored.place])
        line[0] += scored.points
        line[1] += 1
        line[2] += scored.place == 1
        line[3] = min(line[3], scored.place)
    order = sorted(
        totals.items(),
        key=lambda item: (-item[1][0], -item[1][2], item[1][3], names[item[0]].casefold(), item[0]),
    )
    standings: list[Standing] = []
    for position, (player_id, (points, events, wins, best)) in enumerate(order, start=1):
        tied = standings and standings[-1].points == points
        standings.append(
            Standing(
                rank=standings[-1].rank if tied else position,
                player_id=player_id,
                player_name=names[player_id],
                points=points,
                events=events,
                wins=wins,
                best_place=best,
            )
        )
    return standings
