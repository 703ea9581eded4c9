"""The showdown: who shows first, hand values, and who gets the odd chip (R4.1, R4.2)."""

from __future__ import annotations

from collections.abc import Sequence

from tables.engine.cards import Card
from tables.engine.evaluator import evaluate_omaha, evaluate_unchecked
from tables.engine.pots import Pot, split_pot
from tables.engine.rules import OddChip

# A hand whose cards are unknown (a replayed history where it was mucked) loses to any shown
# hand; when no contender showed, the unknown hands tie.
UNKNOWN_HAND = -1


def hand_value(hole: Sequence[Card] | None, board: Sequence[Card], *, omaha: bool) -> int:
    """The evaluator's value of a player's best hand (R1.3; R7.1 for Omaha)."""
    if hole is None:
        return UNKNOWN_HAND
    if omaha:
        return evaluate_omaha(hole=hole, board=board)
    # The cards were checked when the hand started; skip the evaluator's own check.
    return evaluate_unchecked([*hole, *board])


def clockwise_from(start: int, seats: Sequence[int], n: int) -> list[int]:
    """The seats in clockwise order beginning at ``start`` (or the first after it)."""
    return sorted(seats, key=lambda seat: (seat - start) % n)


def odd_chip_order(
    winners: Sequence[int],
    *,
    rule: OddChip,
    button: int,
    n: int,
    hole: Sequence[Sequence[Card] | None],
) -> list[int]:
    """R4.2: the winners in the order the odd chips go to them, one chip each."""
    if rule is OddChip.HIGHEST_CARD:
        # R4.2 house rule, R1.6: the highest single card by rank, then suit; card ints compare
        # exactly so (rank * 4 + suit). Ties (unknown cards) fall back to left of the button.
        def highest(seat: int) -> tuple[int, int]:
            cards = hole[seat]
            return (-(max(cards) if cards else -1), (seat - button - 1) % n)

        return sorted(winners, key=highest)
    # R4.2 default: the first winner clockwise from the button's left.
    return clockwise_from((button + 1) % n, winners, n)


def showing_order(*, folded: Sequence[bool], last_aggressor: int | None, button: int) -> list[int]:
    """The live players in showing order: the last aggressor of the last betting round first,
    else the first live player left of the button; then clockwise."""
    n = len(folded)
    start = last_aggressor
    if start is None or folded[start]:
        start = button + 1
    return [seat for k in range(n) if not folded[seat := (start + k) % n]]


def award_pots(
    *,
    pots: Sequence[Pot],
    values: Sequence[int],
    odd_chip: OddChip,
    button: int,
    hole: Sequence[Sequence[Card] | None],
) -> list[tuple[int, list[tuple[int, int]]]]:
    """R4.1: each pot to the best hand eligible for it, equal hands splitting it (R1.5); R4.2:
    odd chips by the table's rule. Gives each pot's amount and its (seat, chips) shares."""
    n = len(values)
    awards = []
    value_of = values.__getitem__
    for pot in pots:
        best = max(map(value_of, pot.eligible))
        winners = [seat for seat in pot.eligible if values[seat] == best]
        if len(winners) > 1:
            winners = odd_chip_order(winners, rule=odd_chip, button=button, n=n, hole=hole)
        awards.append((pot.amount, split_pot(pot.amount, winners)))
    return awards
