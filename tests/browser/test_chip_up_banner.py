"""R5.11: the chip-up banners follow each table's race at once, without a reload."""

from __future__ import annotations

import os

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tables.chipup_services import race_chip_up
from tables.models import Seat, Table
from tests.browser.conftest import login
from tests.factories import make_entries, make_event, make_structure, make_user
from tournaments.models import Denomination, EntryStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = os.environ.get("FLOOR_SCREENSHOTS", "")
FOLLOW_MS = 2_000  # docs/architecture.md: every page shows a floor action within 2 seconds


@pytest.fixture
def chip_up_due(settings):
    """Level 1 (chip-up of the 25s) has ended; two tables of three players."""
    settings.LIVE_WSGI_STREAM_SECONDS = 30  # the threaded test server is WSGI
    floor = make_user(username="floor", role="floor")
    structure = make_structure(name="Chip-up night")
    first = structure.levels.get(position=1)
    first.chip_up = Denomination.objects.get(chip_set=structure.chip_set, value=25)
    first.save()
    event = make_event(structure=structure, name="Chip-up night", code="chip123")
    event.clock_level_index, event.clock_level_started_at = 1, timezone.now()
    event.status = "running"
    event.save()
    entries = make_entries(event=event, count=6)
    for number in (1, 2):
        table = Table.objects.create(event=event, number=number, seats=10, button_seat=1)
        for seat, entry in zip((1, 4, 7), entries[3 * (number - 1) : 3 * number], strict=True):
            entry.status = EntryStatus.PLAYING
            entry.save()
            Seat.objects.create(table=table, number=seat, entry=entry)
    return event, floor


def _race(event, floor, table):
    seats = Seat.objects.filter(table__event=event, table__number=table)
    race_chip_up(
        event_id=event.pk, table_number=table, level_index=0, no_other_chips=set(), actor=floor,
        small_chips={s.entry_id: 2 for s in seats},
    )  # fmt: skip


def test_r5_11_the_chip_up_banners_change_as_tables_race_without_a_reload(
    live_server, page, phone_page, tv_page, chip_up_due
):
    event, floor = chip_up_due
    tv = tv_page
    login(page, live_server, "floor")
    page.goto(f"{live_server.url}/events/{event.pk}/floor/")
    phone_page.goto(f"{live_server.url}/e/{event.code}/")
    tv.goto(f"{live_server.url}/e/{event.code}/tv/")
    banners = [
        page.get_by_test_id("chip-up-banner"),
        phone_page.get_by_test_id("chip-up-live"),
        tv.get_by_test_id("chip-up-live"),
    ]
    for banner in banners:
        expect(banner).to_contain_text("2 tables still to race")
    page.evaluate("window.notReloaded = true")
    _race(event, floor, 1)
    for banner in banners:
        expect(banner).to_contain_text("1 table still to race", timeout=FOLLOW_MS)
    assert page.evaluate("window.notReloaded") is True  # swapped in, not a reload
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "chip-up-desktop.png"))
        phone_page.screenshot(path=os.path.join(SHOTS, "chip-up-phone.png"))
    _race(event, floor, 2)
    for banner in banners:
        expect(banner).to_have_count(0, timeout=FOLLOW_MS)  # every table raced: no banner
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 360
