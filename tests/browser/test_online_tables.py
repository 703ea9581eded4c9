"""Online tables in real Chromium: players sit and play a hand by the page's buttons while every
page follows without a reload; the disconnect protection and a connected time-out (R3.10); a
spectator never sees a live hole card; pre-action boxes; the replayer."""

from __future__ import annotations

import os
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from tables.engine import card_name
from tables.online import play as online_play
from tables.online import services as online_services
from tables.online.models import (
    ChipAccount,
    HandAction,
    OnlineTable,
    Presence,
    Protection,
    TableHand,
)
from tables.online.services import table_chips
from tests.browser.conftest import login, wait_for
from tests.factories import make_user
from tests.tables.online_helpers import make_table, seat_players, stacked_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("FLOOR_SCREENSHOTS", "")
FOLLOW_MS = 3_000  # docs/architecture.md says 2 s; a second of slack for a busy 2-core machine
CARD = re.compile(r'data-card="(\w\w)"')


def _shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name), full_page=True)


def _open(page, live_server, table, username=None):
    if username:
        login(page, live_server, username)
    page.goto(live_server.url + reverse("tables:online_table", args=[table.pk]))
    expect(page.locator("#state")).to_be_visible()
    page.evaluate(CHIMES)
    page.evaluate("window.notReloaded = true")


# The page's chimes, counted: each one it plays is also an event "table:chime".
CHIMES = """window.chimes = [];
document.addEventListener("table:chime", (event) => window.chimes.push(event.detail));"""


MY_CARDS_ABOVE_THE_BAR = """() => {
  const seat = document.querySelector(".seat.me .hole").getBoundingClientRect();
  const bar = document.querySelector("form.actions").getBoundingClientRect();
  return seat.top >= 0 && seat.bottom <= bar.top;
}"""


def _hand(table):
    return TableHand.objects.filter(table=table).order_by("-number").first()


def _follow(pages, table):
    """Every page shows the hand at the sequence the server has, without a reload."""
    hand = _hand(table)
    for page in pages:
        state = page.locator("#state")
        expect(state).to_have_attribute("data-hand", str(hand.pk), timeout=FOLLOW_MS)
        expect(state).to_have_attribute("data-sequence", str(hand.sequence), timeout=FOLLOW_MS)
        assert page.evaluate("window.notReloaded") is True
    return hand


def _act(table, user, action, amount=None):
    hand = TableHand.objects.get(table=table, is_over=False)
    online_play.act(
        table=table, user=user, hand_id=hand.pk, sequence=hand.sequence, action=action,
        amount=amount,
    )  # fmt: skip


def _sequence(table):
    hand = _hand(table)
    return (hand.pk, hand.sequence) if hand else None


def _moved(table, before):
    """Wait until the server took the move a page just sent."""
    wait_for(lambda: _sequence(table) != before, seconds=FOLLOW_MS / 1000)


def _move(page, action, table):
    before = _sequence(table)
    page.locator(f"form.actions button[value={action}]").click()
    _moved(table, before)


def _assert_chips_conserved(table, users):
    seated, ledger = table_chips(table)
    assert seated == ledger
    balances = sum(ChipAccount.objects.get(user=user).balance for user in users)
    assert balances + seated == settings.FLOORMAN_PLAY_CHIPS * len(users)  # each one's grant


