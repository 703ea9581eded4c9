"""Opening seat draws: random seats across tables and the house card draw for one table (R2.3)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from tables.engine import Card, check_deck, new_deck

T = TypeVar("T")

MIN_SEATS = 2
MAX_SEATS = 10
DEFAULT_SEATS = 10


class Rng(Protocol):
    """The part of a random generator the floor rules use: secrets.SystemRandom in production."""

    def shuffle(self, x: MutableSequence[Any]) -> None: ...

    def sample(self, population: Sequence[T], k: int) -> list[T]: ...

    def choice(self, seq: Sequence[T]) -> T: ...


def system_rng() -> Rng:
    """The production generator: the operating system's CSPRNG (R1.1)."""
    return secrets.SystemRandom()


def dealt_deck(*, rng: Rng | None = None, deck: Sequence[Card] | None = None) -> list[Card]:
    """The cards to deal from: a given fixed deck (for a replay or a test) or a fresh shuffle."""
    if deck is not None:
        check_deck(deck)
        return list(deck)
    cards = new_deck()
    (rng or system_rng()).shuffle(cards)  # R1.1: CSPRNG unless a test injects a seeded rng
    return cards


def check_seat_count(seats: int) -> None:
    """Raise ValueError unless a table has 2 to 10 seats."""
    if not MIN_SEATS <= seats <= MAX_SEATS:
        raise ValueError(f"a table has {MIN_SEATS} to {MAX_SEATS} seats, not {seats}")


def tables_needed(*, players: int, seats_per_table: int = DEFAULT_SEATS) -> int:
    """The fewest tables that seat all players (at least one)."""
    check_seat_count(seats_per_table)
    if players < 0:
        raise ValueError("the number of players cannot be negative")
    return max(1, -(-players // seats_per_table))


@dataclass(frozen=True)
class TableSpec:
    """A table to seat players at: its number and how many seats it has."""

    table: int
    seats: int = DEFAULT_SEATS


@dataclass(frozen=True)
class SeatAssignment:
    """One player's seat."""

    player: int
    table: int
    seat: int


@dataclass(frozen=True)
class OpeningSeating:
    """The opening seats of an event and the button of each table's first hand."""

    seats: tuple[SeatAssignment, ...]
    button_seats: Mapping[int, int]

    def players_at(self, table: int) -> dict[int, int]:
        """Seat -> player at one table."""
        return {s.seat: s.player for s in self.seats if s.table == table}


def _spread(*, count: int, tables: Sequence[TableSpec], rng: Rng) -> dict[int, int]:
    """How many players each table gets: as even as the seat counts allow, extras at random."""
    sizes: dict[int, int] = {}
    left = count
    by_seats = sorted(tables, key=lambda spec: spec.seats)
    for i, spec in enumerate(by_seats):
        share = left // (len(by_seats) - i)
        if spec.seats <= share:  # a small table fills up; the rest share what is left
            sizes[spec.table] = spec.seats
            left -= spec.seats
            continue
        rest = [s.table for s in by_seats[i:]]  # all have more seats than the share
        lucky = set(rng.sample(rest, left - share * len(rest)))
        sizes.update({t: share + (t in lucky) for t in rest})
        break
    return sizes


def draw_opening_seats(
    *,
    players: Sequence[int],
    tables: Sequence[TableSpec],
    button_seats: Mapping[int, int] | None = None,
    rng: Rng | None = None,
) -> OpeningSeating:
    """Random seats for all players (TDA: seats are randomly assigned).

    Tables get player counts that differ by at most one (where their seat counts allow it);
    which tables get the extra players, which player goes where and which seats stay empty is
    random. The first hand's button is a random occupied seat of each table unless the caller
    names it in ``button_seats`` (a named seat that stays empty is a dead button, R2.7).
    """
    rng = rng or system_rng()
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if len({spec.table for spec in tables}) != len(tables):
        raise ValueError("a table is listed twice")
    for spec in tables:
        check_seat_count(spec.seats)
    if len(players) > sum(spec.seats for spec in tables):
        raise ValueError(f"{len(players)} players do not fit into {len(tables)} tables")
    order = list(players)
    rng.shuffle(order)  # TDA: random seats
    sizes = _spread(count=len(order), tables=tables, rng=rng)
    assignments: list[SeatAssignment] = []
    buttons: dict[int, int] = {}
    for spec in tables:
        chosen = sorted(rng.sample(range(1, spec.seats + 1), sizes[spec.table]))
        for seat in chosen:
            assignments.append(SeatAssignment(player=order.pop(), table=spec.table, seat=seat))
        named = (button_seats or {}).get(spec.table)
        if named is not None:
            if not 1 <= named <= spec.seats:
                raise ValueError(f"table {spec.table} has no seat {named} for the button")
            buttons[spec.table] = named
        elif chosen:
            buttons[spec.table] = rng.choice(chosen)
    return OpeningSeating(seats=tuple(assignments), button_seats=buttons)


@dataclass(frozen=True)
class CardDraw:
    """The card one player drew."""

    player: int
    card: Card


@dataclass(frozen=True)
class SeatDraw:
    """The house seat draw of R2.3 at one table: who drew what, the seats and the first blinds."""

    draws: tuple[CardDraw, ...]
    seat_of: Mapping[int, int]
    button_seat: int
    small_blind_seat: int


def draw_seats_by_card(
    *,
    players: Sequence[int],
    seats: int = DEFAULT_SEATS,
    rng: Rng | None = None,
    deck: Sequence[Card] | None = None,
) -> SeatDraw:
    """R2.3: each player draws a card; seats go in descending card order counter-clockwise.

    Seats are numbered clockwise, so counter-clockwise means descending seat numbers. With n
    players the seats 1..n are used: the highest card gets seat n and the button of the first
    hand, the next card seat n-1, and so on down to the lowest card in seat 1. Seat 1 is the
    first occupied seat clockwise after seat n (the empty seats n+1..seats lie between them),
    so the lowest card posts the small blind: R2.3 exactly. Cards compare by rank, then suit
    (R1.6: the card number already orders them that way). ``deck`` fixes the cards for a
    replay or a test; players draw in the order given. Heads-up the button is the small blind
    (R2.8), so the two positions coincide there and the lowest card posts the big blind.
    """
    check_seat_count(seats)
    if not MIN_SEATS <= len(players) <= seats:
        raise ValueError(f"{len(players)} players cannot play at a table of {seats} seats")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    cards = dealt_deck(rng=rng, deck=deck)
    if len(cards) < len(players):
        raise ValueError("the deck has fewer cards than there are players")
    draws = tuple(CardDraw(player=p, card=c) for p, c in zip(players, cards, strict=False))
    # R2.3 + R1.6: highest card first, then counter-clockwise (descending seat numbers).
    ranked = sorted(draws, key=lambda d: d.card, reverse=True)
    seat_of = {d.player: len(players) - i for i, d in enumerate(ranked)}
    button = len(players)
    small_blind = button if len(players) == 2 else 1  # R2.8: heads-up the button posts the SB
    return SeatDraw(draws=draws, seat_of=seat_of, button_seat=button, small_blind_seat=small_blind)
