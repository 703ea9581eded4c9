"""Draw Hold'em property tests: random tables, random legal moves and random swaps; chips are
conserved, every card is in one place, a swapped-out card comes back only through a reshuffle,
illegal moves change nothing, and replays match (R7.3-R7.11)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine import AnteMode, Betting, IllegalAction, OddChip, Rules
from tables.engine.draw import DrawHand, Reshuffle, Swap, public_view


@st.composite
def draw_tables(draw):
    """Rules, stacks, button, deck (now and then a short one) and blinds for a random hand."""
    n = draw(st.integers(2, 10))
    big = draw(st.integers(2, 200))
    ante_mode = draw(st.sampled_from(list(AnteMode)))
    rules = Rules(
        betting=draw(st.sampled_from(list(Betting))),
        small_blind=draw(st.integers(0, big)),
        big_blind=big,
        ante=0 if ante_mode is AnteMode.NONE else draw(st.integers(1, big)),
        ante_mode=ante_mode,
        cap=draw(st.integers(1, 5)),
        odd_chip=draw(st.sampled_from(list(OddChip))),
        any_all_in_reopens=draw(st.booleans()),
    )
    stacks = draw(st.lists(st.integers(1, 60 * big), min_size=n, max_size=n))
    deck = draw(st.permutations(range(52)))
    if draw(st.integers(0, 3)) == 0:  # a short deck runs the stub dry (R7.11)
        deck = deck[: 2 * n + 8 + draw(st.integers(0, 6))]
    table = {"rules": rules, "stacks": stacks, "button": draw(st.integers(0, n - 1))}
    if n >= 3 and draw(st.booleans()):
        table["dead_small_blind"] = True
    elif n >= 4 and draw(st.booleans()):
        table["posts"] = [(table["button"] + 3) % n]  # R2.6: a big blind out of turn
    return table, deck


def in_play(hand):
    """Chips in the middle while the hand runs: the pot, this round's fees, the fees apart."""
    return hand.pot_total + hand.swap_fees_pending + hand.swap_fees_apart


def snapshot(hand):
    return (
        list(hand.stacks), list(hand.bets), in_play(hand), hand.actor, hand.street,
        len(hand.records), list(hand.hole_cards), list(hand.swapped), hand.first_swap_round,
        hand._stub.pool, hand._stub.spare,
    )  # fmt: skip


def assert_refused(hand, move):
    before = snapshot(hand)
    with pytest.raises(IllegalAction):
        move()
    assert snapshot(hand) == before


def cards_in_place(hand, deck_size):
    """Every card of the deck is in exactly one place: a hand (folded ones too), the board,
    the pool of swapped-out cards and burns, the reshuffled stub, or the stub still to deal."""
    stub = hand._stub
    places = [card for hole in hand.hole_cards for card in hole] + hand.board
    places += [*stub.pool, *stub.spare, *stub._rest[stub._pos :]]
    assert len(set(places)) == len(places) == deck_size


def try_illegal_moves(hand):
    i = hand.actor
    held = hand.hole_cards[i]
    stranger = next(card for card in range(52) if card not in held)
    assert_refused(hand, lambda: hand.swap(stranger))
    assert_refused(hand, lambda: hand.stand_pat(seat=(i + 1) % hand.n))
    if not hand.can_swap():
        assert_refused(hand, lambda: hand.swap(held[0]))
    if not hand.can_stand_pat():
        assert_refused(hand, hand.stand_pat)
    if hand.swap_only:
        assert_refused(hand, hand.check)
        assert_refused(hand, hand.fold)
        assert_refused(hand, lambda: hand.raise_to(hand.bets[i] + hand.stacks[i]))


def legal_moves(hand):
    moves = []
    if hand.can_swap():
        moves += ["swap", "swap"]
    if hand.can_stand_pat():
        moves.append("stand_pat")
    for name in ("fold", "check", "call", "raise"):
        if getattr(hand, f"can_{name}")():
            moves.append(name)
    return moves


def play(hand, data, *, deck_size):
    """Random legal moves to the end; the invariants after each one."""
    total = sum(hand.starting_stacks)
    discarded_at, reshuffled_at = {}, -1
    for _ in range(2000):
        assert sum(hand.stacks) + (0 if hand.is_over else in_play(hand)) == total
        assert min(hand.stacks) >= 0
        cards_in_place(hand, deck_size)
        if hand.is_over:
            break
        moves = legal_moves(hand)
        assert moves, "the actor must have a legal move"
        if data.draw(st.integers(0, 4)) == 0:
            try_illegal_moves(hand)
        move = data.draw(st.sampled_from([*moves, "time_out", "absent", "out_of_time"]))
        start = len(hand.records)
        if move == "swap":
            hand.swap(data.draw(st.sampled_from(hand.hole_cards[hand.actor])))
        elif move == "raise":
            hand.raise_to(data.draw(st.integers(hand.min_raise_to(), hand.max_raise_to())))
        else:
            getattr(hand, move)()
        for index in range(start, len(hand.records)):
            item = hand.records[index]
            if isinstance(item, Reshuffle):
                reshuffled_at = index
            elif isinstance(item, Swap):
                # A card given back comes back only through a reshuffle (R7.11).
                earlier = discarded_at.get(item.drawn)
                assert earlier is None or reshuffled_at > earlier
                discarded_at[item.discarded] = index
    assert hand.is_over and hand.actor is None
    assert sum(hand.stacks) == total
    assert sum(hand.payouts) == hand.pot_total + hand.swap_fees_apart


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table_and_deck=draw_tables(), data=st.data())
def test_random_draw_hands_conserve_chips_and_cards_and_replay(table_and_deck, data):
    table, deck = table_and_deck
    hand = DrawHand.start(**table, deck=deck)
    play(hand, data, deck_size=len(deck))
    again = DrawHand.replay(**table, records=hand.records, deck=deck)
    assert again.records == hand.records and again.stacks == hand.stacks
    rebuilt = DrawHand.start(**table, deck=deck)  # a table's rebuild: the deck, then each record
    for item in hand.records:
        rebuilt.apply(item)
    assert rebuilt.records == hand.records
    if len(deck) == 52:  # without the deck the replay counts on a full one
        from_records = DrawHand.replay(**table, records=hand.records)
        assert from_records.records == hand.records
        public = DrawHand.replay(**table, records=[public_view(r) for r in hand.records])
        assert public.stacks == hand.stacks and public.payouts == hand.payouts
