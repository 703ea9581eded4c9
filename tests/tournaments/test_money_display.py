"""The floor's money read: the buttons drawn are exactly the purchases the services allow."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.factories import make_entries, make_event
from tournaments import money_services
from tournaments.entry_services import register_entry
from tournaments.models import Entry, EntryStatus, EventMoney
from tournaments.money import PurchaseKind
from tournaments.money_display import floor_money
from tournaments.money_selectors import refusal_for

pytestmark = pytest.mark.django_db


def test_a_freeroll_draws_no_money():
    event = make_event()
    entries = make_entries(event=event, count=2, status=EntryStatus.PLAYING)
    shown = floor_money(event, entries)
    assert not shown.is_set and not shown.shows_amounts
    assert not any(shown.of(e.pk).allowed for e in entries)  # R5.1: no rebuy, no add-on


def test_the_buttons_drawn_are_the_purchases_allowed(floor_user):
    event = make_event()
    EventMoney.objects.create(
        event=event, buy_in=2000, fee=200, rebuy_price=2000, rebuy_chips=3000, rebuy_limit=1,
        re_entry=True,
    )  # fmt: skip
    anna = register_entry(event_id=event.pk, actor=floor_user, name="Anna")
    bert = register_entry(event_id=event.pk, actor=floor_user, name="Bert")
    Entry.objects.filter(pk=anna.pk).update(status=EntryStatus.PLAYING)
    Entry.objects.filter(pk=bert.pk).update(status=EntryStatus.BUSTED, place=2)
    money_services.buy(event_id=event.pk, entry_id=anna.pk, kind=PurchaseKind.REBUY, actor=None)
    entries = list(Entry.objects.filter(event=event).order_by("pk"))
    shown = floor_money(event, entries)
    for entry in entries:
        expected = {kind for kind in PurchaseKind if refusal_for(entry, kind) is None}
        assert set(shown.of(entry.pk).allowed) == expected
    assert shown.of(bert.pk).can_re_enter and not shown.of(anna.pk).can_rebuy  # limit 1 reached
    assert shown.of(anna.pk).paid == 2200 + 2000
    assert [row.entry.pk for row in shown.rows] == [bert.pk]  # Anna has nothing left to buy
    with translation.override("de"):
        assert shown.buy_in_text == "20,00\u00a0€ + 2,00\u00a0€"
        assert shown.pool_text == "60,00\u00a0€"


def test_the_floor_read_costs_the_same_for_any_field(django_assert_max_num_queries, floor_user):
    event = make_event()
    EventMoney.objects.create(event=event, buy_in=1000, re_entry=True)
    for name in ("A", "B", "C", "D", "E", "F"):
        register_entry(event_id=event.pk, actor=floor_user, name=name)
    entries = list(Entry.objects.filter(event=event))
    event.levels_list()
    with django_assert_max_num_queries(4):
        floor_money(event, entries)
