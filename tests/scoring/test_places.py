import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.places import (
    Stack,
    place_of_quitter,
    place_same_hand_busts,
    places_by_chip_count,
    satellite_qualifiers,
    super_final_stack,
)
from tables.engine import parse_card, parse_cards


def test_r5_6_bigger_starting_stack_places_higher():
    busts = [Stack(player=1, chips=2_000), Stack(player=2, chips=9_500), Stack(player=3, chips=400)]
    placings = place_same_hand_busts(busts=busts, players_left_before=10)
    assert [(p.player, p.place) for p in placings] == [(2, 8), (1, 9), (3, 10)]
    assert all(p.card is None for p in placings)  # no tie, nobody draws


def test_r5_6_equal_stacks_the_higher_card_in_hand_places_higher_suit_deciding():
    busts = [Stack(player=1, chips=500), Stack(player=2, chips=500), Stack(player=3, chips=800)]
    # players 1 and 2 tie: the higher card in 1's hand is the king of hearts, in 2's of spades
    cards = {1: parse_card("Kh"), 2: parse_card("Ks")}
    placings = place_same_hand_busts(busts=busts, players_left_before=5, cards=cards)
    assert [(p.player, p.place) for p in placings] == [(3, 3), (2, 4), (1, 5)]
    assert {p.player: p.card for p in placings} == {
        3: None,
        2: parse_card("Ks"),
        1: parse_card("Kh"),
    }


def test_r5_6_the_rank_of_the_card_in_hand_comes_before_its_suit():
    busts = [Stack(player=7, chips=300), Stack(player=8, chips=300)]
    placings = place_same_hand_busts(
        busts=busts,
        players_left_before=2,
        cards={7: parse_card("Ac"), 8: parse_card("Ks")},
    )
    assert [(p.player, p.place) for p in placings] == [(7, 1), (8, 2)]


@pytest.mark.parametrize("cards", [None, {}, {7: 3}])
def test_r5_6_a_tie_without_the_card_in_hand_is_refused_never_drawn(cards):
    busts = [Stack(player=7, chips=300), Stack(player=8, chips=300)]
    with pytest.raises(ValueError, match="needs a card"):
        place_same_hand_busts(busts=busts, players_left_before=2, cards=cards)


def test_r5_6_two_players_cannot_hold_the_same_card():
    busts = [Stack(player=7, chips=300), Stack(player=8, chips=300)]
    with pytest.raises(ValueError, match="distinct"):
        place_same_hand_busts(busts=busts, players_left_before=2, cards={7: 3, 8: 3})
    with pytest.raises(ValueError, match="distinct"):
        place_same_hand_busts(busts=busts, players_left_before=2, cards={7: 3, 8: 52})


def test_r5_6_refuses_more_busts_than_players_left():
    with pytest.raises(ValueError, match="between one and all of the players left can"):
        place_same_hand_busts(busts=[Stack(player=1, chips=5)] * 1, players_left_before=0)
    with pytest.raises(ValueError, match="twice"):
        place_same_hand_busts(
            busts=[Stack(player=1, chips=5), Stack(player=1, chips=6)], players_left_before=4
        )


def test_r5_9_quitter_places_where_he_left():
    assert place_of_quitter(players_left=10) == 10
    assert place_of_quitter(players_left=1) == 1
    with pytest.raises(ValueError, match="a player who quits is still one of the players"):
        place_of_quitter(players_left=0)


def test_r5_10_agreed_stop_places_follow_chip_counts():
    stacks = [
        Stack(player=1, chips=12_000),
        Stack(player=2, chips=30_000),
        Stack(player=3, chips=12_000),
        Stack(player=4, chips=6_000),
    ]
    placings = places_by_chip_count(stacks=stacks, deck=parse_cards("2c2d"))
    # players 1 and 3 tie: 1 draws the deuce of clubs, 3 the deuce of diamonds (higher suit)
    assert [(p.player, p.place) for p in placings] == [(2, 1), (3, 2), (1, 3), (4, 4)]


def test_r5_10_cards_drawn_at_the_table_decide_equal_counts():
    stacks = [Stack(player=1, chips=700), Stack(player=2, chips=700)]
    cards = {1: parse_card("Qd"), 2: parse_card("Jh")}
    placings = places_by_chip_count(stacks=stacks, cards=cards)
    assert [(p.player, p.place, p.card) for p in placings] == [
        (1, 1, parse_card("Qd")),
        (2, 2, parse_card("Jh")),
    ]


def test_r5_10_without_cards_the_tie_draw_uses_a_shuffled_deck():
    stacks = [Stack(player=p, chips=100) for p in range(4)]
    outcomes = {tuple(p.player for p in places_by_chip_count(stacks=stacks)) for _ in range(40)}
    assert len(outcomes) > 3


@pytest.mark.parametrize(
    ("entrants", "qualify"),
    [(1, 1), (2, 1), (5, 1), (7, 1), (8, 2), (9, 2), (10, 2), (12, 2), (13, 3), (30, 6)],
)
def test_r5_5_twenty_percent_qualify_rounded_to_nearest_at_least_one(entrants, qualify):
    assert satellite_qualifiers(entrants) == qualify


def test_r5_5_super_final_stack_adds_3000_per_satellite_won():
    assert super_final_stack(event_stack=10_000, satellites_won=0) == 10_000
    assert super_final_stack(event_stack=10_000, satellites_won=3) == 19_000


@settings(max_examples=200, deadline=None)
@given(
    chips=st.lists(st.integers(0, 50), min_size=1, max_size=20),
    extra=st.integers(0, 20),
    seed=st.integers(0, 2**32),
)
def test_property_places_are_a_permutation_and_follow_chips(chips, extra, seed):
    busts = [Stack(player=i, chips=c) for i, c in enumerate(chips)]
    left = len(busts) + extra
    in_hand = dict(enumerate(random.Random(seed).sample(range(52), len(busts))))
    placings = place_same_hand_busts(busts=busts, players_left_before=left, cards=in_hand)
    assert sorted(p.place for p in placings) == list(range(extra + 1, left + 1))
    assert sorted(p.player for p in placings) == list(range(len(chips)))
    by_player = {p.player: p for p in placings}
    for a in busts:
        for b in busts:
            if a.chips > b.chips:
                assert by_player[a.player].place < by_player[b.player].place
            elif a.chips == b.chips and a.player != b.player:
                ca, cb = in_hand[a.player], in_hand[b.player]
                assert by_player[a.player].card == ca
                assert (ca > cb) == (by_player[a.player].place < by_player[b.player].place)
