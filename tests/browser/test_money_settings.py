"""In real Chromium: an admin sets an event's money in German ("20,00") and sees it again."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from tests.browser.conftest import login
from tests.factories import make_event, make_user
from tournaments.models import EventMoney

SCREENSHOTS = Path(
    os.environ.get("SCREENSHOT_DIR", Path(tempfile.gettempdir()) / "floorman-screens")
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def shoot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / name, full_page=True)


def test_an_admin_sets_the_money_in_german(browser, live_server):
    event = make_event(name="Freitag Bounty")
    make_user(username="boss", role="admin")
    for name, viewport in (("desktop", (1280, 800)), ("phone", (360, 740))):
        context = browser.new_context(
            viewport={"width": viewport[0], "height": viewport[1]}, locale="de-DE"
        )
        page = context.new_page()
        page.set_default_timeout(10_000)
        login(page, live_server, "boss")
        page.goto(f"{live_server.url}/events/{event.pk}/edit/")
        if name == "desktop":
            page.locator("details.money-settings summary").click()  # closed for a freeroll
            page.locator("input[name=money-buy_in]").fill("20,00")
            page.locator("input[name=money-fee]").fill("2")
            page.locator("input[name=money-bounty]").fill("25")  # more than the buy-in: refused
            page.get_by_role("button", name="Speichern").click()
            page.wait_for_selector(".errorlist")
            assert "höchstens so viel wie das Buy-in" in page.inner_text("main")
            assert not EventMoney.objects.exists()
            page.locator("input[name=money-bounty]").fill("5,00")
            page.get_by_role("button", name="Speichern").click()
            page.wait_for_url(f"{live_server.url}/events/")
            money = EventMoney.objects.get(event=event)
            assert (money.buy_in, money.fee, money.bounty) == (2000, 200, 500)
            page.goto(f"{live_server.url}/events/{event.pk}/edit/")
            assert page.locator("input[name=money-buy_in]").input_value() == "20,00"
        else:  # the money is set now: the fieldset opens by itself
            assert page.locator("details.money-settings[open]").count() == 1
            fits = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
            assert fits
        shoot(page, f"money-settings-{name}.png")
        context.close()
