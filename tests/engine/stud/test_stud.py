"""Seven-card stud (R7.2): whole scripted hands that check every chip, the bring-in and its
completion, the cap, the open pair, the order of action, the common card, side pots, the odd
chip, the server's moves, illegal moves, and PHH histories."""

from __future__ import annotations

import random
import warnings
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pytest
from pokerkit import HandHistory

from tables.engine import (
    DECK_SIZE,
    Call,
    Card,
    Cause,
    Check,
    Fold,
    IllegalAction,
    OddChip,
    PostAnte,
    Pot,
    RaiseTo,
    ShowHand,
    TimeOut,
    new_deck,
    parse_card,
    parse_cards,
)
from tables.engine.phh import (
    IllegalHistory,
    PHHError,
    UnsupportedVariant,
    load_stud,
    read_stud,
    stacks_match,
    write_stud,
)
from tables.engine.stud import (
    BringIn,
    DealCommon,
    DealStud,
    StudHand,
    StudRules,
    StudStreet,
    high_hand_seat,
    low_card_seat,
    rank_sum,
    showing_key,
)

PHH = Path(__file__).resolve().parents[1] / "phh"
RULES = StudRules(ante=5, bring_in=10, small_bet=20, big_bet=40)


def stud_deck(
    third: Sequence[str], *streets: Sequence[str], common: str | None = None
) -> list[Card]:
    """A deck that deals these cards: ``third`` is each player's 'down down up' ('AsAdKh'),
    each of ``streets`` the cards of the next street to the players still in, in position
    order; burns (skipped when the stub holds just enough, R7.2) and the rest are filled in."""
    n = len(third)
    deck: list[Card | None] = [None] * DECK_SIZE
    for seat, text in enumerate(third):
        for k, card in enumerate(parse_cards(text)):
            deck[k * n + seat] = card
    position = 3 * n
    for cards in streets:
        if DECK_SIZE - position > len(cards):
            position += 1  # the burn card
        for card in cards:
            deck[position] = parse_card(card)
            position += 1
    if common is not None:
        position += 1 if DECK_SIZE - position >= 2 else 0
        deck[position] = parse_card(common)
    unused = iter(card for card in new_deck() if card not in deck)
    return [next(unused) if card is None else card for card in deck]


def start(third, *streets, stacks=None, rules=RULES, common=None) -> StudHand:
    deck = stud_deck(third, *streets, common=common)
    return StudHand.start(rules=rules, stacks=stacks or [1000] * len(third), deck=deck)


def chips(hand: StudHand) -> int:
    """Every chip at the table: stacks, plus the pot while the hand runs."""
    return sum(hand.stacks) + (0 if hand.is_over else hand.pot_total)


def assert_replays(hand: StudHand) -> None:
    again = StudHand.replay(rules=hand.rules, stacks=hand.starting_stacks, records=hand.records)
    assert again.records == hand.records
    assert again.stacks == hand.stacks
    assert again.is_over == hand.is_over


def snapshot(hand: StudHand) -> tuple:
    rnd = hand.round
    return (
        list(hand.stacks), list(hand.bets), list(hand.contributed), hand.pot_total,
        hand.actor, hand.street, hand.is_over, len(hand.records), list(hand.acted),
        list(hand.folded), list(hand.protected),
        (rnd.current_bet, rnd.full_level, rnd.raises, rnd.sizes, rnd.bring_in_due),
    )  # fmt: skip


def assert_refused(hand: StudHand, move, match: str | None = None) -> None:
    before = snapshot(hand)
    with pytest.raises(IllegalAction, match=match):
        move()
    assert snapshot(hand) == before


def check_round(hand: StudHand) -> None:
    """Everyone left checks this round."""
    street = hand.street
    while hand.street is street and not hand.is_over:
        hand.check()


# -- the table and the bring-in --------------------------------------------------------------


def test_r7_2_at_most_eight_players():
    with pytest.raises(ValueError, match="R7.2"):
        StudHand.start(rules=RULES, stacks=[1000] * 9)
    with pytest.raises(ValueError, match="R7.2"):
        StudHand.start(rules=RULES, stacks=[1000])
    with pytest.raises(ValueError, match="bring-in"):
        StudRules(bring_in=30, small_bet=20, big_bet=40)
    hand = StudHand.start(rules=RULES, stacks=[1000] * 8)  # R1.1: a fresh CSPRNG shuffle
    dealt = [card for cards in hand.hole_cards for card in cards or ()]
    assert len(dealt) == len(set(dealt)) == 24


