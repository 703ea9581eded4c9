"""A late entry or re-entry moves the places already given down one (each entry gets a place)."""

from __future__ import annotations

import pytest

from tests.factories import make_entries, make_event
from tournaments.late_entry_services import enter_the_field
from tournaments.models import Entry, EntryStatus

pytestmark = pytest.mark.django_db


def test_places_given_before_a_new_entry_move_down_one():
    event = make_event()
    entries = make_entries(event=event, count=4, status=EntryStatus.PLAYING)
    Entry.objects.filter(pk=entries[0].pk).update(status=EntryStatus.BUSTED, place=4)
    Entry.objects.filter(pk=entries[1].pk).update(status=EntryStatus.BUSTED, place=3)
    late = make_entries(event=event, count=1, status=EntryStatus.PLAYING)[0]
    assert enter_the_field(event=event, entry=late) == 2
    places = dict(Entry.objects.filter(event=event).values_list("pk", "place"))
    assert places == {entries[0].pk: 5, entries[1].pk: 4, entries[2].pk: None,
                      entries[3].pk: None, late.pk: None}  # fmt: skip


def test_nothing_moves_before_anyone_is_out():
    event = make_event()
    entries = make_entries(event=event, count=3, status=EntryStatus.PLAYING)
    assert enter_the_field(event=event, entry=entries[0]) == 0
    assert not Entry.objects.filter(place__isnull=False).exists()
