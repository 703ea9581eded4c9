"""Payout structures, an event's payouts and deals through the services: validation naming the
row, audit, refusals that change nothing, a double submit that saves once."""

from __future__ import annotations

import pytest
from django.db import IntegrityError
from django.utils import translation

from scoring.payout_models import Deal, DealMethod, EventPayout, PayoutStructure, PayoutTier
from scoring.payout_selectors import event_payouts, players_left, remaining_prizes
from scoring.payout_services import (
    PayoutEditError,
    calculate_deal,
    cancel_deal,
    create_payout_structure,
    delete_payout_row,
    duplicate_payout_structure,
    load_payout_presets,
    save_deal,
    save_payout_row,
    set_event_payout,
)
from scoring.payouts import PayoutRow, RemainderRule
from scoring.services import StackInput, record_busts
from tests.factories import make_event
from tests.scoring.payout_helpers import money_event
from tournaments.models import AuditEvent

pytestmark = pytest.mark.django_db


def row(low, high, *percent):
    return PayoutRow(
        min_entries=low, max_entries=high, percentages=tuple(round(p * 100) for p in percent)
    )


def snapshot():
    return (
        list(PayoutStructure.objects.order_by("pk").values()),
        list(PayoutTier.objects.order_by("pk").values()),
        list(EventPayout.objects.order_by("pk").values()),
        list(Deal.objects.order_by("pk").values()),
        AuditEvent.objects.count(),
    )


# --- structures ---------------------------------------------------------------------------------


def test_presets_load_once_and_are_valid(admin_user):
    first = load_payout_presets()
    again = load_payout_presets()
    assert [s.pk for s in first] == [s.pk for s in again]
    assert {s.name for s in first} == {"Club table", "Winner takes all", "Top 20 %"}
    club = PayoutStructure.objects.get(name="Club table")
    assert club.rows()[2] == row(7, 10, 50, 30, 20)


def test_rows_are_saved_whole_and_audited(admin_user):
    structure = create_payout_structure(actor=admin_user, name="House")
    tier = save_payout_row(actor=admin_user, structure=structure, row=row(2, 5, 100))
    save_payout_row(actor=admin_user, structure=structure, row=row(6, None, 65, 35))
    assert structure.rows() == [row(2, 5, 100), row(6, None, 65, 35)]
    save_payout_row(actor=admin_user, structure=structure, row=row(2, 4, 100), tier=tier)
    assert structure.rows()[0] == row(2, 4, 100)
    audits = AuditEvent.objects.filter(action="payouts.row_saved").order_by("pk")
    assert audits.count() == 3
    assert audits.last().data["before"] == {"min": 2, "max": 5, "percentages": [10_000]}
    assert audits.last().actor == admin_user


def test_a_bad_row_is_refused_naming_it_and_changes_nothing(admin_user):
    structure = create_payout_structure(actor=admin_user, name="House")
    save_payout_row(actor=admin_user, structure=structure, row=row(2, 10, 100))
    before = snapshot()
    with translation.override("en"), pytest.raises(PayoutEditError) as error:
        save_payout_row(actor=admin_user, structure=structure, row=row(8, 20, 50, 30, 10))
    assert error.value.problems == [
        "Row 2 (8–20 entries): the percentages add up to 90% instead of 100%.",
        "Row 2 (8–20 entries): its fields overlap those of the row above.",
    ]
    assert snapshot() == before


def test_presets_are_read_only_but_can_be_copied(admin_user):
    club = load_payout_presets()[0]
    before = snapshot()
    with pytest.raises(PayoutEditError, match="read-only"):
        save_payout_row(actor=admin_user, structure=club, row=row(2, 3, 100))
    with pytest.raises(PayoutEditError, match="read-only"):
        delete_payout_row(actor=admin_user, tier=club.tiers.first())
    assert snapshot() == before
    copy = duplicate_payout_structure(actor=admin_user, structure=club, name="Our club")
    assert copy.rows() == club.rows() and not copy.is_preset
    delete_payout_row(actor=admin_user, tier=copy.tiers.order_by("min_entries").last())
    assert len(copy.rows()) == len(club.rows()) - 1
    with pytest.raises(PayoutEditError, match="exists"):
        duplicate_payout_structure(actor=admin_user, structure=club, name="Our club")


# --- an event's payouts -------------------------------------------------------------------------


