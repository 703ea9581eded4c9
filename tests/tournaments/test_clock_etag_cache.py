"""The clock fragment's cached ETag: a 304 without the database, never a stale one."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import make_event, make_structure
from tournaments import clock_etag
from tournaments.services import ClockAction, act_on_clock

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return make_event(structure=make_structure(levels=((25, 50, 0, 1), (50, 100, 0, 1))))


def fragment(client, event, etag=None):
    url = reverse("tournaments:event_clock", args=[event.code])
    return client.get(url, HTTP_IF_NONE_MATCH=etag) if etag else client.get(url)


def test_a_conditional_get_is_answered_without_a_query(client, event, django_assert_num_queries):
    etag = fragment(client, event)["ETag"]
    with django_assert_num_queries(0):
        assert fragment(client, event, etag).status_code == 304


def test_a_committed_clock_action_drops_the_cached_etag(
    client, event, floor_user, django_capture_on_commit_callbacks
):
    etag = fragment(client, event)["ETag"]
    with django_capture_on_commit_callbacks(execute=True):
        act_on_clock(
            event_id=event.pk, actor=floor_user, action=ClockAction.START, expected_version=0
        )
    response = fragment(client, event, etag)
    assert response.status_code == 200
    assert 'data-status="running"' in response.content.decode()


def test_a_level_that_ends_on_its_own_is_not_answered_from_the_cache(client, event):
    """No write happens at a natural level change: the cached ETag must not outlive the level."""
    event.clock_level_started_at = timezone.now() - timedelta(seconds=59.5)
    event.status = "running"
    event.save()
    etag = fragment(client, event)["ETag"]
    time.sleep(0.7)  # the level's last half second passes; the cache would hold for 5 s
    response = fragment(client, event, etag)
    assert response.status_code == 200
    assert response["ETag"] != etag


def test_a_read_from_before_a_write_cannot_cache_the_old_etag(client, event):
    """The race: a poll reads the clock, a floor action commits and drops the cache, then the
    poll stores what it read. Its entry belongs to the old generation and is not used."""
    generation = clock_etag.clock_etag_generation(event.code)  # the poll starts
    clock_etag.forget_clock_etag(event.pk)  # the floor action commits meanwhile
    clock_etag.cache_clock_etag(event.code, '"old"', until=None, generation=generation)
    assert clock_etag.cached_clock_etag(event.code) is None
    clock_etag.cache_clock_etag(
        event.code, '"new"', until=None, generation=clock_etag.clock_etag_generation(event.code)
    )
    assert clock_etag.cached_clock_etag(event.code) == '"new"'
