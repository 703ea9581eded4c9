import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.engine import parse_card, parse_cards
from tables.seating import (
    TableSpec,
    draw_opening_seats,
    draw_seats_by_card,
    tables_needed,
)


def test_tables_needed_rounds_up():
    assert tables_needed(players=10) == 1
    assert tables_needed(players=11) == 2
    assert tables_needed(players=95, seats_per_table=9) == 11
    assert tables_needed(players=0) == 1


def test_tda_random_seats_spread_evenly_over_tables():
    seating = draw_opening_seats(
        players=list(range(1, 24)),
        tables=[TableSpec(table=1), TableSpec(table=2), TableSpec(table=3)],
        rng=random.Random(1),
    )
    counts = sorted(Counter(s.table for s in seating.seats).values())
    assert counts == [7, 8, 8]
    assert sorted(s.player for s in seating.seats) == list(range(1, 24))
    for table in (1, 2, 3):
        assert seating.button_seats[table] in seating.players_at(table)


def test_tda_random_seats_respect_small_tables():
    seating = draw_opening_seats(
        players=list(range(12)),
        tables=[TableSpec(table=1, seats=2), TableSpec(table=2, seats=10)],
        rng=random.Random(2),
    )
    counts = Counter(s.table for s in seating.seats)
    assert counts == {1: 2, 2: 10}


def test_opening_seats_are_random():
    specs = [TableSpec(table=1, seats=10)]
    seen = {
        tuple(sorted(draw_opening_seats(players=[7, 8], tables=specs).players_at(1).items()))
        for _ in range(30)
    }
    assert len(seen) > 5


def test_caller_names_the_button():
    seating = draw_opening_seats(
        players=[1, 2, 3], tables=[TableSpec(table=4, seats=6)], button_seats={4: 6}
    )
    assert seating.button_seats == {4: 6}


def test_too_many_players_is_refused():
    with pytest.raises(ValueError, match="do not fit"):
        draw_opening_seats(players=list(range(11)), tables=[TableSpec(table=1)])


@settings(max_examples=60, deadline=None)
@given(
    seat_counts=st.lists(st.integers(2, 10), min_size=1, max_size=6),
    fill=st.floats(0, 1),
    seed=st.integers(0, 10**6),
)
def test_property_opening_seats_are_valid_and_balanced(seat_counts, fill, seed):
    specs = [TableSpec(table=i + 1, seats=n) for i, n in enumerate(seat_counts)]
    count = int(sum(seat_counts) * fill)
    seating = draw_opening_seats(players=list(range(count)), tables=specs, rng=random.Random(seed))
    places = [(s.table, s.seat) for s in seating.seats]
    assert len(set(places)) == count
    assert sorted(s.player for s in seating.seats) == list(range(count))
    sizes = Counter(s.table for s in seating.seats)
    for spec in specs:
        assert all(1 <= s.seat <= spec.seats for s in seating.seats if s.table == spec.table)
        # a table that is not full is never more than one short of any other table
        if sizes[spec.table] < spec.seats:
            assert all(sizes[spec.table] >= sizes[o.table] - 1 for o in specs)


def test_r2_3_four_players_lowest_card_is_small_blind():
    # Ann draws the king of hearts, Bob the deuce of clubs, Cid the ace of spades, Dan the
    # seven of diamonds. Order high to low: Cid, Ann, Dan, Bob. Cid takes seat 4 and the button,
    # counter-clockwise (down the seat numbers) Ann seat 3, Dan seat 2, Bob seat 1. Clockwise
    # from the button: seat 1 (Bob, small blind), seat 2 (Dan, big blind), seat 3 (Ann).
    ann, bob, cid, dan = 1, 2, 3, 4
    draw = draw_seats_by_card(players=[ann, bob, cid, dan], seats=10, deck=parse_cards("Kh2cAs7d"))
    assert [d.card for d in draw.draws] == parse_cards("Kh2cAs7d")
    assert draw.seat_of == {cid: 4, ann: 3, dan: 2, bob: 1}
    assert draw.button_seat == 4
    assert draw.small_blind_seat == 1
    assert draw.seat_of[bob] == draw.small_blind_seat


def test_r1_6_suit_breaks_equal_ranks_in_the_seat_draw():
    draw = draw_seats_by_card(players=[1, 2, 3], deck=parse_cards("QhQsQc"))
    # spades > hearts > clubs
    assert draw.seat_of == {2: 3, 1: 2, 3: 1}
    assert draw.button_seat == draw.seat_of[2]


def test_r2_8_heads_up_draw_button_is_small_blind():
    draw = draw_seats_by_card(players=[1, 2], deck=[parse_card("3c"), parse_card("9d")])
    assert draw.seat_of == {2: 2, 1: 1}
    assert draw.button_seat == draw.small_blind_seat == 2


def test_r2_3_draw_uses_a_shuffled_deck():
    rng = random.Random(5)
    draw = draw_seats_by_card(players=list(range(10)), rng=rng)
    assert sorted(draw.seat_of.values()) == list(range(1, 11))
    assert len({d.card for d in draw.draws}) == 10
    highest = max(draw.draws, key=lambda d: d.card)
    assert draw.seat_of[highest.player] == draw.button_seat == 10


def test_draw_refuses_bad_decks_and_tables():
    with pytest.raises(ValueError, match="the card 3d appears twice"):
        draw_seats_by_card(players=[1, 2], deck=[5, 5])
    with pytest.raises(ValueError, match="5 players cannot play at a table of 4 seats"):
        draw_seats_by_card(players=list(range(5)), seats=4)
