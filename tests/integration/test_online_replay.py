"""A table's stream that drops and reconnects catches up by its Last-Event-ID (issue 17), under
uvicorn on Redis as in production: exactly the versions it missed and the viewer's own messages
in order; the table as it stands when they are no longer kept; never another player's part.
A player's drop shows on his table at once after the grace, and his return (R3.10). The clock's
stream resumes from ``?last=`` as from the header.

The moves run in the test process through the services, whose on_commit publications go over
the same Redis; uvicorn serves config.asgi on pytest's test database.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

import pytest
import redis
from django.conf import settings
from django.test import Client

from tables.engine import card_name
from tables.online import play as online_play
from tables.online import replay
from tables.online.models import OnlineTable, TableHand
from tests import factories
from tests.integration.conftest import (
    TEST_REDIS_DB,
    uvicorn_server,
    wait_until,
)
from tests.integration.sse import Stream, drain, next_clock
from tests.tables.online_helpers import check_or_call, make_table, seat_players, stacked_deck
from tournaments import services

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

HOLES = ["AhKd", "QsJs"]  # alice, bob
QUIET = 1.5  # seconds without a message: the catch-up is over
GRACE_DEADLINE = 2.0 + 3.0  # tables.online.live's grace, and 3 s for a busy 2-core machine


def _own_redis_url() -> str:
    # The kept messages in a Redis database of this worker's own: other tests clear the
    # shared one's cache (cache.clear() is a FLUSHDB) while these run. Pub/sub ignores the
    # database number, so the test process's publications still reach uvicorn.
    return urlsplit(settings.REDIS_URL)._replace(path=f"/{TEST_REDIS_DB}").geturl()


@pytest.fixture(scope="module")
def server(django_db_setup, tmp_path_factory) -> Iterator[str]:
    """uvicorn with config.asgi on the test database and the test process's Redis."""
    assert settings.LIVE_BUS == "redis", "the replay test needs REDIS_URL (the production bus)"
    with uvicorn_server(tmp_path_factory.mktemp("uvicorn"), redis_url=_own_redis_url()) as base:
        yield base


@pytest.fixture(autouse=True)
def kept(redis_test_url, settings) -> redis.Redis:
    """The test process's cache, where its changes keep their messages (tables.online.replay),
    is uvicorn's: the worker's own Redis database, flushed before and after."""
    cache = {"BACKEND": "config.cache.RedisCache", "LOCATION": redis_test_url}
    settings.CACHES = {"default": cache}
    return redis.Redis.from_url(redis_test_url)


@pytest.fixture
def open_stream() -> Iterator[Callable[..., Stream]]:
    streams: list[Stream] = []

    def opener(url: str, *, user=None, last_event_id: str | None = None) -> Stream:
        cookies = None
        if user is not None:
            client = Client()
            client.force_login(user)
            name = settings.SESSION_COOKIE_NAME
            cookies = {name: client.cookies[name].value}
        stream = Stream(url, last_event_id=last_event_id, cookies=cookies)
        streams.append(stream)
        stream.wait_connected()
        return stream

    yield opener
    for stream in streams:
        stream.close()


def _move(table: OnlineTable) -> int:
    """The player to act checks, or calls; the table's version after it."""
    check_or_call(table)
    table.refresh_from_db()
    return table.version


def _public(found):
    return [message for _id, message in found if "user" not in message]


def _own(found):
    return [message for _id, message in found if "user" in message]


def _cards(hand: TableHand) -> dict[int, list[str]]:
    engine = online_play.engine_of(hand)
    return {
        user_id: [card_name(card) for card in engine.hole_cards[position]]
        for position, user_id in enumerate(hand.user_ids)
    }


def _html(found) -> str:
    return " ".join(html for _id, m in found for html in (m.get("html") or {}).values())


def _dealt(open_stream, server):
    """alice and bob at a table, a hand dealt; alice's stream has read it all."""
    table = make_table()
    alice, bob = seat_players(table, ["alice", "bob"])
    url = f"{server}/play/events/?t={table.pk}"
    first = open_stream(url, user=alice)
    drain(first, QUIET)  # the version on connect
    hand = online_play.deal_hand(table=table, deck=stacked_deck(HOLES))
    assert hand is not None
    seen = drain(first, QUIET)
    table.refresh_from_db()
    assert _public(seen)[-1]["version"] == table.version, "the deal did not reach the stream"
    assert _own(seen), "alice's part of the deal did not reach her stream"
    return table, alice, bob, hand, url, first, seen[-1][0]


def _wait_for_the_drop(table: OnlineTable, version: int) -> int:
    """Her last stream closed: after the grace her table gets a version (R3.10)."""
    wait_until(
        lambda: OnlineTable.objects.get(pk=table.pk).version > version,
        timeout=GRACE_DEADLINE,
        what="the drop's version",
    )
    table.refresh_from_db()
    return table.version


