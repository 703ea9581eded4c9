"""Issue 18, "The floor", in real Chromium at 1366x768 and at 360x740: floor staff run the night
alone (create, finish), the seat draw's defaults, a single bust without a stack, a refused form
that keeps its input, the last bust that wins the event and its undo, the phone's standings, and
a player's sign-up approved by the floor."""

from __future__ import annotations

import os
import uuid

import pytest
from playwright.sync_api import expect

from scoring.services import StackInput, record_busts
from tests.browser.conftest import login
from tests.factories import make_entries, make_event, make_user
from tests.floor_helpers import at_table, seated_event
from tournaments.models import Entry, Event, EventStatus
from tournaments.presets import load_presets
from tournaments.services import ClockAction, act_on_clock

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(1366, 768), (360, 740)]
SHOTS = os.environ.get("FLOOR_SCREENSHOTS", "")


def _shot(page, name, width):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}-{width}.png"), full_page=True)


def _page(browser, width, height):
    phone = width < 800
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page


def _fits(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_floor_staff_create_an_event_from_a_structure_and_finish_it(
    live_server, browser, width, height
):
    load_presets()
    make_user(username="floor", role="floor")
    context, page = _page(browser, width, height)
    login(page, live_server, "floor")
    page.locator("[data-testid=floor-links]").get_by_role("link", name="New event").click()
    page.get_by_label("Name").fill("Friday deepstack")
    page.get_by_label("Kind").select_option("deepstack")
    page.get_by_label("Blind structure").select_option(label="Deepstack (R5.4) · 10,000 chips")
    page.get_by_label("Scheduled start").fill("2026-05-08T19:30")
    page.get_by_role("button", name="Create").click()
    page.wait_for_url(f"{live_server.url}/events/")
    event = Event.objects.get(name="Friday deepstack")
    _shot(page, "floor-events", width)
    assert _fits(page)
    act_on_clock(event_id=event.pk, actor=None, action=ClockAction.START)
    page.reload()
    page.locator("#running-events").get_by_role("button", name="Finish event").click()
    expect(page.locator("#finished-events")).to_contain_text("Friday deepstack")
    assert Event.objects.get(pk=event.pk).status == EventStatus.FINISHED
    page.goto(f"{live_server.url}/structures/")
    expect(page.get_by_test_id("structures-admin-only")).to_be_visible()
    context.close()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_seat_draw_defaults_to_the_entries_and_the_table_size(
    live_server, browser, width, height
):
    make_user(username="floor", role="floor")
    event = make_event(name="Twenty")
    Event.objects.filter(pk=event.pk).update(table_size=9)
    make_entries(event=event, count=20)
    context, page = _page(browser, width, height)
    login(page, live_server, "floor")
    page.goto(f"{live_server.url}/events/{event.pk}/floor/tables/")
    form = page.locator("form.draw-form")
    expect(form.locator("input[name=tables]")).to_have_value("3")
    expect(form.locator("input[name=seats_per_table]")).to_have_value("9")
    form.get_by_role("button", name="Draw seats").click()
    expect(page.get_by_test_id("table-3")).to_be_visible()
    assert Entry.objects.filter(event=event, status="playing").count() == 20
    context.close()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_busts_to_the_winner_and_back_with_undo(live_server, browser, width, height):
    make_user(username="floor", role="floor")
    event, _ = seated_event(players=4, tables=1)
    act_on_clock(event_id=event.pk, actor=None, action=ClockAction.START)
    context, page = _page(browser, width, height)
    login(page, live_server, "floor")
    page.goto(f"{live_server.url}/events/{event.pk}/floor/tables/")
    rows = page.locator("[data-testid=table-1] tbody tr:has(input[type=checkbox])")
    expect(rows.first.locator("input.stack")).to_have_attribute("value", "")
    assert rows.first.locator("input.stack").get_attribute("placeholder") is None

    # One player out: no stack asked (R5.6 orders same-hand busts only).
    first = at_table(event, 1)[0]
    rows.first.locator("input[type=checkbox]").check()
    page.get_by_role("button", name="Record busts of this hand").click()
    expect(page.get_by_test_id("floor-players-left")).to_have_text("3 / 4")
    assert Entry.objects.get(pk=first.pk).place == 4

    # Two out in one hand, one stack missing: refused, the ticks and the stack kept.
    rows = page.locator("[data-testid=table-1] tbody tr:has(input[type=checkbox])")
    rows.nth(0).locator("input[type=checkbox]").check()
    rows.nth(1).locator("input[type=checkbox]").check()
    rows.nth(0).locator("input.stack").fill("1200")
    page.get_by_role("button", name="Record busts of this hand").click()
    expect(page.get_by_test_id("floor-error")).to_contain_text("two or more went out")
    rows = page.locator("[data-testid=table-1] tbody tr:has(input[type=checkbox])")
    expect(rows.nth(0).locator("input[type=checkbox]")).to_be_checked()
    expect(rows.nth(1).locator("input[type=checkbox]")).to_be_checked()
    expect(rows.nth(0).locator("input.stack")).to_have_value("1200")
    _shot(page, "floor-bust-kept", width)
    rows.nth(1).locator("input.stack").fill("800")
    page.get_by_role("button", name="Record busts of this hand").click()

    # The last bust won the event: the winner named, no bust form, the clock stopped.
    expect(page.get_by_test_id("event-won")).to_contain_text("has won the event")
    winner = Entry.objects.get(event=event, place=1)
    expect(page.get_by_test_id("floor-winner")).to_have_text(winner.label)
    expect(page.get_by_role("button", name="Record busts of this hand")).to_have_count(0)
    assert Event.objects.get(pk=event.pk).clock_paused_at is not None
    _shot(page, "floor-won", width)
    assert _fits(page) or width > 800

    page.locator(".undo-redo button", has_text="Undo").click()
    expect(page.get_by_test_id("event-won")).to_have_count(0)
    expect(page.get_by_test_id("floor-players-left")).to_have_text("3 / 4")
    assert Event.objects.get(pk=event.pk).status == EventStatus.RUNNING
    context.close()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_standings_show_every_place(live_server, browser, width, height):
    event, _ = seated_event(players=20, tables=2)
    for table in (1, 2):
        for entry in at_table(event, table)[:6]:
            record_busts(event_id=event.pk, actor=None, busts=[StackInput(entry.pk, None)])
    context, page = _page(browser, width, height)
    page.goto(f"{live_server.url}/e/{event.code}/")
    last = page.locator(".places tr[data-place='20']")
    last.scroll_into_view_if_needed()
    expect(last).to_be_visible()
    expect(page.locator(".places tr[data-place='9']")).to_be_visible()
    _shot(page, "phone-standings", width)
    context.close()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_a_player_signs_up_and_the_floor_approves(live_server, browser, width, height):
    make_user(username="floor", role="floor")
    name = f"anna{uuid.uuid4().hex[:6]}"
    context, page = _page(browser, width, height)
    page.goto(f"{live_server.url}/")
    expect(page.get_by_test_id("lobby-link")).to_be_visible()
    page.get_by_test_id("signup-link").click()
    page.get_by_label("Display name").fill("Anna K.")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Password").fill("short")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_test_id("signup-error")).to_be_visible()
    expect(page.get_by_label("Display name")).to_have_value("Anna K.")
    page.get_by_label("Password").fill("long enough pw")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_test_id("signup-sent")).to_contain_text("Anna K.")
    _shot(page, "signup", width)
    assert _fits(page)

    staff, floor_page = _page(browser, width, height)
    login(floor_page, live_server, "floor")
    floor_page.get_by_test_id("pending-signups-link").click()
    row = floor_page.get_by_test_id("signup-row").filter(has_text="Anna K.")
    _shot(floor_page, "signup-pending", width)
    row.get_by_role("button", name="Approve").click()
    expect(floor_page.locator(".messages")).to_contain_text("Anna K. can log in now.")
    staff.close()

    login(page, live_server, name, password="long enough pw")
    expect(page.locator(".topbar")).to_contain_text(name)
    context.close()


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_season_chart_on_the_season_page_and_the_tv(live_server, browser, width, height):
    from tests.scoring.season_helpers import finished_event, make_season  # noqa: PLC0415

    season = make_season(name="Winter")
    finished_event(season=season, names=["Anna", "Ben", "Carl", "Dora"], name="One")
    finished_event(season=season, names=["Ben", "Dora", "Anna"], name="Two")
    finished_event(season=season, names=["Carl", "Anna", "Ben"], name="Three")
    tonight = make_event(name="Tonight")
    Event.objects.filter(pk=tonight.pk).update(season=season)
    context, page = _page(browser, width, height)
    page.goto(f"{live_server.url}/seasons/{season.pk}/")
    chart = page.get_by_test_id("season-chart")
    chart.scroll_into_view_if_needed()
    expect(chart.locator("[data-testid=season-line]")).to_have_count(4)
    expect(chart.locator("svg")).to_be_visible()
    assert chart.locator("svg").bounding_box()["width"] <= width
    _shot(page, "season-chart", width)
    page.goto(f"{live_server.url}/e/{tonight.code}/tv/")
    expect(page.get_by_test_id("tv-season").locator("[data-testid=season-line]")).to_have_count(4)
    _shot(page, "tv-season", width)
    context.close()
