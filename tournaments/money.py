"""Money rules without the ORM: amounts in cents, the prize pool, when a purchase is allowed.

Amounts are whole numbers of the currency's smallest unit (cents); nothing here rounds.
R5.1 (freeze-out: no rebuy, no add-on) is the default: an event without money rules allows
neither and charges nothing.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


class PurchaseKind(enum.StrEnum):
    """What an entry pays for."""

    BUY_IN = "buy_in"
    REBUY = "rebuy"
    ADD_ON = "add_on"
    RE_ENTRY = "re_entry"


class Refusal(enum.StrEnum):
    """Why a purchase is not allowed; the services word each one for the floor."""

    NOT_OFFERED = "not_offered"
    TOO_EARLY = "too_early"
    TOO_LATE = "too_late"
    LIMIT_REACHED = "limit_reached"
    NOT_IN_PLAY = "not_in_play"
    NOT_BUSTED = "not_busted"
    ALREADY_BOUGHT_IN = "already_bought_in"
    ALREADY_RE_ENTERED = "already_re_entered"
    EVENT_FINISHED = "event_finished"


class AmountError(ValueError):
    """Text that is not an amount of money (the message is English; forms word their own)."""


AMOUNT = re.compile(r"^(?P<whole>\d{1,9})(?:[.,](?P<cents>\d{1,2}))?$")
GROUPED = re.compile(r"^\d{1,3}(?:[.,' ]\d{3})+$")


def parse_amount(text: str) -> int:
    """Cents from what a person types: "20", "20.00", "20,00", "20,5", "1.250,00", "1,250.00".

    One separator followed by one or two digits is the decimal point, whichever it is; three
    digits after it are thousands ("1.000" and "1,000" are both a thousand), as both the German
    and the English reader would mean it.
    """
    cleaned = text.strip().replace("\u00a0", " ").replace("€", "").replace("EUR", "").strip()
    if not cleaned:
        raise AmountError("empty amount")
    whole, decimals = cleaned, ""
    last = max(cleaned.rfind("."), cleaned.rfind(","))
    if last != -1 and len(cleaned) - last - 1 in {1, 2}:
        whole, decimals = cleaned[:last], cleaned[last + 1 :]
    if GROUPED.match(whole):
        whole = re.sub(r"[.,' ]", "", whole)
    match = AMOUNT.match(f"{whole}.{decimals}" if decimals else whole)
    if match is None:
        raise AmountError(f"not an amount: {text!r}")
    cents = match.group("cents") or "0"
    return int(match.group("whole")) * 100 + int(cents.ljust(2, "0"))


@dataclass(frozen=True, kw_only=True, slots=True)
class Price:
    """One purchase's money: what goes to the prize pool (bounty included) and the house fee."""

    amount: int = 0
    fee: int = 0
    bounty: int = 0  # the part of ``amount`` that is the busted player's bounty
    chips: int = 0

    @property
    def paid(self) -> int:
        """What the player hands over."""
        return self.amount + self.fee


@dataclass(frozen=True, kw_only=True, slots=True)
class Window:
    """When a purchase is offered: play levels ``first``..``last`` (numbers as on the clock).

    A break belongs to the level before it: "until level 6" takes the break after level 6 and
    closes when level 7 starts. ``last`` None: no end.
    """

    first: int = 1
    last: int | None = None

    def refusal(self, play_level: int) -> Refusal | None:
        if play_level < self.first:
            return Refusal.TOO_EARLY
        if self.last is not None and play_level > self.last:
            return Refusal.TOO_LATE
        return None


@dataclass(frozen=True, kw_only=True, slots=True)
class MoneyRules:
    """An event's money settings as plain data; the default is a freeroll freeze-out (R5.1)."""

    buy_in: Price = Price()
    rebuy: Price | None = None  # None: no rebuys (R5.1)
    rebuy_window: Window = Window()
    rebuy_limit: int | None = None  # per player; None: no limit
    add_on: Price | None = None  # None: no add-on (R5.1)
    add_on_window: Window = Window()
    add_on_limit: int = 1
    re_entry: bool = False
    re_entry_window: Window = Window()
    re_entry_limit: int | None = None  # re-entries per player; None: no limit
    late_registration: Window = Window()
    guarantee: int = 0

    @property
    def has_money(self) -> bool:
        """Whether anything costs money: otherwise no amount is shown anywhere."""
        prices = [self.buy_in, self.rebuy, self.add_on]
        return self.guarantee > 0 or any(p is not None and p.paid > 0 for p in prices)

    @property
    def has_bounties(self) -> bool:
        return self.buy_in.bounty > 0

    def price_of(self, kind: PurchaseKind) -> Price | None:
        """The price of a purchase, None if the event does not offer it."""
        if kind in {PurchaseKind.BUY_IN, PurchaseKind.RE_ENTRY}:
            return self.buy_in if kind is PurchaseKind.BUY_IN or self.re_entry else None
        return self.rebuy if kind is PurchaseKind.REBUY else self.add_on


