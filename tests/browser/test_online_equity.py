"""All-in equity on the hand page's replayer (issue 18): once everyone still in is all-in, each
step shows every player's chance to win and tie from the cards face up at that step; at
1366x768 and 360x740."""

from __future__ import annotations

import os
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.engine import all_in_equity, parse_cards
from tables.online import play as online_play
from tables.online.models import TableHand
from tests.browser.conftest import login
from tests.tables.online_helpers import make_table, seat_players, stacked_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("FLOOR_SCREENSHOTS", "")
SIZES = {"laptop": (1366, 768), "phone": (360, 740)}


def _act(table, user, action, amount=None):
    hand = TableHand.objects.get(table=table, is_over=False)
    online_play.act(
        table=table, user=user, hand_id=hand.pk, sequence=hand.sequence, action=action,
        amount=amount,
    )  # fmt: skip


def _percent(figure):
    return f"{round(figure * 100, 1)}%"


@pytest.mark.parametrize("size", SIZES)
def test_the_replayer_shows_all_in_equity_from_the_cards_face_up(
    browser, live_server, settings, size
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    # Dealt from the small blind: bob 7c2d, carol aces, alice kings.
    deck = stacked_deck(["7c2d", "AsAd", "KsKh"], board="Qh9c5h3s8d")
    hand = online_play.deal_hand(table=table, deck=deck)
    _act(table, alice, "raise", 1000)  # all-in
    _act(table, bob, "fold")
    _act(table, carol, "call")  # all-in: nobody acts again; the board runs out
    hand = TableHand.objects.get(pk=hand.pk)
    assert hand.is_over
    kings, aces = parse_cards("KsKh"), parse_cards("AsAd")
    preflop = all_in_equity(game="nl_holdem", hands=[kings, aces], board=[], samples=5_000,
                            seed=hand.pk)  # fmt: skip
    flop = all_in_equity(game="nl_holdem", hands=[kings, aces], board=parse_cards("Qh9c5h"))
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=size == "phone"
    )
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        login(page, live_server, "alice")
        page.goto(live_server.url + reverse("tables:online_hand", args=[hand.pk]))
        steps = page.get_by_test_id("step")
        with_equity = steps.filter(has=page.get_by_test_id("equity"))
        expect(with_equity).to_have_count(3)  # after the call, the flop, the turn
        call = with_equity.nth(0)
        expect(call.locator(".step-text")).to_contain_text("carol")
        figures = call.get_by_test_id("equity")
        expect(figures).to_contain_text(f"alice wins {_percent(preflop[0].win)}")
        expect(figures).to_contain_text(f"carol wins {_percent(preflop[1].win)}")
        on_flop = with_equity.nth(1).get_by_test_id("equity")
        expect(on_flop).to_contain_text(f"alice wins {_percent(flop[0].win)}")
        expect(on_flop).to_contain_text(f"carol wins {_percent(flop[1].win)}")
        assert 0.7 < preflop[1].win < 0.9  # aces against kings: about 82 % (a known figure)
        # Step to it in the replayer: the current step shows its table with the figures.
        at = page.evaluate(
            "[...document.querySelectorAll('[data-testid=step]')]"
            ".findIndex((step) => step.querySelector('[data-testid=equity]'))"
        )
        expect(page.locator("[data-step=first]")).to_be_disabled()  # the replayer starts at 1
        for _ in range(at):
            page.locator("[data-step=next]").click()
        expect(call).to_have_class(re.compile(r"\bcurrent\b"))
        expect(figures).to_be_visible()
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/online-equity-{size}.png")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


@pytest.mark.parametrize("size", SIZES)
def test_the_live_table_shows_all_in_equity_once_the_hands_are_face_up(
    browser, live_server, settings, size
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    table = make_table()
    alice, bob, carol = seat_players(table, ["alice", "bob", "carol"])
    deck = stacked_deck(["7c2d", "AsAd", "KsKh"], board="Qh9c5h3s8d")
    hand = online_play.deal_hand(table=table, deck=deck)
    _act(table, alice, "raise", 1000)  # all-in
    _act(table, bob, "fold")
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=size == "phone"
    )
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        login(page, live_server, "bob")  # a folded player: a spectator of the rest
        page.goto(live_server.url + reverse("tables:online_table", args=[table.pk]))
        expect(page.get_by_test_id("board")).to_be_visible()
        expect(page.get_by_test_id("table-equity")).to_have_count(0)  # carol still decides
        _act(table, carol, "call")  # the board runs out; the hands are tabled (TDA 16)
        hand = TableHand.objects.get(pk=hand.pk)
        assert hand.is_over
        page.reload()
        kings, aces = parse_cards("KsKh"), parse_cards("AsAd")
        flop = all_in_equity(game="nl_holdem", hands=[kings, aces], board=parse_cards("Qh9c5h"))
        panel = page.get_by_test_id("table-equity")
        expect(panel).to_be_visible()
        expect(panel.get_by_test_id("equity-3-seat-1")).to_contain_text(
            f"alice wins {_percent(flop[0].win)}"
        )
        expect(panel.get_by_test_id("equity-3-seat-3")).to_contain_text(
            f"carol wins {_percent(flop[1].win)}"
        )
        expect(panel.get_by_test_id("equity-0")).to_be_visible()
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/online-table-equity-{size}.png")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()
