"""Final-table deals: chip-chop and ICM (pure, no database), with hypothesis properties."""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring import deals
from scoring.deals import (
    MAX_DEAL_PLAYERS,
    DealError,
    apportion,
    chip_chop,
    icm,
    icm_chop,
    icm_equity,
    icm_equity_naive,
    split_deal,
)


def exact_icm(stacks, prizes):
    """Malmuth-Harville by brute force over every finishing order, in exact fractions."""
    prizes = list(prizes) + [0] * (len(stacks) - len(prizes))
    result = [Fraction(0)] * len(stacks)
    for order in permutations(range(len(stacks))):
        chance, left = Fraction(1), sum(stacks)
        for player in order:
            chance *= Fraction(stacks[player], left)
            left -= stacks[player]
        for place, player in enumerate(order):
            result[player] += chance * prizes[place]
    return result


def test_the_published_three_player_example():
    """The classic example (stacks 5,000/3,000/2,000; prizes 50/30/20 of 100): 38.39/32.75/28.86.

    By hand, 10,000 chips in all. A (5,000) wins with 5/10 = 0.5. A is 2nd if B wins first
    (0.3) and A then beats C (5/7), or C wins first (0.2) and A beats B (5/8):
    0.3 * 5/7 + 0.2 * 5/8 = 0.21429 + 0.125 = 0.33929; A is 3rd with 1 - 0.5 - 0.33929 =
    0.16071. A's equity: 50 * 0.5 + 30 * 0.33929 + 20 * 0.16071 = 25 + 10.179 + 3.214 = 38.393.
    B (3,000) wins with 0.3; is 2nd after A (0.5 * 3/5 = 0.3) or C (0.2 * 3/8 = 0.075):
    0.375; 3rd with 0.325: 15 + 11.25 + 6.5 = 32.75. C gets the rest: 100 - 38.393 - 32.75 =
    28.857. In cents of a 100 € pool: 3,839.29 / 3,275.00 / 2,885.71; rounded to the cent the
    0.29 and 0.71 cut off leave one cent over, which goes to C's larger fraction: 3,839 /
    3,275 / 2,886.
    """
    stacks, prizes = [5_000, 3_000, 2_000], [5_000, 3_000, 2_000]
    equity = icm_equity(stacks, prizes)
    assert equity == pytest.approx([3_839.2857, 3_275.0, 2_885.7143], abs=1e-3)
    assert icm_chop(stacks=stacks, prizes=prizes, unit=1) == [3_839, 3_275, 2_886]
    # Rounded to whole euros: 38.39 -> 38, 32.75 -> 32, 28.86 -> 28 cut off 0.39, 0.75 and
    # 0.86; two euros over go to the two largest cuts (C, then B).
    assert icm_chop(stacks=stacks, prizes=prizes, unit=100) == [3_800, 3_300, 2_900]
    # A chip-chop of the same 100 € is the chip shares: 50/30/20.
    assert chip_chop(stacks=stacks, total=10_000, unit=100) == [5_000, 3_000, 2_000]


def test_heads_up_icm_is_first_prize_by_chip_share_plus_second_prize():
    """Two players: E(A) = 2nd + (1st - 2nd) * A's share of the chips."""
    equity = icm_equity([6_000, 2_000], [1_000, 400])
    assert equity == pytest.approx([400 + 600 * 0.75, 400 + 600 * 0.25])


