"""The pages of online events (docs/online.md, "Online tournaments"): the lobby's list, the
event's page (register, unregister, one's table, one's place and points), a table of the event
for a player seated elsewhere, the floor's controls, and the event form's online fields.
The browser's side: tests/browser/test_online_events.py."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring import online_events
from tables.online.models import OnlineSeat, OnlineTable
from tests.factories import make_event, make_structure, make_user
from tests.scoring.online_event_helpers import online_event, register_bots
from tests.scoring.season_helpers import make_season
from tests.tournaments.test_live_board import board_reads
from tournaments import live, live_board
from tournaments.models import AuditEvent, Entry, EntryStatus, Event, EventStatus, LiveMessage

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quick(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LANGUAGE_CODE = "en"
    settings.LIVE_BUS = "db"
    settings.FLOORMAN_TABLE_PACE = 0.05


@pytest.fixture
def floor():
    return make_user(username="flo", role="floor")


@pytest.fixture
def anna(client):
    user = make_user(username="anna")
    client.force_login(user)
    return user


def _page(event):
    return reverse("online_events:event", args=[event.pk])


def _post(client, name, event, *args, **data):
    return client.post(reverse(f"online_events:{name}", args=[event.pk, *args]), data)


def _snapshot():
    return (
        list(Entry.objects.order_by("pk").values()),
        list(OnlineSeat.objects.order_by("pk").values()),
        AuditEvent.objects.count(),
    )


def test_the_lobby_lists_open_online_events_with_registrations_and_start_rule(client, floor):
    sng = online_event(name="Evening sit&go", start_players=4)
    register_bots(sng, 1, floor)
    online_event(name="Sunday MTT", start_players=None)
    club = make_event(name="Club night", structure=make_structure(name="Club"))
    done = online_event(name="Yesterday", start_players=3)
    Event.objects.filter(pk=done.pk).update(status=EventStatus.FINISHED)
    html = client.get(reverse("tables:online_lobby")).content.decode()
    assert "Evening sit&amp;go" in html and "Sunday MTT" in html
    assert club.name not in html and "Yesterday" not in html
    assert "1 / 4" in html and "When 4 have registered" in html
    assert _page(sng) in html


def test_an_anonymous_visitor_sees_a_log_in_link_and_cannot_register(client):
    event = online_event(start_players=3)
    html = client.get(_page(event)).content.decode()
    assert 'data-testid="login-to-register"' in html and 'data-testid="register"' not in html
    assert "Starts when 3 players have registered: 0 so far." in html
    response = _post(client, "register", event)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Entry.objects.exists()


def test_a_player_registers_once_however_often_he_clicks_and_takes_it_back(client, anna):
    event = online_event(start_players=3)
    assert 'data-testid="register"' in client.get(_page(event)).content.decode()
    for _click in range(2):  # a double click: the second finds him registered
        response = _post(client, "register", event)
        assert response.status_code == 303 and response["Location"] == _page(event)
    assert Entry.objects.filter(event=event, player__user=anna).count() == 1
    html = client.get(_page(event)).content.decode()
    assert 'data-testid="unregister"' in html and "1 so far" in html
    for _click in range(2):
        assert _post(client, "unregister", event).status_code == 303
    assert not Entry.objects.filter(event=event).exists()
    assert AuditEvent.objects.filter(action="online.unregistered").count() == 1


def test_a_full_sit_and_go_refuses_with_the_reason_and_changes_nothing(client, anna, floor):
    event = online_event(start_players=3)
    register_bots(event, 3, floor)
    before = _snapshot()
    response = _post(client, "register", event)
    assert response.status_code == 400
    assert "This sit&amp;go is full." in response.content.decode()
    assert _snapshot() == before


def test_a_club_event_has_no_online_page(client, anna):
    event = make_event(name="Club night")
    assert client.get(_page(event)).status_code == 404
    assert _post(client, "register", event).status_code == 404
    assert not Entry.objects.exists()


@pytest.fixture
def running(client, anna, floor):
    """Anna and three bots at two tables of two (start rule: four), the event started."""
    event = online_event(start_players=4, table_size=2, season=make_season(formula="linear_x10"))
    _post(client, "register", event)
    register_bots(event, 3, floor)
    online_events.tick(event_id=event.pk)
    event.refresh_from_db()
    assert event.status == EventStatus.RUNNING
    return event


def test_once_running_the_page_links_to_the_players_table(client, anna, running):
    mine = OnlineSeat.objects.get(user=anna).table
    html = client.get(_page(running)).content.decode()
    assert reverse("tables:online_table", args=[mine.pk]) in html
    assert 'data-testid="your-table"' in html and 'data-testid="register"' not in html
    # His part of the page alone, which looks again when his stream says "mine" (htmx).
    part = client.get(_page(running), HTTP_HX_REQUEST="true").content.decode()
    assert part.lstrip().startswith('<div id="mine"') and 'data-testid="your-table"' in part
    assert 'id="clock"' not in part and "start-rule" not in part  # the stream carries those


def test_a_table_of_his_event_where_he_has_no_seat_points_to_his_own(client, anna, running):
    mine = OnlineSeat.objects.get(user=anna).table
    other = OnlineTable.objects.filter(event=running).exclude(pk=mine.pk).get()
    url = reverse("tables:online_table", args=[mine.pk])
    html = client.get(reverse("tables:online_table", args=[other.pk])).content.decode()
    assert 'data-testid="your-table"' in html and f'data-moved-to="{url}"' in html
    assert 'data-testid="sit"' not in html  # an event's seats are the director's
    state = client.get(reverse("tables:online_state", args=[other.pk]), HTTP_X_FLOORMAN="table")
    assert f'data-moved-to="{url}"' in state.content.decode()
    own = client.get(url).content.decode()
    # His own table points nowhere else (the private part carries the attribute, empty).
    assert not re.search(r'data-moved-to="[^"]', own) and 'data-my-seat="1"' in own


def test_a_removed_player_sees_his_place_and_season_points(client, anna, floor, running):
    entry = Entry.objects.get(event=running, player__user=anna)
    table = OnlineSeat.objects.get(entry=entry).table
    player_client = client
    floor_client = Client()
    floor_client.force_login(floor)
    html = floor_client.get(reverse("floor:event_floor", args=[running.pk])).content.decode()
    assert f'data-testid="remove-{entry.pk}"' in html and 'data-testid="add-bots"' in html
    response = _post(floor_client, "remove_player", running, entry.pk)
    assert response.status_code == 303
    assert AuditEvent.objects.filter(action="online.player_removed").count() == 1
    online_events.tick(event_id=running.pk, now=timezone.now())  # no hand dealt yet: out now
    entry.refresh_from_db()
    assert entry.place == 4 and entry.status == EntryStatus.QUIT  # R5.9: out where he left
    html = player_client.get(_page(running)).content.decode()
    assert "Place 4 of 4" in html
    assert "10 season points" in html  # R6.2: (4 - 4 + 1) x 10
    table_html = player_client.get(reverse("tables:online_table", args=[table.pk])).content
    assert "You finished in place 4." in table_html.decode()
    # The season's and the event's CSV exports carry the online place like a live one.
    csv = client.get(reverse("seasons:event_results_csv", args=[running.pk])).content.decode()
    assert any(line.startswith("4,") and "anna" in line for line in csv.splitlines()), csv
    season_csv = client.get(
        reverse("seasons:season_standings_csv", args=[running.season_id])
    ).content
    assert "anna" in season_csv.decode()


def test_the_floor_sees_each_house_bot_marked_with_the_bot_icon(client, floor, running):
    client.force_login(floor)
    html = client.get(reverse("floor:event_floor", args=[running.pk])).content.decode()
    bots = OnlineSeat.objects.filter(entry__event=running, is_bot=True)
    icons = re.findall(r'<img class="bot-icon" src="[^"]*/img/bot[^"]*\.svg" alt="house bot"', html)
    assert len(icons) == bots.count() == 3 and "\U0001f916" not in html  # the icon, no emoji


def test_only_the_floor_adds_bots_and_removes_players(client, anna, floor, running):
    before = _snapshot()
    entry = Entry.objects.exclude(player__user=anna).filter(event=running).first()
    assert _post(client, "add_bots", running, count="2").status_code == 403
    assert _post(client, "remove_player", running, entry.pk).status_code == 403
    assert _snapshot() == before


def test_the_floor_adds_house_bots_and_a_bad_count_changes_nothing(client, floor):
    event = online_event(start_players=6)
    client.force_login(floor)
    response = _post(client, "add_bots", event, count="3")
    assert response.status_code == 303
    assert response["Location"] == reverse("floor:event_floor", args=[event.pk])
    assert Entry.objects.filter(event=event).count() == 3
    assert AuditEvent.objects.filter(action="online.bots_registered").count() == 1
    before = _snapshot()
    response = _post(client, "add_bots", event, count="0")
    assert _snapshot() == before
    page = client.get(response["Location"]).content.decode()
    assert "Add between 1 and 1,000 house bots." in page


# -- the event form's online fields --------------------------------------------------------------


@pytest.fixture
def admin_client():
    client = Client()
    client.force_login(make_user(username="ada", role="admin"))
    return client


def _form(structure, **changes):
    data = {
        "name": "Online Friday",
        "kind": "sit_and_go",
        "structure": structure.pk,
        "starting_stack": "",
        "scheduled_start": "2026-05-02T19:30",
        "season": "",
        "online": "on",
        "table_size": "6",
        "start_players": "6",
    }
    return data | changes


def test_an_admin_creates_an_online_sit_and_go(admin_client):
    structure = make_structure(name="Online")
    response = admin_client.post(reverse("tournaments:event_create"), _form(structure))
    assert response.status_code == 303
    event = Event.objects.get(name="Online Friday")
    assert (event.online, event.table_size, event.start_players) == (True, 6, 6)
    audit = AuditEvent.objects.get(action="event.created")
    assert audit.data["online"] is True and audit.data["table_size"] == 6


def test_the_form_refuses_an_impossible_table_or_start_rule(admin_client):
    structure = make_structure(name="Online")
    for changes in ({"table_size": "11"}, {"table_size": "1"}, {"start_players": "1"}):
        response = admin_client.post(
            reverse("tournaments:event_create"), _form(structure, **changes)
        )
        assert response.status_code == 422
    assert not Event.objects.exists()


def test_a_started_online_events_table_size_stays(admin_client, running):
    before = (running.online, running.table_size, running.start_players)
    data = _form(running.structure, name=running.name, table_size="9", kind=running.kind)
    data["starting_stack"] = str(running.starting_stack)
    response = admin_client.post(reverse("tournaments:event_edit", args=[running.pk]), data)
    assert response.status_code == 422
    assert "its table size and its start rule stay" in response.content.decode()
    running.refresh_from_db()
    assert (running.online, running.table_size, running.start_players) == before


def test_the_floor_sees_no_cash_table_controls_at_an_event_table(running):
    # Seats, chips and closing of an online event's tables follow the event (docs/online.md).
    staff = Client()
    staff.force_login(make_user(username="flo2", role="floor"))
    table = OnlineTable.objects.filter(event=running).first()
    html = staff.get(reverse("tables:online_table", args=[table.pk])).content.decode()
    assert 'data-testid="add-bot"' not in html and "unseat-" not in html
    assert "floor dashboard" in html


def test_a_running_event_counts_the_players_left_not_the_registered(client, anna, running):
    """Issue 18: "Running: 4 players" was shown with 3 left."""
    out = Entry.objects.filter(event=running).exclude(player__user=anna).first()
    Entry.objects.filter(pk=out.pk).update(status=EntryStatus.BUSTED, place=4)
    html = client.get(_page(running)).content.decode()
    assert "Running: 3 of 4 players left." in html


def _field(client, event, language="en"):
    url = reverse("online_events:field", args=[event.pk])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language)


def test_the_page_follows_the_events_stream_and_polls_nothing(client, anna, running):
    """Issue 17: the page fetched its part and its standings every 3 s (two requests a phone,
    whatever changed). Its clock, field and standings now come with the event's stream; the
    player's own part looks again when his stream says so ("mine")."""
    html = client.get(_page(running)).content.decode()
    stream = reverse("tournaments:event_stream", args=[running.code]) + "?mine=1"
    assert f'data-stream-url="{stream}"' in html and 'id="clock"' in html
    assert "every 3s" not in html and "every " not in re.sub(r"<!--.*?-->", "", html)
    assert 'data-board-part="field"' in html and 'data-board-part="standings"' in html
    assert "Running: 4 of 4 players left." in html


