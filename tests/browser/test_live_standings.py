"""Standings on the TV and the phone: shown with the clock, updated within 2 s of a bust."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.services import StackInput, record_busts
from tables.services import draw_seats
from tests.browser.conftest import login
from tests.factories import make_event, make_user
from tournaments import live_board
from tournaments.entry_services import register_entry
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOLLOW_MS = 2_000  # docs/architecture.md: every page shows a floor action within 2 seconds


def board_requests(*pages) -> list[str]:
    """The URLs of the board's parts (standings, chip-up banner) the pages request from now."""
    found: list[str] = []
    for page in pages:
        page.on(
            "request",
            lambda request: (
                found.append(request.url)
                if "/standings/" in request.url or "/chip-up/" in request.url
                else None
            ),
        )
    return found


@pytest.fixture
def seated_event(settings):
    settings.LIVE_WSGI_STREAM_SECONDS = 30  # the threaded test server is WSGI
    floor = make_user(username="floor", role="floor")
    event = make_event(name="Standings night", code="std123")
    for name in ("Anna", "Bernd", "Clara", "Dieter", "Eva", "Franz"):
        register_entry(event_id=event.pk, actor=floor, name=name, check_in=True)
    draw_seats(event_id=event.pk, actor=floor, tables=1)
    return event, floor


def test_a_bust_shows_on_the_dashboard_the_phone_and_the_tv_standings(
    live_server, page, phone_page, tv_page, seated_event
):
    event, floor = seated_event
    tv = tv_page
    login(page, live_server, "floor")
    page.goto(f"{live_server.url}/events/{event.pk}/floor/")
    phone_page.goto(f"{live_server.url}/e/{event.code}/")
    tv.goto(f"{live_server.url}/e/{event.code}/tv/")
    pages = (page, phone_page, tv)
    for page in pages:
        expect(page.get_by_test_id("players-left")).to_have_text("6 / 6")
    # Issue 17: the stream carries the board; the phone and the TV fetch nothing for it.
    fetched = board_requests(phone_page, tv)
    anna = Entry.objects.get(event=event, player__name="Anna")
    record_busts(event_id=event.pk, actor=floor, busts=[StackInput(entry_id=anna.pk, stack=3_000)])
    for page in pages:
        expect(page.get_by_test_id("players-left")).to_have_text("5 / 6", timeout=FOLLOW_MS)
        expect(page.locator("#standings tr[data-place='6']")).to_contain_text("Anna")
    assert fetched == []
    # The phone page fits a 360 px screen with the standings on it.
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360


def test_a_late_answer_of_the_standings_poll_does_not_undo_a_newer_board(
    live_server, phone_page, seated_event
):
    """The phone's fallback poll read the standings before a bust, and its answer arrives after
    the stream brought the bust: the older answer is dropped (its Board-Stamp is older than the
    board's), the phone keeps showing the bust. An answer read after the board is shown."""
    event, floor = seated_event
    phone_page.goto(f"{live_server.url}/e/{event.code}/")
    expect(phone_page.get_by_test_id("players-left")).to_have_text("6 / 6")
    anna = Entry.objects.get(event=event, player__name="Anna")
    before = live_board.board_stamp()  # a reading that began before the bust
    record_busts(event_id=event.pk, actor=floor, busts=[StackInput(entry_id=anna.pk, stack=3_000)])
    expect(phone_page.get_by_test_id("players-left")).to_have_text("5 / 6", timeout=FOLLOW_MS)

    def answer_read_at(stamp: int, text: str) -> bool | str:
        """The page's decision on a poll's answer read at ``stamp`` (bounded: a generous cap)."""
        phone_page.route(
            "**/standings/",
            lambda route: route.fulfill(
                body=f'<p data-testid="players-left">{text}</p>',
                headers={"Board-Stamp": str(stamp), "Content-Type": "text/html"},
            ),
        )
        decided = phone_page.evaluate(
            """() => new Promise((resolve) => {
                document.body.addEventListener("htmx:beforeSwap", (e) => {
                    const part = e.detail.elt.dataset.boardPart;
                    if (part === "standings") resolve(e.detail.shouldSwap);
                });
                document.body.dispatchEvent(new CustomEvent("fm:board-poll"));
                setTimeout(() => resolve("no answer"), 30000);
            })"""
        )
        phone_page.unroute("**/standings/")
        return decided

    assert answer_read_at(before, "6 / 6") is False
    expect(phone_page.get_by_test_id("players-left")).to_have_text("5 / 6")
    assert answer_read_at(live_board.board_stamp(), "read later") is True
    expect(phone_page.get_by_test_id("players-left")).to_have_text("read later")
