"""Hand evaluation: categories, kickers, board play, wheel, splits, Omaha (R1.2-R1.5, R7.1)."""

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.engine import (
    HandCategory,
    cards_name,
    describe,
    evaluate,
    evaluate_omaha,
    evaluate_unchecked,
    parse_cards,
)
from tables.engine.evaluator import category_of, is_royal_flush


def value(text):
    return evaluate(parse_cards(text))


def omaha(hole, board):
    return evaluate_omaha(hole=parse_cards(hole), board=parse_cards(board))


# One hand of each category, weakest first, written out by hand (R1.2).
LADDER = [
    ("KdJs9c7h2d", HandCategory.HIGH_CARD),
    ("2c2d5h7s9c", HandCategory.PAIR),
    ("3c3d2h2s4c", HandCategory.TWO_PAIR),
    ("4c4d4h2s3c", HandCategory.THREE_OF_A_KIND),
    ("Ac2d3h4s5c", HandCategory.STRAIGHT),
    ("2h3h4h5h7h", HandCategory.FLUSH),
    ("2c2d2h3s3c", HandCategory.FULL_HOUSE),
    ("2c2d2h2s3c", HandCategory.FOUR_OF_A_KIND),
    ("Ac2c3c4c5c", HandCategory.STRAIGHT_FLUSH),
]


def test_r1_2_each_category_beats_every_lower_one_even_at_its_weakest():
    values = [value(text) for text, _ in LADDER]
    assert values == sorted(values)
    assert len(set(values)) == len(values)


def test_r1_2_category_of_names_each_category():
    for text, category in LADDER:
        assert category_of(value(text)) == category


def test_r1_2_royal_flush_is_the_ace_high_straight_flush():
    royal = value("AsKsQsJsTs")
    assert category_of(royal) == HandCategory.STRAIGHT_FLUSH
    assert is_royal_flush(royal)
    assert not is_royal_flush(value("KsQsJsTs9s"))
    assert not is_royal_flush(value("AsKsQsJs9s"))
    assert royal > value("KsQsJsTs9s")


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("AdKs9c7h2d", "AcKh9d6s5c"),  # high card: fourth card decides
        ("AcKdQh9s3c", "AcKdQh8s7c"),  # high card: fourth card beats any fifth
        ("9c9dAh4s3c", "9h9sKhQsJc"),  # pair: first kicker
        ("9c9dAhKs3c", "9h9sAcKd2h"),  # pair: third kicker
        ("TcTd9h9s2c", "TcTh8c8sAd"),  # two pair: second pair
        ("TcTd9h9s4c", "ThTs9c9d3c"),  # two pair: kicker
        ("KcKdKh3s2c", "QcQdQhAsKs"),  # trips: the trips before kickers
        ("7c7d7hAs2c", "7c7d7hKsQc"),  # trips on the board: kicker
        ("6c7d8h9sTc", "5c6d7h8s9c"),  # straight: top card
        ("Ah9h7h5h3h", "Ah9h7h5h2h"),  # flush: fifth card
        ("3c3d3hAsAc", "2c2d2hAsAd"),  # full house: trips first
        ("9c9d9h8s8c", "9c9d9h7s7c"),  # full house: then the pair
        ("5c5d5h5sAc", "5c5d5h5sKc"),  # quads: kicker
        ("7c8c9cTcJc", "6h7h8h9hTh"),  # straight flush: top card
    ],
)
def test_r1_2_ties_within_a_category_go_to_the_making_ranks_then_kickers(better, worse):
    assert value(better) > value(worse)
    assert category_of(value(better)) == category_of(value(worse))


def test_r1_2_only_five_cards_count_so_a_sixth_kicker_never_plays():
    # Both make A-K-Q-J-9 high; the third hole-or-board card differs below the fifth card.
    assert value("AcKdQhJs9c8d2h") == value("AcKdQhJs9c7d2h")


def test_r1_3_playing_the_board_splits_with_any_worse_hole_cards():
    board = "AsKsQsJsTs"
    assert value(board + "2c3d") == value(board + "AhAd") == value(board)


def test_r1_3_best_hand_can_use_one_hole_card():
    board = "2c7d9hJsKc"
    assert category_of(value(board + "Kd3h")) == HandCategory.PAIR
    assert value(board + "Kd3h") > value(board + "Qd3h")


