import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.chipup import RacePlayer, race
from tables.engine import parse_card, parse_cards


def test_r5_11_worked_race_with_sets_cards_rounding_and_a_saved_player():
    # 25s go, 100s stay (four 25s to a 100). Dealing order from the left of the button:
    # Ann 7 (one set + 3 race), Bob 2, Cid 0, Dan 1 and nothing else.
    players = [
        RacePlayer(key=1, small_chips=7),
        RacePlayer(key=2, small_chips=2),
        RacePlayer(key=3, small_chips=0),
        RacePlayer(key=4, small_chips=1, has_other_chips=False),
    ]
    deck = parse_cards("2c9hKs3dAs7c") + parse_cards("4c4d4h4s")
    result = race(players=players, chip_value=25, new_chip_value=100, deck=deck)
    ann, bob, cid, dan = result.lines
    # Ann gets her three cards before Bob gets his two (one player at a time).
    assert ann.cards == tuple(parse_cards("2c9hKs")) and ann.card == parse_card("Ks")
    assert bob.cards == tuple(parse_cards("3dAs"))
    assert cid.cards == () and cid.card is None
    assert dan.cards == (parse_card("7c"),)
    # Pool 6 x 25 = 150: one 100 and a remainder of 50, half a chip, which rounds up.
    assert (result.pool, result.race_chips, result.lost, result.rounded_up) == (150, 2, 0, 50)
    # Dan would be left with nothing: he gets one first; the other goes to the ace of spades.
    assert dan.saved and not dan.race_chip
    assert bob.race_chip and not ann.race_chip
    assert [line.new_chips for line in result.lines] == [1, 1, 0, 1]
    assert result.exchanged == 1 and result.created == 0


def test_r5_11_less_than_half_a_chip_is_lost():
    players = [RacePlayer(key=1, small_chips=1), RacePlayer(key=2, small_chips=6)]
    result = race(players=players, chip_value=5, new_chip_value=25, deck=list(range(52)))
    # 1 + 1 leftover 5s = 10, less than 12.5: no new chip, 10 lost
    assert (result.race_chips, result.lost, result.rounded_up) == (0, 10, 0)
    assert [line.exchanged for line in result.lines] == [0, 1]
    assert not any(line.race_chip for line in result.lines)


def test_r5_11_suit_decides_between_equal_ranks():
    players = [RacePlayer(key=1, small_chips=2), RacePlayer(key=2, small_chips=2)]
    result = race(players=players, chip_value=25, new_chip_value=100, deck=parse_cards("QhQd2c3c"))
    # pool 100 = one chip; queen of hearts beats queen of diamonds
    assert [line.race_chip for line in result.lines] == [True, False]


def test_r5_11_nobody_gets_two_chips_even_with_the_best_cards():
    players = [RacePlayer(key=1, small_chips=3), RacePlayer(key=2, small_chips=3)]
    # pool 150 -> 2 chips; player 1 holds the three best cards but still gets only one
    result = race(
        players=players, chip_value=25, new_chip_value=100, deck=parse_cards("AsAhAd2c2d2h")
    )
    assert [line.race_chip for line in result.lines] == [True, True]


def test_tda_24_nobody_is_raced_out_even_when_the_pool_is_short():
    players = [
        RacePlayer(key=1, small_chips=1, has_other_chips=False),
        RacePlayer(key=2, small_chips=1, has_other_chips=False),
    ]
    result = race(players=players, chip_value=25, new_chip_value=100, deck=list(range(52)))
    # pool 50 rounds up to one chip, but both would be out: one more chip is made
    assert result.race_chips == 1 and result.created == 1
    assert all(line.saved and line.new_chips == 1 for line in result.lines)


def test_r5_11_bad_inputs_are_refused():
    with pytest.raises(ValueError, match="multiple"):
        race(players=[], chip_value=25, new_chip_value=110)
    with pytest.raises(ValueError, match="twice"):
        race(players=[RacePlayer(key=1, small_chips=1)] * 2, chip_value=5, new_chip_value=25)
    with pytest.raises(ValueError, match="deck"):
        many = [RacePlayer(key=k, small_chips=9) for k in range(6)]
        race(players=many, chip_value=100, new_chip_value=1000)


@settings(max_examples=300, deadline=None)
@given(
    counts=st.lists(st.tuples(st.integers(0, 30), st.booleans()), min_size=1, max_size=10),
    ratio=st.sampled_from([2, 4, 5]),
    seed=st.integers(0, 2**32),
)
def test_property_race_conserves_value_and_gives_at_most_one_chip(counts, ratio, seed):
    chip, new = 25, 25 * ratio
    players = [
        RacePlayer(key=k, small_chips=n, has_other_chips=other)
        for k, (n, other) in enumerate(counts)
    ]
    result = race(players=players, chip_value=chip, new_chip_value=new, rng=random.Random(seed))
    before = sum(p.small_chips for p in players) * chip
    after = sum(line.new_chips for line in result.lines) * new
    # value changes only by the documented rounding and by chips made so nobody goes out
    assert after - before == result.rounded_up - result.lost + result.created * new
    assert 0 <= result.lost < new / 2 and 0 <= result.rounded_up <= new / 2
    dealt = [c for line in result.lines for c in line.cards]
    assert len(dealt) == len(set(dealt)) == sum(p.small_chips % ratio for p in players)
    for p, line in zip(players, result.lines, strict=True):
        assert not (line.race_chip and line.saved)
        assert len(line.cards) == p.small_chips % ratio
        assert line.exchanged == p.small_chips // ratio
        if p.small_chips and not p.has_other_chips:
            assert line.new_chips >= 1  # TDA 24: nobody is raced out
    winners = [line.card for line in result.lines if line.race_chip]
    losers = [
        line.card for line in result.lines if line.cards and not line.race_chip and not line.saved
    ]
    if winners and losers:
        assert min(winners) > max(losers)
