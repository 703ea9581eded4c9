"""Online tables and time: an event's blind clock (R2.11), the action clock's time bank and a
reconnect's extra time (R3.10)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.online import live as online_live
from tables.online import play as online_play
from tables.online.models import HandAction, OnlineSeat, Presence, TableHand
from tests.factories import make_event, make_structure, make_user
from tests.tables.online_helpers import make_table, seat_players
from tournaments.services import ClockAction, act_on_clock

pytestmark = pytest.mark.django_db


def started_event(*, at):
    structure = make_structure(levels=((25, 50, 0, 10), (50, 100, 10, 10)), breaks_after=(1,))
    event = make_event(structure=structure)
    floor = make_user(username="director", role="floor")
    act_on_clock(event_id=event.pk, actor=floor, action=ClockAction.START, now=at)
    return event


def test_r2_11_a_hand_keeps_the_level_in_force_when_its_blinds_were_posted():
    start = timezone.now() - timedelta(minutes=9, seconds=59)
    event = started_event(at=start)
    table = make_table(event=event)
    alice, bob, _carol = seat_players(table, ["alice", "bob", "carol"])
    hand = online_play.deal_hand(table=table, now=start + timedelta(minutes=9, seconds=59))
    assert (hand.rules["small_blind"], hand.rules["big_blind"]) == (25, 50)
    assert hand.level_index == 0
    # The clock moves to 50/100 ante 10 during the hand: this hand still plays 25/50.
    later = start + timedelta(minutes=10, seconds=30)
    online_play.act(table=table, user=alice, hand_id=hand.pk, sequence=0, action="raise",
                    amount=100, now=later)  # fmt: skip
    assert online_play.engine_of(hand).min_raise_to() == 150  # raised by the 50 big blind
    online_play.act(table=table, user=bob, hand_id=hand.pk, sequence=1, action="fold", now=later)
    hand.refresh_from_db()
    online_play.act(table=table, user=_carol, hand_id=hand.pk, sequence=2, action="fold",
                    now=later)  # fmt: skip
    second = online_play.deal_hand(table=table, now=later)
    assert (second.rules["big_blind"], second.rules["ante"]) == (100, 10)


def test_a_break_on_the_event_clock_pauses_the_dealing():
    start = timezone.now() - timedelta(minutes=25)
    event = started_event(at=start)  # levels of 10 minutes, then a break after level 2
    table = make_table(event=event)
    seat_players(table, ["alice", "bob"])
    assert online_play.deal_hand(table=table, now=start + timedelta(minutes=21)) is None
    table.refresh_from_db()
    assert table.next_hand_at is not None  # it looks again soon
    assert not TableHand.objects.filter(table=table).exists()


def test_r3_10_the_time_bank_runs_after_the_action_clock_and_refills():
    table = make_table(time_bank_seconds=30, time_bank_refill_hands=1)
    alice, bob = seat_players(table, ["alice", "bob"])
    assert OnlineSeat.objects.get(user=alice).time_bank == 30
    hand = online_play.deal_hand(table=table)
    hand.refresh_from_db()
    first_deadline = hand.deadline
    assert online_play.expire_turn(hand_id=hand.pk, sequence=0, now=first_deadline)
    hand.refresh_from_db()
    assert hand.bank_used and hand.deadline == first_deadline + timedelta(seconds=30)
    assert not HandAction.objects.filter(hand=hand).exists()  # no move: the bank runs
    # She acts 10 s into her bank: 20 s are left of it.
    online_play.act(table=table, user=alice, hand_id=hand.pk, sequence=0, action="call",
                    now=first_deadline + timedelta(seconds=10))  # fmt: skip
    assert OnlineSeat.objects.get(user=alice).time_bank == 20
    online_play.act(table=table, user=bob, hand_id=hand.pk, sequence=1, action="check")
    hand.refresh_from_db()
    while not hand.is_over:
        actor = alice if hand.user_ids[hand.actor] == alice.pk else bob
        online_play.act(table=table, user=actor, hand_id=hand.pk, sequence=hand.sequence,
                        action="check")  # fmt: skip
        hand.refresh_from_db()
    assert OnlineSeat.objects.get(user=alice).time_bank == 30  # refilled every hand here


def test_r3_10_a_player_back_before_his_time_ran_out_gets_20_seconds_more_once():
    table = make_table()
    alice, _bob = seat_players(table, ["alice", "bob"])
    hand = online_play.deal_hand(table=table)
    hand.refresh_from_db()
    deadline = hand.deadline
    Presence.objects.create(user=alice, streams=0, dropped_at=timezone.now())
    online_live.stream_opened(alice.pk)  # she is back
    hand.refresh_from_db()
    assert hand.deadline == deadline + timedelta(seconds=20)
    online_live.stream_closed(alice.pk)
    online_live.stream_opened(alice.pk)  # once a turn
    hand.refresh_from_db()
    assert hand.deadline == deadline + timedelta(seconds=20)
    assert online_play.is_connected(alice.pk, now=timezone.now())