def test_r7_2_lowest_up_card_brings_in_suit_deciding():
    # R1.6: clubs are the lowest suit, so the deuce of clubs brings in, not the deuce of
    # diamonds.
    hand = start(["AsKs2d", "AhKh2c", "AdKdAc"])
    assert hand.bring_in_seat == hand.actor == 1
    assert hand.up_cards == [(parse_card("2d"),), (parse_card("2c"),), (parse_card("Ac"),)]
    assert hand.down_cards[1] == tuple(parse_cards("AhKh"))
    assert low_card_seat(range(3), hand.up_cards) == 1


def test_r7_2_bring_in_then_complete_is_no_raise_and_every_chip_counted():
    hand = start(
        ["AsAdKh", "5c6c2c", "9s9h9d"],
        ["Qc", "Jc", "4s"],
        ["7d", "9c", "4h"],
        ["3s", "3h", "8s"],
        ["8h", "Kd", "2s"],
    )
    assert [r for r in hand.records if isinstance(r, PostAnte)] == [
        PostAnte(seat=seat, amount=5) for seat in range(3)
    ]
    assert hand.pot_total == 15 and hand.stacks == [995] * 3
    # The deuce of clubs brings in; he may complete instead (R7.2).
    assert hand.actor == 1 and hand.can_bring_in() and hand.bring_in_amount() == 10
    assert hand.can_raise() and hand.raise_targets() == (20,)
    assert hand.bring_in() == BringIn(seat=1, amount=10)
    assert hand.call_amount() == 10 and hand.raise_targets() == (20,)
    assert hand.raise_to(20) == RaiseTo(seat=2, to=20, amount=20)  # the completion
    assert hand.round.raises == 1  # the complete, then three raises to the cap
    assert hand.raise_to(40) == RaiseTo(seat=0, to=40, amount=40)
    # The completion and the raise reopen the betting to the bring-in.
    assert hand.actor == 1 and hand.can_raise() and hand.call_amount() == 30
    assert hand.call() == Call(seat=1, amount=30)
    assert hand.call() == Call(seat=2, amount=20)
    assert hand.street is StudStreet.FOURTH
    assert hand.pot_total == 135 and hand.stacks == [955] * 3
    # Fourth street: K-Q showing is high; no open pair, so only the small bet.
    assert hand.actor == 0 and hand.raise_targets() == (20,)
    check_round(hand)
    # Fifth street: the open pair of fours acts first; from now on the big bet.
    assert hand.actor == 2 and hand.raise_targets() == (40,)
    assert hand.raise_to(40) == RaiseTo(seat=2, to=40, amount=40, bet=True)
    hand.call()
    hand.call()
    assert hand.pot_total == 255 and hand.stacks == [915] * 3
    assert hand.actor == 2
    check_round(hand)
    assert hand.street is StudStreet.SEVENTH and hand.actor == 2
    hand.raise_to(40)
    hand.fold()
    hand.call()
    assert hand.is_over and hand.street is StudStreet.SHOWDOWN
    # The last aggressor shows first: nines full of fours beat the club flush.
    assert hand.showdown_order == [2, 1]
    shows = [r for r in hand.records if isinstance(r, ShowHand)]
    assert [s.seat for s in shows] == [2, 1]
    assert shows[0].cards == tuple(parse_cards("9s9h9d4s4h8s2s"))
    assert hand.pot_winners == [(2,)]
    assert hand.final_stacks == [915, 875, 1210] and chips(hand) == 3000
    assert_replays(hand)


def test_r7_2_the_bring_in_is_forced_and_completes_to_the_small_bet_only():
    hand = start(["AsAdKh", "5c6c2c", "9s9h9d"])
    assert not (hand.can_fold() or hand.can_check() or hand.can_call())
    assert_refused(hand, hand.fold, "bring in")
    assert_refused(hand, hand.check, "bring in")
    assert_refused(hand, hand.call, "bring in")
    assert_refused(hand, lambda: hand.raise_to(15), "complete to 20, not 15")
    assert_refused(hand, lambda: hand.raise_to(40), "complete to 20, not 40")
    hand.raise_to(20)  # the low card completes himself
    assert hand.records[-1] == RaiseTo(seat=1, to=20, amount=20, bet=True)
    assert hand.actor == 2 and hand.raise_targets() == (40,)
    assert_refused(hand, hand.bring_in, "no bring-in")


