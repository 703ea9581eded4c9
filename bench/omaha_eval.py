"""Omaha evaluator speed (R7.1: exactly two hole cards and three of the board): Floorman's
``evaluate_omaha`` against PokerKit's ``OmahaHoldemHand.from_game`` on the same random hands."""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pokerkit import OmahaHoldemHand  # noqa: E402  (test/bench-only dependency)

from bench.engine_eval import pin_to_one_core  # noqa: E402
from tables.engine import (
    cards_name,  # noqa: E402
    evaluate_omaha,  # noqa: E402
)

SEED = 20261124


def random_deals(n: int) -> list[tuple[list[int], list[int]]]:
    """n fixed random (hole of four, board of five) deals, the same list for both evaluators."""
    rng = random.Random(SEED)
    deals = []
    for _ in range(n):
        cards = rng.sample(range(52), 9)
        deals.append((cards[:4], cards[4:]))
    return deals


def best_rate(loop: Callable[[], None], n: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        loop()
        best = min(best, time.perf_counter() - start)
    return n / best


def run(*, n: int = 20_000, pokerkit_n: int = 2_000, repeats: int = 3) -> dict[str, float]:
    """Evaluations per second of both, and the ratio; the two agree on every hand's order."""
    deals = random_deals(n)

    def ours() -> None:
        for hole, board in deals:
            evaluate_omaha(hole=hole, board=board)

    texts = [(cards_name(hole), cards_name(board)) for hole, board in deals[:pokerkit_n]]

    def theirs() -> None:
        for hole, board in texts:
            OmahaHoldemHand.from_game(hole, board)

    check_agreement(deals[: min(pokerkit_n, 2_000)])
    figures = {
        "floorman": best_rate(ours, n, repeats),
        "pokerkit": best_rate(theirs, pokerkit_n, repeats),
    }
    figures["ratio"] = figures["floorman"] / figures["pokerkit"]
    return figures


def check_agreement(deals: list[tuple[list[int], list[int]]]) -> None:
    """Both evaluators order every pair of neighbouring hands alike (equal hands tie)."""
    ours = [evaluate_omaha(hole=h, board=b) for h, b in deals]
    theirs = [OmahaHoldemHand.from_game(cards_name(h), cards_name(b)) for h, b in deals]
    for i in range(len(deals) - 1):
        a, b = ours[i], ours[i + 1]
        x, y = theirs[i], theirs[i + 1]
        if (a < b) != (x < y) or (a == b) != (x == y):
            raise AssertionError(f"the evaluators disagree on deals {deals[i]} and {deals[i + 1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("-n", type=int, default=20_000, help="hands for Floorman")
    parser.add_argument("--pokerkit-n", type=int, default=2_000, help="hands for PokerKit")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    pinned = pin_to_one_core()
    figures = run(n=args.n, pokerkit_n=args.pokerkit_n, repeats=args.repeats)
    print(f"Python {platform.python_version()} on {platform.machine()}, {pinned}")
    print("| evaluator | evaluations/s | vs PokerKit |")
    print("|---|---:|---:|")
    print(f"| Floorman `evaluate_omaha` | {figures['floorman']:,.0f} | {figures['ratio']:.1f}x |")
    print(f"| PokerKit `OmahaHoldemHand.from_game` | {figures['pokerkit']:,.0f} | 1.0x |")


if __name__ == "__main__":
    main()
