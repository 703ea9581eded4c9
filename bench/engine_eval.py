"""Hand evaluator speed: tables.engine.evaluator against treys on the same random hands."""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from treys import Card as TreysCard  # noqa: E402  (test/bench-only dependency)
from treys import Evaluator  # noqa: E402

from tables.engine import (  # noqa: E402
    card_name,  # noqa: E402
    evaluate,
    evaluate_unchecked,
)

SEED = 20240601


def pin_to_one_core() -> str:
    """Run on a single CPU where the OS allows it; say which."""
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to CPU {core}"
    return "not pinned"


def random_hands(n: int, size: int) -> list[list[int]]:
    """A fixed list of n random hands of distinct cards (the same list for every evaluator)."""
    rng = random.Random(SEED + size)
    return [rng.sample(range(52), size) for _ in range(n)]


def best_rate(loop: Callable[[], None], n: int, repeats: int) -> float:
    """Evaluations per second of the fastest of several runs of a loop over n hands."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        loop()
        best = min(best, time.perf_counter() - start)
    return n / best


def ours(function: Callable[[Sequence[int]], int], hands: list[list[int]]) -> Callable[[], None]:
    """A timed loop calling one of our evaluators on every hand."""

    def loop() -> None:
        for hand in hands:
            function(hand)

    return loop


def treys_loop(hands: list[list[int]], board_size: int) -> Callable[[], None]:
    """A timed loop of treys' Evaluator().evaluate(board, hand); cards converted beforehand."""
    evaluator_call = Evaluator().evaluate
    converted = [[TreysCard.new(card_name(card)) for card in hand] for hand in hands]
    pairs = [(hand[:board_size], hand[board_size:]) for hand in converted]

    def loop() -> None:
        for board, hole in pairs:
            evaluator_call(board, hole)

    return loop


def run(repeats: int = 3, n: int = 200_000) -> dict[str, float]:
    """Evaluations per second for 7 and 5 cards, ours and treys', and the ratios."""
    seven, five = random_hands(n, 7), random_hands(n, 5)
    figures = {
        "hands": float(n),
        "repeats": float(repeats),
        "evaluate_7": best_rate(ours(evaluate, seven), n, repeats),
        "evaluate_unchecked_7": best_rate(ours(evaluate_unchecked, seven), n, repeats),
        "treys_7": best_rate(treys_loop(seven, 5), n, repeats),
        "evaluate_5": best_rate(ours(evaluate, five), n, repeats),
        "evaluate_unchecked_5": best_rate(ours(evaluate_unchecked, five), n, repeats),
        "treys_5": best_rate(treys_loop(five, 3), n, repeats),
    }
    for size in (7, 5):
        treys = figures[f"treys_{size}"]
        figures[f"ratio_{size}"] = figures[f"evaluate_{size}"] / treys
        figures[f"ratio_unchecked_{size}"] = figures[f"evaluate_unchecked_{size}"] / treys
    return figures


def table(figures: dict[str, float]) -> str:
    """The figures as a small markdown table."""
    lines = [
        "| cards | evaluator | evaluations/s | vs treys |",
        "|---|---|---:|---:|",
    ]
    for size in (7, 5):
        treys = figures[f"treys_{size}"]
        for label, key in (
            ("Floorman `evaluate` (checked)", f"evaluate_{size}"),
            ("Floorman `evaluate_unchecked`", f"evaluate_unchecked_{size}"),
            ("treys `Evaluator().evaluate`", f"treys_{size}"),
        ):
            lines.append(
                f"| {size} | {label} | {figures[key]:,.0f} | {figures[key] / treys:.1f}x |"
            )
    return "\n".join(lines)


def main() -> None:
    """Run the benchmark and print a markdown table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=3, help="best of this many runs")
    parser.add_argument("-n", type=int, default=200_000, help="hands per run")
    args = parser.parse_args()
    pinned = pin_to_one_core()
    figures = run(repeats=args.repeats, n=args.n)
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {pinned}; "
        f"{args.n:,} random hands, best of {args.repeats}.\n"
    )
    print(table(figures))


if __name__ == "__main__":
    main()