def test_r7_2_everyone_calls_the_bring_in_and_the_round_ends():
    hand = start(["AsAdKh", "5c6c2c", "9s9h9d"])
    hand.bring_in()
    hand.call()
    hand.call()
    # The bring-in has no option like a live big blind: fourth street is dealt.
    assert hand.street is StudStreet.FOURTH and hand.pot_total == 45


def test_r2_10_short_bring_in_is_all_in_for_what_he_has():
    hand = start(
        ["KsKh5d", "AsAh2c", "QsQh7d"],
        ["3c", "Ac", "4d"],
        ["Kd", "Ad", "8c"],
        ["9s", "Jd", "Ts"],
        ["6h", "Th", "6s"],
        stacks=[1000, 8, 1000],
    )
    assert hand.stacks == [995, 3, 995]
    assert hand.bring_in_amount() == 3
    assert hand.bring_in() == BringIn(seat=1, amount=3, all_in=True)
    # The others call what he posted, or complete to the small bet.
    assert hand.call_amount() == 3 and hand.raise_targets() == (20,)
    hand.raise_to(20)
    hand.call()
    assert hand.pots == [Pot(amount=24, eligible=frozenset({0, 1, 2})),
                         Pot(amount=34, eligible=frozenset({0, 2}))]  # fmt: skip
    # Fourth street: the all-in ace showing is high; the next player who can act opens.
    assert hand.street is StudStreet.FOURTH and hand.opener == 1 and hand.actor == 2
    while not hand.is_over:
        hand.check()
    # Four aces take the main pot; three kings beat two queens for the side pot.
    assert hand.pot_winners == [(1,), (0,)]
    assert hand.final_stacks == [1009, 24, 975] and chips(hand) == 2008
    assert_replays(hand)


def test_r2_10_a_low_card_all_in_from_the_ante_passes_the_bring_in_left():
    hand = start(["KsKh5d", "AsAh2c", "QsQh7d"], stacks=[1000, 5, 1000])
    assert hand.stacks == [995, 0, 995]
    assert hand.opener == 1 and hand.bring_in_seat == hand.actor == 2
    assert hand.can_bring_in()


def test_the_cards_run_out_when_at_most_one_player_can_bet():
    hand = start(["KsKh5d", "AsAh2c", "QsQh7d"], stacks=[5, 3, 1000])
    assert hand.is_over and hand.actor is None
    assert hand.contributed == [5, 3, 5]  # R2.10: the short ante is all-in
    assert sum(isinstance(r, DealStud) for r in hand.records) == 15
    assert chips(hand) == 1008
    assert_replays(hand)


# -- the cap and the open pair ---------------------------------------------------------------


def test_r7_2_raise_war_hits_the_cap_after_the_complete_and_three_raises():
    hand = start(["AsAdKh", "5c6c2c", "9s9h9d", "8s8h8d"], ["Qc", "Jc", "4s", "Tc"],
                 ["7d", "9c", "4h", "Td"])  # fmt: skip
    hand.bring_in()
    for to in (20, 40, 60, 80):  # the complete, then three raises
        hand.raise_to(to)
    assert hand.round.raises == 4 and not hand.can_raise() and hand.can_call()
    assert_refused(hand, lambda: hand.raise_to(100), "capped at 4 bets")
    while hand.street is StudStreet.THIRD:
        hand.call()
    assert hand.pot_total == 20 + 4 * 80
    check_round(hand)
    for to in (40, 80, 120, 160):  # fifth street: a bet and three raises of the big bet
        hand.raise_to(to)
    assert not hand.can_raise()
    while hand.street is StudStreet.FIFTH:
        hand.call()
    assert hand.pot_total == 340 + 4 * 160 and chips(hand) == 4000


def test_r7_2_a_full_bring_in_is_the_bet_under_the_cap():
    rules = StudRules(ante=0, bring_in=20, small_bet=20, big_bet=40, cap=3)
    hand = start(["AsAdKh", "5c6c2c", "9s9h9d"], rules=rules)
    assert not hand.can_raise()  # nothing to complete
    hand.bring_in()
    hand.raise_to(40)
    hand.raise_to(60)
    assert hand.round.raises == 3 and not hand.can_raise()


