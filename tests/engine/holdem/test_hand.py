"""Whole hands: blinds and antes (R2), action order (R3.2), time-outs (R3.10), replays."""

import pytest

from tables.engine import (
    AnteMode,
    Betting,
    Blind,
    Cause,
    DealHole,
    Fold,
    Hand,
    IllegalAction,
    PostAnte,
    PostBlind,
    Street,
    TimeOut,
    limit_small_blind,
    new_deck,
    parse_cards,
)
from tests.engine.factories import chips, make_hand, make_rules


def test_r2_1_blinds_left_of_button_and_first_card_to_small_blind():
    hand = Hand.start(rules=make_rules(), stacks=[1000] * 4, button=1, deck=new_deck())
    assert hand.records[:2] == [
        PostBlind(seat=2, blind=Blind.SMALL, amount=50),
        PostBlind(seat=3, blind=Blind.BIG, amount=100),
    ]
    deals = [r for r in hand.records if isinstance(r, DealHole)]
    assert [d.seat for d in deals] == [2, 3, 0, 1]
    # One card at a time from the top of the deck, the small blind first.
    assert hand.hole_cards == [(2, 6), (3, 7), (0, 4), (1, 5)]
    assert hand.stacks == [1000, 1000, 950, 900]
    assert hand.bets == [0, 0, 50, 100]
    assert hand.actor == 0  # R3.2: left of the big blind
    # Burn one card before each street.
    hand.call()
    hand.call()
    hand.call()
    hand.check()
    assert hand.street is Street.FLOP
    assert hand.board == [9, 10, 11]


def test_r2_4_limit_small_blind_is_half_the_small_bet_rounded_down():
    assert limit_small_blind(5) == 2
    assert limit_small_blind(10) == 5
    rules = make_rules(betting=Betting.LIMIT, blinds=(limit_small_blind(5), 5))
    hand = make_hand(rules=rules, stacks=[100, 100, 100])
    assert hand.bets == [0, 2, 5]
    assert rules.limit_small_bet == 5
    assert rules.limit_big_bet == 10


def test_r2_5_live_big_blind_may_check_or_raise():
    hand = make_hand(stacks=[1000, 1000, 1000])
    hand.call()  # button limps
    hand.call()  # small blind completes
    assert hand.actor == 2
    assert hand.can_check() and hand.can_raise() and not hand.can_fold()
    assert hand.min_raise_to() == 200
    hand.raise_to(300)
    assert hand.actor == 0
    hand.call()
    hand.call()
    assert hand.street is Street.FLOP
    assert hand.pot_total == 900


def test_r2_5_big_blind_checks_option_and_flop_starts_left_of_button():
    hand = make_hand(stacks=[1000, 1000, 1000])
    hand.call()
    hand.call()
    hand.check()
    assert hand.street is Street.FLOP
    assert hand.actor == 1  # R3.2: first active player left of the button
    assert hand.pot_total == 300


def test_r2_8_heads_up_button_posts_small_blind_acts_first_preflop_last_after():
    hand = make_hand(stacks=[1000, 1000], button=1)
    assert hand.small_blind_seat == 1
    assert hand.big_blind_seat == 0
    assert hand.bets == [100, 50]
    assert hand.actor == 1  # the button acts first before the flop
    hand.call()
    hand.check()
    assert hand.street is Street.FLOP
    assert hand.actor == 0  # and last after it
    hand.check()
    assert hand.actor == 1


def test_r2_7_dead_small_blind_nobody_posts_it():
    hand = make_hand(stacks=[1000] * 4, button=0, dead_small_blind=True, big_blind_seat=2)
    assert hand.small_blind_seat is None
    assert hand.bets == [0, 0, 100, 0]
    assert hand.actor == 3
    hand.call()
    hand.call()  # button
    hand.call()  # seat 1, no blind in
    assert hand.actor == 2
    hand.check()
    assert hand.street is Street.FLOP
    assert hand.pot_total == 400
    assert hand.actor == 1  # left of the button


def test_r2_7_dead_button_is_the_player_right_of_the_empty_seat():
    # Seats 0..2; the button seat between 2 and 0 is empty: seat 2 acts last after the flop.
    hand = make_hand(stacks=[1000] * 3, button=2, small_blind_seat=0, big_blind_seat=1)
    assert hand.bets == [50, 100, 0]
    assert hand.actor == 2
    hand.call()
    hand.call()
    hand.check()
    assert hand.actor == 0


def test_r2_9_absent_player_checks_where_allowed_else_folds():
    hand = make_hand(stacks=[1000, 1000, 1000])
    record = hand.absent()
    assert record == Fold(seat=0, cause=Cause.ABSENT)
    hand.call()
    record = hand.absent()  # the big blind may check
    assert record.cause is Cause.ABSENT
    assert hand.street is Street.FLOP


def test_r2_10_short_small_blind_is_all_in_for_what_he_has():
    hand = make_hand(stacks=[1000, 30, 1000])
    assert hand.records[0] == PostBlind(seat=1, blind=Blind.SMALL, amount=30, all_in=True)
    hand.call()
    hand.check()
    assert hand.street is Street.FLOP
    assert hand.pots[0].amount == 90
    assert hand.pots[1].amount == 140


