"""The money ledger: buy-in at registration, rebuys, add-ons, re-entry; refusals, once, audited."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import make_entries, make_event, make_structure
from tournaments import money_selectors, money_services
from tournaments.entry_services import (
    EntryStateError,
    EventFinishedError,
    FloorError,
    register_entry,
)
from tournaments.models import (
    AuditEvent,
    Entry,
    EntryStatus,
    EventMoney,
    EventStatus,
    Purchase,
)
from tournaments.money import PurchaseKind, Refusal

pytestmark = pytest.mark.django_db


def money_event(**settings):
    """An event of four levels with a break after level 2, and the given money settings."""
    structure = make_structure(
        levels=[(25, 50, 0, 12), (50, 100, 0, 12), (75, 150, 0, 12), (100, 200, 0, 12)],
        breaks_after=[1],
    )
    event = make_event(structure=structure)
    values = {"buy_in": 2000, "fee": 200}
    values.update(settings)
    EventMoney.objects.create(event=event, **values)
    return event


def at_level(event, index):
    """Put the clock at a position of the structure (breaks count), running."""
    event.clock_level_index, event.clock_level_started_at = index, timezone.now()
    event.status = EventStatus.RUNNING
    event.save()


def test_a_freeroll_registers_as_before_and_records_no_money(floor_user):
    event = make_event()
    entry = register_entry(event_id=event.pk, actor=floor_user, name="Anna")
    assert entry.purchases.count() == 0
    assert not AuditEvent.objects.filter(action__startswith="money.").exists()
    pool = money_selectors.prize_pool(event)
    assert pool.is_empty and pool.total == 0
    assert not money_selectors.money_rules(event).has_money


def test_registration_records_the_buy_in_with_its_fee_and_an_audit(floor_user):
    event = money_event(bounty=500)
    entry = register_entry(event_id=event.pk, actor=floor_user, name="Anna")
    purchase = entry.purchases.get()
    assert (purchase.kind, purchase.amount, purchase.fee, purchase.bounty) == (
        "buy_in", 2000, 200, 500,
    )  # fmt: skip
    audit = AuditEvent.objects.get(action="money.buy_in")
    assert audit.actor == floor_user and audit.data["amount"] == 2000
    pool = money_selectors.prize_pool(event)
    assert (pool.total, pool.fees, pool.bounties, pool.collected) == (1500, 200, 500, 2200)


def test_late_registration_closes_after_its_level(floor_user):
    event = money_event(late_registration_last_level=2)
    at_level(event, 2)  # the break after level 2 still belongs to level 2
    register_entry(event_id=event.pk, actor=floor_user, name="Anna")
    at_level(event, 3)
    with pytest.raises(money_services.LateRegistrationClosedError, match="level 2"):
        register_entry(event_id=event.pk, actor=floor_user, name="Bert")
    assert not Entry.objects.filter(player__name="Bert").exists()


def playing(event, count=1):
    entries = make_entries(event=event, count=count, status=EntryStatus.PLAYING)
    return entries[0] if count == 1 else entries


def test_rebuy_adds_chips_and_money_within_its_levels(floor_user):
    event = money_event(rebuy_price=2000, rebuy_chips=3000, rebuy_last_level=2)
    entry = playing(event)
    at_level(event, 2)
    purchase = money_services.buy(
        event_id=event.pk, entry_id=entry.pk, kind=PurchaseKind.REBUY, actor=floor_user
    )
    assert (purchase.chips, purchase.amount, purchase.bounty) == (3000, 2000, 0)
    assert money_selectors.chips_bought(event) == 3000
    assert money_selectors.prize_pool(event).rebuys == 1
    at_level(event, 3)
    with pytest.raises(money_services.PurchaseRefusedError, match="until level 2") as refused:
        money_services.buy(
            event_id=event.pk, entry_id=entry.pk, kind=PurchaseKind.REBUY, actor=floor_user
        )
    assert refused.value.refusal is Refusal.TOO_LATE
    assert Purchase.objects.filter(kind="rebuy").count() == 1


def test_rebuys_stop_at_the_limit_per_player(floor_user):
    event = money_event(rebuy_price=2000, rebuy_chips=3000, rebuy_limit=1)
    entry = playing(event)
    money_services.buy(
        event_id=event.pk, entry_id=entry.pk, kind=PurchaseKind.REBUY, actor=floor_user
    )
    with pytest.raises(money_services.PurchaseRefusedError, match="limit of 1"):
        money_services.buy(
            event_id=event.pk, entry_id=entry.pk, kind=PurchaseKind.REBUY, actor=floor_user
        )
    assert Purchase.objects.filter(kind="rebuy").count() == 1


def test_a_freeze_out_refuses_rebuy_and_add_on(floor_user):
    """R5.1: no rebuy, no add-on; the refusal names the rule and nothing is written."""
    event = money_event()
    entry = playing(event)
    for kind in (PurchaseKind.REBUY, PurchaseKind.ADD_ON):
        with pytest.raises(money_services.PurchaseRefusedError, match="R5.1"):
            money_services.buy(event_id=event.pk, entry_id=entry.pk, kind=kind, actor=floor_user)
    assert not Purchase.objects.exists()
    assert not AuditEvent.objects.filter(action__startswith="money.").exists()


def test_a_double_submit_buys_once(floor_user):
    event = money_event(add_on_price=1000, add_on_chips=5000, add_on_limit=2)
    entry = playing(event)
    first = money_services.buy(
        event_id=event.pk, entry_id=entry.pk, kind=PurchaseKind.ADD_ON, actor=floor_user,
        key="form-1",
    )  # fmt: skip
    again = money_services.buy(
        event_id=event.pk, entry_id=entry.pk, kind=PurchaseKind.ADD_ON, actor=floor_user,
        key="form-1",
    )  # fmt: skip
    assert again.pk == first.pk
    assert Purchase.objects.count() == 1
    assert AuditEvent.objects.filter(action="money.add_on").count() == 1


def test_add_on_only_in_its_level(floor_user):
    event = money_event(add_on_price=1000, add_on_chips=5000, add_on_first_level=2)
    entry = playing(event)
    with pytest.raises(money_services.PurchaseRefusedError, match="from level 2"):
        money_services.buy(
            event_id=event.pk, entry_id=entry.pk, kind=PurchaseKind.ADD_ON, actor=floor_user
        )
    at_level(event, 2)  # the break after level 2: the usual add-on moment
    money_services.buy(
        event_id=event.pk, entry_id=entry.pk, kind=PurchaseKind.ADD_ON, actor=floor_user
    )
    assert money_selectors.chips_bought(event) == 5000


def test_a_busted_player_re_enters_with_a_new_entry(floor_user):
    event = money_event(bounty=500, re_entry=True, re_entry_limit=1)
    first = register_entry(event_id=event.pk, actor=floor_user, name="Anna")
    Entry.objects.filter(pk=first.pk).update(status=EntryStatus.BUSTED, place=9)
    second = money_services.re_enter(event_id=event.pk, entry_id=first.pk, actor=floor_user)
    assert (second.number, second.status, second.starting_stack) == (
        2, EntryStatus.CHECKED_IN, event.starting_stack,
    )  # fmt: skip
    assert second.label == "Anna (2)"
    assert second.purchases.get().kind == "re_entry"
    pool = money_selectors.prize_pool(event)
    assert (pool.entries, pool.re_entries, pool.bounties) == (2, 1, 1000)
    assert AuditEvent.objects.filter(action="entry.re_entered").count() == 1
    Entry.objects.filter(pk=second.pk).update(status=EntryStatus.BUSTED, place=10)
    with pytest.raises(money_services.PurchaseRefusedError, match="limit of 1"):
        money_services.re_enter(event_id=event.pk, entry_id=second.pk, actor=floor_user)


def test_re_entry_is_refused_for_a_player_not_out_or_already_back(floor_user):
    event = money_event(re_entry=True)
    first = register_entry(event_id=event.pk, actor=floor_user, name="Anna")
    with pytest.raises(money_services.PurchaseRefusedError, match="not out"):
        money_services.re_enter(event_id=event.pk, entry_id=first.pk, actor=floor_user)
    Entry.objects.filter(pk=first.pk).update(status=EntryStatus.BUSTED, place=9)
    money_services.re_enter(event_id=event.pk, entry_id=first.pk, actor=floor_user, key="a")
    money_services.re_enter(event_id=event.pk, entry_id=first.pk, actor=floor_user, key="a")
    with pytest.raises(money_services.PurchaseRefusedError, match="already re-entered"):
        money_services.re_enter(event_id=event.pk, entry_id=first.pk, actor=floor_user, key="b")
    assert Entry.objects.filter(event=event).count() == 2


def test_re_entry_closes_with_late_registration_by_default(floor_user):
    event = money_event(re_entry=True, late_registration_last_level=1)
    first = register_entry(event_id=event.pk, actor=floor_user, name="Anna")
    Entry.objects.filter(pk=first.pk).update(status=EntryStatus.BUSTED, place=9)
    at_level(event, 1)
    with pytest.raises(money_services.PurchaseRefusedError, match="until level 1"):
        money_services.re_enter(event_id=event.pk, entry_id=first.pk, actor=floor_user)


def test_a_registered_player_cannot_register_twice(floor_user):
    event = money_event()
    register_entry(event_id=event.pk, actor=floor_user, name="Anna")
    with pytest.raises(EntryStateError, match="re-enters"):
        register_entry(event_id=event.pk, actor=floor_user, name="anna")
    assert Purchase.objects.count() == 1


def test_nothing_is_bought_in_a_finished_event(floor_user):
    event = money_event(rebuy_price=2000, rebuy_chips=3000)
    entry = playing(event)
    event.status = EventStatus.FINISHED
    event.save()
    with pytest.raises(EventFinishedError):
        money_services.buy(
            event_id=event.pk, entry_id=entry.pk, kind=PurchaseKind.REBUY, actor=floor_user
        )
    assert not Purchase.objects.exists()


def test_the_ledger_is_append_only(floor_user):
    event = money_event()
    entry = register_entry(event_id=event.pk, actor=floor_user, name="Anna")
    purchase = entry.purchases.get()
    purchase.amount = 1
    with pytest.raises(ValueError, match="append-only"):
        purchase.save()


def test_a_second_buy_in_for_an_entry_is_refused(floor_user):
    event = money_event()
    entry = register_entry(event_id=event.pk, actor=floor_user, name="Anna")
    with pytest.raises(money_services.PurchaseRefusedError, match="already paid"):
        money_services.buy(
            event_id=event.pk, entry_id=entry.pk, kind=PurchaseKind.BUY_IN, actor=floor_user
        )


def test_a_guarantee_fills_the_prize_pool(floor_user):
    event = money_event(guarantee=10_000)
    register_entry(event_id=event.pk, actor=floor_user, name="Anna")
    pool = money_selectors.prize_pool(event)
    assert (pool.total, pool.overlay) == (10_000, 8_000)


def test_bounties_go_to_whoever_busted_the_player(floor_user):
    event = money_event(bounty=500, re_entry=True)
    anna = register_entry(event_id=event.pk, actor=floor_user, name="Anna")
    bert = register_entry(event_id=event.pk, actor=floor_user, name="Bert")
    carl = register_entry(event_id=event.pk, actor=floor_user, name="Carl")
    Entry.objects.filter(event=event).update(status=EntryStatus.PLAYING)
    busts = {anna.pk: bert.pk, carl.pk: bert.pk}
    winners = money_services.check_busted_by(event=event, busted_by=busts)
    assert set(winners) == {bert.pk}
    money_services.set_busted_by(entries={anna.pk: anna, carl.pk: carl}, busted_by=busts)
    assert money_selectors.bounties_won(event) == {bert.pk: (2, 1000)}
    money_services.set_busted_by(entries={anna.pk: anna}, busted_by={anna.pk: None})  # undo
    assert money_selectors.bounties_won(event) == {bert.pk: (1, 500)}


def test_a_buster_out_in_the_same_hand_or_elsewhere_is_refused(floor_user):
    event = money_event(bounty=500)
    anna = register_entry(event_id=event.pk, actor=floor_user, name="Anna")
    bert = register_entry(event_id=event.pk, actor=floor_user, name="Bert")
    Entry.objects.filter(event=event).update(status=EntryStatus.PLAYING)
    stranger = playing(make_event(name="Elsewhere", structure=event.structure))
    with pytest.raises(money_services.BustedByError, match="not still in play"):
        money_services.check_busted_by(event=event, busted_by={anna.pk: bert.pk, bert.pk: None})
    with pytest.raises(money_services.BustedByError, match="not in this event"):
        money_services.check_busted_by(event=event, busted_by={anna.pk: stranger.pk})
    with pytest.raises(money_services.BustedByError, match="not still in play"):
        money_services.check_busted_by(event=event, busted_by={anna.pk: anna.pk})


def test_a_registration_form_sent_again_for_another_name_registers_nobody(floor_user):
    event = money_event()
    register_entry(event_id=event.pk, actor=floor_user, name="Anna", key="page-1-register")
    with pytest.raises(FloorError, match="sent already"):
        register_entry(event_id=event.pk, actor=floor_user, name="Bert", key="page-1-register")
    assert not Entry.objects.filter(player__name="Bert").exists()
    assert Purchase.objects.count() == 1


def test_a_rebuy_taken_back_leaves_the_pool_and_the_chips_once(floor_user):
    event = money_event(rebuy_price=2000, rebuy_chips=3000, rebuy_limit=1)
    entry = playing(event)
    purchase = money_services.buy(
        event_id=event.pk, entry_id=entry.pk, kind=PurchaseKind.REBUY, actor=floor_user
    )
    for _click in range(2):
        money_services.void_purchase(event_id=event.pk, purchase_id=purchase.pk, actor=floor_user)
    assert money_selectors.chips_bought(event) == 0
    assert money_selectors.prize_pool(event).rebuys == 0
    assert AuditEvent.objects.filter(action="money.voided").count() == 1
    assert Purchase.objects.filter(pk=purchase.pk).exists()  # the ledger keeps it
    # the limit counts the rebuys that stand: he may rebuy again
    money_services.buy(
        event_id=event.pk, entry_id=entry.pk, kind=PurchaseKind.REBUY, actor=floor_user
    )


def test_a_buy_in_is_not_taken_back(floor_user):
    event = money_event()
    entry = register_entry(event_id=event.pk, actor=floor_user, name="Anna")
    with pytest.raises(FloorError, match="Only a rebuy or an add-on"):
        money_services.void_purchase(
            event_id=event.pk, purchase_id=entry.purchases.get().pk, actor=floor_user
        )
    assert money_selectors.prize_pool(event).buy_ins == 1
