"""Money on the floor in real Chromium: register with a buy-in, a rebuy, the pool and the chips."""

from __future__ import annotations

import os

import pytest

from tests import factories
from tests.browser.conftest import login
from tournaments.entry_services import register_entry
from tournaments.models import Entry, EventMoney, Purchase

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


def test_a_german_phone_records_a_bust_and_who_won_the_bounty(live_server, browser):
    factories.make_user(username="floor", role="floor")
    event = factories.make_event(name="Kopfgeld")
    EventMoney.objects.create(event=event, buy_in=2000, fee=200, bounty=500)
    for name in ("Anna", "Bert", "Carl"):
        register_entry(event_id=event.pk, actor=None, name=name, check_in=True)
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, locale="de-DE"
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    login(page, live_server, "floor")
    page.goto(f"{live_server.url}/events/{event.pk}/floor/tables/")
    page.fill("input[name=tables]", "1")
    page.click("form.draw-form button[type=submit]")
    page.wait_for_selector("[data-testid=table-1]")
    anna, bert = (Entry.objects.get(player__name=name) for name in ("Anna", "Bert"))
    row = page.locator(f"[data-testid=table-1] tr:has(#out-{anna.pk})")
    row.locator("input[type=checkbox]").check()
    row.locator("input.stack").fill("1200")
    page.locator("[data-testid=table-1] button[type=submit].danger").click()
    page.wait_for_selector("[data-testid=floor-error]")  # who busted her? asked, nothing changed
    assert "wer ihn ausgeschaltet hat" in page.inner_text("[data-testid=floor-error]")
    row = page.locator(f"[data-testid=table-1] tr:has(#out-{anna.pk})")
    row.locator("input[type=checkbox]").check()
    row.locator("input.stack").fill("1200")
    row.locator(f"select[name=by-{anna.pk}]").select_option(str(bert.pk))
    page.locator("[data-testid=table-1] button[type=submit].danger").click()
    page.wait_for_selector(f"[data-testid=money-row-{bert.pk}]")
    assert "5,00\u00a0€" in page.inner_text(f"[data-testid=money-row-{bert.pk}]")
    assert Entry.objects.get(pk=anna.pk).busted_by_id == bert.pk
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    _shot(page, "money-bounty-phone-de.png")
    context.close()
