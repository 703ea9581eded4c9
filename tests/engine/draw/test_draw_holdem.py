"""Draw Hold'em (R7.3-R7.11): whole scripted hands with stacked decks, every chip checked."""

import pytest

from tables.engine import (
    AwardPot,
    Betting,
    Call,
    Cause,
    Check,
    DealBoard,
    DealHole,
    IllegalAction,
    OddChip,
    PostBlind,
    RaiseTo,
    Street,
    new_deck,
    parse_cards,
    plan_seats,
)
from tables.engine.draw import AwardSwapFees, DrawHand, Reshuffle, StandPat, Swap, public_view
from tests.engine.factories import make_rules


def c(text):
    """One card by name."""
    return parse_cards(text)[0]


def stacked_deck(*, hole, stub, button=0):
    """A deck dealing ``hole`` (by position, one card at a time from the small blind, R2.1),
    then ``stub`` in play order: swaps, burns and board cards as they come off; then the rest."""
    n = len(hole)
    first = plan_seats(players=n, button=button).small_blind
    deck = [0] * (2 * n)
    for j in range(n):
        seat = (first + j) % n
        deck[j], deck[n + j] = parse_cards(hole[seat])
    deck += parse_cards(stub)
    assert len(set(deck)) == len(deck)
    return deck + [card for card in new_deck() if card not in deck]


def deal(*, hole, stub, stacks=None, button=0, rules=None, **kw):
    """A Draw Hold'em hand from a stacked deck; 1,000 chips each and blinds 50/100 by default."""
    return DrawHand.start(
        rules=rules or make_rules(),
        stacks=stacks or [1000] * len(hole),
        button=button,
        deck=stacked_deck(hole=hole, stub=stub, button=button),
        **kw,
    )


def chips(hand):
    """Every chip at the table: stacks, and while the hand runs the pot, this round's fees and
    the fees kept apart."""
    if hand.is_over:
        return sum(hand.stacks)
    return sum(hand.stacks) + hand.pot_total + hand.swap_fees_pending + hand.swap_fees_apart


def stand_pat_all(hand):
    while hand.first_swap_round:
        hand.stand_pat()


def check_down(hand):
    while not hand.is_over:
        hand.check()


# -- R7.3: the order of a hand ---------------------------------------------------------------


def test_r7_3_swap_round_then_pre_flop_betting_then_a_swap_and_bet_round_each_street():
    hand = deal(hole=["AhKh", "QcQd", "7s2d"], stub="3c 4d5d6d 9s Td 8s Jd")
    # The first round: a swap decision only, left of the big blind first (the button here).
    assert hand.street is Street.PREFLOP and hand.first_swap_round
    assert hand.actor == 0 and hand.swap_only
    assert hand.can_swap() and hand.can_stand_pat() and hand.swap_fee() == 50
    assert not (hand.can_check() or hand.can_call() or hand.can_fold() or hand.can_raise())
    assert hand.call_amount() == 0
    with pytest.raises(IllegalAction, match=r"R7\.3"):
        hand.call()
    with pytest.raises(IllegalAction, match=r"R7\.3"):
        hand.min_raise_to()
    hand.stand_pat()
    assert hand.actor == 1 and hand.swap_fee() == 0  # the blinds last, paying nothing more
    hand.stand_pat()
    hand.stand_pat()
    # The pre-flop betting, as in hold'em: no swap, no stand pat.
    assert not hand.first_swap_round and hand.actor == 0
    assert not hand.can_swap() and not hand.can_stand_pat() and hand.can_call()
    with pytest.raises(IllegalAction, match=r"R7\.3"):
        hand.swap(c("Kh"))
    with pytest.raises(IllegalAction, match="no swap decision"):
        hand.stand_pat()
    hand.call()
    hand.call()
    hand.check()
    # Flop, turn, river: each player in turn may swap, then acts (R7.7).
    for street in (Street.FLOP, Street.TURN, Street.RIVER):
        assert hand.street is street and hand.actor == 1
        assert hand.can_swap() and hand.can_check() and not hand.can_stand_pat()
        assert hand.swap_fee() == 300
        for _ in range(3):
            hand.check()
    assert hand.is_over
    kinds = [type(r).__name__ for r in hand.records]
    assert kinds == (
        ["PostBlind"] * 2 + ["DealHole"] * 3 + ["StandPat"] * 3 + ["Call", "Call", "Check"]
        + (["DealBoard"] + ["Check"] * 3) * 3 + ["ShowHand"] * 3 + ["AwardPot"]
    )  # fmt: skip
    assert hand.board == parse_cards("4d5d6d Td Jd")  # a burn before each street
    # Five diamonds on the board; the Qd of seat 1 makes the best flush.
    assert hand.stacks == [900, 1200, 900]
    assert hand.pot_winners == [(1,)]