def test_r7_2_an_open_pair_on_fourth_street_allows_the_big_bet():
    hand = start(["AsAdKh", "5c6c2c", "9s9h9d"], ["Kc", "Jc", "4s"])
    hand.bring_in()
    hand.call()
    hand.call()
    # The pair of kings showing acts first and may bet the small or the big bet.
    assert hand.street is StudStreet.FOURTH and hand.actor == 0
    assert hand.raise_targets() == (20, 40)
    assert (hand.min_raise_to(), hand.max_raise_to()) == (20, 40)
    assert_refused(
        hand,
        lambda: hand.raise_to(30),
        "bet 20 or 40 \\(R7.2: an open pair on fourth street\\), not 30",
    )
    hand.raise_to(20)
    # After a small bet, a raise of the small or the big bet (seed 003).
    assert hand.raise_targets() == (40, 60)
    hand.raise_to(60)
    # After a big raise, every raise is a big one.
    assert hand.raise_targets() == (100,)
    hand.call()
    assert hand.actor == 0 and hand.raise_targets() == (100,)
    hand.call()
    assert hand.street is StudStreet.FIFTH and hand.pot_total == 45 + 180
    assert chips(hand) == 3000
    assert_replays(hand)


def test_r7_2_after_the_open_pair_checks_the_next_player_has_the_same_choice():
    hand = start(["AsAdKh", "5c6c2c", "9s9h9d"], ["Kc", "Jc", "4s"])
    hand.bring_in()
    hand.call()
    hand.call()
    hand.check()
    assert hand.actor == 1 and hand.raise_targets() == (20, 40)
    hand.raise_to(40)
    assert hand.raise_targets() == (80,)


def test_r7_2_the_open_pair_counts_only_on_fourth_street_and_a_short_stack_goes_all_in():
    hand = start(
        ["AsAdKh", "5c6c2c", "9s9h9d"], ["Kc", "Jc", "4s"], ["7d", "9c", "4h"],
        stacks=[1000, 1000, 45],
    )  # fmt: skip
    hand.bring_in()
    hand.call()
    hand.call()
    hand.check()
    hand.check()
    # The short stack has 30 left: he may bet the small bet or go all-in for less than
    # the big one.
    assert hand.actor == 2 and hand.raise_targets() == (20, 30)
    hand.check()
    assert hand.street is StudStreet.FIFTH and hand.raise_targets() == (40,)


# -- the order of action ---------------------------------------------------------------------


def test_r7_2_best_showing_hand_acts_first_on_each_street_ties_by_suit():
    hand = start(
        ["2s3sKd", "4s5sKs", "6s7s2c"],
        ["5c", "5h", "9c"],
        ["Jd", "8d", "9h"],
        ["Jh", "8h", "Tc"],
        ["Qc", "Qh", "Td"],
    )
    hand.bring_in()
    hand.call()
    hand.call()
    # Fourth street: K-5 against K-5: the king of spades beats the king of diamonds
    # (seed 003: ties by suit, R1.6).
    assert hand.street is StudStreet.FOURTH and hand.actor == 1
    check_round(hand)
    assert hand.street is StudStreet.FIFTH and hand.actor == 2  # a pair of nines showing
    check_round(hand)
    assert hand.street is StudStreet.SIXTH and hand.actor == 0  # jacks beat nines
    check_round(hand)
    assert hand.street is StudStreet.SEVENTH and hand.actor == 0  # seventh street is down
    check_round(hand)
    # No bet on the last street: the high hand on board shows first.
    assert hand.showdown_order == [0, 1, 2]
    assert hand.pot_winners == [(2,)]  # tens and nines
    assert hand.final_stacks == [985, 985, 1030]
    assert_replays(hand)


