"""Fixtures of the online tables' tests."""

from __future__ import annotations

import pytest

from tables.online import languages
from tables.online import services as online_services


@pytest.fixture
def watched(monkeypatch):
    """Every online table the test opens is watched in each language of the site: a tab's
    stream marks it (tables.online.languages), so its messages carry the public table, as a
    table people watch does (one nobody watches is sent as a bare nudge). The marks go with
    the test: the cache outlives it. They last the test however long a loaded machine makes it
    (a stream renews its marks every heartbeat; this one renews none)."""
    monkeypatch.setattr(languages, "LISTENING_SECONDS", 3_600)
    opened: list[int] = []
    open_table = online_services.open_table

    def open_and_watch(**kwargs):
        table = open_table(**kwargs)
        for code in languages.codes():
            languages.mark_listening([table.pk], None, code)
        opened.append(table.pk)
        return table

    monkeypatch.setattr(online_services, "open_table", open_and_watch)
    yield opened
    languages.forget_listening(opened, [])
