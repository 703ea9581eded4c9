"""Stud's cards: the deal from a deck or a replay (R1.1, R7.2's common card) and who is high
or low on board (the bring-in and the first to act, R7.2)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations_with_replacement, groupby

from tables.engine.cards import DECK_SIZE, Card, check_deck, shuffled_deck
from tables.engine.evaluator import HandCategory
from tables.engine.stud.rules import DealCommon, DealStud, StudReshuffle, StudStreet

# What a street gives a player: his down cards (None: unknown) and his up cards.
Dealt = tuple[tuple[Card, ...] | None, tuple[Card, ...]]

# A showing hand is ranked by its groups of equal ranks only: straights and flushes on board
# never count for the order of action (Robert's Rules), so four up cards are at best quads.
_FULL_DECK = list(range(DECK_SIZE))
_SHAPES = {
    (4,): HandCategory.FOUR_OF_A_KIND,
    (3, 2): HandCategory.FULL_HOUSE,  # only with the common card: five cards showing
    (3,): HandCategory.THREE_OF_A_KIND,
    (2, 2): HandCategory.TWO_PAIR,
    (2,): HandCategory.PAIR,
}


class StudDeal:
    """The cards of one stud hand, from a 52-card deck in order or from a replay's records.

    A deck is dealt as at a real table: third street one card at a time from position 0 (two
    rounds down, one up); before each later street a burn card, then one card to each player
    still in, from position 0 on. R7.2 (seed 003) when the deck cannot give every player still
    in a card: a burn that would leave fewer cards than players to be dealt is skipped; if even
    so the deck is short, all but its last card are dealt, the last card and the burns are
    mixed in the server's ``reshuffle`` order (the scramble and the cut), one is burned if
    they are more than the players still to be dealt, and the deal goes on. Only if the deck
    and the burns together cannot give every player a fresh card is one common card turned up
    in the middle (after a burn if two cards are left). Mucked cards are never dealt again.
    With at most 8 players only seventh street can run short. A replay counts the cards the
    same way, so it makes the same decisions, and takes the cards from the records.
    """

    __slots__ = ("_deck", "_given", "_common", "_order", "_burns", "used", "burned", "mix")

    def __init__(
        self,
        *,
        deck: list[Card] | None,
        given: dict[tuple[int, StudStreet], Dealt] | None = None,
        common: Card | None = None,
        reshuffle: Sequence[Card] | None = None,
    ) -> None:
        self._deck = deck
        self._given = given or {}
        self._common = common
        self._order = reshuffle
        self._burns = 0  # burn cards face down now (known or not)
        self.used = 0  # cards taken off the deck so far, burns included
        self.burned: list[Card] = []  # server-side only: never shown to a player
        self.mix: StudReshuffle | None = None  # R7.2: the reshuffle of the last street dealt

    @classmethod
    def from_deck(
        cls, deck: Sequence[Card] | None, reshuffle: Sequence[Card] | None = None
    ) -> StudDeal:
        """A deal from a whole deck (default: a fresh CSPRNG shuffle, R1.1). ``reshuffle`` is
        the server's order for R7.2's mix of the last card and the burns, all 52 cards: the
        mixed cards are dealt in the order they hold in it (default: a fresh CSPRNG shuffle
        with the deck's, else the deck's own order; a live table passes a secret one)."""
        cards = shuffled_deck() if deck is None else list(deck)
        if len(cards) != DECK_SIZE:
            raise ValueError(f"a stud deck is all {DECK_SIZE} cards, not {len(cards)}")
        if sorted(cards) != _FULL_DECK:
            check_deck(cards)  # R1.1: distinct real cards; says which is wrong
        if reshuffle is None:
            order = shuffled_deck() if deck is None else cards
        else:
            order = list(reshuffle)
            if sorted(order) != _FULL_DECK:
                raise ValueError(f"a reshuffle order is all {DECK_SIZE} cards once (R7.2)")
        return cls(deck=cards, reshuffle=order)

    @classmethod
    def from_records(cls, records: Iterable[object]) -> StudDeal:
        """A deal of the cards that a hand's deal records name (for a replay)."""
        given: dict[tuple[int, StudStreet], Dealt] = {}
        common: Card | None = None
        known: list[Card] = []
        for item in records:
            if isinstance(item, DealStud):
                given[item.seat, item.street] = (item.down, item.up)
                known.extend(item.up)
                known.extend(item.down or ())
            elif isinstance(item, DealCommon):
                common = item.card
                known.append(item.card)
        check_deck(known)  # no card dealt twice (R7.2's reshuffle deals burns, never dealt)
        return cls(deck=None, given=given, common=common)

    def third_street(self, players: int) -> list[Dealt]:
        """Two down cards and one up card for each player, one card at a time (R7.2)."""
        self.used = 3 * players
        deck = self._deck
        if deck is None:
            return [self._given_cards(seat, StudStreet.THIRD, 2, 1) for seat in range(players)]
        n = players
        return [((deck[i], deck[n + i]), (deck[2 * n + i],)) for i in range(n)]

    def next_street(self, street: StudStreet, seats: Sequence[int]) -> Card | list[Dealt]:
        """The cards of a later street for the players still in (``seats``, in order): a card
        each (up on fourth to sixth, down on seventh), or R7.2's common card. ``mix`` is the
        street's reshuffle, if the deck ran short (R7.2)."""
        need = len(seats)
        stub = DECK_SIZE - self.used
        self.mix = None
        if stub < need:
            if stub + self._burns < need:  # R7.2: not even the burns give everyone a card
                if stub >= 2:
                    self._burn()
                return self._common_card()
            cards = self._reshuffled(street, stub, need)
        else:
            if stub > need:
                self._burn()
            start = self.used
            self.used += need
            cards = None if self._deck is None else self._deck[start : start + need]
        up = street < StudStreet.SEVENTH
        if cards is None:
            return [
                self._given_cards(seat, street, 0 if up else 1, 1 if up else 0) for seat in seats
            ]
        return [((), (card,)) if up else ((card,), ()) for card in cards]

    def _reshuffled(self, street: StudStreet, stub: int, need: int) -> list[Card] | None:
        """R7.2: all but the deck's last card, then the last card and the burns mixed in the
        server's order, a burn if they are more than the players still to be dealt."""
        first = max(stub - 1, 0)
        mixed = stub - first + self._burns
        burn = mixed > need - first
        self.mix = StudReshuffle(street=street, dealt=first, mixed=mixed, burn=burn)
        self._burns = 1 if burn else 0
        deck, start = self._deck, self.used
        self.used = DECK_SIZE
        if deck is None or self._order is None:
            return None
        rank = {card: k for k, card in enumerate(self._order)}
        pool = sorted([*deck[start + first :], *self.burned], key=rank.__getitem__)
        self.burned = pool[:1] if burn else []
        return [*deck[start : start + first], *pool[int(burn) :][: need - first]]

    def _burn(self) -> None:
        if self._deck is not None:
            self.burned.append(self._deck[self.used])
        self.used += 1
        self._burns += 1

    def _common_card(self) -> Card:
        deck = self._deck
        self.used += 1
        if deck is not None:
            return deck[self.used - 1]
        if self._common is None:
            raise ValueError("the records lack the common card the deck's end calls for (R7.2)")
        return self._common

    def _given_cards(self, seat: int, street: StudStreet, downs: int, ups: int) -> Dealt:
        dealt = self._given.get((seat, street))
        if dealt is None:
            raise ValueError(f"the records lack the cards of seat {seat} on {street.name} street")
        down, up = dealt
        if (down is not None and len(down) != downs) or len(up) != ups:
            raise ValueError(f"seat {seat} gets {downs} down and {ups} up on {street.name} street")
        return dealt


