"""An admin builds a structure in real Chromium with the htmx editor and sees its chart."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from tests.browser.conftest import login
from tests.factories import make_user
from tournaments.models import BlindStructure
from tournaments.presets import load_presets

SCREENSHOTS = Path(
    os.environ.get("SCREENSHOT_DIR", Path(tempfile.gettempdir()) / "floorman-screens")
)


def add_level(page, small, big, minutes="15"):
    row = page.locator("#level-add-row")
    row.locator("[name=small_blind]").fill(small)
    row.locator("[name=big_blind]").fill(big)
    row.locator("[name=minutes]").fill(minutes)
    row.get_by_role("button", name="Add level").click()


def blinds_in_table(page):
    cells = page.locator("#levels tbody tr.level td:nth-child(3)").all_inner_texts()
    return [c.strip() for c in cells]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_admin_builds_a_structure_with_the_editor(page, phone_page, live_server):
    load_presets()
    make_user(username="boss", role="admin")
    login(page, live_server, "boss")
    page.get_by_role("link", name="Blind structures").click()

    form = page.locator("#new-structure form")
    form.get_by_label("Name").fill("Thursday")
    form.get_by_label("Starting stack").fill("5000")
    form.get_by_role("button", name="Create").click()
    page.wait_for_selector("#level-add-row")
    editor_url = page.url

    add_level(page, "25", "50")
    page.wait_for_function("() => document.querySelectorAll('#levels tr.level').length === 1")
    add_level(page, "100", "200")
    page.wait_for_function("() => document.querySelectorAll('#levels tr.level').length === 2")
    add_level(page, "50", "100")
    page.wait_for_selector("#levels .errorlist")
    # Going down is refused with the level number; nothing was added.
    assert "Level 3: the small blind goes down (100 → 50)." in page.inner_text("#levels")
    assert page.url == editor_url  # htmx swapped the fragment, no page load
    assert blinds_in_table(page) == ["25", "100"]

    # Insert the 50/100 level before the 100/200 one instead.
    page.locator("#level-2").get_by_role("link", name="+ before").click()
    insert = page.locator("#level-insert-row")
    insert.locator("[name=small_blind]").fill("50")
    insert.locator("[name=big_blind]").fill("100")
    insert.locator("[name=minutes]").fill("15")
    insert.get_by_role("button", name="Insert").click()
    page.wait_for_function("() => document.querySelectorAll('#levels tr.level').length === 3")
    assert blinds_in_table(page) == ["25", "50", "100"]

    # A break after level 1, moved down one place.
    page.locator("#level-add-row [name=kind]").select_option("break")
    page.locator("#level-add-row [name=small_blind]").fill("")
    page.locator("#level-add-row [name=big_blind]").fill("")
    page.locator("#level-add-row [name=minutes]").fill("10")
    page.locator("#level-add-row").get_by_role("button", name="Add level").click()
    page.wait_for_function("() => document.querySelectorAll('#levels tr.level').length === 4")
    page.locator("#level-4").get_by_role("button", name="Move up").click()
    page.wait_for_selector("#level-3.break")
    kinds = page.locator("#levels tbody tr.level td:nth-child(2)").all_inner_texts()
    assert kinds == ["Level", "Level", "Break", "Level"]

    # Edit the last level inline: a small blind above the big blind is a form error, then fixed.
    page.locator("#level-4").get_by_role("link", name="Edit").click()
    edit = page.locator("#level-edit-row")
    edit.locator("[name=small_blind]").fill("300")
    edit.get_by_role("button", name="Save").click()
    page.wait_for_selector("#levels .errorlist")
    assert "cannot be above the big blind" in page.inner_text("#levels")
    page.locator("#level-edit-row [name=small_blind]").fill("100")
    page.locator("#level-edit-row [name=ante]").fill("25")
    page.locator("#level-edit-row").get_by_role("button", name="Save").click()
    page.wait_for_selector("#level-edit-row", state="detached")
    structure = BlindStructure.objects.get(name="Thursday")
    assert [(lv.kind, lv.small_blind, lv.big_blind, lv.ante) for lv in structure.levels.all()] == [
        ("play", 25, 50, 0),
        ("play", 50, 100, 0),
        ("break", 0, 0, 0),
        ("play", 100, 200, 25),
    ]
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / "editor.png", full_page=True)

    page.get_by_role("link", name="Shape and chart").click()
    page.wait_for_selector("svg.shape-chart polyline")
    assert page.locator("svg.shape-chart circle.dot").count() == 3
    assert "Expected length with 10 players" in page.inner_text("#shape")
    page.screenshot(path=SCREENSHOTS / "structure-new.png", full_page=True)

    deepstack = BlindStructure.objects.get(name="Deepstack (R5.4)")
    page.goto(f"{live_server.url}{deepstack.get_absolute_url()}?players=30&stack=10000")
    page.wait_for_selector("svg.shape-chart polyline")
    page.screenshot(path=SCREENSHOTS / "structure.png", full_page=True)
    page.goto(f"{live_server.url}/structures/{deepstack.pk}/edit/")
    page.screenshot(path=SCREENSHOTS / "editor-preset.png", full_page=True)

    phone_page.goto(f"{live_server.url}{deepstack.get_absolute_url()}")
    phone_page.wait_for_selector("svg.shape-chart polyline")
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, "the structure page scrolls sideways on a phone"
    phone_page.screenshot(path=SCREENSHOTS / "structure-phone.png", full_page=True)
