"""Writes of the money ledger: buy-in, rebuy, add-on, re-entry; each audited, each once.

Every purchase is refused with the floor's reason when the rules do not allow it (R5.1:
a freeze-out allows no rebuy and no add-on), and a form sent twice with the same key buys once.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments import money
from tournaments.entry_base import (
    FloorError,
    lock_entries,
    lock_event,
    publish_standings,
    starting_stack_for,
)
from tournaments.models import Entry, EntryStatus, Event, Purchase, PurchaseVoid
from tournaments.money_format import format_money
from tournaments.money_selectors import late_registration_closed, money_rules, refusal_for
from tournaments.services import record_audit


class PurchaseRefusedError(FloorError):
    """A purchase the money rules do not allow now; nothing was bought."""

    def __init__(self, message: str, refusal: money.Refusal) -> None:
        super().__init__(message)
        self.refusal = refusal


class LateRegistrationClosedError(FloorError):
    """A registration after the last level of late registration."""


KIND_NAMES = {
    money.PurchaseKind.BUY_IN: lambda: _("Buy-in"),
    money.PurchaseKind.REBUY: lambda: _("Rebuy"),
    money.PurchaseKind.ADD_ON: lambda: _("Add-on"),
    money.PurchaseKind.RE_ENTRY: lambda: _("Re-entry"),
}


def _window_and_limit(
    kind: money.PurchaseKind, rules: money.MoneyRules
) -> tuple[money.Window, int | None]:
    return {
        money.PurchaseKind.REBUY: (rules.rebuy_window, rules.rebuy_limit),
        money.PurchaseKind.ADD_ON: (rules.add_on_window, rules.add_on_limit),
        money.PurchaseKind.RE_ENTRY: (rules.re_entry_window, rules.re_entry_limit),
    }.get(kind, (money.Window(), None))


def refusal_text(
    refusal: money.Refusal, *, kind: money.PurchaseKind, name: str, rules: money.MoneyRules
) -> str:
    """The floor's sentence for a refusal, in the page's language."""
    window, limit = _window_and_limit(kind, rules)
    texts = {
        money.Refusal.NOT_OFFERED: _("%(what)s: not offered in this event (R5.1: freeze-out)."),
        money.Refusal.TOO_EARLY: _("%(what)s: offered from level %(first)s on."),
        money.Refusal.TOO_LATE: _("%(what)s: offered until level %(last)s, which has passed."),
        money.Refusal.LIMIT_REACHED: _("%(what)s: %(name)s has reached the limit of %(limit)s."),
        money.Refusal.NOT_IN_PLAY: _("%(what)s: %(name)s is not playing."),
        money.Refusal.NOT_BUSTED: _("%(what)s: %(name)s is not out."),
        money.Refusal.ALREADY_BOUGHT_IN: _("%(what)s: %(name)s has already paid it."),
        money.Refusal.ALREADY_RE_ENTERED: _("%(what)s: %(name)s has already re-entered."),
        money.Refusal.EVENT_FINISHED: _("%(what)s: the event has finished."),
    }
    return texts[refusal] % {
        "what": KIND_NAMES[kind](), "name": name, "first": window.first, "last": window.last,
        "limit": limit,
    }  # fmt: skip


def _by_key(event: Event, key: str) -> Purchase | None:
    return Purchase.objects.filter(event=event, key=key[:64]).first() if key else None


def _record(
    *, event: Event, entry: Entry, kind: money.PurchaseKind, actor: User | None, key: str
) -> Purchase:
    """Write one purchase at the event's current prices, audit it, tell the pages."""
    price = money_rules(event).price_of(kind)
    assert price is not None  # noqa: S101 - the rules allowed it
    try:
        with transaction.atomic():
            purchase = Purchase.objects.create(
                event=event, entry=entry, kind=kind.value, amount=price.amount, fee=price.fee,
                bounty=price.bounty if kind in {money.PurchaseKind.BUY_IN,
                                                money.PurchaseKind.RE_ENTRY} else 0,
                chips=price.chips, key=key[:64], recorded_by=actor,
            )  # fmt: skip
    except IntegrityError as error:  # the event lock serialises purchases; a key is checked first
        raise FloorError(_("This purchase is already recorded.")) from error
    record_audit(
        actor=actor, action=f"money.{kind.value}", event=event, entry=entry.pk,
        player=entry.player.name, purchase=purchase.pk, amount=purchase.amount,
        fee=purchase.fee, bounty=purchase.bounty, chips=purchase.chips,
    )  # fmt: skip
    publish_standings(event.pk)
    return purchase


def _check(entry: Entry, kind: money.PurchaseKind) -> None:
    rules = money_rules(entry.event)
    refusal = refusal_for(entry, kind, rules=rules)
    if refusal is not None:
        text = refusal_text(refusal, kind=kind, name=entry.label, rules=rules)
        raise PurchaseRefusedError(text, refusal)


@transaction.atomic
def buy(
    *, event_id: int, entry_id: int, kind: money.PurchaseKind, actor: User | None, key: str = ""
) -> Purchase:
    """Record a buy-in, rebuy or add-on of an entry, once (a repeated key buys nothing more)."""
    if kind is money.PurchaseKind.RE_ENTRY:
        raise FloorError(_("A re-entry makes a new entry: use re-enter."))
    event = lock_event(event_id)
    done = _by_key(event, key)
    if done is not None:
        return done  # the same form sent twice: bought once
    (entry,) = lock_entries(event=event, entry_ids=[entry_id])
    entry.event = event
    _check(entry, kind)
    return _record(event=event, entry=entry, kind=kind, actor=actor, key=key)


