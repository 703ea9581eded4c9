"""The end of an event: the last bust wins it (place 1, the clock stopped, standings final), and
undo of that bust takes it all back (issue 18, "The end of an event")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import undo_services
from scoring.selectors import event_standings
from scoring.services import StackInput, record_agreed_stop, record_busts
from tests.factories import make_user
from tests.floor_helpers import at_table, seated_event
from tournaments.clock import ClockStatus
from tournaments.entry_services import EventFinishedError
from tournaments.event_services import finish_event
from tournaments.models import AuditEvent, Entry, EntryStatus, Event, EventStatus
from tournaments.services import ClockAction, act_on_clock

pytestmark = pytest.mark.django_db


def three_left_with_the_clock_running():
    event, _ = seated_event(players=5, tables=1)
    act_on_clock(event_id=event.pk, actor=None, action=ClockAction.START)
    for entry in at_table(event, 1)[:2]:
        record_busts(event_id=event.pk, actor=None, busts=[StackInput(entry.pk, None)])
    return event, at_table(event, 1)


def test_the_last_bust_wins_the_event_and_stops_the_clock():
    event, (winner, second, third) = three_left_with_the_clock_running()
    record_busts(event_id=event.pk, actor=None, busts=[StackInput(third.pk, None)])
    record_busts(event_id=event.pk, actor=None, busts=[StackInput(second.pk, None)])
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED
    assert event.clock_paused_at is not None  # the clock stopped where it was
    winner.refresh_from_db()
    assert (winner.place, winner.status) == (1, EntryStatus.FINISHED)
    standings = event_standings(event)
    assert standings.winner == winner.label and standings.players_left == 0
    assert [line.place for line in standings.places] == [1, 2, 3, 4, 5]
    audit = AuditEvent.objects.get(action="event.won", event=event)
    assert audit.data["winner"] == winner.label and audit.data["clock_ran"] is True
    with pytest.raises(EventFinishedError):  # nothing else is recorded on a won event
        record_busts(event_id=event.pk, actor=None, busts=[StackInput(winner.pk, None)])


def test_undo_of_the_winning_bust_un_wins_the_event_and_the_clock_runs_on():
    event, (winner, second, third) = three_left_with_the_clock_running()
    record_busts(event_id=event.pk, actor=None, busts=[StackInput(third.pk, None)])
    record_busts(event_id=event.pk, actor=None, busts=[StackInput(second.pk, None)])
    stopped = Event.objects.get(pk=event.pk).read_clock(timezone.now()).remaining_seconds
    undo_services.undo_last(event_id=event.pk, actor=None)
    event.refresh_from_db()
    assert event.status == EventStatus.RUNNING
    reading = event.read_clock(timezone.now() + timedelta(seconds=5))
    assert reading.status is ClockStatus.RUNNING
    assert stopped - 6 <= reading.remaining_seconds <= stopped  # on from where it stopped
    assert list(
        Entry.objects.filter(pk__in=[winner.pk, second.pk]).values_list("place", flat=True)
    ) == [None, None]
    assert event_standings(event).winner is None and event_standings(event).players_left == 2
    undo_services.redo_next(event_id=event.pk, actor=None)
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED and event.clock_paused_at is not None
    assert Entry.objects.get(pk=winner.pk).place == 1


def test_an_earlier_step_cannot_be_undone_once_the_event_is_won_by_an_admins_finish():
    event, _ = three_left_with_the_clock_running()
    finish_event(actor=None, event_id=event.pk, confirm_players_in=True)
    with pytest.raises(EventFinishedError):
        undo_services.undo_last(event_id=event.pk, actor=None)


def test_an_agreed_stop_ends_the_event_too():
    event, (one, two, three) = three_left_with_the_clock_running()
    counts = [StackInput(one.pk, 500), StackInput(two.pk, 300), StackInput(three.pk, 200)]
    record_agreed_stop(event_id=event.pk, actor=None, counts=counts)
    event.refresh_from_db()
    assert event.status == EventStatus.FINISHED and event_standings(event).winner == one.label


def test_the_floor_page_of_a_won_event_names_the_winner_and_offers_no_bust(client):
    event, (winner, second, third) = three_left_with_the_clock_running()
    record_busts(event_id=event.pk, actor=None, busts=[StackInput(third.pk, None)])
    record_busts(event_id=event.pk, actor=None, busts=[StackInput(second.pk, None)])
    client.force_login(make_user(username="floor", role="floor"))
    body = client.get(reverse("floor:tables", args=[event.pk])).content.decode()
    assert f"{winner.label} has won the event." in body
    assert 'data-testid="floor-players-left"' not in body and "0 / 5" not in body
    assert reverse("scoring:record_busts", args=[event.pk]) not in body
    assert "Undo takes it back" in body
    response = client.post(reverse("scoring:undo", args=[event.pk]))
    assert response.status_code == 302
    assert Event.objects.get(pk=event.pk).status == EventStatus.RUNNING