# -- R7.4: one card, once a round ----------------------------------------------------------


def test_r7_4_one_card_once_a_round_replaced_by_the_next_card_of_the_stub():
    # First round: seat 0 swaps first, so he gets the top card of the stub, before the burn.
    hand = deal(hole=["AhKh", "QcQd", "7s2d"], stub="Ac 3s 4d5d6d 2c 9s Td 8s Jd")
    with pytest.raises(IllegalAction, match=r"R7\.4"):
        hand.swap(c("Qc"))  # not his card
    made = hand.swap(c("Kh"))
    assert made == Swap(seat=0, fee=50, discarded=c("Kh"), drawn=c("Ac"))
    assert hand.hole_cards[0] == (c("Ah"), c("Ac"))
    assert hand.actor == 1  # one decision each in the first round
    hand.stand_pat()
    hand.stand_pat()
    hand.call()
    hand.call()
    hand.check()
    assert hand.board == parse_cards("4d5d6d")  # 3s was the burn
    hand.swap(c("Qd"))  # seat 1 on the flop: the next card, 2c
    assert hand.hole_cards[1] == (c("Qc"), c("2c"))
    assert hand.actor == 1  # he swapped; now he acts
    assert not hand.can_swap()
    with pytest.raises(IllegalAction, match=r"one swap a round.*R7\.4"):
        hand.swap(c("Qc"))
    hand.check()
    assert hand.swap_fees_pending == 300
    check_down(hand)
    # Five diamonds on the board (4d5d6d Td Jd) and none higher in a hand: three ways, 200 each.
    assert sorted(hand.pot_winners[0]) == [0, 1, 2]
    assert hand.stacks == [1100, 800, 1100]


# -- R7.5: the first round's fee ------------------------------------------------------------


def four_handed(**kw):
    """Button 0, small blind 1, big blind 2, first to act 3; seat 3 pairs his ace by swapping."""
    return deal(
        hole=["JcTd", "Kc9d", "Qc8d", "As7c"],
        stub="Ad 2h 3h Tc 4s5d9h Th Jh Ts 2s",
        **kw,
    )


def test_r7_5_first_round_fee_is_credited_to_the_bet_of_a_swapper_who_calls():
    hand = four_handed()
    assert hand.actor == 3 and hand.swap_fee() == 50
    hand.swap(c("7c"))  # draws the Ad
    assert hand.stacks == [1000, 950, 900, 950]
    assert hand.bets == [0, 50, 100, 50] and hand.pot_total == 200
    hand.stand_pat()  # the button
    assert hand.actor == 1 and hand.swap_fee() == 0  # R7.5: the blinds pay nothing more
    hand.swap(c("9d"))  # draws the 2h
    hand.swap(c("8d"))  # draws the 3h
    assert hand.stacks == [1000, 950, 900, 950] and hand.pot_total == 200
    assert hand.actor == 3
    assert hand.call_amount() == 50  # the fee counts toward his call
    hand.call()
    hand.fold()
    hand.call()
    hand.check()
    assert hand.stacks == [1000, 900, 900, 900] and hand.pot_total == 300
    assert hand.contributed == [0, 100, 100, 100]
    check_down(hand)
    # Aces (As Ad) beat the deuces of seat 1 (2h, 2s on the river) and seat 2's queen high.
    assert hand.stacks == [1000, 900, 900, 1200]
    assert sum(hand.stacks) == 4000


