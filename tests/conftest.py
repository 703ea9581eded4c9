"""Shared pytest fixtures."""

from __future__ import annotations

import os

import pytest
from django.utils import translation

from tests import factories


def pytest_collection_modifyitems(config, items):
    """Browser tests run last: Playwright's sync API keeps an event loop running in the main
    thread for the rest of the session, and other tests use asyncio.run()."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """In CI a skipped test fails: there every service and file a test may need is present."""
    report = yield
    if os.environ.get("CI") and report.skipped:
        report.outcome = "failed"
        report.longrepr = f"skipped in CI, which must run every test: {report.longrepr}"
    return report


# Tests whose users log in to servers started as processes (gunicorn, the embedded default):
# those servers know only the production hashers.
_REAL_HASHERS_UNDER = ("tests/integration/", "tests/bench/")
_QUICK_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session", autouse=True)
def _no_keys_of_an_earlier_run(django_db_setup):
    """A run's test database has the name of the last run's and counts its events from 1 again,
    so the shared Redis still held that run's kept clock states and board phases under the same
    ids (tournaments.live_clock.namespace): a new event could be served an old event's clock, or
    its first level change publish no board (seen: a stream test that passed alone failed after
    an earlier run). The keys of this database's namespace go before its first test."""
    from django.conf import settings  # noqa: PLC0415 - the test database's name, now set

    from tournaments.live_clock import namespace  # noqa: PLC0415

    url = os.environ.get("REDIS_URL")
    if not url or "Redis" not in settings.CACHES["default"]["BACKEND"]:
        return
    import redis  # noqa: PLC0415

    client = redis.Redis.from_url(url)
    try:
        keys = list(client.scan_iter(match=f"*:{namespace()}:*", count=1_000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.fixture(autouse=True)
def _quick_passwords(request):
    """PBKDF2's production work factor costs about 0.4 s for each user a test makes and each
    log-in: a large share of the suite's time. Tests served in this process hash with MD5."""
    path = request.node.path.as_posix()
    if any(part in path for part in _REAL_HASHERS_UNDER):
        yield
        return
    from django.test.utils import override_settings

    with override_settings(PASSWORD_HASHERS=_QUICK_HASHERS):
        yield


@pytest.fixture(autouse=True)
def _language_ends_with_the_test():
    """LocaleMiddleware activates a request's language and never resets it; the test client
    serves requests in the test's thread, so without this the next test would inherit it."""
    yield
    translation.deactivate()


@pytest.fixture
def floor_user(db):
    return factories.make_user(username="floor", role="floor")


@pytest.fixture
def admin_user(db):
    return factories.make_user(username="admin", role="admin")


@pytest.fixture
def player_user(db):
    return factories.make_user(username="player", role="player")


@pytest.fixture
def redis_round_trips(monkeypatch):
    """How many times the test's thread sent Redis anything (a command, or a pipeline's
    commands at once), counted as it goes: ``[count]``. Other threads (a stream's, a
    presence announcement's) are not counted."""
    import threading

    from redis.connection import AbstractConnection

    sent = [0]
    send = AbstractConnection.send_packed_command
    test_thread = threading.get_ident()

    def counted(self, command, check_health=True):
        if threading.get_ident() == test_thread:
            sent[0] += 1
        return send(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
    return sent
