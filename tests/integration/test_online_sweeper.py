"""The online tables' sweeper run by a real Celery worker and beat on PostgreSQL and Redis
(docs/architecture.md, "Online tables": time-outs and the next deal are server moves applied by
an idempotent sweeper; no timer lives in a web process or a browser).

House bots play hands with nobody pressing anything; a seated player who does nothing is timed
out (R3.10: connected, or never seen to drop, he checks or folds); and a worker and beat killed
in the middle of a hand leave it where it was, to go on from there once they are back.
"""

from __future__ import annotations

import re
import time

import pytest

from tables.engine import Hand
from tables.online import services as online_services
from tables.online.engine import decode_move, start_hand
from tables.online.models import (
    ChipAccount,
    ChipTransfer,
    HandAction,
    OnlineSeat,
    SeatStatus,
    TableHand,
    TransferKind,
)
from tables.online.services import table_chips
from tests.factories import make_user
from tests.integration.conftest import Processes, base_env, wait_until
from tests.integration.test_clock_worker import (
    STARTUP,
    broker,
    start_beat,
    start_worker,
    wait_for_workers,
)
from tests.tables.online_helpers import make_table

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
__all__ = ["broker"]  # the fixture, imported for this module's tests

PLAY = 60.0  # seconds the processes may take to finish a few hands on a loaded machine


@pytest.fixture
def sweeper_env(postgres_test_url: str, redis_test_url: str) -> dict[str, str]:
    return base_env(
        DATABASE_URL=postgres_test_url,
        REDIS_URL=redis_test_url,
        TABLE_SWEEP_SECONDS="0.5",
        CLOCK_RECONCILE_SECONDS="5",
        FLOORMAN_BOTS_PLAY_ALONE="1",
        CONN_MAX_AGE="0",
        LOG_LEVEL="WARNING",
    )


def start_sweeper(processes: Processes, env: dict[str, str], broker) -> None:
    start_beat(processes, env)
    start_worker(processes, env, "tables")
    wait_for_workers(processes, broker, "tables")


def bot_table(floor, *, bots: int, **settings):
    table = make_table(seats=6, actor=floor, **settings)
    for _bot in range(bots):
        online_services.seat_bot(table=table, actor=floor)
    return table


def finished(table) -> int:
    return TableHand.objects.filter(table=table, is_over=True).count()


def replayed(hand: TableHand) -> Hand:
    """The hand replayed by the engine alone from its deck and stored moves."""
    engine = start_hand(hand)
    for record in hand.actions.order_by("sequence").values_list("record", flat=True):
        engine.apply(decode_move(record))
    return engine


def assert_hands_whole(table) -> None:
    """Every hand's moves numbered 1..n, none twice, replaying to what the table stored."""
    for hand in TableHand.objects.filter(table=table):
        sequences = list(hand.actions.order_by("sequence").values_list("sequence", flat=True))
        assert sequences == list(range(1, hand.sequence + 1)), hand
        engine = replayed(hand)
        assert engine.is_over == hand.is_over and engine.actor == hand.actor, hand
        if hand.is_over:
            assert engine.stacks == hand.final_stacks, hand


def assert_chips_conserved(table) -> None:
    seated, ledger = table_chips(table)
    assert seated == ledger
    grants = ChipTransfer.objects.filter(kind=TransferKind.GRANT).values_list("amount", flat=True)
    balances = ChipAccount.objects.values_list("balance", flat=True)
    assert sum(balances) + seated == sum(grants)


def assert_no_task_failed(processes: Processes, name: str) -> None:
    """No sweep failed on the tables' account. A shared database server that refuses a
    connection for a moment fails that one sweep (the next does its work): not counted."""
    log = processes.logs[name].read_text(errors="replace")
    failures = [
        line
        for line in re.findall(r".*(?:raised unexpected|ERROR|could not).*", log)
        if "too many clients already" not in line
    ]
    assert not failures, f"{name}: {failures[:5]}"
    assert "tables.tasks.sweep_tables" in log, f"{name} ran no sweep"


def test_r3_10_a_seated_player_who_does_nothing_is_timed_out_by_the_sweeper(
    processes, sweeper_env, broker, floor_user
):
    # Short clocks: two seconds to act, then the sweeper's time-out (R3.10).
    table = bot_table(floor_user, bots=2, action_seconds=1, countdown_seconds=1)
    idle = make_user(username="idle")
    online_services.take_seat(table=table, user=idle, buy_in=500, number=5, post=True)
    start_sweeper(processes, sweeper_env, broker)

    def timed_out() -> HandAction | None:
        hands = TableHand.objects.filter(table=table, user_ids__contains=[idle.pk])
        for hand in hands:
            position = hand.position_of(idle.pk)
            for action in hand.actions.filter(user__isnull=True).order_by("sequence"):
                if action.record["position"] == position and action.record.get("cause") == "clock":
                    return action
        return None

    action = wait_until(timed_out, timeout=PLAY, what="the idle player's time-out")
    hand = action.hand
    # R3.10: he never opened a stream (no drop seen): he checks where he may, else folds.
    engine = start_hand(hand)
    for record in hand.actions.filter(sequence__lt=action.sequence).order_by("sequence"):
        engine.apply(decode_move(record.record))
    assert action.record["move"] == ("check" if engine.can_check() else "fold")
    assert not HandAction.objects.filter(hand__table=table, user=idle).exists()
    # He is away: he sits out from then on (R2.9), and the bots play on without him.
    seat = OnlineSeat.objects.get(table=table, user=idle)
    assert seat.status == SeatStatus.SITTING_OUT
    dealt_after = hand.number
    wait_until(
        lambda: TableHand.objects.filter(table=table, number__gt=dealt_after, is_over=True),
        timeout=PLAY,
        what="a hand after the time-out",
    )
    later = TableHand.objects.filter(table=table, number__gt=dealt_after + 1)
    assert all(idle.pk not in h.user_ids for h in later)
    assert_hands_whole(table)
    assert_chips_conserved(table)


