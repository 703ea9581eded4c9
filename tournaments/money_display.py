"""What the floor page shows of the money: prices, the pool, and what each entry may buy now.

Read in bulk (two queries for the whole field) and drawn from the same rules the services
check (tournaments.money.refusal), so a button shown is a purchase allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tournaments import money
from tournaments.models import Entry, EntryStatus, Event, EventStatus, Purchase
from tournaments.money_format import format_money
from tournaments.money_selectors import bounties_won, money_rules, play_level

RECENT = 5  # the last rebuys and add-ons the floor may take back


@dataclass(frozen=True, kw_only=True, slots=True)
class EntryMoney:
    """One entry's purchases and the ones it may make now."""

    paid: int
    rebuys: int
    add_ons: int
    allowed: frozenset[money.PurchaseKind] = field(default_factory=frozenset)
    chips: int = 0  # from this entry's rebuys and add-ons

    @property
    def can_buy_in(self) -> bool:
        return money.PurchaseKind.BUY_IN in self.allowed

    @property
    def can_rebuy(self) -> bool:
        return money.PurchaseKind.REBUY in self.allowed

    @property
    def can_add_on(self) -> bool:
        return money.PurchaseKind.ADD_ON in self.allowed

    @property
    def can_re_enter(self) -> bool:
        return money.PurchaseKind.RE_ENTRY in self.allowed

    @property
    def paid_text(self) -> str:
        return format_money(self.paid)


@dataclass(frozen=True, kw_only=True, slots=True)
class MoneyRow:
    """A line of the floor's money list: an entry, its purchases and its bounties won."""

    entry: Entry
    money: EntryMoney
    knockouts: int = 0
    bounties_won: int = 0

    @property
    def bounties_text(self) -> str:
        return format_money(self.bounties_won)


@dataclass(frozen=True, kw_only=True, slots=True)
class FloorMoney:
    """The money of an event for the floor page; ``is_set`` False draws nothing (a freeroll)."""

    rules: money.MoneyRules
    pool: money.PrizePool
    late_registration_open: bool
    play_level: int
    entries: dict[int, EntryMoney]
    rows: list[MoneyRow] = field(default_factory=list)
    recent: list[Purchase] = field(default_factory=list)  # rebuys and add-ons to take back

    @property
    def is_set(self) -> bool:
        return self.rules != money.MoneyRules()

    @property
    def shows_amounts(self) -> bool:
        return self.rules.has_money

    def price_text(self, kind: money.PurchaseKind) -> str:
        price = self.rules.price_of(kind)
        if price is None or not price.paid:
            return ""
        if not price.fee:
            return format_money(price.amount)
        return f"{format_money(price.amount)} + {format_money(price.fee)}"

    @property
    def buy_in_text(self) -> str:
        return self.price_text(money.PurchaseKind.BUY_IN)

    @property
    def rebuy_text(self) -> str:
        return self.price_text(money.PurchaseKind.REBUY)

    @property
    def add_on_text(self) -> str:
        return self.price_text(money.PurchaseKind.ADD_ON)

    @property
    def pool_text(self) -> str:
        return format_money(self.pool.total)

    @property
    def fees_text(self) -> str:
        return format_money(self.pool.fees)

    @property
    def bounties_text(self) -> str:
        return format_money(self.pool.bounties)

    @property
    def overlay_text(self) -> str:
        return format_money(self.pool.overlay)

    @property
    def bounty_text(self) -> str:
        return format_money(self.rules.buy_in.bounty) if self.rules.has_bounties else ""

    def stack_hint(self, entry: Entry) -> int:
        """The chips an entry has had: its starting stack and its rebuys and add-ons."""
        return entry.starting_stack + self.of(entry.pk).chips

    def of(self, entry_id: int) -> EntryMoney:
        return self.entries.get(entry_id, EntryMoney(paid=0, rebuys=0, add_ons=0))


def _states(
    entries: Sequence[Entry], purchases: Sequence[Purchase]
) -> dict[int, tuple[money.EntryState, int, int]]:
    """Entry id -> (the rules' view of it, what it paid, chips it bought), from rows read."""
    by_player: dict[int, dict[str, int]] = {}
    by_entry: dict[int, list[Purchase]] = {}
    entry_player = {entry.pk: entry.player_id for entry in entries}
    for purchase in purchases:
        by_entry.setdefault(purchase.entry_id, []).append(purchase)
        counts = by_player.setdefault(entry_player.get(purchase.entry_id, 0), {})
        counts[purchase.kind] = counts.get(purchase.kind, 0) + 1
    latest: dict[int, int] = {}
    for entry in entries:
        latest[entry.player_id] = max(latest.get(entry.player_id, 0), entry.number)
    states = {}
    for entry in entries:
        counts, own = by_player.get(entry.player_id, {}), by_entry.get(entry.pk, [])
        state = money.EntryState(
            in_play=entry.status == EntryStatus.PLAYING,
            busted=entry.status == EntryStatus.BUSTED,
            is_latest=entry.number >= latest[entry.player_id],
            has_buy_in=any(p.kind in {"buy_in", "re_entry"} for p in own),
            rebuys=counts.get("rebuy", 0),
            add_ons=counts.get("add_on", 0),
            re_entries=counts.get("re_entry", 0),
        )
        chips = sum(p.chips for p in own if p.kind in {"rebuy", "add_on"})
        states[entry.pk] = (state, sum(p.paid for p in own), chips)
    return states


def floor_money(event: Event, entries: Sequence[Entry]) -> FloorMoney:
    """The floor page's money: prices, pool, and per entry what it paid and may buy now."""
    rules = money_rules(event)
    purchases = list(Purchase.objects.valid().filter(event=event))
    level = play_level(event)
    finished = event.status == EventStatus.FINISHED
    all_entries = list(
        Entry.objects.filter(event=event).only("pk", "player_id", "number", "status")
    )
    states = _states(all_entries, purchases)
    shown = {entry.pk for entry in entries}
    per_entry = {}
    for entry_id, (state, paid, chips) in states.items():
        if entry_id not in shown:
            continue
        allowed = frozenset(
            kind
            for kind in money.PurchaseKind
            if money.refusal(
                rules=rules, kind=kind, state=state, play_level=level, finished=finished
            )
            is None
        )
        per_entry[entry_id] = EntryMoney(
            paid=paid, rebuys=state.rebuys, add_ons=state.add_ons, allowed=allowed, chips=chips
        )
    pool = money.prize_pool_of([p.bought() for p in purchases], guarantee=rules.guarantee)
    late_open = not (
        rules.late_registration.last is not None
        and event.clock_level_started_at is not None
        and rules.late_registration.refusal(level) is not None
    )
    won = bounties_won(event) if rules.has_bounties else {}
    rows = [
        MoneyRow(
            entry=entry, money=per_entry[entry.pk], knockouts=won.get(entry.pk, (0, 0))[0],
            bounties_won=won.get(entry.pk, (0, 0))[1],
        )
        for entry in entries
        if entry.pk in per_entry and (per_entry[entry.pk].allowed or entry.pk in won)
    ]  # fmt: skip
    recent = (
        Purchase.objects.valid()
        .filter(event=event, kind__in=["rebuy", "add_on"])
        .select_related("entry__player")
        .order_by("-created_at", "-pk")[:RECENT]
    )
    return FloorMoney(
        rules=rules, pool=pool, late_registration_open=late_open, play_level=level,
        entries=per_entry, rows=rows, recent=[] if finished else list(recent),
    )  # fmt: skip
