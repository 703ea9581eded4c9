"""PokerKit 0.7.7 as the reference engine of the differential tests and the benchmark.

Only tests and benchmarks import this module; the engine never imports PokerKit.
PokerKit lists players from the seat left of the button (the button last); Floorman indexes
seats clockwise with an explicit button, so ``pk_seat`` / ``our_seat`` rotate between the two.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pokerkit import (
    Automation,
    BettingStructure,
    Deck,
    Mode,
    OmahaHoldemHand,
    Opening,
    StandardHighHand,
    State,
    Street,
)
from pokerkit import Card as PKCard

from tables.engine import RANKS, SUITS, AnteMode, Betting, Rules

# Our card int (rank * 4 + suit) -> PokerKit's card; parsing strings each time is slow.
PK_CARDS: tuple[PKCard, ...] = tuple(
    next(PKCard.parse(rank + suit)) for rank in RANKS for suit in SUITS
)

# Everything but the dealing: the tests deal the exact cards Floorman's engine dealt.
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
FULL_AUTOMATIONS = (*AUTOMATIONS, Automation.HOLE_DEALING, Automation.BOARD_DEALING)

_BETTING = {
    Betting.NO_LIMIT: BettingStructure.NO_LIMIT,
    Betting.POT_LIMIT: BettingStructure.POT_LIMIT,
    Betting.LIMIT: BettingStructure.FIXED_LIMIT,
}


def pk_seat(seat: int, *, button: int, count: int) -> int:
    """PokerKit's index of our seat: index 0 is left of the button, the button is last."""
    return (seat - button - 1) % count


def our_seat(index: int, *, button: int, count: int) -> int:
    """Our seat of a PokerKit index."""
    return (index + button + 1) % count


def create_state(
    *, rules: Rules, stacks: Sequence[int], automations: tuple[Automation, ...] = AUTOMATIONS
) -> State:
    """A PokerKit state configured like ``rules``; ``stacks`` in PokerKit order (button last).

    R3.4: a limit round allows a bet and three raises. Before the flop the big blind is the
    bet, so PokerKit (which counts only completions, bets and raises) gets cap - 1 there; its
    stock FixedLimitTexasHoldem allows four raises on every street.
    """
    count = len(stacks)
    limit = rules.betting is Betting.LIMIT
    bets = (
        (rules.limit_small_bet, rules.limit_small_bet, rules.limit_big_bet, rules.limit_big_bet)
        if limit
        else (rules.big_blind,) * 4
    )
    caps = (rules.cap - 1, rules.cap, rules.cap, rules.cap) if limit else (None,) * 4
    hole = 4 if rules.omaha else 2
    streets = tuple(
        Street(
            street > 0,
            () if street else (False,) * hole,
            (0, 3, 1, 1)[street],
            False,
            Opening.POSITION,
            bets[street],
            caps[street],
        )
        for street in range(4)
    )
    antes: Any = 0
    if rules.ante_mode is AnteMode.EVERY_PLAYER:
        antes = rules.ante
    elif rules.ante_mode is AnteMode.BIG_BLIND:
        # PHH / PokerKit lists are in blind order; heads-up PokerKit swaps them itself.
        antes = [0, rules.ante] + [0] * (count - 2)
    return State(
        automations,
        Deck.STANDARD,
        (OmahaHoldemHand if rules.omaha else StandardHighHand,),
        streets,
        _BETTING[rules.betting],
        # Every player's ante is a contribution like a bet (trimming on, as in R3.9's side
        # pots). A big blind ante must not be trimmed: PokerKit would hand it back as an
        # uncalled bet; untrimmed, it goes whole into the main pot (TDA: dead money).
        rules.ante_mode is not AnteMode.BIG_BLIND,
        antes,
        (rules.small_blind, rules.big_blind),
        0,
        tuple(stacks),
        count,
        mode=Mode.TOURNAMENT,
    )


_hand_cache: dict[tuple[Any, ...], Any] = {}


def memoize_hand_evaluation() -> None:
    """Cache PokerKit's best-hand search by (hand type, hole, board); it is a pure function.

    PokerKit evaluates every showdown hand several times (muck decisions, then each pot);
    the cache makes a differential run ~5x faster. Benchmarks must not call this.
    """
    for hand_type in (StandardHighHand, OmahaHoldemHand):
        if getattr(hand_type, "_floorman_memo", False):
            continue
        original = hand_type.from_game.__func__  # type: ignore[attr-defined]

        def from_game(cls: Any, hole_cards: Any, board_cards: Any = (), _f: Any = original) -> Any:
            if isinstance(hole_cards, str) or isinstance(board_cards, str):
                return _f(cls, hole_cards, board_cards)  # card text: PokerKit parses it
            hole, board = tuple(hole_cards), tuple(board_cards)  # may be one-shot iterators
            key = (cls, hole, board)
            hand = _hand_cache.get(key)
            if hand is None:
                hand = _hand_cache[key] = _f(cls, hole, board)
            return hand

        hand_type.from_game = classmethod(from_game)  # type: ignore[method-assign,assignment]
        hand_type._floorman_memo = True  # type: ignore[attr-defined]
    if len(_hand_cache) > 500_000:
        _hand_cache.clear()
