"""The online table page as players of the best sites expect it, in real Chromium at a laptop's
1366x768 and a phone's 360x740 (issue 18): the action bar in view on one's turn, pre-actions,
bets in front of the players and pots in the middle, stud's own down cards marked, the state
after "I'm back", a dropped player marked, the deck's commitment in full, the bots' icon."""

from __future__ import annotations

import functools
import os
import re
import time

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.engine.cards import card_name
from tables.online import live as online_live
from tables.online import play as online_play
from tables.online import services as online_services
from tables.online.models import Game, HandAction, OnlineSeat, Presence, TableHand
from tests.browser.conftest import login
from tests.tables.online_helpers import make_table, seat_players, stacked_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("FLOOR_SCREENSHOTS", "")
SIZES = {"laptop": (1366, 768), "phone": (360, 740)}
FOLLOW_MS = 5_000


@pytest.fixture
def open_page(browser, settings, monkeypatch):
    """Pages of logged-in players at a size; every stream has ended before the database goes."""
    settings.LIVE_WSGI_STREAM_SECONDS = 120
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    stream = functools.partial(online_live.stream_tables_sync, heartbeat=0.5)
    monkeypatch.setattr(online_live, "stream_tables_sync", stream)
    contexts = []

    def open_page(live_server, table, username, size):
        width, height = SIZES[size]
        phone = size == "phone"
        context = browser.new_context(
            viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        if username:
            login(page, live_server, username)
        page.goto(live_server.url + reverse("tables:online_table", args=[table.pk]))
        expect(page.locator("#state")).to_be_visible()
        return page

    yield open_page
    for context in contexts:
        context.close()
    _wait_for(lambda: not Presence.objects.filter(streams__gt=0).exists())


def _wait_for(condition, seconds=20.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError("the server never saw it")


def _shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name))


def _hand(table):
    return TableHand.objects.filter(table=table).order_by("-number").first()


def _follow(page, table):
    hand = _hand(table)
    state = page.locator("#state")
    expect(state).to_have_attribute("data-hand", str(hand.pk), timeout=FOLLOW_MS)
    expect(state).to_have_attribute("data-sequence", str(hand.sequence), timeout=FOLLOW_MS)
    return hand


def _act(table, user, action, amount=None):
    hand = TableHand.objects.get(table=table, is_over=False)
    online_play.act(
        table=table, user=user, hand_id=hand.pk, sequence=hand.sequence, action=action,
        amount=amount,
    )  # fmt: skip


IN_VIEW = """selector => {
  const box = document.querySelector(selector).getBoundingClientRect();
  return box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight
    && box.right <= window.innerWidth && box.height > 0;
}"""

NOT_COVERED = """() => {
  const bar = document.querySelector("form.actions").getBoundingClientRect();
  return [...document.querySelectorAll(".seat.me .hole .pcard")].every((card) => {
    const box = card.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= bar.top;
  });
}"""


@pytest.mark.parametrize("size", SIZES)
def test_the_action_bar_and_ones_cards_are_in_view_on_ones_turn(
    live_server, open_page, size
):
    table = make_table(seats=6, name="Online 1")
    users = seat_players(table, ["alice", "bob", "carol"])
    online_play.deal_hand(table=table)  # button alice, blinds bob and carol: alice first
    page = open_page(live_server, table, "alice", size)
    expect(page.get_by_test_id("actions")).to_be_visible()
    _shot(page, f"online-turn-{size}.png")
    page.wait_for_function(IN_VIEW, arg="form.actions .moves")
    page.wait_for_function(IN_VIEW, arg="form.actions .raise")
    page.wait_for_function(NOT_COVERED)  # her own cards above the bar
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0]
    del users
