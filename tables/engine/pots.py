"""Main and side pots from contribution levels (R3.9), and splitting a pot (R4.1, R4.2)."""

from __future__ import annotations

from collections.abc import Sequence

from tables.engine.records import maker, record


@record
class Pot:
    """A pot and the players who can win it (R3.9); the first pot is the main pot."""

    amount: int
    eligible: frozenset[int]


_make_pot = maker(Pot)


def build_pots(contributed: Sequence[int], live: Sequence[bool], *, dead: int = 0) -> list[Pot]:
    """R3.9: split the chips put in into a main pot and side pots by contribution level.

    ``contributed`` is what each player put in (antes and blinds too), ``live`` who still holds
    a hand (not folded; all-in and all-in-protected players are live). Each live player's total
    is a level; a pot takes from every player up to its level, and only live players who reached
    the level may win it. A folded player's chips are dead money in the pots they reach.
    """
    levels = sorted(
        {put_in for put_in, alive in zip(contributed, live, strict=True) if alive and put_in}
    )
    if len(levels) == 1 and max(contributed) == levels[0]:
        # The usual showdown: every live player put in the same, nobody more; one pot.
        top = levels[0]
        reached = [i for i, put_in in enumerate(contributed) if put_in == top and live[i]]
        return [_make_pot(amount=sum(contributed) + dead, eligible=frozenset(reached))]
    pots: list[Pot] = []
    floor = 0
    for level in levels:
        amount = sum([(c if c < level else level) - floor for c in contributed if c > floor])
        reached = [i for i, put_in in enumerate(contributed) if put_in >= level and live[i]]
        pots.append(_make_pot(amount=amount, eligible=frozenset(reached)))
        floor = level
    above = sum(put_in - floor for put_in in contributed if put_in > floor)
    if above and pots:
        # Chips of folded players above every live level; cannot remain after uncalled bets
        # are returned, but the chips must go somewhere rather than vanish.
        pots[-1] = _make_pot(amount=pots[-1].amount + above, eligible=pots[-1].eligible)
    if dead:
        if pots:
            pots[0] = _make_pot(amount=pots[0].amount + dead, eligible=pots[0].eligible)
        else:
            everyone = frozenset(i for i, alive in enumerate(live) if alive)
            pots.append(_make_pot(amount=dead, eligible=everyone))
    return pots


def split_pot(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """R4.1, R4.2: equal shares; the odd chips go one each to the winners in the order given.

    The caller orders ``winners`` by the table's odd-chip rule.
    """
    share, odd = divmod(amount, len(winners))
    return [(seat, share + (1 if k < odd else 0)) for k, seat in enumerate(winners)]
