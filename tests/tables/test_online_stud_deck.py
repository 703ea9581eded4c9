"""R7.2 at an online stud table: when the deck runs out the dealer mixes its last card with
the burns in the order fixed at the deal (from the hand's secret), never a common card while
that gives every player a card; the history replays it."""

import pytest

from tables.engine import new_deck, reshuffle_order
from tables.engine.phh import read_stud
from tables.engine.stud import DealStud, StudHand, StudReshuffle, StudStreet
from tables.online import play as online_play
from tables.online.history import hand_phh, steps
from tables.online.models import Game
from tests.tables.online_helpers import make_table, seat_players

pytestmark = pytest.mark.django_db


def test_r7_2_eight_dealt_one_folds_seven_get_a_seventh_card_from_the_last_card_and_burns():
    table = make_table(game=Game.SEVEN_CARD_STUD, blinds=(2, 5), ante=1, seats=8)
    users = seat_players(table, [f"p{k}" for k in range(8)])
    hand = online_play.deal_hand(table=table, deck=new_deck())
    while not hand.is_over:
        engine = online_play.engine_of(hand)
        assert isinstance(engine, StudHand)
        actor = users[hand.seat_numbers[engine.actor] - 1]
        if engine.can_bring_in():
            action = "bring_in"
        elif engine.street is StudStreet.THIRD and engine.actor == 7:
            action = "fold"
        else:
            action = "check" if engine.can_check() else "call"
        online_play.act(
            table=table, user=actor, hand_id=hand.pk, sequence=hand.sequence, action=action
        )
        hand.refresh_from_db()
    engine = online_play.engine_of(hand)
    assert not engine.board  # no common card
    assert StudReshuffle(street=StudStreet.SEVENTH, dealt=3, mixed=4, burn=False) in engine.records
    # The deck's last card (51) and the burns (24, 32, 40) in the hand's secret order.
    order = reshuffle_order(bytes.fromhex(hand.secret))
    mixed = sorted([51, 24, 32, 40], key=order.index)
    sevenths = [
        r.down[0]
        for r in engine.records
        if isinstance(r, DealStud) and r.street is StudStreet.SEVENTH and r.down
    ]
    assert sevenths == [48, 49, 50, *mixed]
    assert read_stud(hand_phh(hand, None, all_cards=True)).records == engine.records
    assert steps(hand, users[0].pk)  # the replayer shows the hand
