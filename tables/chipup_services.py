"""The chip-up race at the tables (R5.11, TDA 24): which chip-up is due, run and store a race."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from tables import chipup
from tables.engine import Card, card_name
from tables.models import ChipUpRace, Seat, Table
from tournaments.entry_services import (
    FloorError,
    lock_event,
    publish_standings,
    refuse_online_floor,
)
from tournaments.models import Denomination, Event, Level
from tournaments.services import record_audit


class ChipUpError(FloorError):
    """A race that cannot be run: no chip-up due, a player missing, a bad count."""


@dataclass(frozen=True)
class DueChipUp:
    """The chip-up after a level that has ended: the chip leaving play and the next one up."""

    level_index: int
    level: Level
    chip: Denomination
    new_chip: Denomination


def due_chip_up(event: Event) -> DueChipUp | None:
    """The latest chip-up whose level has ended (Level.chip_up on that level), if any."""
    if event.clock_level_started_at is None:
        return None
    levels = event.levels_list()
    current = event.read_clock().level_index
    for index in range(min(current, len(levels)) - 1, -1, -1):
        chip = levels[index].chip_up
        if chip is not None:
            new_chip = (
                Denomination.objects.filter(chip_set_id=chip.chip_set_id, value__gt=chip.value)
                .order_by("value")
                .first()
            )
            if new_chip is None:
                return None
            return DueChipUp(level_index=index, level=levels[index], chip=chip, new_chip=new_chip)
    return None


@dataclass(frozen=True)
class ChipUpNotice:
    """The floor dashboard's chip-up banner: a race due now, or one after the current level."""

    due_now: bool  # the level that just ended has the chip-up; else the current level has it
    chip: Denomination
    tables_left: int  # tables in play that have not raced yet (due now only)


def chip_up_notice(event: Event) -> ChipUpNotice | None:
    """R5.11: a chip-up due after the level that just ended (breaks between skipped), or next.

    Due now until every table in play has raced; "next" while the level in play has a chip-up.
    Online events colour up by arithmetic between hands (tables.online.tournament): no race.
    """
    if event.clock_level_started_at is None or event.online:
        return None
    levels, current = event.levels_list(), event.read_clock().level_index
    due = due_chip_up(event)
    ended = [i for i in range(min(current, len(levels))) if not levels[i].is_break]
    if due is not None and ended and ended[-1] == due.level_index:
        tables = Table.objects.filter(event=event, is_broken=False, seated__isnull=False)
        raced = ChipUpRace.objects.filter(event=event, level_index=due.level_index)
        left = tables.exclude(chip_up_races__in=raced).distinct().count()
        if left:
            return ChipUpNotice(due_now=True, chip=due.chip, tables_left=left)
    upcoming = levels[current].chip_up if current < len(levels) else None
    if upcoming is not None:
        return ChipUpNotice(due_now=False, chip=upcoming, tables_left=0)
    return None


def dealing_order(table: Table) -> list[Seat]:
    """The table's seats in dealing order: from the left of the button round (R5.11)."""
    seats = sorted(table.seated.select_related("entry__player"), key=lambda seat: seat.number)
    button = table.button_seat or 0
    return [s for s in seats if s.number > button] + [s for s in seats if s.number <= button]


def _line(seat: Seat, line: chipup.RaceLine) -> dict[str, object]:
    """One player's race as stored: every card dealt to him (R5.11: one per leftover chip)."""
    card: Card | None = line.card
    return {
        "entry": seat.entry_id,
        "name": seat.entry.player.name,
        "seat": seat.number,
        "small_chips": line.small_chips,
        "exchanged": line.exchanged,
        "leftover": line.leftover,
        "cards": list(line.cards),
        "card": card,
        "card_name": card_name(card) if card is not None else "",
        "race_chip": line.race_chip,
        "saved": line.saved,
        "new_chips": line.new_chips,
    }


@transaction.atomic
def race_chip_up(
    *,
    event_id: int,
    table_number: int,
    level_index: int,
    small_chips: Mapping[int, int],
    no_other_chips: set[int],
    actor: User | None,
    deck: Sequence[Card] | None = None,
) -> ChipUpRace:
    """R5.11: run one table's race once, store, audit and announce it; a second submit finds it."""
    event = lock_event(event_id)
    refuse_online_floor(event, actor)  # docs/online.md: the engine reports online
    due = due_chip_up(event)
    if due is None or due.level_index != level_index:
        raise ChipUpError(_("No chip-up is due after this level."))
    table = Table.objects.select_for_update().filter(event=event, number=table_number).first()
    if table is None or table.is_broken:
        raise ChipUpError(_("Table %(table)s is not in play.") % {"table": table_number})
    done = ChipUpRace.objects.filter(table=table, level_index=level_index).first()
    if done is not None:
        return done
    seats = dealing_order(table)
    if {seat.entry_id for seat in seats} != set(small_chips):
        raise ChipUpError(_("Give the chips of every player at the table, and only theirs."))
    if any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in small_chips.values()):
        raise ChipUpError(_("A chip count is a whole number, zero or more."))
    result = chipup.race(
        players=[
            chipup.RacePlayer(
                key=seat.entry_id,
                small_chips=small_chips[seat.entry_id],
                has_other_chips=seat.entry_id not in no_other_chips,
            )
            for seat in seats
        ],
        chip_value=due.chip.value,
        new_chip_value=due.new_chip.value,
        deck=deck,
    )
    race = ChipUpRace.objects.create(
        event=event, table=table, level_index=level_index, chip_value=due.chip.value,
        new_chip_value=due.new_chip.value, actor=actor,
        lines=[_line(seat, line) for seat, line in zip(seats, result.lines, strict=True)],
        pool=result.pool, race_chips=result.race_chips, lost=result.lost,
        rounded_up=result.rounded_up, created=result.created, exchanged=result.exchanged,
    )  # fmt: skip
    record_audit(
        actor=actor, action="chip_up.race", event=event, table=table.number,
        level=level_index + 1, chip=due.chip.value, new_chip=due.new_chip.value,
        pool=result.pool, race_chips=result.race_chips, lost=result.lost,
        rounded_up=result.rounded_up, created=result.created, exchanged=result.exchanged,
        lines=race.lines,
    )  # fmt: skip
    publish_standings(event.pk)  # after the commit: the chip-up banners count one table less
    return race
