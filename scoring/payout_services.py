"""Writes to payout structures, an event's payout settings and deals: validated, audited, atomic."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring import deals, payouts
from scoring.payout_models import Deal, DealMethod, EventPayout, PayoutStructure, PayoutTier
from scoring.payout_selectors import players_left, remaining_prizes
from tournaments import live
from tournaments.models import Event, EventStatus
from tournaments.services import record_audit


class PayoutEditError(ValueError):
    """A write that is refused; ``problems`` says why, naming the row where one is at fault."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(self.problems))


def _changed(event_id: int) -> None:
    """Every page of the event refetches its fragments (the standings carry the payouts)."""
    transaction.on_commit(lambda: live.publish_event_changed(event_id=event_id, what="standings"))


# --- payout structures --------------------------------------------------------------------------


def _locked(structure: PayoutStructure) -> PayoutStructure:
    locked = PayoutStructure.objects.select_for_update().get(pk=structure.pk)
    if locked.is_preset:
        raise PayoutEditError(
            [_("Presets are read-only: duplicate the payout structure to change it.")]
        )
    return locked


def _unique_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise PayoutEditError([_("Give the payout structure a name.")])
    if PayoutStructure.objects.filter(name=name).exists():
        raise PayoutEditError([_("A payout structure with this name exists.")])
    return name


@transaction.atomic
def create_payout_structure(
    *, actor: User | None, name: str, description: str = ""
) -> PayoutStructure:
    """An empty payout structure (a draft until it has a row)."""
    structure = PayoutStructure.objects.create(name=_unique_name(name), description=description)
    record_audit(actor=actor, action="payouts.created", structure=structure.pk, name=structure.name)
    return structure


@transaction.atomic
def duplicate_payout_structure(
    *, actor: User | None, structure: PayoutStructure, name: str
) -> PayoutStructure:
    """A copy of a structure (a preset too) under a new name, with all its rows."""
    copy = PayoutStructure.objects.create(
        name=_unique_name(name), description=structure.description_text
    )
    PayoutTier.objects.bulk_create(
        PayoutTier(
            structure=copy,
            min_entries=tier.min_entries,
            max_entries=tier.max_entries,
            percentages=list(tier.percentages),
        )
        for tier in structure.tiers.all()
    )
    record_audit(
        actor=actor, action="payouts.duplicated", structure=copy.pk, source=structure.pk,
        name=copy.name,
    )  # fmt: skip
    return copy


@transaction.atomic
def save_payout_row(
    *,
    actor: User | None,
    structure: PayoutStructure,
    row: payouts.PayoutRow,
    tier: PayoutTier | None = None,
) -> PayoutTier:
    """Add a row, or change ``tier``; the whole table must stay valid (each problem names its
    row), else nothing changes."""
    structure = _locked(structure)
    tiers = structure.tiers.all() if tier is None else structure.tiers.exclude(pk=tier.pk)
    others = [t.row() for t in tiers]
    problems = payouts.table_problems([*others, row])
    if problems:
        raise PayoutEditError(problems)
    tier = tier or PayoutTier(structure=structure)
    before = tier.row() if tier.pk else None
    tier.min_entries, tier.max_entries = row.min_entries, row.max_entries
    tier.percentages = list(row.percentages)
    tier.save()
    structure.save(update_fields=["updated_at"])
    record_audit(
        actor=actor,
        action="payouts.row_saved",
        structure=structure.pk,
        tier=tier.pk,
        before=_row_data(before),
        after=_row_data(row),
    )
    return tier


def _row_data(row: payouts.PayoutRow | None) -> dict[str, object] | None:
    if row is None:
        return None
    return {"min": row.min_entries, "max": row.max_entries, "percentages": list(row.percentages)}


@transaction.atomic
def delete_payout_row(*, actor: User | None, tier: PayoutTier) -> None:
    """Delete one row of a structure."""
    structure = _locked(tier.structure)
    data = _row_data(tier.row())
    tier.delete()
    structure.save(update_fields=["updated_at"])
    record_audit(actor=actor, action="payouts.row_deleted", structure=structure.pk, row=data)


# --- presets ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PayoutPreset:
    name: str
    description: str  # a message id: shown translated
    rows: tuple[payouts.PayoutRow, ...]


PAYOUT_PRESETS = (
    PayoutPreset(
        "Club table",
        gettext_noop(
            "A common club table: 2–3 entries pay 1 place, 7–10 pay 3, 51 and more pay 8."
        ),
        payouts.CLUB_TABLE,
    ),
    PayoutPreset(
        "Winner takes all",
        gettext_noop("The winner gets the whole prize pool."),
        payouts.WINNER_TAKES_ALL,
    ),
    PayoutPreset(
        "Top 20 %",
        gettext_noop("The best fifth of the field is paid (rounded up), falling shares."),
        payouts.top_fifth_table(),
    ),
)


@transaction.atomic
def load_payout_presets() -> list[PayoutStructure]:
    """Create the missing preset payout structures; existing ones stay as they are."""
    loaded = []
    for preset in PAYOUT_PRESETS:
        structure, created = PayoutStructure.objects.get_or_create(
            name=preset.name, defaults={"description": preset.description, "is_preset": True}
        )
        if created:
            PayoutTier.objects.bulk_create(
                PayoutTier(
                    structure=structure,
                    min_entries=row.min_entries,
                    max_entries=row.max_entries,
                    percentages=list(row.percentages),
                )
                for row in preset.rows
            )
        loaded.append(structure)
    return loaded