def play_level_number(kinds: Sequence[str], index: int) -> int:
    """The clock's level number at a position of the structure; a break counts as the level
    before it, a break before the first level as level 1."""
    return max(1, sum(1 for kind in kinds[: index + 1] if kind == "play"))


@dataclass(frozen=True, kw_only=True, slots=True)
class EntryState:
    """What the rules need to know about an entry and its player in the event."""

    in_play: bool  # registered, checked in or playing: chips in front of him or to come
    busted: bool
    is_latest: bool  # no later entry of the same player in the event
    has_buy_in: bool
    rebuys: int  # of the player in the event, all his entries
    add_ons: int
    re_entries: int


def refusal(
    *, rules: MoneyRules, kind: PurchaseKind, state: EntryState, play_level: int, finished: bool
) -> Refusal | None:
    """Why this purchase is not allowed now, or None if it is (R5.1: none by default)."""
    if finished:
        return Refusal.EVENT_FINISHED
    if rules.price_of(kind) is None:
        return Refusal.NOT_OFFERED
    checks = {
        PurchaseKind.BUY_IN: _buy_in_refusal,
        PurchaseKind.REBUY: _rebuy_refusal,
        PurchaseKind.ADD_ON: _add_on_refusal,
        PurchaseKind.RE_ENTRY: _re_entry_refusal,
    }
    return checks[kind](rules, state, play_level)


def _buy_in_refusal(rules: MoneyRules, state: EntryState, play_level: int) -> Refusal | None:
    if not rules.has_money:
        return Refusal.NOT_OFFERED  # a freeroll records no buy-in
    if state.has_buy_in:
        return Refusal.ALREADY_BOUGHT_IN
    return None  # late registration is checked when the entry is registered


def _rebuy_refusal(rules: MoneyRules, state: EntryState, play_level: int) -> Refusal | None:
    if not state.in_play:
        return Refusal.NOT_IN_PLAY
    if rules.rebuy_limit is not None and state.rebuys >= rules.rebuy_limit:
        return Refusal.LIMIT_REACHED
    return rules.rebuy_window.refusal(play_level)


def _add_on_refusal(rules: MoneyRules, state: EntryState, play_level: int) -> Refusal | None:
    if not state.in_play:
        return Refusal.NOT_IN_PLAY
    if state.add_ons >= rules.add_on_limit:
        return Refusal.LIMIT_REACHED
    return rules.add_on_window.refusal(play_level)


def _re_entry_refusal(rules: MoneyRules, state: EntryState, play_level: int) -> Refusal | None:
    if not state.busted:
        return Refusal.NOT_BUSTED
    if not state.is_latest:
        return Refusal.ALREADY_RE_ENTERED
    if rules.re_entry_limit is not None and state.re_entries >= rules.re_entry_limit:
        return Refusal.LIMIT_REACHED
    return rules.re_entry_window.refusal(play_level)


@dataclass(frozen=True, kw_only=True, slots=True)
class Bought:
    """One recorded purchase, as the prize pool reads it."""

    kind: PurchaseKind
    amount: int
    fee: int
    bounty: int
    chips: int


@dataclass(frozen=True, kw_only=True, slots=True)
class PrizePool:
    """The money of an event, exactly as recorded: every figure in cents.

    ``total`` is what the payouts share: the recorded amounts minus the bounty parts, raised to
    the guarantee if it is higher (``overlay`` is what the house adds). Fees never enter it.
    """

    total: int
    entries: int  # buy-ins and re-entries: the field the payout table is chosen by
    buy_ins: int
    re_entries: int
    rebuys: int
    add_ons: int
    collected: int  # everything paid, fees included
    fees: int
    bounties: int  # the bounty parts, paid out per knockout, not by place
    guarantee: int
    overlay: int

    @property
    def is_empty(self) -> bool:
        return self.collected == 0 and self.guarantee == 0