def test_a_reconnect_gets_exactly_the_versions_and_own_messages_it_missed(open_stream, server):
    table, alice, _bob, _hand, url, first, last_id = _dealt(open_stream, server)
    _tables, seq = last_id.split(",p=")
    first.close()
    published = [_wait_for_the_drop(table, table.version)]
    published += [_move(table) for _ in range(3)]  # preflop's call and check, a flop check

    opened = time.monotonic()
    again = open_stream(url, user=alice, last_event_id=last_id)
    found = drain(again, QUIET)
    table.refresh_from_db()
    # Back: more time on her turn (R3.10) and connected again, each a version of its own.
    published += range(published[-1] + 1, table.version + 1)
    public = _public(found)
    assert public, "nothing came on the reconnect"
    assert time.monotonic() - opened < QUIET + 2.0
    assert [message["version"] for message in public] == sorted(set(published))
    assert 'data-testid="away-1"' in public[0]["html"]["en"]  # the drop: her seat is 1
    assert 'data-testid="away-1"' not in public[-1]["html"]["en"]  # back
    # Her own messages after the last she had, each once, in order: none missing (each names
    # the one before it), to her last.
    own = _own(found)
    assert own, "none of her own messages came"
    chain = [int(seq)] + [message["seq"] for message in own]
    assert [message["prev"] for message in own] == chain[:-1]
    assert chain[-1] == replay.user_count(alice.pk)
    assert {message["user"] for message in own} == {alice.pk}
    # The last id says it all: a tab that reconnects with it gets nothing more.
    last = found[-1][0]
    assert last == f"t{table.pk}={table.version},p={replay.user_count(alice.pk)}"
    again.close()  # and at once again (within the grace: no drop shows)
    assert drain(open_stream(url, user=alice, last_event_id=last), QUIET) == []


def test_a_gap_older_than_what_is_kept_brings_the_current_table_and_own_part(
    open_stream, server, kept
):
    table, alice, _bob, hand, url, first, last_id = _dealt(open_stream, server)
    first.close()
    _wait_for_the_drop(table, table.version)
    for _ in range(3):
        _move(table)
    # What she missed is no longer kept (as after KEEP_SECONDS, or KEEP_MESSAGES moves).
    kept.zremrangebyrank(replay.table_key(table.pk, table.created_at), 0, -2)
    kept.delete(replay.user_key(alice.pk))

    again = open_stream(url, user=alice, last_event_id=last_id)
    found = drain(again, QUIET)
    table.refresh_from_db()
    public = _public(found)
    assert [message["version"] for message in public] == [table.version]
    own = _own(found)
    assert [(message["user"], message["what"]) for message in own] == [(alice.pk, "private")]
    assert own[0]["version"] == table.version
    cards = _cards(hand)
    assert all(f'data-card="{code}"' in _html(found) for code in cards[alice.pk])


def test_another_players_id_never_yields_his_part(open_stream, server):
    """The own messages come from the set of the session's user: bob (or nobody) who sends
    alice's id gets nothing of hers."""
    table, alice, bob, hand, url, first, last_id = _dealt(open_stream, server)
    cards = _cards(hand)
    tables, _seq = last_id.split(",p=")
    early = f"{tables.split('=')[0]}=0,p=0"  # as far back as there is
    for user in (bob, None):
        stream = open_stream(url, user=user, last_event_id=early)
        found = drain(stream, QUIET)
        assert _public(found), "the table did not come"
        assert not any(f'data-card="{code}"' in _html(found) for code in cards[alice.pk])
        assert {message["user"] for message in _own(found)} <= ({bob.pk} if user else set())
    # Alice's own id, read as bob: still nothing of hers.
    stream = open_stream(url, user=bob, last_event_id=last_id.replace(",p=", ",p=0"))
    assert not any(f'data-card="{code}"' in _html(drain(stream, QUIET)) for code in cards[alice.pk])


def test_the_others_see_a_drop_at_once_and_no_flap_on_a_reload(open_stream, server):
    """R3.10: her last stream closes: bob's page gets her table with "Disconnected" on her
    seat after the grace, and without it when she is back; a reload (closed and open again at
    once) shows nothing."""
    table = make_table()
    alice, bob = seat_players(table, ["alice", "bob"])
    url = f"{server}/play/events/?t={table.pk}"
    watching = open_stream(url, user=bob)
    hers = open_stream(url, user=alice)
    drain(watching, QUIET)

    hers.close()
    closed = time.monotonic()
    public = []
    while not public:
        assert time.monotonic() - closed < GRACE_DEADLINE + QUIET, "the drop never showed"
        public = _public(drain(watching, QUIET))
    assert 'data-testid="away-1"' in public[-1]["html"]["en"]
    assert 'data-testid="away-2"' not in public[-1]["html"]["en"]

    back = open_stream(url, user=alice)
    public = _public(drain(watching, QUIET))
    assert public and 'data-testid="away-1"' not in public[-1]["html"]["en"]

    # A reload: her stream closes and the next one opens at once. Nothing flaps.
    version = OnlineTable.objects.get(pk=table.pk).version
    back.close()
    open_stream(url, user=alice)
    assert _public(drain(watching, GRACE_DEADLINE)) == []
    assert OnlineTable.objects.get(pk=table.pk).version == version


def test_the_clock_stream_resumes_from_the_last_parameter(open_stream, server, floor_user):
    """clock.js opens a new stream itself with ``?last=``: the same as the header."""
    event = factories.make_event(code="rply01")
    first = open_stream(f"{server}/e/{event.code}/events/")
    _received, seen = next_clock(first, timeout=5)
    first.close()
    services.act_on_clock(event_id=event.pk, actor=floor_user, action=services.ClockAction.START)
    again = open_stream(f"{server}/e/{event.code}/events/?last={seen['id']}")
    _received, state = next_clock(again, timeout=2.0)
    assert (state["version"], state["status"]) == (1, "running")
    # A tab that has the current state gets nothing more on connect (heartbeats later).
    current = open_stream(f"{server}/e/{event.code}/events/?last={state['id']}")
    time.sleep(1.0)
    names = [current.events.get_nowait()[1] for _ in range(current.events.qsize())]
    assert "clock" not in names, names
