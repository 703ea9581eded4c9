"""Season points formulas and their registry (R6.1-R6.3): pure functions of place and field."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


def check_place(*, place: int, entrants: int) -> None:
    """Raise ValueError unless 1 <= place <= entrants."""
    if not 1 <= place <= entrants:
        raise ValueError(f"place {place} is not within a field of {entrants}")


def linear(*, place: int, entrants: int) -> int:
    """R6.1: the winner gets N points, second N-1, ... last 1."""
    check_place(place=place, entrants=entrants)
    return entrants - place + 1


def linear_x10(*, place: int, entrants: int) -> int:
    """R6.2: the same points times ten (first of four gets 40)."""
    return 10 * linear(place=place, entrants=entrants)


def square_root(*, place: int, entrants: int) -> int:
    """R6.3, a third formula: 10 * sqrt(N / place), rounded; rewards big fields and top places."""
    check_place(place=place, entrants=entrants)
    return round(10 * math.sqrt(entrants / place))


@dataclass(frozen=True)
class PointsFormula:
    """A named formula of the registry."""

    key: str
    label: str | Promise
    points: Callable[..., int]


FORMULAS: dict[str, PointsFormula] = {
    f.key: f
    for f in (
        PointsFormula("linear", _("One point per place (N for the winner)"), linear),
        PointsFormula("linear_x10", _("Ten points per place (×10)"), linear_x10),
        PointsFormula("square_root", _("Square root of field per place (×10)"), square_root),
    )
}
DEFAULT_FORMULA = "linear"  # R6.1
