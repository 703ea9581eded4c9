"""R7.2 when the stud deck runs out (seed 003): deal all but the last card, mix the last card
with the burns, scramble and cut (the server's order), burn again where the cards allow and
deal on; a common card only if even then not every player can have a fresh card."""

from __future__ import annotations

import pytest

from tables.engine import Card, card_name, new_deck
from tables.engine.phh import read_stud, write_stud
from tables.engine.stud import (
    DealCommon,
    DealStud,
    StudHand,
    StudReshuffle,
    StudRules,
    StudStreet,
)

RULES = StudRules(ante=5, bring_in=10, small_bet=20, big_bet=40)
# From new_deck() and eight players, third street takes cards 0-23; with seven players from
# fourth street on, the burns are 24, 32 and 40 and cards 48-51 are left for seventh street.


def scramble(*first: Card) -> list[Card]:
    """A reshuffle order (the server's scramble and cut): these cards first, then the rest."""
    return [*first, *(card for card in new_deck() if card not in first)]


def play(hand: StudHand, *, folds: dict[StudStreet, int]) -> StudHand:
    """Everyone calls or checks to the end; on a street in ``folds`` the first actor bets and
    that seat folds to it."""
    folds = dict(folds)
    hand.bring_in()
    while not hand.is_over:
        street = hand.street
        folder = folds.get(street)
        if hand.actor == folder and hand.can_fold():
            hand.fold()
            del folds[street]
        elif folder is not None and hand.can_bet():
            hand.raise_to(hand.min_raise_to())
        elif hand.can_check():
            hand.check()
        else:
            hand.call()
    return hand


def seventh(hand: StudHand) -> dict[int, Card]:
    """Each player's seventh-street card (down), by seat."""
    return {
        r.seat: r.down[0]
        for r in hand.records
        if isinstance(r, DealStud) and r.street is StudStreet.SEVENTH and r.down
    }


def assert_round_trips(hand: StudHand) -> None:
    """The same records from the hand's records and from its PHH history (R7.2's counts)."""
    again = StudHand.replay(rules=hand.rules, stacks=hand.starting_stacks, records=hand.records)
    assert again.records == hand.records and again.stacks == hand.stacks
    text = write_stud(hand)
    assert read_stud(text).records == hand.records
    assert read_stud(write_stud(hand, public=True)).stacks == hand.stacks


def test_r7_2_seven_players_four_cards_left_deal_three_then_the_last_card_and_the_burns():
    # The seed's example: 8 dealt, one folds on third street, 7 reach seventh street with 4
    # cards left (48-51): deal 3, then the last card and the 3 burns give the other 4 a card.
    order = scramble(32, 51, 24, 40)
    hand = StudHand.start(rules=RULES, stacks=[1000] * 8, deck=new_deck(), reshuffle=order)
    play(hand, folds={StudStreet.THIRD: 7})
    assert not hand.board and hand.common_card is None
    assert seventh(hand) == {0: 48, 1: 49, 2: 50, 3: 32, 4: 51, 5: 24, 6: 40}
    mix = [r for r in hand.records if isinstance(r, StudReshuffle)]
    assert mix == [StudReshuffle(street=StudStreet.SEVENTH, dealt=3, mixed=4, burn=False)]
    # The reshuffle comes after the three cards from the deck, before the fourth player's.
    at = hand.records.index(mix[0])
    assert [r.seat for r in hand.records[at - 3 : at]] == [0, 1, 2]
    assert hand.records[at + 1] == DealStud(seat=3, street=StudStreet.SEVENTH, down=(32,), up=())
    assert hand.burned == ()  # every burn was dealt again
    assert all(len(hand.hole_cards[seat] or ()) == 7 for seat in range(7))
    dealt = [c for r in hand.records if isinstance(r, DealStud) for c in (*(r.down or ()), *r.up)]
    assert len(dealt) == len(set(dealt)) == 52
    assert_round_trips(hand)


def test_r7_2_enough_cards_after_the_reshuffle_burns_again():
    # One folds on third street, one on sixth: 6 players on seventh street, 4 cards left.
    order = scramble(40, 24, 51, 32)
    hand = StudHand.start(rules=RULES, stacks=[1000] * 8, deck=new_deck(), reshuffle=order)
    play(hand, folds={StudStreet.THIRD: 7, StudStreet.SIXTH: 5})
    assert hand.folded == [False] * 5 + [True, False, True]
    assert not hand.board
    # 3 from the deck; the mix of 4 is 40 24 51 32: 40 is burned, 24 51 32 are dealt.
    assert seventh(hand) == {0: 48, 1: 49, 2: 50, 3: 24, 4: 51, 6: 32}
    assert [r for r in hand.records if isinstance(r, StudReshuffle)] == [
        StudReshuffle(street=StudStreet.SEVENTH, dealt=3, mixed=4, burn=True)
    ]
    assert hand.burned == (40,)
    assert_round_trips(hand)


def test_r7_2_the_order_is_the_servers_and_a_replay_from_the_deck_is_exact():
    deck = new_deck()
    first = StudHand.start(rules=RULES, stacks=[1000] * 8, deck=deck, reshuffle=scramble(24))
    second = StudHand.start(rules=RULES, stacks=[1000] * 8, deck=deck, reshuffle=scramble(51))
    for hand in (first, second):
        play(hand, folds={StudStreet.THIRD: 7})
    assert seventh(first)[3] == 24 and seventh(second)[3] == 51
    again = StudHand.start(rules=RULES, stacks=[1000] * 8, deck=deck, reshuffle=scramble(24))
    play(again, folds={StudStreet.THIRD: 7})
    assert again.records == first.records


def test_r7_2_a_common_card_only_when_even_the_reshuffle_cannot_give_everyone_a_card():
    # One folds on fourth street: 7 players on seventh street, 3 cards left (49-51) and 3
    # burns (24, 33, 41): 6 cards for 7 players, so a burn and one common card.
    hand = StudHand.start(rules=RULES, stacks=[1000] * 8, deck=new_deck(), reshuffle=scramble(24))
    play(hand, folds={StudStreet.FOURTH: 3})
    assert hand.board == [50] and hand.common_card == 50
    assert DealCommon(card=50, street=StudStreet.SEVENTH) in hand.records
    assert not any(isinstance(r, StudReshuffle) for r in hand.records)
    assert hand.burned == (24, 33, 41, 49)
    assert_round_trips(hand)


def test_r7_2_a_reshuffle_order_must_be_the_whole_deck():
    with pytest.raises(ValueError, match="reshuffle"):
        StudHand.start(rules=RULES, stacks=[1000] * 8, deck=new_deck(), reshuffle=[1, 2, 3])


def test_r7_2_the_phh_history_says_where_the_dealer_reshuffled():
    hand = StudHand.start(
        rules=RULES, stacks=[1000] * 8, deck=new_deck(), reshuffle=scramble(32, 51, 24, 40)
    )
    play(hand, folds={StudStreet.THIRD: 7})
    text = write_stud(hand)
    assert f'"d dh p4 {card_name(32)} # reshuffle: the last card and 3 burns"' in text
