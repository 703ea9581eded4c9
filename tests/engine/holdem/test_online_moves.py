"""The engine's moves for online tables: a connected player's time-out (R3.10) and a big blind
posted out of turn to play at once (R2.6), in hands, replays and PHH."""

import pytest

from tables.engine import Blind, Cause, Check, Fold, Hand, PostBlind, TimeOut, new_deck
from tables.engine.phh import read, write
from tests.engine.factories import chips, make_rules


def test_r3_10_connected_time_out_checks_where_he_may():
    hand = Hand.start(rules=make_rules(), stacks=[1000] * 3, button=0, deck=new_deck())
    hand.call()
    hand.call()
    # The big blind may check: his time runs out, he checks and the flop comes.
    assert hand.out_of_time() == Check(seat=2, cause=Cause.CLOCK)
    assert hand.board


def test_r3_10_connected_time_out_folds_facing_a_bet_even_with_chips_in():
    hand = Hand.start(rules=make_rules(), stacks=[1000] * 3, button=0, deck=new_deck())
    hand.raise_to(300)
    # The small blind has 50 in; connected, he gets no all-in protection: he folds.
    assert hand.out_of_time() == Fold(seat=1, cause=Cause.CLOCK)
    assert not hand.protected[1]
    assert hand.folded[1]


def test_r3_10_connected_time_out_replays_from_its_records():
    hand = Hand.start(rules=make_rules(), stacks=[1000] * 3, button=0, deck=new_deck())
    hand.raise_to(300)
    hand.out_of_time()
    hand.time_out()  # the big blind's connection dropped: protected (R3.10)
    again = Hand.replay(
        rules=make_rules(), stacks=[1000] * 3, button=0, records=hand.records, deck=new_deck()
    )
    assert again.records == hand.records
    assert again.stacks == hand.stacks


def test_r2_6_a_posted_big_blind_is_live_and_keeps_the_option():
    hand = Hand.start(rules=make_rules(), stacks=[1000] * 4, button=0, deck=new_deck(), posts=[3])
    assert PostBlind(seat=3, blind=Blind.BIG, amount=100) in hand.records
    assert hand.pot_total == 250
    assert hand.actor == 3  # left of the big blind, he has his blind in already
    assert hand.can_check() and hand.can_raise()
    hand.check()
    hand.call()  # the button
    hand.call()  # the small blind
    assert hand.actor == 2  # the big blind's option comes last
    hand.check()
    assert hand.board and hand.pot_total == 400
    while not hand.is_over:
        hand.check()
    assert chips(hand) == 4000


def test_r2_6_the_blinds_cannot_post_again():
    with pytest.raises(ValueError, match="R2.6"):
        Hand.start(rules=make_rules(), stacks=[1000] * 4, button=0, deck=new_deck(), posts=[2])


def test_phh_round_trips_a_posted_big_blind_and_a_protected_time_out():
    hand = Hand.start(rules=make_rules(), stacks=[1000] * 4, button=0, deck=new_deck(), posts=[3])
    hand.raise_to(400)  # the poster raises
    hand.out_of_time()  # the button folds, connected
    hand.time_out()  # the small blind dropped: protected with his 50 in
    hand.call()  # the big blind
    while not hand.is_over:
        hand.check()
    text = write(hand)
    assert "_floorman_posted_big_blinds = [3]" in text
    assert "_floorman_time_out" in text
    again = read(text)
    assert again.stacks == [hand.stacks[(k + 1) % 4] for k in range(4)]
    assert any(isinstance(record, TimeOut) for record in again.records)
