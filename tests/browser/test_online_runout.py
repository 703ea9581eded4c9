"""The all-in runout on the live table (issue 19), in real Chromium: two players all-in before
the flop; the hands are turned face up (TDA 16) and the board comes a street at a time, each
street with both players' chance to win for the cards to come, before the river is dealt."""

from __future__ import annotations

import os
from datetime import timedelta

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
BOARD = "Qh9c5h3s8d"


def _act(table, user, action, amount=None):
    hand = TableHand.objects.get(table=table, is_over=False)
    online_play.act(
        table=table, user=user, hand_id=hand.pk, sequence=hand.sequence, action=action,
        amount=amount,
    )  # fmt: skip


def _next_street(hand: TableHand) -> None:
    """The sweeper, once the street's pause is over (beat runs it every half second)."""
    hand.refresh_from_db()
    due = hand.deadline + timedelta(milliseconds=1)
    assert online_play.sweep(now=due)["turns"] == 1


def _percent(figure) -> str:
    return f"{round(figure.win * 100, 1)}%"


def test_the_table_shows_each_street_with_the_figures_before_the_river(
    browser, live_server, settings
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.FLOORMAN_RUNOUT_PACE = 0.2  # short in tests (2 s in play)
    table = make_table()
    alice, bob = seat_players(table, ["alice", "bob"])
    # Heads-up alice has the button and the small blind and is dealt first: kings; bob aces.
    hand = online_play.deal_hand(table=table, deck=stacked_deck(["KsKh", "AsAd"], board=BOARD))
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        login(page, live_server, "alice")
        page.goto(live_server.url + reverse("tables:online_table", args=[table.pk]))
        expect(page.get_by_test_id("hole-2").locator("[data-card]")).to_have_count(0)
        _act(table, alice, "raise", 1000)  # all-in
        _act(table, bob, "call")  # all-in: nobody acts again
        hand.refresh_from_db()
        assert not hand.is_over
        kings, aces = parse_cards("KsKh"), parse_cards("AsAd")
        board = parse_cards(BOARD)
        cards = page.get_by_test_id("board").locator(".board-cards [data-card]")
        panel = page.get_by_test_id("table-equity")
        # Pre-flop: bob's aces turned face up on alice's page (TDA 16), the figures shown.
        expect(page.get_by_test_id("hole-2").locator('[data-card="As"]')).to_be_visible()
        expect(panel.get_by_test_id("equity-0-seat-2")).to_contain_text("bob wins")
        expect(cards).to_have_count(0)
        for shown in (3, 4):
            _next_street(hand)
            expect(cards).to_have_count(shown)  # the page learns it by itself: no reload
            figures = all_in_equity(game="nl_holdem", hands=[kings, aces], board=board[:shown])
            line = panel.get_by_test_id(f"equity-{shown}-seat-1")
            expect(line).to_contain_text(f"alice wins {_percent(figures[0])}")
            expect(panel.get_by_test_id(f"equity-{shown}-seat-2")).to_contain_text(
                f"bob wins {_percent(figures[1])}"
            )
            expect(page.locator('[data-card="8d"]')).to_have_count(0)  # the river: not yet
            assert not TableHand.objects.get(pk=hand.pk).is_over
            if SHOTS:
                page.screenshot(path=f"{SHOTS}/online-runout-{shown}.png")
        _next_street(hand)
        expect(cards).to_have_count(5)
        expect(page.locator('[data-public][data-over="1"]')).to_have_count(1)
        expect(page.get_by_test_id("won-2")).to_be_visible()  # aces hold
        assert TableHand.objects.get(pk=hand.pk).is_over
    finally:
        context.close()