def test_r1_3_best_hand_can_use_both_hole_cards():
    assert category_of(value("2c7d9hJsKc" + "8cTd")) == HandCategory.STRAIGHT


def test_r1_3_seventh_card_does_not_count_for_kicker_when_five_are_better():
    # Board straight T-J-Q-K-A: the hole cards (a pair of nines) do not improve it.
    assert value("TcJdQhKsAc" + "9c9d") == value("TcJdQhKsAc" + "2h3h")


def test_r1_3_six_card_hands_are_best_five():
    assert value("AcAdKhKsQc2d") == value("AcAdKhKsQc")
    assert category_of(value("AcAdAhKsKc2d")) == HandCategory.FULL_HOUSE


def test_r1_3_two_trips_make_a_full_house_with_the_higher_trips():
    assert value("9c9d9h4s4c4d2h") == value("9c9d9h4s4c")


def test_r1_3_three_pairs_play_the_top_two_with_the_best_kicker():
    assert value("KcKd8h8s3c3dQh") == value("KcKd8h8sQh")
    assert value("KcKd8h8s3c3d2h") == value("KcKd8h8s3c")


def test_r1_4_wheel_is_the_lowest_straight():
    wheel = value("Ac2d3h4s5c")
    assert category_of(wheel) == HandCategory.STRAIGHT
    assert wheel < value("2c3d4h5s6c")
    assert wheel > value("AcAdAhKsQc")  # any three of a kind


def test_r1_4_six_high_straight_beats_a_wheel_on_the_same_board():
    assert value("Ac2d3h4s5c6d9h") == value("2d3h4s5c6d")


def test_r1_4_steel_wheel_is_a_straight_flush():
    assert category_of(value("Ah2h3h4h5hKc")) == HandCategory.STRAIGHT_FLUSH
    assert value("Ah2h3h4h5h") < value("2h3h4h5h6h")


@pytest.mark.parametrize("text", ["QcKdAh2s3c", "JcQdKhAs2c", "KcAd2h3s4c"])
def test_r1_4_no_wrap_around_straight(text):
    assert category_of(value(text)) == HandCategory.HIGH_CARD


def test_r1_4_no_wrap_around_straight_flush():
    assert category_of(value("QhKhAh2h3h")) == HandCategory.FLUSH


def test_r1_5_hands_differing_only_in_suits_split():
    assert value("AcKcQdJd9h") == value("AsKsQhJh9c")
    assert value("AhKhQhJh9h") == value("AsKsQsJs9s")
    assert value("AhKd" + "7c7d2h9s3c") == value("AsKc" + "7c7d2h9s3c")


def test_duplicate_values_mean_equal_strength():
    # R1.5: a full range of two-pair hands with the same ranks but different suits compare equal.
    base = parse_cards("KcKd7h7s2c")
    swapped = parse_cards("KhKs7c7d2d")
    assert evaluate(base) == evaluate(swapped)


@pytest.mark.parametrize("count", [0, 4, 8])
def test_evaluate_rejects_fewer_than_five_or_more_than_seven_cards(count):
    with pytest.raises(ValueError, match="5 to 7 cards"):
        evaluate(list(range(count)))


def test_evaluate_rejects_duplicate_cards():
    with pytest.raises(ValueError, match="Ah appears twice"):
        evaluate(parse_cards("AhAhKcQdJs"))


@pytest.mark.parametrize("bad", [-1, 52])
def test_evaluate_rejects_non_cards(bad):
    with pytest.raises(ValueError, match="not a card"):
        evaluate([0, 1, 2, 3, bad])


@pytest.mark.parametrize(
    ("text", "description"),
    [
        ("AsKsQsJsTs", "Royal flush"),
        ("9d8d7d6d5d", "Straight flush, nine high"),
        ("5h4h3h2hAh", "Straight flush, five high"),
        ("6c6d6h6sKc", "Four of a kind, sixes"),
        ("KcKdKh7s7c", "Full house, kings full of sevens"),
        ("Ac9c7c5c3c", "Flush, ace high"),
        ("5c4d3h2sAc", "Straight, five high"),
        ("QcQdQh7s2c", "Three of a kind, queens"),
        ("KcKd7h7s2c", "Two pair, kings and sevens"),
        ("2c2d9h7sKc", "Pair of deuces"),
        ("AcJd9h7s2c", "Ace high"),
    ],
)
def test_describe_names_the_hand_in_plain_english(text, description):
    assert describe(value(text)) == description