def test_a_deal_keeps_money_back_for_the_winner():
    """Chop 1,000 € + 600 € + 400 € but play on for 100 €: 1st counts 900 €, 1,900 € shared."""
    split = split_deal(
        stacks=[50, 30, 20], prizes=[100_000, 60_000, 40_000], unit=1_000, kept=10_000
    )
    assert split.total == 200_000
    assert sum(split.chip_chop) == sum(split.icm) == 190_000
    assert split.chip_chop == (95_000, 57_000, 38_000)
    icm = icm_chop(stacks=[50, 30, 20], prizes=[90_000, 60_000, 40_000], unit=1_000)
    assert split.icm == tuple(icm)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"stacks": [100], "prizes": [100]}, "at least two players"),
        ({"stacks": [100, 0], "prizes": [100, 50]}, "has chips"),
        ({"stacks": [100, 50], "prizes": [0, 0]}, "no prize money"),
        ({"stacks": [100, 50], "prizes": [100, 60], "kept": 41}, "1st minus 2nd"),
        ({"stacks": [100, 50], "prizes": [100, 60], "kept": -1}, "1st minus 2nd"),
    ],
)
def test_a_deal_that_cannot_be_made_says_why(kwargs, message):
    with pytest.raises(DealError, match=message):
        split_deal(unit=100, **kwargs)


def test_more_players_than_prizes_share_only_the_prizes():
    equity = icm_equity([1_000, 1_000, 1_000, 1_000], [300, 100])
    assert sum(equity) == pytest.approx(400)
    assert equity == pytest.approx([100] * 4)


# --- properties ---------------------------------------------------------------------------------

stacks_strategy = st.lists(st.integers(min_value=1, max_value=1_000_000), min_size=2, max_size=7)
units = st.sampled_from([1, 100, 500, 1_000, 2_000])


@st.composite
def tables(draw, max_players=7):
    stacks = draw(stacks_strategy.filter(lambda s: len(s) <= max_players))
    prizes = draw(
        st.lists(st.integers(min_value=0, max_value=5_000_000), min_size=1, max_size=len(stacks))
    )
    prizes = sorted(prizes, reverse=True)
    assume(sum(prizes) > 0)
    return stacks, prizes


@given(table=tables(), unit=units)
def test_both_deals_sum_to_the_prize_money_exactly(table, unit):
    stacks, prizes = table
    total = sum(prizes)
    chop = chip_chop(stacks=stacks, total=total, unit=unit)
    icm = icm_chop(stacks=stacks, prizes=prizes, unit=unit)
    for shares in (chop, icm):
        assert sum(shares) == total
        assert all(share >= 0 for share in shares)
        assert sum(share % unit for share in shares) == total % unit  # only one odd share


@given(table=tables(), unit=units)
def test_more_chips_never_get_less_money(table, unit):
    stacks, prizes = table
    chop = chip_chop(stacks=stacks, total=sum(prizes), unit=unit)
    icm = icm_chop(stacks=stacks, prizes=prizes, unit=unit)
    equity = icm_equity(stacks, prizes)
    for i, j in permutations(range(len(stacks)), 2):
        if stacks[i] > stacks[j]:
            assert chop[i] >= chop[j]
            assert icm[i] >= icm[j]
            assert equity[i] >= equity[j] - 1e-6


@given(
    players=st.integers(min_value=2, max_value=9),
    chips=st.integers(min_value=1, max_value=10**6),
    prizes=st.lists(st.integers(min_value=1, max_value=10**6), min_size=1, max_size=9),
    unit=units,
)
def test_equal_stacks_get_equal_icm(players, chips, prizes, unit):
    prizes = sorted(prizes, reverse=True)[:players]
    equity = icm_equity([chips] * players, prizes)
    assert equity == pytest.approx([sum(prizes) / players] * players)
    shares = icm_chop(stacks=[chips] * players, prizes=prizes, unit=unit)
    # Rounded, whole units cannot always be split evenly: at most one unit apart, and the
    # cents below one unit with one of them.
    assert max(shares) - min(shares) <= unit + sum(prizes) % unit


@given(table=tables())
def test_icm_gives_the_leader_between_an_equal_split_and_his_chip_share(table):
    stacks, prizes = table
    total = sum(prizes)
    leader = max(range(len(stacks)), key=lambda i: stacks[i])
    equity = icm_equity(stacks, prizes)[leader]
    equal = total / len(stacks)
    chip_share = total * stacks[leader] / sum(stacks)
    assert equal - 1e-6 <= equity <= chip_share + 1e-6