def test_r7_5_first_round_fee_of_a_swapper_who_folds_stays_in_the_main_pot():
    hand = four_handed()
    hand.swap(c("7c"))
    hand.stand_pat()
    hand.stand_pat()
    hand.stand_pat()
    assert hand.can_fold() and hand.call_amount() == 50
    hand.fold()  # seat 3 leaves his 50
    hand.fold()
    hand.call()
    hand.check()
    assert hand.pots[0].amount == 250 and hand.pots[0].eligible == {1, 2}
    check_down(hand)
    # Nobody swapped but seat 3: burn 2h, board 3h Tc 4s 9h Jh; the big blind's Q8 makes a
    # straight to the queen and wins the pot with seat 3's fee in it.
    assert hand.board == parse_cards("3hTc4s 9h Jh")
    assert hand.stacks == [1000, 900, 900 + 250, 950]
    assert sum(hand.stacks) == 4000


def test_r7_5_the_blinds_swap_last_left_of_the_big_blind_first():
    hand = deal(hole=["2c3c", "4c5c", "6c7c", "8c9c", "TcJc", "QcKc"], stub="", button=2)
    # Button 2, small blind 3, big blind 4: seats 5, 0, 1, 2 first, then the blinds 3, 4.
    order = []
    while hand.first_swap_round:
        order.append((hand.actor, hand.swap_fee()))
        hand.swap(hand.hole_cards[hand.actor][0])
    assert order == [(5, 50), (0, 50), (1, 50), (2, 50), (3, 0), (4, 0)]
    assert hand.stacks == [950, 950, 950, 950, 900, 950]  # the blinds paid only their blinds
    assert hand.actor == 5  # the pre-flop betting starts left of the big blind (R3.2)
    for _ in range(5):
        hand.fold()
    # Four fees and the small blind are the big blind's; his uncalled 50 comes back.
    assert hand.stacks == [950, 950, 950, 950, 900 + 50 + 300, 950]


def test_r7_10_a_posted_big_blind_swaps_last_and_pays_nothing_more():
    """R7.10 asks an overblind to swap last; the engine plays no overblind (R2.12), and treats
    a big blind posted out of turn (R2.6) as a blind: last, no fee."""
    hand = deal(hole=["2c3c", "4c5c", "6c7c", "8c9c", "TcJc"], stub="", posts=[4])
    order = []
    while hand.first_swap_round:
        order.append((hand.actor, hand.swap_fee()))
        hand.swap(hand.hole_cards[hand.actor][1])
    assert order == [(3, 50), (0, 50), (1, 0), (2, 0), (4, 0)]
    assert hand.stacks == [950, 950, 900, 950, 900]
    assert hand.actor == 3
    hand.fold()
    hand.check()  # the posted big blind is live (R2.6)
    hand.fold()
    hand.fold()
    hand.raise_to(300)  # the big blind
    hand.fold()  # the posted big blind
    assert hand.stacks == [950, 950, 900 - 200 + 200 + 350, 950, 900]
    assert sum(hand.stacks) == 5000


# -- R7.6: the fee after the flop ------------------------------------------------------------


def flop_of_three(**kw):
    """Three players limp in (pot 300) and the flop comes; seat 1 acts first."""
    hand = deal(hole=["AhKh", "QcQd", "7s2d"], stub="2h 4d5d6d 3c 9s Td 8s Jd Kd", **kw)
    stand_pat_all(hand)
    hand.call()
    hand.call()
    hand.check()
    return hand


def test_r7_6_fee_is_the_pot_at_the_start_of_the_round_fixed_even_after_bets():
    hand = flop_of_three()
    assert hand.street is Street.FLOP and hand.pot_total == 300 and hand.swap_fee() == 300
    hand.swap(c("Qd"))  # draws the 3c
    assert hand.stacks == [900, 600, 900]
    assert hand.pot_total == 300 and hand.swap_fees_pending == 300
    hand.raise_to(200)
    assert hand.pot_total == 500
    assert hand.swap_fee() == 300  # not 800: fixed for the round
    hand.swap(c("2d"))  # seat 2 draws the 9s
    assert hand.swap_fees_pending == 600
    assert hand.call_amount() == 200  # R7.6: a fee is no bet
    hand.call()
    hand.call()  # seat 0 does not swap
    assert hand.stacks == [700, 400, 400]
    # The round's fees joined the main pot: the turn's fee is the pot with them.
    assert hand.street is Street.TURN and hand.swap_fees_pending == 0
    assert hand.pot_total == 1500 and hand.swap_fee() == 1500
    assert hand.pots[0].amount == 1500 and hand.pots[0].eligible == {0, 1, 2}
    assert not hand.can_swap()  # seat 1 has 400 (R7.8)
    assert chips(hand) == 3000
    check_down(hand)
    # Board 4d5d6d 8s Kd: seat 2 drew the 9s to his 7s, a straight to the nine.
    assert hand.board == parse_cards("4d5d6d 8s Kd")
    assert hand.pot_winners == [(2,)]
    assert hand.stacks == [700, 400, 400 + 1500]