def kill_mid_hand(processes: Processes, env, broker, table) -> tuple[TableHand, list]:
    """Kill the worker and beat (SIGKILL, maybe inside a sweep) while a hand has moves made
    and more to come; try again if the hand ended in the moment before the kill."""
    for _attempt in range(3):
        wait_until(
            lambda: TableHand.objects.filter(table=table, is_over=False, sequence__gte=1),
            timeout=PLAY,
            what="a hand in progress",
            interval=0.05,
        )
        processes.kill("tables", "beat")
        hand = TableHand.objects.filter(table=table, is_over=False).first()
        if hand is not None and hand.sequence >= 1:
            moves = list(hand.actions.order_by("sequence").values_list("sequence", "record"))
            return hand, moves
        start_sweeper(processes, env, broker)
    pytest.fail("no hand was in progress at the kill, three times")


def test_two_house_bots_play_by_the_beats_sweeper_and_a_killed_worker_loses_no_move(
    processes, sweeper_env, broker, floor_user
):
    table = bot_table(floor_user, bots=2)
    assert TableHand.objects.count() == 0  # nothing deals without the sweeper
    start_sweeper(processes, sweeper_env, broker)
    wait_until(lambda: finished(table) >= 2, timeout=PLAY, what="two bot hands")
    hands = TableHand.objects.filter(table=table, is_over=True)
    assert all(hand.actions.filter(user__isnull=True).count() == hand.sequence for hand in hands)
    assert_hands_whole(table)
    assert_chips_conserved(table)

    # The worker and beat die in the middle of a hand; nothing moves while they are down.
    hand, moves = kill_mid_hand(processes, sweeper_env, broker, table)
    time.sleep(4)  # every bot's thinking time and the next deal fall due meanwhile
    hand.refresh_from_db()
    assert not hand.is_over and hand.actions.count() == hand.sequence == len(moves)

    start_sweeper(processes, sweeper_env, broker)
    wait_until(
        lambda: TableHand.objects.filter(pk=hand.pk, is_over=True).exists(),
        timeout=STARTUP + PLAY,
        what="the interrupted hand to finish after the restart",
    )
    wait_until(lambda: finished(table) >= hand.number + 1, timeout=PLAY, what="the next hand")
    hand.refresh_from_db()
    after = list(hand.actions.order_by("sequence").values_list("sequence", "record"))
    assert after[: len(moves)] == moves  # it went on from where it was
    assert len(after) > len(moves)
    assert_hands_whole(table)
    assert_chips_conserved(table)
    assert_no_task_failed(processes, "tables")


def _sessions() -> int:
    """The PostgreSQL sessions ever opened to the test database (a backend counts itself at
    its start, reported by its exit at the latest)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return int(cursor.fetchone()[0])


def _others() -> int:
    """The backends on the test database other than this test's own."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


def test_the_worker_keeps_its_database_connection_from_one_task_to_the_next(
    processes, sweeper_env, broker, floor_user
):
    """settings.CELERY_DB_REUSE_MAX and config/celery.py: Celery's own fixup closes every
    connection before and after each task, and the worker connected anew for each of the
    sweeper's and the director's ticks (four a second). With CONN_MAX_AGE at 60, as in
    production, one process serves its tasks from one PostgreSQL backend."""
    table = bot_table(floor_user, bots=2)
    env = dict(sweeper_env, CONN_MAX_AGE="60")
    before = _sessions()
    start_sweeper(processes, env, broker)
    log = processes.logs["tables"]

    def swept() -> int:
        return len(re.findall(r"tables\.tasks\.sweep_tables\[[\w-]+\] succeeded", log.read_text()))

    wait_until(
        lambda: finished(table) >= 2 and swept() >= 20, timeout=PLAY, what="20 sweeps, 2 hands"
    )
    processes.stop_all()
    wait_until(lambda: not _others(), timeout=PLAY, what="the worker's backends to end")
    opened = _sessions() - before  # each one counted by its exit at the latest
    assert opened <= 3, f"{opened} sessions for {swept()} sweeps"  # the worker, this test
    assert_chips_conserved(table)


def test_a_kept_connection_the_database_ended_is_opened_again_at_the_next_task(
    processes, sweeper_env, broker, floor_user
):
    """The kept connection dies with its backend (a restart, an administrator): the check
    around the next task sees it unusable and closes it, and the sweeper goes on."""
    from django.db import connection

    table = bot_table(floor_user, bots=2)
    start_sweeper(processes, dict(sweeper_env, CONN_MAX_AGE="60"), broker)
    wait_until(lambda: finished(table) >= 1 and _others() > 0, timeout=PLAY, what="a hand")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    done = finished(table)
    wait_until(lambda: finished(table) >= done + 2, timeout=PLAY, what="two more hands")
    assert_hands_whole(table)
    assert_chips_conserved(table)
