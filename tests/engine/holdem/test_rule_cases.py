"""Engine rules with no scripted hand elsewhere: R1.8 (show to win), R2.11 (the level of the
hand), R2.12 (no straddle)."""

from __future__ import annotations

import dataclasses

import pytest

from tables.engine import Betting, Hand, Street, new_deck
from tables.engine.phh import UnsupportedVariant, read
from tests.engine.factories import make_rules


def three_handed_history(*, blinds: str, showdown: str) -> str:
    """A no-limit hold'em history: p1 (small blind) holds aces, p2 (big blind) seven-deuce."""
    return (
        "variant = 'NT'\nante_trimming_status = true\nantes = [0, 0, 0]\n"
        f"blinds_or_straddles = {blinds}\nmin_bet = 100\n"
        "starting_stacks = [1000, 1000, 1000]\nactions = ["
        "'d dh p1 AsAh', 'd dh p2 7c2d', 'd dh p3 9c8c', 'p3 f', 'p1 cc', 'p2 cc',"
        "'d db KdKc3h', 'p1 cc', 'p2 cc', 'd db 4s', 'p1 cc', 'p2 cc', 'd db 5d',"
        f"'p1 cc', 'p2 cc', {showdown}]\n"
    )


def test_r1_8_a_player_who_does_not_show_wins_no_part_of_the_pot():
    """R1.8: aces beat seven-deuce on this board, but the aces are mucked, not shown."""
    shown = read(three_handed_history(blinds="[50, 100, 0]", showdown="'p1 sm AsAh', 'p2 sm'"))
    assert shown.stacks == [1100, 900, 1000]
    mucked = read(three_handed_history(blinds="[50, 100, 0]", showdown="'p1 sm', 'p2 sm 7c2d'"))
    assert mucked.stacks == [900, 1100, 1000]


def test_r2_12_a_history_with_a_straddle_is_refused():
    """R2.12: no straddle. The same hand with a third player's straddle is not played."""
    plain = read(three_handed_history(blinds="[50, 100, 0]", showdown="'p1 sm AsAh', 'p2 sm'"))
    assert plain.rules.big_blind == 100
    with pytest.raises(UnsupportedVariant, match=r"R2\.12"):
        read(three_handed_history(blinds="[50, 100, 200]", showdown="'p1 sm AsAh', 'p2 sm'"))


def test_r2_11_a_hand_keeps_the_blinds_it_was_started_with_when_the_level_changes():
    """R2.11: the level in force when the blinds were posted holds for the whole hand."""
    level_1 = make_rules(betting=Betting.LIMIT, blinds=(50, 100))
    hand = Hand.start(rules=level_1, stacks=[5000, 5000, 5000], button=0, deck=new_deck())
    level_2 = dataclasses.replace(level_1, small_blind=100, big_blind=200)
    with pytest.raises(dataclasses.FrozenInstanceError):
        level_1.big_blind = 200  # type: ignore[misc]
    for _ in range(3):  # button calls, small blind calls, big blind checks: the flop
        hand.call() if hand.can_call() else hand.check()
    hand.check()
    hand.check()
    hand.check()  # the turn: big bets of level 1, not of level 2
    hand.raise_to(hand.min_raise_to())
    assert hand.street == Street.TURN and hand.records[-1].to == 200
    assert level_2.limit_big_bet == 400
    assert hand.rules is level_1
    replayed = Hand.replay(
        rules=hand.rules, stacks=[5000, 5000, 5000], button=0, records=hand.records
    )
    assert replayed.stacks == hand.stacks
