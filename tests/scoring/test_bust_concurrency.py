"""Two floor staff bust the same player at the same moment: one bust, audited once."""

from __future__ import annotations

import threading

import pytest

from scoring.models import Elimination
from scoring.services import StackInput, record_busts
from tests.factories import make_user
from tests.floor_helpers import at_table, seated_event
from tests.tournaments.test_money_concurrency import press_at_once
from tournaments.entry_services import FloorError
from tournaments.models import AuditEvent

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_floor_staff_busting_the_same_player_at_once_record_one_bust():
    event, _ = seated_event(players=6, tables=1)
    floor = make_user(username="floor", role="floor")
    player = at_table(event, 1)[0]
    keys, lock = iter(["first-phone", "second-phone"]), threading.Lock()

    def bust():
        with lock:
            key = next(keys)
        record_busts(event_id=event.pk, actor=floor, busts=[StackInput(player.pk, None)], key=key)

    errors = press_at_once(bust)
    assert len(errors) == 1 and isinstance(errors[0], FloorError)
    assert "already out" in str(errors[0])
    assert Elimination.objects.filter(event=event).count() == 1
    assert AuditEvent.objects.filter(action="busts.recorded").count() == 1


def test_the_same_bust_sent_twice_at_once_is_recorded_once():
    event, _ = seated_event(players=6, tables=1)
    player = at_table(event, 1)[0]
    errors = press_at_once(
        lambda: record_busts(
            event_id=event.pk, actor=None, busts=[StackInput(player.pk, None)], key="same"
        )
    )
    assert errors == []
    assert Elimination.objects.filter(event=event).count() == 1