def test_three_players_sit_and_play_to_a_showdown_by_the_buttons(live_server, new_page, table):
    users = [make_user(username=name) for name in ("alice", "bob", "carol")]
    alice, bob, carol = new_page(), new_page(), new_page(phone=True)
    pages = [alice, bob, carol]
    for number, (page, user) in enumerate(zip(pages, users, strict=True), start=1):
        _open(page, live_server, table, user.username)
        sit = page.get_by_test_id("sit")
        sit.locator("select[name=seat]").select_option(str(number))
        sit.locator("input[name=buy_in]").fill("1000")
        sit.get_by_role("button", name="Sit down").click()
        expect(page.get_by_test_id(f"seat-{number}")).to_contain_text(user.username)
    for page in pages:
        for user in users:
            expect(page.locator("#state")).to_contain_text(user.username, timeout=FOLLOW_MS)
    carol.get_by_label("Mute").check()
    alice.get_by_label("Four-colour deck").check()
    # R2.2: alice sat first and has the button; dealing starts at bob (small blind). Carol
    # holds a flush: hearts Ah Qh 9h 7h 2h.
    deck = stacked_deck(["8s3d", "Qh7h", "AcKc"], board="Ah9h5c2hKd")
    online_play.deal_hand(table=table, deck=deck)
    _follow(pages, table)
    bob.locator("form.add-chips input[name=amount]").fill("100")
    bob.get_by_role("button", name="Add chips").click()  # refused while his hand runs: a 409
    expect(bob.get_by_test_id("table-error")).to_have_text("Add chips after this hand.")
    expect(alice.locator("[data-testid=hole-1] .pcard[data-card]")).to_have_count(2)
    expect(alice.get_by_test_id("hole-2").locator(".pcard.back")).to_have_count(2)

    # Preflop alice raises by the pot preset: 10 + (15 + 10) = 35, from the server.
    actions = alice.get_by_test_id("actions")
    actions.locator("[data-preset=pot]").click()
    expect(actions.locator("[data-raise-amount]")).to_have_text("35")
    alice.keyboard.press("ArrowUp")  # a big blind more
    expect(actions.locator("input[name=amount]")).to_have_value("45")
    alice.keyboard.press("ArrowDown")
    expect(actions.locator("[data-raise-amount]")).to_have_text("35")
    actions.locator("input[name=slider]").fill("100")  # the slider moves the amount
    expect(actions.locator("input[name=amount]")).to_have_value("100")
    expect(actions.locator("[data-raise-amount]")).to_have_text("100")
    actions.locator("[data-preset=pot]").click()
    _shot(alice, "online-raise-desktop.png")
    with alice.expect_request(lambda request: request.method == "POST") as sent:
        _move(alice, "raise", table)
    # url-encoded, not multipart: a tenth of Django's CPU to read (issue 17)
    assert sent.value.headers["content-type"].startswith("application/x-www-form-urlencoded")
    _follow(pages, table)
    expect(bob.get_by_test_id("bet-1")).to_have_text("35")
    _move(bob, "fold", table)
    _follow(pages, table)
    expect(bob.get_by_test_id("table-error")).to_be_hidden()  # his next move went through
    expect(carol.get_by_test_id("seat-2")).to_have_class(re.compile(r"\bfolded\b"))
    expect(carol.locator("form.actions button[value=call]")).to_have_text(re.compile("Call 25"))
    carol.wait_for_function(MY_CARDS_ABOVE_THE_BAR)  # the phone scrolled her seat into view
    _shot(carol, "online-call-phone.png")
    _move(carol, "call", table)
    for _street in ("flop", "turn", "river"):
        _follow(pages, table)
        _move(carol, "check", table)
        _follow(pages, table)
        expect(alice.get_by_test_id("actions")).to_be_visible()
        before = _sequence(table)
        alice.keyboard.press("c")  # C: check
        _moved(table, before)
    hand = _follow(pages, table)
    assert hand.is_over
    for page in pages:
        winner = page.get_by_test_id("seat-3")
        expect(page.locator(".pcard.win")).to_have_count(5)  # Ah Qh 9h 7h 2h
        expect(winner.locator(".pcard.win")).to_have_count(2)
        expect(winner.locator(".hand-name")).to_contain_text("Flush")
        expect(page.get_by_test_id("won-3")).to_have_text("wins 75")
    assert hand.final_stacks == [965, 995, 1_040]  # alice, bob, carol
    _assert_chips_conserved(table, users)
    assert carol.evaluate("document.documentElement.scrollWidth") <= 360
    _shot(alice, "online-showdown-desktop.png")
    _shot(carol, "online-showdown-phone.png")
    # R3.10's chime on each turn of one's own, unless muted; four colours: diamonds blue.
    assert alice.evaluate("window.chimes").count("turn") == 4
    assert carol.evaluate("window.chimes") == []
    diamond = alice.locator('.board [data-card="Kd"]')
    assert diamond.evaluate("card => getComputedStyle(card).color") == "rgb(21, 101, 192)"
    carol.reload()  # the preferences stay (localStorage)
    expect(carol.get_by_label("Mute")).to_be_checked()
    expect(carol.get_by_label("Four-colour deck")).not_to_be_checked()


def _connected(*users):
    """Wait until the server sees each player's stream open (R3.10 needs a drop it saw)."""
    wait_for(lambda: all(Presence.objects.filter(user=u, streams__gt=0).exists() for u in users))


