"""Pot-limit Omaha on an online table (R7.1): four hole cards, exactly two play, the pot limit
from the engine (R3.6) and the house's smallest chip, and its hand history in PHH."""

import pytest

from tables.engine.phh import read
from tables.online import play as online_play
from tables.online.history import hand_phh
from tables.online.models import Game, OnlineSeat
from tables.online.services import TableError, table_chips
from tests.tables.online_helpers import make_table, seat_players, stacked_deck

pytestmark = pytest.mark.django_db


def test_r7_1_omaha_plays_exactly_two_hole_cards_and_the_pot_limit():
    table = make_table(game=Game.POT_LIMIT_OMAHA, blinds=(25, 50), smallest_chip=25,
                       min_buy_in=500, max_buy_in=5_000)  # fmt: skip
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"], buy_in=5_000)
    # Dealing order from the small blind: bob, carol, alice. The board has four hearts: a
    # single heart in the hand makes no flush in Omaha (R7.1); alice's two hearts do.
    deck = stacked_deck(["AhKsKdQc", "2c3c4d5d", "7h8h9s9c"], board="Th2h3hJhQd")
    hand = online_play.deal_hand(table=table, deck=deck)
    engine = online_play.engine_of(hand)
    assert [len(cards) for cards in engine.hole_cards] == [4, 4, 4]
    online_play.act(table=table, user=alice, hand_id=hand.pk, sequence=0, action="call")
    # R3.6: the pot after the small blind's call is 150: he may raise to 200 at most.
    with pytest.raises(TableError, match="largest raise to is 200"):
        online_play.act(table=table, user=bob, hand_id=hand.pk, sequence=1, action="raise",
                        amount=225)  # fmt: skip
    online_play.act(table=table, user=bob, hand_id=hand.pk, sequence=1, action="call")
    online_play.act(table=table, user=carol, hand_id=hand.pk, sequence=2, action="check")
    sequence = 3
    while True:
        hand.refresh_from_db()
        if hand.is_over:
            break
        actor = [alice, bob, carol][hand.seat_numbers[hand.actor] - 1]
        online_play.act(table=table, user=actor, hand_id=hand.pk, sequence=sequence,
                        action="check")  # fmt: skip
        sequence += 1
    stacks = {s.user.username: s.stack for s in OnlineSeat.objects.filter(table=table)}
    # Bob's ace of hearts alone makes no flush; alice's 7h8h with three board hearts does.
    assert stacks == {"alice": 5_100, "bob": 4_950, "carol": 4_950}
    seated, ledger = table_chips(table)
    assert seated == ledger == 15_000
    history = hand_phh(hand, None, all_cards=True)
    assert 'variant = "PO"' in history
    assert read(history).stacks == [4_950, 4_950, 5_100]
