"""Benchmark: ICM (Malmuth-Harville) for a final table, memoised over subsets vs. the naive one.

The peer in the same run is the naive recursion (scoring.deals.icm_equity_naive): one branch
per finishing order of the paid places, n!/(n-k)! leaves for k paid places. The memoised one
(scoring.deals.icm_equity, the one the deal calculator uses) computes each subset of players
once: 2^n subsets. Stacks are random (seeded), every place is paid (the worst case) unless
--paid says otherwise; both results are checked equal. Prints a markdown table.

    .venv/bin/python bench/icm.py [--players 10] [--paid 0] [--repeats 5] [--seed 7]
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

from scoring.deals import icm_equity, icm_equity_naive  # noqa: E402


def timed(function: Callable[[], list[float]], repeats: int) -> tuple[list[float], list[float]]:
    """The result and the seconds of each run."""
    seconds, result = [], []
    for _ in range(repeats):
        started = time.perf_counter()
        result = function()
        seconds.append(time.perf_counter() - started)
    return result, seconds


def table(players: int, paid: int, rng: random.Random) -> tuple[list[int], list[int]]:
    stacks = [rng.randint(1_000, 100_000) for _ in range(players)]
    places = paid or players
    prizes = sorted((rng.randint(1_000, 100_000) for _ in range(places)), reverse=True)
    return stacks, prizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--paid", type=int, default=0, help="paid places; 0: all")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--naive-repeats", type=int, default=1)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print("| players | paid | memoised best / median (ms) | naive best (ms) | naive / memoised |")
    print("|---:|---:|---:|---:|---:|")
    for players in range(4, args.players + 1):
        stacks, prizes = table(players, min(args.paid, players), rng)
        memo, memo_s = timed(lambda s=stacks, p=prizes: icm_equity(s, p), args.repeats)
        naive, naive_s = timed(
            lambda s=stacks, p=prizes: icm_equity_naive(s, p), args.naive_repeats
        )
        assert all(abs(a - b) <= 1e-6 * max(1.0, abs(b)) for a, b in zip(memo, naive, strict=True))
        best, median, peer = min(memo_s), statistics.median(memo_s), min(naive_s)
        print(
            f"| {players} | {len(prizes)} | {best * 1e3:.2f} / {median * 1e3:.2f} "
            f"| {peer * 1e3:.1f} | {peer / best:.0f}x |"
        )


if __name__ == "__main__":
    main()
