"""Side pots (R3.9), uncalled bets, showdown (R4.1) and the odd chip (R4.2)."""

from tables.engine import (
    AnteMode,
    AwardPot,
    OddChip,
    Pot,
    ReturnUncalled,
    ShowHand,
    Street,
    build_pots,
    split_pot,
)
from tests.engine.factories import chips, make_hand, make_rules


def test_r3_9_pots_from_contribution_levels():
    pots = build_pots([100, 300, 500, 500], [True, True, True, True])
    assert pots == [
        Pot(amount=400, eligible=frozenset({0, 1, 2, 3})),
        Pot(amount=600, eligible=frozenset({1, 2, 3})),
        Pot(amount=400, eligible=frozenset({2, 3})),
    ]


def test_r3_9_folded_chips_are_dead_money_in_the_pots_they_reach():
    pots = build_pots([200, 50, 300, 300], [True, False, False, True])
    assert pots == [
        Pot(amount=650, eligible=frozenset({0, 3})),
        Pot(amount=200, eligible=frozenset({3})),
    ]


def test_big_blind_ante_is_dead_money_in_the_main_pot():
    assert build_pots([150, 50, 150], [True, False, True], dead=100) == [
        Pot(amount=450, eligible=frozenset({0, 2}))
    ]


def test_big_blind_ante_short_all_in_wins_the_whole_ante():
    rules = make_rules(ante=100, ante_mode=AnteMode.BIG_BLIND)
    hand = make_hand(
        rules=rules,
        stacks=[150, 1000, 1000],
        hole=["AsAh", "KsKd", "2c3d"],
        board="Qc8d7s4h2s",
    )
    hand.raise_to(150)  # button all-in
    hand.fold()
    hand.call()
    assert hand.is_over
    # The whole ante is in the main pot: no side pot gives part of it back to the big blind.
    assert hand.pots == [Pot(amount=450, eligible=frozenset({0, 2}))]
    assert hand.stacks == [450, 950, 750]


def test_split_pot_gives_odd_chips_in_the_order_given():
    assert split_pot(25, [2, 0]) == [(2, 13), (0, 12)]
    assert split_pot(20, [3, 1, 2]) == [(3, 7), (1, 7), (2, 6)]


def test_r3_9_r4_1_three_all_ins_make_side_pots_each_to_its_best_hand():
    # Seat 3 (shortest) has the best hand, seat 2 the second best, seat 1 the third.
    hand = make_hand(
        stacks=[1000, 300, 500, 100],
        hole=["2c3d", "9h9d", "KsKd", "AsAh"],
        board="Qc8d7s4h2s",
    )
    hand.call()  # UTG (seat 3) calls all-in
    hand.call()  # button
    hand.raise_to(300)  # small blind all-in
    hand.raise_to(500)  # big blind all-in
    hand.call()  # button calls 500
    assert hand.is_over
    assert hand.street is Street.SHOWDOWN
    assert hand.pots == [
        Pot(amount=400, eligible=frozenset({0, 1, 2, 3})),
        Pot(amount=600, eligible=frozenset({0, 1, 2})),
        Pot(amount=400, eligible=frozenset({0, 2})),
    ]
    awards = [r for r in hand.records if isinstance(r, AwardPot)]
    assert awards == [
        AwardPot(pot=0, amount=400, shares=((3, 400),)),
        AwardPot(pot=1, amount=600, shares=((2, 600),)),
        AwardPot(pot=2, amount=400, shares=((2, 400),)),
    ]
    assert hand.payouts == [0, 0, 1000, 400]
    assert hand.stacks == [500, 0, 1000, 400]
    assert chips(hand) == 1900


def test_uncalled_bet_returns_before_pots_are_built():
    hand = make_hand(stacks=[1000, 1000, 400], hole=["AsAh", "KsKd", "2c3d"], board="Qc8d7s4h2s")
    hand.raise_to(1000)  # button all-in
    hand.fold()
    hand.call()  # big blind calls all-in for 400
    assert ReturnUncalled(seat=0, amount=600) in hand.records
    assert hand.pots == [Pot(amount=850, eligible=frozenset({0, 2}))]
    assert hand.stacks == [1450, 950, 0]


