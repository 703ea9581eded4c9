"""A staged all-in runout (Rules.staged_runout): with the betting closed and at most one player
able to act, the hand waits before each street for the server's ``deal_street``; its records are
those of the same hand run out at once, so histories and PHH do not change."""

from __future__ import annotations

import random

import pytest

from tables.engine import (
    DealBoard,
    DrawHand,
    Hand,
    IllegalAction,
    NextStreet,
    Street,
    new_deck,
    parse_cards,
)
from tests.engine.factories import chips, make_rules

STAGED = make_rules(staged_runout=True)
AT_ONCE = make_rules()


def _all_in_preflop(rules, deck):
    hand = Hand.start(rules=rules, stacks=[1000, 1000, 500], button=0, deck=deck)
    hand.raise_to(1000)  # the button, all-in
    hand.fold()  # the small blind
    hand.call()  # the big blind, all-in for 500
    return hand


def test_the_staged_hand_waits_before_each_street_and_ends_as_the_hand_at_once():
    deck = new_deck()
    random.Random(7).shuffle(deck)
    at_once = _all_in_preflop(AT_ONCE, deck)
    staged = _all_in_preflop(STAGED, deck)
    assert at_once.is_over
    total = chips(staged)
    boards = []
    for street in (Street.FLOP, Street.TURN, Street.RIVER):
        # Betting is over and nobody acts: the hands are tabled (TDA 16), the street waits.
        assert staged.street_waits and staged.tabled and staged.actor is None
        assert not staged.is_over
        assert chips(staged) == total
        boards.append(len(staged.board))
        assert staged.deal_street() == NextStreet(street=street)
    assert boards == [0, 3, 4]
    assert staged.is_over and not staged.street_waits and not staged.tabled
    assert staged.records == at_once.records
    assert staged.stacks == at_once.stacks and sum(staged.stacks) == 2500


def test_a_street_is_dealt_once_and_only_while_one_waits():
    hand = _all_in_preflop(STAGED, new_deck())
    with pytest.raises(IllegalAction):
        hand.deal_street(Street.TURN)  # the flop comes first
    hand.deal_street(Street.FLOP)
    with pytest.raises(IllegalAction):
        hand.deal_street(Street.FLOP)  # a second sweeper's stale move
    with pytest.raises(IllegalAction):
        hand.call()  # nobody acts in a runout
    hand.deal_street()
    hand.deal_street()
    with pytest.raises(IllegalAction):
        hand.deal_street()  # over


def test_the_records_replay_a_staged_hand_and_the_moves_rebuild_it():
    deck = new_deck()
    random.Random(3).shuffle(deck)
    staged = _all_in_preflop(STAGED, deck)
    moves = []
    while not staged.is_over:
        moves.append(staged.deal_street())
    replayed = Hand.replay(rules=STAGED, stacks=[1000, 1000, 500], button=0, records=staged.records)
    assert replayed.records == staged.records and replayed.is_over
    rebuilt = Hand.start(rules=STAGED, stacks=[1000, 1000, 500], button=0, deck=deck)
    rebuilt.raise_to(1000)
    rebuilt.fold()
    rebuilt.call()
    for move in moves:
        assert rebuilt.apply(move) == move
    assert rebuilt.records == staged.records


def test_a_runout_with_one_player_left_with_chips_waits_on_the_flop_too():
    # The big blind calls all-in for less on the flop; the button has chips behind.
    hand = Hand.start(
        rules=STAGED,
        stacks=[2000, 1000, 600],
        button=0,
        hole_cards=[parse_cards(c) for c in ("AsAd", "7c2d", "KsKh")],
        board=parse_cards("Qh9c5h3s8d"),
    )
    hand.call()
    hand.fold()
    hand.check()  # the big blind's option
    assert len(hand.board) == 3 and hand.actor is not None and not hand.street_waits
    hand.raise_to(500)  # the big blind bets his last 500
    hand.call()
    assert hand.street_waits and hand.tabled and len(hand.board) == 3
    hand.deal_street()
    assert len(hand.board) == 4 and hand.street_waits
    hand.deal_street()
    assert hand.is_over


def test_the_absent_and_time_out_moves_stay_refused_while_a_street_waits():
    hand = _all_in_preflop(STAGED, new_deck())
    for move in (hand.absent, hand.time_out, hand.out_of_time):
        with pytest.raises(IllegalAction):
            move()
    assert hand.street_waits  # the hand still runs out from here
    assert isinstance(hand.deal_street(), NextStreet)


def _draw_all_in(rules, stacks):
    hand = DrawHand.start(rules=rules, stacks=stacks, button=0, deck=new_deck())
    while hand.swap_only and hand.first_swap_round:
        hand.stand_pat()  # R7.3: the first swap round
    hand.raise_to(stacks[0])  # the button, all-in
    hand.fold()
    hand.call()  # the big blind calls
    return hand


def test_draw_holdem_waits_and_keeps_the_hands_down_while_a_swap_may_come():
    # R7.9: the big blind keeps chips behind and may still swap on a street to come: the
    # hands are not tabled at the wait; he gets his swap turn on the flop.
    hand = _draw_all_in(make_rules(staged_runout=True), [500, 1000, 5000])
    assert hand.street_waits and not hand.tabled
    hand.deal_street()
    assert len(hand.board) == 3
    assert hand.actor == 2 and hand.swap_only  # R7.9: his swap (or stand pat) on the flop
    hand.stand_pat()
    assert hand.street_waits
    hand.deal_street()
    hand.stand_pat()
    hand.deal_street()
    hand.stand_pat()
    assert hand.is_over


def test_draw_holdem_tables_the_hands_when_nobody_can_swap_again():
    hand = _draw_all_in(make_rules(staged_runout=True), [1000, 1000, 1000])
    assert hand.street_waits and hand.tabled  # both all-in: R7.8, no swap
    while not hand.is_over:
        hand.deal_street()
    assert [type(r) for r in hand.records].count(DealBoard) == 3