def showing_key(cards: Sequence[Card]) -> tuple[int, tuple[int, ...], tuple[Card, ...]]:
    """How high a showing hand is (R7.2): its groups of equal ranks (quads, trips, two pair,
    pair, high cards), then its ranks in reading order, then seed 003's suit tie-break: the
    cards in reading order by suit (R1.6), so the highest suit of the best group decides."""
    # Reading order: the biggest group first, higher ranks first, higher suits first.
    ordered = sorted(cards, reverse=True)
    ranks = [card >> 2 for card in ordered]
    if len(set(ranks)) == len(ranks):  # no pair: most showing hands
        return HandCategory.HIGH_CARD, tuple(ranks), tuple(ordered)
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    ordered.sort(key=lambda card: counts[card >> 2], reverse=True)  # stable: ranks stay high first
    most = counts[ordered[0] >> 2]
    second = counts[ordered[most] >> 2] if len(ordered) > most else 0
    shape = (most, second) if second > 1 else (most,)
    return _SHAPES[shape], tuple(card >> 2 for card in ordered), tuple(ordered)


def _showing_ranks() -> dict[int, int]:
    """The order of every showing hand's ranks (1 to 5 cards, none five times): by the sum of
    its cards' ``RANK_KEYS`` (base-5 digits, one a rank), the category (``_SHAPES``) in the
    top bits, then each rank in reading order, 4 bits each. Hands of as many cards compare as
    ``showing_key`` compares their category and ranks."""
    table: dict[int, int] = {}
    for size in range(1, 6):
        for ranks in combinations_with_replacement(range(12, -1, -1), size):
            # (count, rank) of each rank, the biggest group first, higher ranks first.
            groups = [(len(list(same)), rank) for rank, same in groupby(ranks)]
            groups.sort(reverse=True)
            if groups[0][0] > 4:
                continue  # one deck has four of a rank
            shape = tuple(count for count, _ in groups[:2] if count > 1)
            value = int(_SHAPES.get(shape, HandCategory.HIGH_CARD))
            for count, rank in groups:
                for _ in range(count):
                    value = value << 4 | rank
            table[sum(5**rank for rank in ranks)] = value
    return table


