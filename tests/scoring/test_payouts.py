"""Payout tables, lookup by field size and rounding to the unit (pure, no database)."""

from __future__ import annotations

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from scoring.payouts import (
    CLUB_TABLE,
    WHOLE,
    WINNER_TAKES_ALL,
    PayoutRow,
    RemainderRule,
    parse_percentages,
    payout_amounts,
    percent_text,
    round_to_unit,
    row_for_field,
    table_gaps,
    table_problems,
    top_fifth_table,
    top_share_percentages,
)


def row(low, high, *percent):
    return PayoutRow(
        min_entries=low, max_entries=high, percentages=tuple(round(p * 100) for p in percent)
    )


# --- reading and checking rows ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "points"),
    [
        ("50 30 20", (5000, 3000, 2000)),
        ("50;30;20", (5000, 3000, 2000)),
        (" 27,5 / 22.5  50 ", (2750, 2250, 5000)),
        ("33.33 33.33 33.34", (3333, 3333, 3334)),
        ("100", (10_000,)),
    ],
)
def test_percentages_are_read_with_either_decimal_mark(text, points):
    assert parse_percentages(text) == points


@pytest.mark.parametrize("text", ["", "50,30,20", "50 abc", "12.345", "1000"])
def test_what_is_not_a_list_of_percentages_is_refused_with_the_token(text):
    with translation.override("en"), pytest.raises(ValueError) as error:
        parse_percentages(text)
    if text:
        assert "is not a percentage" in str(error.value)


def test_every_problem_names_its_row_and_fields():
    table = [
        row(2, 10, 50, 30, 20),  # 3 places but 2 entries can finish only 1st and 2nd
        row(11, 20, 40, 30, 20, 9),  # 99 %
        row(15, 30, 30, 40, 30),  # overlaps the row above, 2nd pays more than 1st
    ]
    with translation.override("en"):
        problems = table_problems(table)
    assert problems == [
        "Row 1 (2–10 entries): it pays 3 places, but its smallest field has 2 entries.",
        "Row 2 (11–20 entries): the percentages add up to 99% instead of 100%.",
        "Row 3 (15–30 entries): a place pays more than the place above it.",
        "Row 3 (15–30 entries): its fields overlap those of the row above.",
    ]


def test_problems_speak_german_with_a_decimal_comma():
    with translation.override("de"):
        problems = table_problems([row(11, None, 50, 30, 19.5)])
    assert problems == [
        "Zeile 1 (ab 11 Anmeldungen): die Prozente ergeben 99,5\u00a0% statt 100\u00a0%."
    ]


def test_an_open_ended_row_overlaps_every_later_row():
    with translation.override("en"):
        problems = table_problems([row(2, None, 100), row(50, 60, 60, 40)])
    assert len(problems) == 1 and problems[0].startswith("Row 2")


def test_a_field_finds_its_row_and_a_gap_finds_none():
    table = [row(2, 5, 100), row(6, 10, 65, 35), row(21, None, 50, 30, 20)]
    assert row_for_field(table, 2) is table[0]
    assert row_for_field(table, 10) is table[1]
    assert row_for_field(table, 500) is table[2]
    assert row_for_field(table, 15) is None
    assert row_for_field(table, 1) is None
    assert table_gaps(table) == [(11, 20)]
    assert table_gaps(table[:2]) == [(11, None)]


@pytest.mark.parametrize(
    "table", [CLUB_TABLE, WINNER_TAKES_ALL, top_fifth_table()], ids=["club", "wta", "top20"]
)
def test_the_presets_are_valid_and_cover_every_field(table):
    assert table_problems(table) == []
    assert table_gaps(table) == []


