"""Finishing places: same-hand busts (R5.6), quits (R5.9), agreed stops (R5.10), satellites."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tables.engine import Card
from tables.seating import Rng, dealt_deck
from tournaments.entry_services import SATELLITE_BONUS_CHIPS, super_final_stack

# R5.5: a final entry's stack is the entries' business (tournaments); re-exported here.
__all__ = ["SATELLITE_BONUS_CHIPS", "super_final_stack"]

QUALIFYING_PERCENT = 20  # R5.5: 20% of the entrants qualify


def satellite_qualifiers(entrants: int) -> int:
    """R5.5: 20% of the entrants, rounded half up, at least one (10 -> 2, 12 -> 2, 13 -> 3).

    Rounding to the nearest whole player keeps the number of seats closest to the 20% the rule
    names: rounding down gives 9 entrants 1 seat for an exact 1.8, rounding up gives 6 entrants
    2 seats (33%) for 1.2. A 20% share never ends in exactly .5 (n/5), so "half up" never has
    to decide. At least one: a satellite that qualifies nobody has no point (7 -> 1.4 -> 1).
    """
    if entrants < 1:
        raise ValueError(f"a satellite needs entrants, not {entrants}")
    return max(1, (2 * entrants * QUALIFYING_PERCENT + 100) // 200)


def is_qualified(*, place: int, entrants: int) -> bool:
    """R5.5: whether a satellite place earns a seat in the super final."""
    return 1 <= place <= satellite_qualifiers(entrants)


@dataclass(frozen=True)
class Stack:
    """A player and his chips: at the start of the hand he busted in, or at an agreed stop."""

    player: int
    chips: int


@dataclass(frozen=True)
class Placing:
    """A finishing place; ``card`` broke a tie: the higher card in hand (R5.6) or drawn (R5.10)."""

    player: int
    place: int
    card: Card | None = None


def _checked_cards(*, tied: Sequence[Stack], cards: Mapping[int, Card]) -> dict[int, Card]:
    """The tied players' cards: one each, real and distinct (two players never hold one card)."""
    given = {s.player: cards[s.player] for s in tied if s.player in cards}
    if len(given) < len(tied):
        raise ValueError("every player with an equal stack needs a card")
    if len(set(given.values())) < len(given) or not all(0 <= c < 52 for c in given.values()):
        raise ValueError("the cards must be distinct real cards")
    return given


def _drawn_cards(
    *,
    tied: Sequence[Stack],
    cards: Mapping[int, Card] | None,
    rng: Rng | None,
    deck: Sequence[Card] | None,
) -> dict[int, Card]:
    """R5.10: a card drawn by each tied player: the ones drawn at the table, or a CSPRNG deck's."""
    if cards is not None:
        return _checked_cards(tied=tied, cards=cards)
    dealt = dealt_deck(rng=rng, deck=deck)
    if len(dealt) < len(tied):
        raise ValueError("the deck has fewer cards than there are tied players")
    return {s.player: c for s, c in zip(tied, dealt, strict=False)}  # in the order given


def _tied(stacks: Sequence[Stack]) -> list[Stack]:
    """The players whose stack equals another's; refuses a player twice or a negative stack."""
    if len({s.player for s in stacks}) != len(stacks):
        raise ValueError("a player is listed twice")
    if any(s.chips < 0 for s in stacks):
        raise ValueError("a stack cannot be negative")
    counts: dict[int, int] = {}
    for s in stacks:
        counts[s.chips] = counts.get(s.chips, 0) + 1
    return [s for s in stacks if counts[s.chips] > 1]


def _ranked(
    *, stacks: Sequence[Stack], best_place: int, cards: Mapping[int, Card]
) -> tuple[Placing, ...]:
    """Places from best_place down: more chips higher; equal chips by the higher card (R1.6)."""
    # A card number orders rank first, then suit (R1.6): the higher number is the higher card.
    order = sorted(stacks, key=lambda s: (s.chips, cards.get(s.player, -1)), reverse=True)
    return tuple(
        Placing(player=s.player, place=best_place + i, card=cards.get(s.player))
        for i, s in enumerate(order)
    )


def place_same_hand_busts(
    *,
    busts: Sequence[Stack],
    players_left_before: int,
    cards: Mapping[int, Card] | None = None,
) -> tuple[Placing, ...]:
    """R5.6: players out in one hand, best place first.

    Each bust carries the chips he started the hand with. The one who started with more places
    higher; equal stacks are decided by the higher card in each one's hand (rank, then suit:
    R1.6), which the floor reads off the cards and gives in ``cards`` (player -> card). Nothing
    is drawn here: a tie without a card is refused. With 10 left before the hand and three out,
    the places are 8, 9 and 10, the biggest starting stack taking 8th.
    """
    if not 0 < len(busts) <= players_left_before:
        raise ValueError("between one and all of the players left can bust in a hand")
    tied = _tied(busts)
    in_hand = _checked_cards(tied=tied, cards=cards or {}) if tied else {}
    return _ranked(stacks=busts, best_place=players_left_before - len(busts) + 1, cards=in_hand)


def place_of_quitter(*, players_left: int) -> int:
    """R5.9: a player who quits places where he left: last of the players still in, himself too."""
    if players_left < 1:
        raise ValueError("a player who quits is still one of the players left")
    return players_left


def places_by_chip_count(
    *,
    stacks: Sequence[Stack],
    cards: Mapping[int, Card] | None = None,
    rng: Rng | None = None,
    deck: Sequence[Card] | None = None,
) -> tuple[Placing, ...]:
    """R5.10: all agree to stop: places 1..n by chips; equal counts by a card each one draws.

    The cards drawn at the table come in ``cards``; without them they are drawn here from
    ``deck`` (tied players in the order given) or a fresh CSPRNG shuffle (R1.1).
    """
    if not stacks:
        raise ValueError("there is nobody left to place")
    tied = _tied(stacks)
    drawn = _drawn_cards(tied=tied, cards=cards, rng=rng, deck=deck) if tied else {}
    return _ranked(stacks=stacks, best_place=1, cards=drawn)