def test_r7_6_the_round_fees_are_not_in_the_pot_limit_pot_until_the_round_ends():
    hand = flop_of_three(rules=make_rules(betting=Betting.POT_LIMIT))
    hand.swap(c("Qd"))
    assert hand.pot_total == 300 and hand.max_raise_to() == 300  # the pot, without the fee
    hand.check()
    hand.check()
    hand.check()
    assert hand.pot_total == 600 and hand.max_raise_to() == 600
    assert hand.swap_fee() == 600
    check_down(hand)
    # The board's diamond flush (4d5d6d Td Jd) plays for all three: 200 each.
    assert hand.stacks == [1100, 800, 1100]


# -- R7.7: swap, then act --------------------------------------------------------------------


def test_r7_7_a_player_swaps_then_acts_and_may_not_swap_after_acting():
    hand = flop_of_three(stacks=[2000] * 3)
    hand.check()  # seat 1 acts without swapping
    hand.swap(c("2d"))  # seat 2 swaps, then must still act
    assert hand.actor == 2 and not hand.can_stand_pat()
    assert hand.can_check() and hand.can_raise()
    hand.raise_to(100)
    assert hand.actor == 0 and hand.can_swap()
    hand.call()  # seat 0 calls without swapping
    assert hand.actor == 1
    assert not hand.can_swap()  # he checked: no swap this round, though his turn came back
    with pytest.raises(IllegalAction, match=r"R7\.7"):
        hand.swap(c("Qd"))
    hand.call()
    assert hand.street is Street.TURN and hand.can_swap()  # a new round, a new swap
    assert hand.stacks == [1800, 1800, 1500] and hand.pot_total == 900
    check_down(hand)
    # Board 4d5d6d Td Jd: seat 1 kept his Qd, the best flush.
    assert hand.stacks == [1800, 2700, 1500]


# -- R7.8: no swap all-in or short of the fee -----------------------------------------------


def test_r7_8_a_player_short_of_the_first_fee_or_all_in_on_a_blind_is_not_asked():
    hand = deal(
        hole=["2c3c", "4c5c", "6c7c", "8c9c"],
        stub="2h 3d4d5h 2s Kh 3s Qh",
        stacks=[1000, 1000, 60, 40],
    )
    # Seat 3 has 40, less than the fee of 50; the big blind is all-in for 60.
    assert hand.actor == 0
    assert hand.swap_fee(seat=3) == 50 and not hand.can_swap(seat=3)
    hand.stand_pat()
    assert hand.actor == 1
    hand.stand_pat()
    assert not hand.first_swap_round and hand.actor == 3  # the betting: seat 3 first
    assert hand.can_call() and not hand.can_swap()
    hand.call()  # all-in for 40
    hand.fold()
    hand.fold()
    # The big blind's 6c7c makes a straight on 3d4d5h Kh Qh: main pot 120, side pot 20, and
    # his uncalled 10 back.
    assert hand.is_over and hand.stacks == [1000, 950, 150, 0]


def test_r7_8_no_swap_with_fewer_chips_than_the_fee_after_the_flop():
    hand = flop_of_three(stacks=[1000, 1000, 350])
    assert hand.actor == 1
    hand.check()
    assert hand.actor == 2 and hand.stacks[2] == 250 < hand.swap_fee()
    assert not hand.can_swap()
    with pytest.raises(IllegalAction, match=r"the fee is 300: no swap with fewer chips \(R7\.8\)"):
        hand.verify_swap(c("2d"))
    assert hand.can_check()
    check_down(hand)
    # Board 4d5d6d 9s 8s: seat 2's 7s makes a straight.
    assert hand.stacks == [900, 900, 250 + 300]