def _time_out(table):
    """The actor's time runs out and the sweeper acts: his deadline is moved into the past (the
    players' streams stay as fresh as they are) and ``expire_turn`` runs as beat runs it."""
    hand = _hand(table)
    now = timezone.now()
    TableHand.objects.filter(pk=hand.pk).update(deadline=now - timedelta(seconds=1))
    assert online_play.expire_turn(hand_id=hand.pk, sequence=hand.sequence, now=now)


def test_r3_10_a_dropped_player_stays_in_all_in_and_a_connected_one_folds(
    live_server, new_page, table
):
    alice_u, bob_u, carol_u, dave_u = seat_players(table, ["alice", "bob", "carol", "dave"])
    alice, carol, dave = new_page(), new_page(phone=True), new_page()
    for page, user in ((alice, alice_u), (carol, carol_u), (dave, dave_u)):
        _open(page, live_server, table, user.username)
    _connected(alice_u, carol_u, dave_u)
    OnlineTable.objects.filter(pk=table.pk).update(action_seconds=0)  # the countdown at once
    # Button alice, blinds bob and carol, dave first; dealing from bob.
    holes = ["KhKd", "AsAd", "5h4h", "QcQd"]
    online_play.deal_hand(table=table, deck=stacked_deck(holes, board="Ac7h2s9d3c"))
    for user, action in ((dave_u, "call"), (alice_u, "call"), (bob_u, "call"), (carol_u, "check")):
        _act(table, user, action)
    _act(table, bob_u, "raise", 20)  # the flop: bob bets, carol faces it
    _follow([alice, carol, dave], table)
    expect(carol.get_by_test_id("actions")).to_be_visible()
    for page in (alice, carol):  # R3.10: the actor's countdown, 20 s
        clock = page.get_by_test_id("seat-3").get_by_test_id("action-clock")
        expect(clock).to_be_visible()
        assert 15 <= int(clock.inner_text()) <= 20
    assert "turn" in carol.evaluate("window.chimes")

    carol.context.close()  # her tab closes: the server sees her stream end
    wait_for(lambda: not online_play.is_connected(carol_u.pk, now=timezone.now()))
    _time_out(table)
    hand = _follow([alice, dave], table)
    assert Protection.objects.filter(user=carol_u, hand=hand).count() == 1
    for page in (alice, dave):
        carol_seat = page.get_by_test_id("seat-3")
        expect(carol_seat.locator(".tag.all-in")).to_have_text("All-in")
        expect(carol_seat).not_to_have_class(re.compile(r"\bfolded\b"))
    expect(dave.get_by_test_id("actions")).to_be_visible()
    _shot(alice, "online-protected-desktop.png")

    _time_out(table)  # dave is connected: his time-out folds (R3.10)
    _follow([alice, dave], table)
    assert not Protection.objects.filter(user=dave_u).exists()
    for page in (alice, dave):
        expect(page.get_by_test_id("seat-4")).to_have_class(re.compile(r"\bfolded\b"))
    expect(dave.get_by_test_id("actions")).to_have_count(0)
    _move(alice, "call", table)
    for _street in ("turn", "river"):
        _act(table, bob_u, "check")
        _act(table, alice_u, "check")
    hand = _follow([alice, dave], table)
    # Carol plays for the pot so far: 4 x 10 with her aces; bob's kings take the 40 beside it.
    assert hand.final_stacks == [970, 1_010, 1_030, 990]
    expect(alice.get_by_test_id("won-3")).to_have_text("wins 40")
    expect(alice.get_by_test_id("won-2")).to_have_text("wins 40")
    _assert_chips_conserved(table, [alice_u, bob_u, carol_u, dave_u])


def _hole_codes(hand):
    engine = online_play.engine_of(hand)
    return [{card_name(card) for card in hole} for hole in engine.hole_cards]


