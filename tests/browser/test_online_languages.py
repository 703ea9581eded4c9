"""A table read in two languages, in real Chromium (issue 17, tables/online/languages.py): each
tab's stream says its page's language, the messages carry the languages said, and each page
shows a move from its message without a request; a page whose language a message lacks (its
mark lapsed) fetches its fragment and still shows its own language."""

from __future__ import annotations

import time

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.online import languages
from tables.online import play as online_play
from tables.online.models import HandAction, TableHand
from tests.browser.conftest import login
from tests.tables.online_helpers import seat_players, stacked_deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
FOLLOW_MS = 3_000


@pytest.fixture(autouse=True)
def forget_marks(table):
    """The table's and its players' language marks go with the test (the cache outlives it)."""
    yield
    players = list(table.players.values_list("user_id", flat=True))
    languages.forget_listening([table.pk], players)


def _follow(pages, table):
    hand = TableHand.objects.filter(table=table).order_by("-pk").first()
    assert hand is not None
    for page in pages:
        state = page.locator("#state")
        expect(state).to_have_attribute("data-hand", str(hand.pk), timeout=FOLLOW_MS)
        expect(state).to_have_attribute("data-sequence", str(hand.sequence), timeout=FOLLOW_MS)
    return hand


def _call(table, users):
    hand = TableHand.objects.get(table=table, is_over=False)
    user = users[hand.user_ids[online_play.engine_of(hand).actor]]
    online_play.act(table=table, user=user, hand_id=hand.pk, sequence=hand.sequence, action="call")


def _fetch_now(page) -> None:
    """The page fetches its fragment now, as a phone waking up does: its own safety poll
    (static/js/table.js, SAFETY_MS: 15 s after its last fetch while the stream is up) then
    falls outside the few seconds the test watches its requests, however slow the machine was
    before (CI caught that poll in the window on a loaded machine)."""
    with page.expect_response(lambda response: "/state/" in response.url):
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")


def test_each_page_reads_its_language_from_the_stream_and_fetches_when_it_is_missing(
    live_server,
    new_page,
    table,  # noqa: F811 - imported fixtures
):
    users = {user.pk: user for user in seat_players(table, ["alice", "bob", "carol"])}
    url = live_server.url + reverse("tables:online_table", args=[table.pk])
    german, english = new_page(locale="de-DE"), new_page(locale="en-GB")
    login(german, live_server, "alice")
    for page in (german, english):
        page.goto(url)
        expect(page.locator("#state")).to_be_visible()
    expect(german.locator("html")).to_have_attribute("lang", "de")
    expect(english.locator("html")).to_have_attribute("lang", "en")
    alice = next(pk for pk, user in users.items() if user.username == "alice")

    def wait_until_said() -> None:  # both pages' streams have said their language
        deadline = time.monotonic() + 10
        while languages.listening(table.pk, [alice]) != (("en", "de"), {alice: ("de",)}):
            assert time.monotonic() < deadline, languages.listening(table.pk, [alice])
            time.sleep(0.05)

    wait_until_said()
    for page in (german, english):
        _fetch_now(page)
    asked: dict[str, list[str]] = {"de": [], "en": []}
    for code, page in (("de", german), ("en", english)):
        page.on("request", lambda request, code=code: asked[code].append(request.url))
    online_play.deal_hand(table=table, deck=stacked_deck(["AsAh", "7c2d", "KhKd"]))
    _follow([german, english], table)
    _call(table, users)
    _follow([german, english], table)
    # Each page showed the deal and the move from its stream's message, in its own language.
    assert not [u for u in asked["de"] + asked["en"] if "/state/" in u], asked
    expect(german.get_by_test_id("commitment").locator("..")).to_contain_text("Festlegung")
    expect(english.get_by_test_id("commitment").locator("..")).to_contain_text("Deck commitment")
    # The German marks lapse (as 45 s after a stream's last word): the next message is in
    # English only. The German page fetches its fragment and stays German; the English one
    # asks for nothing.
    languages.forget_listening([table.pk], [alice], ["de"])
    assert languages.listening(table.pk, [alice]) == (("en",), {alice: ("en", "de")})
    _call(table, users)
    _follow([german, english], table)
    assert [u for u in asked["de"] if "/state/" in u], "the German page fetched nothing"
    assert not [u for u in asked["en"] if "/state/" in u], asked["en"]
    expect(german.get_by_test_id("commitment").locator("..")).to_contain_text("Festlegung")


PROBE = "() => { document.querySelector('#mine').dataset.probe = '1'; }"
PROBED = "() => document.querySelector('#mine').dataset.probe === '1'"