def test_showing_hands_rank_groups_then_ranks_then_suits():
    def key(text):
        return showing_key(parse_cards(text))

    assert key("2c2d") > key("AsKs")  # a pair beats high cards
    assert key("3c3d3h") > key("AsAhKs")  # trips beat a pair
    assert key("4c4d2c2d") > key("AsAh3c")  # two pair beat a pair
    assert key("AsKs") > key("AhKh") > key("AdKs")  # ranks tie: the highest suit
    assert key("7h7d3c") > key("7s7c2d")  # ranks first: the better kicker
    assert key("9s8s7s6s") < key("2c2d")  # straights and flushes on board do not count
    assert key("2c2d2h2s") > key("AcAdAhKs")  # quads; with the common card, a full house
    assert key("AcAdAh2s") < key("7c7d7hKcKd") < key("3c3d3h3s7s")
    up = [tuple(parse_cards(text)) for text in ("KdQc", "KsQh", "2c2d")]
    assert high_hand_seat([0, 1], up, []) == 1
    assert high_hand_seat([0, 1, 2], up, []) == 2
    assert high_hand_seat([0, 1], up, [parse_card("Qs")]) == 1


# -- the deck runs out -----------------------------------------------------------------------


def test_r7_2_eight_players_get_a_common_card_when_the_deck_runs_out():
    deck = new_deck()
    deck[24], deck[51] = deck[51], deck[24]  # the common card is the eight of clubs
    hand = StudHand.start(rules=RULES, stacks=[1000] * 8, deck=deck)
    assert hand.actor == 0  # the six of clubs
    hand.bring_in()
    for _ in range(7):
        hand.call()
    for street in (StudStreet.FOURTH, StudStreet.FIFTH, StudStreet.SIXTH):
        assert hand.street is street and hand.actor == 7  # the seven of spades' hand
        check_round(hand)
    # R7.2: one card is left for eight players: no burn, one common card, face up.
    assert hand.street is StudStreet.SEVENTH
    assert hand.board == [parse_card("8c")] and hand.common_card == parse_card("8c")
    assert DealCommon(card=parse_card("8c")) in hand.records
    assert all(len(cards) == 6 for cards in hand.hole_cards)
    # With the common card three players show a pair of eights: 8-8-K-J-6 is high.
    assert hand.actor == 2
    check_round(hand)
    dealt = [c for r in hand.records if isinstance(r, DealStud) for c in (*r.down, *r.up)]
    assert len(dealt) == len(set(dealt)) == 48
    assert len({*dealt, *hand.burned, *hand.board}) == 52  # three burns, no reuse
    # Eights with king, jack: the best of three pairs of eights, the common card's.
    assert hand.pot_winners == [(2,)]
    assert hand.final_stacks == [985, 985, 1105, 985, 985, 985, 985, 985]
    assert_replays(hand)


def test_seven_players_skip_the_last_burn_and_each_get_a_seventh_card():
    hand = StudHand.start(rules=RULES, stacks=[1000] * 7, deck=new_deck())
    hand.bring_in()
    while not hand.is_over:
        hand.check() if hand.can_check() else hand.call()
    assert not hand.board
    sevenths = [r.down for r in hand.records if isinstance(r, DealStud) and r.street == 7]
    assert sevenths == [(card,) for card in range(45, 52)]  # seed 003: no burn
    assert hand.burned == (21, 29, 37)
    assert all(len(cards) == 7 for cards in hand.hole_cards)


# -- pots and the odd chip -------------------------------------------------------------------


def test_r4_1_side_pots_with_a_short_all_in():
    hand = start(
        ["AsAh3c", "KsQd5h", "9d8d2c"],
        ["4d", "5s", "Jc"],
        ["Ad", "Kh", "Jd"],
        ["7c", "Qs", "6h"],
        ["Tc", "2d", "3h"],
        stacks=[100, 1000, 1000],
    )
    hand.bring_in(seat=2)
    hand.call(seat=0)
    hand.call(seat=1)
    hand.raise_to(20, seat=1)  # the open pair of fives; the small bet
    hand.call(seat=2)
    hand.call(seat=0)
    hand.raise_to(40, seat=2)  # fifth street: the jacks showing bet the big bet
    hand.call(seat=0)
    hand.call(seat=1)
    hand.raise_to(40, seat=2)
    assert hand.call(seat=0) == Call(seat=0, amount=25, all_in=True)
    hand.call(seat=1)
    assert hand.pots == [Pot(amount=300, eligible=frozenset({0, 1, 2})),
                         Pot(amount=30, eligible=frozenset({1, 2}))]  # fmt: skip
    hand.check(seat=2)
    hand.check(seat=1)
    # Three aces win the main pot; kings and queens beat jacks for the side pot.
    assert hand.showdown_order == [2, 0, 1]
    assert hand.pot_winners == [(0,), (1,)]
    assert hand.final_stacks == [300, 915, 885] and chips(hand) == 2100
    assert_replays(hand)


