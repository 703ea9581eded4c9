"""Whole-hand benchmark of seven-card stud: hands per second, Floorman's StudHand vs PokerKit.

Both engines play the same hands (stacks and deck, dealt the same way: third street one card
at a time, a burn before each later street) with the same random action policy; the random
numbers are drawn before the clock starts. Six players, so the deck never runs out (PokerKit
has no common card) and deep stacks, so the rare spots where the rules differ (open pair,
short all-ins) do not change the work much. The engines take turns within each repeat, a tenth
of their hands at a time; the report gives the best repeat of each and the median of the
repeats' own ratios. Usage:
``python -m bench.stud [--hands N] [--pokerkit-hands M] [--repeats R]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from pokerkit import Automation, FixedLimitSevenCardStud, Mode  # noqa: E402

from tables.engine.stud import StudHand, StudRules  # noqa: E402
from tests.engine.helpers_pokerkit import PK_CARDS  # noqa: E402

PLAYERS = 6
RULES = StudRules(ante=10, bring_in=25, small_bet=50, big_bet=100)
DECISIONS = 64
WARM_UP = 100
TURNS = 10  # slices of each engine's hands per repeat, taking turns
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


@dataclass(frozen=True, kw_only=True)
class Deal:
    """One pre-drawn hand: stacks, deck and the policy's random numbers."""

    stacks: tuple[int, ...]
    deck: tuple[int, ...]
    rolls: tuple[float, ...]


def make_deals(count: int, seed: int) -> list[Deal]:
    """Hands from a seeded generator: stacks of 40 to 400 small bets."""
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        deck = list(range(52))
        rng.shuffle(deck)
        deals.append(
            Deal(
                stacks=tuple(rng.randint(2_000, 20_000) for _ in range(PLAYERS)),
                deck=tuple(deck),
                rolls=tuple(rng.random() for _ in range(DECISIONS)),
            )
        )
    return deals


def decide(roll: float, *, facing: bool, can_raise: bool) -> int:
    """The shared policy: -1 fold, 0 check/call (or bring in), 1 the smallest raise."""
    if facing and roll < 0.2:
        return -1
    return 1 if can_raise and roll > 0.75 else 0


def play_floorman(deal: Deal) -> tuple[int, ...]:
    """One hand through StudHand's public moves."""
    hand = StudHand.start(rules=RULES, stacks=deal.stacks, deck=deal.deck)
    step = 0
    while not hand.is_over:
        choice = decide(
            deal.rolls[step % DECISIONS], facing=hand.can_fold(), can_raise=hand.can_raise()
        )
        step += 1
        if choice > 0:
            hand.raise_to(hand.min_raise_to())
        elif hand.can_bring_in():
            hand.bring_in()
        elif choice < 0:
            hand.fold()
        elif hand.can_check():
            hand.check()
        else:
            hand.call()
    return tuple(hand.stacks)


def play_pokerkit(deal: Deal) -> tuple[int, ...]:
    """The same hand through PokerKit's public moves, dealt from the same deck."""
    state = FixedLimitSevenCardStud.create_state(
        AUTOMATIONS, True, RULES.ante, RULES.bring_in, RULES.small_bet, RULES.big_bet,
        deal.stacks, PLAYERS, mode=Mode.TOURNAMENT,
    )  # fmt: skip
    deck, n = deal.deck, PLAYERS
    third = [tuple(PK_CARDS[deck[k * n + i]] for k in range(3)) for i in range(n)]
    position, step = 3 * n, 0
    while state.status:
        if state.card_burning_status:
            state.burn_card(PK_CARDS[deck[position]])
            position += 1
        elif (index := state.hole_dealee_index) is not None:
            if state.street_index == 0:
                state.deal_hole(third[index], index)
            else:
                state.deal_hole((PK_CARDS[deck[position]],), index)
                position += 1
        else:
            pk_low = state.min_completion_betting_or_raising_to_amount
            choice = decide(
                deal.rolls[step % DECISIONS], facing=state.can_fold(), can_raise=pk_low is not None
            )
            step += 1
            if choice > 0:
                state.complete_bet_or_raise_to(pk_low)
            elif state.can_post_bring_in():
                state.post_bring_in()
            elif choice < 0:
                state.fold()
            else:
                state.check_or_call()
    return tuple(state.stacks)


def time_once(play: Callable[[Deal], object], deals: Sequence[Deal]) -> float:
    started = time.perf_counter()
    for deal in deals:
        play(deal)
    return time.perf_counter() - started


def interleaved(
    engines: Sequence[tuple[Callable[[Deal], object], Sequence[Deal]]],
    repeats: int,
    turns: int = TURNS,
) -> list[list[float]]:
    """Hands per second of each engine in each repeat, the engines taking turns: each repeat
    plays every engine's hands in ``turns`` slices, one slice of each engine after the other,
    so both are timed over the same stretch of the machine's load (one run of each took 0.6 s
    against 2 s: on a shared machine a repeat's ratio compared two different loads)."""
    for play, deals in engines:
        time_once(play, deals[:WARM_UP])
    rates: list[list[float]] = [[] for _ in engines]
    for _ in range(repeats):
        spent = [0.0 for _ in engines]
        for turn in range(turns):
            for k, (play, deals) in enumerate(engines):
                size = -(-len(deals) // turns)
                spent[k] += time_once(play, deals[turn * size : (turn + 1) * size])
        for rate, (_, deals), seconds in zip(rates, engines, spent, strict=True):
            rate.append(len(deals) / seconds)
    return rates


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--pokerkit-hands", type=int, default=1_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    pinned = "not pinned"
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        pinned = "pinned to one core"
    deals = make_deals(args.hands, args.seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        same = sum(play_floorman(d) == play_pokerkit(d) for d in deals[: args.pokerkit_hands])
        ours, theirs = interleaved(
            [(play_floorman, deals), (play_pokerkit, deals[: args.pokerkit_hands])], args.repeats
        )
    ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
    print(f"Python {platform.python_version()}, {platform.machine()}, {pinned}; 6-max stud")
    print(f"Same final stacks in {same:,} of {args.pokerkit_hands:,} hands.")
    print()
    print("| engine | hands | hands/s, best | hands/s, median |")
    print("|---|---:|---:|---:|")
    median = statistics.median
    print(f"| Floorman StudHand | {args.hands:,} | {max(ours):,.0f} | {median(ours):,.0f} |")
    print(
        f"| PokerKit 0.7.7 | {args.pokerkit_hands:,} | {max(theirs):,.0f} | {median(theirs):,.0f} |"
    )
    print(f"| ratio | | {max(ours) / max(theirs):.1f}x (best/best) | {median(ratios):.1f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