def prize_pool_of(bought: Iterable[Bought], *, guarantee: int = 0) -> PrizePool:
    """Add up the purchases: the prize pool is an exact function of the recorded money."""
    rows = list(bought)
    counts = {kind: sum(1 for row in rows if row.kind is kind) for kind in PurchaseKind}
    amounts = sum(row.amount for row in rows)
    fees = sum(row.fee for row in rows)
    bounties = sum(row.bounty for row in rows)
    net = amounts - bounties
    total = max(net, guarantee)
    return PrizePool(
        total=total,
        entries=counts[PurchaseKind.BUY_IN] + counts[PurchaseKind.RE_ENTRY],
        buy_ins=counts[PurchaseKind.BUY_IN],
        re_entries=counts[PurchaseKind.RE_ENTRY],
        rebuys=counts[PurchaseKind.REBUY],
        add_ons=counts[PurchaseKind.ADD_ON],
        collected=amounts + fees,
        fees=fees,
        bounties=bounties,
        guarantee=guarantee,
        overlay=total - net,
    )


@dataclass(frozen=True, kw_only=True, slots=True)
class MoneyInput:
    """An event's money settings as the admin enters them (the fields of EventMoney)."""

    buy_in: int = 0
    fee: int = 0
    bounty: int = 0
    guarantee: int = 0
    late_registration_last_level: int | None = None
    rebuy_price: int = 0
    rebuy_fee: int = 0
    rebuy_chips: int = 0
    rebuy_first_level: int = 1
    rebuy_last_level: int | None = None
    rebuy_limit: int | None = None
    add_on_price: int = 0
    add_on_fee: int = 0
    add_on_chips: int = 0
    add_on_first_level: int = 1
    add_on_last_level: int | None = None
    add_on_limit: int = 1
    re_entry: bool = False
    re_entry_last_level: int | None = None
    re_entry_limit: int | None = None

    @property
    def is_freeroll(self) -> bool:
        """Nothing charged, nothing offered, nothing closed: no settings row at all (R5.1)."""
        return self == MoneyInput()

    def problems(self, *, play_levels: int) -> list[tuple[str, str]]:
        """(field, problem code) for each inconsistent setting; empty when all is well."""
        found: list[tuple[str, str]] = []
        if self.bounty > self.buy_in:
            found.append(("bounty", "bounty_above_buy_in"))
        for kind in ("rebuy", "add_on"):
            price, fee, chips = (
                getattr(self, f"{kind}_{part}") for part in ("price", "fee", "chips")
            )
            if (price or fee) and not chips:
                found.append((f"{kind}_chips", "no_chips"))
            last = getattr(self, f"{kind}_last_level")
            if last is not None and last < getattr(self, f"{kind}_first_level"):
                found.append((f"{kind}_last_level", "last_before_first"))
        for name in (
            "late_registration_last_level", "rebuy_first_level", "rebuy_last_level",
            "add_on_first_level", "add_on_last_level", "re_entry_last_level",
        ):  # fmt: skip
            level = getattr(self, name)
            if level is not None and not 1 <= level <= max(play_levels, 1):
                found.append((name, "no_such_level"))
        return found


class WindowState(enum.StrEnum):
    """Where the clock stands in a purchase window."""

    NOT_YET = "not_yet"
    OPEN = "open"
    CLOSED = "closed"


class WindowKind(enum.StrEnum):
    """The purchase windows the TV and the phones show."""

    LATE_REGISTRATION = "late_registration"
    REBUY = "rebuy"
    ADD_ON = "add_on"
    RE_ENTRY = "re_entry"


@dataclass(frozen=True, kw_only=True, slots=True)
class WindowStatus:
    """One offered window at the clock's play level: not yet, open or closed."""

    kind: WindowKind
    state: WindowState
    window: Window


def window_statuses(rules: MoneyRules, play_level: int) -> list[WindowStatus]:
    """The windows the event offers, each at the play level, by the rules the floor checks
    (Window.refusal). Late registration counts only with a last level: without one it never
    closes and there is nothing to announce. A freeroll offers none (R5.1)."""
    offered: list[tuple[WindowKind, Window]] = []
    if rules.late_registration.last is not None:
        offered.append((WindowKind.LATE_REGISTRATION, rules.late_registration))
    if rules.rebuy is not None:
        offered.append((WindowKind.REBUY, rules.rebuy_window))
    if rules.add_on is not None:
        offered.append((WindowKind.ADD_ON, rules.add_on_window))
    if rules.re_entry:
        offered.append((WindowKind.RE_ENTRY, rules.re_entry_window))
    states = {
        None: WindowState.OPEN,
        Refusal.TOO_EARLY: WindowState.NOT_YET,
        Refusal.TOO_LATE: WindowState.CLOSED,
    }
    return [
        WindowStatus(kind=kind, state=states[window.refusal(play_level)], window=window)
        for kind, window in offered
    ]