def test_a_spectator_never_sees_a_live_hole_card(live_server, new_page, table):
    alice_u, bob_u, carol_u = seat_players(table, ["alice", "bob", "carol"])
    spectator, phone = new_page(), new_page(phone=True)
    for page in (spectator, phone):
        _open(page, live_server, table)
        expect(page.get_by_text("You are watching.")).to_be_visible()
    # Dealing from bob: bob's aces beat alice's kings; carol folds.
    deck = stacked_deck(["AsAh", "7c2d", "KhKd"], board="Ac7h2s9d3c")
    hand = online_play.deal_hand(table=table, deck=deck)
    holes = _hole_codes(hand)
    every_hole = set().union(*holes)
    moves = [(alice_u, "raise", 30), (bob_u, "call", None), (carol_u, "fold", None)]
    moves += [(bob_u, "check", None), (alice_u, "check", None)] * 3
    for index, (user, action, amount) in enumerate(moves):
        _follow([spectator, phone], table)
        for page in (spectator, phone):
            assert not set(CARD.findall(page.content())) & every_hole
            expect(page.locator(".pcard.back")).to_have_count(6 if index < 3 else 4)
        if index == 4:
            _shot(phone, "online-spectator-phone.png")
        _act(table, user, action, amount)
    hand = _follow([spectator, phone], table)
    assert hand.is_over and hand.shown == [1]  # bob shows first and wins; alice mucks (R1.8)
    board = {card_name(card) for card in online_play.engine_of(hand).board}
    for page in (spectator, phone):
        assert set(CARD.findall(page.content())) == board | holes[1]
    expect(spectator.get_by_test_id("seat-2").locator(".hand-name")).to_contain_text("aces")
    _shot(spectator, "online-spectator-desktop.png")


def test_the_stream_carries_the_table_and_a_watching_tab_asks_for_nothing(
    live_server, new_page, table
):
    """Issue 17: every tab shows a move from its stream's message, no request; a player's own
    cards reach his seat from his own part, a spectator's tab never holds one."""
    alice_u, bob_u, carol_u = seat_players(table, ["alice", "bob", "carol"])
    alice, spectator = new_page(), new_page()
    _open(alice, live_server, table, "alice")
    _open(spectator, live_server, table)
    hand = online_play.deal_hand(table=table, deck=stacked_deck(["AsAh", "7c2d", "KhKd"]))
    _follow([alice, spectator], table)
    holes = _hole_codes(hand)
    expect(alice.locator(".seat.me .hole .pcard:not(.back)")).to_have_count(2)
    asked: list[str] = []
    for page in (alice, spectator):
        page.on("request", lambda request: asked.append(request.url))
    by_id = {user.pk: user for user in (alice_u, bob_u, carol_u)}
    for _move in range(2):  # alice, then bob (not her page's move: it comes by the stream)
        hand.refresh_from_db()
        _act(table, by_id[hand.user_ids[hand.actor]], "call")
        _follow([alice, spectator], table)
    assert not [url for url in asked if "/state/" in url], asked
    mine = holes[hand.user_ids.index(alice_u.pk)]
    assert set(CARD.findall(alice.content())) & set().union(*holes) == mine  # hers, in her seat
    assert not set(CARD.findall(spectator.content())) & set().union(*holes)


def test_sitting_out_coming_back_and_adding_chips_show_from_the_stream_not_a_fetch(
    live_server, new_page, table
):
    """Issue 17: with the page's stream open, the player's own changes at his seat are
    answered 204, as a move is; the change's messages bring his page its table and his part,
    and the page asks for no fragment."""
    users = seat_players(table, ["alice", "bob", "carol"], buy_in=400)
    seat = table.players.get(user=users[0])
    page = new_page(phone=True)
    _open(page, live_server, table, "alice")
    expect(page.locator("html")).to_have_attribute("data-stream", "open", timeout=15_000)
    fetched: list[str] = []
    page.on("request", lambda request: "/state/" in request.url and fetched.append(request.url))
    controls = page.locator("#mine .my-controls")

    def post(button, path: str) -> None:
        with page.expect_response(lambda r: path in r.url and r.request.method == "POST") as sent:
            button.click()
        assert sent.value.status == 204

    post(controls.get_by_role("button", name="Sit out"), "/sit-out/")
    expect(page.get_by_test_id("back-post")).to_be_visible(timeout=FOLLOW_MS)
    assert table.players.get(pk=seat.pk).status == "sitting_out"
    _shot(page, "online-sitting-out-phone.png")
    page.locator(".add-chips input[name=amount]").fill("250")
    post(page.locator(".add-chips button"), "/chips/")
    expect(page.locator(f".seat[data-seat='{seat.number}']")).to_have_attribute(
        "data-stack", "650", timeout=FOLLOW_MS
    )
    expect(page.locator(".add-chips input[name=amount]")).to_have_value("")  # spent: cleared
    post(page.get_by_test_id("back"), "/back/")
    expect(controls.get_by_role("button", name="Sit out")).to_be_visible(timeout=FOLLOW_MS)
    assert table.players.get(pk=seat.pk).status == "waiting"
    _shot(page, "online-back-phone.png")
    assert fetched == []
    assert page.evaluate("window.notReloaded") is True
    _assert_chips_conserved(table, users)


