"""Satellite places (R5.5): how many qualify for the super final and the final's extra chips."""

from __future__ import annotations

QUALIFYING_PERCENT = 20  # R5.5: 20% of the entrants qualify
SATELLITE_BONUS_CHIPS = 3_000  # R5.5: every satellite won adds 3,000 chips to the final stack


def satellite_qualifiers(entrants: int) -> int:
    """R5.5: 20% of the entrants, rounded half up, at least one (10 -> 2, 12 -> 2, 13 -> 3)."""
    if entrants < 1:
        raise ValueError(f"a satellite needs entrants, not {entrants}")
    return max(1, (2 * entrants * QUALIFYING_PERCENT + 100) // 200)


def is_qualified(*, place: int, entrants: int) -> bool:
    """R5.5: whether a satellite place earns a seat in the super final."""
    return 1 <= place <= satellite_qualifiers(entrants)


def super_final_stack(*, event_stack: int, satellites_won: int) -> int:
    """R5.5: the final's starting stack plus 3,000 chips per satellite won."""
    if satellites_won < 0:
        raise ValueError("satellites won cannot be negative")
    return event_stack + SATELLITE_BONUS_CHIPS * satellites_won
