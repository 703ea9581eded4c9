"""The five playing cards of a hand, its category and ranks, and its name in English and German
(R1.2-R1.4, R7.1)."""

import random
from collections import Counter

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine import (
    HandCategory,
    HandName,
    best_five,
    cards_name,
    describe,
    evaluate,
    evaluate_omaha,
    evaluate_unchecked,
    parse_cards,
    rank_of,
)
from tables.hand_names import hand_name


def five(hole, board, **kw):
    return cards_name(best_five(parse_cards(hole), parse_cards(board), **kw))


def value(text):
    return evaluate(parse_cards(text))


# --- best_five agrees with the evaluator ------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(st.permutations(range(52)), st.integers(5, 7))
def test_r1_3_best_five_is_worth_the_whole_holdem_hand(deck, size):
    hole, board = deck[:2], deck[2:size]
    cards = best_five(hole, board)
    assert len(set(cards)) == 5
    assert set(cards) <= set(hole) | set(board)
    assert evaluate_unchecked(cards) == evaluate([*hole, *board])


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(52)), st.integers(4, 6), st.integers(3, 5))
def test_r7_1_best_five_in_omaha_is_two_hole_and_three_board_cards(deck, holes, boards):
    hole, board = deck[:holes], deck[holes : holes + boards]
    cards = best_five(hole, board, omaha=True)
    assert len(set(cards)) == 5
    assert len(set(cards) & set(hole)) == 2
    assert len(set(cards) & set(board)) == 3
    assert evaluate_unchecked(cards) == evaluate_omaha(hole=hole, board=board)


def test_best_five_over_many_random_seven_card_hands():
    rng = random.Random(7)
    for _ in range(3000):
        deck = rng.sample(range(52), 7)
        cards = best_five(deck[:2], deck[2:])
        assert evaluate_unchecked(cards) == evaluate(deck)
        assert describe(evaluate(deck)).category == describe(evaluate_unchecked(cards)).category


def test_r7_1_omaha_never_plays_the_board():
    # A royal flush on the board, but Omaha plays exactly two hole cards.
    cards = best_five(parse_cards("2c3d7h8s"), parse_cards("AsKsQsJsTs"), omaha=True)
    assert len(set(cards) & set(parse_cards("2c3d7h8s"))) == 2
    assert describe(evaluate_unchecked(cards)).category is HandCategory.HIGH_CARD


def test_r1_3_playing_the_board_uses_no_hole_card():
    assert five("2c3d", "AsKsQsJsTs") == "AsKsQsJsTs"


def test_best_five_is_deterministic_when_suits_tie():
    # Either ten makes the straight, either king the kicker: the higher suit plays.
    assert five("6c7d", "8h9sTcTdQs") == five("6c7d", "8h9sTcTdQs") == "Td9s8h7d6c"
    assert five("9s9d", "9h9cKdKh2c") == "9s9h9d9cKh"


def test_best_five_rejects_too_few_cards_and_duplicates():
    with pytest.raises(ValueError, match="a hand is 5 to 7 cards, not 4"):
        best_five(parse_cards("AhKh"), parse_cards("2c3c"))
    with pytest.raises(ValueError, match="the card Ah appears twice"):
        best_five(parse_cards("AhKh"), parse_cards("AhQc2c3c"))
    with pytest.raises(ValueError, match="an Omaha hand has 4 to 6 hole cards, not 3"):
        best_five(parse_cards("AhKh2c"), parse_cards("3c4c5c"), omaha=True)


# --- reading order ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hole", "board", "read"),
    [
        ("KhKd", "KsTcTd2h3c", "KsKhKdTdTc"),  # full house: the trips before the pair
        ("8c8h", "AsAd2c3sKd", "AsAd8h8cKd"),  # two pair: the higher pair first, then kicker
        ("Ah2c", "3d4s5h9cKd", "5h4s3d2cAh"),  # R1.4: a wheel reads 5-4-3-2-A
        ("Ac2c", "3c4c5cKdKh", "5c4c3c2cAc"),  # the steel wheel too
        ("9s9d", "9h9c2d3hQs", "9s9h9d9cQs"),  # quads, then the kicker
        ("4c4d", "4hAs7d2c9h", "4h4d4cAs9h"),  # trips, then kickers high to low
        ("QdQs", "2c5h8dJcKh", "QsQdKhJc8d"),  # pair, then three kickers
        ("Ah3h", "Kh9h2h7cJd", "AhKh9h3h2h"),  # flush high to low
        ("6c7d", "8h9sTcJdQh", "QhJdTc9s8h"),  # the highest straight of seven cards
        ("Ad2s", "Kc9h7d5c3h", "AdKc9h7d5c"),  # high card
    ],
)
def test_r1_2_best_five_reads_the_hand_first_then_kickers(hole, board, read):
    assert five(hole, board) == read


