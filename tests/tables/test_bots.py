"""The house bots: only legal moves, every hand ends, chips are conserved, a seed replays, and
a bot never looks at another player's hole cards."""

import random

import pytest

from tables.engine import AnteMode, Betting, Call, Check, Fold, Hand, RaiseTo, Rules, parse_cards
from tables.online.bots import BotMove, apply_move, choose_move

MOVES_PER_HAND = 1000  # far more than any hand needs: a bot that loops fails, it does not hang


class Hidden(tuple):
    """Another player's hole cards, booby-trapped: reading them fails the test."""

    __slots__ = ()

    def __iter__(self):
        raise AssertionError("a bot read another player's hole cards")

    def __getitem__(self, index):
        raise AssertionError("a bot read another player's hole cards")

    def __len__(self):
        raise AssertionError("a bot read another player's hole cards")


def make_table(rng):
    """Random rules (NL, PL or limit; hold'em or Omaha), 2-10 random stacks, button and deck."""
    n = rng.randint(2, 10)
    big = rng.randint(2, 200)
    ante_mode = rng.choice(list(AnteMode))
    rules = Rules(
        betting=rng.choice(list(Betting)),
        small_blind=rng.randint(0, big),
        big_blind=big,
        ante=0 if ante_mode is AnteMode.NONE else rng.randint(1, big),
        ante_mode=ante_mode,
        omaha=rng.random() < 0.25,
    )
    stacks = [rng.randint(1, 60 * big) for _ in range(n)]
    deck = list(range(52))
    rng.shuffle(deck)
    return Hand.start(rules=rules, stacks=stacks, button=rng.randrange(n), deck=deck)


def choose_blind(hand, rng):
    """The bot's move while every other player's hole cards are booby-trapped."""
    saved = list(hand.hole_cards)
    for seat in range(hand.n):
        if seat != hand.actor and saved[seat] is not None:
            hand.hole_cards[seat] = Hidden()
    try:
        return choose_move(hand, rng=rng)
    finally:
        hand.hole_cards[:] = saved


def assert_legal(hand, move):
    """The move is one the engine's own queries allow, within the engine's raise limits."""
    if move.action == "fold":
        assert hand.can_fold()
    elif move.action == "check":
        assert hand.can_check()
    elif move.action == "call":
        assert hand.can_call()
    else:
        assert hand.can_raise()
        assert hand.min_raise_to() <= move.amount <= hand.max_raise_to()


def play(hand, rng, *, blind=False):
    """Bots play the hand to its end; gives the moves chosen."""
    moves = []
    for _ in range(MOVES_PER_HAND):
        if hand.is_over:
            return moves
        move = choose_blind(hand, rng) if blind else choose_move(hand, rng=rng)
        assert_legal(hand, move)
        apply_move(hand, move)  # the engine raises IllegalAction for an illegal move
        moves.append(move)
    pytest.fail("the bots did not finish the hand")


def test_bots_finish_thousands_of_random_hands_with_legal_moves_and_every_chip():
    table_rng, bot_rng = random.Random(2024), random.Random(99)
    actions = set()
    for number in range(5000):
        hand = make_table(table_rng)
        start = sum(hand.starting_stacks)
        moves = play(hand, bot_rng, blind=number % 5 == 0)
        assert hand.is_over
        assert sum(hand.final_stacks) == start
        assert all(stack >= 0 for stack in hand.final_stacks)
        actions.update(move.action for move in moves)
    assert actions == {"fold", "check", "call", "raise"}


def test_the_same_seed_gives_the_same_choices():
    for seed in range(40):
        runs = []
        for _ in range(2):
            hand = make_table(random.Random(seed))
            runs.append((play(hand, random.Random(seed)), hand.records))
        assert runs[0] == runs[1]


def test_bots_raise_within_every_structures_limits():
    # R3.4, R3.5, R3.6: the raise is the engine's range, whatever the structure.
    rng = random.Random(5)
    for betting in Betting:
        for _ in range(200):
            rules = Rules(betting=betting, small_blind=50, big_blind=100)
            hand = Hand.start(rules=rules, stacks=[10_000] * 6, button=0, deck=_deck(rng))
            while not hand.is_over:
                move = choose_move(hand, rng=rng)
                if move.action == "raise":
                    assert hand.min_raise_to() <= move.amount <= hand.max_raise_to()
                    if betting is Betting.LIMIT:
                        assert move.amount == hand.min_raise_to()
                apply_move(hand, move)


def three_handed(hole):
    """Three players of 10,000 at 50/100 no-limit, button 0, with the given hole cards."""
    rules = Rules(betting=Betting.NO_LIMIT, small_blind=50, big_blind=100)
    return Hand.start(
        rules=rules, stacks=[10_000] * 3, button=0, hole_cards=[parse_cards(h) for h in hole]
    )


def test_a_bot_raises_aces_before_the_flop():
    hand = three_handed(["AsAh", "KdKc", "7d2c"])
    assert hand.actor == 0
    moves = {choose_move(hand, rng=random.Random(seed)).action for seed in range(50)}
    assert moves == {"raise"}


def test_a_bot_folds_trash_to_an_all_in():
    hand = three_handed(["AsAh", "KdKc", "7d2c"])
    hand.raise_to(10_000)
    hand.fold()
    assert hand.actor == 2
    moves = {choose_move(hand, rng=random.Random(seed)).action for seed in range(50)}
    assert moves == {"fold"}


def test_a_bot_never_folds_when_it_may_check():
    hand = three_handed(["7d2c", "8h3s", "9c4d"])
    hand.call()
    hand.call()
    assert hand.actor == 2 and hand.can_check()
    moves = {choose_move(hand, rng=random.Random(seed)).action for seed in range(100)}
    assert "fold" not in moves


def test_apply_move_makes_each_kind_of_move():
    rules = Rules(betting=Betting.NO_LIMIT, small_blind=50, big_blind=100)
    hand = Hand.start(rules=rules, stacks=[10_000] * 4, button=0, deck=list(range(52)))
    assert isinstance(apply_move(hand, BotMove("raise", 300)), RaiseTo)
    assert isinstance(apply_move(hand, BotMove("call")), Call)
    assert isinstance(apply_move(hand, BotMove("fold")), Fold)
    assert isinstance(apply_move(hand, BotMove("call")), Call)
    assert isinstance(apply_move(hand, BotMove("check")), Check)  # first on the flop
    assert len(hand.board) == 3


def test_a_raise_needs_an_amount_and_nothing_else_has_one():
    with pytest.raises(ValueError, match="a raise or a swap needs an amount, and only"):
        BotMove("raise")
    with pytest.raises(ValueError, match="a raise or a swap needs an amount, and only"):
        BotMove("call", 100)


def _deck(rng):
    deck = list(range(52))
    rng.shuffle(deck)
    return deck


def test_the_booby_trap_catches_a_read_of_hidden_cards():
    with pytest.raises(AssertionError, match="another player's hole cards"):
        list(Hidden())
    with pytest.raises(AssertionError, match="another player's hole cards"):
        Hidden()[0]