def test_r2_10_short_big_blind_others_still_call_the_full_big_blind():
    hand = make_hand(stacks=[1000, 1000, 60], hole=["AsAh", "KsKh", "2c7d"], board="QcJd9s3h4c")
    assert hand.bets == [0, 50, 60]
    assert hand.call_amount() == 100
    assert not hand.can_check()
    assert hand.min_raise_to() == 200
    hand.call()
    assert hand.call_amount() == 50
    hand.call()
    assert hand.street is Street.FLOP
    assert hand.pot_total == 260
    hand.check()
    hand.check()
    hand.check()
    hand.check()
    hand.check()
    hand.check()
    assert hand.is_over
    assert hand.stacks == [1160, 900, 0]
    assert hand.pot_winners == [(0,), (0,)]


def test_r2_10_heads_up_short_big_blind_small_blind_owes_only_the_difference():
    hand = make_hand(stacks=[1000, 60], button=0, hole=["AsAh", "KsKh"], board="QcJd9s3h4c")
    assert hand.call_amount() == 10
    hand.call()
    assert hand.is_over
    assert hand.stacks == [1060, 0]


def test_ante_every_player_is_dead_money_and_short_ante_goes_all_in():
    rules = make_rules(ante=10, ante_mode=AnteMode.EVERY_PLAYER)
    hand = make_hand(rules=rules, stacks=[1000, 1000, 1000, 5])
    antes = [r for r in hand.records if isinstance(r, PostAnte)]
    assert [(a.seat, a.amount, a.all_in) for a in antes] == [
        (1, 10, False), (2, 10, False), (3, 5, True), (0, 10, False),
    ]  # fmt: skip
    assert hand.bets == [0, 50, 100, 0]
    assert hand.pot_total == 35 + 150
    assert hand.actor == 0  # seat 3 is all-in from the ante
    assert chips(hand) == 3005


def test_big_blind_ante_blind_first_when_short():
    rules = make_rules(ante=100, ante_mode=AnteMode.BIG_BLIND)
    hand = make_hand(rules=rules, stacks=[1000, 1000, 150])
    assert hand.records[1:3] == [
        PostBlind(seat=2, blind=Blind.BIG, amount=100),
        PostAnte(seat=2, amount=50, all_in=True),
    ]
    assert hand.bets == [0, 50, 100]
    assert hand.pot_total == 200


def test_r3_2_action_order_preflop_left_of_big_blind_then_left_of_button():
    hand = make_hand(stacks=[1000] * 5, button=2)
    order = []
    while hand.street is Street.PREFLOP:
        order.append(hand.actor)
        if hand.can_check():
            hand.check()
        else:
            hand.call()
    assert order == [0, 1, 2, 3, 4]
    assert hand.actor == 3


def test_r3_10_time_out_with_chips_in_stays_in_protected():
    hand = make_hand(stacks=[1000, 1000, 1000], hole=["2c7d", "AsAh", "KsKh"], board="QcJd9s3h4c")
    hand.raise_to(300)
    # The small blind has chips in (50): he stays in, protected.
    assert hand.time_out() == TimeOut(seat=1)
    assert hand.actor == 2
    hand.raise_to(1000)
    hand.fold()
    assert hand.is_over
    # Seat 1 wins the 150 he could (50 from each), the big blind gets the rest.
    assert hand.stacks == [700, 1100, 1200]
    assert chips(hand) == 3000


def test_r3_10_time_out_with_nothing_in_folds():
    hand = make_hand(stacks=[1000, 1000, 1000])
    assert hand.time_out() == Fold(seat=0, cause=Cause.TIME_OUT)


def test_acting_out_of_turn_or_after_the_hand_is_refused():
    hand = make_hand(stacks=[1000, 1000])
    with pytest.raises(IllegalAction, match="turn"):
        hand.fold(seat=1)
    hand.fold(seat=0)
    assert hand.is_over
    with pytest.raises(IllegalAction, match="over"):
        hand.check()
    assert hand.stacks == [950, 1050]


def test_replay_reproduces_the_hand_and_refuses_altered_records():
    hand = make_hand(stacks=[1000, 700, 400])
    hand.raise_to(250)
    hand.raise_to(700)
    hand.call()
    hand.call()
    assert hand.is_over
    again = Hand.replay(rules=hand.rules, stacks=[1000, 700, 400], button=0, records=hand.records)
    assert again.records == hand.records
    assert again.stacks == hand.stacks
    altered = list(hand.records)
    altered[-1] = altered[-2]
    with pytest.raises(ValueError, match="the records are not what replaying their moves"):
        Hand.replay(rules=hand.rules, stacks=[1000, 700, 400], button=0, records=altered)


def test_unknown_hole_cards_replay_and_lose_to_a_shown_hand():
    hand = make_hand(stacks=[1000, 1000], hole=[None, "2c3d"], board="KcKdKsQhJh")
    hand.call()
    for _ in range(7):
        hand.check()
    assert hand.is_over
    assert hand.stacks == [900, 1100]


def test_explicit_cards_are_checked():
    with pytest.raises(ValueError, match="the card As appears twice"):
        make_hand(stacks=[1000, 1000], hole=["AsAh", "AsKd"])
    assert parse_cards("As")
