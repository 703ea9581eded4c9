"""Betting rules played out in scripted hands: R3.3-R3.8, every chip checked."""

import pytest

from tables.engine import Betting, Hand, IllegalAction, RaiseTo, Street, new_deck
from tests.engine.factories import chips, make_hand, make_rules

# Positions in a four-handed hand with the button at 0: small blind 1, big blind 2, first to
# act before the flop 3 ("UTG").
BUTTON, SB, BB, UTG = 0, 1, 2, 3


def limp_to_flop(hand):
    """Everyone calls or checks until the flop."""
    while hand.street is Street.PREFLOP:
        if hand.can_check():
            hand.check()
        else:
            hand.call()


def test_r3_5_no_limit_min_raise_is_largest_full_raise_and_max_is_stack():
    hand = make_hand(stacks=[1000] * 4)
    assert (hand.actor, hand.min_raise_to(), hand.max_raise_to()) == (UTG, 200, 1000)
    with pytest.raises(IllegalAction, match="smallest raise to is 200"):
        hand.raise_to(150)
    with pytest.raises(IllegalAction, match="largest raise to is 1000"):
        hand.raise_to(1001)
    hand.raise_to(300)  # a raise of 200
    assert hand.min_raise_to() == 500
    hand.raise_to(700)  # the button raises 400: now the largest raise
    assert hand.min_raise_to() == 1000  # 700 + 400 exceeds the stack: all-in only
    assert hand.max_raise_to() == 1000
    hand.fold()
    hand.fold()
    hand.call()
    assert hand.street is Street.FLOP
    assert hand.pot_total == 1550
    assert hand.stacks == [300, 950, 900, 300]
    assert chips(hand) == 4000


def test_r3_5_no_limit_min_bet_is_big_blind_short_all_in_bet_allowed():
    hand = make_hand(stacks=[1000, 1000, 160])
    limp_to_flop(hand)
    assert hand.actor == SB
    assert hand.can_bet() and hand.min_raise_to() == 100
    with pytest.raises(IllegalAction, match="smallest bet is 100"):
        hand.raise_to(50)
    hand.check()
    hand.raise_to(60)  # the big blind: all-in for less than a big blind
    assert hand.records[-1] == RaiseTo(seat=BB, to=60, amount=60, bet=True, all_in=True)
    assert hand.min_raise_to() == 160  # 60 + a full big blind
    hand.call()
    hand.call()
    assert hand.street is Street.TURN
    assert hand.pot_total == 480


def test_r3_3_round_ends_when_all_acted_and_matched_raiser_not_asked_again():
    hand = make_hand(stacks=[1000] * 4)
    hand.raise_to(300)
    hand.call()
    hand.call()
    hand.call()
    # R3.8: the action does not come back to the raiser.
    assert hand.street is Street.FLOP
    assert hand.pot_total == 1200


def test_r3_8_check_raise_is_allowed():
    hand = make_hand(stacks=[1000] * 3)
    limp_to_flop(hand)
    hand.check()  # small blind
    hand.raise_to(100)  # big blind bets
    hand.call()  # button
    assert hand.can_raise()
    hand.raise_to(400)  # the small blind check-raises
    assert hand.min_raise_to() == 700


def test_r3_6_pot_limit_seed_pot_200_bet_150_call_150_raise_to_800():
    rules = make_rules(betting=Betting.POT_LIMIT, blinds=(25, 50))
    hand = make_hand(rules=rules, stacks=[5000] * 4)
    limp_to_flop(hand)
    assert hand.pot_total == 200
    hand.raise_to(150)  # small blind bets 150 (the pot would allow 200)
    hand.call()  # big blind calls 150
    assert hand.actor == UTG
    assert hand.max_raise_to() == 800  # pot 500 + his call 150 = raise by 650
    assert hand.min_raise_to() == 300
    with pytest.raises(IllegalAction, match="largest raise to is 800"):
        hand.raise_to(801)
    hand.raise_to(800)
    assert hand.pot_total == 1300


def test_r3_6_pot_limit_preflop_max_and_first_bet_is_the_pot():
    rules = make_rules(betting=Betting.POT_LIMIT)
    hand = make_hand(rules=rules, stacks=[5000] * 3)
    assert hand.max_raise_to() == 350  # pot 150 + call 100 = raise by 250
    hand.call()
    hand.call()
    hand.check()
    assert hand.max_raise_to() == 300  # a bet of the whole pot


