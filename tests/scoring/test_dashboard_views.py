"""The floor dashboard and its clock controls over HTTP: roles, bad input, stale pages, ETags."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_event
from tournaments.models import AuditEvent, Event, EventStatus
from tournaments.services import ClockAction, act_on_clock

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def event():
    return make_event(code="tst123")


def action_url(event):
    return reverse("floor:clock_action", args=[event.pk])


def floor_url(event):
    return reverse("floor:event_floor", args=[event.pk])


def state(event):
    event = Event.objects.get(pk=event.pk)
    return (
        event.clock_version,
        event.clock_level_index,
        event.clock_level_started_at,
        event.clock_paused_at,
        AuditEvent.objects.filter(event=event).count(),
    )


ACTIONS = [
    {"action": "start", "expected_version": 0},
    {"action": "pause", "expected_version": 0},
    {"action": "resume", "expected_version": 0},
    {"action": "next", "expected_version": 0},
    {"action": "previous", "expected_version": 0},
    {"action": "go_to", "expected_version": 0, "level": 1},
    {"action": "add_time", "expected_version": 0, "seconds": 60},
]


def test_anonymous_users_are_sent_to_log_in(client, event):
    response = client.get(floor_url(event))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    for data in ACTIONS:
        response = client.post(action_url(event), data)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    assert state(event) == (0, 0, None, None, 0)


def test_players_may_not_run_the_clock(client, event, player_user):
    client.force_login(player_user)
    assert client.get(floor_url(event)).status_code == 403
    assert client.get(floor_url(event), **HTMX).status_code == 403
    for data in ACTIONS:
        assert client.post(action_url(event), data).status_code == 403
    assert state(event) == (0, 0, None, None, 0)


@pytest.mark.parametrize("role", ["floor_user", "admin_user"])
def test_floor_staff_and_admins_see_the_dashboard(client, event, role, request):
    client.force_login(request.getfixturevalue(role))
    response = client.get(floor_url(event))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="floor"' in html
    assert 'id="clock"' in html
    assert "Start the clock" in html
    assert 'name="expected_version" value="0"' in html


def test_start_without_javascript_redirects_back_to_the_dashboard(client, event, floor_user):
    client.force_login(floor_user)
    response = client.post(action_url(event), {"action": "start", "expected_version": 0})
    assert response.status_code == 303
    assert response["Location"] == floor_url(event)
    event.refresh_from_db()
    assert event.status == EventStatus.RUNNING
    assert event.clock_version == 1


def test_an_htmx_action_answers_with_the_fresh_controls(client, event, floor_user):
    client.force_login(floor_user)
    response = client.post(action_url(event), {"action": "start", "expected_version": 0}, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="floor"')
    assert 'name="expected_version" value="1"' in html
    assert 'data-action="pause"' in html
    assert 'data-status="running"' in html


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ({"action": "explode", "expected_version": 0}, "action"),
        ({"action": "add_time", "expected_version": 0, "seconds": "lots"}, "seconds"),
        ({"action": "add_time", "expected_version": 0}, "minutes"),
        ({"action": "start"}, "clock version"),
        ({"action": "start", "expected_version": "x"}, "clock version"),
        ({"action": "go_to", "expected_version": 0}, "level"),
        ({"action": "go_to", "expected_version": 0, "level": "first"}, "level"),
        ({"action": "add_time", "expected_version": 0, "seconds": 10**9}, "seconds"),
    ],
)
def test_a_malformed_post_is_a_400_with_a_reason_and_changes_nothing(
    client, event, floor_user, data, reason
):
    client.force_login(floor_user)
    before = state(event)
    response = client.post(action_url(event), data)
    assert response.status_code == 400
    assert reason in response.content.decode().lower()
    assert state(event) == before


def test_a_stale_page_gets_409_and_changes_nothing(client, event, floor_user):
    client.force_login(floor_user)
    act_on_clock(event_id=event.pk, actor=floor_user, action=ClockAction.START, expected_version=0)
    before = state(event)
    response = client.post(action_url(event), {"action": "pause", "expected_version": 0}, **HTMX)
    assert response.status_code == 409
    html = response.content.decode()
    assert "Someone changed the clock" in html
    assert 'name="expected_version" value="1"' in html  # fresh controls to try again
    assert state(event) == before


def test_a_stale_page_without_javascript_gets_a_message(client, event, floor_user):
    client.force_login(floor_user)
    act_on_clock(event_id=event.pk, actor=floor_user, action=ClockAction.START, expected_version=0)
    before = state(event)
    response = client.post(
        action_url(event), {"action": "pause", "expected_version": 0}, follow=True
    )
    assert response.redirect_chain[-1][0] == floor_url(event)
    assert "Someone changed the clock" in response.content.decode()
    assert state(event) == before


def test_an_action_that_does_not_apply_is_a_400_with_the_reason(client, event, floor_user):
    client.force_login(floor_user)
    response = client.post(action_url(event), {"action": "pause", "expected_version": 0}, **HTMX)
    assert response.status_code == 400
    assert "the clock has not started" in response.content.decode().lower()
    assert state(event) == (0, 0, None, None, 0)


def test_custom_minutes_are_added(client, event, floor_user):
    client.force_login(floor_user)
    act_on_clock(event_id=event.pk, actor=floor_user, action=ClockAction.START, expected_version=0)
    response = client.post(
        action_url(event), {"action": "add_time", "expected_version": 1, "minutes": -2}, **HTMX
    )
    assert response.status_code == 200
    audit = AuditEvent.objects.get(event=event, action="clock.add_time")
    assert audit.data["seconds"] == -120
    assert audit.actor == floor_user


def test_the_floor_fragment_is_conditional_too(client, event, floor_user):
    client.force_login(floor_user)
    response = client.get(floor_url(event), **HTMX)
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<div id="floor"')
    assert (
        client.get(floor_url(event), HTTP_IF_NONE_MATCH=response["ETag"], **HTMX).status_code == 304
    )
