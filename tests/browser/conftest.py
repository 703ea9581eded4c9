"""Shared browser fixtures: one headless Debian Chromium per session, a page per test, log-in."""

from __future__ import annotations

import functools
import os
import threading
import time

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


@pytest.fixture
def tv_page(browser):
    """A TV page (1920x1080) in a fresh context, closed even when its test fails (an open page
    polling the test server kept every later test of the worker from seeing it idle)."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
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


def wait_for(condition, seconds=20.0):
    """Until the server has done it (a generous cap for a loaded machine)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError("the server never saw it")


def wait_for_the_server_idle(seconds=20.0):
    """Until the test server serves no request: its pages closed, every stream of theirs has
    run to its end (a stream still opening when its page closed writes its player's presence
    after the close; were the database flushed then, the flush and that write deadlock)."""

    def serving():
        return any(
            thread.is_alive() and thread.name.endswith("(process_request_thread)")
            for thread in threading.enumerate()
        )

    wait_for(lambda: not serving(), seconds)


def close_pages(contexts):
    """Close the pages' contexts; then the test server has served their last request (each
    stream run to its end) and seen every stream end, before the database goes."""
    from tables.online.models import Presence

    for context in contexts:
        context.close()
    wait_for_the_server_idle()
    wait_for(lambda: not Presence.objects.filter(streams__gt=0).exists())


# -- an online table's pages (tests/browser/test_online_*.py) -----------------------------------


@pytest.fixture
def table(settings, monkeypatch):
    """An online table of six, its pages' streams held by the threaded test server."""
    from tables.online import live as online_live
    from tests.tables.online_helpers import make_table

    # The threaded test server is WSGI: let it hold a bounded event stream per page, longer than
    # a test, so that no stream ends (a drop the server would see) while a test runs; its
    # heartbeat every half second finds a closed tab at once (a write to it fails).
    settings.LIVE_WSGI_STREAM_SECONDS = 120
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast log-ins
    stream = online_live.stream_tables_sync
    monkeypatch.setattr(online_live, "stream_tables_sync", functools.partial(stream, heartbeat=0.5))
    return make_table(seats=6, name="Online 1")


@pytest.fixture
def new_page(browser, table):
    """Pages in fresh contexts (a phone's when asked); closed after the test, and the server
    has seen every stream end before the database goes."""

    contexts = []

    def new_page(*, phone=False, locale=None):
        language = {"locale": locale} if locale else {}  # Accept-Language: the page's language
        if phone:
            context = browser.new_context(
                viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, **language
            )
        else:
            context = browser.new_context(viewport={"width": 1280, "height": 800}, **language)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    yield new_page
    close_pages(contexts)