def test_r3_6_house_option_small_blind_counts_as_big_blind():
    rules = make_rules(betting=Betting.POT_LIMIT, pot_limit_small_blind_counts_as_big=True)
    hand = make_hand(rules=rules, stacks=[5000] * 3)
    assert hand.max_raise_to() == 400  # pot counted 200 + call 100 = raise by 300
    hand.call()
    assert hand.max_raise_to() == 450  # pot 250 + 50 credit + call 50 + 100 current
    hand.call()  # the small blind completes: no credit any more
    assert hand.max_raise_to() == 400  # pot 300 + call 0 + 100 current


def test_r3_6_pot_limit_max_capped_by_stack():
    rules = make_rules(betting=Betting.POT_LIMIT)
    hand = make_hand(rules=rules, stacks=[250, 5000, 5000])
    assert hand.max_raise_to() == 250
    assert hand.min_raise_to() == 200


def limit_rules(**kw):
    return make_rules(betting=Betting.LIMIT, blinds=(5, 10), **kw)


def test_r3_4_limit_small_bet_then_big_bet_and_cap_of_four_bets():
    hand = make_hand(rules=limit_rules(), stacks=[1000] * 4)
    assert (hand.min_raise_to(), hand.max_raise_to()) == (20, 20)
    with pytest.raises(IllegalAction):
        hand.raise_to(30)
    hand.raise_to(20)  # bet 2 (the big blind is bet 1)
    hand.raise_to(30)  # bet 3
    hand.raise_to(40)  # bet 4: the cap
    assert hand.actor == BB
    assert not hand.can_raise()
    with pytest.raises(IllegalAction, match="capped at 4 bets"):
        hand.raise_to(50)
    hand.call()
    hand.call()
    hand.call()
    assert hand.street is Street.FLOP
    assert hand.pot_total == 160
    assert (hand.min_raise_to(), hand.max_raise_to()) == (10, 10)
    hand.raise_to(10)
    assert hand.min_raise_to() == 20
    hand.call()
    hand.call()
    hand.call()
    assert hand.street is Street.TURN
    assert (hand.min_raise_to(), hand.max_raise_to()) == (20, 20)
    hand.raise_to(20)
    assert hand.min_raise_to() == 40
    assert hand.stacks == [950, 930, 950, 950]


def test_r3_4_limit_cap_is_configurable():
    hand = make_hand(rules=limit_rules(cap=3), stacks=[1000] * 4)
    hand.raise_to(20)
    hand.raise_to(30)
    assert not hand.can_raise()
    assert hand.can_call()


def test_r3_4_limit_all_in_of_half_a_bet_counts_as_a_raise():
    # TDA 47 (limit): an all-in of at least half a bet reopens the betting.
    hand = make_hand(rules=limit_rules(), stacks=[1000, 1000, 25, 1000])
    limp_to_flop(hand)
    hand.raise_to(10)  # small blind bets 10
    hand.raise_to(15)  # the big blind is all-in for 15: a raise of half a bet
    assert hand.min_raise_to() == 25  # the next raise is a full bet on top
    hand.call()  # UTG calls 15
    hand.call()  # button calls 15
    assert hand.actor == SB
    assert hand.can_raise()  # reopened for the small blind
    hand.raise_to(25)
    hand.call()
    hand.call()
    assert hand.street is Street.TURN
    assert hand.pot_total == 40 + 15 + 25 * 3


def test_r3_4_limit_all_in_of_less_than_half_a_bet_is_no_raise():
    hand = make_hand(rules=limit_rules(), stacks=[1000, 1000, 24, 1000])
    limp_to_flop(hand)
    hand.raise_to(10)  # small blind bets
    hand.raise_to(14)  # big blind all-in: 4 more, less than half a bet
    assert hand.min_raise_to() == 20  # UTG completes the raise to a full bet
    hand.call()  # UTG calls 14
    hand.call()  # button calls 14
    assert hand.actor == SB
    assert not hand.can_raise()  # R3.7: not reopened for the small blind
    with pytest.raises(IllegalAction, match="R3.7"):
        hand.raise_to(20)
    hand.call()
    assert hand.street is Street.TURN
    assert hand.pot_total == 40 + 14 * 4


def test_r3_7_short_all_in_does_not_reopen_for_players_who_acted():
    hand = make_hand(stacks=[350, 1000, 1000, 1000])
    hand.raise_to(300)  # UTG raises 200
    hand.raise_to(350)  # button all-in: a raise of only 50
    assert hand.actor == SB
    assert hand.can_raise()  # R3.7: a player who has not acted may still raise
    assert hand.min_raise_to() == 550
    hand.call()
    hand.call()
    assert hand.actor == UTG
    assert not hand.can_raise()
    with pytest.raises(IllegalAction, match="does not reopen"):
        hand.raise_to(550)
    assert hand.call_amount() == 50
    hand.call()
    assert hand.street is Street.FLOP
    assert hand.pot_total == 1400
    assert hand.stacks == [0, 650, 650, 650]


