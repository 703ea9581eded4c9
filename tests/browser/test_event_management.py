"""In real Chromium: an admin schedules an event from the home page; the floor opens it there."""

from __future__ import annotations

import os
import tempfile
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from tests.browser.conftest import login
from tests.factories import make_entries, make_event, make_user
from tests.scoring.season_helpers import finished_event, make_season
from tournaments.models import Event, EventStatus
from tournaments.presets import load_presets

SCREENSHOTS = Path(
    os.environ.get("SCREENSHOT_DIR", Path(tempfile.gettempdir()) / "floorman-screens")
)


def shoot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / name, full_page=True)


def fits_the_screen(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_admin_schedules_an_event_and_the_floor_opens_it(browser, page, live_server):
    load_presets()
    season = make_season(name="Winter")
    finished_event(season=season, names=["Anna", "Bert", "Carl"], name="Satellite 1")
    make_user(username="boss", role="admin")
    make_user(username="floor", role="floor")

    login(page, live_server, "boss")
    page.goto(f"{live_server.url}/")
    page.locator("[data-testid=admin-links]").get_by_role("link", name="New event").click()
    page.get_by_label("Name").fill("Friday deepstack")
    page.get_by_label("Kind").select_option("deepstack")
    page.get_by_label("Blind structure").select_option(label="Deepstack (R5.4) · 10,000 chips")
    page.get_by_label("Starting stack").fill("3010")
    page.get_by_label("Scheduled start").fill("2026-05-08T19:30")
    page.get_by_label("Season").select_option(label="Winter")
    page.get_by_role("button", name="Create").click()

    # Refused with the reason, the input kept; nothing created.
    page.wait_for_selector(".errorlist")
    assert "must be a multiple of 25" in page.inner_text("main")
    assert page.get_by_label("Name").input_value() == "Friday deepstack"
    assert not Event.objects.filter(name="Friday deepstack").exists()

    page.get_by_label("Starting stack").fill("")  # the structure's
    page.get_by_role("button", name="Create").click()
    page.wait_for_url(f"{live_server.url}/events/")
    assert "“Friday deepstack” is scheduled." in page.inner_text(".messages")
    event = Event.objects.get(name="Friday deepstack")
    assert event.starting_stack == 10_000 and event.season == season
    assert event.scheduled_start == datetime(2026, 5, 8, 19, 30, tzinfo=ZoneInfo("Europe/Berlin"))

    page.get_by_role("link", name="♠ Floorman").click()
    card = page.locator("[data-testid=home-event]", has_text="Friday deepstack")
    assert card.is_visible()
    assert "Coming up" in page.text_content("#home-events")
    make_entries(event=event, count=2, status="playing")
    shoot(page, "home-admin.png")
    assert fits_the_screen(page)

    # The floor finds the event on the home page and opens its dashboard.
    floor = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    phone = floor.new_page()
    phone.set_default_timeout(10_000)
    login(phone, live_server, "floor")
    phone.goto(f"{live_server.url}/")
    assert fits_the_screen(phone)
    shoot(phone, "home-floor-360.png")
    phone.locator("[data-testid=home-event]", has_text="Friday deepstack").get_by_role(
        "link", name="Floor dashboard"
    ).click()
    phone.wait_for_url(f"{live_server.url}/events/{event.pk}/floor/")
    assert phone.locator("h1.event-name").inner_text() == "Friday deepstack"
    phone.get_by_role("button", name="Start the clock").click()
    phone.wait_for_selector("[data-testid=clock-status]:has-text('Running')")
    floor.close()

    # Running now on the home page; the admin finishes it from the events page, confirming.
    page.reload()
    running = page.locator("#home-events [data-testid=home-event]", has_text="Friday deepstack")
    assert "Level 1" in running.inner_text()
    shoot(page, "home-admin-running.png")
    page.locator("[data-testid=admin-links]").get_by_role("link", name="Manage events").click()
    page.locator("#running-events").get_by_role("button", name="Finish event").click()
    page.wait_for_selector("[data-testid=refusal]")
    assert "2 players are still in" in page.inner_text("[data-testid=refusal]")
    assert Event.objects.get(pk=event.pk).status == EventStatus.RUNNING
    shoot(page, "event-list-refused.png")
    page.get_by_role("button", name="Finish anyway, without placing them").click()
    page.wait_for_function(
        "() => document.querySelector('#finished-events').innerText.includes('Friday deepstack')"
    )
    assert Event.objects.get(pk=event.pk).status == EventStatus.FINISHED


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_home_page_fits_a_phone_for_everyone(page, phone_page, live_server):
    load_presets()
    season = make_season(name="Winter")
    finished_event(season=season, names=["Anna", "Bert", "Carl"], name="Satellite 1")
    make_event(name="Saturday super final with a long name", code="satfin")
    make_user(username="boss", role="admin")

    page.goto(f"{live_server.url}/")
    shoot(page, "home-anonymous.png")
    phone_page.goto(f"{live_server.url}/")
    assert fits_the_screen(phone_page)
    assert phone_page.locator("[data-testid=home-season]").is_visible()
    shoot(phone_page, "home-anonymous-360.png")

    login(phone_page, live_server, "boss")
    phone_page.goto(f"{live_server.url}/")
    assert fits_the_screen(phone_page)
    shoot(phone_page, "home-admin-360.png")
    phone_page.locator(".language-switch button[value=de]").click()
    phone_page.wait_for_selector("html[lang=de]")
    assert "Turniere verwalten" in phone_page.inner_text("main")
    assert fits_the_screen(phone_page)
    shoot(phone_page, "home-admin-360-de.png")
    phone_page.goto(f"{live_server.url}/events/new/")
    assert fits_the_screen(phone_page)
    shoot(phone_page, "event-form-360.png")
    phone_page.goto(f"{live_server.url}/events/")
    assert fits_the_screen(phone_page)
    shoot(phone_page, "event-list-360.png")
