"""One lock order for everything that touches an online table (docs/architecture.md, "Online
tables: one lock order"): the event, its tables in id order, the running hand, then the seats.

Each test runs two real services in two threads on PostgreSQL and lets the first stop, holding
what it has locked, until the second is seen waiting for a lock (pg_stat_activity); then the
first goes on. Taken in two orders, PostgreSQL finds a deadlock and kills one of them ("deadlock
detected ... while updating tuple in relation tables_onlinetable", issue 17); taken in one order,
the second simply waits and both succeed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import connection, connections
from django.utils import timezone

from scoring import online_events
from tables.online import play as online_play
from tables.online.models import OnlineSeat, OnlineTable, TableHand
from tests.factories import make_user
from tests.integration.conftest import wait_until
from tests.scoring.online_event_helpers import online_event, register_bots
from tests.tables.online_helpers import make_table, seat_players

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
CAP = 30.0  # seconds: a generous cap on every wait


def _someone_waits_for_a_lock() -> bool:
    """Whether another connection of this database waits for a row lock now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return bool(cursor.fetchone()[0])


class Race:
    """Two services: ``first`` stops at ``pause`` until ``second`` waits for a lock."""

    def __init__(self) -> None:
        self.first_holds = threading.Event()
        self.second_waits = threading.Event()
        self.errors: dict[str, BaseException] = {}

    def pausing(self, real: Callable[..., Any]) -> Callable[..., Any]:
        """``real``, which in the first thread first waits until the second one is blocked."""
        owner = threading.get_ident

        def paused(*args: Any, **kwargs: Any) -> Any:
            if owner() == self.first_ident and not self.first_holds.is_set():
                self.first_holds.set()
                assert self.second_waits.wait(CAP), "the second service never waited"
            return real(*args, **kwargs)

        return paused

    def _run(self, name: str, work: Callable[[], Any]) -> None:
        try:
            if name == "first":
                self.first_ident = threading.get_ident()
            else:
                assert self.first_holds.wait(CAP), "the first service never got its locks"
            work()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            self.errors[name] = error
        finally:
            connections.close_all()

    def run(self, first: Callable[[], Any], second: Callable[[], Any]) -> None:
        self.first_ident = -1
        threads = [
            threading.Thread(target=self._run, args=("first", first)),
            threading.Thread(target=self._run, args=("second", second)),
        ]
        threads[0].start()
        assert self.first_holds.wait(CAP), f"the first service stopped early: {self.errors}"
        threads[1].start()
        wait_until(
            lambda: _someone_waits_for_a_lock() or "second" in self.errors,
            timeout=CAP,
            what="the second service to wait for a lock",
        )
        self.second_waits.set()
        for thread in threads:
            thread.join(CAP)
            assert not thread.is_alive()


def test_a_move_and_a_player_sitting_out_at_the_same_table_do_not_deadlock(monkeypatch):
    table = make_table()
    users = seat_players(table, ["ann", "bob", "cid"])
    hand = online_play.deal_hand(table=table, now=timezone.now() + timedelta(seconds=5))
    assert hand is not None
    actor = users[[u.pk for u in users].index(hand.user_ids[hand.actor])]
    other = next(u for u in users if u.pk != actor.pk)
    race = Race()
    # The move stops once it holds its locks, before the engine checks it.
    monkeypatch.setattr(online_play, "_make", race.pausing(online_play._make))
    race.run(
        lambda: online_play.act(
            table=table, user=actor, hand_id=hand.pk, sequence=hand.sequence, action="fold"
        ),
        lambda: online_play.sit_out(table=table, user=other),
    )
    assert race.errors == {}
    hand.refresh_from_db()
    assert hand.actions.filter(user=actor).count() == 1
    assert OnlineSeat.objects.get(table=table, user=other).status == "sitting_out"


def _finished_hand_with_a_bust(event) -> tuple[TableHand, datetime]:
    """Play the event's first hand, then let its last position have lost every chip to the
    first (the stacks and the hand's result moved together: the event's chips still add up),
    a hand the director records (R5.6)."""
    now = timezone.now() + timedelta(seconds=10)
    online_events.tick(event_id=event.pk, now=now)
    table = OnlineTable.objects.get(event=event)
    for _step in range(400):
        online_play.sweep(now=now)
        if TableHand.objects.filter(table=table, is_over=True).exists():
            break
        now += timedelta(seconds=5)
    hand = TableHand.objects.get(table=table, is_over=True)
    _bust_the_last_position(hand)
    return hand, now


