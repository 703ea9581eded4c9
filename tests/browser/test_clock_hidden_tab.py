"""A clock tab in the background gives its event stream up, and takes it again when shown.

A browser opens at most six connections to one server over HTTP/1.1; tabs that each held a
stream left none for the pages (issue 16: "uvicorn answered nothing while browsers held
streams"). static/js/clock.js closes a hidden tab's stream after 5 s and reconnects with the
id of the state it has when the tab is shown again.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import make_event
from tournaments.services import ClockAction, act_on_clock

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SET_HIDDEN = """(hidden) => {
  Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
  Object.defineProperty(document, "visibilityState", {
    value: hidden ? "hidden" : "visible", configurable: true,
  });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_hidden_clock_tab_closes_its_stream_and_reconnects_when_shown(
    settings, live_server, phone_page
):
    settings.LIVE_WSGI_STREAM_SECONDS = 60  # the threaded test server holds a stream a minute
    event = make_event(name="Hidden Tab Cup", code="hid123")
    streams, ended = [], []
    phone_page.on("request", lambda r: streams.append(r.url) if "/events/" in r.url else None)
    phone_page.on("requestfailed", lambda r: ended.append(r.url) if "/events/" in r.url else None)
    phone_page.goto(f"{live_server.url}/e/{event.code}/")
    expect(phone_page.get_by_test_id("clock-status")).to_have_text("Not started")
    assert len(streams) == 1

    with phone_page.expect_event("requestfailed", timeout=15_000) as gone:
        phone_page.evaluate(SET_HIDDEN, True)
        phone_page.wait_for_timeout(1_000)
        assert ended == [], "the stream closed at once (a quick look at another tab keeps it)"
    assert gone.value.url == streams[0] and ended == streams  # given up after 5 s hidden

    # The clock changes while the tab is away; shown again, it reconnects and shows the change.
    act_on_clock(event_id=event.pk, actor=None, action=ClockAction.START)
    with phone_page.expect_request(lambda r: "/events/" in r.url, timeout=5_000) as again:
        phone_page.evaluate(SET_HIDDEN, False)
    assert "?last=" in again.value.url  # it says which state it has
    expect(phone_page.get_by_test_id("clock-status")).to_have_text("Running", timeout=5_000)
