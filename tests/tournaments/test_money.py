"""The pure money rules: amounts, purchase windows and limits, the prize pool (R5.1 default)."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments import money
from tournaments.money import PurchaseKind, Refusal
from tournaments.money_format import format_money


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("20", 2000),
        ("20.00", 2000),
        ("20,00", 2000),
        ("20,5", 2050),
        (" 7.25 ", 725),
        ("0", 0),
        ("1.250,00", 125000),
        ("1,250.00", 125000),
        ("1.000", 100000),
        ("20.001", 2000100),
        ("20 €", 2000),
    ],
)
def test_parse_amount_accepts_what_people_type(text, cents):
    assert money.parse_amount(text) == cents


@pytest.mark.parametrize("text", ["", "abc", "20.0001", "-5", "2,0,0", "20.", "1e3"])
def test_parse_amount_refuses_what_is_no_amount(text):
    with pytest.raises(money.AmountError):
        money.parse_amount(text)


def test_format_money_in_german_and_english(settings):
    settings.FLOORMAN_CURRENCY = "EUR"
    with translation.override("de"):
        assert format_money(2000) == "20,00\u00a0€"
        assert format_money(123456) == "1.234,56\u00a0€"
    with translation.override("en"):
        assert format_money(2000) == "€20.00"
        assert format_money(-550) == "-€5.50"


def test_format_money_uses_the_house_currency(settings):
    settings.FLOORMAN_CURRENCY = "CHF"
    with translation.override("en"):
        assert format_money(2000) == "CHF\u00a020.00"


def state(**changes):
    values = {
        "in_play": True, "busted": False, "is_latest": True, "has_buy_in": True,
        "rebuys": 0, "add_ons": 0, "re_entries": 0,
    }  # fmt: skip
    values.update(changes)
    return money.EntryState(**values)


REBUYS = money.MoneyRules(
    buy_in=money.Price(amount=2000, fee=200, bounty=500),
    rebuy=money.Price(amount=2000, chips=3000),
    rebuy_window=money.Window(first=1, last=4),
    rebuy_limit=2,
    add_on=money.Price(amount=1000, chips=5000),
    add_on_window=money.Window(first=4, last=4),
    re_entry=True,
    re_entry_window=money.Window(last=6),
    re_entry_limit=1,
)


def refusal(kind, *, rules=REBUYS, level=1, finished=False, **changes):
    return money.refusal(
        rules=rules, kind=kind, state=state(**changes), play_level=level, finished=finished
    )


@pytest.mark.parametrize("kind", [PurchaseKind.REBUY, PurchaseKind.ADD_ON, PurchaseKind.RE_ENTRY])
def test_freeze_out_offers_no_rebuy_add_on_or_re_entry(kind):
    """R5.1: starting chips once; no rebuy, no add-on (the default rules)."""
    assert refusal(kind, rules=money.MoneyRules(), busted=True) is Refusal.NOT_OFFERED


def test_a_freeroll_records_no_buy_in():
    assert not money.MoneyRules().has_money
    assert refusal(PurchaseKind.BUY_IN, rules=money.MoneyRules(), has_buy_in=False) is (
        Refusal.NOT_OFFERED
    )


def test_rebuy_within_its_levels_and_limit():
    assert refusal(PurchaseKind.REBUY, level=1) is None
    assert refusal(PurchaseKind.REBUY, level=4, rebuys=1) is None
    assert refusal(PurchaseKind.REBUY, level=5) is Refusal.TOO_LATE
    assert refusal(PurchaseKind.REBUY, rebuys=2) is Refusal.LIMIT_REACHED
    assert refusal(PurchaseKind.REBUY, in_play=False) is Refusal.NOT_IN_PLAY


def test_add_on_only_in_its_level_and_once():
    assert refusal(PurchaseKind.ADD_ON, level=3) is Refusal.TOO_EARLY
    assert refusal(PurchaseKind.ADD_ON, level=4) is None
    assert refusal(PurchaseKind.ADD_ON, level=4, add_ons=1) is Refusal.LIMIT_REACHED
    assert refusal(PurchaseKind.ADD_ON, level=5) is Refusal.TOO_LATE


def test_re_entry_only_for_the_busted_latest_entry_within_limit_and_levels():
    assert refusal(PurchaseKind.RE_ENTRY, busted=True, in_play=False) is None
    assert refusal(PurchaseKind.RE_ENTRY) is Refusal.NOT_BUSTED
    assert refusal(PurchaseKind.RE_ENTRY, busted=True, is_latest=False) is (
        Refusal.ALREADY_RE_ENTERED
    )
    assert refusal(PurchaseKind.RE_ENTRY, busted=True, re_entries=1) is Refusal.LIMIT_REACHED
    assert refusal(PurchaseKind.RE_ENTRY, busted=True, level=7) is Refusal.TOO_LATE


def test_nothing_is_bought_in_a_finished_event():
    assert refusal(PurchaseKind.REBUY, finished=True) is Refusal.EVENT_FINISHED


def test_buy_in_only_once():
    assert refusal(PurchaseKind.BUY_IN, has_buy_in=False) is None
    assert refusal(PurchaseKind.BUY_IN) is Refusal.ALREADY_BOUGHT_IN


def test_a_break_counts_as_the_level_before_it():
    kinds = ["play", "play", "break", "play", "break"]
    assert [money.play_level_number(kinds, i) for i in range(5)] == [1, 2, 2, 3, 3]
    assert money.play_level_number(["break", "play"], 0) == 1


def bought(kind, amount, fee=0, bounty=0, chips=0):
    return money.Bought(kind=kind, amount=amount, fee=fee, bounty=bounty, chips=chips)


def test_prize_pool_is_the_amounts_without_fees_and_bounties():
    rows = [
        bought(PurchaseKind.BUY_IN, 2000, 200, 500),
        bought(PurchaseKind.BUY_IN, 2000, 200, 500),
        bought(PurchaseKind.RE_ENTRY, 2000, 200, 500),
        bought(PurchaseKind.REBUY, 1500, 100, chips=3000),
        bought(PurchaseKind.ADD_ON, 1000, chips=5000),
    ]
    pool = money.prize_pool_of(rows)
    assert pool.collected == 3 * 2200 + 1600 + 1000
    assert pool.fees == 700
    assert pool.bounties == 1500
    assert pool.total == 3 * 2000 + 1500 + 1000 - 1500
    assert (pool.entries, pool.buy_ins, pool.re_entries, pool.rebuys, pool.add_ons) == (
        3, 2, 1, 1, 1,
    )  # fmt: skip
    assert pool.overlay == 0


def test_a_guarantee_raises_the_pool_and_names_the_overlay():
    pool = money.prize_pool_of([bought(PurchaseKind.BUY_IN, 2000, 200)], guarantee=5000)
    assert (pool.total, pool.overlay) == (5000, 3000)
    assert money.prize_pool_of([bought(PurchaseKind.BUY_IN, 6000)], guarantee=5000).overlay == 0


def test_a_freeroll_pool_is_empty():
    pool = money.prize_pool_of([])
    assert pool.is_empty
    assert (pool.total, pool.entries) == (0, 0)
