"""The purchase windows in the public standings fragment (TV and phones): with money only, at
the clock's level, closed once the clock has passed the window's last level."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import make_entries, make_event, make_structure
from tournaments.models import EventMoney, EventStatus

pytestmark = pytest.mark.django_db

LEVELS = [(25 * n, 50 * n, 0, 12) for n in range(1, 9)]  # eight play levels


def windows_event(**settings):
    """Eight levels, a break after level 2 (index 2), and the given money settings."""
    event = make_event(structure=make_structure(levels=LEVELS, breaks_after=[1]), code="win8")
    EventMoney.objects.create(event=event, **settings)
    make_entries(event=event, count=3, status="playing")
    return event


def at_index(event, index):
    """The clock at a position of the structure (the break after level 2 is index 2)."""
    event.clock_level_index, event.clock_level_started_at = index, timezone.now()
    event.status = EventStatus.RUNNING
    event.save()


def fragment(client, event, language="en") -> str:
    response = client.get(
        reverse("scoring:standings", args=[event.code]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    return response.content.decode()


FULL = {
    "buy_in": 2000, "fee": 200, "late_registration_last_level": 4,
    "rebuy_price": 2000, "rebuy_chips": 3000, "rebuy_last_level": 6,
    "add_on_price": 1000, "add_on_chips": 5000, "add_on_first_level": 6, "add_on_last_level": 7,
    "re_entry": True,
}  # fmt: skip


def test_the_windows_show_at_the_clocks_level(client):
    event = windows_event(**FULL)
    at_index(event, 4)  # level 4 (the break after level 2 counts as level 2)
    html = fragment(client, event)
    assert 'data-testid="purchase-windows"' in html
    assert "Late registration open until the end of level 4" in html
    assert "Rebuys open until the end of level 6" in html
    assert "Add-on from level 6 until the end of level 7" in html
    assert "Re-entry open until the end of level 4" in html  # closes with late registration


def test_the_windows_close_once_the_clock_passes_their_last_level(client):
    event = windows_event(**FULL)
    at_index(event, 5)  # level 5
    html = fragment(client, event)
    assert "Late registration closed" in html
    assert "Re-entry closed" in html
    assert "Rebuys open until the end of level 6" in html
    at_index(event, 6)  # level 6: the add-on opens
    assert "Add-on open until the end of level 7" in fragment(client, event)
    at_index(event, 7)  # level 7
    html = fragment(client, event)
    assert "Rebuys closed" in html
    assert "Add-on open until the end of level 7" in html
    at_index(event, 8)  # level 8
    assert "Add-on closed" in fragment(client, event)


def test_a_break_belongs_to_the_level_before_it(client):
    event = windows_event(buy_in=2000, late_registration_last_level=2)
    at_index(event, 2)  # the break after level 2
    assert "Late registration open until the end of level 2" in fragment(client, event)
    at_index(event, 3)  # level 3
    assert "Late registration closed" in fragment(client, event)


def test_only_the_windows_the_event_offers(client):
    event = windows_event(buy_in=2000, rebuy_price=1000, rebuy_chips=3000)
    html = fragment(client, event)
    assert "Rebuys open" in html
    for absent in ("Late registration", "Add-on", "Re-entry"):
        assert absent not in html


def test_german(client):
    event = windows_event(**FULL)
    at_index(event, 5)
    html = fragment(client, event, "de")
    assert "Nachmeldung geschlossen" in html
    assert "Rebuys offen bis zum Ende von Level 6" in html
    assert "Add-on ab Level 6 bis zum Ende von Level 7" in html


def test_a_freeroll_shows_no_window(client):
    event = make_event(code="free1")
    make_entries(event=event, count=3, status="playing")
    at_index(event, 1)
    html = fragment(client, event)
    assert "purchase-windows" not in html
    for word in ("Late registration", "Rebuys", "Add-on", "Re-entry", "€"):
        assert word not in html


def test_a_finished_event_shows_no_window(client):
    event = windows_event(**FULL)
    at_index(event, 1)
    event.status = EventStatus.FINISHED
    event.save()
    assert "purchase-windows" not in fragment(client, event)


def test_the_tv_and_the_phone_load_the_fragment_that_shows_them(client):
    """The pages themselves hold the standings fragment's loader: fetched as the page loads,
    then carried by the stream, polled as its fallback (fm:board-poll, static/js/clock.js)."""
    event = windows_event(**FULL)
    standings = reverse("scoring:standings", args=[event.code])
    for url in (f"/e/{event.code}/", f"/e/{event.code}/tv/"):
        page = client.get(url).content.decode()
        assert f'data-board-part="standings" hx-get="{standings}"' in page
        assert 'hx-trigger="load, fm:changed from:body, fm:board-poll from:body"' in page
