"""An online event's tables (docs/online.md, "Online tournaments"): who is dealt in under the
dead button (R2.7), sitting-out players dealt in (R2.9), hand-for-hand (TDA RP-8), the
arithmetic colour-up (R5.11) and the chips of the whole event.

An online event's table mirrors a floor table (``OnlineTable.floor_table``): the same number,
the same seats, the same button and last blinds, so balancing, busts, places and the floor's
pages are the live event's own. Only the dealing is here; the event's director (starting,
busts, balancing) is scoring.online_events.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, F, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from tables import positions
from tables.models import FloorStep, HandForHand, Move, Seat, StepStatus, Table
from tables.online.dealing import HandPlan
from tables.online.models import (
    ChipChangeKind,
    Game,
    OnlineChipChange,
    OnlineSeat,
    OnlineTable,
    SeatStatus,
    TableHand,
)
from tables.online.statements import Prepared, event_row
from tournaments import structures
from tournaments.models import Entry, Event

# A structure's game (tournaments.structure_models.Game) as an online table deals it.
TABLE_GAMES = {
    "no_limit": Game.NO_LIMIT_HOLDEM,
    "pot_limit": Game.POT_LIMIT_HOLDEM,
    "limit": Game.LIMIT_HOLDEM,
    "plo": Game.POT_LIMIT_OMAHA,
    "stud": Game.SEVEN_CARD_STUD,
    "draw_holdem": Game.DRAW_HOLDEM,
}


@dataclass(frozen=True, kw_only=True, slots=True)
class TournamentHand:
    """The next hand at an online event's table and what the floor table keeps of it."""

    plan: HandPlan
    dead_small_blind: bool
    button_seat: int  # R2.7: may be empty (a dead button)
    small_blind_seat: int
    big_blind_seat: int


def _clockwise(seats: int, start: int, numbers: set[int]) -> list[int]:
    """The seats in ``numbers`` clockwise strictly after ``start``, ``start`` itself last."""
    return [s for s in ((start + i - 1) % seats + 1 for i in range(1, seats + 1)) if s in numbers]


def plan_tournament_hand(
    *, state: positions.TableState, ready: Sequence[int], waiting: Sequence[int] = ()
) -> TournamentHand | None:
    """The next hand under the dead button (R2.7): every seat with chips is dealt in, sitting
    out or not (R2.9), except a player moved in between the small blind and the button, who
    waits until the button has passed him (TDA 10B: ``waiting`` seats that positions.dealt_in
    still refuses). None when fewer than two can play.
    """
    dealt_set = {s for s in ready if s not in waiting or positions.dealt_in(table=state, seat=s)}
    if len(dealt_set) < 2:
        return None
    hand = positions.next_hand(state)
    big_blind = hand.big_blind_seat
    if big_blind is None or big_blind not in dealt_set:
        big_blind = _clockwise(state.seats, hand.small_blind_seat, dealt_set)[0]
    small_blind, button = hand.small_blind_seat, hand.button_seat
    if len(dealt_set) == 2:
        # R2.8: heads-up the button posts the small blind and the other player the big blind.
        small_blind = button = next(s for s in dealt_set if s != big_blind)
    dealt = _clockwise(state.seats, button, dealt_set)  # position 0 left of the button
    position = {seat: index for index, seat in enumerate(dealt)}
    dead = small_blind not in dealt_set or small_blind == big_blind
    # A dead button: the engine's button is the player right of the empty button seat.
    engine_button = position[button] if button in dealt_set else len(dealt) - 1
    plan = HandPlan(
        seat_numbers=tuple(dealt),
        button=engine_button,
        small_blind=-1 if dead else position[small_blind],
        big_blind=position[big_blind],
        posts=(),
        joined=tuple(sorted(s for s in waiting if s in dealt_set)),
    )
    return TournamentHand(
        plan=plan,
        dead_small_blind=dead,
        button_seat=button,
        small_blind_seat=small_blind,
        big_blind_seat=big_blind,
    )


def table_state(floor_table: Table, players: Mapping[int, int]) -> positions.TableState:
    """The floor table between hands, as the positions and the balancing planner read it."""
    button = floor_table.button_seat
    if button is None:  # no button drawn: the lowest seat
        button = min(players, default=1)
    if floor_table.big_blind_seat is None:
        # The seat draw (and the final table's, RP-9) names the button of the hand to come;
        # a dealt hand always keeps its big blind (keep_positions).
        return positions.TableState.before_first_hand(
            table=floor_table.number, seats=floor_table.seats, players=dict(players),
            button_seat=button,
        )  # fmt: skip
    return positions.TableState(
        table=floor_table.number,
        seats=floor_table.seats,
        players=dict(players),
        button_seat=button,
        big_blind_seat=floor_table.big_blind_seat,
        small_blind_seat=floor_table.small_blind_seat,
    )