def test_call_n_is_worked_out_from_the_public_table_in_each_language_after_a_raise(
    live_server,
    new_page,
    table,  # noqa: F811 - imported fixtures
):
    """A raise reaches the players who do not act next only in the public table (their own
    parts did not change, so none is sent): each page works its "Call N" out from the seats'
    bets and stacks and writes it in its language, with no request. A ticked "Call N" is
    cleared when N changes and calls on one's turn when N stayed (issue 17)."""
    names = ["alice", "bob", "carol", "dave"]
    users = {user.username: user for user in seat_players(table, names)}
    url = live_server.url + reverse("tables:online_table", args=[table.pk])
    english, german = new_page(locale="en-GB"), new_page(locale="de-DE")
    login(english, live_server, "bob")  # the small blind
    login(german, live_server, "carol")  # the big blind
    for page in (english, german):
        page.goto(url)
        expect(page.locator("#state")).to_be_visible()
    bob, carol = users["bob"].pk, users["carol"].pk
    deadline = time.monotonic() + 10
    while languages.listening(table.pk, [bob, carol]) != (
        ("en", "de"), {bob: ("en",), carol: ("de",)}
    ):  # fmt: skip
        assert time.monotonic() < deadline, languages.listening(table.pk, [bob, carol])
        time.sleep(0.05)
    online_play.deal_hand(table=table)  # button alice, blinds bob and carol: dave first
    _follow([english, german], table)
    bob_call = english.get_by_test_id("preactions").locator("label[data-call-n]")
    carol_call = german.get_by_test_id("preactions").locator("label[data-call-n]")
    expect(bob_call).to_have_text("Call 5")
    expect(carol_call).to_be_hidden()  # her big blind is the bet: nothing to call
    asked: list[str] = []
    for page in (english, german):
        page.on("request", lambda request: asked.append(request.url))
        page.evaluate(PROBE)  # gone once a private part replaces #mine

    def move(name: str, action: str, amount: int | None = None) -> None:
        hand = TableHand.objects.get(table=table, is_over=False)
        assert hand.user_ids[online_play.engine_of(hand).actor] == users[name].pk
        online_play.act(
            table=table, user=users[name], hand_id=hand.pk, sequence=hand.sequence,
            action=action, amount=amount,
        )  # fmt: skip

    # Dave raises; alice acts next: bob's and carol's pages get the public table only.
    move("dave", "raise", 30)
    _follow([english, german], table)
    expect(bob_call).to_have_text("Call 25")
    expect(bob_call).to_be_visible()
    expect(carol_call).to_have_text("Mitgehen 20")
    expect(carol_call).to_be_visible()
    assert english.evaluate(PROBED) and german.evaluate(PROBED)
    bob_call.locator("input").check()
    carol_call.locator("input").check()
    # Alice re-raises: both boxes clear (N changed). Bob's turn: his buttons, nothing called.
    move("alice", "raise", 90)
    _follow([english, german], table)
    expect(english.get_by_test_id("actions")).to_be_visible()
    expect(english.locator("form.actions button[value=call]")).to_be_enabled()  # not sent
    expect(carol_call).to_have_text("Mitgehen 80")
    expect(carol_call.locator("input")).not_to_be_checked()
    assert german.evaluate(PROBED)  # her part stayed: the public table alone said 80
    assert not [u for u in asked if "/state/" in u], asked
    assert not HandAction.objects.filter(user=users["bob"]).exists()
    # Carol ticks "Mitgehen 80"; bob calls, which leaves her N at 80: on her turn her page
    # calls.
    carol_call.locator("input").check()
    move("bob", "call")
    deadline = time.monotonic() + 10
    while not HandAction.objects.filter(user=users["carol"]).exists():
        assert time.monotonic() < deadline, "carol's page never called"
        time.sleep(0.05)
    assert HandAction.objects.get(user=users["carol"]).record["move"] == "call"
    # A new street clears every box, her part unchanged: she ticks "Check/fold" while dave
    # decides; his call ends the round and bob acts first on the flop.
    _follow([german], table)
    check_fold = german.get_by_test_id("preactions").locator("[data-pre=check-fold]")
    expect(check_fold).to_be_visible()  # her part without her buttons came
    german.evaluate(PROBE)
    check_fold.check()
    move("dave", "call")
    _follow([english, german], table)
    expect(english.get_by_test_id("actions")).to_be_visible()
    expect(check_fold).not_to_be_checked()
    assert german.evaluate(PROBED)  # from the public table's new street alone
