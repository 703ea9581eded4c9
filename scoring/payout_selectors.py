"""Reads of an event's payouts: the prize pool, the table for its field, a deal, who won what."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring import payouts
from scoring.models import Elimination
from scoring.payout_models import Deal, EventPayout
from tournaments.models import Entry, EntryStatus, Event
from tournaments.money_format import format_money
from tournaments.money_selectors import prize_pool


@dataclass(frozen=True, kw_only=True)
class PayoutLine:
    """One paid place: its share, its prize and, once decided, who won it."""

    place: int
    percentage: int  # basis points of the prize pool
    amount: int  # cents
    name: str = ""

    @property
    def percent_text(self) -> str:
        return payouts.percent_text(self.percentage)

    @property
    def amount_text(self) -> str:
        return format_money(self.amount)


@dataclass(frozen=True, kw_only=True)
class DealLine:
    """One player's share of a saved deal."""

    entry_id: int
    name: str
    chips: int
    amount: int

    @property
    def amount_text(self) -> str:
        return format_money(self.amount)


@dataclass(frozen=True, kw_only=True)
class EventPayouts:
    """What the floor, the TV and the phones show of an event's money."""

    pool: int  # cents
    entries: int  # the field the table is chosen by
    payout: EventPayout | None
    row: payouts.PayoutRow | None
    lines: list[PayoutLine]
    deal: Deal | None = None
    deal_lines: list[DealLine] = field(default_factory=list)
    prize_by_entry: dict[int, int] = field(default_factory=dict)

    @property
    def pool_text(self) -> str:
        return format_money(self.pool)

    @property
    def kept_text(self) -> str:
        return format_money(self.deal.kept) if self.deal else ""

    @property
    def table_lines(self) -> list[PayoutLine]:
        """The places the payout table still pays: after a deal, those below the deal's."""
        return self.lines[self.deal.players :] if self.deal else self.lines

    @property
    def has_table(self) -> bool:
        return self.payout is not None and self.payout.structure_id is not None

    prize_by_place: dict[int, int] = field(default_factory=dict)

    def prize_text(self, entry_id: int) -> str:
        amount = self.prize_by_entry.get(entry_id)
        return "" if amount is None else format_money(amount)


def event_payout(event: Event) -> EventPayout | None:
    """The event's payout settings, None for a freeroll."""
    return EventPayout.objects.filter(event=event).select_related("structure").first()


def active_deal(event: Event) -> Deal | None:
    return Deal.objects.filter(event=event, cancelled_at__isnull=True).first()


def place_amounts(
    *, payout: EventPayout | None, pool: int, entries: int
) -> tuple[payouts.PayoutRow | None, list[int]]:
    """The row for the field and each paid place's prize (empty when nothing is paid)."""
    if payout is None or payout.structure is None:
        return None, []
    row = payouts.row_for_field(payout.structure.rows(), entries)
    if row is None:
        return None, []
    amounts = payouts.payout_amounts(
        pool=pool, row=row, unit=payout.unit, rule=payout.remainder_rule
    )
    return row, amounts


def players_left(event: Event) -> list[Entry]:
    """The entries still in, in name order (the deal calculator's rows)."""
    entries = Entry.objects.filter(event=event, status=EntryStatus.PLAYING)
    return list(entries.select_related("player").order_by("player__name", "pk"))


def remaining_prizes(event: Event) -> tuple[list[int], EventPayout | None]:
    """The prizes of the places still to pay (1st first), one per player left at most."""
    payout = event_payout(event)
    pool = prize_pool(event)
    _row, amounts = place_amounts(payout=payout, pool=pool.total, entries=pool.entries)
    return amounts[: len(players_left(event))], payout


def _placed(event: Event) -> dict[int, tuple[int, str]]:
    """Place -> (entry id, name) of the places decided so far."""
    outs = Elimination.objects.active().filter(event=event).select_related("entry__player")
    # As the standings read them: a later entry moves the places given before it down.
    return {(o.entry.place or o.place): (o.entry_id, o.entry.label) for o in outs}


def _prizes_won(
    *, amounts: list[int], placed: dict[int, tuple[int, str]], deal: Deal | None
) -> dict[int, int]:
    """Entry id -> prize: a placed entry's place prize; a deal player's share (the winner's
    share plus what was kept back for him) whatever his place."""
    dealt = {line["entry_id"]: line["amount"] for line in deal.lines} if deal else {}
    won = {
        placed[place][0]: amount
        for place, amount in enumerate(amounts, start=1)
        if place in placed and placed[place][0] not in dealt
    }
    winner = placed.get(1, (None, ""))[0]
    for entry_id, amount in dealt.items():
        won[entry_id] = amount + (deal.kept if deal and entry_id == winner else 0)
    return won


def event_payouts(event: Event) -> EventPayouts | None:
    """The prize pool and the payout table; None for a freeroll (nothing is shown at all)."""
    pool = prize_pool(event)
    payout = event_payout(event)
    if pool.is_empty and (payout is None or payout.structure is None):
        return None
    row, amounts = place_amounts(payout=payout, pool=pool.total, entries=pool.entries)
    placed = _placed(event)
    deal = active_deal(event)
    lines = [
        PayoutLine(
            place=place,
            percentage=row.percentages[place - 1] if row else 0,
            amount=amount,
            name=placed.get(place, (0, ""))[1],
        )
        for place, amount in enumerate(amounts, start=1)
    ]
    return EventPayouts(
        pool=pool.total,
        entries=pool.entries,
        payout=payout,
        row=row,
        lines=lines,
        deal=deal,
        deal_lines=[DealLine(**line) for line in deal.lines] if deal else [],
        prize_by_entry=(won := _prizes_won(amounts=amounts, placed=placed, deal=deal)),
        prize_by_place={
            place: won[entry_id] for place, (entry_id, _name) in placed.items() if entry_id in won
        },
    )