# A card's part of a showing hand's rank sum: one base-5 digit a rank.
RANK_KEYS = tuple(5 ** (card >> 2) for card in range(DECK_SIZE))
_SHOWING_RANKS = _showing_ranks()


def rank_sum(cards: Iterable[Card]) -> int:
    """The key of a showing hand's ranks for ``high_hand_seat``: the sum of its cards'
    ``RANK_KEYS``, so a hand can add each street's cards to it as they are dealt."""
    return sum(map(RANK_KEYS.__getitem__, cards))


def high_hand_seat(
    seats: Sequence[int],
    up_cards: Sequence[Sequence[Card]],
    board: Sequence[Card],
    sums: Sequence[int] | None = None,
) -> int:
    """R7.2: the player whose up cards (with a common card) make the best showing hand; ties
    by suit (seed 003: spades, hearts, diamonds, clubs, R1.6), so there are none left.
    ``sums`` are the players' up cards' ``rank_sum`` if the caller keeps them (a hand adds
    each street's), else worked out here."""
    # Each hand's category and ranks are one lookup by its rank sum; only hands equal in both
    # (two kings-seven-four) are compared by suit, through showing_key.
    if sums is None:
        sums = [rank_sum(cards) for cards in up_cards]
    lookup, base = _SHOWING_RANKS.__getitem__, rank_sum(board)
    best, high, tied = -1, -1, False
    for seat in seats:
        value = lookup(sums[seat] + base)
        if value > best:
            best, high, tied = value, seat, False
        elif value == best:
            tied = True
    if not tied:
        return high
    level = [seat for seat in seats if lookup(sums[seat] + base) == best]
    return max(level, key=lambda seat: showing_key([*up_cards[seat], *board]))


def low_card_seat(seats: Iterable[int], up_cards: Sequence[Sequence[Card]]) -> int:
    """R7.2: the player with the lowest up card, rank first, then suit (clubs lowest, R1.6);
    card ints compare exactly so."""
    order = list(seats)
    firsts = [up_cards[seat][0] for seat in order]
    return order[firsts.index(min(firsts))]


def open_pair(seats: Iterable[int], up_cards: Sequence[Sequence[Card]]) -> bool:
    """R7.2: whether a player still in shows a pair on fourth street (his two up cards)."""
    for seat in seats:
        first, second = up_cards[seat]
        if first >> 2 == second >> 2:
            return True
    return False