def test_pre_action_boxes_act_on_the_turn_and_clear_when_the_bet_changes(
    live_server, new_page, table
):
    alice_u, bob_u, carol_u, dave_u = seat_players(table, ["alice", "bob", "carol", "dave"])
    alice, bob = new_page(), new_page(phone=True)
    _open(alice, live_server, table, "alice")
    _open(bob, live_server, table, "bob")
    online_play.deal_hand(table=table)  # button alice, blinds bob and carol: dave first
    _follow([alice, bob], table)
    call_any = bob.get_by_test_id("preactions").get_by_label("Call any")
    call_any.check()  # while dave acts
    _shot(bob, "online-preactions-phone.png")
    _act(table, dave_u, "call")
    _follow([alice, bob], table)
    expect(call_any).to_be_checked()  # the bet in front of him did not change: it stays
    _move(alice, "call", table)
    # Bob's turn came with "call any" ticked: his page calls at once, through the same POST.
    wait_for(lambda: HandAction.objects.filter(user=bob_u).exists(), seconds=FOLLOW_MS / 1000)
    move = HandAction.objects.get(user=bob_u)
    assert move.key  # an idempotency key of his page
    hand = _follow([alice, bob], table)
    engine = online_play.engine_of(hand)
    assert engine.actor == 2 and engine.bets[1] == 10  # bob called; carol's option
    expect(bob.get_by_test_id("preactions").get_by_label("Call any")).not_to_be_checked()
    assert bob.evaluate("window.chimes") == []  # his box acted: no call to the table
    _act(table, carol_u, "check")

    # The flop: bob, carol, dave, alice. Alice ticks "call any": a check keeps it, and so does
    # the bet it answers (as players know it); her turn calls it, and the box is spent.
    _follow([alice, bob], table)
    alice_box = alice.get_by_test_id("preactions").get_by_label("Call any")
    alice_box.check()
    _act(table, bob_u, "check")
    _follow([alice, bob], table)
    expect(alice_box).to_be_checked()
    _act(table, carol_u, "raise", 20)
    _follow([alice, bob], table)
    expect(alice_box).to_be_checked()
    _act(table, dave_u, "fold")
    wait_for(lambda: HandAction.objects.filter(user=alice_u).count() == 2, seconds=3)
    assert HandAction.objects.filter(user=alice_u).latest("pk").record["move"] == "call"
    assert alice.evaluate("window.chimes") == ["turn"]  # preflop only: her box acted now
    hand = _follow([alice, bob], table)
    assert online_play.engine_of(hand).bets[0] == 20  # she called carol's bet
    expect(alice.get_by_test_id("preactions").get_by_label("Call any")).not_to_be_checked()


def test_the_replayer_steps_through_a_hand_from_my_hands(live_server, new_page, table):
    alice_u, bob_u = seat_players(table, ["alice", "bob"])
    online_play.deal_hand(table=table, deck=stacked_deck(["AsAh", "KhKd"], board="Ac7h2s9d3c"))
    _act(table, alice_u, "call")
    _act(table, bob_u, "check")
    for _street in ("flop", "turn", "river"):
        _act(table, bob_u, "check")
        _act(table, alice_u, "check")
    hand = _hand(table)
    assert hand.is_over
    page = new_page(phone=True)
    _open(page, live_server, table, "alice")
    page.get_by_role("link", name="My hands").click()
    expect(page.get_by_test_id("history-row")).to_have_count(1)
    _shot(page, "online-history-phone.png")
    page.get_by_role("link", name=f"#{hand.number}").click()
    replayer = page.get_by_test_id("replayer")
    steps = replayer.get_by_test_id("step")
    expect(steps.first).to_be_attached()  # the hand's page has loaded before the steps are counted
    total = steps.count()
    count = replayer.locator("[data-step-count]")
    expect(count).to_have_text(f"1 / {total}")
    expect(steps.nth(1)).to_be_hidden()
    replayer.get_by_role("button", name="Next").click()
    replayer.get_by_role("button", name="Next").click()
    expect(count).to_have_text(f"3 / {total}")
    dealt = replayer.locator(".step.current .step-text")
    expect(dealt).to_contain_text("alice is dealt")
    expect(dealt.locator(".pcard")).to_have_count(2)  # As Ah, drawn as cards
    expect(dealt.locator(".pcard.suit-s")).to_have_attribute("title", "As")
    replayer.get_by_role("button", name="Back").click()
    expect(count).to_have_text(f"2 / {total}")
    replayer.locator("[data-step=last]").click()
    expect(count).to_have_text(f"{total} / {total}")
    current = replayer.locator(".step.current")
    expect(current).to_contain_text("alice wins 20")
    expect(current.locator(".pcard")).to_have_count(5)  # the board, drawn as cards
    expect(replayer.get_by_role("button", name="Next")).to_be_disabled()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    _shot(page, "online-replayer-phone.png")
    replayer.locator("[data-step=first]").click()
    expect(count).to_have_text(f"1 / {total}")


