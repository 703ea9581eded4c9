"""Shared browser fixtures: one headless Debian Chromium per session, a page per test, log-in."""

from __future__ import annotations

import os

import pytest

# Playwright's sync API runs an event loop in this thread; the ORM calls in tests are still sync.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium, headless; never a downloaded browser."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"),
            args=CHROMIUM_ARGS,
            headless=True,
        )
        yield chromium
        chromium.close()


@pytest.fixture(autouse=True)
def _drops_shown_before_the_database_goes():
    """A page's stream that ended shows its player's drop after a grace, from a timer of the
    test server (tables.online.live): it runs before the test's database is flushed."""
    yield
    from tables.online import live as online_live

    online_live.wait_for_announcements()


@pytest.fixture
def page(browser):
    """A desktop page (1280x800) in a fresh context."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def phone_page(browser):
    """A phone page (360x740, mobile, touch) in a fresh context."""
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def login(page, live_server, username, password="pw"):
    """Log in through the real log-in form and wait for the redirect away from it."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form button[type=submit].primary")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