# --- an event's payouts -------------------------------------------------------------------------


@transaction.atomic
def set_event_payout(
    *,
    actor: User | None,
    event: Event,
    structure: PayoutStructure | None,
    unit: int,
    remainder: payouts.RemainderRule = payouts.RemainderRule.WINNER,
) -> EventPayout:
    """Choose the event's payout structure (None: a freeroll), rounding unit and remainder rule."""
    if unit < 1:
        raise PayoutEditError([_("The rounding unit is at least one cent.")])
    event = Event.objects.select_for_update(no_key=True).get(pk=event.pk)
    payout, _created = EventPayout.objects.get_or_create(event=event)
    before = {"structure": payout.structure_id, "unit": payout.unit, "remainder": payout.remainder}
    payout.structure, payout.unit, payout.remainder = structure, unit, remainder.value
    payout.save()
    after = {"structure": payout.structure_id, "unit": unit, "remainder": remainder.value}
    if before != after:
        record_audit(
            actor=actor, action="payouts.event_set", event=event, before=before, after=after
        )
        _changed(event.pk)
    return payout


# --- deals --------------------------------------------------------------------------------------

DEAL_ERROR_TEXTS = {
    "a deal needs at least two players": gettext_noop("A deal needs at least two players."),
    "every player in a deal has chips": gettext_noop("Every player in the deal has chips."),
    "there is no prize money left to share": gettext_noop("There is no prize money left to share."),
    "a deal among more than 1,000 players is not computed": gettext_noop(
        "A deal among more than 1,000 players is not computed: not even an estimate of ICM "
        "would be ready in seconds."
    ),
    "the amount kept for the winner is at most 1st minus 2nd prize": gettext_noop(
        "The amount kept for the winner can be at most 1st prize minus 2nd prize."
    ),
}


def deal_error_text(error: deals.DealError) -> str:
    """The pure module speaks English; the floor reads its refusals in the page's language."""
    text = str(error)
    return _(DEAL_ERROR_TEXTS[text]) if text in DEAL_ERROR_TEXTS else text


def calculate_deal(*, event: Event, stacks: dict[int, int], kept: int = 0) -> deals.DealSplit:
    """Both deals for the players left (entry id -> chips), on the places still to pay."""
    left = [entry.pk for entry in players_left(event)]
    if sorted(stacks) != sorted(left):
        raise PayoutEditError(
            [_("The players left have changed since the page was drawn; enter the chips again.")]
        )
    prizes, payout = remaining_prizes(event)
    if payout is None or not prizes:
        raise PayoutEditError([_("This event pays no prizes: choose a payout structure first.")])
    try:
        return deals.split_deal(
            stacks=[stacks[pk] for pk in left], prizes=prizes, unit=payout.unit, kept=kept
        )
    except deals.DealError as error:
        raise PayoutEditError([deal_error_text(error)]) from error


@transaction.atomic
def save_deal(
    *,
    actor: User | None,
    event_id: int,
    method: DealMethod,
    stacks: dict[int, int],
    kept: int,
    key: str,
) -> Deal:
    """Record the deal the players agreed; the shown payouts follow it. Saved once per key."""
    event = Event.objects.select_for_update(no_key=True).get(pk=event_id)
    same = Deal.objects.filter(key=key).first()
    if same is not None:
        return same  # a double submit: the first one was saved
    if event.status == EventStatus.FINISHED:
        raise PayoutEditError([_("The event has finished.")])
    if Deal.objects.filter(event=event, cancelled_at__isnull=True).exists():
        raise PayoutEditError([_("A deal is already saved for this event; cancel it first.")])
    split = calculate_deal(event=event, stacks=stacks, kept=kept)
    amounts = split.icm if method == DealMethod.ICM else split.chip_chop
    names = {entry.pk: entry.label for entry in players_left(event)}
    order = list(names)  # players_left's order, the one calculate_deal used
    lines = [
        {"entry_id": pk, "name": names[pk], "chips": stacks[pk], "amount": amount}
        for pk, amount in zip(order, amounts, strict=True)
    ]
    try:
        with transaction.atomic():
            deal = Deal.objects.create(
                event=event, method=method, total=split.total, kept=kept,
                unit=_unit(event), lines=lines, key=key, actor=actor,
            )  # fmt: skip
    except IntegrityError as error:
        raise PayoutEditError([_("This deal was saved a moment ago.")]) from error
    record_audit(
        actor=actor, action="deal.saved", event=event, deal=deal.pk, method=method.value,
        total=split.total, kept=kept, lines=lines,
    )  # fmt: skip
    _changed(event.pk)
    return deal


def _unit(event: Event) -> int:
    payout = EventPayout.objects.filter(event=event).first()
    return payout.unit if payout else 100


@transaction.atomic
def cancel_deal(*, actor: User | None, event_id: int, deal_id: int) -> Deal:
    """Take back a saved deal (entered by mistake); the payout table applies again."""
    event = Event.objects.select_for_update(no_key=True).get(pk=event_id)
    deal = Deal.objects.filter(pk=deal_id, event=event).first()
    if deal is None or deal.cancelled_at is not None:
        raise PayoutEditError([_("This deal is no longer in force.")])
    deal.cancelled_at = timezone.now()
    deal.save(update_fields=["cancelled_at"])
    record_audit(actor=actor, action="deal.cancelled", event=event, deal=deal.pk)
    _changed(event.pk)
    return deal
