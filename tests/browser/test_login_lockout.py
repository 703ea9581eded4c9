"""In real Chromium: five wrong passwords, then the right one meets the lock's page (issue 16)."""

from __future__ import annotations

import pytest

from tests.factories import make_user
from tournaments.models import AuditEvent

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def submit(page, live_server, username, password):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form button[type=submit].primary")
    page.wait_for_load_state()


def test_the_lock_is_explained_and_the_right_password_waits(page, live_server):
    make_user(username="anna", password="right-one")
    for _ in range(4):
        submit(page, live_server, "anna", "wrong")
        assert page.locator("form .errorlist").count() == 1  # the form again, with its error
    submit(page, live_server, "anna", "wrong")
    submit(page, live_server, "anna", "right-one")
    notice = page.get_by_test_id("locked-out")
    notice.wait_for()
    assert "Too many failed log-ins" in notice.inner_text()
    assert "15 minutes" in notice.inner_text()
    assert "/accounts/login/" in page.url  # not let in
    # Audited: the lock, and the attempt refused while it holds.
    assert AuditEvent.objects.filter(action="login.locked_out").count() == 2
