"""Whole-hand benchmark: six-max no-limit hands per second, Floorman's engine vs PokerKit.

Both engines play the same hands (stacks, button, deck) with the same random action policy;
the random numbers are drawn before the clock starts, so both pay the same for them. Runs on
one core; the two engines' timed runs take turns (A, B, A, B...) and the report gives the best
run of each and the median of the repeats' own ratios, which a shared machine's changing load
moves less. Usage:
``python -m bench.engine [--hands N] [--pokerkit-hands M] [--repeats R] [--no-eval]``.
"""

from __future__ import annotations

import argparse
import importlib
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

from tables.engine import Betting, Rules  # noqa: E402
from tables.engine.holdem import Hand  # noqa: E402

PLAYERS = 6
RULES = Rules(betting=Betting.NO_LIMIT, small_blind=50, big_blind=100)
# R7.1: pot-limit Omaha, the same blinds; ``--game plo``.
GAMES = {
    "nlhe": RULES,
    "plo": Rules(betting=Betting.POT_LIMIT, small_blind=50, big_blind=100, omaha=True),
}
DECISIONS = 64  # random numbers drawn per hand; a hand rarely needs more than 40
WARM_UP = 100  # hands each engine plays untimed before the timed runs


@dataclass(frozen=True, kw_only=True)
class Deal:
    """One pre-drawn hand: stacks, button, deck and the policy's random numbers."""

    stacks: tuple[int, ...]
    button: int
    deck: tuple[int, ...]
    rolls: tuple[float, ...]


def make_deals(count: int, seed: int) -> list[Deal]:
    """Hands drawn from a seeded generator: stacks of 20 to 200 big blinds."""
    rng = random.Random(seed)
    deals = []
    for _ in range(count):
        deck = list(range(52))
        rng.shuffle(deck)
        deals.append(
            Deal(
                stacks=tuple(rng.randint(2_000, 20_000) for _ in range(PLAYERS)),
                button=rng.randrange(PLAYERS),
                deck=tuple(deck),
                rolls=tuple(rng.random() for _ in range(DECISIONS)),
            )
        )
    return deals


def decide(roll: float, size: float, *, facing: bool, low: int | None, high: int | None) -> int:
    """The shared policy: -1 fold, 0 check/call, else a raise-to amount."""
    if facing and roll < 0.25:
        return -1
    if low is not None and high is not None and roll > 0.7:
        return low if size < 0.5 else low + int((high - low) * (size - 0.5) * 2)
    return 0


def play_floorman(deal: Deal, rules: Rules = RULES) -> tuple[int, ...]:
    """One hand through Floorman's public moves."""
    hand = Hand.start(rules=rules, stacks=list(deal.stacks), button=deal.button, deck=deal.deck)
    rolls = deal.rolls
    step = 0
    while not hand.is_over:
        can_raise = hand.can_raise()
        choice = decide(
            rolls[step % DECISIONS],
            rolls[(step + 1) % DECISIONS],
            facing=hand.call_amount() > 0,
            low=hand.min_raise_to() if can_raise else None,
            high=hand.max_raise_to() if can_raise else None,
        )
        step += 2
        if choice < 0:
            hand.fold()
        elif choice:
            hand.raise_to(choice)
        elif hand.can_check():
            hand.check()
        else:
            hand.call()
    return tuple(hand.stacks)


def play_pokerkit(
    deal: Deal, create: Callable[..., object], cards: Sequence[object], rules: Rules = RULES
) -> tuple:
    """The same hand through PokerKit's public moves, fully automated dealing from the deck."""
    stacks = [deal.stacks[(i + deal.button + 1) % PLAYERS] for i in range(PLAYERS)]
    state = create(rules=rules, stacks=stacks)
    hole = rules.hole_card_count
    deck = deal.deck
    position = 0
    rolls = deal.rolls
    step = 0
    while state.status:
        if state.can_deal_hole():
            index = state.hole_dealee_index
            state.deal_hole(tuple(cards[c] for c in deck[position : position + hole]), index)
            position += hole
        elif state.can_deal_board():
            dealt = state.board_dealing_count
            state.deal_board(tuple(cards[c] for c in deck[position : position + dealt]))
            position += dealt
        else:
            can_raise = state.can_complete_bet_or_raise_to()
            choice = decide(
                rolls[step % DECISIONS],
                rolls[(step + 1) % DECISIONS],
                facing=state.checking_or_calling_amount > 0,
                low=state.min_completion_betting_or_raising_to_amount if can_raise else None,
                high=state.max_completion_betting_or_raising_to_amount if can_raise else None,
            )
            step += 2
            if choice < 0:
                state.fold()
            elif choice:
                state.complete_bet_or_raise_to(choice)
            else:
                state.check_or_call()
    return tuple(state.stacks)


