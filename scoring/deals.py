"""Final-table deals: chip-chop and ICM (Malmuth-Harville); pure functions, amounts in cents.

Both split the prize money still to be paid among the players left and round each share to
the house's unit so that the shares add up to that money exactly (docs/money.md, "Deals").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

# ICM's float equities become integer weights at this resolution (a millionth of a cent), so
# the rounding below is exact integer arithmetic and no float decides a cent.
_WEIGHT_SCALE = 1_000_000


class DealError(ValueError):
    """A deal that cannot be computed; the message says why (in English: callers translate)."""


@dataclass(frozen=True, kw_only=True)
class DealSplit:
    """Both deals side by side for the same stacks; ``kept`` is played for on top of them."""

    stacks: tuple[int, ...]
    prizes: tuple[int, ...]  # the places still to pay, 1st first
    kept: int
    chip_chop: tuple[int, ...]
    icm: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.prizes)


def check_stacks(stacks: Sequence[int]) -> None:
    if len(stacks) < 2:
        raise DealError("a deal needs at least two players")
    if any(stack <= 0 for stack in stacks):
        raise DealError("every player in a deal has chips")


def apportion(*, total: int, weights: Sequence[int], stacks: Sequence[int], unit: int) -> list[int]:
    """Split ``total`` cents by integer ``weights`` into multiples of ``unit``, summing exactly.

    Each share is rounded down to the unit; the whole units left over go one each to the
    largest fractions cut off (a tie: more chips first, then the order given); the cents left
    below one unit go to the chip leader. More weight never gets less money.
    """
    if unit < 1 or total < 0:
        raise DealError("the unit is at least one cent and the total not negative")
    weight_sum = sum(weights)
    if weight_sum <= 0 or any(w < 0 for w in weights):
        raise DealError("the weights must be non-negative and not all zero")
    shares = [total * w // weight_sum // unit * unit for w in weights]
    cut = [total * w - share * weight_sum for w, share in zip(weights, shares, strict=True)]
    left = total - sum(shares)
    order = sorted(range(len(weights)), key=lambda i: (-cut[i], -stacks[i], i))
    for index in order[: left // unit]:
        shares[index] += unit
    leader = min(range(len(stacks)), key=lambda i: (-stacks[i], i))
    shares[leader] += left % unit
    return shares


def chip_chop(*, stacks: Sequence[int], total: int, unit: int) -> list[int]:
    """Each player's share of ``total`` in proportion to his chips."""
    check_stacks(stacks)
    return apportion(total=total, weights=stacks, stacks=stacks, unit=unit)


def _prizes_for(stacks: Sequence[int], prizes: Sequence[int]) -> tuple[int, ...]:
    if any(p < 0 for p in prizes):
        raise DealError("a prize cannot be negative")
    paid = tuple(prizes[: len(stacks)])
    return paid + (0,) * (len(stacks) - len(paid))


def icm_equity(stacks: Sequence[int], prizes: Sequence[int]) -> list[float]:
    """Malmuth-Harville: each player's expected prize, exact recursion memoised over subsets.

    A player finishes first with the probability of his share of the chips; given who
    finished first, the rest finish second the same way among themselves, and so on. The
    expected prize of every player depends only on which players are still to be placed, so
    each of the 2^n subsets is computed once: 10 players take a few milliseconds
    (bench/RESULTS.md, "ICM").
    """
    check_stacks(stacks)
    paid = _prizes_for(stacks, prizes)
    count = len(stacks)
    places = max((place + 1 for place, prize in enumerate(paid) if prize), default=0)

    @cache
    def equity(remaining: int) -> tuple[float, ...]:
        place = count - remaining.bit_count()
        result = [0.0] * count
        if place >= places:
            return tuple(result)
        members = [i for i in range(count) if remaining >> i & 1]
        chips = sum(stacks[i] for i in members)
        for first in members:
            chance = stacks[first] / chips
            result[first] += chance * paid[place]
            for i, value in enumerate(equity(remaining & ~(1 << first))):
                result[i] += chance * value
        return tuple(result)

    return list(equity((1 << count) - 1))


def icm_equity_naive(stacks: Sequence[int], prizes: Sequence[int]) -> list[float]:
    """The same recursion without the memo: one branch per finishing order (the bench's peer)."""
    check_stacks(stacks)
    paid = _prizes_for(stacks, prizes)
    result = [0.0] * len(stacks)

    def walk(remaining: tuple[int, ...], place: int, chance: float) -> None:
        if place >= len(paid) or not any(paid[place:]):
            return
        chips = sum(stacks[i] for i in remaining)
        for first in remaining:
            p = chance * stacks[first] / chips
            result[first] += p * paid[place]
            walk(tuple(i for i in remaining if i != first), place + 1, p)

    walk(tuple(range(len(stacks))), 0, 1.0)
    return result


def _icm_weights(stacks: Sequence[int], equities: Sequence[float]) -> list[int]:
    """Equities as integer weights: equal stacks get equal weights and more chips never less.

    Both hold in exact arithmetic; the clean-up only stops float noise from breaking them.
    """
    raw = [round(e * _WEIGHT_SCALE) for e in equities]
    by_stack: dict[int, list[int]] = {}
    for i, stack in enumerate(stacks):
        by_stack.setdefault(stack, []).append(raw[i])
    weights = [sum(by_stack[s]) // len(by_stack[s]) for s in stacks]
    ceiling = None
    for stack in sorted(by_stack, reverse=True):
        index = stacks.index(stack)
        ceiling = weights[index] if ceiling is None else min(ceiling, weights[index])
        for i, s in enumerate(stacks):
            if s == stack:
                weights[i] = ceiling
    return weights


def icm_chop(*, stacks: Sequence[int], prizes: Sequence[int], unit: int) -> list[int]:
    """Each player's ICM share of the prizes, rounded to the unit, summing to them exactly."""
    equities = icm_equity(stacks, prizes)
    total = sum(_prizes_for(stacks, prizes))
    return apportion(total=total, weights=_icm_weights(stacks, equities), stacks=stacks, unit=unit)


def split_deal(
    *, stacks: Sequence[int], prizes: Sequence[int], unit: int, kept: int = 0
) -> DealSplit:
    """Chip-chop and ICM for the same table.

    ``prizes`` are the places still to pay (1st first). ``kept`` is held back for the winner:
    it comes off 1st prize, the rest is split, and the players play on for it. It may be at
    most 1st minus 2nd prize, so the prizes stay in order and ICM keeps its meaning.
    """
    check_stacks(stacks)
    paid = _prizes_for(stacks, prizes)
    if sum(paid) <= 0:
        raise DealError("there is no prize money left to share")
    if kept < 0 or kept > paid[0] - paid[1]:
        raise DealError("the amount kept for the winner is at most 1st minus 2nd prize")
    shared = (paid[0] - kept, *paid[1:])
    return DealSplit(
        stacks=tuple(stacks),
        prizes=paid,
        kept=kept,
        chip_chop=tuple(chip_chop(stacks=stacks, total=sum(shared), unit=unit)),
        icm=tuple(icm_chop(stacks=stacks, prizes=shared, unit=unit)),
    )