def _bust_the_last_position(hand: TableHand) -> None:
    """Let the finished hand's last position, and only it, have lost every chip: the hand's
    chips are shared among the others (the stacks and the hand's result moved together: the
    event's chips still add up), unrecorded: a hand the director records (R5.6). Shared, not
    given to one: the bots' own hand may already have busted another position (an all-in on
    a short stack), and two busts would leave the table another count than the test's."""
    total, others = sum(hand.final_stacks), len(hand.final_stacks) - 1
    final = [total // others] * others + [0]
    final[0] += total % others
    hand.final_stacks = final
    hand.results_recorded = False
    hand.save(update_fields=["final_stacks", "results_recorded"])
    for position, number in enumerate(hand.seat_numbers):
        OnlineSeat.objects.filter(table=hand.table, number=number).update(stack=final[position])


def test_the_director_recording_a_bust_and_the_sweeper_dealing_do_not_deadlock(monkeypatch):
    event = online_event(start_players=3)
    register_bots(event, 3, make_user(username="floor", role="floor"))
    hand, now = _finished_hand_with_a_bust(event)
    table = hand.table
    race = Race()
    # The director stops after deleting the busted player's seat, before it bumps the table.
    monkeypatch.setattr(online_events, "_changed", race.pausing(online_events._changed))
    race.run(
        lambda: online_events.tick(event_id=event.pk, now=now),
        lambda: online_play.deal_hand(table=table, now=now),
    )
    assert race.errors == {}
    hand.refresh_from_db()
    assert hand.results_recorded
    assert OnlineSeat.objects.filter(table=table).count() == 2


def _plan_race_tables(event) -> tuple[OnlineTable, OnlineTable, TableHand, datetime]:
    """Eleven house bots at two tables (six and five). The five's first hand is over with a
    bust the director has yet to place (so it plans to move a player from the six, TDA 11D:
    six against four); the six's first hand waits for its last fold. Nobody moves by himself:
    the test plays every move."""
    from django.contrib.auth.models import User  # noqa: PLC0415

    now = timezone.now() + timedelta(seconds=10)
    online_events.tick(event_id=event.pk, now=now)
    tables = list(OnlineTable.objects.filter(event=event).order_by("pk"))
    big, small = sorted(tables, key=lambda t: -OnlineSeat.objects.filter(table=t).count())
    assert OnlineSeat.objects.filter(table=big).count() == 6
    hands = {}
    for table in (small, big):
        hand = online_play.deal_hand(table=table, now=now)
        assert hand is not None
        hands[table.pk] = hand
    users = User.objects.in_bulk(hands[big.pk].user_ids + hands[small.pk].user_ids)

    def fold(hand: TableHand, *, until_two_left: bool) -> TableHand:
        while not hand.is_over:
            engine = online_play.engine_of(hand)
            if until_two_left and engine.folded.count(False) == 2:
                return hand
            online_play.act(
                table=hand.table, user=users[hand.user_ids[engine.actor]], hand_id=hand.pk,
                sequence=hand.sequence, action="fold", now=now,
            )  # fmt: skip
            hand.refresh_from_db()
        return hand

    _bust_the_last_position(fold(hands[small.pk], until_two_left=False))
    return big, small, fold(hands[big.pk], until_two_left=True), now


def _last_fold(hand: TableHand, now: datetime) -> Callable[[], Any]:
    from django.contrib.auth.models import User  # noqa: PLC0415

    engine = online_play.engine_of(hand)
    actor = User.objects.get(pk=hand.user_ids[engine.actor])
    return lambda: online_play.act(
        table=hand.table, user=actor, hand_id=hand.pk, sequence=hand.sequence, action="fold",
        now=now,
    )  # fmt: skip


@pytest.mark.parametrize("first", ["director", "hand"])
def test_tda_11d_a_plan_made_while_a_hand_ends_at_its_table_is_carried_out_between_hands(
    monkeypatch, first
):
    # TDA 11D: the director's bust at the small table makes a plan that takes a player from the
    # big one, while the big table's hand ends. Whichever holds the big table's lock first,
    # the plan is carried out between that table's hands, never during one: the director
    # plans with every table locked, and the hand's end reads the pending plan under its
    # table's lock (waits_for_the_director), so it either sees the plan and waits for the
    # director, or ends first and the director finds the table between hands.
    from tables.models import FloorStep, Move, StepStatus  # noqa: PLC0415

    event = online_event(start_players=11, table_size=6)
    register_bots(event, 11, make_user(username="floor", role="floor"))
    big, small, hand, now = _plan_race_tables(event)
    race = Race()
    director = lambda: online_events.tick(event_id=event.pk, now=now)  # noqa: E731
    if first == "director":
        # The director stops once it has placed the bust and made the plan, every table locked.
        monkeypatch.setattr(online_events, "_balance", race.pausing(online_events._balance))
        race.run(director, _last_fold(hand, now))
    else:
        # The hand's end stops under its table's lock, before it reads the pending plan.
        real = online_play.online_tournament.waits_for_the_director
        monkeypatch.setattr(
            online_play.online_tournament, "waits_for_the_director", race.pausing(real)
        )
        race.run(_last_fold(hand, now), director)
    assert race.errors == {}
    hand.refresh_from_db()
    assert hand.is_over and all(hand.final_stacks)  # the last fold ended it, nobody busted
    moves = Move.objects.filter(step__event=event, from_table=big.floor_table)
    if first == "director":
        # The plan came first: the hand saw it and waits for the director, who moves the
        # player at the next tick, the big table between hands (no deal came in between).
        assert not hand.results_recorded
        assert moves.filter(step__status=StepStatus.PENDING).exists()
        online_play.sweep(now=now + timedelta(seconds=30))
        assert not TableHand.objects.filter(table=big, number=2).exists()
        online_events.tick(event_id=event.pk, now=now + timedelta(seconds=30))
        hand.refresh_from_db()
        assert hand.results_recorded
    # Either way the plan is carried out now and the tables sit five and five.
    assert not FloorStep.objects.filter(event=event, status=StepStatus.PENDING).exists()
    assert moves.filter(step__status=StepStatus.DONE).count() == 1
    assert OnlineSeat.objects.filter(table=big).count() == 5
    assert OnlineSeat.objects.filter(table=small).count() == 5
    online_events.check_chips(event)  # every chip accounted for
