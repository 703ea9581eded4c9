"""Log-in attempts are limited by account and by address (django-axes), audited (issue 16)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_user
from tournaments.models import AuditEvent

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
LIMIT = 5


@pytest.fixture(autouse=True)
def fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def attempt(client, username, password, *, address="10.0.0.1", language="en"):
    return client.post(
        LOGIN,
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE=language,
    )


def logged_in(client):
    return "_auth_user_id" in client.session


def test_five_wrong_passwords_lock_the_account_and_the_address(client):
    make_user(username="anna", password="right-one")
    make_user(username="bert", password="bert-pass")
    for _ in range(LIMIT - 1):
        assert attempt(client, "anna", "wrong").status_code == 200  # the form again
    locked = attempt(client, "anna", "wrong")
    assert locked.status_code == 429
    # The right password no longer opens the account, from this address or another one ...
    response = attempt(client, "anna", "right-one")
    assert response.status_code == 429 and not logged_in(client)
    assert "Too many failed log-ins: after 5 wrong passwords" in response.content.decode()
    assert "locked for 15 minutes" in response.content.decode()
    assert attempt(client, "anna", "right-one", address="10.0.0.2").status_code == 429
    # ... and the address may not log in to another account either.
    assert attempt(client, "bert", "bert-pass").status_code == 429
    assert not logged_in(client)
    # Another account from another address is not affected.
    assert attempt(client, "bert", "bert-pass", address="10.0.0.3").status_code == 302
    assert logged_in(client)


def test_the_lock_is_explained_in_german(client):
    make_user(username="anna", password="right-one")
    for _ in range(LIMIT):
        attempt(client, "anna", "wrong")
    response = attempt(client, "anna", "right-one", language="de")
    assert response.status_code == 429
    assert "Zu viele fehlgeschlagene Anmeldungen" in response.content.decode()
    assert "für 15 Minuten gesperrt" in response.content.decode()


def test_a_lockout_is_audited_and_visible_to_the_admin(client, admin_user):
    make_user(username="anna", password="right-one")
    for _ in range(LIMIT):
        attempt(client, "anna", "wrong", address="10.0.0.9")
    audit = AuditEvent.objects.get(action="login.locked_out")
    assert audit.data == {"username": "anna", "ip_address": "10.0.0.9"}
    assert audit.actor is None
    client.force_login(admin_user)
    page = client.get(reverse("admin:axes_accessattempt_changelist")).content.decode()
    assert "anna" in page and "10.0.0.9" in page


def test_a_successful_log_in_resets_the_count(client):
    make_user(username="anna", password="right-one")
    for _round in range(3):
        for _ in range(LIMIT - 1):
            attempt(client, "anna", "wrong")
        assert attempt(client, "anna", "right-one").status_code == 302
        assert logged_in(client)
        client.logout()
    assert not AuditEvent.objects.filter(action="login.locked_out").exists()


def test_force_login_is_not_limited(client, admin_user):
    for _ in range(LIMIT):
        attempt(client, "admin", "wrong")
    client.force_login(admin_user)
    assert client.get(reverse("admin:index")).status_code == 200
