"""All-in equity speed: time to an answer (pre-flop heads-up and three-way, and Omaha heads-up,
sampled; flop and turn, exact) and boards evaluated a second by the exact enumeration against
the same enumeration with treys' evaluator, in the same run. Usage:
``python bench/equity.py [--repeats R] [--samples N]``.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from treys import Card as TreysCard  # noqa: E402  (test/bench-only dependency)
from treys import Evaluator  # noqa: E402

from tables.engine import DECK_SIZE, all_in_equity, card_name, parse_cards  # noqa: E402

CASES = [
    ("pre-flop heads-up AsAh v KdKc (sampled)", ("AsAh", "KdKc"), ""),
    ("pre-flop three-way AsAh v KdKc v 7c6c (sampled)", ("AsAh", "KdKc", "7c6c"), ""),
    ("pre-flop Omaha heads-up AsKdQhJc v 2c3c4d5d (sampled)", ("AsKdQhJc", "2c3c4d5d"), ""),
    ("flop heads-up AhKh v 7s7d on Qh7h2c (exact, 990 boards)", ("AhKh", "7s7d"), "Qh7h2c"),
    ("flop three-way AsKs v QhQd v 9c8c on Qs7c6c (exact)", ("AsKs", "QhQd", "9c8c"), "Qs7c6c"),
    ("turn heads-up AhKh v 7s7d on Qh7h2c3d (exact, 44 boards)", ("AhKh", "7s7d"), "Qh7h2c3d"),
]
# The enumeration raced against treys: every runout of the flop, heads-up.
RACE = (("AhKh", "7s7d"), "Qh7h2c")


def best_of(repeats: int, work: Callable[[], object]) -> tuple[float, float]:
    """The best and the median seconds of ``repeats`` runs of ``work``."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times), statistics.median(times)


def treys_wins(hands: Sequence[Sequence[int]], board: Sequence[int]) -> list[int]:
    """Every runout with treys: how often each hand wins alone (treys: lower is better)."""
    evaluator = Evaluator()
    convert = {card: TreysCard.new(card_name(card)) for card in range(DECK_SIZE)}
    known = {*board, *(card for hand in hands for card in hand)}
    rest = [convert[card] for card in range(DECK_SIZE) if card not in known]
    holes = [[convert[card] for card in hand] for hand in hands]
    start = [convert[card] for card in board]
    wins = [0] * len(hands)
    for more in combinations(rest, 5 - len(board)):
        full = [*start, *more]
        ranks = [evaluator.evaluate(full, hole) for hole in holes]
        best = min(ranks)
        if ranks.count(best) == 1:
            wins[ranks.index(best)] += 1
    return wins


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--samples", type=int, default=None, help="default: the engine's")
    args = parser.parse_args(argv)
    print(f"Python {platform.python_version()}, {platform.machine()}")
    print()
    print("| equity | runouts | seconds, best | seconds, median | first hand's share |")
    print("|---|---:|---:|---:|---:|")
    for label, texts, board_text in CASES:
        hands = [parse_cards(text) for text in texts]
        board = parse_cards(board_text) if board_text else []
        result: list = []

        game = "omaha" if len(hands[0]) == 4 else "holdem"

        def work(hands=hands, board=board, result=result, game=game) -> None:
            result[:] = all_in_equity(game=game, hands=hands, board=board, samples=args.samples)

        best, median = best_of(args.repeats, work)
        first = result[0]
        error = "" if first.error is None else f" ± {1.96 * first.error:.2%}"
        runouts = "sampled" if first.error is not None else "all"
        print(f"| {label} | {runouts} | {best:.3f} | {median:.3f} | {first.share:.2%}{error} |")
    hands = [parse_cards(text) for text in RACE[0]]
    board = parse_cards(RACE[1])
    boards = 990
    ours: list = []
    theirs: list[int] = []
    rates = []
    for _ in range(args.repeats):  # the two take turns, so both meet the same load
        started = time.perf_counter()
        ours[:] = all_in_equity(game="holdem", hands=hands, board=board)
        mine = boards / (time.perf_counter() - started)
        started = time.perf_counter()
        theirs[:] = treys_wins(hands, board)
        rates.append((mine, boards / (time.perf_counter() - started)))
    assert [round(e.win * boards) for e in ours] == theirs, (ours, theirs)  # the same wins
    mine_best = max(rate for rate, _ in rates)
    treys_best = max(rate for _, rate in rates)
    ratio = statistics.median(a / b for a, b in rates)
    print()
    print("| boards evaluated a second (flop heads-up, every runout) | best | median |")
    print("|---|---:|---:|")
    mine_median = statistics.median(rate for rate, _ in rates)
    treys_median = statistics.median(rate for _, rate in rates)
    print(f"| Floorman all_in_equity | {mine_best:,.0f} | {mine_median:,.0f} |")
    print(f"| treys 0.1.8 Evaluator, same loop | {treys_best:,.0f} | {treys_median:,.0f} |")
    print(f"| ratio (median of the runs' ratios) | {ratio:.1f}x | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