@settings(max_examples=40, deadline=None)  # brute force in fractions: slow on a loaded machine
@given(table=tables(max_players=6))
def test_the_exact_recursion_matches_every_finishing_order_exactly(table):
    stacks, prizes = table
    exact = [float(value) for value in exact_icm(stacks, prizes)]
    assert icm_equity(stacks, prizes) == pytest.approx(exact, rel=1e-9, abs=1e-6)
    assert icm_equity_naive(stacks, prizes) == pytest.approx(exact, rel=1e-9, abs=1e-6)


def _table(players, paid):
    stacks = [1_000 * (i + 1) + 7 * i * i for i in range(players)]
    return stacks, [10_000 * (paid - i) for i in range(paid)]


def test_ten_players_take_milliseconds():
    """10 players, every place paid: 5,120 steps, a few ms (bench/RESULTS.md, "ICM")."""
    import time

    stacks, prizes = _table(10, 10)
    started = time.perf_counter()
    result = icm(stacks, prizes)
    assert time.perf_counter() - started < 0.5
    assert result.exact and sum(result.equity) == pytest.approx(sum(prizes))


@pytest.mark.parametrize(
    ("players", "paid", "exact"),
    [(17, 17, True), (18, 18, False), (190, 3, True), (200, 3, False), (30, 30, False)],
)
def test_icm_is_exact_while_fast_and_estimated_beyond(players, paid, exact):
    """The exact recursion up to EXACT_ICM_STEPS; an estimate beyond it, never minutes."""
    import time

    stacks, prizes = _table(players, paid)
    started = time.perf_counter()
    result = icm(stacks, prizes)
    # About 2 s at most on an idle machine; the cap allows for 8 helpers on 2 cores.
    assert time.perf_counter() - started < 10
    assert result.exact is exact
    assert (result.trials == 0) is exact and (result.error == 0.0) is exact
    assert sum(result.equity) == pytest.approx(sum(prizes), rel=1e-9)


def test_the_estimate_is_within_its_stated_error_of_the_exact_value():
    stacks, prizes = _table(7, 7)
    exact = [float(value) for value in exact_icm(stacks, prizes)]
    paid = tuple(prizes)
    estimate = deals._icm_estimate(stacks, paid, len(paid))
    assert estimate.trials == deals.ESTIMATE_DRAWS // 7
    assert 0 < estimate.error < 0.01 * prizes[0]  # under 1 % of 1st prize
    for got, want in zip(estimate.equity, exact, strict=True):
        assert abs(got - want) <= estimate.error  # the bound is 3 standard errors


def test_the_cost_counts_each_set_placed_and_each_player_left():
    assert deals.icm_steps(3, 3) == 3 + 3 * 2 + 3 // 3  # {}, {a}, {b}, {c}; then pairs
    assert deals.icm_steps(4, 1) == 4 // 3
    assert deals.icm_steps(4, 0) == 0


def test_the_estimate_is_seeded_so_the_saved_deal_is_the_one_shown():
    stacks, prizes = _table(20, 20)
    first = split_deal(stacks=stacks, prizes=prizes, unit=100)
    assert first.icm_trials == deals.ESTIMATE_DRAWS // 20 and first.icm_error > 0
    assert split_deal(stacks=stacks, prizes=prizes, unit=100) == first
    assert sum(first.icm) == sum(prizes)


def test_a_deal_among_too_many_players_is_refused_with_the_reason():
    stacks, prizes = _table(MAX_DEAL_PLAYERS + 1, 3)
    with pytest.raises(DealError, match="more than 1,000 players is not computed"):
        icm(stacks, prizes)


@given(
    total=st.integers(min_value=0, max_value=10**9),
    weights=st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=10),
    unit=units,
)
def test_apportion_is_exact_for_any_weights(total, weights, unit):
    assume(sum(weights) > 0)
    shares = apportion(total=total, weights=weights, stacks=weights, unit=unit)
    assert sum(shares) == total
    for i, j in permutations(range(len(weights)), 2):
        if weights[i] > weights[j]:
            assert shares[i] >= shares[j]
