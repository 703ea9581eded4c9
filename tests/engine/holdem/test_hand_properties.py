"""Property tests: random tables and random legal moves; chips are conserved, every hand ends,
legal moves are accepted, illegal ones refused without a trace, and replays match."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.engine import AnteMode, Betting, Hand, IllegalAction, OddChip, Rules


@st.composite
def tables(draw):
    """Rules, stacks, button, deck and blind seats for a random hand."""
    n = draw(st.integers(2, 10))
    betting = draw(st.sampled_from(list(Betting)))
    big = draw(st.integers(2, 200))
    small = draw(st.integers(0, big))
    ante_mode = draw(st.sampled_from(list(AnteMode)))
    ante = 0 if ante_mode is AnteMode.NONE else draw(st.integers(1, big))
    rules = Rules(
        betting=betting,
        small_blind=small,
        big_blind=big,
        ante=ante,
        ante_mode=ante_mode,
        cap=draw(st.integers(1, 5)),
        odd_chip=draw(st.sampled_from(list(OddChip))),
        pot_limit_small_blind_counts_as_big=draw(st.booleans()),
        any_all_in_reopens=draw(st.booleans()),
        omaha=n <= 10 and draw(st.booleans()),
    )
    stacks = draw(st.lists(st.integers(1, 40 * big), min_size=n, max_size=n))
    button = draw(st.integers(0, n - 1))
    deck = draw(st.permutations(range(52)))
    seats = {}
    if n >= 3 and draw(st.booleans()):
        seats["dead_small_blind"] = True
    return {"rules": rules, "stacks": stacks, "button": button, "deck": deck, **seats}


def snapshot(hand):
    rnd = hand.round
    return (
        list(hand.stacks), list(hand.bets), list(hand.contributed), hand.pot_total,
        hand.actor, hand.street, hand.is_over, len(hand.records), list(hand.acted),
        list(hand.folded), list(hand.protected), list(hand.board),
        (rnd.current_bet, rnd.full_level, rnd.increment, rnd.raises),
    )  # fmt: skip


def assert_refused(hand, move):
    before = snapshot(hand)
    with pytest.raises(IllegalAction):
        move()
    assert snapshot(hand) == before


def try_illegal_moves(hand, data):
    """Moves the rules forbid are refused and change nothing."""
    i = hand.actor
    assert_refused(hand, lambda: hand.check(seat=(i + 1) % hand.n))  # out of turn
    if not hand.can_check():
        assert_refused(hand, hand.check)
    if not hand.can_fold():
        assert_refused(hand, hand.fold)
    if hand.can_raise():
        low, high = hand.min_raise_to(), hand.max_raise_to()
        assert low <= high <= hand.bets[i] + hand.stacks[i]
        assert_refused(hand, lambda: hand.raise_to(low - 1))
        assert_refused(hand, lambda: hand.raise_to(high + 1))
    else:
        assert_refused(hand, lambda: hand.raise_to(hand.bets[i] + hand.stacks[i]))


def legal_moves(hand):
    moves = []
    if hand.can_fold():
        moves.append("fold")
    if hand.can_check():
        moves.append("check")
    if hand.can_call():
        moves.append("call")
    if hand.can_raise():
        moves += ["min", "max", "between"]
    return moves


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), data=st.data())
def test_random_hands_conserve_chips_end_and_replay(table, data):
    hand = Hand.start(**table)
    total = sum(table["stacks"])
    for _ in range(1000):
        assert sum(hand.stacks) + (0 if hand.is_over else hand.pot_total) == total
        assert min(hand.stacks) >= 0
        if hand.is_over:
            break
        assert hand.actor is not None
        moves = legal_moves(hand)
        # Exactly one of check and call is open to a player who must act.
        assert hand.can_check() != hand.can_call()
        if data.draw(st.integers(0, 3)) == 0:
            try_illegal_moves(hand, data)
        move = data.draw(st.sampled_from([*moves, "time_out", "absent"]))
        if move == "fold":
            hand.fold()
        elif move == "check":
            hand.check()
        elif move == "call":
            hand.call()
        elif move == "time_out":
            hand.time_out()
        elif move == "absent":
            hand.absent()
        else:
            low, high = hand.min_raise_to(), hand.max_raise_to()
            amount = {"min": low, "max": high}.get(move) or data.draw(st.integers(low, high))
            hand.raise_to(amount)
    assert hand.is_over
    assert sum(hand.stacks) == total
    assert sum(hand.payouts) == hand.pot_total
    assert hand.actor is None
    assert_refused(hand, hand.check)
    again = Hand.replay(
        rules=table["rules"],
        stacks=table["stacks"],
        button=table["button"],
        records=hand.records,
        dead_small_blind=table.get("dead_small_blind", False),
    )
    assert again.records == hand.records
    assert again.stacks == hand.stacks
    assert again.payouts == hand.payouts