def test_everyone_folds_the_last_player_takes_the_pot_without_showing():
    hand = make_hand(stacks=[1000] * 3)
    hand.raise_to(300)
    hand.fold()
    hand.fold()
    assert hand.is_over
    assert not any(isinstance(r, ShowHand) for r in hand.records)
    assert hand.records[-2] == ReturnUncalled(seat=0, amount=200)
    assert hand.records[-1] == AwardPot(pot=0, amount=250, shares=((0, 250),))
    assert hand.stacks == [1150, 950, 900]


def test_showdown_last_aggressor_shows_first_else_left_of_button():
    hand = make_hand(stacks=[1000] * 3, hole=["AsAh", "KsKd", "2c3d"], board="Qc8d7s4h2s")
    for _ in range(2):
        hand.call() if hand.can_call() else hand.check()
    hand.check()
    for _ in range(6):
        hand.check()
    hand.check()
    hand.raise_to(100)  # the big blind bets the river
    hand.call()
    hand.call()
    assert hand.showdown_order == [2, 0, 1]
    hand = make_hand(stacks=[1000] * 3, hole=["AsAh", "KsKd", "2c3d"], board="Qc8d7s4h2s")
    hand.call()
    hand.call()
    while not hand.is_over:
        hand.check()
    assert hand.showdown_order == [1, 2, 0]


def split_hand(rules, hole):
    """Button 0 calls, the small blind (seat 1) folds, the big blind checks it down: the
    board plays, 25 chips split between seats 0 and 2."""
    hand = make_hand(rules=rules, stacks=[1000] * 3, hole=hole, board="AcKcQcJcTc")
    hand.call()
    hand.fold()
    while not hand.is_over:
        hand.check()
    return hand


def test_r4_1_equal_hands_split_r4_2_odd_chip_left_of_button():
    hand = split_hand(make_rules(blinds=(5, 10)), ["AsAh", "2c3d", "2d3h"])
    assert hand.records[-1] == AwardPot(pot=0, amount=25, shares=((2, 13), (0, 12)))
    assert hand.stacks == [1002, 995, 1003]


def test_r4_2_house_rule_odd_chip_to_highest_card_suit_deciding():
    rules = make_rules(blinds=(5, 10), odd_chip=OddChip.HIGHEST_CARD)
    hand = split_hand(rules, ["AsAh", "2c3d", "2d3h"])
    assert hand.records[-1] == AwardPot(pot=0, amount=25, shares=((0, 13), (2, 12)))
    hand = split_hand(rules, ["2s4c", "2c3d", "4d3h"])  # 4c vs 4d: diamonds beat clubs
    assert hand.records[-1] == AwardPot(pot=0, amount=25, shares=((2, 13), (0, 12)))
    assert hand.stacks == [1002, 995, 1003]


def test_r4_1_split_side_pot_while_main_pot_goes_to_short_stack():
    hand = make_hand(
        stacks=[1000, 1000, 100],
        hole=["AsKd", "AhKc", "QsQd"],
        board="Qc8d7s4h2s",
    )
    assert hand.bets == [0, 50, 100]  # the big blind is all-in posting
    hand.raise_to(500)
    hand.call()
    while not hand.is_over:
        hand.check()
    assert hand.payouts == [400, 400, 300]
    assert hand.stacks == [900, 900, 300]


def test_omaha_uses_exactly_two_hole_cards():
    rules = make_rules(omaha=True)
    # Seat 0 holds one spade only: no flush; seat 1 holds two spades and makes the flush.
    hand = make_hand(
        rules=rules,
        stacks=[1000, 1000],
        hole=["As2c3d4h", "9s8s2d3c"],
        board="KsQsJs5c6d",
    )
    hand.call()
    while not hand.is_over:
        hand.check()
    assert hand.stacks == [900, 1100]