@transaction.atomic
def re_enter(*, event_id: int, entry_id: int, actor: User | None, key: str = "") -> Entry:
    """A busted player buys a new entry: the next number, a fresh starting stack, checked in."""
    event = lock_event(event_id)
    done = _by_key(event, key)
    if done is not None:
        return done.entry
    (busted,) = lock_entries(event=event, entry_ids=[entry_id])
    busted.event = event
    _check(busted, money.PurchaseKind.RE_ENTRY)
    number = Entry.objects.filter(event=event, player_id=busted.player_id).aggregate(
        last=Max("number")
    )["last"]
    entry = Entry.objects.create(
        event=event, player=busted.player, number=(number or 1) + 1,
        satellites_won=busted.satellites_won, status=EntryStatus.CHECKED_IN,
        starting_stack=starting_stack_for(event=event, satellites_won=busted.satellites_won),
    )  # fmt: skip
    record_audit(
        actor=actor, action="entry.re_entered", event=event, entry=entry.pk,
        previous_entry=busted.pk, player=busted.player.name, number=entry.number,
        starting_stack=entry.starting_stack,
    )  # fmt: skip
    _record(event=event, entry=entry, kind=money.PurchaseKind.RE_ENTRY, actor=actor, key=key)
    return entry


def check_registration_open(event: Event) -> None:
    """Refuse a registration once late registration has closed (the event is locked)."""
    rules = money_rules(event)
    if late_registration_closed(event, rules):
        raise LateRegistrationClosedError(
            _("Late registration closed at the end of level %(level)s.")
            % {"level": rules.late_registration.last}
        )


def charge_buy_in(*, event: Event, entry: Entry, actor: User | None, key: str = "") -> None:
    """At registration: record the buy-in when the event charges one (a freeroll records none)."""
    if not money_rules(event).has_money:
        return
    if _by_key(event, key) is not None:  # the registration form of a page sent a second time
        raise FloorError(_("This form was sent already: look at the entries, then register again."))
    _record(event=event, entry=entry, kind=money.PurchaseKind.BUY_IN, actor=actor, key=key)


def price_text(price: money.Price) -> str:
    """ "20,00 € + 2,00 €" for the floor's buttons and the pages."""
    if not price.fee:
        return format_money(price.amount)
    return f"{format_money(price.amount)} + {format_money(price.fee)}"


class BustedByError(FloorError):
    """A "busted by" that cannot be: not in this event, not in play, or out in the same hand."""


def check_busted_by(*, event: Event, busted_by: Mapping[int, int | None]) -> dict[int, Entry]:
    """The entries named as winners of the bounties of a hand's busts; raise unless valid.

    ``busted_by`` maps each busted entry to the entry that busted him (None: nobody named).
    A winner is an entry of this event still in play and not out in the same hand.
    """
    named = {by for by in busted_by.values() if by is not None}
    winners = {e.pk: e for e in Entry.objects.filter(pk__in=named).select_related("player")}
    for busted, by in busted_by.items():
        if by is None:
            continue
        winner = winners.get(by)
        if winner is None or winner.event_id != event.pk:
            raise BustedByError(_("The player named as the bounty's winner is not in this event."))
        if by == busted or by in busted_by or winner.status != EntryStatus.PLAYING:
            raise BustedByError(
                _("%(name)s cannot have busted anyone in this hand: he is not still in play.")
                % {"name": winner.label}
            )
    return winners


def set_busted_by(*, entries: Mapping[int, Entry], busted_by: Mapping[int, int | None]) -> None:
    """Record who busted whom (the bounty goes with it); None clears it (an undo)."""
    for entry_id, by in busted_by.items():
        entry = entries[entry_id]
        entry.busted_by_id = by
        entry.save(update_fields=["busted_by"])


VOIDABLE = {money.PurchaseKind.REBUY.value, money.PurchaseKind.ADD_ON.value}


@transaction.atomic
def void_purchase(*, event_id: int, purchase_id: int, actor: User | None) -> PurchaseVoid:
    """Take back a rebuy or add-on recorded by mistake: its money and chips leave the counts.

    The purchase stays in the ledger with a void row beside it; a second click finds the void.
    A buy-in or re-entry is never taken back here: the entry it paid for is in the field.
    """
    event = lock_event(event_id)
    purchase = (
        Purchase.objects.select_related("entry__player").filter(pk=purchase_id, event=event).first()
    )
    if purchase is None:
        raise FloorError(_("There is no such purchase in this event."))
    done = PurchaseVoid.objects.filter(purchase=purchase).first()
    if done is not None:
        return done  # a double click: taken back once
    if purchase.kind not in VOIDABLE:
        raise FloorError(_("Only a rebuy or an add-on can be taken back."))
    void = PurchaseVoid.objects.create(purchase=purchase, voided_by=actor)
    record_audit(
        actor=actor, action="money.voided", event=event, purchase=purchase.pk,
        kind=purchase.kind, entry=purchase.entry_id, player=purchase.entry.player.name,
        amount=purchase.amount, fee=purchase.fee, chips=purchase.chips,
    )  # fmt: skip
    publish_standings(event.pk)
    return void
