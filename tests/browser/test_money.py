"""Money on the floor in real Chromium: register with a buy-in, a rebuy, the pool and the chips."""

from __future__ import annotations

import os

import pytest

from tests import factories
from tests.browser.conftest import login
from tournaments.models import EventMoney, Purchase

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("MONEY_SCREENSHOTS", "")


def _shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name), full_page=True)


def test_the_floor_registers_with_a_buy_in_and_sells_a_rebuy(live_server, page, phone_page):
    factories.make_user(username="floor", role="floor")
    event = factories.make_event(name="Friday Rebuy")  # starting stack 3,000
    EventMoney.objects.create(
        event=event, buy_in=2000, fee=200, rebuy_price=2000, rebuy_chips=3000, rebuy_limit=2
    )
    factories.make_entries(event=event, count=3)

    login(page, live_server, "floor")
    page.goto(f"{live_server.url}/events/{event.pk}/floor/tables/")
    assert "€20.00 + €2.00" in page.locator("[data-testid=register-price]").inner_text()
    page.fill("#id_name", "Anna Buyin")
    page.locator("form.register-form button[type=submit]").click()
    page.wait_for_selector("#entries li:has-text('Anna Buyin')")
    assert page.locator("[data-testid=money-pool]").inner_text() == "€20.00"

    page.fill("input[name=tables]", "1")
    page.fill("input[name=seats_per_table]", "10")
    page.click("form.draw-form button[type=submit]")
    page.wait_for_selector("[data-testid=table-1]")
    anna = Purchase.objects.get(entry__player__name="Anna Buyin").entry
    rebuy = page.locator(f"[data-testid=rebuy-{anna.pk}]")
    assert "€20.00" in rebuy.inner_text()
    rebuy.dblclick()  # a double click buys once
    page.wait_for_selector("[data-testid=money-rebuys]:text-is('1')")
    assert Purchase.objects.filter(kind="rebuy").count() == 1
    assert page.locator("[data-testid=money-pool]").inner_text() == "€40.00"
    # 4 entries of 3,000 and one rebuy of 3,000: 15,000 chips, 3,750 on average
    assert page.locator("[data-testid=average-stack]").first.inner_text() == "3,750"
    _shot(page, "money-floor-desktop.png")

    phone_page.context.add_cookies(page.context.cookies())
    phone_page.goto(f"{live_server.url}/events/{event.pk}/floor/tables/")
    phone_page.locator("#money").scroll_into_view_if_needed()
    assert phone_page.locator("#money").is_visible()
    _shot(phone_page, "money-floor-phone.png")


def test_the_floor_page_of_a_freeroll_has_no_money(live_server, page):
    factories.make_user(username="floor", role="floor")
    event = factories.make_event(name="Freeroll")
    factories.make_entries(event=event, count=2)
    login(page, live_server, "floor")
    page.goto(f"{live_server.url}/events/{event.pk}/floor/tables/")
    page.wait_for_selector("#entries")
    assert page.locator("#money").count() == 0
    assert page.locator("[data-testid=register-price]").count() == 0