def plan_for(table: OnlineTable, seats: Sequence[OnlineSeat]) -> TournamentHand | None:
    """The next hand at an online event's table from its seats as they stand."""
    floor_table = table.floor_table
    assert floor_table is not None  # noqa: S101 - the caller checked
    occupied = {seat.number: seat.entry_id or seat.pk for seat in seats}
    ready = [seat.number for seat in seats if seat.stack > 0 and not seat.leaving]
    waiting = [seat.number for seat in seats if seat.status == SeatStatus.WAITING]
    return plan_tournament_hand(
        state=table_state(floor_table, occupied), ready=ready, waiting=waiting
    )


def keep_positions(table: OnlineTable, dealt: TournamentHand) -> None:
    """The floor table remembers the hand's button and blinds (R2.7), as the live floor does."""
    Table.objects.filter(pk=table.floor_table_id or 0).update(
        button_seat=dealt.button_seat,
        small_blind_seat=dealt.small_blind_seat,
        big_blind_seat=dealt.big_blind_seat,
    )


def hand_for_hand_number(table: OnlineTable) -> tuple[bool, int | None]:
    """TDA RP-8: (may this table deal, the hand-for-hand hand it deals). On the bubble every
    table deals one hand, then waits until every table has finished that hand."""
    floor_table = table.floor_table
    assert floor_table is not None  # noqa: S101 - the caller checked
    open_hand = HandForHand.objects.filter(
        event_id=floor_table.event_id, completed_at__isnull=True
    ).first()
    if open_hand is None:
        return True, None
    if floor_table.number in open_hand.done_tables:
        return False, None
    dealt = TableHand.objects.filter(table=table, hand_for_hand=open_hand.number).exists()
    return not dealt, open_hand.number


def tables_a_plan_holds(
    data: Mapping[str, Any], *, moves_anyone: bool, moves_from: Iterable[int],
    numbers: Iterable[int],
) -> set[int]:  # fmt: skip
    """The tables of ``numbers`` that an event's pending plan (its ``data``) waits for between
    hands (TDA 11D): the tables it takes players from (``moves_from``) and the tables it
    breaks; every table when it draws the final table (TDA RP-9). None when it moves nobody
    and breaks nothing: such a plan has nothing to carry out. The director's ``_balance``
    holds these tables, and a hand that ends at one of them waits for the director
    (``waits_for_the_director``): one rule for both."""
    broken = set(data.get("broken_tables", []))
    if not moves_anyone and not broken:
        return set()
    numbers = set(numbers)
    if data.get("final_table") is not None:
        return numbers
    return (set(moves_from) | broken) & numbers


def waits_for_the_director(hand: TableHand, final_stacks: Sequence[int]) -> bool:
    """Whether a finished hand of an event's table waits for the event's director
    (scoring.online_events) before the table deals again; the caller holds the table's lock.

    It waits when the director has work at this table between this hand and the next:
    somebody busted, whom the director places (R5.6); a player the floor removed, who leaves
    now (R5.9); a pending balancing plan that holds this table (``tables_a_plan_holds``: it
    takes players from it, breaks it or draws the final table, TDA 11D, RP-9), or a hold; a
    hand-for-hand hand, which the other tables wait for (TDA RP-8). Any other hand (most of
    them: nobody busts) is recorded as it ends, and the table deals its next hand after the
    pause, as a cash table does: a director's tick for every hand cost about as much as the
    hand's own moves (bench/RESULTS.md, "Online tournament")."""
    if not all(final_stacks) or hand.hand_for_hand is not None:
        return True
    row = _DIRECTOR_WORK.row(hand.table_id)
    if row is None:
        return True
    number, hold, leaving, moves_from_here, moves_anyone, plan = row
    if hold or leaving:
        return True
    if plan is None:
        return False
    holds = tables_a_plan_holds(
        plan, moves_anyone=moves_anyone, moves_from=[number] if moves_from_here else [],
        numbers=[number],
    )  # fmt: skip
    return bool(holds)


def _director_work(table_id: int) -> QuerySet[Any]:
    pending = FloorStep.objects.filter(
        event=OuterRef("floor_table__event"), status=StepStatus.PENDING
    )
    moves = Move.objects.filter(
        step__event=OuterRef("floor_table__event"), step__status=StepStatus.PENDING
    )
    return (
        OnlineTable.objects.filter(pk=table_id)
        .annotate(
            leaving=Exists(OnlineSeat.objects.filter(table=OuterRef("pk"), leaving=True)),
            moves_from_here=Exists(moves.filter(from_table=OuterRef("floor_table"))),
            moves_anyone=Exists(moves),
            plan=Subquery(pending.order_by("pk").values("data")[:1]),
        )
        .values_list(
            "floor_table__number", "hold", "leaving", "moves_from_here", "moves_anyone", "plan"
        )
    )