# -- Omaha (R7.1) ------------------------------------------------------------------------------


def test_r7_1_omaha_cannot_play_the_board():
    # Hold'em would play the board's royal flush; Omaha must use two hole cards.
    board = "AsKsQsJsTs"
    assert category_of(value(board + "2c3d")) == HandCategory.STRAIGHT_FLUSH
    assert category_of(omaha("2c3d4h7h", board)) == HandCategory.HIGH_CARD


def test_r7_1_omaha_flush_needs_two_suited_hole_cards():
    board = "2h5h9hKhJc"
    assert category_of(value(board + "Ah")) == HandCategory.FLUSH
    assert category_of(omaha("AhAcQdQs", board)) == HandCategory.PAIR  # aces
    assert category_of(omaha("Ah3hQdQs", board)) == HandCategory.FLUSH


def test_r7_1_omaha_uses_exactly_two_hole_cards_not_four():
    # Four hearts in the hand and one on the board: no flush, a hold'em hand would have one.
    hole, board = "AhKhQhJh", "2h7c8d9sTs"
    assert category_of(evaluate(parse_cards(hole + board)[:7])) == HandCategory.FLUSH
    assert category_of(omaha(hole, board)) == HandCategory.STRAIGHT  # Q-J + 8-9-T


def test_r7_1_omaha_three_of_a_kind_in_hand_is_only_a_pair():
    assert category_of(omaha("AcAdAhKs", "2c7d9hJsQc")) == HandCategory.PAIR
    assert omaha("AcAdAhKs", "2c7d9hJsQc") == value("AcAd" + "QcJs9h")


def test_r7_1_omaha_trips_on_board_need_a_hole_pair_for_a_full_house():
    board = "8c8d8h3s2c"
    assert category_of(omaha("KcKdAhAs", board)) == HandCategory.FULL_HOUSE
    assert category_of(omaha("Kc7dAh4s", board)) == HandCategory.THREE_OF_A_KIND


def test_r7_1_omaha_accepts_flop_and_turn_and_five_or_six_hole_cards():
    assert category_of(omaha("AcAdKhKs", "Ah7c2d")) == HandCategory.THREE_OF_A_KIND
    assert omaha("AcAdKhKs2s", "Ah7c2dKd") == value("AcAdAhKd7c")
    assert omaha("AcAdKhKs2s3s", "4s5s6sKd") == value("2s3s4s5s6s")


@pytest.mark.parametrize(
    ("hole", "board", "message"),
    [
        ("AcAdKh", "2c3d4h5s6c", "4 to 6 hole cards"),
        ("AcAdKhKs", "2c3d", "3 to 5 cards"),
        ("AcAdKhKs", "2c3d4h5s6c7d", "3 to 5 cards"),
        ("AcAdKhKs", "Ac3d4h5s6c", "Ac appears twice"),
    ],
)
def test_r7_1_omaha_rejects_bad_input(hole, board, message):
    with pytest.raises(ValueError, match=message):
        omaha(hole, board)


# -- cross-checks against independent evaluators ------------------------------------------------


def treys_card(card):
    from treys import Card

    return Card.new(cards_name([card]))


def test_r1_2_ordering_agrees_with_treys_on_random_seven_card_hands():
    """Sign of every comparison of consecutive random hands matches treys (lower is better)."""
    from treys import Evaluator

    treys = Evaluator()
    rng = random.Random(20240601)
    hands = [rng.sample(range(52), 7) for _ in range(3000)]
    ours = [evaluate(hand) for hand in hands]
    theirs = [
        treys.evaluate([treys_card(c) for c in h[:5]], [treys_card(c) for c in h[5:]])
        for h in hands
    ]
    for i in range(len(hands) - 1):
        our_sign = (ours[i] > ours[i + 1]) - (ours[i] < ours[i + 1])
        their_sign = (theirs[i] < theirs[i + 1]) - (theirs[i] > theirs[i + 1])
        assert our_sign == their_sign, (cards_name(hands[i]), cards_name(hands[i + 1]))


