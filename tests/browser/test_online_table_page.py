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

from tables.engine import card_name
from tables.online import live as online_live
from tables.online import play as online_play
from tables.online import services as online_services
from tables.online.models import Game, HandAction, OnlineSeat, Presence, TableHand
from tests.browser.conftest import close_pages, login
from tests.factories import make_user
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
        streams = _streams_of(username)
        page.goto(live_server.url + reverse("tables:online_table", args=[table.pk]))
        expect(page.locator("#state")).to_be_visible()
        if username:
            # The page's stream is open on the server before the test goes on: a test that
            # ends at once must not close a page whose stream is still opening (its presence
            # written while the database is flushed: a deadlock, the flush failed).
            _wait_for(lambda: _streams_of(username) > streams)
        return page

    yield open_page
    close_pages(contexts)


def _streams_of(username):
    presence = Presence.objects.filter(user__username=username).first() if username else None
    return presence.streams if presence else 0


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
def test_the_action_bar_and_ones_cards_are_in_view_on_ones_turn(live_server, open_page, size):
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


def _moves_of(user):
    return list(
        HandAction.objects.filter(user=user).order_by("pk").values_list("record", flat=True)
    )


@pytest.mark.parametrize("size", SIZES)
def test_pre_actions_call_any_survives_a_raise_check_fold_folds_and_call_n_clears(
    live_server, open_page, size
):
    table = make_table()
    alice_u, bob_u, carol_u, dave_u = seat_players(table, ["alice", "bob", "carol", "dave"])
    online_play.deal_hand(table=table)  # button alice, blinds bob and carol: dave first
    carol = open_page(live_server, table, "carol", size)
    alice = open_page(live_server, table, "alice", size)
    # Carol (big blind) ticks "Call any": a raise and a re-raise leave it ticked, and on her
    # turn her page calls the bet it answers, whatever it became.
    carol_any = carol.get_by_test_id("preactions").get_by_label("Call any")
    carol_any.check()
    _act(table, dave_u, "raise", 30)
    _follow(carol, table)
    expect(carol_any).to_be_checked()
    _act(table, alice_u, "raise", 60)
    _follow(carol, table)
    expect(carol_any).to_be_checked()
    _shot(carol, f"online-preactions-{size}.png")
    _act(table, bob_u, "fold")
    _wait_for(lambda: _moves_of(carol_u), seconds=FOLLOW_MS / 1000)
    assert _moves_of(carol_u)[0]["move"] == "call"
    engine = online_play.engine_of(_hand(table))
    assert engine.bets[2] == 60  # seat 3's call of the re-raise
    _act(table, dave_u, "call")

    # The flop: carol, dave, alice. Alice ticks "Check/fold"; carol bets 40: it stays, and
    # a "Call 40" box appears; she takes it instead; dave raises to 120: "Call 40" clears and
    # nothing acts for her.
    _follow(alice, table)
    boxes = alice.get_by_test_id("preactions")
    boxes.get_by_label("Check/fold").check()
    _act(table, carol_u, "raise", 40)
    _follow(alice, table)
    expect(boxes.get_by_label("Check/fold")).to_be_checked()
    call_n = boxes.get_by_label("Call 40")
    call_n.check()
    expect(boxes.get_by_label("Check/fold")).not_to_be_checked()
    _act(table, dave_u, "raise", 120)
    hand = _follow(alice, table)
    expect(alice.get_by_test_id("actions")).to_be_visible()  # her own decision now
    alice.wait_for_timeout(700)  # time enough for a wrong automatic call to arrive
    assert _hand(table).sequence == hand.sequence
    assert len(_moves_of(alice_u)) == 1  # her preflop raise only
    alice.locator("form.actions button[value=call]").click()
    _wait_for(lambda: len(_moves_of(alice_u)) == 2, seconds=FOLLOW_MS / 1000)
    _act(table, carol_u, "call")

    # The turn: alice ticks "Check/fold"; carol bets: on her turn the box folds.
    _follow(alice, table)
    boxes.get_by_label("Check/fold").check()
    _act(table, carol_u, "raise", 50)
    _follow(alice, table)
    expect(boxes.get_by_label("Check/fold")).to_be_checked()
    _act(table, dave_u, "fold")
    _wait_for(lambda: len(_moves_of(alice_u)) == 3, seconds=FOLLOW_MS / 1000)
    assert _moves_of(alice_u)[-1]["move"] == "fold"


