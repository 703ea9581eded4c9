"""Benchmark: ICM (Malmuth-Harville) for a deal; where it is exact, where it is estimated.

Part 1, the exact recursion (scoring.deals._icm_exact, one step per set of players placed and
player left) against its peer in the same run, the naive recursion (icm_equity_naive: one
branch per finishing order of the paid places); both results are checked equal.
Part 2, what the deal calculator does (scoring.deals.icm) from 12 players up: exact up to
EXACT_ICM_STEPS, a seeded estimate beyond; for sizes where the exact recursion still finishes
(--exact-up-to) the estimate's largest error is measured against it. Stacks and prizes are random
(seeded), every place paid (the worst case) unless --paid says otherwise. Prints markdown tables.

    .venv/bin/python bench/icm.py [--players 10] [--large 12,14,16,17,18,20,30,60] [--paid 0]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring import deals  # noqa: E402


def timed[T](function: Callable[[], T], repeats: int) -> tuple[T, list[float]]:
    """The result and the seconds of each run (wall clock)."""
    seconds = []
    for _ in range(repeats):
        started = time.perf_counter()
        result = function()
        seconds.append(time.perf_counter() - started)
    return result, seconds


def cpu_timed[T](function: Callable[[], T]) -> tuple[T, float, float]:
    """The result, the wall-clock and the CPU seconds of one run (CPU: less hit by load)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = function()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def table(players: int, paid: int, rng: random.Random) -> tuple[list[int], list[int]]:
    stacks = [rng.randint(1_000, 100_000) for _ in range(players)]
    places = paid or players
    prizes = sorted((rng.randint(1_000, 100_000) for _ in range(places)), reverse=True)
    return stacks, prizes


def exact_against_naive(args: argparse.Namespace, rng: random.Random) -> None:
    print("| players | paid | exact best / median (ms) | naive best (ms) | naive / exact |")
    print("|---:|---:|---:|---:|---:|")
    for players in range(4, args.players + 1):
        stacks, prizes = table(players, min(args.paid, players), rng)
        paid = deals._prizes_for(stacks, prizes)
        places = deals._places_paid(paid)
        exact, exact_s = timed(
            lambda s=stacks, p=paid, k=places: deals._icm_exact(s, p, k), args.repeats
        )
        naive, naive_s = timed(lambda s=stacks, p=prizes: deals.icm_equity_naive(s, p), 1)
        assert all(abs(a - b) <= 1e-6 * max(1.0, abs(b)) for a, b in zip(exact, naive, strict=True))
        best, median, peer = min(exact_s), statistics.median(exact_s), min(naive_s)
        print(
            f"| {players} | {len(prizes)} | {best * 1e3:.2f} / {median * 1e3:.2f} "
            f"| {peer * 1e3:.1f} | {peer / best:.0f}x |"
        )


def calculator(args: argparse.Namespace, rng: random.Random) -> None:
    print()
    print("| players | paid | steps | method | icm() CPU / wall (s) | stated error (cents) | "
          "measured error (cents) | exact recursion CPU (s) |")  # fmt: skip
    print("|---:|---:|---:|---|---:|---:|---:|---:|")
    for players in (int(n) for n in args.large.split(",")):
        stacks, prizes = table(players, min(args.paid, players) if args.paid else 0, rng)
        result, wall, cpu = cpu_timed(lambda s=stacks, p=prizes: deals.icm(s, p))
        places = deals._places_paid(deals._prizes_for(stacks, prizes))
        steps = deals.icm_steps(players, places)
        measured, exact_s = "", ""
        if not result.exact and players <= args.exact_up_to:
            paid = deals._prizes_for(stacks, prizes)
            exact, _, spent = cpu_timed(
                lambda s=stacks, p=paid, k=places: deals._icm_exact(s, p, k)
            )
            error = max(abs(a - b) for a, b in zip(result.equity, exact, strict=True))
            measured, exact_s = f"{error:.0f}", f"{spent:.2f}"
        method = "exact" if result.exact else f"estimate ({result.trials:,} finishes)"
        print(
            f"| {players} | {len(prizes)} | {steps:,.3g} | {method} | {cpu:.2f} / {wall:.2f} "
            f"| {result.error:.0f} | {measured} | {exact_s} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--large", default="12,14,16,17,18,20,30,60,200")
    parser.add_argument("--exact-up-to", type=int, default=18, help="measure the estimate's error")
    parser.add_argument("--paid", type=int, default=0, help="paid places; 0: all")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    exact_against_naive(args, rng)
    calculator(args, rng)


if __name__ == "__main__":
    main()
