"""Final-table deals: chip-chop and ICM (Malmuth-Harville); pure functions, amounts in cents.

Both split the prize money still to be paid among the players left and round each share to
the house's unit so that the shares add up to that money exactly (docs/money.md, "Deals").
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from heapq import nsmallest
from math import comb, log, sqrt

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
    icm_trials: int = 0  # 0: ICM is exact; else estimated from this many simulated finishes
    icm_error: float = 0.0  # the estimate's 99.7 % bound on one player's equity, in cents

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


# Engineering limits (bench/RESULTS.md, "ICM"). The exact recursion takes one step for each set
# of players placed above the place being decided and each player left; a step of the last paid
# place costs about a third (nothing is carried on). Past this many steps (17 players with every
# place paid, or about 190 with 3 paid: some 0.6 s of CPU on the CI machine) ICM is estimated.
EXACT_ICM_STEPS = 1_200_000
# The estimate simulates whole finishing orders: this many random numbers in all, about as long.
ESTIMATE_DRAWS = 1_000_000
ESTIMATE_SEED = 16  # fixed: the same chips give the same deal, on the page and when saved
MAX_DEAL_PLAYERS = 1_000  # a deal among more players is refused: no estimate is worth its time


@dataclass(frozen=True, kw_only=True)
class IcmResult:
    """Each player's expected prize; ``error`` is 0.0 when exact, else 3 standard errors."""

    equity: tuple[float, ...]
    trials: int = 0  # simulated finishing orders; 0 when exact
    error: float = 0.0  # the largest 99.7 % error bound of one player's equity, in cents

    @property
    def exact(self) -> bool:
        return self.trials == 0


def icm_steps(players: int, places: int) -> int:
    """The exact recursion's cost in steps: for each set of players placed above, each one left
    (a step of the last paid place counted as a third)."""
    if places == 0:
        return 0
    carried = sum(comb(players, placed) * (players - placed) for placed in range(places - 1))
    last = comb(players, places - 1) * (players - places + 1)
    return carried + last // 3


def _places_paid(paid: Sequence[int]) -> int:
    return max((place + 1 for place, prize in enumerate(paid) if prize), default=0)


def _icm_exact(stacks: Sequence[int], paid: Sequence[int], places: int) -> list[float]:
    """Malmuth-Harville over the sets of players already placed, one place at a time.

    The chance that a given set took places 1..k (in any order) is the sum over its last
    member; the next place goes to each player left with his share of the chips left.
    """
    count = len(stacks)
    equity = [0.0] * count
    level: dict[int, float] = {0: 1.0}  # players placed (a bit mask) -> their chance
    chips_left: dict[int, int] = {0: sum(stacks)}
    for place in range(places):
        prize, last = paid[place], place + 1 == places
        following: dict[int, float] = {}
        for placed, chance in level.items():
            left = chips_left[placed]
            factor = chance / left
            for player in range(count):
                if placed >> player & 1:
                    continue
                taken = factor * stacks[player]
                equity[player] += taken * prize
                if not last:
                    after = placed | 1 << player
                    if after in following:
                        following[after] += taken
                    else:
                        following[after] = taken
                        chips_left[after] = left - stacks[player]
        level = following
    return equity


def _icm_estimate(stacks: Sequence[int], paid: Sequence[int], places: int) -> IcmResult:
    """Malmuth-Harville by simulation: exponential clocks at the rate of each player's chips
    finish in exactly its order of probabilities; seeded, so the same chips give the same deal."""
    rng = random.Random(ESTIMATE_SEED)  # noqa: S311 - a reproducible estimate, not a shuffle
    count = len(stacks)
    trials = max(1_000, ESTIMATE_DRAWS // count)
    rates = [1.0 / stack for stack in stacks]
    total = [0.0] * count
    squares = [0.0] * count
    draw, players = rng.random, range(count)
    for _ in range(trials):
        clocks = [-log(1.0 - draw()) * rate for rate in rates]
        for place, player in enumerate(nsmallest(places, players, key=clocks.__getitem__)):
            total[player] += paid[place]
            squares[player] += paid[place] * paid[place]
    equity = [t / trials for t in total]
    variances = [max(0.0, q / trials - e * e) for q, e in zip(squares, equity, strict=True)]
    error = 3 * sqrt(max(variances) / trials)  # 3 standard errors: 99.7 %
    return IcmResult(equity=tuple(equity), trials=trials, error=error)


def icm(stacks: Sequence[int], prizes: Sequence[int]) -> IcmResult:
    """Malmuth-Harville equities: exact while it is fast, else a seeded estimate with its error.

    Exact up to EXACT_ICM_STEPS (every place paid: 17 players; 3 places paid: 190); beyond,
    ESTIMATE_DRAWS simulated card draws; more than MAX_DEAL_PLAYERS players is refused.
    """
    check_stacks(stacks)
    if len(stacks) > MAX_DEAL_PLAYERS:
        raise DealError("a deal among more than 1,000 players is not computed")
    paid = _prizes_for(stacks, prizes)
    places = _places_paid(paid)
    if icm_steps(len(stacks), places) <= EXACT_ICM_STEPS:
        return IcmResult(equity=tuple(_icm_exact(stacks, paid, places)))
    return _icm_estimate(stacks, paid, places)


def icm_equity(stacks: Sequence[int], prizes: Sequence[int]) -> list[float]:
    """Each player's expected prize (Malmuth-Harville), exact or estimated (see ``icm``)."""
    return list(icm(stacks, prizes).equity)


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


def _icm_shares(
    *, stacks: Sequence[int], equity: Sequence[float], total: int, unit: int
) -> list[int]:
    return apportion(total=total, weights=_icm_weights(stacks, equity), stacks=stacks, unit=unit)


def icm_chop(*, stacks: Sequence[int], prizes: Sequence[int], unit: int) -> list[int]:
    """Each player's ICM share of the prizes, rounded to the unit, summing to them exactly."""
    equity = icm_equity(stacks, prizes)
    total = sum(_prizes_for(stacks, prizes))
    return _icm_shares(stacks=stacks, equity=equity, total=total, unit=unit)


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
    equities = icm(stacks, shared)
    return DealSplit(
        stacks=tuple(stacks),
        prizes=paid,
        kept=kept,
        chip_chop=tuple(chip_chop(stacks=stacks, total=sum(shared), unit=unit)),
        icm=tuple(_icm_shares(stacks=stacks, equity=equities.equity, total=sum(shared), unit=unit)),
        icm_trials=equities.trials,
        icm_error=equities.error,
    )