@dataclass(frozen=True, kw_only=True)
class Figures:
    """Hands per second of each engine, one figure a repeat, in the order they ran."""

    floorman: list[float]
    pokerkit: list[float]

    @property
    def ratios(self) -> list[float]:
        """Each repeat's own ratio: its Floorman run over the PokerKit run right after it."""
        return [a / b for a, b in zip(self.floorman, self.pokerkit, strict=True)]

    @property
    def best_ratio(self) -> float:
        """The best Floorman run over the best PokerKit run."""
        return max(self.floorman) / max(self.pokerkit)

    @property
    def median_ratio(self) -> float:
        """The median of the repeats' own ratios: what a load change moves least."""
        return statistics.median(self.ratios)


def time_once(play: Callable[[Deal], object], deals: Sequence[Deal]) -> float:
    """Seconds for one run over the deals."""
    started = time.perf_counter()
    for deal in deals:
        play(deal)
    return time.perf_counter() - started


def interleaved(
    engines: Sequence[tuple[Callable[[Deal], object], Sequence[Deal]]], repeats: int
) -> list[list[float]]:
    """Hands per second of each engine in each repeat, the engines' runs taking turns (A, B,
    A, B...), so that a change of load on a shared machine hits both alike; each engine first
    plays a few hands untimed."""
    for play, deals in engines:  # untimed warm-up: the interpreter specialises hot code
        time_once(play, deals[:WARM_UP])
    rates: list[list[float]] = [[] for _ in engines]
    for _ in range(repeats):
        for rate, (play, deals) in zip(rates, engines, strict=True):
            rate.append(len(deals) / time_once(play, deals))
    return rates


def pin_one_core() -> str:
    """Run on one core where the OS allows it."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        return "pinned to one core"
    return "not pinned"


def run(
    *, hands: int, pokerkit_hands: int, repeats: int, seed: int = 2024, game: str = "nlhe"
) -> Figures:
    """Hands per second of both engines in each repeat, their runs interleaved."""
    from tests.engine.helpers_pokerkit import FULL_AUTOMATIONS, PK_CARDS, create_state

    def create(*, rules: Rules, stacks: list[int]) -> object:
        return create_state(rules=rules, stacks=stacks, automations=FULL_AUTOMATIONS[:-2])

    deals = make_deals(hands, seed)
    rules = GAMES[game]

    def floorman(deal: Deal) -> object:
        return play_floorman(deal, rules)

    def pokerkit(deal: Deal) -> object:
        return play_pokerkit(deal, create, PK_CARDS, rules)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours, theirs = interleaved([(floorman, deals), (pokerkit, deals[:pokerkit_hands])], repeats)
    return Figures(floorman=ours, pokerkit=theirs)


def evaluator_figures() -> dict[str, float] | None:
    """bench/engine_eval.py's evaluator figures, when that benchmark exists."""
    try:
        module = importlib.import_module("bench.engine_eval")
    except ImportError:
        return None
    result = module.run(repeats=3, n=200_000)
    return result if isinstance(result, dict) else None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--pokerkit-hands", type=int, default=2_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-eval", action="store_true")
    parser.add_argument("--game", choices=sorted(GAMES), default="nlhe")
    args = parser.parse_args(argv)
    pinned = pin_one_core()
    figures = run(
        hands=args.hands, pokerkit_hands=args.pokerkit_hands, repeats=args.repeats, game=args.game
    )
    print(f"Python {platform.python_version()}, {platform.machine()}, {pinned}; game {args.game}")
    print()
    ours, theirs = figures.floorman, figures.pokerkit
    print("| engine | hands | hands/s, best | hands/s, median |")
    print("|---|---:|---:|---:|")
    print(f"| Floorman | {args.hands:,} | {max(ours):,.0f} | {statistics.median(ours):,.0f} |")
    print(
        f"| PokerKit 0.7.7 | {args.pokerkit_hands:,} | {max(theirs):,.0f} "
        f"| {statistics.median(theirs):,.0f} |"
    )
    print(f"| ratio | | {figures.best_ratio:.1f}x (best/best) | {figures.median_ratio:.1f}x |")
    print()
    ratios = ", ".join(f"{ratio:.1f}x" for ratio in figures.ratios)
    print(f"Each repeat's ratio (the engines' runs interleaved): {ratios}")
    if not args.no_eval and (evaluation := evaluator_figures()) is not None:
        print()
        print("| evaluator figure | value |")
        print("|---|---:|")
        for name, value in evaluation.items():
            shown = f"{value:,.0f}" if isinstance(value, int | float) else str(value)
            print(f"| {name} | {shown} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