def test_r3_7_short_all_ins_adding_up_to_a_full_raise_reopen():
    hand = make_hand(stacks=[400, 500, 1000, 1000])
    hand.raise_to(300)  # UTG raises 200
    hand.raise_to(400)  # button all-in, 100 more
    hand.raise_to(500)  # small blind all-in, 100 more: together a full raise of 200
    hand.call()  # big blind calls 500 (he had not acted)
    assert hand.actor == UTG
    assert hand.can_raise()  # TDA 47: faces 200 = a full raise
    assert hand.min_raise_to() == 700
    hand.raise_to(700)
    assert hand.actor == BB
    assert hand.can_raise()  # the big blind faces a full raise too
    hand.call()
    assert hand.street is Street.FLOP
    assert hand.stacks == [0, 0, 300, 300]


def test_r3_7_caller_of_a_short_all_in_facing_less_than_a_full_raise_cannot_raise():
    hand = make_hand(stacks=[150, 1000, 220, 1000], button=0)
    hand.call()  # UTG calls 100
    hand.raise_to(150)  # button all-in: 50 more, short
    hand.call()  # small blind calls 150
    hand.raise_to(220)  # big blind all-in: 70 more; 120 over UTG's 100
    assert hand.actor == UTG
    assert hand.can_raise()  # UTG faces 120 >= 100
    hand.call()
    assert hand.actor == SB
    assert not hand.can_raise()  # the small blind faces only 70
    hand.call()
    assert hand.street is Street.FLOP
    assert hand.pot_total == 150 + 220 * 3


def test_r3_7_house_option_any_all_in_reopens():
    rules = make_rules(any_all_in_reopens=True)
    hand = make_hand(rules=rules, stacks=[350, 1000, 1000, 1000])
    hand.raise_to(300)
    hand.raise_to(350)
    hand.call()
    hand.call()
    assert hand.actor == UTG
    assert hand.can_raise()
    assert hand.min_raise_to() == 550


def test_no_raise_when_every_other_player_is_all_in():
    hand = make_hand(stacks=[1000, 1000, 300])
    hand.fold()
    hand.call()  # small blind completes
    hand.raise_to(300)  # big blind all-in
    assert not hand.can_raise()
    with pytest.raises(IllegalAction, match="all-in"):
        hand.raise_to(1000)
    hand.call()
    assert hand.is_over
    assert chips(hand) == 2300


def test_check_facing_a_bet_and_fold_without_one_are_refused_and_change_nothing():
    hand = make_hand(stacks=[1000] * 3)
    before = (list(hand.stacks), list(hand.bets), hand.actor, len(hand.records))
    with pytest.raises(IllegalAction, match="cannot check"):
        hand.check()
    assert (list(hand.stacks), list(hand.bets), hand.actor, len(hand.records)) == before
    limp_to_flop(hand)
    with pytest.raises(IllegalAction, match="no bet to fold"):
        hand.fold()
    with pytest.raises(IllegalAction, match="no bet to call"):
        hand.call()


def test_r7_1_a_pot_limit_bet_rounds_up_to_the_smallest_chip_in_play():
    rules = make_rules(betting=Betting.POT_LIMIT, blinds=(25, 50), smallest_chip=25, omaha=True)
    hand = Hand.start(rules=rules, stacks=[5_000, 5_000, 5_000], button=0, deck=new_deck())
    hand.call()  # the button: pot 125
    # R3.6: the small blind may raise the pot after his call: 50 + (125 + 25) = 200, a whole
    # number of 25s already; the big blind then faces a pot of 325 after a call of 150.
    assert hand.max_raise_to() == 200
    hand.raise_to(185)  # not a multiple of the chip: allowed, any whole amount is a bet
    # Pot 285, to call 135: max = 185 + 285 + 135 = 605, rounded up to 625 (R7.1).
    assert hand.max_raise_to() == 625
    plain = make_rules(betting=Betting.POT_LIMIT, blinds=(25, 50), omaha=True)
    same = Hand.start(rules=plain, stacks=[5_000] * 3, button=0, deck=new_deck())
    same.call()
    same.raise_to(185)
    assert same.max_raise_to() == 605


def test_r7_1_the_smallest_chip_is_at_least_one():
    with pytest.raises(ValueError, match="smallest chip"):
        make_rules(smallest_chip=0)
