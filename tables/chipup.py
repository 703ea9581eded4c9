"""The chip-up race of R5.11 (TDA 24): pure, given the players in dealing order and a deck."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tables.engine import DECK_SIZE, Card
from tables.seating import Rng, dealt_deck


@dataclass(frozen=True)
class RacePlayer:
    """A player at the table, in dealing order: his small chips and whether he has others."""

    key: int
    small_chips: int
    has_other_chips: bool = True


@dataclass(frozen=True)
class RaceLine:
    """One player's outcome: whole sets exchanged, the cards he was dealt, the chip he got.

    ``card`` is his highest card, the one that decides where he stands in the race.
    """

    key: int
    small_chips: int
    exchanged: int  # new chips for whole sets
    leftover: int  # small chips that race, one card each
    card: Card | None
    race_chip: bool  # won a new chip by his card
    saved: bool  # R5.11 / TDA 24: left with no chips, he gets one
    cards: tuple[Card, ...] = ()

    @property
    def new_chips(self) -> int:
        """New chips he receives: the exchanged sets plus at most one from the race."""
        return self.exchanged + (1 if self.race_chip or self.saved else 0)


@dataclass(frozen=True)
class RaceResult:
    """A table's race: the lines in dealing order and the pool's arithmetic (in chip value)."""

    lines: tuple[RaceLine, ...]
    pool: int  # value of all leftover small chips
    race_chips: int  # new chips the pool makes after rounding
    lost: int  # value lost: a remainder under half a new chip
    rounded_up: int = 0  # value added: a remainder of half a new chip or more becomes one
    created: int = 0  # chips added so that nobody is raced out (pool too small for them)
    exchanged: int = 0  # new chips handed out for whole sets


def _check(*, players: Sequence[RacePlayer], chip_value: int, new_chip_value: int) -> None:
    if chip_value <= 0 or new_chip_value <= chip_value or new_chip_value % chip_value:
        raise ValueError("the new chip must be a whole multiple of the chip raced off")
    if len({p.key for p in players}) != len(players):
        raise ValueError("a player is listed twice")
    if any(p.small_chips < 0 for p in players):
        raise ValueError("a chip count cannot be negative")


def race(
    *,
    players: Sequence[RacePlayer],
    chip_value: int,
    new_chip_value: int,
    deck: Sequence[Card] | None = None,
    rng: Rng | None = None,
) -> RaceResult:
    """R5.11: the chip-up race at one table; ``players`` in dealing order, left of the button.

    Whole sets are exchanged first. Each leftover small chip earns one card; a player gets all
    his cards before the deal moves on to the next player (house rules), so more chips, more
    cards. The pooled leftovers make new chips: a remainder of half a new chip or more rounds
    up, less is lost. A player who has no chips once the small ones are taken in gets one of the
    new chips first (house rules; TDA 24: nobody is raced out), made extra if the pool has too
    few. The rest go by card, highest first (rank, then suit: R1.6), at most one per player.
    Deterministic given ``deck``; otherwise a CSPRNG shuffle (``rng`` only for tests).
    """
    _check(players=players, chip_value=chip_value, new_chip_value=new_chip_value)
    per_set = new_chip_value // chip_value
    leftovers = {p.key: p.small_chips % per_set for p in players}
    needed = sum(leftovers.values())
    if needed > DECK_SIZE:
        raise ValueError(f"{needed} leftover chips need more cards than one deck holds")
    cards = dealt_deck(rng=rng, deck=deck)
    if needed > len(cards):
        raise ValueError("the deck has fewer cards than there are leftover chips")
    dealt: dict[int, tuple[Card, ...]] = {}
    for p in players:  # R5.11: one card per leftover chip, one player at a time
        dealt[p.key], cards = tuple(cards[: leftovers[p.key]]), cards[leftovers[p.key] :]
    pool = needed * chip_value
    race_chips, remainder = divmod(pool, new_chip_value)
    rounds_up = remainder > 0 and 2 * remainder >= new_chip_value  # R5.11: half or more
    race_chips += rounds_up
    saved = [
        p.key
        for p in players
        if leftovers[p.key] and not p.has_other_chips and p.small_chips < per_set
    ]  # R5.11 / TDA 24: he would have nothing left
    created = max(0, len(saved) - race_chips)
    winners: set[int] = set()
    free = race_chips - (len(saved) - created)
    for _card, key in sorted(
        ((c, k) for k, hand in dealt.items() if k not in saved for c in hand), reverse=True
    ):  # R5.11: card order, suit counts (R1.6); at most one chip each
        if len(winners) == free:
            break
        winners.add(key)
    lines = tuple(
        RaceLine(
            key=p.key,
            small_chips=p.small_chips,
            exchanged=p.small_chips // per_set,
            leftover=leftovers[p.key],
            card=max(dealt[p.key], default=None),
            race_chip=p.key in winners,
            saved=p.key in saved,
            cards=dealt[p.key],
        )
        for p in players
    )
    return RaceResult(
        lines=lines,
        pool=pool,
        race_chips=race_chips,
        lost=0 if rounds_up else remainder,
        rounded_up=new_chip_value - remainder if rounds_up else 0,
        created=created,
        exchanged=sum(line.exchanged for line in lines),
    )
