"""Two floor staff save a deal at the same moment: one deal, audited once."""

from __future__ import annotations

import threading

import pytest

from scoring.payout_models import Deal, DealMethod
from scoring.payout_selectors import players_left
from scoring.payout_services import PayoutEditError, save_deal
from scoring.services import StackInput, record_busts
from tests.factories import make_user
from tests.scoring.payout_helpers import money_event
from tests.tournaments.test_money_concurrency import press_at_once
from tournaments.models import AuditEvent

pytestmark = pytest.mark.django_db(transaction=True)


def three_left():
    floor = make_user(username="floor", role="floor")
    event = money_event(actor=floor, players=6)
    for entry in players_left(event)[:3]:
        record_busts(event_id=event.pk, actor=floor, busts=[StackInput(entry.pk, 3_000)])
    stacks = {entry.pk: chips for entry, chips in zip(players_left(event), [9, 6, 3], strict=True)}
    return event, floor, stacks


def test_the_same_deal_sent_twice_at_once_is_saved_once():
    event, floor, stacks = three_left()
    errors = press_at_once(
        lambda: save_deal(
            actor=floor, event_id=event.pk, method=DealMethod.ICM, stacks=stacks, kept=0, key="same"
        )  # fmt: skip
    )
    assert errors == []
    assert Deal.objects.count() == 1
    assert AuditEvent.objects.filter(action="deal.saved").count() == 1


def test_two_different_deals_at_once_save_one_and_refuse_the_other():
    event, floor, stacks = three_left()
    keys = iter(["a", "b"])
    lock = threading.Lock()

    def save():
        with lock:
            key = next(keys)
        save_deal(actor=floor, event_id=event.pk, method=DealMethod.CHIP_CHOP, stacks=stacks,
                  kept=0, key=key)  # fmt: skip

    errors = press_at_once(save)
    assert [type(error) for error in errors] == [PayoutEditError]
    assert Deal.objects.count() == 1
    assert AuditEvent.objects.filter(action="deal.saved").count() == 1
