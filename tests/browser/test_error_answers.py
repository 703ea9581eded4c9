"""A request that fails says so in the page's language, in real Chromium: a proxy's 502 during a
deploy, a server's 500 while Redis restarts. The online table's error box showed the error
page's markup as text ("<!doctype html> ... Server Error (500)"), and a floor action posted by
htmx showed nothing at all (htmx swaps no error answer). The server's own reasons, sent as
plain text (a refused move), are still shown as they are."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.online import play as online_play
from tests.browser.conftest import close_pages, login, wait_for
from tests.factories import make_event, make_structure, make_user
from tests.tables.online_helpers import seat_players
from tournaments.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROXY_502 = (
    "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"
)
SERVER = {
    "en": "The server could not do this just now: try again in a moment.",
    "de": "Der Server konnte das gerade nicht ausführen: Versuch es gleich noch einmal.",
}
LOCALES = {"en": "en-GB", "de": "de-DE"}


def fail_once(page, pattern, *, status, body, content_type="text/html"):
    """The next POST to ``pattern`` is answered by a proxy with ``status``; the later ones, and
    every other request, reach the server. Returns the list of the URLs it answered."""
    answered = []

    def handler(route):
        if answered or route.request.method != "POST":
            route.continue_()
            return
        answered.append(route.request.url)
        route.fulfill(status=status, body=body, content_type=content_type)

    page.route(pattern, handler)
    return answered


@pytest.fixture
def turn(live_server, browser, table, settings):
    """The page of the player whose turn it is, in a language; (page, hand, player)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    players = seat_players(table, ["alice", "bob"])
    for user in players:
        user.set_password("pw")
        user.save()
    hand = online_play.deal_hand(table=table)
    actor = next(user for user in players if user.pk == hand.user_ids[hand.actor])
    contexts = []

    def open_page(language):
        context = browser.new_context(
            viewport={"width": 1280, "height": 800}, locale=LOCALES[language]
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        login(page, live_server, actor.username)
        page.goto(live_server.url + reverse("tables:online_table", args=[table.pk]))
        expect(page.get_by_test_id("actions")).to_be_visible()
        return page, hand, actor

    yield open_page
    close_pages(contexts)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_move_answered_by_a_proxys_502_says_so_in_words_and_the_next_try_goes_through(
    turn, language
):
    page, hand, actor = turn(language)
    answered = fail_once(page, "**/act/", status=502, body=PROXY_502)
    fold = page.get_by_test_id("actions").locator("button[value=fold]")
    fold.click()
    box = page.get_by_test_id("table-error")
    expect(box).to_have_text(SERVER[language])
    assert answered, "the proxy never answered the move"
    assert not hand.actions.filter(user=actor).exists(), "the move reached the server"
    fold.click()  # again: the server takes it
    wait_for(lambda: hand.actions.filter(user=actor).exists())
    expect(box).to_be_hidden()


def test_a_refused_move_still_shows_the_servers_own_reason(turn):
    page, _hand, _actor = turn("en")
    reason = "That is not your move now."
    fail_once(page, "**/act/", status=409, body=reason, content_type="text/plain; charset=utf-8")
    page.get_by_test_id("actions").locator("button[value=fold]").click()
    expect(page.get_by_test_id("table-error")).to_have_text(reason)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_floor_action_that_failed_says_so_and_the_next_one_clears_it(
    live_server, browser, settings, language
):
    settings.LIVE_WSGI_STREAM_SECONDS = 30
    make_user(username="floor", role="floor", password="pw")
    structure = make_structure(levels=((25, 50, 0, 12), (50, 100, 25, 12)))
    event = make_event(structure=structure, name="Errors", code="err123")
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale=LOCALES[language])
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        login(page, live_server, "floor")
        page.goto(f"{live_server.url}/events/{event.pk}/floor/")
        expect(page.locator("#floor")).to_be_visible()
        problem = page.get_by_test_id("page-error")
        expect(problem).to_be_hidden()
        answered = fail_once(
            page, "**/events/*/clock/", status=500, body="<h1>Server Error (500)</h1>"
        )
        start = page.locator("button[data-action=start]")
        start.click()
        expect(problem).to_have_text(SERVER[language])
        assert answered, "the failure was never answered"
        assert Event.objects.get(pk=event.pk).clock_version == 0, "the start reached the server"
        start.click()  # again: the server takes it, and the problem is over
        expect(page.get_by_test_id("clock-status")).to_have_text(
            {"en": "Running", "de": "Läuft"}[language]
        )
        expect(problem).to_be_hidden()
    finally:
        context.close()