def test_r7_8_a_player_with_exactly_the_fee_may_swap_and_is_then_all_in():
    hand = flop_of_three(stacks=[1000, 400, 1000])
    hand.swap(c("Qd"))  # 300 of his last 300
    assert hand.stacks[1] == 0 and not hand.can_act[1]
    assert hand.actor == 2  # all-in: no action left for him
    assert hand.swap_fees_pending == 300
    hand.swap(c("2d"))  # seat 2 swaps with a player all-in: R7.9
    assert hand.records[-1].kept_apart and hand.swap_fees_apart == 300
    assert chips(hand) == 2400
    check_down(hand)
    # Board 4d5d6d 8s Kd: seat 2's 7s9s straight takes the main pot (300 + 300 of seat 1's
    # fee, paid before anyone was all-in) and his own fee kept apart.
    assert hand.stacks == [900, 0, 600 + 600 + 300]


# -- R7.9: fees kept apart with a player all-in ---------------------------------------------


def all_in_flop(*, hole, stub, stacks=(200, 2000, 2000), **kw):
    """Seat 0 (the button) is all-in for 200 before the flop; seats 1 and 2 call."""
    hand = deal(hole=hole, stub=stub, stacks=list(stacks), **kw)
    stand_pat_all(hand)
    hand.raise_to(stacks[0])
    hand.call()
    hand.call()
    assert hand.street is Street.FLOP and hand.pot_total == 3 * stacks[0]
    return hand


def test_r7_9_the_all_in_player_with_the_best_hand_wins_the_main_pot_and_every_fee():
    hand = all_in_flop(hole=["AsAd", "KcKd", "QcQd"], stub="2h 7s8s2c 3c 4h 5h 9d 9h Jd")
    hand.swap(c("Kd"))  # seat 1: 600 kept apart (seat 0 is all-in)
    assert hand.records[-1] == Swap(
        seat=1, fee=600, discarded=c("Kd"), drawn=c("3c"), kept_apart=True
    )
    hand.check()
    hand.swap(c("Qd"))  # seat 2: 600 more
    hand.raise_to(400)
    hand.call()
    assert hand.swap_fees_apart == 1200 and hand.swap_fees_pending == 0
    assert hand.pot_total == 1400  # 600 main pot + 800 side pot; the fees apart are not in it
    assert hand.swap_fee() == 1400 and not hand.can_swap()  # 800 left each
    check_down(hand)
    # Aces win the main pot and the fees; king-three beats queen-four for the side pot.
    awards = [r for r in hand.records if isinstance(r, AwardPot | AwardSwapFees)]
    assert awards == [
        AwardPot(pot=0, amount=600, shares=((0, 600),)),
        AwardPot(pot=1, amount=800, shares=((1, 800),)),
        AwardSwapFees(amount=1200, shares=((0, 1200),)),
    ]
    assert hand.stacks == [1800, 1600, 800]
    assert sum(hand.stacks) == 4200


def test_r7_9_fees_go_whole_to_the_best_hand_whoever_swapped_even_one_who_folded():
    hand = all_in_flop(hole=["7c2d", "KcKd", "AhAd"], stub="9h 8s8c3s 3c 4h 5h 9d Jh")
    hand.swap(c("Kd"))  # seat 1 swaps: 600 apart
    hand.raise_to(200)
    hand.call()  # seat 2 never swaps
    assert hand.street is Street.TURN
    hand.check()
    hand.raise_to(800)
    hand.fold()  # seat 1 folds: his fee stays apart
    assert hand.street is Street.RIVER and hand.swap_only and hand.swap_fee() == 1000
    hand.stand_pat()  # seat 2, alone with the all-in player, may still swap (R7.9)
    assert hand.is_over
    # Seat 2's aces beat seat 0's seven-deuce: main pot 600, side pot 400, fees 600.
    assert hand.stacks == [0, 2000 - 200 - 600 - 200, 2000 - 400 + 600 + 400 + 600]
    assert [r for r in hand.records if isinstance(r, AwardSwapFees)] == [
        AwardSwapFees(amount=600, shares=((2, 600),))
    ]
    assert sum(hand.stacks) == 4200


