"""Standings with money: rebuy and add-on chips are in play; a re-entry moves places down."""

from __future__ import annotations

import pytest

from scoring.selectors import event_standings
from scoring.services import StackInput, record_busts
from tests.factories import make_entries, make_event
from tournaments import money_services
from tournaments.late_entry_services import enter_the_field
from tournaments.models import Entry, EntryStatus, EventMoney
from tournaments.money import PurchaseKind

pytestmark = pytest.mark.django_db


def test_rebuy_and_add_on_chips_count_in_the_average_stack(floor_user):
    event = make_event()  # starting stack 3,000
    EventMoney.objects.create(
        event=event, rebuy_price=1000, rebuy_chips=3000, add_on_price=500, add_on_chips=6000
    )
    entries = make_entries(event=event, count=3, status=EntryStatus.PLAYING)
    for kind in (PurchaseKind.REBUY, PurchaseKind.ADD_ON):
        money_services.buy(event_id=event.pk, entry_id=entries[0].pk, kind=kind, actor=None)
    standings = event_standings(event)
    assert standings.chips_in_play == 3 * 3000 + 3000 + 6000
    assert standings.average_stack == 6000


def test_a_freeze_out_counts_the_starting_stacks_only():
    """R5.1: starting chips once."""
    event = make_event()
    make_entries(event=event, count=4, status=EntryStatus.PLAYING)
    assert event_standings(event).chips_in_play == 4 * 3000


def test_a_re_entry_moves_the_first_entrys_place_down(floor_user):
    event = make_event()
    EventMoney.objects.create(event=event, buy_in=1000, re_entry=True)
    anna, *others = make_entries(event=event, count=3, status=EntryStatus.PLAYING)
    record_busts(
        event_id=event.pk, actor=floor_user, busts=[StackInput(entry_id=anna.pk, stack=500)]
    )
    assert Entry.objects.get(pk=anna.pk).place == 3
    again = money_services.re_enter(event_id=event.pk, entry_id=anna.pk, actor=floor_user)
    Entry.objects.filter(pk=again.pk).update(status=EntryStatus.PLAYING)  # seated
    enter_the_field(event=event, entry=again)
    standings = event_standings(event)
    assert [(line.place, line.name) for line in standings.places] == [(4, "Player 01")]
    assert (standings.field, standings.players_left) == (4, 3)
    record_busts(
        event_id=event.pk, actor=floor_user, busts=[StackInput(entry_id=again.pk, stack=800)]
    )
    lines = [(line.place, line.name) for line in event_standings(event).places]
    assert lines == [(3, "Player 01 (2)"), (4, "Player 01")]
