"""The season leaderboard on a 360 px phone follows a corrected result (real Chromium)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.scoring.season_helpers import finished_event, make_season

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("SCREENSHOT_DIR", "var/screenshots"))


def points_of(page, name):
    return page.locator(f'tr[data-player="{name}"]').get_attribute("data-points")


def test_leaderboard_on_a_phone_shows_the_corrected_standings(phone_page, live_server):
    season = make_season(name="Winter 2026")
    finished_event(season=season, names=["Anna", "Bert", "Cleo", "Dora"], name="Night 1")
    night = finished_event(season=season, names=["Cleo", "Anna", "Bert"], name="Night 2")
    page = phone_page
    page.goto(f"{live_server.url}/seasons/{season.pk}/")
    assert page.locator('tr[data-rank="1"]').first.get_attribute("data-player") == "Anna"
    assert points_of(page, "Anna") == "6" and points_of(page, "Cleo") == "5"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "season-leaderboard-360.png"), full_page=True)
    # Nothing is wider than the phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    # The floor corrects night 2: Anna won it, Cleo came second.
    anna, cleo = night.entries.get(player__name="Anna"), night.entries.get(player__name="Cleo")
    anna.place, cleo.place = 1, 2
    anna.save()
    cleo.save()
    page.reload()
    assert points_of(page, "Anna") == "7" and points_of(page, "Cleo") == "4"
    assert page.locator('tr[data-rank="1"]').first.get_attribute("data-player") == "Anna"
    # Cleo 2 + 2 and Bert 3 + 1: equal points share second place.
    assert page.locator('tr[data-player="Bert"]').get_attribute("data-rank") == "2"
    assert page.locator('tr[data-player="Cleo"]').get_attribute("data-rank") == "2"