@pytest.mark.parametrize(
    ("rule", "stacks"),
    [(OddChip.HIGHEST_CARD, [1002, 1003, 995]), (OddChip.LEFT_OF_BUTTON, [1003, 1002, 995])],
)
def test_r4_2_odd_chip_of_a_split_pot(rule, stacks):
    rules = StudRules(ante=5, bring_in=10, small_bet=20, big_bet=40, odd_chip=rule)
    hand = start(
        ["5d6d3d", "5h6h2c", "KsKhQc"],
        ["7s", "7h"],
        ["8d", "8c"],
        ["9c", "9h"],
        ["2s", "3s"],
        rules=rules,
    )
    hand.bring_in()
    hand.fold()
    hand.call()
    while not hand.is_over:
        hand.check()
    # Two nine-high straights split 35. HIGHEST_CARD (the default, Robert's Rules for stud):
    # the nine of hearts is the highest card of either hand; LEFT_OF_BUTTON: position 0.
    assert hand.pot_winners == [(1, 0)] if rule is OddChip.HIGHEST_CARD else [(0, 1)]
    assert hand.final_stacks == stacks


# -- the server's moves ----------------------------------------------------------------------


def test_r2_9_r3_10_server_moves_at_the_bring_in_and_after():
    hand = start(["AsAdKh", "5c6c2c", "9s9h9d"])
    assert hand.absent() == BringIn(seat=1, amount=10, cause=Cause.ABSENT)
    hand.raise_to(20)
    assert hand.out_of_time() == Fold(seat=0, cause=Cause.CLOCK)
    assert hand.time_out() == TimeOut(seat=1)  # chips in: protected, stays in
    assert hand.protected[1] and not hand.folded[1]
    # Only one player can still bet: the cards run out.
    assert hand.is_over and chips(hand) == 3000
    assert_replays(hand)


@pytest.mark.parametrize("cause", [Cause.CLOCK, Cause.TIME_OUT])
def test_r3_10_a_timed_out_low_card_posts_the_bring_in(cause):
    hand = start(["AsAdKh", "5c6c2c", "9s9h9d"])
    move = hand.out_of_time if cause is Cause.CLOCK else hand.time_out
    assert move() == BringIn(seat=1, amount=10, cause=cause)
    assert hand.protected[1] is (cause is Cause.TIME_OUT)
    hand.raise_to(20)
    hand.call()
    if cause is Cause.CLOCK:
        assert hand.actor == 1
        assert hand.out_of_time() == Fold(seat=1, cause=Cause.CLOCK)
    assert hand.street is StudStreet.FOURTH
    assert_replays(hand)


def test_r3_10_a_time_out_with_no_chips_in_folds():
    rules = StudRules(bring_in=10, small_bet=20, big_bet=40)
    hand = start(["AsAdKh", "5c6c2c", "9s9h9d"], rules=rules)
    hand.bring_in()
    assert hand.time_out() == Fold(seat=2, cause=Cause.TIME_OUT)
    hand.call()
    first = hand.actor  # fourth street, nothing bet
    assert hand.absent() == Check(seat=first, cause=Cause.ABSENT)
    assert_replays(hand)


# -- illegal moves ---------------------------------------------------------------------------


def test_out_of_turn_and_illegal_amounts_are_refused_and_change_nothing():
    hand = start(["AsAdKh", "5c6c2c", "9s9h9d"], ["Kc", "Jc", "4s"])
    assert not hand.can_bring_in(seat=0)
    assert_refused(hand, lambda: hand.bring_in(seat=0), "seat 1's turn")
    assert_refused(hand, lambda: hand.raise_to(20, seat=2), "seat 1's turn")
    hand.bring_in()
    assert_refused(hand, hand.check, "cannot check facing a bet; call 10")
    assert_refused(hand, lambda: hand.raise_to(10), "complete to 20, not 10")
    assert_refused(hand, lambda: hand.raise_to(40), "complete to 20, not 40")
    hand.call()
    hand.call()
    assert_refused(hand, hand.fold, "check instead")
    assert_refused(hand, hand.call, "no bet to call")
    assert_refused(
        hand,
        lambda: hand.raise_to(19),
        "bet 20 or 40 \\(R7.2: an open pair on fourth street\\), not 19",
    )
    assert_refused(hand, lambda: hand.raise_to(41), "not 41")
    hand.raise_to(40)
    assert_refused(hand, lambda: hand.raise_to(100), "raise to 80, not 100")
    hand.fold()
    hand.fold()
    assert hand.is_over and hand.final_stacks == [1030, 985, 985]  # the 40 came back
    assert_refused(hand, hand.check, "the hand is over")
    assert_refused(hand, hand.time_out, "the hand is over")
    with pytest.raises(ValueError, match="not what replaying"):
        StudHand.replay(rules=RULES, stacks=[1000] * 3, records=hand.records[:-1])


