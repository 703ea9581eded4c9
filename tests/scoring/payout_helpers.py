"""Events with money for the payout tests: buy-ins recorded, seats drawn, a payout structure."""

from __future__ import annotations

from scoring.payout_models import PayoutStructure
from scoring.payout_services import load_payout_presets, set_event_payout
from scoring.payouts import RemainderRule
from tables.services import draw_seats
from tests.factories import make_event, make_structure
from tournaments.entry_services import register_entry
from tournaments.models import BlindStructure, EventMoney

STRUCTURE = "Payout test structure"  # shared by the events of one test

NAMES = ("Anna", "Bernd", "Clara", "Dieter", "Eva", "Franz", "Gerda", "Hans", "Ida", "Jan",
         "Karl", "Lena")  # fmt: skip


def money_event(
    *,
    actor,
    players: int = 8,
    buy_in: int = 3_000,
    fee: int = 500,
    payout: str | None = "Club table",
    unit: int = 100,
    rule: RemainderRule = RemainderRule.WINNER,
    name: str = "Money night",
    code: str | None = None,
):
    """An event of ``players`` seated entries who each paid ``buy_in`` + ``fee`` cents, paid
    by the named payout structure (None: no payout structure chosen)."""
    structure = BlindStructure.objects.filter(name=STRUCTURE).first() or make_structure(
        name=STRUCTURE
    )
    event = make_event(structure=structure, name=name, code=code)
    EventMoney.objects.create(event=event, buy_in=buy_in, fee=fee)
    for player in NAMES[:players]:
        register_entry(event_id=event.pk, actor=actor, name=player, check_in=True)
    draw_seats(event_id=event.pk, actor=actor, tables=1 if players <= 10 else 2)
    if payout is not None:
        load_payout_presets()
        structure = PayoutStructure.objects.get(name=payout)
        set_event_payout(actor=actor, event=event, structure=structure, unit=unit, remainder=rule)
    return event