def test_the_field_on_the_board_is_what_its_get_answers(client, anna, running):
    """The board's field, rendered once by the process that commits a change, is byte for byte
    what the page's fallback GET answers, in English and German."""
    board = json.loads(live_board.board_payload(running.pk))["board"]
    for language, text in (("en", "Running: 4 of 4 players left."), ("de", "4 von 4")):
        response = _field(client, running, language)
        assert response.status_code == 200
        assert int(response[live_board.STAMP_HEADER]) > board["stamp"]
        assert response.content.decode() == board["views"][language]["field"]
        assert text in board["views"][language]["field"]
    for table in OnlineTable.objects.filter(event=running):
        assert reverse("tables:online_table", args=[table.pk]) in board["views"]["en"]["field"]


def test_the_field_is_read_once_for_the_boards_languages(settings, running):
    one, _views = board_reads(settings, running, [("en", "English")])
    two, views = board_reads(settings, running, [("en", "English"), ("de", "Deutsch")])
    assert two == one
    assert "Running: 4 of 4 players left." in views["en"]["field"]
    assert "4 von 4" in views["de"]["field"]


def test_a_club_events_board_has_no_field(client):
    event = make_event(name="Club night")
    board = json.loads(live_board.board_payload(event.pk))["board"]
    assert "field" not in board["views"]["en"] and "standings" in board["views"]["en"]
    assert _field(client, event).status_code == 404


def test_unregistering_publishes_the_field_with_one_player_less(
    client, anna, floor, django_capture_on_commit_callbacks
):
    """Every change of the field goes out on the board: a registration taken back too."""
    event = online_event(start_players=3)
    register_bots(event, 1, floor)
    _post(client, "register", event)
    channel = live.channel_for(event.pk)
    before = LiveMessage.objects.filter(channel=channel).count()
    with django_capture_on_commit_callbacks(execute=True):
        assert _post(client, "unregister", event).status_code == 303
    published = LiveMessage.objects.filter(channel=channel).order_by("pk")
    assert published.count() == before + 1
    field = json.loads(published.last().payload)["board"]["views"]["en"]["field"]
    assert "Starts when 3 players have registered: 1 so far." in field