@pytest.mark.parametrize("size", SIZES)
def test_bets_lie_in_front_of_the_players_the_middle_holds_gathered_pots_and_names_winners(
    live_server, open_page, size
):
    table = make_table()
    alice_u, bob_u = seat_players(table, ["alice", "bob"])
    carol_u = make_user(username="carol")
    online_services.take_seat(table=table, user=carol_u, buy_in=200, number=3)
    # Dealt from the small blind: bob 7c2d, carol (big blind, 200 chips) aces, alice kings.
    deck = stacked_deck(["7c2d", "AsAd", "KsKh"], board="Qh9c5h3s8d")
    online_play.deal_hand(table=table, deck=deck)
    page = open_page(live_server, table, "bob", size)
    expect(page.get_by_test_id("bet-2")).to_have_text("5")
    expect(page.get_by_test_id("bet-3")).to_have_text("10")
    expect(page.get_by_test_id("pots")).to_have_count(0)  # the blinds are bets, not a pot yet
    expect(page.get_by_test_id("pot")).to_have_text("Total pot 15")
    _act(table, alice_u, "raise", 300)
    _act(table, bob_u, "call")
    _act(table, carol_u, "call")  # all-in for 200 (R3.9)
    _follow(page, table)
    expect(page.get_by_test_id("pot-main")).to_have_text("Main pot 600")
    expect(page.get_by_test_id("pot-side-1")).to_have_text("Side pot 1 200")
    expect(page.locator("[data-testid^=bet-]")).to_have_count(0)
    _act(table, bob_u, "check")
    _act(table, alice_u, "raise", 100)
    _follow(page, table)
    expect(page.get_by_test_id("bet-1")).to_have_text("100")  # in front of her, not a pot
    expect(page.get_by_test_id("pot-side-1")).to_have_text("Side pot 1 200")
    expect(page.get_by_test_id("pot")).to_have_text("Total pot 900")
    _shot(page, f"online-pots-{size}.png")
    _act(table, bob_u, "call")
    _follow(page, table)
    expect(page.get_by_test_id("pot-side-1")).to_have_text("Side pot 1 400")
    for _street in ("turn", "river"):
        _act(table, bob_u, "check")
        _act(table, alice_u, "check")
    hand = _follow(page, table)
    assert hand.is_over
    expect(page.get_by_test_id("result-0")).to_have_text("Main pot 600 → carol")
    expect(page.get_by_test_id("result-1")).to_have_text("Side pot 1 400 → alice")
    _shot(page, f"online-pot-winners-{size}.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0]


@pytest.mark.parametrize("size", SIZES)
def test_r7_6_draw_holdem_swap_fees_show_in_the_pot_they_join(live_server, open_page, size):
    table = make_table(game=Game.DRAW_HOLDEM, blinds=(5, 10), seats=4)
    anna_u, ben_u, cleo_u = seat_players(table, ["anna", "ben", "cleo"])
    online_play.deal_hand(table=table)
    for user in (anna_u, ben_u, cleo_u):  # the first swap round: the button first (R7.5)
        _act(table, user, "stand_pat")
    _act(table, anna_u, "call")
    _act(table, ben_u, "call")
    _act(table, cleo_u, "check")
    page = open_page(live_server, table, "anna", size)
    expect(page.get_by_test_id("pot-main")).to_have_text("Pot 30")
    hand = _hand(table)
    engine = online_play.engine_of(hand)
    actor = hand.user_ids[engine.actor]
    swapper = next(u for u in (anna_u, ben_u, cleo_u) if u.pk == actor)
    card = card_name(engine.hole_cards[engine.actor][0])
    hand = TableHand.objects.get(pk=hand.pk)
    online_play.act(
        table=table, user=swapper, hand_id=hand.pk, sequence=hand.sequence, action="swap",
        card=card,
    )  # fmt: skip
    _follow(page, table)
    # R7.6: the fee (the pot, 30) joins the main pot after the round; it shows in it now.
    expect(page.get_by_test_id("pot-main")).to_have_text("Pot 60")
    expect(page.get_by_test_id("pot")).to_have_count(0)  # no bet out: the pot is the total
    _shot(page, f"online-draw-fee-{size}.png")


@pytest.mark.parametrize("size", SIZES)
def test_r7_2_stud_marks_ones_down_cards_and_has_no_button_and_no_big_blind(
    live_server, open_page, size
):
    table = make_table(game=Game.SEVEN_CARD_STUD, blinds=(2, 5), ante=1, seats=5)
    users = seat_players(table, ["anna", "ben", "cleo"])
    hand = online_play.deal_hand(table=table)
    engine = online_play.engine_of(hand)
    dan = make_user(username="dan")
    online_services.take_seat(table=table, user=dan, buy_in=500, number=4)
    page = open_page(live_server, table, "anna", size)
    own = page.get_by_test_id("hole-1")
    anna = hand.seat_numbers.index(1)
    down = sorted(card_name(c) for c in engine.down_cards[anna])
    up = sorted(card_name(c) for c in engine.up_cards[anna])
    marked = sorted(own.locator(".pcard.down").evaluate_all("cs => cs.map(c => c.dataset.card)"))
    plain = own.locator(".pcard:not(.down)").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert marked == down and sorted(plain) == up
    expect(page.locator(".seat .dealer")).to_have_count(0)  # R7.2: no button in stud
    expect(page.locator("#state")).not_to_contain_text("big blind")
    expect(page.get_by_test_id("status-4")).to_have_text("Plays the next hand")
    _shot(page, f"online-stud-{size}.png")
    # Someone to sit down: no "post a big blind" in stud.
    make_user(username="eve")
    viewer = open_page(live_server, table, "eve", size)
    expect(viewer.get_by_test_id("sit")).to_be_visible()
    expect(viewer.get_by_test_id("sit")).not_to_contain_text("big blind")
    del users


@pytest.mark.parametrize("size", SIZES)
def test_back_posting_a_big_blind_says_so_and_a_dropped_player_is_marked(
    live_server, open_page, size
):
    table = make_table()
    alice_u, bob_u, carol_u = seat_players(table, ["alice", "bob", "carol"])
    online_play.sit_out(table=table, user=carol_u)
    page = open_page(live_server, table, "carol", size)
    page.get_by_test_id("back-post").click()
    expect(page.get_by_test_id("status-3")).to_have_text("Posts a big blind next hand")
    assert OnlineSeat.objects.get(table=table, number=3).posts_big_blind
    # Bob's browser goes: his seat is marked on the others' pages (the fragment's ETag
    # carries it; no move needed).
    bob = open_page(live_server, table, "bob", size)
    _wait_for(lambda: Presence.objects.filter(user=bob_u, streams__gt=0).exists())
    expect(page.get_by_test_id("away-2")).to_have_count(0)
    bob.context.close()
    _wait_for(lambda: Presence.objects.filter(user=bob_u, dropped_at__isnull=False).exists())
    expect(page.get_by_test_id("away-2")).to_have_text("Disconnected", timeout=20_000)
    _shot(page, f"online-away-{size}.png")
    del alice_u


@pytest.mark.parametrize("size", SIZES)
def test_the_commitment_is_shown_in_full_with_a_copy_button_and_bots_have_an_icon(
    live_server, open_page, size
):
    table = make_table()
    seat_players(table, ["alice"])
    online_services.seat_bot(table=table, actor=table.created_by, number=2)
    hand = online_play.deal_hand(table=table)
    page = open_page(live_server, table, "alice", size)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    code = page.get_by_test_id("commitment")
    expect(code).to_have_text(hand.commitment)
    assert re.fullmatch(r"[0-9a-f]{64}", hand.commitment)
    page.get_by_test_id("copy-commitment").click()
    expect(page.get_by_test_id("copy-commitment")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == hand.commitment
    icon = page.get_by_test_id("bot-2")
    expect(icon).to_be_visible()
    assert icon.evaluate("img => img.complete && img.naturalWidth > 0")
    assert "🤖" not in page.content()
    page.wait_for_function(IN_VIEW, arg="[data-testid=commitment]")


@pytest.mark.parametrize("size", SIZES)
def test_the_lobby_shows_the_starting_chips_on_the_first_visit(
    browser, live_server, settings, size
):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.FLOORMAN_PLAY_CHIPS = 10_000
    make_user(username="newcomer")
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        login(page, live_server, "newcomer")
        page.goto(live_server.url + reverse("tables:online_lobby"))  # the account opens now
        expect(page.get_by_test_id("balance")).to_contain_text("Your chips: 10000")
        page.reload()
        expect(page.get_by_test_id("balance")).to_contain_text("Your chips: 10000")
    finally:
        context.close()
