"""The clock in real Chromium: the floor acts on the dashboard, phones and the TV follow in 2 s."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.conftest import login
from tests.factories import make_event, make_structure, make_user
from tournaments.models import Denomination
from tournaments.services import ClockAction, act_on_clock

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOLLOW_MS = 2_000  # docs/architecture.md: every page shows a floor action within 2 seconds


@pytest.fixture
def event(settings):
    # The threaded test server is WSGI: let it hold a bounded event stream per page.
    settings.LIVE_WSGI_STREAM_SECONDS = 30
    make_user(username="floor", role="floor", password="pw")
    structure = make_structure(levels=((25, 50, 0, 12), (50, 100, 25, 12), (100, 200, 25, 12)))
    return make_event(structure=structure, name="Browser Deepstack", code="brw123")


def open_dashboard(page, live_server, event):
    login(page, live_server, "floor")
    page.goto(f"{live_server.url}/events/{event.pk}/floor/")
    expect(page.locator("#floor")).to_be_visible()


def test_a_pause_on_the_dashboard_shows_on_a_phone(live_server, page, phone_page, event):
    phone_page.goto(f"{live_server.url}/e/{event.code}/")
    status = phone_page.get_by_test_id("clock-status")
    expect(status).to_have_text("Not started")
    open_dashboard(page, live_server, event)

    page.get_by_role("button", name="Start the clock").click()
    expect(page.get_by_test_id("clock-status")).to_have_text("Running")
    expect(status).to_have_text("Running", timeout=FOLLOW_MS)

    page.get_by_role("button", name="Pause").click()
    expect(status).to_have_text("Paused", timeout=FOLLOW_MS)
    expect(phone_page.locator("#clock")).to_have_attribute("data-status", "paused")
    # Stopped: the phone's countdown does not move any more.
    shown = phone_page.locator("[data-countdown]").inner_text()
    phone_page.wait_for_timeout(1_500)
    assert phone_page.locator("[data-countdown]").inner_text() == shown
    # The phone layout fits 360 px: nothing scrolls sideways.
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 360


def test_next_level_shows_on_the_tv_and_the_phone(live_server, page, phone_page, tv_page, event):
    tv_page.goto(f"{live_server.url}/e/{event.code}/tv/")
    phone_page.goto(f"{live_server.url}/e/{event.code}/")
    expect(tv_page.get_by_test_id("blinds")).to_contain_text("25 / 50")
    expect(tv_page.locator(".tv-qr svg")).to_be_visible()
    open_dashboard(page, live_server, event)
    page.get_by_role("button", name="Start the clock").click()
    expect(page.get_by_test_id("clock-status")).to_have_text("Running")

    page.get_by_role("button", name="Next level").click()
    for viewer in (tv_page, phone_page):
        expect(viewer.get_by_test_id("level-name")).to_have_text("Level 2", timeout=FOLLOW_MS)
        expect(viewer.get_by_test_id("blinds")).to_contain_text("50 / 100")
        expect(viewer.get_by_test_id("blinds")).to_contain_text("Ante 25")
    expect(page.get_by_test_id("level-name")).to_have_text("Level 2")


def test_keyboard_shortcuts_and_a_stale_page(live_server, page, browser, event):
    open_dashboard(page, live_server, event)
    expect(page.locator(".shortcuts")).to_contain_text("Space")
    page.get_by_role("button", name="Start the clock").click()
    expect(page.get_by_test_id("clock-status")).to_have_text("Running")
    page.keyboard.press("Space")
    expect(page.get_by_test_id("clock-status")).to_have_text("Paused")
    page.keyboard.press("n")
    expect(page.get_by_test_id("level-name")).to_have_text("Level 2")
    page.keyboard.press("+")
    expect(page.locator("[data-countdown]")).to_have_text("13:00")

    # A second floor page acts first; the first page's next press is stale and says so.
    other = browser.new_context()
    second = other.new_page()
    login(second, live_server, "floor")
    second.goto(f"{live_server.url}/events/{event.pk}/floor/")
    second.get_by_role("button", name="Resume").click()
    expect(second.get_by_test_id("clock-status")).to_have_text("Running")
    other.close()
    expect(page.get_by_test_id("clock-status")).to_have_text("Running", timeout=FOLLOW_MS)
    # A press from a page that still shows an old clock version changes nothing and says so.
    page.evaluate(
        "document.querySelector('button[data-action=next]').closest('form')"
        ".querySelector('[name=expected_version]').value = '1'"
    )
    page.get_by_role("button", name="Next level").click()
    expect(page.locator("#clock-error")).to_contain_text("Someone changed the clock")
    expect(page.get_by_test_id("level-name")).to_have_text("Level 2")


def test_the_dashboard_needs_floor_staff(live_server, page, event):
    make_user(username="player", role="player", password="pw")
    page.goto(f"{live_server.url}/events/{event.pk}/floor/")
    assert "/accounts/login/" in page.url
    login(page, live_server, "player")
    response = page.goto(f"{live_server.url}/events/{event.pk}/floor/")
    assert response.status == 403


def block(page, pattern):
    """Abort every request to ``pattern``; the list of the URLs that were tried."""
    tried = []

    def handler(route):
        tried.append(route.request.url)
        route.abort()

    page.route(pattern, handler)
    return tried


def test_a_phone_shows_a_level_pushed_by_the_floor_without_a_refetch(
    live_server, page, phone_page, event
):
    phone_page.goto(f"{live_server.url}/e/{event.code}/")
    expect(phone_page.get_by_test_id("clock-status")).to_have_text("Not started")
    fragment_requests = block(phone_page, f"**/e/{event.code}/clock/**")
    open_dashboard(page, live_server, event)
    page.get_by_role("button", name="Start the clock").click()
    expect(phone_page.get_by_test_id("clock-status")).to_have_text("Running", timeout=FOLLOW_MS)

    expect(page.get_by_test_id("clock-status")).to_have_text("Running")  # the floor's controls
    page.get_by_role("button", name="Next level").click()
    expect(phone_page.get_by_test_id("level-name")).to_have_text("Level 2", timeout=FOLLOW_MS)
    expect(phone_page.get_by_test_id("blinds")).to_contain_text("50 / 100")
    expect(phone_page.locator("[data-countdown]")).to_have_text(re.compile(r"^1[12]:\d\d$"))
    assert fragment_requests == [], "the phone fetched the clock fragment"


def test_a_phone_shows_the_next_level_on_time_when_the_level_runs_out(
    live_server, phone_page, event
):
    """The stream sent the next level ahead: the phone shows it at the boundary by itself (no
    beat runs here, so nothing else could tell it)."""
    floor = make_user(username="floor2", role="floor")
    three_seconds_left = timezone.now() - timedelta(minutes=12) + timedelta(seconds=3)
    act_on_clock(event_id=event.pk, actor=floor, action=ClockAction.START, now=three_seconds_left)
    phone_page.goto(f"{live_server.url}/e/{event.code}/")
    fragment_requests = block(phone_page, f"**/e/{event.code}/clock/**")
    expect(phone_page.get_by_test_id("level-name")).to_have_text("Level 1")
    expect(phone_page.get_by_test_id("level-name")).to_have_text("Level 2", timeout=6_000)
    expect(phone_page.get_by_test_id("blinds")).to_contain_text("50 / 100")
    expect(phone_page.locator("[data-countdown]")).to_have_text(re.compile(r"^1[12]:\d\d$"))
    assert fragment_requests == [], "the phone fetched the clock fragment"


def test_a_page_whose_stream_reconnects_catches_up(live_server, settings, page, phone_page, event):
    settings.LIVE_WSGI_STREAM_SECONDS = 2  # the test server ends each stream after 2 s
    phone_page.goto(f"{live_server.url}/e/{event.code}/")
    open_dashboard(page, live_server, event)
    page.get_by_role("button", name="Start the clock").click()
    # The start may fall in the 2 s between two streams: the reconnect brings it.
    expect(phone_page.get_by_test_id("clock-status")).to_have_text("Running", timeout=6_000)

    # The phone loses its connection: no stream, no fragment.
    streams = block(phone_page, f"**/e/{event.code}/events/**")
    block(phone_page, f"**/e/{event.code}/clock/**")
    phone_page.wait_for_timeout(5_000)  # its stream has ended and cannot come back
    assert streams, "the phone did not try to reconnect its stream"
    page.get_by_role("button", name="Next level").click()
    expect(page.get_by_test_id("level-name")).to_have_text("Level 2")
    phone_page.wait_for_timeout(1_000)
    expect(phone_page.get_by_test_id("level-name")).to_have_text("Level 1")

    # Back online (the stream only): the reconnect brings the current state at once. (Chrome
    # sends Last-Event-ID when it reconnects, though not after failed attempts; the server sends
    # the current state to a tab that says nothing, or that has another clock version.)
    reconnects = []
    phone_page.on(
        "request",
        lambda request: (
            reconnects.append(request) if f"/e/{event.code}/events/" in request.url else None
        ),
    )
    phone_page.unroute(f"**/e/{event.code}/events/**")
    expect(phone_page.get_by_test_id("level-name")).to_have_text("Level 2", timeout=20_000)
    expect(phone_page.get_by_test_id("blinds")).to_contain_text("50 / 100")
    assert reconnects, "the level came by another way than the stream"


def test_the_end_of_a_chip_up_level_makes_the_phones_fetch_nothing(
    live_server, page, phone_page, event
):
    """R5.11: the end of a level with a chip-up comes on the stream like any level, and the
    phone fetches nothing for it: its chip-up banner shows the chip-up at its own poll (every
    20 s). 500 phones fetching standings and banners at that moment kept the web processes
    seconds behind, and the floor's next Pause waited behind them (issue 17)."""
    first = event.structure.levels.get(position=1)
    first.chip_up = Denomination.objects.get(chip_set=event.structure.chip_set, value=25)
    first.save()
    phone_page.add_init_script("Math.random = () => 0;")  # a spread fetch would go at once
    phone_page.goto(f"{live_server.url}/e/{event.code}/")
    phone_page.evaluate(
        "window.told = 0; document.body.addEventListener('fm:changed', () => window.told++)"
    )
    open_dashboard(page, live_server, event)
    page.get_by_role("button", name="Start the clock").click()
    expect(page.get_by_test_id("clock-status")).to_have_text("Running")
    expect(phone_page.get_by_test_id("chip-up")).to_contain_text("25", timeout=FOLLOW_MS)
    page.get_by_role("button", name="Pause").click()
    expect(phone_page.get_by_test_id("clock-status")).to_have_text("Paused", timeout=FOLLOW_MS)

    # Fetches made by the page's scripts (htmx.ajax, fetch), not the parts' own 20-s polls.
    phone_page.evaluate(
        "window.asked = []; const ajax = window.htmx.ajax, get = window.fetch;"
        "window.htmx.ajax = (...call) => { window.asked.push(call[1]); return ajax(...call); };"
        "window.fetch = (...call) => { window.asked.push(String(call[0])); return get(...call); };"
        "true"  # (a function as the result would be called by Playwright)
    )
    expect(page.get_by_test_id("clock-status")).to_have_text("Paused")
    page.get_by_role("button", name="Next level").click()
    expect(phone_page.get_by_test_id("level-name")).to_have_text("Level 2", timeout=FOLLOW_MS)
    phone_page.wait_for_timeout(1_500)
    asked = phone_page.evaluate("window.asked")
    assert not [url for url in asked if "/chip-up/" in url or "/standings/" in url], asked
    assert phone_page.evaluate("window.told") == 0  # fm:changed never: no standings herd
