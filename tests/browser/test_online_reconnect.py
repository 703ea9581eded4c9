"""A table page whose stream drops catches up when it is back, without a reload and without
fetching its fragment (issue 17): the page opens a new stream itself and says what it has
(``?last=``, from the last message's SSE id); the server sends what it missed. A player's
drop shows on the other players' pages at once (R3.10)."""

from __future__ import annotations

import functools
import time

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.online import live as online_live
from tables.online import play as online_play
from tables.online.models import TableHand
from tests.browser.conftest import close_pages, login
from tests.tables.online_helpers import make_table, seat_players, stacked_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CATCH_UP_MS = 25_000  # the page tries again after 1, 2, 4, 8 s; a busy 2-core machine


@pytest.fixture
def pages(browser, settings, monkeypatch):
    """Logged-in pages of a table; every stream has ended before the database goes."""
    # The threaded test server is WSGI: its streams end after 3 s and the page opens the next.
    settings.LIVE_WSGI_STREAM_SECONDS = 3
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    stream = functools.partial(online_live.stream_tables_sync, heartbeat=0.5)
    monkeypatch.setattr(online_live, "stream_tables_sync", stream)
    contexts = []

    def open_page(live_server, table, username):
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        login(page, live_server, username)
        page.goto(live_server.url + reverse("tables:online_table", args=[table.pk]))
        expect(page.locator("#state")).to_be_visible()
        page.evaluate("window.notReloaded = true")
        return page

    yield open_page
    close_pages(contexts)


def _block(page, pattern):
    """Abort every request to ``pattern``; the list of the URLs that were tried."""
    tried = []

    def handler(route):
        tried.append(route.request.url)
        route.abort()

    page.route(pattern, handler)
    return tried


def _act(table, action):
    hand = TableHand.objects.get(table=table, is_over=False)
    user_id = hand.user_ids[hand.actor]
    online_play.act(
        table=table,
        user=table.players.get(user_id=user_id).user,
        hand_id=hand.pk,
        sequence=hand.sequence,
        action=action,
    )
    return TableHand.objects.get(pk=hand.pk)


def test_a_page_whose_stream_dropped_catches_up_from_its_last_event_id(live_server, pages):
    table = make_table(name="Reconnect")
    alice, bob = seat_players(table, ["alice", "bob"])
    hand = online_play.deal_hand(table=table, deck=stacked_deck(["AhKd", "QsJs"]))
    assert hand is not None
    page = pages(live_server, table, "alice")
    state = page.locator("#state")
    expect(state).to_have_attribute("data-sequence", str(hand.sequence))
    # Its stream has carried a message with an id (the next stream's ?last= says it).
    streams = []
    page.on("request", lambda request: "/play/events/" in request.url and streams.append(request))
    expect(state).to_have_attribute("data-hand", str(hand.pk))

    # Offline: no stream, no fragment. Whatever the page shows next came by a stream.
    fragments = _block(page, f"**/play/t/{table.pk}/state/**")
    dropped = _block(page, "**/play/events/**")
    end = time.monotonic() + 15
    while not dropped:  # the server ended the stream; the page tried again, in vain
        assert time.monotonic() < end, "the page never tried to open its stream again"
        page.wait_for_timeout(200)

    # Meanwhile the hand goes on: a call and a check; a flop check makes it alice's turn.
    first = hand.user_ids[hand.actor]
    hand = _act(table, "call")
    hand = _act(table, "check")
    if hand.user_ids[hand.actor] != alice.pk:
        hand = _act(table, "check")
    assert hand.user_ids[hand.actor] == alice.pk, (first, alice.pk, bob.pk)
    page.wait_for_timeout(500)
    expect(state).not_to_have_attribute("data-sequence", str(hand.sequence))

    streams.clear()
    page.unroute("**/play/events/**")
    expect(state).to_have_attribute("data-sequence", str(hand.sequence), timeout=CATCH_UP_MS)
    expect(state).to_have_attribute("data-street", "1")  # the flop
    # Her own part came too: her turn's buttons, and her cards in her seat.
    expect(page.locator("#mine form.actions button[value=check]")).to_be_visible()
    expect(page.locator(".seat.me .hole [data-card=Ah]")).to_be_visible()
    assert page.evaluate("window.notReloaded") is True
    caught = [request.url for request in streams]
    assert caught and all("last=" in url for url in caught), caught
    assert all(url.endswith("/state/") or "/state/" in url for url in fragments)


def test_the_other_players_see_a_drop_at_once_and_the_return(live_server, pages, settings):
    """R3.10: alice's page goes; bob's page marks her seat "Disconnected" after the grace,
    by its stream (its fragment is not fetched: the safety poll would take 15 s); she comes
    back and the mark goes."""
    settings.LIVE_WSGI_STREAM_SECONDS = 120  # no stream ends by itself here
    table = make_table(name="Presence")
    seat_players(table, ["alice", "bob"])
    hers = pages(live_server, table, "alice")
    his = pages(live_server, table, "bob")
    expect(his.get_by_test_id("away-1")).to_have_count(0)
    _block(his, f"**/play/t/{table.pk}/state/**")

    hers.context.close()
    grace_ms = int(online_live.PRESENCE_GRACE_SECONDS * 1000)
    expect(his.get_by_test_id("away-1")).to_be_visible(timeout=grace_ms + 4_000)
    expect(his.get_by_test_id("away-2")).to_have_count(0)

    pages(live_server, table, "alice")
    expect(his.get_by_test_id("away-1")).to_have_count(0, timeout=4_000)
    assert his.evaluate("window.notReloaded") is True
