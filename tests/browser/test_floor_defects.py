"""The floor in real Chromium: a tie by the card in hand (R5.6), the small blind's seat (R2.7),
and a "hand done" report taken back (TDA RP-8), at desktop and phone width."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from scoring import hand_for_hand_services as hand_for_hand
from scoring.services import StackInput, record_busts
from tests.browser.conftest import login
from tests.factories import make_user
from tests.floor_helpers import at_table, seated_event
from tournaments.models import Entry, Event, EventKind

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("FLOOR_SCREENSHOTS", "")


def _shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name), full_page=True)


def _satellite_on_the_bubble():
    """20 entrants, 4 qualify (R5.5); busted down to 5: hand-for-hand hand 1 (TDA RP-8)."""
    event, _ = seated_event(players=20, tables=2)
    Event.objects.filter(pk=event.pk).update(kind=EventKind.SATELLITE)
    for table, count in ((1, 8), (2, 7)):
        out = at_table(event, table)[:count]
        record_busts(
            event_id=event.pk, actor=None,
            busts=[StackInput(entry_id=e.pk, stack=1_000 + 100 * i) for i, e in enumerate(out)],
        )  # fmt: skip
    return event


@pytest.mark.parametrize("width", [1280, 360])
def test_the_floor_ties_by_the_card_in_hand_sets_the_blinds_and_takes_back_a_report(
    live_server, browser, width
):
    make_user(username="floor", role="floor")
    event = _satellite_on_the_bubble()
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    login(page, live_server, "floor")
    page.goto(f"{live_server.url}/events/{event.pk}/floor/tables/")
    expect(page.get_by_test_id("qualifying-rule")).to_contain_text("20 entrants: 4 qualify.")

    # TDA RP-8: table 2 reports the hand done, then takes the report back.
    page.locator("[data-testid=hand-done-2] button").click()
    expect(page.get_by_test_id("take-back-2")).to_be_visible()
    _shot(page, f"floor-hand-done-{width}.png")
    page.get_by_test_id("take-back-2").click()
    expect(page.get_by_test_id("take-back-2")).to_have_count(0)
    assert hand_for_hand.open_hand(event).done_tables == []

    # R2.7: the button and the small blind of table 1, shown where the button is.
    seats = sorted(_occupied(event, 1))
    card = page.get_by_test_id("table-1")
    card.locator("input[name=seat]").fill(str(seats[0]))
    card.locator("input[name=small_blind]").fill(str(seats[1]))
    card.locator("form.button-form button").click()
    expect(page.get_by_test_id("small-blind-1")).to_be_visible()
    expect(page.get_by_test_id("blinds-1")).to_contain_text(f"small blind seat {seats[1]}")

    # R5.6: two players of table 1 with equal stacks: refused without the card in hand, then
    # placed by it.
    rows = page.locator("[data-testid=table-1] tbody tr:has(input[type=checkbox])")
    names = [rows.nth(i).locator("td.name").inner_text().strip() for i in (0, 1)]
    for i in (0, 1):
        rows.nth(i).locator("input[type=checkbox]").check()
        rows.nth(i).locator("input.stack").fill("2000")
    page.locator("[data-testid=table-1] button[type=submit].danger").click()
    expect(page.get_by_test_id("floor-error")).to_contain_text("higher card in each one")
    _shot(page, f"floor-tie-error-{width}.png")
    rows = page.locator("[data-testid=table-1] tbody tr:has(input[type=checkbox])")
    for i, card_in_hand in ((0, "Qd"), (1, "Qs")):
        rows.nth(i).locator("input[type=checkbox]").check()
        rows.nth(i).locator("input.stack").fill("2000")
        rows.nth(i).locator("input.card-input").fill(card_in_hand)
    page.locator("[data-testid=table-1] button[type=submit].danger").click()
    expect(page.locator("#standings tr[data-place='4']")).to_contain_text(names[1])  # spades
    expect(page.locator("#standings tr[data-place='5']")).to_contain_text(names[0])
    assert page.evaluate("document.documentElement.scrollWidth") <= max(width, 360) + 1
    _shot(page, f"floor-after-tie-{width}.png")
    context.close()


def _occupied(event, table):
    return [e.seat.number for e in Entry.objects.filter(event=event, seat__table__number=table)]
