"""Reads of an event's money: its rules, the prize pool, the chips bought, what an entry may buy."""

from __future__ import annotations

from django.db.models import Sum

from tournaments import money
from tournaments.models import Entry, EntryStatus, Event, EventMoney, EventStatus, Purchase

CHIP_PURCHASES = [money.PurchaseKind.REBUY.value, money.PurchaseKind.ADD_ON.value]


def money_rules(event: Event) -> money.MoneyRules:
    """The event's money rules; without settings a freeroll freeze-out (R5.1)."""
    try:
        settings_row = event.money
    except EventMoney.DoesNotExist:
        return money.MoneyRules()
    return settings_row.rules()


def prize_pool(event: Event) -> money.PrizePool:
    """The prize pool as an exact function of the recorded purchases (docs/money.md)."""
    rules = money_rules(event)
    bought = [purchase.bought() for purchase in Purchase.objects.valid().filter(event=event)]
    return money.prize_pool_of(bought, guarantee=rules.guarantee)


def chips_bought(event: Event) -> int:
    """The chips that rebuys and add-ons brought into play (a total-chips figure adds them)."""
    purchases = Purchase.objects.valid().filter(event=event, kind__in=CHIP_PURCHASES)
    return purchases.aggregate(chips=Sum("chips"))["chips"] or 0


def chips_bought_by_entry(event: Event) -> dict[int, int]:
    """Entry id -> chips from its rebuys and add-ons."""
    rows = (
        Purchase.objects.valid()
        .filter(event=event, kind__in=CHIP_PURCHASES)
        .values("entry_id")
        .annotate(chips=Sum("chips"))
    )
    return {row["entry_id"]: row["chips"] for row in rows}


def play_level(event: Event) -> int:
    """The clock's play level number now; a break counts as the level before it."""
    kinds = [level.kind for level in event.levels_list()]
    if not kinds:
        return 1
    return money.play_level_number(kinds, event.read_clock().level_index)


def entry_state(entry: Entry) -> money.EntryState:
    """What the money rules need to know about an entry and its player's other entries."""
    purchases = Purchase.objects.valid().filter(
        event_id=entry.event_id, entry__player_id=entry.player_id
    )
    counts = dict.fromkeys(money.PurchaseKind, 0)
    for kind in purchases.values_list("kind", flat=True):
        counts[money.PurchaseKind(kind)] += 1
    later = Entry.objects.filter(
        event_id=entry.event_id, player_id=entry.player_id, number__gt=entry.number
    )
    return money.EntryState(
        in_play=entry.status == EntryStatus.PLAYING,
        busted=entry.status == EntryStatus.BUSTED,
        is_latest=not later.exists(),
        has_buy_in=entry.purchases.filter(kind__in=["buy_in", "re_entry"]).exists(),
        rebuys=counts[money.PurchaseKind.REBUY],
        add_ons=counts[money.PurchaseKind.ADD_ON],
        re_entries=counts[money.PurchaseKind.RE_ENTRY],
    )


def refusal_for(
    entry: Entry, kind: money.PurchaseKind, *, rules: money.MoneyRules | None = None
) -> money.Refusal | None:
    """Why the entry may not buy this now (None: it may)."""
    event = entry.event
    return money.refusal(
        rules=rules or money_rules(event),
        kind=kind,
        state=entry_state(entry),
        play_level=play_level(event),
        finished=event.status == EventStatus.FINISHED,
    )


def late_registration_closed(event: Event, rules: money.MoneyRules | None = None) -> bool:
    """Whether the level for late registration has passed (never before the clock starts)."""
    rules = rules or money_rules(event)
    if rules.late_registration.last is None or event.clock_level_started_at is None:
        return False
    return rules.late_registration.refusal(play_level(event)) is not None


def bounties_won(event: Event) -> dict[int, tuple[int, int]]:
    """Entry id -> (knockouts, cents won): each busted entry's bounty part goes to its buster."""
    bounty_of = dict(
        Purchase.objects.filter(event=event, kind__in=["buy_in", "re_entry"]).values_list(
            "entry_id", "bounty"
        )
    )
    won: dict[int, tuple[int, int]] = {}
    knocked = Entry.objects.filter(event=event, busted_by__isnull=False)
    for entry_id, by in knocked.values_list("pk", "busted_by_id"):
        count, cents = won.get(by, (0, 0))
        won[by] = (count + 1, cents + bounty_of.get(entry_id, 0))
    return won