def test_a_new_event_is_a_freeroll_and_shows_no_money(admin_user):
    event = make_event()
    assert event_payouts(event) is None
    assert not EventPayout.objects.filter(event=event).exists()


def test_the_field_picks_the_row_and_the_pool_is_split_exactly(floor_user):
    """8 entries of 30 € + 5 € fee: 240 € in the pool (fees stay out); the club table's 7–10
    row pays 50/30/20: 120/72/48 €."""
    event = money_event(actor=floor_user, players=8)
    money = event_payouts(event)
    assert (money.pool, money.entries) == (24_000, 8)
    assert [(line.place, line.percentage, line.amount) for line in money.lines] == [
        (1, 5_000, 12_000),
        (2, 3_000, 7_200),
        (3, 2_000, 4_800),
    ]
    with translation.override("de"):
        assert money.lines[0].amount_text == "120,00\u00a0€"
        assert money.lines[0].percent_text == "50\u00a0%"


def test_rounding_and_the_remainder_rule_follow_the_event(floor_user, admin_user):
    """11 entries of 20 €: 220 € at 45/27/17/11 %, to 5 €: the 15 € over to the winner, or
    5 € each from the top."""
    event = money_event(actor=floor_user, players=11, buy_in=2_000, unit=500)
    assert [line.amount for line in event_payouts(event).lines] == [11_000, 5_500, 3_500, 2_000]
    structure = EventPayout.objects.get(event=event).structure
    set_event_payout(
        actor=admin_user, event=event, structure=structure, unit=500,
        remainder=RemainderRule.TOP_DOWN,
    )  # fmt: skip
    assert [line.amount for line in event_payouts(event).lines] == [10_000, 6_000, 4_000, 2_000]
    audit = AuditEvent.objects.filter(action="payouts.event_set").order_by("pk").last()
    assert audit.data["after"]["remainder"] == "top_down" and audit.actor == admin_user


def test_setting_the_same_payouts_twice_audits_once(admin_user):
    event = make_event()
    club = load_payout_presets()[0]
    for _ in range(2):
        set_event_payout(actor=admin_user, event=event, structure=club, unit=100)
    assert AuditEvent.objects.filter(action="payouts.event_set").count() == 1
    with pytest.raises(PayoutEditError):
        set_event_payout(actor=admin_user, event=event, structure=club, unit=0)


def test_finished_places_show_their_prize(floor_user):
    event = money_event(actor=floor_user, players=4)  # 120 €, 4–6 entries pay 65/35
    left = players_left(event)
    for entry in left[:2]:
        record_busts(event_id=event.pk, actor=floor_user, busts=[StackInput(entry.pk, 3_000)])
    money = event_payouts(event)
    assert [line.amount for line in money.lines] == [7_800, 4_200]
    assert money.prize_by_entry == {}  # 4th and 3rd win nothing
    record_busts(event_id=event.pk, actor=floor_user, busts=[StackInput(left[2].pk, 3_000)])
    money = event_payouts(event)
    # 2nd is out; the last player is the winner.
    assert money.prize_by_entry == {left[2].pk: 4_200, left[3].pk: 7_800}
    assert [line.name for line in money.lines] == [left[3].player.name, left[2].player.name]


def test_a_structure_in_use_cannot_be_deleted(floor_user):
    event = money_event(actor=floor_user, players=3)
    with pytest.raises(IntegrityError):
        EventPayout.objects.get(event=event).structure.delete()


# --- deals --------------------------------------------------------------------------------------


def three_left(floor_user):
    """6 entries of 30 €: 180 € at 65/35 (4–6 entries); three busted: places 1–2 are left to
    pay among three players."""
    event = money_event(actor=floor_user, players=6)
    for entry in players_left(event)[:3]:
        record_busts(event_id=event.pk, actor=floor_user, busts=[StackInput(entry.pk, 3_000)])
    return event, players_left(event)


def test_the_calculator_splits_the_places_still_to_pay(floor_user):
    event, left = three_left(floor_user)
    prizes, _payout = remaining_prizes(event)
    assert prizes == [11_700, 6_300]
    stacks = {left[0].pk: 9_000, left[1].pk: 6_000, left[2].pk: 3_000}
    split = calculate_deal(event=event, stacks=stacks)
    assert split.chip_chop == (9_000, 6_000, 3_000)
    assert sum(split.icm) == 18_000
    assert split.icm[0] < 9_000 and split.icm[2] > 3_000  # ICM flattens the chip shares


