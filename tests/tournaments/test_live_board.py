"""The event's board on the live bus (tournaments.live_board): the standings and the chip-up
banner travel with each change, so that 500 phones do not each fetch them (issue 17)."""

from __future__ import annotations

import json
import os

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.services import StackInput, record_busts
from tests.factories import make_entries, make_event, make_structure
from tournaments import live, live_board
from tournaments.live_clock import BusMessage, Cursor
from tournaments.models import LiveMessage
from tournaments.services import ClockAction, act_on_clock

REDIS_URL = os.environ.get("REDIS_URL", "")

pytestmark = pytest.mark.django_db


def published_boards(event) -> list[dict]:
    rows = LiveMessage.objects.filter(channel=live.channel_for(event.pk)).order_by("id")
    return [m["board"] for m in (json.loads(r.payload) for r in rows) if "board" in m]


def test_a_bust_out_publishes_the_board_that_a_get_answers_byte_for_byte(
    client, settings, floor_user, django_capture_on_commit_callbacks
):
    """R5.6: the bust is placed; the page shows the board the stream brought exactly as its own
    GET would have, in each language, and the GET says when it read it (Board-Stamp)."""
    settings.LIVE_BUS = "db"
    event = make_event()
    entries = make_entries(event=event, count=3, status="playing")
    with django_capture_on_commit_callbacks(execute=True):
        record_busts(
            event_id=event.pk,
            actor=floor_user,
            busts=[StackInput(entry_id=entries[0].pk, stack=None)],
        )
    (board,) = published_boards(event)
    for language in ("en", "de"):
        for part, name in (
            ("standings", "scoring:standings"),
            ("chip_up", "tables:chip_up_banner"),
        ):
            response = client.get(reverse(name, args=[event.code]), HTTP_ACCEPT_LANGUAGE=language)
            assert response.content.decode() == board["views"][language][part], (language, part)
            assert int(response[live_board.STAMP_HEADER]) > board["stamp"]  # read after it
    assert entries[0].player.name in board["views"]["en"]["standings"]
    assert "3." in board["views"]["en"]["standings"]  # third of three (R5.6)


def test_the_board_follows_the_level_but_not_a_pause_or_time_added(
    settings, floor_user, django_capture_on_commit_callbacks
):
    """The purchase windows and the chip-ups due follow the level in force: a level change
    publishes the board; a pause, a resume or time added leave it as it was (no render)."""
    settings.LIVE_BUS = "db"
    event = make_event(structure=make_structure(levels=((25, 50, 0, 12), (50, 100, 10, 12))))
    counts = []
    for action, extra in (
        (ClockAction.START, {}),
        (ClockAction.PAUSE, {}),
        (ClockAction.RESUME, {}),
        (ClockAction.ADD_TIME, {"seconds": 60}),
        (ClockAction.NEXT, {}),
    ):
        with django_capture_on_commit_callbacks(execute=True):
            act_on_clock(event_id=event.pk, actor=floor_user, action=action, **extra)
        counts.append((action, len(published_boards(event))))
    assert counts == [
        (ClockAction.START, 1),
        (ClockAction.PAUSE, 1),
        (ClockAction.RESUME, 1),
        (ClockAction.ADD_TIME, 1),
        (ClockAction.NEXT, 2),
    ]


@pytest.mark.skipif(not REDIS_URL, reason="needs the real Redis at REDIS_URL")
@pytest.mark.django_db(transaction=True)
def test_on_redis_the_clocks_publish_keeps_its_phase_in_the_same_round_trip(settings, floor_user):
    """Production: whether the level moved is read back from the clock's kept state, in the
    pipeline that keeps and publishes it; a pause publishes no board."""
    settings.LIVE_BUS = "redis"
    settings.REDIS_URL = REDIS_URL
    live._redis.cache_clear()
    event = make_event()
    published = []
    pubsub = live._redis().pubsub()
    pubsub.subscribe(live.channel_for(event.pk))
    subscribed = pubsub.get_message(timeout=30.0)  # the subscription stands before any press
    assert subscribed is not None and subscribed["type"] == "subscribe"
    try:
        for action in (ClockAction.START, ClockAction.PAUSE, ClockAction.NEXT):
            act_on_clock(event_id=event.pk, actor=floor_user, action=action)
            while message := pubsub.get_message(timeout=2.0):
                if message["type"] == "message":
                    published.append((action, sorted(json.loads(message["data"]))))
    finally:
        pubsub.close()
        live._redis().delete(f"live:clock:{live.namespace()}:{event.pk}")
        live._redis.cache_clear()
    clock = ["at", "clock", "event", "id", "what"]
    board = ["at", "board", "event", "what"]
    assert published == [
        (ClockAction.START, clock),
        (ClockAction.START, board),
        (ClockAction.PAUSE, clock),
        (ClockAction.NEXT, clock),
        (ClockAction.NEXT, board),
    ]


def board_message(stamp: int, text: str) -> BusMessage:
    views = {"en": {"standings": text, "chip_up": ""}, "de": {"standings": text, "chip_up": ""}}
    payload = {"event": 1, "what": "standings", "at": timezone.now().isoformat()}
    return BusMessage.parse(json.dumps({**payload, "board": {"stamp": stamp, "views": views}}))


def test_a_stream_never_sends_an_older_board_after_a_newer():
    """Two changes published out of the order they were read in (two web processes): the tab
    keeps the board read later, which holds both changes."""
    cursor = Cursor(language="de", last_event_id=None)
    newer, older = board_message(2_000, "both busts"), board_message(1_000, "the first bust")
    frame = cursor.frame(newer)
    assert frame is not None and frame.startswith(b"event: standings\ndata: {")
    assert b"\nid:" not in frame  # the tab's Last-Event-ID stays its clock's
    assert json.loads(frame.split(b"data: ", 1)[1]) == {
        "stamp": 2_000,
        "standings": "both busts",
        "chip_up": "",
    }
    assert cursor.frame(older) is None
    assert cursor.frame(newer) is None  # nor the same one twice
    assert cursor.frame(board_message(2_001, "later")) is not None