def test_r1_2_in_two_pair_a_third_pair_can_be_the_kicker():
    assert five("QcQd", "JhJs5c5dAh") == "QdQcJsJhAh"
    assert five("QcQd", "JhJs5c5d2h") == "QdQcJsJh5d"


# --- describe ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "category", "ranks"),
    [
        ("KsKhKdTdTc", HandCategory.FULL_HOUSE, (11, 8)),
        ("AsAd8h8cKd", HandCategory.TWO_PAIR, (12, 6, 11)),
        ("QsQdKhJc8d", HandCategory.PAIR, (10, 11, 9, 6)),
        ("Ac2d3h4s5c", HandCategory.STRAIGHT, (3,)),
        ("AsKsQsJsTs", HandCategory.STRAIGHT_FLUSH, (12,)),
        ("9s9h9d9cQs", HandCategory.FOUR_OF_A_KIND, (7, 10)),
        ("4h4d4cAs9h", HandCategory.THREE_OF_A_KIND, (2, 12, 7)),
        ("AhKh9h3h2h", HandCategory.FLUSH, (12, 11, 7, 1, 0)),
        ("AdKc9h7d5c", HandCategory.HIGH_CARD, (12, 11, 7, 5, 3)),
    ],
)
def test_r1_2_describe_gives_the_category_and_the_deciding_ranks(cards, category, ranks):
    assert describe(value(cards)) == HandName(category=category, ranks=ranks)


def test_describe_ranks_are_those_of_the_best_five_in_reading_order():
    rng = random.Random(11)
    for _ in range(1000):
        deck = rng.sample(range(52), 7)
        name = describe(evaluate(deck))
        read = [rank_of(card) for card in best_five(deck[:2], deck[2:])]
        if name.category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
            assert read[0] == name.ranks[0]
        else:  # each deciding rank is the next new rank read off the five cards
            assert list(dict.fromkeys(read)) == list(name.ranks)
        assert Counter(read).most_common(1)[0][1] == Counter(read)[read[0]]


@pytest.mark.parametrize(
    ("bad", "reason"),
    [
        (-1, "is not the value of a shown hand"),
        (9 << 20, "is not a valid HandCategory"),  # no tenth category
        ((1 << 20) | (13 << 16), "holds a rank above the ace"),
    ],
)
def test_describe_refuses_values_the_evaluator_never_makes(bad, reason):
    with pytest.raises(ValueError, match=reason):
        describe(bad)


# --- names in English and German --------------------------------------------------------------

NAMES = [
    ("KsKhKdTdTc", "Full house, kings over tens", "Full House, Könige über Zehnen"),
    ("AsAd8h8cKd", "Two pair, aces and eights", "Zwei Paare, Asse und Achten"),
    ("QsQdKhJc8d", "Pair of queens", "Ein Paar Damen"),
    ("AdKc9h7d5c", "High card ace", "Höchste Karte Ass"),
    ("2c3d4h5s6c", "Straight, six high", "Straße, Sechs hoch"),
    ("Ac2d3h4s5c", "Straight, five high", "Straße, Fünf hoch"),
    ("AhKh9h3h2h", "Flush, ace high", "Flush, Ass hoch"),
    ("9s9h9d9cQs", "Four of a kind, nines", "Vierling, Neunen"),
    ("4h4d4cAs9h", "Three of a kind, fours", "Drilling, Vieren"),
    ("5d6d7d8d9d", "Straight flush, nine high", "Straight Flush, Neun hoch"),
    ("AsKsQsJsTs", "Royal flush", "Royal Flush"),
    ("JcJdJhQsQc", "Full house, jacks over queens", "Full House, Buben über Damen"),
    ("6c6d6h2s2c", "Full house, sixes over deuces", "Full House, Sechsen über Zweien"),
]


@pytest.mark.parametrize(("cards", "english", "german"), NAMES)
def test_r1_2_hand_names_in_english_and_german(cards, english, german):
    with translation.override("en"):
        assert hand_name(value(cards)) == english
    with translation.override("de"):
        assert hand_name(value(cards)) == german


def test_every_hand_of_every_category_has_a_german_name_without_english_words():
    rng = random.Random(3)
    seen = set()
    with translation.override("de"):
        for _ in range(3000):
            hand_value = evaluate(rng.sample(range(52), 7))
            seen.add(describe(hand_value).category)
            name = hand_name(hand_value)
            assert not {"of", "high", "over", "and", "pair"} & set(name.lower().split())
    assert len(seen) >= 8  # a straight flush in 3000 random hands is luck; the rest are not