def test_the_top_fifth_table_pays_a_fifth_of_the_field_rounded_up():
    table = top_fifth_table()
    for entries in (2, 5, 6, 10, 11, 47, 100):
        assert row_for_field(table, entries).places == -(-entries // 5)
    assert row_for_field(table, 300).places == 20


@given(st.integers(min_value=1, max_value=60))
def test_a_falling_split_sums_to_100_and_never_rises(places):
    shares = top_share_percentages(places)
    assert sum(shares) == WHOLE
    assert list(shares) == sorted(shares, reverse=True)
    assert all(share > 0 for share in shares)


def test_percentages_show_in_the_page_language():
    with translation.override("de"):
        assert percent_text(1250) == "12,5\u00a0%"
    with translation.override("en"):
        assert percent_text(5000) == "50%"


# --- amounts and rounding -----------------------------------------------------------------------


def test_a_pool_of_240_euros_pays_120_72_and_48():
    assert payout_amounts(pool=24_000, row=row(7, 10, 50, 30, 20), unit=100) == [
        12_000,
        7_200,
        4_800,
    ]


def test_the_remainder_goes_to_the_winner_or_one_unit_each_from_the_top():
    """11 entries of 20 €: 220 € at 45/27/17/11 %, rounded to 5 €: 99 -> 95, 59.40 -> 55,
    37.40 -> 35, 24.20 -> 20 leave 15 € over: all to the winner (110/55/35/20) or 5 € each
    to 1st, 2nd and 3rd (100/60/40/20)."""
    table_row = row(11, 20, 45, 27, 17, 11)
    winner = payout_amounts(pool=22_000, row=table_row, unit=500, rule=RemainderRule.WINNER)
    top = payout_amounts(pool=22_000, row=table_row, unit=500, rule=RemainderRule.TOP_DOWN)
    assert winner == [11_000, 5_500, 3_500, 2_000]
    assert top == [10_000, 6_000, 4_000, 2_000]


def test_cents_below_the_unit_go_to_the_winner():
    """123.45 € at 50/30/20 % to 5 €: 60 + 35 + 20 = 115; 8.45 € left, 1st gets 68.45 €."""
    for rule in RemainderRule:
        amounts = payout_amounts(pool=12_345, row=row(3, 9, 50, 30, 20), unit=500, rule=rule)
        assert amounts == [6_845, 3_500, 2_000]


def falling_weights():
    return (
        st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=30)
        .map(lambda ws: sorted(ws, reverse=True))
        .filter(lambda ws: ws[0] > 0)
    )


@given(
    pool=st.integers(min_value=0, max_value=10**9),
    weights=falling_weights(),
    unit=st.sampled_from([1, 100, 500, 1_000, 2_000, 5_000]),
    rule=st.sampled_from(list(RemainderRule)),
)
def test_rounded_shares_sum_to_the_pool_exactly_and_keep_their_order(pool, weights, unit, rule):
    shares = round_to_unit(pool=pool, weights=weights, unit=unit, rule=rule)
    assert sum(shares) == pool
    assert all(share >= 0 for share in shares)
    assert shares == sorted(shares, reverse=True)
    assert all(share % unit == 0 for share in shares[1:])
    assert shares[0] % unit == pool % unit


def test_rounding_refuses_nonsense():
    with pytest.raises(ValueError, match="the pool cannot be negative and the unit is at"):
        round_to_unit(pool=100, weights=[1], unit=0)
    with pytest.raises(ValueError, match="the pool cannot be negative and the unit is at"):
        round_to_unit(pool=-1, weights=[1], unit=1)
    with pytest.raises(ValueError, match="the weights must be non-negative and not all"):
        round_to_unit(pool=100, weights=[0, 0], unit=1)


def test_a_row_for_one_field_size_names_it_once():
    with translation.override("en"):
        assert row(2, 2, 100).range_text == "2 entries"
        assert row(2, 3, 100).range_text == "2–3 entries"
        assert row(4, None, 100).range_text == "4 or more entries"
    with translation.override("de"):
        assert row(2, 2, 100).range_text == "2 Anmeldungen"
