"""Event management through its views: roles, create, edit, finish, refusals that change nothing,
the audit log. The home page: tests/scoring/test_home_views.py."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from scoring.services import StackInput, record_busts
from tests.factories import make_entries, make_event, make_structure, make_user
from tests.scoring.season_helpers import finished_event, make_season
from tournaments.models import (
    AuditEvent,
    BlindStructure,
    Denomination,
    Entry,
    EntryStatus,
    Event,
    EventKind,
    EventStatus,
    Level,
    LevelKind,
)
from tournaments.services import ClockAction, act_on_clock

HOUSE = ZoneInfo("Europe/Berlin")
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def structure(db):
    """Two levels; the 25s are the smallest chip in play at level 1."""
    structure = make_structure(name="Friday", starting_stack=3_000)
    structure.smallest_chip = Denomination.objects.get(chip_set=structure.chip_set, value=25)
    structure.save()
    return structure


@pytest.fixture
def event(structure):
    return make_event(structure=structure, name="Friday night")


@pytest.fixture
def admin_client(client, admin_user):
    client.force_login(admin_user)
    return client


def form_data(structure, /, **changes):
    data = {
        "name": "Saturday deepstack",
        "kind": EventKind.DEEPSTACK,
        "structure": structure.pk,
        "starting_stack": "5000",
        "scheduled_start": "2026-05-02T19:30",
        "season": "",
    }
    return data | changes


def snapshot():
    """Everything an event write could touch."""
    return (
        list(Event.objects.order_by("pk").values()),
        list(Entry.objects.order_by("pk").values()),
        AuditEvent.objects.count(),
    )


def start_clock(event, user):
    return act_on_clock(event_id=event.pk, actor=user, action=ClockAction.START)


def endpoints(event):
    return [
        ("get", reverse("tournaments:event_list"), {}),
        ("get", reverse("tournaments:event_create"), {}),
        ("post", reverse("tournaments:event_create"), form_data(event.structure)),
        ("get", reverse("tournaments:event_edit", args=[event.pk]), {}),
        ("post", reverse("tournaments:event_edit", args=[event.pk]), form_data(event.structure)),
        ("post", reverse("tournaments:event_finish", args=[event.pk]), {"confirm": "on"}),
    ]


# --- roles ---------------------------------------------------------------------------------------


def test_anonymous_users_are_sent_to_log_in(client, event):
    before = snapshot()
    for method, url, data in endpoints(event):
        response = getattr(client, method)(url, data)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url
    assert snapshot() == before


def test_players_are_refused(client, event):
    client.force_login(make_user(username="player", role="player"))
    event.status = EventStatus.RUNNING
    event.save()
    before = snapshot()
    for method, url, data in endpoints(event):
        assert getattr(client, method)(url, data).status_code == 403, url
    assert snapshot() == before


def test_admins_see_every_event_by_state_with_its_links(admin_client, structure):
    running = make_event(structure=structure, name="Running one", code="run1")
    running.status = EventStatus.RUNNING
    running.save()
    make_event(structure=structure, name="Coming one")
    done = finished_event(season=None, names=["Anna", "Bert"], name="Done one")
    html = admin_client.get(reverse("tournaments:event_list")).content.decode()
    running_part = html.split('id="running-events"')[1].split('id="upcoming-events"')[0]
    upcoming_part = html.split('id="upcoming-events"')[1].split('id="finished-events"')[0]
    finished_part = html.split('id="finished-events"')[1]
    assert "Running one" in running_part and "Finish event" in running_part
    assert "Coming one" in upcoming_part and "Finish event" not in upcoming_part
    assert "Done one" in finished_part
    for name in ("floor:event_floor", "tournaments:event_edit", "tournaments:event_finish"):
        assert reverse(name, args=[running.pk]) in running_part
    assert reverse("floor:tables", args=[running.pk]) in running_part
    assert reverse("seasons:event_results_csv", args=[running.pk]) in running_part
    assert f"/e/{running.code}/tv/" in running_part and f'"/e/{running.code}/"' in running_part
    assert reverse("tournaments:event_edit", args=[done.pk]) not in finished_part


# --- create ---------------------------------------------------------------------------------------


def test_an_admin_creates_an_event_in_house_time(admin_client, admin_user, structure):
    season = make_season(name="Spring")
    response = admin_client.post(
        reverse("tournaments:event_create"), form_data(structure, season=season.pk)
    )
    assert response.status_code == 303
    assert response["Location"] == reverse("tournaments:event_list")
    event = Event.objects.get(name="Saturday deepstack")
    assert event.kind == EventKind.DEEPSTACK
    assert event.structure == structure and event.season == season
    assert event.starting_stack == 5_000
    assert event.scheduled_start == datetime(2026, 5, 2, 19, 30, tzinfo=HOUSE)
    assert event.status == EventStatus.SCHEDULED
    audit = AuditEvent.objects.get(action="event.created")
    assert audit.actor == admin_user and audit.event == event
    assert audit.data["starting_stack"] == 5_000 and audit.data["structure"] == structure.pk
    assert (
        "“Saturday deepstack” is scheduled."
        in admin_client.get(response["Location"]).content.decode()
    )


def test_an_empty_stack_is_the_structures(admin_client, structure):
    response = admin_client.post(
        reverse("tournaments:event_create"), form_data(structure, starting_stack="")
    )
    assert response.status_code == 303
    assert Event.objects.get().starting_stack == structure.starting_stack == 3_000


def test_the_new_event_form_marks_structures_without_a_playing_level(admin_client, structure):
    draft = BlindStructure.objects.create(name="Draft", chip_set=structure.chip_set)
    html = admin_client.get(reverse("tournaments:event_create")).content.decode()
    assert f'<option value="{draft.pk}" disabled>Draft (no playing level yet)</option>' in html
    assert f'<option value="{structure.pk}">Friday · 3,000 chips</option>' in html
    assert 'type="datetime-local"' in html
    assert "House time (Europe/Berlin)." in html


def breaks_only(structure):
    only_breaks = BlindStructure.objects.create(name="Breaks", chip_set=structure.chip_set)
    Level.objects.create(structure=only_breaks, position=1, kind=LevelKind.BREAK, minutes=10)
    return only_breaks.pk


BAD_INPUTS = [
    ("no name", {"name": "   "}, "Give the event a name."),
    ("zero stack", {"starting_stack": "0"}, "positive whole number of chips"),
    ("negative stack", {"starting_stack": "-500"}, "positive whole number of chips"),
    ("stack not a number", {"starting_stack": "lots"}, "positive whole number of chips"),
    ("stack of a fraction", {"starting_stack": "2500.5"}, "positive whole number of chips"),
    (
        "stack not a multiple of the smallest chip",
        {"starting_stack": "3010"},
        "The starting stack must be a multiple of 25, the smallest chip in play at level 1 of "
        "“Friday”.",
    ),
    ("unknown kind", {"kind": "cash_game"}, "Select a valid choice."),
    ("no structure", {"structure": ""}, "This field is required."),
    ("no start", {"scheduled_start": ""}, "Give the date and time of the start."),
    ("bad start", {"scheduled_start": "tomorrow evening"}, "Give the date and time of the start."),
    ("unknown season", {"season": "999999"}, "Select a valid choice."),
]  # fmt: skip


@pytest.mark.parametrize(
    ("changes", "reason"), [b[1:] for b in BAD_INPUTS], ids=[b[0] for b in BAD_INPUTS]
)
def test_bad_input_to_create_is_refused_and_changes_nothing(
    admin_client, structure, changes, reason
):
    before = snapshot()
    response = admin_client.post(
        reverse("tournaments:event_create"), form_data(structure, **changes)
    )
    assert response.status_code == 422
    assert reason in response.content.decode()
    assert snapshot() == before


def test_a_structure_without_a_playing_level_cannot_be_chosen(admin_client, structure):
    pk = breaks_only(structure)
    before = snapshot()
    response = admin_client.post(
        reverse("tournaments:event_create"), form_data(structure, structure=pk)
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert "“Breaks” has no playing level yet: add levels in the structure editor first." in html
    assert snapshot() == before


# --- edit -----------------------------------------------------------------------------------------


def test_the_edit_form_shows_the_start_in_house_time(admin_client, event):
    event.scheduled_start = datetime(2026, 6, 5, 18, 0, tzinfo=ZoneInfo("UTC"))
    event.save()
    html = admin_client.get(reverse("tournaments:event_edit", args=[event.pk])).content.decode()
    assert 'value="2026-06-05T20:00"' in html  # 18:00 UTC is 20:00 in Berlin (summer time)
    assert 'value="Friday night"' in html


def test_an_admin_edits_an_event(admin_client, admin_user, event):
    season = make_season(name="Summer")
    url = reverse("tournaments:event_edit", args=[event.pk])
    data = form_data(event.structure, name="Friday special", season=season.pk)
    response = admin_client.post(url, data)
    assert response.status_code == 303
    event.refresh_from_db()
    assert (event.name, event.kind, event.starting_stack) == ("Friday special", "deepstack", 5_000)
    assert event.season == season
    assert event.scheduled_start == datetime(2026, 5, 2, 19, 30, tzinfo=HOUSE)
    audit = AuditEvent.objects.get(action="event.changed")
    assert audit.actor == admin_user and audit.event == event
    assert audit.data["changes"]["name"] == ["Friday night", "Friday special"]
    assert audit.data["changes"]["starting_stack"] == [3_000, 5_000]
    assert "structure" not in audit.data["changes"]


def test_saving_without_a_change_writes_no_audit_event(admin_client, event):
    data = form_data(
        event.structure, name=event.name, kind=event.kind, starting_stack="3000",
        scheduled_start=event.scheduled_start.astimezone(HOUSE).strftime("%Y-%m-%dT%H:%M"),
    )  # fmt: skip
    event.scheduled_start = event.scheduled_start.replace(second=0, microsecond=0)
    event.save()
    before = snapshot()
    assert (
        admin_client.post(reverse("tournaments:event_edit", args=[event.pk]), data).status_code
        == 303
    )
    assert list(AuditEvent.objects.values_list("data", flat=True)) == []
    assert snapshot() == before


def test_a_new_stack_reaches_the_players_not_yet_playing(admin_client, event):
    event.kind = EventKind.FINAL
    event.save()
    waiting, checked_in = make_entries(event=event, count=2)
    waiting.status, waiting.satellites_won = EntryStatus.REGISTERED, 2
    waiting.save()
    url = reverse("tournaments:event_edit", args=[event.pk])
    data = form_data(event.structure, kind=EventKind.FINAL, starting_stack="4000")
    assert admin_client.post(url, data).status_code == 303
    waiting.refresh_from_db()
    checked_in.refresh_from_db()
    assert waiting.starting_stack == 4_000 + 2 * 3_000  # R5.5
    assert checked_in.starting_stack == 4_000
    assert AuditEvent.objects.get(action="event.changed").data["restacked"] == 2


@pytest.mark.parametrize(
    ("changes", "reason"), [b[1:] for b in BAD_INPUTS], ids=[b[0] for b in BAD_INPUTS]
)
def test_bad_input_to_edit_is_refused_and_changes_nothing(admin_client, event, changes, reason):
    before = snapshot()
    url = reverse("tournaments:event_edit", args=[event.pk])
    response = admin_client.post(url, form_data(event.structure, **changes))
    assert response.status_code == 422
    assert reason in response.content.decode()
    assert snapshot() == before


def test_the_structure_cannot_change_once_the_clock_has_started(admin_client, admin_user, event):
    start_clock(event, admin_user)
    other = make_structure(name="Other")
    before = snapshot()
    url = reverse("tournaments:event_edit", args=[event.pk])
    response = admin_client.post(
        url, form_data(event.structure, structure=other.pk, starting_stack="3000")
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert "The clock has started: another structure would shift the clock&#x27;s levels." in html
    assert "The event keeps “Friday”." in html
    assert snapshot() == before


def test_the_stack_cannot_change_once_the_clock_has_started(admin_client, admin_user, event):
    start_clock(event, admin_user)
    before = snapshot()
    url = reverse("tournaments:event_edit", args=[event.pk])
    response = admin_client.post(url, form_data(event.structure, starting_stack="5000"))
    assert response.status_code == 422
    assert "the stack stays 3000" in response.content.decode()
    assert snapshot() == before


def test_a_running_event_may_still_be_renamed(admin_client, admin_user, event):
    start_clock(event, admin_user)
    url = reverse("tournaments:event_edit", args=[event.pk])
    assert "the structure and the starting stack stay" in admin_client.get(url).content.decode()
    data = form_data(event.structure, name="Friday late", starting_stack="3000")
    assert admin_client.post(url, data).status_code == 303
    event.refresh_from_db()
    assert event.name == "Friday late" and event.status == EventStatus.RUNNING


def test_a_finished_event_cannot_be_edited(admin_client):
    done = finished_event(season=None, names=["Anna", "Bert"], name="Done")
    before = snapshot()
    url = reverse("tournaments:event_edit", args=[done.pk])
    for response in (admin_client.get(url), admin_client.post(url, form_data(done.structure))):
        assert response.status_code == 409
        assert "This event has finished: its settings and results stay as they are." in (
            response.content.decode()
        )
    assert snapshot() == before


def test_an_unknown_event_is_404(admin_client, structure):
    assert admin_client.get(reverse("tournaments:event_edit", args=[999999])).status_code == 404
    url = reverse("tournaments:event_finish", args=[999999])
    assert admin_client.post(url).status_code == 404


# --- finish ---------------------------------------------------------------------------------------


@pytest.fixture
def running(event, admin_user):
    """The clock runs; three players are in."""
    start_clock(event, admin_user)
    entries = make_entries(event=event, count=3, status=EntryStatus.PLAYING)
    return event, entries


def finish(client, event, **data):
    return client.post(reverse("tournaments:event_finish", args=[event.pk]), data)


def test_finishing_with_players_still_in_is_refused_with_their_names(admin_client, running):
    event, _ = running
    before = snapshot()
    response = finish(admin_client, event)
    assert response.status_code == 409
    html = response.content.decode()
    assert "3 players are still in: Player 01, Player 02, Player 03." in html
    assert "Finish anyway, without placing them" in html
    assert snapshot() == before


def test_the_floor_confirms_finishing_with_players_still_in(admin_client, admin_user, running):
    event, entries = running
    response = finish(admin_client, event, confirm="on")
    assert response.status_code == 303
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    assert all(e.place is None for e in Entry.objects.filter(event=event))  # nobody placed
    audit = AuditEvent.objects.get(action="event.finished")
    assert audit.actor == admin_user and audit.data["confirmed"] is True
    assert audit.data["players_still_in"] == ["Player 01", "Player 02", "Player 03"]


def test_the_last_bust_finishes_the_event_and_a_finish_after_it_changes_nothing(
    admin_client, running
):
    event, (first, second, third) = running
    record_busts(event_id=event.pk, actor=None, busts=[StackInput(entry_id=third.pk, stack=500)])
    record_busts(event_id=event.pk, actor=None, busts=[StackInput(entry_id=second.pk, stack=900)])
    places = list(Entry.objects.filter(event=event).order_by("pk").values_list("place", "status"))
    assert places[0] == (1, EntryStatus.FINISHED)  # scoring.services crowned the winner
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED  # issue 18: won, the clock stopped
    audit = AuditEvent.objects.get(action="event.won")
    assert audit.data["winner"] == "Player 01"
    before = snapshot()
    response = finish(admin_client, event)
    assert response.status_code == 409
    assert "This event has already finished." in response.content.decode()
    assert snapshot() == before


def test_finishing_stops_the_clock_actions(admin_client, admin_user, running):
    event, _ = running
    finish(admin_client, event, confirm="on")
    data = {"action": "pause", "expected_version": Event.objects.get(pk=event.pk).clock_version}
    response = admin_client.post(reverse("floor:clock_action", args=[event.pk]), data, **HTMX)
    assert response.status_code == 400
    assert "The event has finished." in response.content.decode()


@pytest.mark.parametrize(
    ("status", "reason"),
    [
        (EventStatus.SCHEDULED, "Only a running event can finish: its clock has not started."),
        (EventStatus.FINISHED, "This event has already finished."),
    ],
)
def test_only_a_running_event_finishes(admin_client, event, status, reason):
    event.status = status
    event.save()
    before = snapshot()
    response = finish(admin_client, event, confirm="on")
    assert response.status_code == 409
    assert reason in response.content.decode()
    assert snapshot() == before


def test_finishing_through_htmx_answers_the_list_fragment(admin_client, running):
    event, _ = running
    refused = admin_client.post(reverse("tournaments:event_finish", args=[event.pk]), **HTMX)
    assert refused.status_code == 409
    html = refused.content.decode()
    assert html.lstrip().startswith('<div id="events"') and "<html" not in html
    assert 'name="confirm" value="on"' in html
    done = admin_client.post(
        reverse("tournaments:event_finish", args=[event.pk]), {"confirm": "on"}, **HTMX
    )
    assert done.status_code == 200
    assert "“Friday night” has finished." in done.content.decode()
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED


# --- floor staff run the night alone (issue 18) -------------------------------------------------


def test_floor_staff_create_an_event_from_a_structure_and_finish_it(client, structure):
    floor = make_user(username="floor", role="floor")
    client.force_login(floor)
    assert client.get(reverse("tournaments:event_list")).status_code == 200
    assert client.get(reverse("tournaments:event_create")).status_code == 200
    response = client.post(reverse("tournaments:event_create"), form_data(structure))
    assert response.status_code == 303
    event = Event.objects.get(name="Saturday deepstack")
    assert AuditEvent.objects.get(action="event.created", event=event).actor == floor
    start_clock(event, floor)
    response = client.post(reverse("tournaments:event_finish", args=[event.pk]))
    assert response.status_code == 303
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    assert AuditEvent.objects.get(action="event.finished", event=event).actor == floor


def test_floor_staff_read_the_structures_and_admins_keep_them(client, structure):
    client.force_login(make_user(username="floor", role="floor"))
    html = client.get(reverse("tournaments:structure_list")).content.decode()
    assert "Friday" in html
    assert reverse("tournaments:structure_create") not in html
    assert reverse("tournaments:structure_editor", args=[structure.pk]) not in html
    assert client.get(reverse("tournaments:structure_editor", args=[structure.pk])).status_code == (
        403
    )
    html = client.get(reverse("tournaments:event_list")).content.decode()
    assert 'data-testid="payouts-link"' not in html
