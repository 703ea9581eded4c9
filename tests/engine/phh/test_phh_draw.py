"""Draw Hold'em hand histories (Floorman's PHH extension): the document, its strict reader, and
write -> read round trips over random hands."""

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine import AnteMode, Betting, OddChip, Rules, new_deck
from tables.engine.draw import DrawHand, Reshuffle, Swap, public_view
from tables.engine.phh import (
    IllegalHistory,
    PHHError,
    UnsupportedVariant,
    load_draw,
    read_draw,
    write_draw,
)
from tables.engine.phh import read as read_holdem
from tests.engine.draw.test_draw_holdem import c, check_down, deal, stacked_deck
from tests.engine.draw.test_draw_properties import play
from tests.engine.factories import make_rules


def source_example():
    """004's example (R7.9): p1 all-in for 10, called; p2 swaps on the river for 20 and loses."""
    hand = deal(
        hole=["AsAd", "Kc7d"],
        stub="2h 8s9c2c 3c 4h 5h Jd 6h",
        stacks=[10, 100],
        rules=make_rules(blinds=(5, 10)),
    )
    hand.stand_pat()
    hand.stand_pat()
    hand.call()
    hand.stand_pat()
    hand.stand_pat()
    hand.swap(c("7d"))
    return hand


SOURCE_EXAMPLE = """\
variant = "_floorman_DH"
_floorman_betting = "no_limit"
ante_trimming_status = true
antes = [0, 0]
blinds_or_straddles = [5, 10]
min_bet = 10
starting_stacks = [100, 10]
actions = [
  "d dh p2 AsAd",
  "d dh p1 Kc7d",
  "p2 _floorman_stand_pat",
  "p1 _floorman_stand_pat",
  "p2 cc",
  "d db 8s9c2c",
  "p1 _floorman_stand_pat",
  "d db 4h",
  "p1 _floorman_stand_pat",
  "d db Jd",
  "p1 _floorman_swap 7d 6h 20",
  "p1 sm Kc6h",
  "p2 sm AsAd",
]
players = ["Ben", "Anna"]
finishing_stacks = [70, 40]
"""


def test_r7_9_the_source_example_as_a_history_names_the_swap_and_its_fee():
    text = write_draw(source_example(), players=["Anna", "Ben"])
    assert text == SOURCE_EXAMPLE
    hand = read_draw(text)
    assert hand.stacks == [70, 40]  # PHH order: p1 (the big blind), p2 (the button)
    assert [r for r in hand.records if isinstance(r, Swap)] == [
        Swap(seat=0, fee=20, discarded=c("7d"), drawn=c("6h"), kept_apart=True)
    ]


def test_r7_11_a_reshuffle_is_written_before_the_swap_that_took_it_and_read_back():
    hand = DrawHand.start(rules=make_rules(), stacks=[100_000] * 10, button=9, deck=new_deck())
    while not hand.is_over:
        if hand.can_swap():
            hand.swap(hand.hole_cards[hand.actor][1])
        elif hand.can_check():
            hand.check()
        else:
            hand.call()
    text = write_draw(hand)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if "_floorman_reshuffle" in line)
    assert "_floorman_swap" in lines[at + 1]
    back = read_draw(text)
    assert back.records == hand.records and back.stacks == hand.stacks
    assert any(isinstance(r, Reshuffle) for r in back.records)
    # Without the reshuffle the stub is out at that swap; a reshuffle where none was is refused.
    with pytest.raises(IllegalHistory, match=r"must give its reshuffle \(R7\.11\)") as caught:
        read_draw("\n".join(lines[:at] + lines[at + 1 :]))
    assert caught.value.index == at - lines.index("actions = [") - 1
    early = next(i for i, line in enumerate(lines) if "_floorman_swap" in line)
    with pytest.raises(IllegalHistory, match=r"still covers this swap"):
        read_draw("\n".join([*lines[:early], lines[at], *lines[early:at], *lines[at + 1 :]]))


def replace(text, old, new):
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("_floorman_swap 7d 6h 20", "_floorman_swap 7d 6h 10", r"the fee is 20, not 10"),
        ("_floorman_swap 7d 6h 20", "_floorman_swap 7c 6h 20", r"R7\.4"),
        # The stub's own cards are in no history: a wrong card shows at the showdown.
        ("_floorman_swap 7d 6h 20", "_floorman_swap 7d 7h 20", r"p1 holds Kc7h"),
        ('"p2 cc",', '"p2 _floorman_stand_pat",', r"no swap decision"),
        ('"p1 _floorman_stand_pat",\n  "d db 4h"', '"p2 _floorman_stand_pat",\n  "d db 4h"', "p1"),
        ('  "p1 _floorman_swap 7d 6h 20",\n', "", r"a showdown while p1 is to act"),
        ('  "p1 _floorman_swap 7d 6h 20",\n  "p1 sm Kc6h",\n  "p2 sm AsAd",\n', "", "stops"),
        ("finishing_stacks = [70, 40]", "finishing_stacks = [40, 70]", r"finishing stacks"),
        ('"p2 cc",', '"p2 cc",\n  "d dh p1 Kc7d",', r"dealt after"),
    ],
)
def test_the_reader_refuses_a_history_the_rules_do_not_allow(old, new, reason):
    with pytest.raises(IllegalHistory, match=reason):
        read_draw(replace(SOURCE_EXAMPLE, old, new))


