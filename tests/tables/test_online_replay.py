"""A tab that reconnects says what it has (issue 17, ``Last-Event-ID``): the stream's ids, the
catch-up on the database bus (which keeps nothing: the current table and the viewer's own part),
and a player's drop shown on his tables at once, after a grace (R3.10). The catch-up from the
messages kept in Redis: tests/integration/test_online_replay.py."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from tables.engine import card_name
from tables.online import live as online_live
from tables.online import play as online_play
from tables.online import publish as online_publish
from tables.online.models import OnlineTable, Presence
from tables.online.replay import number_user_message
from tests.tables.online_helpers import make_table, seat_players, stacked_deck
from tournaments.live_clock import BusMessage

HOLES = ["AhKd", "QsJs"]


def changed(frames: list[str]) -> list[tuple[str, dict]]:
    """(SSE id, message) of each `changed` frame."""
    found = []
    for frame in frames:
        fields = dict(line.split(": ", 1) for line in frame.strip().splitlines() if ": " in line)
        if fields.get("event") == "changed":
            found.append((fields["id"], json.loads(fields["data"])))
    return found


def html_of(found: list[tuple[str, dict]]) -> str:
    return " ".join(html for _id, message in found for html in message.get("html", {}).values())


def test_the_id_says_each_tables_version_and_the_own_messages_number():
    cursor = online_live.Cursor(tables={8: 13, 7: 42}, private=105)
    assert cursor.event_id() == "t7=42,t8=13,p=105"
    assert online_live.Cursor.parse(cursor.event_id()) == ({7: 42, 8: 13}, 105)
    assert online_live.Cursor.parse("t7=42") == ({7: 42}, None)  # nobody logged in
    assert online_live.Cursor.parse("") is None and online_live.Cursor.parse(None) is None
    # What is not ours is ignored, never an error: a clock id, garbage.
    assert online_live.Cursor.parse("3.1700000000000") == ({}, None)
    assert online_live.Cursor.parse("tx=1,p=-4,t9=,=5") == ({}, None)


def test_the_cursor_sends_each_version_once_and_each_own_message_once():
    cursor = online_live.Cursor(tables={7: 42}, private=3, replayed={4})
    table = BusMessage.parse(json.dumps({"table": 7, "version": 42, "html": {}}))
    assert not cursor.admit(table)  # the tab has version 42
    assert cursor.admit(BusMessage.parse(json.dumps({"table": 7, "version": 44})))
    assert not cursor.admit(BusMessage.parse(json.dumps({"table": 7, "version": 43})))
    assert cursor.tables == {7: 44}
    assert not cursor.admit(BusMessage.parse(json.dumps({"seq": 4, "user": 1})))  # replayed
    assert cursor.admit(BusMessage.parse(json.dumps({"seq": 6, "user": 1})))
    # An own message that overtook another on the bus: the other still goes (another table's),
    # and the id says the last one sent (a reconnect sends the 6th again: the page skips it).
    assert cursor.admit(BusMessage.parse(json.dumps({"seq": 5, "user": 1})))
    assert cursor.private == 5
    assert cursor.frame("{}") == "event: changed\nid: t7=44,p=5\ndata: {}\n\n"
    # After a gap the tab got its part as it stands: what was counted before says no more.
    after_gap = online_live.Cursor(tables={}, private=9, covered=9)
    assert not after_gap.admit(BusMessage.parse(json.dumps({"seq": 8, "user": 1})))
    assert after_gap.admit(BusMessage.parse(json.dumps({"seq": 10, "user": 1})))


@pytest.mark.django_db(transaction=True)
def test_on_the_database_bus_a_reconnect_gets_the_table_and_only_its_own_part(settings):
    """Nothing is kept on the database bus: a tab that says what it has gets the table as it
    stands and its viewer's own part of it, his cards; never another player's."""
    settings.LIVE_BUS = "db"
    table = make_table()
    alice, bob = seat_players(table, ["alice", "bob"])
    hand = online_play.deal_hand(table=table, deck=stacked_deck(HOLES))
    assert hand is not None
    engine = online_play.engine_of(hand)
    cards = {
        user_id: [card_name(card) for card in engine.hole_cards[position]]
        for position, user_id in enumerate(hand.user_ids)
    }
    table.refresh_from_db()

    def reconnect(user_id: int | None, last: str) -> list[tuple[str, dict]]:
        cursor, frames = online_live.catch_up([table.pk], user_id=user_id, last_event_id=last)
        return changed(frames)

    mine = reconnect(alice.pk, f"t{table.pk}=0,p=0")
    public = [message for _id, message in mine if "user" not in message]
    assert [message["version"] for message in public] == [table.version]
    assert "data-public" in public[0]["html"]["en"] and "data-public" in public[0]["html"]["de"]
    own = [message for _id, message in mine if "user" in message]
    assert [(message["user"], message["what"]) for message in own] == [(alice.pk, "private")]
    text = html_of(mine)
    assert all(f'data-card="{code}"' in text for code in cards[alice.pk])
    assert not any(f'data-card="{code}"' in text for code in cards[bob.pk])
    assert mine[-1][0] == f"t{table.pk}={table.version},p=0"

    # Bob says alice's id: he gets his own part, nothing of hers.
    his = reconnect(bob.pk, mine[-1][0].replace(f"={table.version}", "=0"))
    assert {message.get("user") for _id, message in his} == {None, bob.pk}
    assert not any(f'data-card="{code}"' in html_of(his) for code in cards[alice.pk])
    assert all(f'data-card="{code}"' in html_of(his) for code in cards[bob.pk])
    # A spectator's tab has no part of its own: the public table only, no live card.
    watching = reconnect(None, f"t{table.pk}=0,p=0")
    assert [message.get("user") for _id, message in watching] == [None]
    assert not any(f'data-card="{c}"' in html_of(watching) for c in sum(cards.values(), []))
    # A tab that has the table now gets nothing more of it.
    assert reconnect(None, f"t{table.pk}={table.version}") == []


@pytest.mark.django_db
def test_on_the_database_bus_an_own_message_goes_as_it_is(settings):
    settings.LIVE_BUS = "db"
    assert json.loads(number_user_message(5, {"user": 5, "what": "chips", "seq": 9})) == {
        "user": 5,
        "what": "chips",
    }


@pytest.fixture
def published(monkeypatch):
    """The table messages published: (version, public html in English)."""
    found: list[tuple[int, str]] = []
    real, real_many = online_publish.publish, online_publish.publish_many

    def seen(channel: str, payload: str) -> None:
        message = json.loads(payload)
        if ":table:" in channel:
            found.append((message["version"], message["html"]["en"]))

    def publish(channel: str, payload: str) -> None:
        seen(channel, payload)
        real(channel, payload)

    def publish_many(messages: list[tuple[str, str]]) -> None:
        for channel, payload in messages:
            seen(channel, payload)
        real_many(messages)

    monkeypatch.setattr(online_publish, "publish", publish)
    monkeypatch.setattr(online_publish, "publish_many", publish_many)
    return found


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("watched")
def test_a_dropped_player_shows_on_his_table_at_once_and_back_again_r3_10(settings, published):
    """R3.10: the server saw his last stream end. After the grace his table gets a version
    whose public table marks his seat "Disconnected"; when he is back, one without the mark."""
    settings.LIVE_BUS = "db"
    table = make_table()
    alice, _bob = seat_players(table, ["alice", "bob"])
    other = make_table(name="Elsewhere")  # no seat of hers: untouched
    assert not online_live.stream_opened(alice.pk)
    table.refresh_from_db()
    before, other_before = table.version, other.version

    assert online_live.stream_closed(alice.pk)  # her last stream
    assert online_live.announce_drop(alice.pk) == 1
    table.refresh_from_db()
    assert table.version == before + 1
    assert OnlineTable.objects.get(pk=other.pk).version == other_before
    assert published[-1][0] == table.version
    assert 'data-testid="away-1"' in published[-1][1]

    # Back after longer than the grace: the mark goes with a new version.
    Presence.objects.filter(user=alice).update(
        dropped_at=timezone.now() - timedelta(seconds=online_live.PRESENCE_GRACE_SECONDS + 1)
    )
    assert online_live.stream_opened(alice.pk)
    assert online_live.announce_presence(alice.pk) == 1
    assert published[-1][0] == before + 2
    assert 'data-testid="away-1"' not in published[-1][1]


@pytest.mark.django_db(transaction=True)
def test_a_page_reload_does_not_flap_the_mark(settings, published):
    """A reload closes the page's stream and opens the next within the grace: nothing shows."""
    settings.LIVE_BUS = "db"
    table = make_table()
    (alice,) = seat_players(table, ["alice"])
    online_live.stream_opened(alice.pk)
    table.refresh_from_db()
    version = table.version
    published.clear()  # her seat's
    assert online_live.stream_closed(alice.pk)
    assert not online_live.stream_opened(alice.pk)  # back at once: his tables never showed it
    assert online_live.announce_drop(alice.pk) == 0  # the grace's end: he is there
    assert OnlineTable.objects.get(pk=table.pk).version == version
    assert published == []
    # A second tab's stream closing is no drop.
    online_live.stream_opened(alice.pk)
    assert not online_live.stream_closed(alice.pk)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("watched")
def test_a_stream_that_died_with_its_process_shows_on_the_table_when_swept(settings, published):
    """The sweeper counts a presence silent for 45 seconds as dropped (R3.10): his table
    shows it then, as after a drop the server saw."""
    settings.LIVE_BUS = "db"
    table = make_table()
    (alice,) = seat_players(table, ["alice"])
    online_live.stream_opened(alice.pk)
    Presence.objects.filter(user=alice).update(last_seen=timezone.now() - timedelta(minutes=3))
    published.clear()
    assert online_live.drop_stale_presence() == 1
    assert published and 'data-testid="away-1"' in published[-1][1]
    assert online_live.drop_stale_presence() == 0  # once