def test_a_saved_deal_is_audited_and_the_payouts_follow_it(floor_user):
    event, left = three_left(floor_user)
    stacks = {left[0].pk: 9_000, left[1].pk: 6_000, left[2].pk: 3_000}
    deal = save_deal(
        actor=floor_user, event_id=event.pk, method=DealMethod.CHIP_CHOP, stacks=stacks,
        kept=1_000, key="k1",
    )  # fmt: skip
    # 1st counts 117 - 10 = 107 €: 170 € shared by chips (85/56.67/28.33 -> 85/57/28 €).
    assert [line["amount"] for line in deal.lines] == [8_500, 5_700, 2_800]
    audit = AuditEvent.objects.get(action="deal.saved")
    assert audit.actor == floor_user and audit.data["kept"] == 1_000
    money = event_payouts(event)
    assert money.deal == deal and money.table_lines == []
    # The players play on for the 10 € kept back: the winner gets it on top of his share.
    record_busts(event_id=event.pk, actor=floor_user, busts=[StackInput(left[0].pk, 9_000)])
    record_busts(event_id=event.pk, actor=floor_user, busts=[StackInput(left[1].pk, 6_000)])
    money = event_payouts(event)
    assert money.prize_by_entry[left[0].pk] == 8_500  # 3rd, but his deal share
    assert money.prize_by_entry[left[2].pk] == 2_800 + 1_000  # the winner


def test_a_double_submit_saves_one_deal(floor_user):
    event, left = three_left(floor_user)
    stacks = {entry.pk: 5_000 for entry in left}
    kwargs = {"actor": floor_user, "event_id": event.pk, "method": DealMethod.ICM,
              "stacks": stacks, "kept": 0, "key": "same"}  # fmt: skip
    first, second = save_deal(**kwargs), save_deal(**kwargs)
    assert first == second
    assert Deal.objects.count() == 1
    assert AuditEvent.objects.filter(action="deal.saved").count() == 1


def test_a_second_deal_or_a_stale_one_is_refused_and_changes_nothing(floor_user):
    event, left = three_left(floor_user)
    stacks = {entry.pk: 5_000 for entry in left}
    save_deal(actor=floor_user, event_id=event.pk, method=DealMethod.ICM, stacks=stacks,
              kept=0, key="a")  # fmt: skip
    before = snapshot()
    with pytest.raises(PayoutEditError, match="already saved"):
        save_deal(actor=floor_user, event_id=event.pk, method=DealMethod.ICM, stacks=stacks,
                  kept=0, key="b")  # fmt: skip
    assert snapshot() == before
    cancel_deal(actor=floor_user, event_id=event.pk, deal_id=Deal.objects.get().pk)
    assert AuditEvent.objects.filter(action="deal.cancelled").count() == 1
    assert event_payouts(event).deal is None
    with pytest.raises(PayoutEditError, match="no longer"):
        cancel_deal(actor=floor_user, event_id=event.pk, deal_id=Deal.objects.get().pk)
    stale = {entry.pk: 5_000 for entry in left[:2]}  # one player missing
    before = snapshot()
    with pytest.raises(PayoutEditError, match="changed"):
        save_deal(actor=floor_user, event_id=event.pk, method=DealMethod.ICM, stacks=stale,
                  kept=0, key="c")  # fmt: skip
    assert snapshot() == before


@pytest.mark.parametrize(
    ("kept", "message"),
    [(5_401, "1st prize minus 2nd prize"), (0, None)],
)
def test_the_amount_kept_back_is_checked(floor_user, kept, message):
    event, left = three_left(floor_user)
    stacks = {entry.pk: 5_000 for entry in left}
    if message is None:
        assert calculate_deal(event=event, stacks=stacks, kept=kept).kept == 0
        return
    with translation.override("en"), pytest.raises(PayoutEditError, match=message):
        calculate_deal(event=event, stacks=stacks, kept=kept)


def test_a_freeroll_has_no_deal_to_make(floor_user):
    event = money_event(actor=floor_user, players=3, payout=None, buy_in=0, fee=0)
    stacks = {entry.pk: 5_000 for entry in players_left(event)}
    with pytest.raises(PayoutEditError, match="pays no prizes"):
        calculate_deal(event=event, stacks=stacks)