@pytest.mark.parametrize(("short", "reopens"), [(42, False), (50, True)])
def test_tda_47_a_short_all_in_reopens_only_from_half_a_bet(short, reopens):
    hand = start(["AsAdKh", "5c6c2c", "9s9h9d"], ["Ac", "3d", "4s"], stacks=[1000, 1000, short])
    hand.bring_in()
    hand.call()
    hand.call()
    hand.raise_to(20, seat=0)
    hand.call(seat=1)
    all_in = short - 15  # the ante and the bring-in called
    assert hand.raise_targets() == (all_in,)
    assert hand.raise_to(all_in, seat=2) == RaiseTo(seat=2, to=all_in, amount=all_in, all_in=True)
    # 7 more is below half the small bet: no raise (R3.7, TDA 47); 15 is a raise.
    assert hand.call_amount() == all_in - 20
    assert hand.can_raise() is reopens
    if reopens:
        assert hand.raise_targets() == (all_in + 20,)
    else:
        assert_refused(hand, lambda: hand.raise_to(47), "does not reopen the betting")
    hand.call()
    hand.call()
    assert hand.street is StudStreet.FIFTH and chips(hand) == 2000 + short


# -- PHH -------------------------------------------------------------------------------------


def stud_files() -> list[Path]:
    paths = sorted(PHH.glob("wsop/**/*.phh"))
    return [p for p in paths if "variant = 'F7S'" in p.read_text(encoding="utf-8")]


def test_real_wsop_stud_hands_replay_strictly_to_their_finishing_stacks():
    paths = stud_files()
    assert len(paths) == 13
    for path in paths:
        history = load_stud(path.read_text(encoding="utf-8"))
        hand = read_stud(path.read_text(encoding="utf-8"))
        computed = [Fraction(stack, history.scale) for stack in hand.stacks]
        assert stacks_match(computed, list(history.finishing_stacks or ())), path
        again = read_stud(write_stud(hand))
        assert again.records == hand.records, path


def played_hand() -> StudHand:
    """A hand with every kind of record: a common card, server moves, a showdown."""
    deck = new_deck()
    hand = StudHand.start(rules=RULES, stacks=[1000] * 7 + [400], deck=deck)
    hand.absent()  # the bring-in, posted for an absent player
    hand.raise_to(20)
    hand.call()
    hand.time_out()  # seat 3 dropped: protected with his ante in
    while not hand.is_over:
        if hand.street is StudStreet.FIFTH and hand.can_bet():
            hand.raise_to(40)
        elif hand.actor == 5 and hand.can_call() and hand.street > StudStreet.THIRD:
            # A fold from fourth street on: R7.2's reshuffle cannot give all seven a card.
            hand.out_of_time()
        else:
            hand.check() if hand.can_check() else hand.call()
    return hand


def test_phh_round_trips_a_stud_hand_with_a_common_card_and_server_moves():
    hand = played_hand()
    assert hand.board and any(isinstance(r, TimeOut) for r in hand.records)
    text = write_stud(hand, players=[f"P{k}" for k in range(8)])
    assert 'variant = "F7S"' in text and "bring_in = 10" in text
    assert '"d dh p1 2c4c6c"' in text and '"p1 pb # absent"' in text
    assert '"d db' in text and '"p4 _floorman_time_out"' in text
    again = read_stud(text)
    assert again.records == hand.records
    assert again.stacks == hand.stacks


