"""One stream per tab for all its tables and the viewer's private events (nudges only), and
the presence it records for R3.10."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from tables.online import live as online_live
from tables.online import play as online_play
from tables.online import publish as online_publish
from tables.online.models import Presence
from tests.tables.online_helpers import make_table, seat_players
from tournaments import live


def frames_of(chunks):
    return [json.loads(c.split("data: ", 1)[1]) for c in chunks if c.startswith("event: changed")]


@pytest.mark.django_db(transaction=True)
def test_one_wsgi_stream_carries_several_tables_and_only_its_viewers_private_events(settings):
    settings.LIVE_BUS = "db"
    first, second, third = make_table(), make_table(name="Two"), make_table(name="Three")
    alice, bob = seat_players(first, ["alice", "bob"])
    stream = online_live.stream_tables_sync(
        [first.pk, second.pk], user_id=alice.pk, seconds=1.5, heartbeat=0.3, language="en"
    )  # its page's language: the stream marks it, and the tables' messages carry them in it
    assert next(stream).startswith("retry: 2000\n")
    current = frames_of([next(stream), next(stream)])  # each table's version at once
    assert {frame["table"] for frame in current} == {first.pk, second.pk}
    online_play.deal_hand(table=first)  # a public change, and alice's turn (private)
    online_publish.publish_table_changed(third.pk)  # not followed by this tab
    online_publish.publish_user_event(bob.pk, what="chips")  # another player's: not here
    frames = frames_of(list(stream))
    assert {f.get("table") for f in frames if "version" in f} == {first.pk}
    private = [f for f in frames if "user" in f]
    assert private and all(f["user"] == alice.pk for f in private)
    assert {f["what"] for f in private} <= {"private", "chips"}
    # The stream carries the table: the public table (its commitment is public, R1.1) and
    # alice's own part; never the deck or its secret.
    public = [f for f in frames if f.get("table") == first.pk and "user" not in f]
    assert all("html" in f for f in public)
    text = json.dumps(frames)
    hand = first.hands.get()
    cards = hand.cards()
    assert json.dumps(list(cards.deck)) not in text and cards.secret.hex() not in text


@pytest.mark.django_db(transaction=True)
def test_the_stream_marks_the_player_connected_then_dropped_r3_10(settings):
    settings.LIVE_BUS = "db"
    table = make_table()
    (alice,) = seat_players(table, ["alice"])

    async def scenario():
        stream = online_live.stream_tables([table.pk], user_id=alice.pk, heartbeat=0.2)
        assert (await anext(stream)).startswith("retry: 2000\n")
        presence = await sync_to_async(Presence.objects.get)(user=alice)
        assert presence.streams == 1 and presence.dropped_at is None
        assert (await anext(stream)).startswith("event: changed")  # the table's version
        reader = asyncio.create_task(anext(stream))
        await asyncio.sleep(0.05)
        reader.cancel()  # the tab closes: the server cancels the task reading the stream
        with pytest.raises(asyncio.CancelledError):
            await reader
        await stream.aclose()
        hub = await live.get_hub()
        assert hub.subscribers() == 0
        await hub.stop()

    asyncio.run(scenario())
    presence = Presence.objects.get(user=alice)
    assert presence.streams == 0 and presence.dropped_at is not None
    assert not online_play.is_connected(alice.pk, now=presence.dropped_at)


@pytest.mark.django_db(transaction=True)
def test_a_player_at_a_busy_table_stays_present_however_long_he_plays_r3_10(settings, monkeypatch):
    """His stream carries a message more often than a heartbeat would come, so no heartbeat
    ever renewed his presence: after two minutes of play the sweeper counted him as dropped,
    every player saw him "Disconnected", and his next time-out gave him the disconnect
    protection (R3.10) though he was there. His presence is renewed on a timer instead."""
    settings.LIVE_BUS = "db"
    monkeypatch.setattr(online_live, "PRESENCE_REFRESH_SECONDS", 0.3)
    monkeypatch.setattr(online_play, "CONNECTED_WITHIN", timedelta(seconds=1))  # of 45
    table = make_table()
    (alice,) = seat_players(table, ["alice"])

    def last_seen():
        return Presence.objects.get(user=alice).last_seen

    def connected():
        return online_play.is_connected(alice.pk, now=timezone.now())

    def busy(version: int) -> None:
        live.publish(
            online_publish.table_channel(table.pk), online_publish.nudge(table.pk, version)
        )

    async def scenario():
        stream = online_live.stream_tables([table.pk], user_id=alice.pk, heartbeat=60)
        await anext(stream)  # connected
        await anext(stream)  # the table's version
        opened = await sync_to_async(last_seen)()
        version, renewed, started = 10_000, opened, time.monotonic()
        # Busy for longer than CONNECTED_WITHIN, and until renewed (a generous cap).
        async with asyncio.timeout(30):
            while renewed == opened or time.monotonic() - started < 1.5:
                version += 1
                await sync_to_async(busy)(version)
                assert (await anext(stream)).startswith("event: changed")  # never a heartbeat
                renewed = await sync_to_async(last_seen)()
        still = await sync_to_async(connected)()
        await stream.aclose()
        return opened, renewed, still

    opened, renewed, still = asyncio.run(scenario())
    assert renewed > opened
    assert still, "counted as dropped while his stream was open: the protection would be his"