def test_r7_9_a_fee_paid_before_anyone_is_all_in_joins_the_main_pot():
    hand = flop_of_three(stacks=[1000, 1000, 600])
    hand.swap(c("Qd"))  # nobody all-in yet: for the main pot
    hand.check()
    hand.raise_to(500)  # seat 2 all-in
    assert hand.records[-1].all_in
    hand.fold()
    hand.call()
    assert hand.swap_fees_apart == 0 and hand.pot_total == 300 + 300 + 1000
    assert hand.pots[0].amount == 1600 and hand.pots[0].eligible == {1, 2}
    assert hand.is_over  # seat 1 cannot pay the turn's fee of 1600: the board runs out
    # The board's diamond flush plays for both: the main pot, seat 1's fee in it, is split.
    assert hand.stacks == [900, 100 + 800, 800]


def test_r7_9_source_example_the_all_in_player_wins_the_pot_and_the_river_swap_fee():
    """004's example: p1 all-in for 10, p2 calls: pot 20; p2 may swap for 20 on the flop, does
    not, swaps on the river for 20; p1 holds the better hand and wins all 40."""
    hand = deal(
        hole=["AsAd", "Kc7d"],
        stub="2h 8s9c2c 3c 4h 5h Jd 6h",
        stacks=[10, 100],
        rules=make_rules(blinds=(5, 10)),
    )
    hand.stand_pat()  # heads-up: both are blinds; the small blind (button) first
    hand.stand_pat()
    hand.call()  # p1 all-in for 10; nobody is left to bet against p2
    assert hand.street is Street.FLOP and hand.pot_total == 20
    assert hand.swap_only and hand.actor == 1 and hand.swap_fee() == 20
    assert not hand.can_check() and hand.can_stand_pat()
    hand.stand_pat()
    assert hand.street is Street.TURN and hand.swap_fee() == 20
    hand.stand_pat()
    assert hand.street is Street.RIVER
    made = hand.swap(c("7d"))
    assert made == Swap(seat=1, fee=20, discarded=c("7d"), drawn=c("6h"), kept_apart=True)
    assert hand.is_over
    assert [r for r in hand.records if isinstance(r, AwardPot | AwardSwapFees)] == [
        AwardPot(pot=0, amount=20, shares=((0, 20),)),
        AwardSwapFees(amount=20, shares=((0, 20),)),
    ]
    assert hand.stacks == [40, 70]


def test_r7_9_the_board_runs_out_when_nobody_left_can_swap():
    hand = deal(hole=["AsAd", "Kc7d"], stub="2h 8s9c2c 3c 4h 5h Js", stacks=[300, 400])
    stand_pat_all(hand)
    hand.raise_to(300)
    hand.call()
    # Seat 1 has 100 left, less than the pot of 600: no swap, no bet: the board is dealt out.
    assert hand.is_over and hand.street is Street.SHOWDOWN
    after = hand.records[[type(r) for r in hand.records].index(Call) :]
    assert [type(r).__name__ for r in after] == (
        ["Call"] + ["DealBoard"] * 3 + ["ShowHand"] * 2 + ["AwardPot"]
    )
    assert hand.stacks == [600, 100]


def test_r7_9_tied_best_hands_split_the_fees_odd_chip_left_of_the_button_r4_2():
    hand = tie_for_fees(make_rules(blinds=(25, 50)))
    # Seats 0 and 1 tie with an ace-high straight; odd chips to seat 1, first left of the button.
    assert [r for r in hand.records if isinstance(r, AwardPot | AwardSwapFees)] == [
        AwardPot(pot=0, amount=225, shares=((1, 113), (0, 112))),
        AwardSwapFees(amount=225, shares=((1, 113), (0, 112))),
    ]
    assert hand.stacks == [224, 926, 925]


def test_r7_11_tied_fees_odd_chip_by_the_highest_card_house_rule_r4_2():
    hand = tie_for_fees(make_rules(blinds=(25, 50), odd_chip=OddChip.HIGHEST_CARD))
    # The ten of hearts (seat 0) beats the ten of clubs (seat 1) for the odd chips.
    assert hand.stacks == [226, 924, 925]


def tie_for_fees(rules):
    hand = all_in_flop(
        hole=["Th2c", "Tc3d", "4s5s"],
        stub="7h AsKsQd 4c 8h Jc 8d 9h",
        stacks=(75, 1000, 1000),
        rules=rules,
    )
    assert hand.pot_total == 225
    hand.swap(c("3d"))  # seat 1 draws the 4c: 225 apart
    hand.check()
    check_down(hand)
    return hand


# -- R7.11: the stub, privacy, the clock ------------------------------------------------------


