"""Payout tables and prize amounts: pure functions over plain data, no ORM, amounts in cents.

A payout table is a list of rows "for N to M entries, pay these places with these
percentages". Percentages are kept in basis points (hundredths of a percent: 50 % = 5,000) so
a row sums to exactly 10,000 and no float ever decides a cent.
"""

from __future__ import annotations

import enum
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.utils import formats
from django.utils.translation import gettext as _

WHOLE = 10_000  # 100 % in basis points


class RemainderRule(enum.StrEnum):
    """Where the cents that rounding to the unit leaves over go (docs/money.md, "Rounding")."""

    WINNER = "winner"  # all of it to 1st place
    TOP_DOWN = "top_down"  # one unit each from 1st place down, what is left below a unit to 1st


@dataclass(frozen=True, kw_only=True)
class PayoutRow:
    """One row of a table: fields from ``min_entries`` to ``max_entries`` (None: and more)."""

    min_entries: int
    max_entries: int | None
    percentages: tuple[int, ...]  # basis points, 1st place first

    @property
    def places(self) -> int:
        return len(self.percentages)

    def covers(self, entries: int) -> bool:
        return self.min_entries <= entries and (
            self.max_entries is None or entries <= self.max_entries
        )

    @property
    def range_text(self) -> str:
        if self.max_entries is None:
            return _("%(min)s or more entries") % {"min": self.min_entries}
        if self.max_entries == self.min_entries:
            return _("%(min)s entries") % {"min": self.min_entries}
        return _("%(min)s–%(max)s entries") % {"min": self.min_entries, "max": self.max_entries}


def percent_number(basis_points: int) -> str:
    """1250 -> "12.5" / "12,5": the number of a percentage in the page's language."""
    value = Decimal(basis_points).scaleb(-2)
    value = value.quantize(Decimal(1)) if value == value.to_integral() else value.normalize()
    return formats.number_format(value, use_l10n=True)


def percent_text(basis_points: int) -> str:
    """5000 -> "50%" / "50 %", 1250 -> "12.5%" / "12,5 %": in the page's language."""
    return _("%(percent)s%%") % {"percent": percent_number(basis_points)}


_NUMBER = re.compile(r"^\d{1,3}(?:[.,]\d{1,2})?$")


def parse_percentages(text: str) -> tuple[int, ...]:
    """ "50 30 20", "50; 30; 20" or "27,5 / 22.5" -> basis points; ValueError says what is wrong.

    Places are separated by spaces, semicolons or slashes; a comma or a point is the decimal
    mark (so "50,30,20" is refused rather than guessed).
    """
    tokens = [token for token in re.split(r"[\s;/]+", text.strip()) if token]
    if not tokens:
        raise ValueError(_("Give at least one percentage."))
    values = []
    for token in tokens:
        if not _NUMBER.match(token):
            raise ValueError(
                _(
                    "“%(token)s” is not a percentage; separate the places with spaces or "
                    "semicolons and use at most two decimals."
                )
                % {"token": token}
            )
        whole, _sep, part = token.replace(",", ".").partition(".")
        values.append(int(whole) * 100 + int((part + "00")[:2]))
    return tuple(values)


def row_problems(row: PayoutRow) -> list[str]:
    """What is wrong with one row on its own (messages without the row's name)."""
    problems = []
    if row.min_entries < 2:
        problems.append(_("a payout needs a field of at least 2 entries."))
    if row.max_entries is not None and row.max_entries < row.min_entries:
        problems.append(_("the largest field is smaller than the smallest."))
    if not row.percentages:
        problems.append(_("it pays no place."))
    elif any(p <= 0 for p in row.percentages):
        problems.append(_("every paid place gets more than nothing."))
    elif sum(row.percentages) != WHOLE:
        problems.append(
            _("the percentages add up to %(sum)s instead of %(whole)s.")
            % {"sum": percent_text(sum(row.percentages)), "whole": percent_text(WHOLE)}
        )
    if any(a < b for a, b in zip(row.percentages, row.percentages[1:], strict=False)):
        problems.append(_("a place pays more than the place above it."))
    if row.places > row.min_entries:
        problems.append(
            _("it pays %(places)s places, but its smallest field has %(min)s entries.")
            % {"places": row.places, "min": row.min_entries}
        )
    return problems


def table_problems(rows: Sequence[PayoutRow]) -> list[str]:
    """Every problem of a table, each naming its row ("Row 2 (11–20 entries): ...")."""
    problems = []
    ordered = sorted(rows, key=lambda r: r.min_entries)
    for number, row in enumerate(ordered, start=1):
        for problem in row_problems(row):
            problems.append(_row_message(number, row, problem))
    for number, (row, after) in enumerate(zip(ordered, ordered[1:], strict=False), start=2):
        if row.max_entries is None or row.max_entries >= after.min_entries:
            problems.append(
                _row_message(number, after, _("its fields overlap those of the row above."))
            )
    return problems


