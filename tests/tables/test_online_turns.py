"""Online tables: what a hand keeps once it has moved on: a time-out meant for an earlier turn
changes nothing (R3.10), and the blinds posted hold for the whole hand (R2.11)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tables.online import play as online_play
from tables.online.models import HandAction, OnlineSeat, SeatStatus
from tests.factories import make_event, make_structure, make_user
from tests.tables.online_helpers import make_table, seat_players
from tournaments.services import ClockAction, act_on_clock

pytestmark = pytest.mark.django_db


def test_r3_10_a_time_out_for_a_turn_the_hand_has_moved_past_changes_nothing():
    # The sweeper read the hand at sequence 0; alice moved before it applied the time-out. Even
    # long past every deadline, the stale time-out must not touch bob, whose turn it is now.
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    hand = online_play.deal_hand(table=table)
    stale = hand.sequence
    online_play.act(table=table, user=alice, hand_id=hand.pk, sequence=stale, action="call")
    hand.refresh_from_db()
    before = (hand.sequence, hand.actor, hand.deadline, hand.bank_used)
    assert hand.user_ids[hand.actor] == bob.pk
    much_later = hand.deadline + timedelta(hours=1)
    assert not online_play.expire_turn(hand_id=hand.pk, sequence=stale, now=much_later)
    hand.refresh_from_db()
    assert (hand.sequence, hand.actor, hand.deadline, hand.bank_used) == before
    assert HandAction.objects.filter(hand=hand).count() == 1  # alice's call only
    assert set(OnlineSeat.objects.filter(table=table).values_list("status", flat=True)) == {
        SeatStatus.PLAYING
    }
    # The time-out of the turn the hand is at still applies: the guard is not "never".
    assert online_play.expire_turn(hand_id=hand.pk, sequence=hand.sequence, now=much_later)
    assert OnlineSeat.objects.get(user=bob).status == SeatStatus.SITTING_OUT
    assert carol  # dealt in, untouched


def test_r2_11_a_hand_dealt_just_before_the_level_changed_plays_its_own_blinds_to_the_end():
    # The real clock is 5 s into level 2 (50/100 ante 10) when the moves are made; the hand was
    # dealt a second before level 1 (25/50) ended. Every move, made now, still sees 25/50.
    start = timezone.now() - timedelta(minutes=10, seconds=5)
    structure = make_structure(levels=((25, 50, 0, 10), (50, 100, 10, 10)))
    event = make_event(structure=structure)
    act_on_clock(
        event_id=event.pk, actor=make_user(username="director", role="floor"),
        action=ClockAction.START, now=start,
    )  # fmt: skip
    table = make_table(event=event)
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    hand = online_play.deal_hand(table=table, now=start + timedelta(minutes=9, seconds=59))
    assert hand.level_index == 0
    assert [hand.rules[k] for k in ("small_blind", "big_blind", "ante")] == [25, 50, 0]
    engine = online_play.engine_of(hand)
    assert engine.min_raise_to() == 100  # 50 more than the 50 big blind
    # alice raises to 100: a raise at 25/50, less than a raise at 50/100.
    online_play.act(table=table, user=alice, hand_id=hand.pk, sequence=0, action="raise",
                    amount=100)  # fmt: skip
    hand.refresh_from_db()
    assert online_play.engine_of(hand).min_raise_to() == 150
    online_play.act(table=table, user=bob, hand_id=hand.pk, sequence=1, action="fold")
    # carol's time runs out: the sweeper's time-out, at the new level too, folds her hand.
    hand.refresh_from_db()
    assert hand.user_ids[hand.actor] == carol.pk
    assert online_play.expire_turn(
        hand_id=hand.pk, sequence=hand.sequence, now=hand.deadline + timedelta(seconds=1)
    )
    hand.refresh_from_db()
    assert hand.is_over
    assert [hand.rules[k] for k in ("small_blind", "big_blind", "ante")] == [25, 50, 0]
    # The blinds as posted: bob's 25 and carol's 50 went to alice; no ante was taken.
    stacks = dict(zip(hand.user_ids, hand.final_stacks, strict=True))
    assert stacks == {alice.pk: 1_075, bob.pk: 975, carol.pk: 950}
    # The next hand is dealt at the level now in force.
    second = online_play.deal_hand(table=table)
    assert [second.rules[k] for k in ("small_blind", "big_blind", "ante")] == [50, 100, 10]
