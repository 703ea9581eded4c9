"""Two floor staff press the same rebuy at the same moment: one purchase (docs/money.md)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tests.factories import make_entries, make_event
from tournaments import money_services
from tournaments.models import AuditEvent, EntryStatus, EventMoney, Purchase
from tournaments.money import PurchaseKind


def press_at_once(action, times=2):
    barrier = threading.Barrier(times)
    errors: list[Exception] = []

    def press():
        try:
            barrier.wait()
            action()
        except Exception as error:  # noqa: BLE001 - the test reports any failure
            errors.append(error)
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=press) for _ in range(times)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return errors


@pytest.mark.django_db(transaction=True)
def test_the_same_rebuy_sent_twice_at_once_buys_once():
    event = make_event()
    EventMoney.objects.create(event=event, rebuy_price=1000, rebuy_chips=3000)
    (entry,) = make_entries(event=event, count=1, status=EntryStatus.PLAYING)
    errors = press_at_once(
        lambda: money_services.buy(
            event_id=event.pk, entry_id=entry.pk, kind=PurchaseKind.REBUY, actor=None, key="same"
        )
    )
    assert errors == []
    assert Purchase.objects.filter(kind="rebuy").count() == 1
    assert AuditEvent.objects.filter(action="money.rebuy").count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_add_ons_at_once_stop_at_the_limit_of_one():
    event = make_event()
    EventMoney.objects.create(event=event, add_on_price=500, add_on_chips=5000)
    (entry,) = make_entries(event=event, count=1, status=EntryStatus.PLAYING)
    keys = iter(["a", "b"])
    lock = threading.Lock()

    def add_on():
        with lock:
            key = next(keys)
        money_services.buy(
            event_id=event.pk, entry_id=entry.pk, kind=PurchaseKind.ADD_ON, actor=None, key=key
        )

    errors = press_at_once(add_on)
    assert [type(error) for error in errors] == [money_services.PurchaseRefusedError]
    assert Purchase.objects.filter(kind="add_on").count() == 1
