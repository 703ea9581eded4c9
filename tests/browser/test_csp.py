"""The Content-Security-Policy in real Chromium (issue 16): the main pages load and work (the
clock ticks, an htmx action lands, the table and the replayer draw, the admin's scripts run) and
the browser reports no violation; an inline script without the nonce is refused."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.online import play as online_play
from tests.browser.conftest import login
from tests.factories import make_event, make_structure, make_user
from tests.tables.online_helpers import make_table, seat_players

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every violation in every frame of every page loaded, as the page sees it (this runs before
# any page script), told to the test through the console, which outlives a navigation.
LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const seen = `${e.violatedDirective} ${e.blockedURI} ${e.sample || ""}`;
  window.__csp.push(seen);
  console.log(`CSP violation: ${seen} on ${document.location.pathname}`);
});
"""


@pytest.fixture
def watched(browser, settings):
    """A page that records CSP violations (event and console), script errors and requests
    answered 404."""
    settings.LIVE_WSGI_STREAM_SECONDS = 30
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(LISTEN)
    page = context.new_page()
    page.set_default_timeout(10_000)
    problems: list[str] = []
    page.on(
        "console",
        lambda m: (
            problems.append(m.text)
            if "CSP violation" in m.text or "Content Security Policy" in m.text
            else None
        ),
    )
    page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
    # Nothing a page asks for by itself is missing (the browser's icon was, on every page).
    page.on(
        "response",
        lambda r: problems.append(f"{r.status}: {r.url}") if r.status == 404 else None,
    )
    yield page, problems
    context.close()


def test_an_inline_script_without_the_nonce_is_refused_and_reported(live_server, watched):
    """The listener works, and the policy has no 'unsafe-inline' for scripts."""
    page, violations = watched
    page.goto(f"{live_server.url}/")
    page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.__ran = 1'; document.body.append(s); }"
    )
    page.wait_for_function("() => window.__csp.length > 0")
    assert page.evaluate("window.__ran") is None
    assert any(v.startswith("script-src") for v in page.evaluate("window.__csp"))
    assert any("CSP violation: script-src" in v for v in violations)


def test_the_main_pages_work_under_the_policy(live_server, watched):
    make_user(username="floor", role="floor")
    make_user(username="boss", role="admin")
    structure = make_structure(levels=((25, 50, 0, 12), (50, 100, 25, 12)))
    event = make_event(structure=structure, name="CSP night", code="csp123")
    table = make_table(name="CSP table")
    alice, bob = seat_players(table, ["alice", "bob"])
    hand = online_play.deal_hand(table=table)
    online_play.act(table=table, user=alice, hand_id=hand.pk, sequence=0, action="fold")
    online_play.deal_hand(table=table)
    page, violations = watched
    base = live_server.url

    page.goto(f"{base}/")
    expect(page.locator("main")).to_be_visible()
    # The floor dashboard: an htmx action (start the clock) lands in place.
    login(page, live_server, "floor")
    page.goto(f"{base}/events/{event.pk}/floor/")
    page.get_by_role("button", name="Start the clock").click()
    expect(page.get_by_test_id("clock-status")).to_have_text("Running")
    # The TV and the phone: clock.js ticks the countdown.
    for path in (f"/e/{event.code}/tv/", f"/e/{event.code}/"):
        page.goto(base + path)
        countdown = page.locator("[data-countdown]")
        first = countdown.inner_text()
        expect(countdown).not_to_have_text(first, timeout=5_000)
    # The online table, alone and framed in "My tables" (frame-ancestors 'self'), as alice.
    login(page, live_server, "alice")
    page.goto(f"{base}/play/t/{table.pk}/")
    expect(page.get_by_test_id("seat-2")).to_contain_text("bob")
    expect(page.get_by_test_id("actions").or_(page.get_by_test_id("seat-1"))).to_be_visible()
    page.goto(f"{base}/play/mine/?t={table.pk}")
    framed = page.frame_locator("iframe[data-table]").first
    expect(framed.get_by_test_id("seat-2")).to_contain_text("bob")
    # Her finished hand in the replayer (replayer.js steps through it).
    page.goto(f"{base}/play/hands/{hand.pk}/")
    replayer = page.get_by_test_id("replayer")
    replayer.get_by_role("button", name="Next").click()
    expect(replayer.locator("[data-step-count]")).to_contain_text("2 /")
    # The admin: the index, a list and a form with the admin's own scripts.
    login(page, live_server, "boss")
    for path in ("/admin/", "/admin/tournaments/event/", f"/admin/tournaments/event/{event.pk}/"):
        response = page.goto(base + path.replace(f"/{event.pk}/", f"/{event.pk}/change/"))
        assert response is not None and response.status == 200, path
        policy = response.headers["content-security-policy"]
        assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]
    # The admin's date widgets are drawn by its scripts: they ran.
    expect(page.locator(".datetimeshortcuts").first).to_be_attached()
    assert violations == []
    assert bob  # dealt in


@pytest.mark.urls("tests.browser.csp_urls")
def test_htmx_runs_a_swapped_script_only_if_the_server_gave_it_the_fragments_nonce(
    live_server, watched
):
    """static/js/page.js: a fragment's scripts that carry its response's nonce run with the
    page's; a script without it (as injected markup would be) is refused."""
    page, violations = watched
    page.goto(f"{live_server.url}/csp-page/")
    page.get_by_role("button", name="Load").click()
    expect(page.get_by_test_id("fragment")).to_have_text("swapped")
    expect(page.locator("body")).to_have_attribute("data-marked", "yes")
    page.wait_for_function("() => window.__csp.length > 0")
    assert page.evaluate("document.body.dataset.injected") is None
    assert [v for v in violations if "script-src" in v]