# A finished hand's table: its number, whether it holds, a player leaves, the event's pending
# plan moves a player from it or from any table, and that plan's data (its broken tables, its
# final table).
_DIRECTOR_WORK = Prepared[OnlineTable](_director_work, int)


# An event's hand in play, or over and not recorded yet: a hand is dealt unrecorded
# (tables.online.play, deal_hand) and recorded only once over, so one condition says both, and
# the hands' partial index on it (table_hand_unrecorded) finds them without reading the night's
# hands. The table deals nothing while it holds; the director's balancing waits for it.
BUSY = Q(results_recorded=False)


def may_deal(table: OnlineTable) -> bool:
    """Whether an online event's table may deal: not held, its last hand's busts recorded."""
    if table.hold:
        return False
    return not TableHand.objects.filter(BUSY, table=table).exists()


# -- R5.11 online: the colour-up is arithmetic ------------------------------------------------


def coloured_stack(stack: int, chip: int) -> int:
    """R5.11 without a race: the stack in whole new chips; a remainder of at least half a chip
    rounds up, less is lost, and a player left with no chips gets one (TDA 24: nobody is raced
    out). Online chips are exact numbers, so no card is dealt."""
    if chip <= 1 or stack == 0:
        return stack
    whole, rest = divmod(stack, chip)
    coloured = (whole + (2 * rest >= chip)) * chip
    return coloured or chip


def new_smallest_chip(event: Event, level_index: int) -> int:
    """The smallest chip in play during a level, after the chip-ups before it (R5.11)."""
    structure = event.structure
    smallest = structure.smallest_chip.value if structure.smallest_chip else None
    chips = structures.chips_at_start(structure.chip_values(), smallest)
    return structures.smallest_chip_at(structure.level_specs(), level_index, chips=chips)


def colour_up(table: OnlineTable, seats: Sequence[OnlineSeat], level_index: int) -> None:
    """Before the first hand of a level after a chip-up: every stack in whole new chips (R5.11),
    each change recorded once (``OnlineChipChange``) so the event's chips still add up."""
    if level_index <= table.coloured_up_to or table.floor_table is None:
        return
    event = table.floor_table.event
    levels = event.levels_list()
    # The levels that ended since the last colour-up (a level's chip leaves after it).
    ended = levels[max(table.coloured_up_to, 0) : level_index]
    due = any(level.chip_up is not None for level in ended)
    if due:
        chip = new_smallest_chip(event, level_index)
        for seat in seats:
            after = coloured_stack(seat.stack, chip)
            if after == seat.stack or seat.entry_id is None:
                continue
            OnlineChipChange.objects.create(
                event=event, entry_id=seat.entry_id, kind=ChipChangeKind.COLOUR_UP,
                level_index=level_index, before=seat.stack, after=after,
            )  # fmt: skip
            seat.stack = after
            seat.save(update_fields=["stack"])
    table.coloured_up_to = level_index
    table.save(update_fields=["coloured_up_to"])


def _total(rows: QuerySet[Any], key: str, amount: Any) -> Coalesce:
    """One sum of a related table as a subquery of the event's row."""
    summed = rows.order_by().values(key).annotate(total=Sum(amount)).values("total")
    return Coalesce(Subquery(summed), 0)


def event_chips(event: Event) -> tuple[int, int]:
    """Chips conserved across an online event: the chips at its tables, and what the entries
    brought (their starting stacks) with the colour-ups' rounding and removed stacks.

    One statement, so one snapshot: read apart, a deal's colour-up committing between the reads
    would make the sums differ for a moment (PostgreSQL's READ COMMITTED).
    """
    row = _chips_row(event.pk)
    assert row is not None  # noqa: S101 - the event's own row
    seated, seated_brought, out_brought, changed = row
    return int(seated), int(seated_brought + out_brought + changed)


@event_row
def _chips_row(event_id: int) -> QuerySet[Event]:
    here = OuterRef("pk")
    entries = Entry.objects.filter(event=here)
    return Event.objects.filter(pk=event_id).values_list(
        _total(OnlineSeat.objects.filter(table__floor_table__event=here),
               "table__floor_table__event", "stack"),
        _total(entries.filter(online_seat__isnull=False), "event", "starting_stack"),
        _total(entries.filter(online_seat__isnull=True, place__isnull=False), "event",
               "starting_stack"),
        _total(OnlineChipChange.objects.filter(event=here), "event", F("after") - F("before")),
    )  # fmt: skip


def floor_seats(event: Event) -> dict[int, tuple[int, int]]:
    """Entry id -> (floor table number, seat) of the event's floor seats."""
    return {
        entry_id: (number, seat)
        for entry_id, number, seat in Seat.objects.filter(table__event=event).values_list(
            "entry_id", "table__number", "number"
        )
    }
