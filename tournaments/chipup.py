"""The chip-up race of R5.11 (TDA 24): pure, given the players in dealing order and a deck."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from tables.engine.cards import Card, check_deck, new_deck


@dataclass(frozen=True)
class RacePlayer:
    """A player at the table, in dealing order: his small chips and whether he has others."""

    key: int
    small_chips: int
    has_other_chips: bool = True


@dataclass(frozen=True)
class RaceLine:
    """One player's outcome: chips exchanged in whole sets, the card, whether he won a chip."""

    key: int
    small_chips: int
    exchanged: int
    leftover: int
    card: Card | None
    race_chip: bool
    saved: bool  # R5.11: left with no chips, he gets one


@dataclass(frozen=True)
class RaceResult:
    """A table's race: the lines in dealing order and the pool's arithmetic."""

    lines: tuple[RaceLine, ...]
    pool: int
    race_chips: int
    lost: int


def race(
    *,
    players: Sequence[RacePlayer],
    chip_value: int,
    new_chip_value: int,
    deck: Sequence[Card] | None = None,
) -> RaceResult:
    """R5.11: whole sets are exchanged; each leftover earns one card, dealt one player at a
    time from the left of the button; the pooled leftovers make new chips (half or more of a
    chip rounds up, less is lost); they go by card (suit counts), at most one per player; a
    player left with no chips gets one.
    """
    if chip_value <= 0 or new_chip_value <= chip_value or new_chip_value % chip_value:
        raise ValueError("the new chip must be a whole multiple of the chip raced off")
    if len({p.key for p in players}) != len(players):
        raise ValueError("a player is listed twice")
    if any(p.small_chips < 0 for p in players):
        raise ValueError("a chip count cannot be negative")
    per_set = new_chip_value // chip_value
    cards = list(deck) if deck is not None else _shuffled()
    if deck is not None:
        check_deck(cards)
    racers = [p for p in players if p.small_chips % per_set]
    if len(racers) > len(cards):
        raise ValueError("more racers than cards")
    dealt = {p.key: cards[i] for i, p in enumerate(racers)}  # one card each, in dealing order
    pool = sum(p.small_chips % per_set for p in players) * chip_value
    race_chips, remainder = divmod(pool, new_chip_value)
    race_chips += 2 * remainder >= new_chip_value  # R5.11: half a chip or more rounds up
    lost = 0 if 2 * remainder >= new_chip_value else remainder
    by_card = sorted(racers, key=lambda p: dealt[p.key], reverse=True)  # rank, then suit (R1.6)
    winners = {p.key for p in by_card[:race_chips]}  # at most one chip each
    lines = []
    for p in players:
        exchanged, leftover = divmod(p.small_chips, per_set)
        won = p.key in winners
        left_with_nothing = p.small_chips > 0 and not (p.has_other_chips or exchanged or won)
        lines.append(
            RaceLine(
                key=p.key,
                small_chips=p.small_chips,
                exchanged=exchanged,
                leftover=leftover,
                card=dealt.get(p.key),
                race_chip=won,
                saved=left_with_nothing,
            )
        )
    return RaceResult(lines=tuple(lines), pool=pool, race_chips=race_chips, lost=lost)


def _shuffled() -> list[Card]:
    deck = new_deck()
    secrets.SystemRandom().shuffle(deck)  # R1.1: the operating system's CSPRNG
    return deck