def table_gaps(rows: Sequence[PayoutRow]) -> list[tuple[int, int | None]]:
    """Field sizes from 2 up that no row covers, as (from, to) ranges (to None: and more)."""
    gaps: list[tuple[int, int | None]] = []
    expected = 2
    for row in sorted(rows, key=lambda r: r.min_entries):
        if row.min_entries > expected:
            gaps.append((expected, row.min_entries - 1))
        if row.max_entries is None:
            return gaps
        expected = max(expected, row.max_entries + 1)
    gaps.append((expected, None))
    return gaps


def _row_message(number: int, row: PayoutRow, problem: str) -> str:
    return _("Row %(number)s (%(range)s): %(problem)s") % {
        "number": number,
        "range": row.range_text,
        "problem": problem,
    }


def row_for_field(rows: Sequence[PayoutRow], entries: int) -> PayoutRow | None:
    """The row that pays a field of this size, or None when no row covers it."""
    return next((row for row in rows if row.covers(entries)), None)


def round_to_unit(
    *, pool: int, weights: Sequence[int], unit: int, rule: RemainderRule = RemainderRule.WINNER
) -> list[int]:
    """Split ``pool`` cents by ``weights`` (best place first), each share a multiple of ``unit``.

    Every share is first rounded down to the unit; the cents left over go by ``rule``: all to
    the first share (WINNER), or one unit to each share from the first down, round and round,
    and the part below one unit to the first (TOP_DOWN). Either way the shares add up to the
    pool exactly, and non-increasing weights give non-increasing shares.
    """
    if pool < 0 or unit < 1:
        raise ValueError("the pool cannot be negative and the unit is at least one cent")
    if not weights or any(w < 0 for w in weights) or sum(weights) <= 0:
        raise ValueError("the weights must be non-negative and not all zero")
    total = sum(weights)
    shares = [(pool * w // total) // unit * unit for w in weights]
    left = pool - sum(shares)
    if rule is RemainderRule.TOP_DOWN:
        index = 0
        while left >= unit:
            shares[index % len(shares)] += unit
            left -= unit
            index += 1
    shares[0] += left
    return shares


def payout_amounts(
    *, pool: int, row: PayoutRow, unit: int, rule: RemainderRule = RemainderRule.WINNER
) -> list[int]:
    """The prize of each paid place, in cents, summing exactly to the pool."""
    return round_to_unit(pool=pool, weights=row.percentages, unit=unit, rule=rule)


# --- presets ------------------------------------------------------------------------------------


def _points(*percent: float) -> tuple[int, ...]:
    return tuple(round(p * 100) for p in percent)


CLUB_TABLE = (
    PayoutRow(min_entries=2, max_entries=3, percentages=_points(100)),
    PayoutRow(min_entries=4, max_entries=6, percentages=_points(65, 35)),
    PayoutRow(min_entries=7, max_entries=10, percentages=_points(50, 30, 20)),
    PayoutRow(min_entries=11, max_entries=20, percentages=_points(45, 27, 17, 11)),
    PayoutRow(min_entries=21, max_entries=30, percentages=_points(40, 25, 16, 11, 8)),
    PayoutRow(min_entries=31, max_entries=40, percentages=_points(36, 23, 15, 11, 8, 7)),
    PayoutRow(min_entries=41, max_entries=50, percentages=_points(33, 21, 14, 10, 8, 7, 7)),
    PayoutRow(min_entries=51, max_entries=None, percentages=_points(30, 20, 13, 10, 8, 7, 6, 6)),
)

WINNER_TAKES_ALL = (PayoutRow(min_entries=2, max_entries=None, percentages=(WHOLE,)),)


def top_share_percentages(places: int) -> tuple[int, ...]:
    """A falling split over ``places`` (weight 1/place^0.9), in basis points summing to 100 %.

    2 places: 65.1/34.9; 3: 52.4/28.1/19.5. Each share is rounded down to a basis point and
    the points left over go one each from 1st place down, so the split stays non-increasing.
    """
    weights = [1 / (place**0.9) for place in range(1, places + 1)]
    total = sum(weights)
    shares = [math.floor(WHOLE * w / total) for w in weights]
    for index in range(WHOLE - sum(shares)):
        shares[index] += 1
    return tuple(shares)


def top_fifth_table(*, largest_row_from: int = 96) -> tuple[PayoutRow, ...]:
    """Pay the top 20 % of the field (rounded up): 2–5 entries pay 1, 6–10 pay 2, … ;
    the last row (96 and more) pays 20 places."""
    rows = []
    for places in range(1, largest_row_from // 5 + 2):
        low, high = max(2, 5 * places - 4), 5 * places
        last = low >= largest_row_from
        rows.append(
            PayoutRow(
                min_entries=low,
                max_entries=None if last else high,
                percentages=top_share_percentages(places),
            )
        )
        if last:
            break
    return tuple(rows)