def reverse(cards):
    return list(reversed(cards))


def test_r7_11_when_the_stub_cannot_cover_a_swap_the_discards_and_burns_are_reshuffled():
    # Heads-up from a short deck: 4 hole cards, a stub of 9: one card to spare for swaps.
    deck = stacked_deck(hole=["AsKd", "7c2d"], stub="Qh Ts 8s9c2c Js 4h Jd 5h")[:13]
    hand = DrawHand.start(
        rules=make_rules(), stacks=[1000, 1000], button=0, deck=deck, reshuffle=reverse
    )
    hand.swap(c("Kd"))  # the small blind draws the one spare card, the Qh
    hand.swap(c("7c"))  # the big blind: the stub is down to the board's 8 cards
    assert hand.records[-2:] == [
        Reshuffle(count=1, cards=(c("Kd"),)),
        Swap(seat=1, fee=0, discarded=c("7c"), drawn=c("Kd")),  # the card seat 0 gave back
    ]
    hand.call()
    hand.check()
    assert hand.board == parse_cards("8s9c2c")  # the board is the original stub's
    hand.swap(c("2d"))  # seat 1 on the flop: pot 200; the 7c and the burn Ts are reshuffled
    assert hand.records[-2:] == [
        Reshuffle(count=2, cards=(c("Ts"), c("7c"))),
        Swap(seat=1, fee=200, discarded=c("2d"), drawn=c("Ts")),
    ]
    hand.check()
    hand.swap(c("Qh"))  # seat 0 draws the 7c from the new stub, no reshuffle
    assert hand.records[-1] == Swap(seat=0, fee=200, discarded=c("Qh"), drawn=c("7c"))
    hand.check()
    check_down(hand)
    assert hand.board == parse_cards("8s9c2c 4h 5h")
    assert sum(hand.stacks) == 2000
    again = DrawHand.replay(
        rules=make_rules(), stacks=[1000, 1000], button=0, records=hand.records, deck=deck
    )
    assert again.records == hand.records


def test_r7_11_with_nothing_to_reshuffle_no_swap_is_offered():
    deck = stacked_deck(hole=["AsKd", "7c2d"], stub="Ts 8s9c2c Js 4h Jd 5h")[:12]
    hand = DrawHand.start(rules=make_rules(), stacks=[1000, 1000], button=0, deck=deck)
    # The stub holds only the board's 8 cards, nothing was swapped out or burned yet.
    assert not hand.first_swap_round and hand.actor == 0 and hand.can_call()
    assert not [r for r in hand.records if isinstance(r, StandPat | Swap)]
    hand.call()
    hand.check()
    # On the flop the burn can be reshuffled: one swap, which draws it.
    assert hand.can_swap()
    hand.swap(c("2d"))
    assert hand.records[-1].drawn == c("Ts")
    hand.check()
    assert hand.can_swap()  # the 2d given back can be reshuffled in turn
    hand.swap(c("As"))
    assert hand.hole_cards[0] == (c("2d"), c("Kd"))
    check_down(hand)
    # Board 8s9c2c 4h 5h: seat 0's deuces beat seat 1's ten high; pot 200 and 400 of fees.
    assert hand.stacks == [1300, 700]


def test_r7_11_a_full_table_that_swaps_every_round_runs_the_stub_out_on_the_turn():
    hand = DrawHand.start(rules=make_rules(), stacks=[100_000] * 10, button=0, deck=new_deck())
    while not hand.is_over:
        if hand.can_swap():
            hand.swap(hand.hole_cards[hand.actor][0])
        elif hand.can_check():
            hand.check()
        else:
            hand.call()
        assert chips(hand) == 1_000_000
    # 32 cards in the stub, 8 kept for the board: 24 swaps; the 25th reshuffles 24 cards.
    reshuffles = [i for i, r in enumerate(hand.records) if isinstance(r, Reshuffle)]
    swaps = [r for r in hand.records if isinstance(r, Swap)]
    first = hand.records[reshuffles[0]]
    assert first.count == 24 + 2  # 24 given back, 2 burns
    assert sum(isinstance(r, Swap) for r in hand.records[: reshuffles[0]]) == 24
    # The river's fee, the pot of 121,000, is more than anyone has left: no swap there.
    assert len(swaps) == 30 and hand.round_fee == 121_000
    assert sum(hand.stacks) == 1_000_000


