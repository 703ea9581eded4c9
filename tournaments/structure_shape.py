"""A blind structure's shape: per level the average stack in big blinds and the players left.

Plain data like tournaments.structures: the editor's shape page and chart read it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.structures import LevelSpec

# The field plays down to one player when the chips in play are worth this many big blinds
# (heads-up with 10 big blinds each: the blinds force the end within a few orbits).
END_BIG_BLINDS = 20


@dataclass(frozen=True, kw_only=True, slots=True)
class ShapeRow:
    """One level of the shape: when it starts, the average stack in big blinds, players left."""

    number: int
    level: LevelSpec
    starts_after_minutes: int
    average_big_blinds: float | None  # None on a break
    players_left: int

    @property
    def starts_at(self) -> str:
        """The time since the start as h:mm."""
        return f"{self.starts_after_minutes // 60}:{self.starts_after_minutes % 60:02d}"


@dataclass(frozen=True, kw_only=True, slots=True)
class Shape:
    rows: tuple[ShapeRow, ...]
    players: int
    starting_stack: int
    end_level: int | None  # the level number in which the model ends the event
    hours: float  # the expected length; the whole structure if it ends first
    ends_within_structure: bool


def structure_shape(levels: Sequence[LevelSpec], *, players: int, starting_stack: int) -> Shape:
    """The average stack in big blinds level by level, and the expected length in hours.

    The average stack is the chips per entrant in big blinds, ``S / BB`` (what a player who has
    neither won nor lost holds); it never rises because the big blind never goes down.

    Bust-out model: players bust as the blinds rise so that the players left hold on average at
    least ``K = END_BIG_BLINDS`` big blinds, so ``players_left = clamp(N·S / (K·BB), 1, N)``.
    The event ends when one player is left, i.e. in the first playing level whose big blind is at
    least the total chips over K, ``BB ≥ N·S / K``; it is counted as ending half way through that
    level. Breaks count at their full length. If no level is that high, the length is the whole
    structure and `ends_within_structure` is False (the last level would run on).
    """
    total_chips = players * starting_stack
    rows = []
    elapsed = 0
    end_level: int | None = None
    hours: float | None = None
    players_left = players
    for number, level in enumerate(levels, start=1):
        average: float | None = None
        if not level.is_break and level.big_blind > 0:
            average = starting_stack / level.big_blind
            players_left = max(
                1, min(players, math.ceil(total_chips / (END_BIG_BLINDS * level.big_blind)))
            )
            if end_level is None and level.big_blind * END_BIG_BLINDS >= total_chips:
                end_level = number
                hours = (elapsed + level.minutes / 2) / 60
        rows.append(
            ShapeRow(
                number=number,
                level=level,
                starts_after_minutes=elapsed,
                average_big_blinds=average,
                players_left=players_left,
            )
        )
        elapsed += level.minutes
    return Shape(
        rows=tuple(rows),
        players=players,
        starting_stack=starting_stack,
        end_level=end_level,
        hours=hours if hours is not None else elapsed / 60,
        ends_within_structure=end_level is not None,
    )