def test_without_a_stream_the_page_polls_with_conditional_gets(
    live_server, new_page, table, settings
):
    settings.LIVE_WSGI_STREAM_SECONDS = 0  # the server holds no stream: it answers 204
    alice_u, _bob = seat_players(table, ["alice", "bob"])
    page = new_page(phone=True)
    _open(page, live_server, table)
    online_play.deal_hand(table=table)
    _act(table, alice_u, "fold")
    poll_ms = 2_500 + FOLLOW_MS  # the page polls every 2.5 s without a stream
    state = page.locator("#state")
    expect(state).to_have_attribute("data-hand", str(_hand(table).pk), timeout=poll_ms)
    expect(state).to_have_attribute("data-over", "1")
    assert page.evaluate("window.notReloaded") is True
    # Nothing changed since: the next poll is answered "not modified", no fragment sent again.
    state_url = reverse("tables:online_state", args=[table.pk])
    with page.expect_response(lambda r: state_url in r.url, timeout=poll_ms) as polled:
        pass
    assert polled.value.status == 304


def test_my_tables_follows_two_tables_in_one_tab_on_one_stream(new_page, live_server, table):
    """Browsers allow six HTTP/1.1 connections per host: "My tables" shows every table the
    player sits at with ONE stream for the tab, its nudges forwarded to each table's frame."""
    other = make_table(seats=6, name="Online 2")
    anna, ben = seat_players(table, ["anna", "ben"])
    online_services.take_seat(table=other, user=anna, buy_in=500, number=1)
    cleo = make_user(username="cleo")
    online_services.take_seat(table=other, user=cleo, buy_in=500, number=2)
    page = new_page()
    login(page, live_server, "anna")
    streams = []
    page.on("request", lambda request: "/play/events/" in request.url and streams.append(request))
    page.goto(live_server.url + reverse("tables:online_mine"))
    frames = page.locator("iframe[data-table]")
    expect(frames).to_have_count(2)
    first = page.frame_locator(f'iframe[data-table="{table.pk}"]')
    second = page.frame_locator(f'iframe[data-table="{other.pk}"]')
    expect(first.locator("#state")).to_be_visible()
    expect(second.locator("#state")).to_be_visible()
    # A hand at each table: both frames follow without a reload, on the one stream.
    online_play.deal_hand(table=table)
    online_play.deal_hand(table=other)
    expect(first.locator(".seat.me [data-card]")).to_have_count(2, timeout=FOLLOW_MS + 5_000)
    expect(second.locator(".seat.me [data-card]")).to_have_count(2, timeout=FOLLOW_MS + 5_000)
    # Anna has the button at both (R2.2) and, heads-up, acts first: both tables are marked.
    expect(page.locator(".multi-table.your-turn")).to_have_count(2, timeout=FOLLOW_MS + 5_000)
    page.locator(f'iframe[data-table="{other.pk}"]').scroll_into_view_if_needed()
    second.locator("form.actions button[value=fold]").click()
    expect(page.locator(".multi-table.your-turn")).to_have_count(1, timeout=FOLLOW_MS + 5_000)
    assert len({request.url for request in streams}) == 1, [r.url for r in streams]
    assert f"t={table.pk},{other.pk}" in streams[0].url
    _shot(page, "online-my-tables-desktop.png")
