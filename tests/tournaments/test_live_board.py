"""The event's board on the live bus (tournaments.live_board): the standings and the chip-up
banner travel with each change, so that 500 phones do not each fetch them (issue 17)."""

from __future__ import annotations

import json
import os

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from scoring.services import StackInput, record_busts, record_quit
from scoring.templatetags.payout_tags import PUBLIC_PLACES
from tables.models import Seat, Table
from tests.factories import make_entries, make_event, make_structure
from tests.scoring.payout_helpers import money_event
from tournaments import live, live_board
from tournaments.entry_base import publish_standings
from tournaments.live_clock import BusMessage, Cursor
from tournaments.models import Denomination, EventKind, LiveMessage
from tournaments.services import ClockAction, act_on_clock

REDIS_URL = os.environ.get("REDIS_URL", "")

pytestmark = pytest.mark.django_db


def published_boards(event) -> list[dict]:
    rows = LiveMessage.objects.filter(channel=live.channel_for(event.pk)).order_by("id")
    return [m["board"] for m in (json.loads(r.payload) for r in rows) if "board" in m]


def board_reads(settings, event, languages) -> tuple[int, dict]:
    """The queries of one board of the event in ``languages``, and its views."""
    settings.LANGUAGES = languages
    with CaptureQueriesContext(connection) as read:
        board = json.loads(live_board.board_payload(event.pk))["board"]
    return len(read.captured_queries), board["views"]


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


def test_a_transaction_publishes_one_board_however_many_of_its_writes_change_it(
    settings, floor_user, django_capture_on_commit_callbacks
):
    """Issue 17: the director's tick (its busts, then a table broken seat by seat) rendered the
    board after its commit once for every write, a 1,000-place board at 140 ms each: the first,
    read after the commit, holds them all. The next transaction publishes its own."""
    settings.LIVE_BUS = "db"
    event = make_event()
    other = make_event(structure=event.structure)
    for boards in (1, 2):
        with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
            publish_standings(event.pk)
            publish_standings(event.pk)
            publish_standings(other.pk)
            publish_standings(event.pk)
        assert len(callbacks) == 4
        assert len(published_boards(event)) == boards and len(published_boards(other)) == boards


def test_the_public_standings_list_the_first_fifty_places_and_say_how_many_more(
    client, settings, floor_user, django_capture_on_commit_callbacks
):
    """A field of 1,000 made the board's standings 97 KB in each language, sent to every phone
    after every bust (issue 17). The TV and the phones list the fifty most recent busts (the
    best places once it is over) and say how many more; the floor's own list has them all."""
    settings.LIVE_BUS = "db"
    event = make_event()
    entries = make_entries(event=event, count=PUBLIC_PLACES + 4, status="playing")
    busts = [StackInput(entry_id=e.pk, stack=1_000 + i) for i, e in enumerate(entries[:-2])]
    with django_capture_on_commit_callbacks(execute=True):
        record_busts(event_id=event.pk, actor=floor_user, busts=busts)  # places 54 to 3
    standings = published_boards(event)[-1]["views"]["en"]["standings"]
    assert standings.count("<tr data-place=") == PUBLIC_PLACES
    assert 'data-place="3"' in standings and f'data-place="{PUBLIC_PLACES + 3}"' not in standings
    assert "And 2 more places." in standings
    assert reverse("seasons:event_results_csv", args=[event.pk]) in standings
    german = published_boards(event)[-1]["views"]["de"]["standings"]
    assert "Und 2 weitere Plätze." in german
    client.force_login(floor_user)
    floor = client.get(reverse("floor:tables", args=[event.pk]))
    assert floor.content.decode().count("<tr data-place=") == PUBLIC_PLACES + 2


def test_a_reading_shared_by_the_boards_languages_labels_each_in_its_own(
    client, settings, floor_user, django_capture_on_commit_callbacks
):
    """The board's renders read the standings once for both languages: a quit's label (R5.9)
    is still each language's own, and each part is still what its GET answers."""
    settings.LIVE_BUS = "db"
    event = make_event()
    entries = make_entries(event=event, count=3, status="playing")
    with django_capture_on_commit_callbacks(execute=True):
        record_quit(event_id=event.pk, actor=floor_user, entry_id=entries[0].pk, stack=1_000)
    views = published_boards(event)[-1]["views"]
    assert ">Quit<" in views["en"]["standings"] and ">Aufgegeben<" in views["de"]["standings"]
    url = reverse("scoring:standings", args=[event.code])
    for language in ("en", "de"):
        answer = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert answer == views[language]["standings"]


def test_a_money_events_board_shares_its_reading_and_words_each_language_its_own(
    client, settings, floor_user, django_capture_on_commit_callbacks
):
    """The payouts and the purchase windows are read once for the board's languages too: the
    amounts and windows are still each language's own ("€", "20,00 €"), byte for byte what the
    GET answers."""
    settings.LIVE_BUS = "db"
    event = money_event(actor=floor_user, players=4)
    anna = event.entries.order_by("pk").first()
    with django_capture_on_commit_callbacks(execute=True):
        record_busts(
            event_id=event.pk, actor=floor_user, busts=[StackInput(entry_id=anna.pk, stack=500)]
        )
    views = published_boards(event)[-1]["views"]
    # Four buy-ins of €30.00: the pool in each language's own words.
    assert 'data-testid="prize-pool">€120.00<' in views["en"]["standings"]
    assert 'data-testid="prize-pool">120,00\xa0€<' in views["de"]["standings"]
    url = reverse("scoring:standings", args=[event.code])
    for language in ("en", "de"):
        answer = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert answer == views[language]["standings"]


def test_the_boards_languages_read_the_event_once_between_them(settings):
    """Issue 17: every reading of a board is shared by its languages (the standings, the
    payouts, the purchase windows, a satellite's rule (R5.5), the chip-up due (R5.11)): a board
    in two languages asks the database what a board in one asks, words and all."""
    structure = make_structure(name="Chip-up satellite")
    first = structure.levels.get(position=1)
    first.chip_up = Denomination.objects.get(chip_set=structure.chip_set, value=25)
    first.save()
    event = make_event(structure=structure)
    event.kind = EventKind.SATELLITE
    event.clock_level_index, event.clock_level_started_at = 1, timezone.now()
    event.status = "running"
    event.save()
    table = Table.objects.create(event=event, number=1, seats=10, button_seat=1)
    for number, entry in enumerate(make_entries(event=event, count=3, status="playing"), 1):
        Seat.objects.create(table=table, number=number, entry=entry)

    one, _views = board_reads(settings, event, [("en", "English")])
    two, views = board_reads(settings, event, [("en", "English"), ("de", "Deutsch")])
    assert two == one
    assert "qualify for the super final" in views["en"]["standings"]
    assert "Super-Finale" in views["de"]["standings"]
    assert "Chip-up of the 25s is due: 1 table still to race." in views["en"]["chip_up"]
    assert (
        "Chip-up der 25er ist fällig: Noch 1 Tisch muss das Race spielen." in views["de"]["chip_up"]
    )
