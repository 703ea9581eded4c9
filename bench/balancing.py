"""Benchmark: balancing plans while a 10,000-entrant event busts down to one winner.

1,000 tables of 10 are seated at random; busts are random (seeded). Each step deals a hand at
a random table and at --hands-per-bust (16) other random tables (button and blinds move on under
the dead-button rule: a 1,000-table room deals about that many hands per bust), busts one player of
the first, then computes the plan (timed), checks it (verify_plan plus the counts here, not
timed) and applies it. Table breaks never wait: a player drawn into a seat between the small
blind and the button is marked not dealt in (TDA 10B); the bench counts those moves. The peer
in the same run is the floor cost of any plan: copying the seat maps of every table once (what
a plan must at least read). Prints a markdown table.

    .venv/bin/python bench/balancing.py [--entrants 10000] [--seed 7] [--hands-per-bust 16]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tables.balancing import BalanceSettings, apply_plan, plan_balance, verify_plan  # noqa: E402
from tables.positions import TableState, after_hand  # noqa: E402
from tables.seating import TableSpec, draw_opening_seats  # noqa: E402


def opening(entrants: int, rng: random.Random) -> list[TableState]:
    """Random opening seats at tables of 10."""
    count = -(-entrants // 10)
    seating = draw_opening_seats(
        players=list(range(entrants)),
        tables=[TableSpec(table=t) for t in range(1, count + 1)],
        rng=rng,
    )
    by_table: dict[int, dict[int, int]] = {t: {} for t in range(1, count + 1)}
    for s in seating.seats:
        by_table[s.table][s.seat] = s.player
    return [
        TableState.before_first_hand(
            table=t, seats=10, players=seated, button_seat=seating.button_seats[t]
        )
        for t, seated in by_table.items()
    ]


def deal_and_bust(
    tables: list[TableState], rng: random.Random, hands_per_bust: int
) -> list[TableState]:
    """Hands at random tables (their blinds move on); one player of the first table busts."""
    tables = list(tables)
    dealt = rng.sample(range(len(tables)), min(len(tables), 1 + hands_per_bust))
    for index in dealt:
        tables[index] = after_hand(tables[index])  # R2.7: button, small and big blind move on
    table = tables[dealt[0]]
    seated = dict(table.players)
    del seated[rng.choice(sorted(seated))]
    tables[dealt[0]] = replace(table, players=seated)
    return tables


def check(before: list[TableState], after: tuple[TableState, ...], gap: int) -> None:
    """The property checks: nobody lost or duplicated, seats valid, tables within the gap."""
    players_before = sorted(p for t in before for p in t.players.values())
    players_after = sorted(p for t in after for p in t.players.values())
    assert players_before == players_after, "a player was lost or duplicated"
    for t in after:
        assert all(1 <= s <= t.seats for s in t.players), "a seat beyond the table"
    counts = [len(t.players) for t in after]
    assert max(counts) - min(counts) <= gap, "tables out of balance"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entrants", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--hands-per-bust", type=int, default=16)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    settings = BalanceSettings()
    tables = opening(args.entrants, rng)
    order = sorted((t.table for t in tables), reverse=True)  # highest table breaks first
    plan_ms: list[float] = []
    copy_ms: list[float] = []
    moves = {"balance": 0, "table_break": 0, "final_table": 0}
    waiting = 0
    started = time.perf_counter()
    while sum(len(t.players) for t in tables) > 1:
        tables = deal_and_bust(tables, rng, args.hands_per_bust)
        t0 = time.perf_counter()
        plan = plan_balance(tables=tables, break_order=order, settings=settings, rng=rng)
        t1 = time.perf_counter()
        [dict(t.players) for t in tables]  # the peer: read every seat map once
        t2 = time.perf_counter()
        plan_ms.append((t1 - t0) * 1000)
        copy_ms.append((t2 - t1) * 1000)
        verify_plan(tables=tables, plan=plan, settings=settings)
        after = apply_plan(tables=tables, plan=plan)
        check(tables, after, settings.max_gap)
        for m in plan.moves:
            moves[m.reason] += 1
        waiting += sum(not m.dealt_in for m in plan.moves)
        tables = list(after)
    total = time.perf_counter() - started
    rows = [
        ("plan_balance", plan_ms),
        ("peer: copy all seat maps", copy_ms),
    ]
    print(f"{len(plan_ms)} plans, {args.entrants} entrants, seed {args.seed}, all verified")
    print(f"moves: {moves}; dealt in only after the button passes (TDA 10B): {waiting}")
    plans_s = sum(plan_ms) / 1000
    print(f"total run (plans, checks, applying): {total:.1f} s; plans alone {plans_s:.1f} s")
    print()
    print("| operation | median ms | p95 ms | max ms | total s |")
    print("|---|---:|---:|---:|---:|")
    for name, values in rows:
        print(
            f"| {name} | {statistics.median(values):.3f} | {percentile(values, 0.95):.3f} "
            f"| {max(values):.3f} | {sum(values) / 1000:.2f} |"
        )
    ratio = statistics.median(plan_ms) / statistics.median(copy_ms)
    print(f"\nplan / peer (median): {ratio:.1f}x")


if __name__ == "__main__":
    main()