def test_phh_public_history_hides_down_cards_not_shown():
    hand = start(["AsAdKh", "5c6c2c", "9s9h9d"])
    hand.bring_in()
    hand.fold()
    hand.call()
    while not hand.is_over:
        hand.check()
    text = write_stud(hand, public=True)
    assert '"d dh p3 ????9d"' in text  # folded: hidden
    assert '"d dh p1 AsAdKh"' in text  # shown at the showdown
    again = read_stud(text)
    assert again.stacks == hand.stacks
    assert again.down_cards[2] is None


def test_pokerkit_reads_the_written_history_to_the_same_stacks():
    hand = start(
        ["AsAdKh", "5c6c2c", "9s9h9d"],
        ["Qc", "Jc", "4s"],
        ["7d", "9c", "4h"],
        ["3s", "3h", "8s"],
        ["8h", "Kd", "2s"],
    )
    hand.bring_in()
    hand.raise_to(20)
    hand.call()
    hand.call()
    while not hand.is_over:
        hand.check() if hand.can_check() else hand.call()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(HandHistory.loads(write_stud(hand)))
    assert list(states[-1].stacks) == hand.stacks


@pytest.mark.parametrize(
    ("change", "error"),
    [
        (lambda t: t.replace('"p2 pb"', '"p3 pb"'), "it is p2's turn, not p3's"),
        (lambda t: t.replace('"p2 pb"', '"p2 cc"'), "bring in"),
        (lambda t: t.replace('"p2 pb",', '"p2 pb", "p3 cbr 30",'), "complete to 20"),
        (
            lambda t: t.replace('"d dh p1 Qc",\n  "d dh p2 Jc",', '"d dh p2 Jc",\n  "d dh p1 Qc",'),
            "the deal here is 'd dh p1 Qc'",
        ),
        (lambda t: t.replace("9s9h9d4s4h8s2s", "9s9h9d4s4h8sAc"), "not the hand dealt"),
        (lambda t: t.replace('"F7S"', '"F7S/8"'), "not seven-card stud"),
        (lambda t: t.replace("antes = [5, 5, 5]", "antes = [5, 5, 0]"), "the same ante"),
    ],
)
def test_the_strict_reader_refuses_broken_stud_histories(change, error):
    hand = start(
        ["AsAdKh", "5c6c2c", "9s9h9d"],
        ["Qc", "Jc", "4s"],
        ["7d", "9c", "4h"],
        ["3s", "3h", "8s"],
        ["8h", "Kd", "2s"],
    )
    hand.bring_in()
    while not hand.is_over:
        hand.check() if hand.can_check() else hand.call()
    text = write_stud(hand)
    assert read_stud(text).stacks == hand.stacks
    broken = change(text)
    assert broken != text
    with pytest.raises((IllegalHistory, PHHError, UnsupportedVariant), match=error):
        read_stud(broken)


def test_the_strict_reader_refuses_a_history_that_stops_early():
    hand = start(["AsAdKh", "5c6c2c", "9s9h9d"])
    hand.bring_in()
    with pytest.raises(IllegalHistory, match="p3 to act"):
        read_stud(write_stud(hand))


def test_r7_2_high_hand_by_rank_sum_agrees_with_showing_key():
    # high_hand_seat looks up each hand's category and ranks by its rank sum and compares
    # suits only between equal ranks; it must pick the seat that showing_key ranks highest
    # (R7.2, seed 003's suit tie-break), with and without the common card.
    rng = random.Random(19)
    pairs_or_better = 0
    for trial in range(4000):
        deck = list(range(52))
        rng.shuffle(deck)
        if trial % 2:  # few ranks: pairs, two pair, trips, quads, equal ranks by suit
            deck.sort(key=lambda card: (card >> 2) % 3)
        size, players = rng.choice((2, 3, 4)), rng.randint(2, 8)
        up = [tuple(deck[k * size : (k + 1) * size]) for k in range(players)]
        board = [deck[-1]] if trial % 3 == 0 else []
        live = sorted(rng.sample(range(players), rng.randint(1, players)))
        expected = max(live, key=lambda seat: showing_key([*up[seat], *board]))
        assert high_hand_seat(live, up, board) == expected, (live, up, board)
        sums = [rank_sum(cards) for cards in up]  # as a hand keeps them, street by street
        assert high_hand_seat(live, up, board, sums) == expected
        pairs_or_better += showing_key([*up[expected], *board])[0] > 0
    assert pairs_or_better > 1000  # the paired shapes were tried, not only high cards