def test_other_readers_refuse_the_variant_and_this_one_refuses_other_games():
    with pytest.raises(UnsupportedVariant):
        read_holdem(SOURCE_EXAMPLE)  # Floorman's hold'em reader does not misread it
    with pytest.raises(UnsupportedVariant):
        load_draw(replace(SOURCE_EXAMPLE, '"_floorman_DH"', '"NT"'))
    with pytest.raises(PHHError, match="_floorman_betting"):
        load_draw(replace(SOURCE_EXAMPLE, '"no_limit"', '"spread_limit"'))
    with pytest.raises(PHHError, match="_floorman_odd_chip"):
        load_draw(SOURCE_EXAMPLE + '_floorman_odd_chip = "coin_flip"\n')


def test_r7_11_a_censored_history_shows_who_swapped_and_the_fee_and_replays_the_chips():
    hand = source_example()
    public = DrawHand.replay(
        rules=hand.rules,
        stacks=hand.starting_stacks,
        button=hand.button,
        records=[public_view(r) for r in hand.records],
    )
    text = write_draw(public)
    assert '"d dh p1 ????"' in text and '"p1 _floorman_swap ?? ?? 20"' in text
    assert '"p1 sm Kc6h"' in text  # the hand shown at the showdown
    assert read_draw(text).stacks == [70, 40]


def test_a_history_keeps_the_table_settings_and_refuses_what_phh_cannot_say():
    rules = make_rules(odd_chip=OddChip.HIGHEST_CARD, cap=3, betting=Betting.LIMIT)
    hand = DrawHand.start(rules=rules, stacks=[500] * 3, button=2, deck=new_deck())
    text = write_draw(hand)
    assert '_floorman_odd_chip = "highest_card"' in text and "_floorman_cap = 3" in text
    assert load_draw(text).rules == dataclasses.replace(rules, small_bet=100, big_bet=200)
    short = stacked_deck(hole=["AsKd", "7c2d"], stub="")[:12]
    with pytest.raises(ValueError, match="full deck"):
        write_draw(DrawHand.start(rules=make_rules(), stacks=[100, 100], button=0, deck=short))
    # R2.7: a dead small blind is said by Floorman's extension (p1 posts the big blind)...
    dead = DrawHand.start(rules=make_rules(), stacks=[100] * 3, button=2, dead_small_blind=True)
    text = write_draw(dead)
    assert "_floorman_dead_small_blind = true" in text
    assert read_draw_start(text).small_blind_seat is None
    # ... but blinds anywhere else PHH cannot say.
    odd = DrawHand.start(
        rules=make_rules(), stacks=[100] * 3, button=2, dead_small_blind=True, big_blind_seat=1
    )
    with pytest.raises(ValueError, match="blind"):
        write_draw(odd)


def read_draw_start(text):
    """The hand a document starts (its actions replayed so far: none needed to be over)."""
    history = load_draw(text)
    return DrawHand.start(
        rules=history.rules,
        stacks=history.starting_stacks,
        button=history.player_count - 1,
        deck=new_deck(),
        dead_small_blind=bool(history.extra.get("_floorman_dead_small_blind")),
    )


@st.composite
def phh_tables(draw):
    """A random table PHH can say: the button last (so PHH numbers are positions), full deck."""
    n = draw(st.integers(2, 10))
    big = draw(st.integers(2, 100))
    ante_mode = draw(st.sampled_from(list(AnteMode)))
    rules = Rules(
        betting=draw(st.sampled_from(list(Betting))),
        small_blind=draw(st.integers(0, big)),
        big_blind=big,
        ante=0 if ante_mode is AnteMode.NONE else draw(st.integers(1, big)),
        ante_mode=ante_mode,
        odd_chip=draw(st.sampled_from(list(OddChip))),
    )
    table = {
        "rules": rules,
        "stacks": draw(st.lists(st.integers(1, 60 * big), min_size=n, max_size=n)),
        "button": n - 1,
    }
    if n >= 4 and draw(st.booleans()):
        table["posts"] = [2]  # R2.6
    return table, draw(st.permutations(range(52)))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table_and_deck=phh_tables(), data=st.data())
def test_write_then_read_gives_the_same_records_and_stacks(table_and_deck, data):
    table, deck = table_and_deck
    hand = DrawHand.start(**table, deck=deck)
    play(hand, data, deck_size=52)
    text = write_draw(hand)
    back = read_draw(text)
    assert back.records == hand.records
    assert back.stacks == hand.stacks
    assert write_draw(back) == text
    public = DrawHand.replay(**table, records=[public_view(r) for r in hand.records])
    assert read_draw(write_draw(public)).stacks == hand.stacks


def test_a_scripted_hand_round_trips_with_its_players_renumbered_from_the_button():
    hand = deal(hole=["AhKh", "QcQd", "7s2d"], stub="3c 4d5d6d 9s Td 8s Jd", button=1)
    hand.swap(c("Qd"))  # seat 1, the button, first left of the big blind
    while hand.first_swap_round:
        hand.stand_pat()
    check_down_or_call(hand)
    text = write_draw(hand)
    back = read_draw(text)
    assert back.stacks == [hand.stacks[(k + 2) % 3] for k in range(3)]
    assert write_draw(back) == text


def check_down_or_call(hand):
    while not hand.is_over:
        if hand.can_check():
            hand.check()
        else:
            hand.call()
    check_down(hand)