def test_r7_11_a_swap_is_private_the_public_view_shows_who_swapped_and_the_fee():
    hand = flop_of_three()
    made = hand.swap(c("Qd"))
    public = public_view(made)
    assert public == Swap(seat=1, fee=300, discarded=None, drawn=None)
    assert public_view(Reshuffle(count=3, cards=(1, 2, 3))) == Reshuffle(count=3, cards=None)
    deal_record = hand.records[2]
    assert isinstance(deal_record, DealHole)
    assert public_view(deal_record).cards is None
    bet = RaiseTo(seat=1, to=100, amount=100, bet=True)
    assert public_view(bet) is bet
    check_down(hand)
    # The hand replays from what the others saw: same chips.
    shown = DrawHand.replay(
        rules=make_rules(),
        stacks=[1000] * 3,
        button=0,
        records=[public_view(r) for r in hand.records],
    )
    assert shown.stacks == hand.stacks


def test_r7_11_a_swap_decision_runs_on_the_clock_a_time_out_stands_pat():
    hand = deal(hole=["2c3c", "4c5c", "6c7c", "8c9c"], stub="Ad 2h3h4h Kd Ks Qd Qs")
    assert hand.time_out() == StandPat(seat=3, cause=Cause.TIME_OUT)
    assert hand.out_of_time() == StandPat(seat=0, cause=Cause.CLOCK)
    assert hand.absent() == StandPat(seat=1, cause=Cause.ABSENT)
    hand.stand_pat()
    assert hand.actor == 3 and hand.can_call()
    assert hand.absent() == hand.records[-1] and hand.folded[3]  # R2.9: folds facing a bet
    assert hand.stacks == [1000, 950, 900, 1000]
    hand.fold()
    hand.call()
    hand.check()
    check_down(hand)
    # Board 2h3h4h Ks Qs: the small blind's pair of fours beats the big blind's king high.
    assert hand.stacks == [1000, 1100, 900, 1000]


# -- replays -----------------------------------------------------------------------------------


def test_replays_with_and_without_the_deck_and_move_by_move_give_the_same_hand():
    hand = all_in_flop(hole=["AsAd", "KcKd", "QcQd"], stub="2h 7s8s2c 3c 4h 5h 9d 9h")
    hand.swap(c("Kd"))
    hand.check()
    hand.check()
    check_down(hand)
    deck = stacked_deck(hole=["AsAd", "KcKd", "QcQd"], stub="2h 7s8s2c 3c 4h 5h 9d 9h")
    table = {"rules": make_rules(), "stacks": [200, 2000, 2000], "button": 0}
    for again in (
        DrawHand.replay(**table, records=hand.records),
        DrawHand.replay(**table, records=hand.records, deck=deck),
    ):
        assert again.records == hand.records and again.stacks == hand.stacks
    rebuilt = DrawHand.start(**table, deck=deck)  # as a table rebuilds it from its rows
    for record in hand.records:
        made = rebuilt.apply(record)
        assert made is None or made == record
    assert rebuilt.records == hand.records
    changed = list(hand.records)
    index = next(i for i, r in enumerate(changed) if isinstance(r, Swap))
    changed[index] = Swap(seat=1, fee=600, discarded=c("Kd"), drawn=c("Qh"), kept_apart=True)
    with pytest.raises(ValueError, match="not what replaying"):
        DrawHand.replay(**table, records=changed, deck=deck)


def test_draw_holdem_is_played_with_two_hole_cards():
    with pytest.raises(ValueError, match=r"R7\.4"):
        DrawHand.start(rules=make_rules(omaha=True), stacks=[100, 100], button=0)


def test_a_hand_started_without_a_deck_deals_distinct_cards_and_swaps_from_the_stub():
    hand = DrawHand.start(rules=make_rules(), stacks=[1000] * 3, button=0)
    assert isinstance(hand.records[0], PostBlind)
    hand.swap(hand.hole_cards[0][0])
    stand_pat_all(hand)
    hand.call()
    hand.call()
    hand.check()
    seen = [card for hole in hand.hole_cards for card in hole] + hand.board
    assert len(set(seen)) == len(seen) == 9
    assert isinstance(hand.records[-1], DealBoard) and isinstance(hand.records[-2], Check)
