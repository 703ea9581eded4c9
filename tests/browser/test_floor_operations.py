"""The floor runs a night in real Chromium: seat draw, a three-player hand, the plan, the phone."""

from __future__ import annotations

import os
import re

import pytest

from tests import factories
from tests.browser.conftest import login
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("FLOOR_SCREENSHOTS", "")


def _shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name), full_page=True)


def test_floor_draws_busts_a_hand_and_the_moved_players_phone_says_where_to_go(
    live_server, page, phone_page
):
    factories.make_user(username="floor", role="floor")
    event = factories.make_event(name="Friday Deepstack")
    factories.make_entries(event=event, count=20)

    login(page, live_server, "floor")
    page.goto(f"{live_server.url}/events/{event.pk}/floor/tables/")
    page.fill("input[name=tables]", "2")
    page.fill("input[name=seats_per_table]", "10")
    page.click("form.draw-form button[type=submit]")
    page.wait_for_selector("[data-testid=table-2]")
    assert page.locator("[data-testid=floor-players-left]").inner_text() == "20 / 20"

    rows = page.locator("[data-testid=table-1] tbody tr:has(input[type=checkbox])")
    names = []
    for index, stack in enumerate(["2500", "9000", "4000"]):
        row = rows.nth(index)
        names.append(row.locator("td.name").inner_text())
        row.locator("input[type=checkbox]").check()
        row.locator("input.stack").fill(stack)
    page.locator("[data-testid=table-1] button[type=submit].danger").click()
    page.wait_for_selector("[data-testid=plan]")

    # R5.6: more chips at the start of the hand, higher place
    standings = page.locator("#standings")
    assert standings.locator("tr[data-place='18']").inner_text().split("\t")[1] == names[1]
    assert standings.locator("tr[data-place='19']").inner_text().split("\t")[1] == names[2]
    assert standings.locator("tr[data-place='20']").inner_text().split("\t")[1] == names[0]
    assert page.locator("[data-testid=halt-alert]").is_visible()
    move_text = page.locator("[data-testid=plan-move]").first.inner_text()
    waits = page.locator("[data-testid=plan-move]").first.get_attribute("data-waits") == "yes"
    assert "TDA 11A" in move_text
    mover = move_text.split(":")[0].strip()
    target = re.search(r"table (\d+) seat (\d+)\n", move_text + "\n")
    assert target is not None
    to_table, to_seat = target.groups()
    _shot(page, "floor-plan.png")

    entry = Entry.objects.get(event=event, player__name=mover)
    phone_page.goto(f"{live_server.url}/e/{event.code}/seats/?name={mover}")
    phone_page.click(f"#found a:has-text('{mover}')")
    phone_page.wait_for_selector("[data-testid=my-seat]")
    assert phone_page.url.endswith(f"/seats/{entry.pk}/")
    assert phone_page.locator("[data-testid=go-to]").count() == 0

    page.click("text=Confirm: the moves are made")
    page.wait_for_selector("[data-testid=plan]", state="detached")
    assert page.locator("[data-testid=halt-alert]").count() == 0
    _shot(page, "floor-after.png")

    # The phone polls its seat fragment: the move shows without a reload.
    go_to = phone_page.locator("[data-testid=go-to]")
    go_to.wait_for(timeout=12_000)
    expected = f"Go to table {to_table}, seat {to_seat}"
    if waits:  # TDA 10B: all the free seats lay between the small blind and the button
        expected += " — you are dealt in after the button passes"
    assert go_to.inner_text() == expected
    _shot(phone_page, "phone-seat.png")
