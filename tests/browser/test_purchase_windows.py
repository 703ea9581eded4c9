"""The purchase windows on the TV and a 360 px phone in real Chromium: shown with the prize pool,
closed after the clock passes their level (at the next refetch), absent for a freeroll."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.factories import make_entries, make_event, make_structure, make_user
from tests.scoring.payout_helpers import money_event
from tournaments.models import EventMoney, EventStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(
    os.environ.get("SCREENSHOT_DIR", Path(tempfile.gettempdir()) / "floorman-screens")
)
LEVELS = [(25 * n, 50 * n, 0, 12) for n in range(1, 9)]


def at_level(event, index):
    event.clock_level_index, event.clock_level_started_at = index, timezone.now()
    event.status = EventStatus.RUNNING
    event.save()


def refetch(page):
    """What the every-20-s poll does, without waiting for it."""
    page.evaluate("document.body.dispatchEvent(new CustomEvent('fm:changed'))")


def test_the_phone_and_the_tv_show_the_purchase_windows(tv_page, phone_page, live_server):
    event = make_event(structure=make_structure(levels=LEVELS), code="rebuy8", name="Rebuy night")
    EventMoney.objects.create(
        event=event, buy_in=2000, fee=200, late_registration_last_level=4, rebuy_price=2000,
        rebuy_chips=3000, rebuy_last_level=6, add_on_price=1000, add_on_chips=5000,
        add_on_first_level=6, add_on_last_level=7, re_entry=True,
    )  # fmt: skip
    make_entries(event=event, count=6, status="playing")
    at_level(event, 3)  # level 4
    tv = tv_page
    tv.goto(f"{live_server.url}/e/{event.code}/tv/")
    phone_page.goto(f"{live_server.url}/e/{event.code}/")
    for page in (tv, phone_page):
        late = page.get_by_test_id("window-late_registration")
        expect(late).to_have_text("Late registration open until the end of level 4")
        expect(page.get_by_test_id("window-rebuy")).to_have_text(
            "Rebuys open until the end of level 6"
        )
        expect(page.get_by_test_id("window-add_on")).to_have_text(
            "Add-on from level 6 until the end of level 7"
        )
        expect(page.get_by_test_id("window-re_entry")).to_have_text(
            "Re-entry open until the end of level 4"
        )
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 360
    phone_page.get_by_test_id("purchase-windows").scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    phone_page.screenshot(path=str(SCREENSHOTS / "purchase-windows-phone.png"), full_page=True)
    tv.screenshot(path=str(SCREENSHOTS / "purchase-windows-tv.png"))

    at_level(event, 5)  # level 6: late registration and re-entry over, the add-on open
    for page in (tv, phone_page):
        refetch(page)
        expect(page.get_by_test_id("window-late_registration")).to_have_text(
            "Late registration closed"
        )
        expect(page.get_by_test_id("window-re_entry")).to_have_text("Re-entry closed")
        expect(page.get_by_test_id("window-add_on")).to_have_text(
            "Add-on open until the end of level 7"
        )
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 360
    phone_page.get_by_test_id("purchase-windows").scroll_into_view_if_needed()
    phone_page.screenshot(path=str(SCREENSHOTS / "purchase-windows-phone-closed.png"))


def test_a_freeroll_shows_no_purchase_window(phone_page, live_server):
    event = money_event(
        actor=make_user(username="floor", role="floor"), players=4, payout=None, buy_in=0,
        fee=0, code="free4",
    )  # fmt: skip
    EventMoney.objects.filter(event=event).delete()  # a freeroll: no money settings at all
    phone_page.goto(f"{live_server.url}/e/{event.code}/")
    expect(phone_page.get_by_test_id("players-left")).to_have_text("4 / 4")
    expect(phone_page.get_by_test_id("purchase-windows")).to_have_count(0)
    body = phone_page.inner_text("body")
    for word in ("Late registration", "Rebuys", "Add-on", "Re-entry", "€"):
        assert word not in body
