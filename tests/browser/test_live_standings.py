"""Standings on the TV and the phone: shown with the clock, updated within 2 s of a bust."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.services import StackInput, record_busts
from tables.services import draw_seats
from tests.browser.conftest import login
from tests.factories import make_event, make_user
from tournaments.entry_services import register_entry
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOLLOW_MS = 2_000  # docs/architecture.md: every page shows a floor action within 2 seconds


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
    live_server, page, phone_page, browser, seated_event
):
    event, floor = seated_event
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    login(page, live_server, "floor")
    page.goto(f"{live_server.url}/events/{event.pk}/floor/")
    phone_page.goto(f"{live_server.url}/e/{event.code}/")
    tv.goto(f"{live_server.url}/e/{event.code}/tv/")
    pages = (page, phone_page, tv)
    for page in pages:
        expect(page.get_by_test_id("players-left")).to_have_text("6 / 6")
    anna = Entry.objects.get(event=event, player__name="Anna")
    record_busts(event_id=event.pk, actor=floor, busts=[StackInput(entry_id=anna.pk, stack=3_000)])
    for page in pages:
        expect(page.get_by_test_id("players-left")).to_have_text("5 / 6", timeout=FOLLOW_MS)
        expect(page.locator("#standings tr[data-place='6']")).to_contain_text("Anna")
    # The phone page fits a 360 px screen with the standings on it.
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360
    tv.context.close()
