"""What one move costs at move 5 and at move 60 of a hand, with its engine state kept
(tables.online.kept) and without it (every move replays the hand from its rows: the old design).

Recreates a PostgreSQL database (``--database``, by default ``floorman_bench_move``), opens
``--tables`` tables of 6 players with deep stacks and, at each, plays one hand of min-raises
through ``tables.online.play.act`` (the service a POST calls) to move 60. Each move's cost is
this process's CPU time, the publishing after the commit included (the machine is shared: wall
time there measures the neighbours), recorded by the sequence it made, in two passes on fresh
hands: ``kept`` (the product) and ``replay`` (the kept states dropped before every move, this
process's and the cache's). Printed: the median ms of a move at sequence 5 and at 60 in each
pass, and their ratio; then the median cost of a house bot's move applied by the sweeper
(``expire_turn``) at a table of six bots, beside a player's. Not a timed test: the ratios in
one run are what to read.

    .venv/bin/python -m bench.online_move_cost
    .venv/bin/python -m bench.online_move_cost --tables 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.online_mtt import setup_django  # noqa: E402 - after the path

SEQUENCES = (5, 60)


def play_hand(table: Any, users: dict[int, Any], *, replay: bool) -> dict[int, float]:
    """One hand of min-raises to move 60: each move's seconds by the sequence it made."""
    from django.core.cache import cache

    from tables.online import kept
    from tables.online import play as online_play
    from tables.online.models import TableHand

    hand = online_play.deal_hand(table=table)
    assert hand is not None
    seconds: dict[int, float] = {}
    while hand.sequence < max(SEQUENCES):
        engine = online_play.engine_of(hand)
        if replay:
            kept.forget_local()
            cache.clear()
        user = users[hand.user_ids[engine.actor]]
        begin = time.process_time()
        online_play.act(
            table=table, user=user, hand_id=hand.pk, sequence=hand.sequence, action="raise",
            amount=engine.min_raise_to(),
        )  # fmt: skip
        hand = TableHand.objects.get(pk=hand.pk)
        seconds[hand.sequence] = time.process_time() - begin
    return seconds


def run(tables: int) -> dict[str, dict[int, float]]:
    from django.contrib.auth.models import User

    from tables.online import play as online_play
    from tables.online import services as online_services
    from tables.online.models import TableHand

    floor = User.objects.create_user("floor-bench", password="x", is_staff=True)  # noqa: S106
    results: dict[str, dict[int, list[float]]] = {"kept": {}, "replay": {}}
    for number in range(tables):
        table = online_services.open_table(
            actor=floor, name=f"Bench {number}", seats=6, small_blind=1, big_blind=2,
            min_buy_in=1_000, max_buy_in=10**8,
        )  # fmt: skip
        users = {}
        for seat in range(1, 7):
            user = User.objects.create_user(f"p{number}-{seat}", password="x")  # noqa: S106
            online_services.grant_chips(user=user, amount=10**8, actor=floor)
            online_services.take_seat(table=table, user=user, buy_in=10**8, number=seat)
            users[user.pk] = user
        for design in ("kept", "replay"):
            for sequence, seconds in play_hand(table, users, replay=design == "replay").items():
                results[design].setdefault(sequence, []).append(seconds)
            running = TableHand.objects.get(table=table, is_over=False)
            for _fold in range(5):
                engine = online_play.engine_of(running)
                online_play.act(
                    table=table, user=users[running.user_ids[engine.actor]], hand_id=running.pk,
                    sequence=running.sequence, action="fold",
                )  # fmt: skip
                running.refresh_from_db()
                if running.is_over:
                    break
            online_services.OnlineTable.objects.filter(pk=table.pk).update(next_hand_at=None)
    return {
        design: {s: statistics.median(by[s]) * 1000 for s in SEQUENCES}
        for design, by in results.items()
    }


def bot_moves(count: int) -> list[float]:
    """House bots' moves applied by the sweeper's ``expire_turn``: each one's CPU seconds."""
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.auth.models import User
    from django.utils import timezone

    from tables.online import play as online_play
    from tables.online import services as online_services
    from tables.online.models import TableHand

    settings.FLOORMAN_BOTS_PLAY_ALONE = True
    floor = User.objects.get(username="floor-bench")
    table = online_services.open_table(
        actor=floor, name="Bots", seats=6, small_blind=1, big_blind=2, max_buy_in=10**6
    )
    for _seat in range(6):
        online_services.seat_bot(table=table, actor=floor)
    now = timezone.now()
    seconds: list[float] = []
    while len(seconds) < count:
        now += timedelta(seconds=30)
        hand = TableHand.objects.filter(table=table, is_over=False).first()
        if hand is None:
            online_play.deal_hand(table=table, now=now)
            continue
        begin = time.process_time()
        online_play.expire_turn(hand_id=hand.pk, sequence=hand.sequence, now=now)
        seconds.append(time.process_time() - begin)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--bot-moves", type=int, default=200)
    parser.add_argument("--database", default="floorman_bench_move")
    args = parser.parse_args()
    setup_django(args.database)
    report = run(args.tables)
    for design, by in report.items():
        line = ", ".join(f"move {s}: {ms:.2f} ms" for s, ms in by.items())
        print(f"{design:7} {line}; 60/5 = {by[60] / by[5]:.2f}")
    print(f"replay/kept at move 60: {report['replay'][60] / report['kept'][60]:.2f}")
    bots = statistics.median(bot_moves(args.bot_moves)) * 1000
    print(f"a house bot's move (expire_turn, median of {args.bot_moves}): {bots:.2f} ms")


if __name__ == "__main__":
    main()
