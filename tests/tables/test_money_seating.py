"""A re-entry or late entry takes a seat: the places given before move down one."""

from __future__ import annotations

import random

import pytest

from scoring.services import StackInput, record_busts
from tables import services
from tests.floor_helpers import seated_event
from tournaments import money_services
from tournaments.models import AuditEvent, Entry, EntryStatus, EventMoney, Player

pytestmark = pytest.mark.django_db


def test_a_seated_re_entry_moves_the_first_entry_one_place_down(floor_user):
    event, entries = seated_event(players=6, tables=1)
    EventMoney.objects.create(event=event, buy_in=1000, re_entry=True)
    record_busts(
        event_id=event.pk, actor=floor_user, busts=[StackInput(entry_id=entries[0].pk, stack=9)]
    )
    assert Entry.objects.get(pk=entries[0].pk).place == 6
    again = money_services.re_enter(event_id=event.pk, entry_id=entries[0].pk, actor=floor_user)
    services.seat_entry(
        event_id=event.pk, entry_id=again.pk, actor=floor_user, rng=random.Random(2)
    )
    assert Entry.objects.get(pk=entries[0].pk).place == 7  # 7 entries: the first one is last
    assert Entry.objects.get(pk=again.pk).status == EntryStatus.PLAYING
    audit = AuditEvent.objects.filter(action="seats.seated").latest("pk")
    assert audit.data["places_moved"] == 1


def test_a_late_seat_before_anyone_is_out_moves_nothing(floor_user):
    event, _ = seated_event(players=5, tables=1)
    late = Entry.objects.create(
        event=event, player=Player.objects.create(name="Late"),
        status=EntryStatus.CHECKED_IN, starting_stack=event.starting_stack,
    )  # fmt: skip
    services.seat_entry(event_id=event.pk, entry_id=late.pk, actor=None, rng=random.Random(1))
    assert not Entry.objects.filter(event=event, place__isnull=False).exists()
    assert AuditEvent.objects.filter(action="seats.seated").latest("pk").data["places_moved"] == 0