def test_r1_2_ordering_agrees_with_treys_on_five_six_and_seven_cards():
    """treys scores every hand size; sizes are compared against each other too."""
    from treys import Evaluator

    treys = Evaluator()
    rng = random.Random(7)
    hands = [rng.sample(range(52), rng.choice((5, 6, 7))) for _ in range(1500)]
    ours = [evaluate(hand) for hand in hands]
    theirs = [
        treys.evaluate([treys_card(c) for c in h[:3]], [treys_card(c) for c in h[3:]])
        for h in hands
    ]
    for (a, ta), (b, tb) in itertools.pairwise(zip(ours, theirs, strict=True)):
        assert (a > b) - (a < b) == (ta < tb) - (ta > tb)


def test_r1_2_every_category_appears_in_the_treys_cross_check_with_the_same_class():
    """Category names agree with treys' rank classes on hands of every category."""
    from treys import Evaluator

    treys = Evaluator()
    treys_class = {
        "Straight Flush": HandCategory.STRAIGHT_FLUSH,
        "Royal Flush": HandCategory.STRAIGHT_FLUSH,
        "Four of a Kind": HandCategory.FOUR_OF_A_KIND,
        "Full House": HandCategory.FULL_HOUSE,
        "Flush": HandCategory.FLUSH,
        "Straight": HandCategory.STRAIGHT,
        "Three of a Kind": HandCategory.THREE_OF_A_KIND,
        "Two Pair": HandCategory.TWO_PAIR,
        "Pair": HandCategory.PAIR,
        "High Card": HandCategory.HIGH_CARD,
    }
    for text, _ in LADDER:
        cards = parse_cards(text)
        score = treys.evaluate(
            [treys_card(c) for c in cards[:3]], [treys_card(c) for c in cards[3:]]
        )
        assert treys_class[treys.class_to_string(treys.get_rank_class(score))] == category_of(
            evaluate(cards)
        )


def test_r7_1_omaha_ordering_agrees_with_pokerkit():
    """Random PLO hands on a random board compare the same as pokerkit's OmahaHoldemHand."""
    from pokerkit import OmahaHoldemHand

    rng = random.Random(99)
    for _ in range(150):
        deck = rng.sample(range(52), 13)
        board, first, second = deck[:5], deck[5:9], deck[9:13]
        ours = [evaluate_omaha(hole=hole, board=board) for hole in (first, second)]
        theirs = [
            OmahaHoldemHand.from_game(cards_name(h), cards_name(board)) for h in (first, second)
        ]
        assert (ours[0] > ours[1]) == (theirs[0] > theirs[1])
        assert (ours[0] == ours[1]) == (theirs[0] == theirs[1])


def test_r7_1_omaha_equals_the_best_of_the_sixty_hold_em_five_card_hands():
    rng = random.Random(5)
    for _ in range(200):
        deck = rng.sample(range(52), 9)
        hole, board = deck[:4], deck[4:]
        best = max(
            evaluate([*two, *three])
            for two in itertools.combinations(hole, 2)
            for three in itertools.combinations(board, 3)
        )
        assert evaluate_omaha(hole=hole, board=board) == best


# -- properties ---------------------------------------------------------------------------------

seven_cards = st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True)


@given(seven_cards, st.randoms(use_true_random=False))
def test_r1_3_order_of_the_cards_does_not_matter(cards, rng):
    shuffled = list(cards)
    rng.shuffle(shuffled)
    assert evaluate(shuffled) == evaluate(cards)


@given(seven_cards)
def test_r1_3_an_extra_card_never_makes_the_best_hand_worse(cards):
    assert evaluate(cards[:5]) <= evaluate(cards[:6]) <= evaluate(cards)


@given(seven_cards)
def test_r1_3_seven_card_value_is_the_best_five_card_value(cards):
    assert evaluate(cards) == max(evaluate(five) for five in itertools.combinations(cards, 5))


@given(seven_cards)
def test_r1_5_changing_suits_without_changing_flushes_keeps_the_value(cards):
    # Swap clubs and diamonds everywhere: the same ranks and the same flush structure.
    swapped = [c ^ 1 if c & 3 < 2 else c for c in cards]
    assert evaluate(swapped) == evaluate(cards)


@given(seven_cards)
def test_unchecked_and_checked_evaluation_agree(cards):
    assert evaluate_unchecked(cards) == evaluate(cards)
    assert evaluate_unchecked(tuple(cards)) == evaluate(cards)
