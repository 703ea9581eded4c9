"""Payouts in real Chromium: the editor, the deal calculator on the floor, and the prize pool
with its payout table on the TV and a 360 px phone (absent for a freeroll)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring.payout_models import Deal, PayoutStructure
from scoring.payout_selectors import players_left
from scoring.services import StackInput, record_busts
from tests.browser.conftest import login
from tests.factories import make_user
from tests.scoring.payout_helpers import money_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOTS = Path(
    os.environ.get("SCREENSHOT_DIR", Path(tempfile.gettempdir()) / "floorman-screens")
)


def shot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def test_an_admin_builds_a_payout_structure_with_the_editor(page, live_server):
    make_user(username="boss", role="admin")
    login(page, live_server, "boss")
    page.goto(f"{live_server.url}/payouts/")
    form = page.locator("#new-payout-structure form")
    form.get_by_label("Name").fill("Thursday")
    form.get_by_role("button", name="Create").click()
    page.wait_for_selector("#row-add-row")
    editor_url = page.url

    row = page.locator("#row-add-row")
    row.locator("[name=min_entries]").fill("2")
    row.locator("[name=max_entries]").fill("9")
    row.locator("[name=percentages]").fill("60 30 20")
    row.get_by_role("button", name="Add row").click()
    # 110 %: refused, naming the row; nothing saved, no page load.
    expect(page.locator("#rows .errorlist")).to_contain_text(
        "Row 1 (2–9 entries): the percentages add up to 110% instead of 100%."
    )
    assert page.url == editor_url
    row.locator("[name=min_entries]").fill("3")
    row.locator("[name=percentages]").fill("50; 30; 20")
    row.get_by_role("button", name="Add row").click()
    expect(page.locator("#payout-row-1")).to_contain_text("50% · 30% · 20%")
    expect(page.get_by_test_id("payout-gaps")).to_contain_text("10 or more entries")
    shot(page, "payout-editor")
    structure = PayoutStructure.objects.get(name="Thursday")
    assert structure.rows()[0].percentages == (5_000, 3_000, 2_000)

    # The event's payouts page, and the pages on a 360 px phone.
    event = money_event(actor=make_user(username="floor", role="floor"), players=8, payout=None)
    page.goto(f"{live_server.url}/events/{event.pk}/payouts/")
    form = page.get_by_test_id("event-payout-form")
    form.get_by_label("Payout structure").select_option(label="Thursday")
    form.get_by_role("button", name="Save").click()
    expect(page.get_by_test_id("payout-table").locator("tbody tr")).to_have_count(3)
    shot(page, "event-payouts")
    phone = page.context.browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    login(phone, live_server, "boss")
    for name, url in (("payout-list", "/payouts/"), ("payout-editor", editor_url)):
        phone.goto(url if url.startswith("http") else f"{live_server.url}{url}")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360, name
        shot(phone, f"{name}-phone")
    phone.context.close()


def test_the_floor_uses_the_deal_calculator(page, phone_page, live_server):
    floor = make_user(username="floor", role="floor")
    event = money_event(actor=floor, players=6)  # 180 € at 65/35
    for entry in players_left(event)[:3]:
        record_busts(event_id=event.pk, actor=floor, busts=[StackInput(entry.pk, 3_000)])
    login(page, live_server, "floor")
    page.goto(f"{live_server.url}/events/{event.pk}/floor/")
    expect(page.get_by_test_id("prize-pool")).to_have_text("€180.00")
    shot(page, "floor-dashboard-money")
    page.get_by_test_id("deal-link").click()
    page.wait_for_url(f"**/events/{event.pk}/floor/deal/")
    inputs = page.locator("[data-testid=deal-table] input[name^=chips_]")
    expect(inputs).to_have_count(3)
    for field, chips in zip(inputs.all(), ["9000", "6000", "3000"], strict=True):
        assert field.input_value() == ""  # nothing prefilled: the floor types the counts
        field.fill(chips)
    page.get_by_test_id("calculate").click()
    expect(page.get_by_test_id("chop-total")).to_have_text("€180.00")
    expect(page.get_by_test_id("icm-total")).to_have_text("€180.00")
    chop = [page.get_by_test_id(f"chop-{i}").inner_text() for i in (1, 2, 3)]
    icm = [page.get_by_test_id(f"icm-{i}").inner_text() for i in (1, 2, 3)]
    assert chop == ["€90.00", "€60.00", "€30.00"]
    assert icm != chop and icm[0] < chop[0]
    shot(page, "deal-calculator")

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_test_id("save-icm").click()
    expect(page.get_by_test_id("saved-deal")).to_be_visible()
    deal = Deal.objects.get()
    assert deal.method == "icm" and deal.actor == floor
    assert sum(line["amount"] for line in deal.lines) == 18_000
    shot(page, "deal-saved")

    phone_page.goto(f"{live_server.url}/accounts/login/")
    login(phone_page, live_server, "floor")
    phone_page.goto(f"{live_server.url}/events/{event.pk}/floor/deal/")
    expect(phone_page.get_by_test_id("saved-deal")).to_be_visible()
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(phone_page, "deal-saved-phone")


def test_the_tv_and_the_phone_show_the_prize_pool_and_the_payouts(
    browser, tv_page, phone_page, live_server, settings
):
    settings.LIVE_WSGI_STREAM_SECONDS = 30  # the threaded test server is WSGI
    floor = make_user(username="floor", role="floor")
    event = money_event(actor=floor, players=8, code="money8", name="Money night")
    left = players_left(event)
    for entry in left[:5]:
        record_busts(event_id=event.pk, actor=floor, busts=[StackInput(entry.pk, 3_000)])
    tv = tv_page
    tv.goto(f"{live_server.url}/e/{event.code}/tv/")
    phone_page.goto(f"{live_server.url}/e/{event.code}/")
    for page in (tv, phone_page):
        expect(page.get_by_test_id("prize-pool")).to_have_text("€240.00")
        table = page.get_by_test_id("payout-table")
        expect(table.locator("tbody tr")).to_have_count(3)
        expect(table.locator("tr[data-place='1']")).to_contain_text("50%")
        expect(table.locator("tr[data-place='1']")).to_contain_text("€120.00")
        expect(table.locator("tr[data-place='3']")).to_contain_text("€48.00")
    # A bust on the floor reaches both pages: 3rd place is decided and shows its prize.
    record_busts(event_id=event.pk, actor=floor, busts=[StackInput(left[5].pk, 3_000)])
    for page in (tv, phone_page):
        expect(page.get_by_test_id("prize-3")).to_have_text("€48.00", timeout=5_000)
        expect(page.get_by_test_id("payout-table").locator("tr[data-place='3']")).to_contain_text(
            left[5].player.name
        )
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 360
    phone_page.get_by_test_id("payouts").scroll_into_view_if_needed()
    shot(tv, "payouts-tv")
    shot(phone_page, "payouts-phone")
    german = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, locale="de-DE"
    ).new_page()
    german.goto(f"{live_server.url}/e/{event.code}/")
    expect(german.get_by_test_id("prize-pool")).to_have_text("240,00\u00a0€")
    expect(german.get_by_test_id("payout-table").locator("tr[data-place='1']")).to_contain_text(
        "50\u00a0%"
    )
    german.get_by_test_id("payouts").scroll_into_view_if_needed()
    shot(german, "payouts-phone-de")
    german.context.close()


def test_a_freeroll_shows_no_money_on_the_tv_or_the_phone(tv_page, phone_page, live_server):
    floor = make_user(username="floor", role="floor")
    event = money_event(actor=floor, players=4, payout=None, buy_in=0, fee=0, code="free4")
    tv = tv_page
    tv.goto(f"{live_server.url}/e/{event.code}/tv/")
    phone_page.goto(f"{live_server.url}/e/{event.code}/")
    for page in (tv, phone_page):
        expect(page.get_by_test_id("players-left")).to_have_text("4 / 4")
        expect(page.get_by_test_id("payouts")).to_have_count(0)
        assert "€" not in page.inner_text("body")
