"""Checking a hand's deck commitment in the browser, without Python (issue 18): the hand page
recomputes each opened card's leaf and the root with Web Crypto SHA-256, shows each step, and
says "matches" for a real hand and "does not match" for a tampered one; at 1366x768 and 360x740.
"""

from __future__ import annotations

import os

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.online import play as online_play
from tables.online.history import openings
from tables.online.models import TableHand
from tests.browser.conftest import login
from tests.tables.online_helpers import make_table, seat_players, stacked_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("FLOOR_SCREENSHOTS", "")
SIZES = {"laptop": (1366, 768), "phone": (360, 740)}


def _played_hand():
    """A hand of three played to a showdown: alice, bob and carol see the board and more."""
    table = make_table()
    users = seat_players(table, ["alice", "bob", "carol"])
    deck = stacked_deck(["8s3d", "Qh7h", "AcKc"], board="Ah9h5c2hKd")
    hand = online_play.deal_hand(table=table, deck=deck)
    alice, bob, carol = users
    for user, action in ((alice, "call"), (bob, "call"), (carol, "check")):
        _act(table, user, action)
    for _street in range(3):
        for user in (bob, carol, alice):
            _act(table, user, "check")
    hand = TableHand.objects.get(pk=hand.pk)
    assert hand.is_over
    return hand


def _act(table, user, action):
    hand = TableHand.objects.get(table=table, is_over=False)
    online_play.act(table=table, user=user, hand_id=hand.pk, sequence=hand.sequence, action=action)


@pytest.mark.parametrize("size", SIZES)
def test_the_hand_page_checks_the_commitment_in_the_browser(browser, live_server, settings, size):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    hand = _played_hand()
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=size == "phone"
    )
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        login(page, live_server, "alice")
        page.goto(live_server.url + reverse("tables:online_hand", args=[hand.pk]))
        verify = page.get_by_test_id("verify")
        expect(page.get_by_test_id("verify-result")).to_have_text("matches")
        # Each step: every opened card's leaf, the leaves joined, their hash, the commitment.
        rows = verify.locator("[data-opening]")
        seen = openings(hand, hand.user_ids[0])  # the board, her cards, the hands shown (R1.8)
        assert rows.count() == len(seen) >= 7
        for index in range(rows.count()):
            row = rows.nth(index)
            position = int(row.get_attribute("data-position"))
            expect(row.locator("[data-out=leaf]")).to_have_text(hand.leaves[position])
            expect(row.locator("[data-out=leaf-ok]")).to_have_text("matches")
        expect(page.get_by_test_id("verify-joined")).to_have_text("".join(hand.leaves))
        expect(page.get_by_test_id("verify-computed")).to_have_text(hand.commitment)
        expect(page.get_by_test_id("verify-root")).to_have_text("matches")
        if SHOTS:
            page.get_by_test_id("verify").screenshot(path=f"{SHOTS}/online-verify-{size}.png")
        assert page.evaluate("document.documentElement.scrollWidth") <= width

        # A commitment other than the one the hand was dealt under: the root does not match.
        other = ("0" if hand.commitment[0] != "0" else "1") + hand.commitment[1:]
        page.get_by_test_id("hand-commitment").fill(other)
        page.get_by_role("button", name="Check again").click()
        expect(page.get_by_test_id("verify-root")).to_have_text("does not match")
        expect(page.get_by_test_id("verify-result")).to_have_text("does not match")
        page.get_by_test_id("hand-commitment").fill(hand.commitment)
        page.get_by_role("button", name="Check again").click()
        expect(page.get_by_test_id("verify-result")).to_have_text("matches")

        # A card said to be another than the one committed at its position: its leaf fails.
        first = rows.first
        byte = int(first.get_attribute("data-card-byte"))
        first.evaluate("(row, card) => { row.dataset.cardByte = String(card); }", (byte + 1) % 52)
        page.get_by_role("button", name="Check again").click()
        expect(first.locator("[data-out=leaf-ok]")).to_have_text("does not match")
        expect(page.get_by_test_id("verify-result")).to_have_text("does not match")
    finally:
        context.close()
