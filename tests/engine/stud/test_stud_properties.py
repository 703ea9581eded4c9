"""Property tests of seven-card stud: random tables and random legal moves (the server's too).
Chips are conserved, no card is dealt twice, every reachable state is legal, illegal moves are
refused without a trace, and both a replay of the records and the PHH history give the same
hand."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine import DECK_SIZE, AwardPot, IllegalAction, OddChip
from tables.engine.phh import read_stud, write_stud
from tables.engine.stud import DealCommon, DealStud, StudHand, StudRules, StudStreet


@st.composite
def tables(draw):
    """Rules, stacks and deck for a random stud hand; eight players often (the deck runs out)."""
    n = draw(st.one_of(st.integers(2, 8), st.just(8)))
    small = draw(st.integers(1, 100))
    rules = StudRules(
        ante=draw(st.integers(0, small)),
        bring_in=draw(st.integers(1, small)),
        small_bet=small,
        big_bet=draw(st.integers(small, 3 * small)),
        cap=draw(st.integers(1, 5)),
        odd_chip=draw(st.sampled_from(list(OddChip))),
    )
    stacks = draw(st.lists(st.integers(1, 60 * small), min_size=n, max_size=n))
    return {"rules": rules, "stacks": stacks, "deck": draw(st.permutations(range(DECK_SIZE)))}


def snapshot(hand):
    rnd = hand.round
    return (
        list(hand.stacks), list(hand.bets), list(hand.contributed), hand.pot_total,
        hand.actor, hand.street, hand.is_over, len(hand.records), list(hand.acted),
        list(hand.folded), list(hand.protected), list(hand.board),
        (rnd.current_bet, rnd.full_level, rnd.raises, rnd.sizes, rnd.bring_in_due),
    )  # fmt: skip


def assert_refused(hand, move):
    before = snapshot(hand)
    with pytest.raises(IllegalAction):
        move()
    assert snapshot(hand) == before


def check_state(hand, total):
    """Every chip accounted, every card dealt once, and the actor's options make sense."""
    assert sum(hand.stacks) + (0 if hand.is_over else hand.pot_total) == total
    assert min(hand.stacks) >= 0
    assert hand.pot_total == sum(hand.contributed) or hand.is_over
    dealt = [c for r in hand.records if isinstance(r, DealStud) for c in (*r.down, *r.up)]
    dealt += [r.card for r in hand.records if isinstance(r, DealCommon)]
    assert len(dealt) == len(set(dealt))  # R7.2: mucked cards are never dealt again
    assert not set(dealt) & set(hand.burned)
    live = [seat for seat in range(hand.n) if not hand.folded[seat]]
    street = min(hand.street, StudStreet.SEVENTH)
    for seat in live:  # everyone still in has a card of every street (or the common card)
        assert len(hand.hole_cards[seat]) + len(hand.board) == street
    if hand.is_over:
        return
    i = hand.actor
    assert i is not None and hand.can_act[i] and not hand.folded[i] and hand.stacks[i] > 0
    if hand.can_bring_in():
        assert not (hand.can_check() or hand.can_call() or hand.can_fold())
        assert hand.street is StudStreet.THIRD and 0 < hand.bring_in_amount() <= hand.stacks[i]
    else:
        assert hand.can_check() != hand.can_call()  # exactly one way to stay in
        assert hand.can_fold() == hand.can_call()
    if hand.can_raise():
        targets = hand.raise_targets()
        assert list(targets) == sorted(set(targets)) and 1 <= len(targets) <= 2
        assert hand.bets[i] < targets[0] and targets[-1] <= hand.bets[i] + hand.stacks[i]
        assert hand.round.raises < hand.rules.cap


def try_illegal_moves(hand):
    """Moves the rules forbid are refused and change nothing."""
    i = hand.actor
    assert_refused(hand, lambda: hand.call(seat=(i + 1) % hand.n))  # out of turn
    if not hand.can_check():
        assert_refused(hand, hand.check)
    if not hand.can_fold():
        assert_refused(hand, hand.fold)
    if not hand.can_bring_in():
        assert_refused(hand, hand.bring_in)
    if hand.can_raise():
        low, high = hand.min_raise_to(), hand.max_raise_to()
        assert_refused(hand, lambda: hand.raise_to(low - 1))
        assert_refused(hand, lambda: hand.raise_to(high + 1))
        if high - low > 1:
            assert_refused(hand, lambda: hand.raise_to(low + 1))  # R7.2: small or big
    else:
        assert_refused(hand, lambda: hand.raise_to(hand.bets[i] + hand.stacks[i]))


def legal_moves(hand):
    moves = []
    if hand.can_bring_in():
        moves.append("bring_in")
    if hand.can_fold():
        moves.append("fold")
    if hand.can_check():
        moves.append("check")
    if hand.can_call():
        moves.append("call")
    if hand.can_raise():
        moves += ["min", "max"]
    return moves


def play(hand, data):
    for _ in range(400):
        if hand.is_over:
            return
        if data.draw(st.integers(0, 3)) == 0:
            try_illegal_moves(hand)
        move = data.draw(st.sampled_from([*legal_moves(hand), "time_out", "absent", "clock"]))
        if move in ("min", "max"):
            hand.raise_to(hand.min_raise_to() if move == "min" else hand.max_raise_to())
        else:
            {"clock": hand.out_of_time}.get(move, getattr(hand, move, None))()
        yield


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), data=st.data())
def test_random_stud_hands_conserve_chips_stay_legal_and_replay(table, data):
    hand = StudHand.start(**table)
    total = sum(table["stacks"])
    check_state(hand, total)
    for _ in play(hand, data):
        check_state(hand, total)
    assert hand.is_over and hand.actor is None
    assert sum(hand.stacks) == total
    assert sum(hand.payouts) == sum(r.amount for r in hand.records if isinstance(r, AwardPot))
    assert_refused(hand, hand.check)
    again = StudHand.replay(rules=table["rules"], stacks=table["stacks"], records=hand.records)
    assert snapshot(again) == snapshot(hand)
    assert again.records == hand.records and again.hole_cards == hand.hole_cards
    read = read_stud(write_stud(hand))
    assert read.records == hand.records and read.stacks == hand.stacks
    public = read_stud(write_stud(hand, public=True))
    assert public.stacks == hand.stacks
