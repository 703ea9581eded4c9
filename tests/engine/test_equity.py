"""All-in equity (tables.engine.equity): exact enumeration against a brute force with the
evaluator, seeded sampling within its stated error, PokerKit's and a published table's figures
on fixed hands, and bad input refused."""

from __future__ import annotations

import random
import warnings
from itertools import combinations

import pytest
from pokerkit import Card as PKCard
from pokerkit import Deck, StandardHighHand, calculate_equities, parse_range

from tables.engine import (
    DECK_SIZE,
    Equity,
    all_in_equity,
    card_name,
    cards_name,
    evaluate,
    evaluate_omaha,
    parse_cards,
)


def brute_force(hands, board, dead=(), omaha=False):
    """(wins, ties, shares) by evaluating every runout with the engine's public evaluators."""
    known = {*board, *dead, *(c for h in hands for c in h)}
    rest = [c for c in range(DECK_SIZE) if c not in known]
    wins, ties, shares = [0] * len(hands), [0] * len(hands), [0.0] * len(hands)
    runouts = list(combinations(rest, 5 - len(board)))
    for more in runouts:
        full = [*board, *more]
        if omaha:
            values = [evaluate_omaha(hole=h, board=full) for h in hands]
        else:
            values = [evaluate([*h, *full]) for h in hands]
        best = max(values)
        winners = [i for i, v in enumerate(values) if v == best]
        for i in winners:
            if len(winners) == 1:
                wins[i] += 1
            else:
                ties[i] += 1
            shares[i] += 1 / len(winners)
    n = len(runouts)
    return [x / n for w, t, s in zip(wins, ties, shares, strict=True) for x in (w, t, s)]


def figures(equities):
    """Each player's win, tie and share, one flat list (as brute_force gives them)."""
    return [x for e in equities for x in (e.win, e.tie, e.share)]


def hands_of(*texts):
    return [parse_cards(text) for text in texts]


def test_a_complete_board_is_decided_and_exact():
    result = all_in_equity(
        game="holdem", hands=hands_of("AsAh", "KdKc"), board=parse_cards("2c7h9dJsKs")
    )
    assert result == [
        Equity(win=0.0, tie=0.0, share=0.0, error=None),
        Equity(win=1.0, tie=0.0, share=1.0, error=None),
    ]


def test_a_board_that_plays_splits_the_pot():
    result = all_in_equity(
        game="holdem", hands=hands_of("2c3d", "4h5c"), board=parse_cards("AsKsQsJsTs")
    )
    assert [(e.win, e.tie, e.share) for e in result] == [(0.0, 1.0, 0.5), (0.0, 1.0, 0.5)]


def test_turn_three_way_is_the_brute_force_exactly():
    hands = hands_of("AsKs", "QhQd", "9c8c")
    board = parse_cards("Qs7c6c2s")
    result = all_in_equity(game="holdem", hands=hands, board=board)
    assert all(e.error is None for e in result)
    assert figures(result) == pytest.approx(brute_force(hands, board), abs=1e-12)
    assert sum(e.share for e in result) == pytest.approx(1.0)


def test_flop_heads_up_with_dead_cards_is_the_brute_force_exactly():
    hands = hands_of("AhKh", "7s7d")
    board = parse_cards("Qh7h2c")
    dead = parse_cards("Jh3h")  # a folded hand shown face up: two hearts fewer to come
    result = all_in_equity(game="holdem", hands=hands, board=board, dead=dead)
    assert figures(result) == pytest.approx(brute_force(hands, board, dead), abs=1e-12)
    without = all_in_equity(game="holdem", hands=hands, board=board)
    assert result[0].share < without[0].share  # the flush draw lost two outs


def test_omaha_two_plus_three_on_the_turn_is_the_brute_force_exactly():
    # R7.1: the all-spade hand has no flush with one spade on board... until two come.
    hands = hands_of("AsKsQsJs", "9h9d8c7c")
    board = parse_cards("9s6c5d2h")
    result = all_in_equity(game="plo", hands=hands, board=board)
    assert figures(result) == pytest.approx(brute_force(hands, board, omaha=True), abs=1e-12)


def test_omaha_flop_is_the_brute_force_exactly():
    hands = hands_of("AsAhKdQd", "JcTc9h8h")
    board = parse_cards("Td9d2s")
    result = all_in_equity(game="omaha", hands=hands, board=board)
    assert figures(result) == pytest.approx(brute_force(hands, board, omaha=True), abs=1e-12)


@pytest.mark.parametrize("suits", [4, 2], ids=["any-suits", "two-suits"])
def test_omaha_on_random_turns_is_the_brute_force_exactly(suits):
    """R7.1 on deals the test makes up: from a deck of two suits most boards hold three of a
    suit, so the flushes (and the fives valued by their ranks alone beside them) are tried."""
    deal = random.Random(f"omaha-{suits}")  # the deal only; the figures are not random
    cards = [card for card in range(DECK_SIZE) if card & 3 < suits]
    for _ in range(15):
        players = deal.choice([2, 3])
        dealt = deal.sample(cards, 4 * players + 4)
        hands = [dealt[4 * i : 4 * i + 4] for i in range(players)]
        board = dealt[4 * players :]
        result = all_in_equity(game="omaha", hands=hands, board=board)
        expected = brute_force(hands, board, omaha=True)
        assert figures(result) == pytest.approx(expected, abs=1e-12), (hands, board)


def test_draw_holdem_after_the_last_swap_round_is_holdem():
    hands, board = hands_of("AsQd", "KcKh"), parse_cards("Qc8h3s")
    draw = all_in_equity(game="draw_holdem", hands=hands, board=board)
    assert draw == all_in_equity(game="nl_holdem", hands=hands, board=board)


def test_pre_flop_is_sampled_with_a_stated_error_and_the_same_seed_gives_the_same_figures():
    hands = hands_of("AsAh", "KdKc")
    first = all_in_equity(game="holdem", hands=hands, board=[], samples=20_000, seed=7)
    again = all_in_equity(game="holdem", hands=hands, board=[], samples=20_000, seed=7)
    other = all_in_equity(game="holdem", hands=hands, board=[], samples=20_000, seed=8)
    assert first == again and first != other
    assert all(e.error is not None and 0 < e.error < 0.005 for e in first)
    # Published: aces against kings pre-flop about 81.9% to 18.1% (suits averaged).
    assert first[0].share == pytest.approx(0.819, abs=0.01)
    assert first[1].share == pytest.approx(0.181, abs=0.01)


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_pre_flop_sampler_is_the_general_one_bit_for_bit(players):
    """Issue 17: the hold'em sampler before the flop writes ``_sample``'s loop out (half its
    time); same runouts, same values, same figures to the last bit, ties and flushes included
    (suited hands of one suit make flushes and split pots common)."""
    from tables.engine import equity  # noqa: PLC0415

    rng = random.Random(players)
    for deal in range(12):
        cards = rng.sample(range(DECK_SIZE), 2 * players)
        if deal % 3 == 0:  # every hand of clubs or spades: flushes and ties come often
            cards = rng.sample([c for c in range(DECK_SIZE) if c & 3 in (0, 3)], 2 * players)
        hands = [cards[i : i + 2] for i in range(0, 2 * players, 2)]
        rest = [c for c in range(DECK_SIZE) if c not in cards]
        seed = rng.getrandbits(64)
        general = equity._sample(equity._holdem_values(hands, []), rest, 5, players, 600, seed)
        fast = all_in_equity(game="holdem", hands=hands, board=[], samples=600, seed=seed)
        assert fast == general
        assert any(e.tie for e in fast) or deal % 3


def test_the_default_samples_pre_flop_and_enumerates_from_the_flop():
    hands = hands_of("AsAh", "KdKc", "7c6c")
    assert all(e.error is not None for e in all_in_equity(game="holdem", hands=hands, board=[]))
    flop = parse_cards("2d3h9s")
    assert all(e.error is None for e in all_in_equity(game="holdem", hands=hands, board=flop))


def test_sampling_lands_within_its_error_of_the_exact_figures():
    hands = hands_of("AcJc", "TdTh", "5s4s")
    board = parse_cards("Jd5c2c")
    exact = all_in_equity(game="holdem", hands=hands, board=board)
    sampled = all_in_equity(game="holdem", hands=hands, board=board, samples=400, seed=3)
    for e, s in zip(exact, sampled, strict=True):
        assert s.error is not None
        assert abs(s.share - e.share) <= 4 * s.error + 1e-9


def pokerkit_equities(hands, board, samples):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return calculate_equities(
            tuple(parse_range(cards_name(hand)) for hand in hands),
            PKCard.parse("".join(card_name(c) for c in board)),
            2,
            5,
            Deck.STANDARD,
            (StandardHighHand,),
            sample_count=samples,
        )


@pytest.mark.parametrize(
    ("texts", "board"),
    [
        (("AsAh", "KdKc"), "Kh7c2d"),
        (("AhKh", "QsQc", "9d8d"), "Th9h2c"),
    ],
)
def test_pokerkit_agrees_on_fixed_hands(texts, board):
    hands = hands_of(*texts)
    ours = all_in_equity(game="holdem", hands=hands, board=parse_cards(board))
    theirs = pokerkit_equities(hands, parse_cards(board), samples=3_000)
    for e, p in zip(ours, theirs, strict=True):
        # PokerKit samples 3,000 runouts: its standard error is at most about 0.009.
        assert p == pytest.approx(e.share, abs=0.04)


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"hands": [parse_cards("AsAh")]}, "two or more hands"),
        ({"hands": hands_of("AsAh", "AsKd")}, "appears twice"),
        ({"hands": hands_of("AsAh", "Kd")}, "2 face-up cards"),
        ({"board": parse_cards("2c3c")}, "0, 3, 4 or 5 cards"),
        ({"dead": parse_cards("Ah")}, "appears twice"),
        ({"game": "stud"}, "no all-in equity"),
        ({"samples": 0}, "at least one"),
        ({"hands": [[60, 1], [2, 3]]}, "not a card"),
    ],
)
def test_bad_input_is_refused_with_the_reason(kwargs, reason):
    call = {"game": "holdem", "hands": hands_of("AsAh", "KdKc"), "board": [], **kwargs}
    with pytest.raises(ValueError, match=reason):
        all_in_equity(**call)
