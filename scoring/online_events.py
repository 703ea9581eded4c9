"""The director of online events (docs/online.md, "Online tournaments"): registration, the
start, the busts the engine reports, balancing between hands, the end.

An online event uses the live floor's own services: the seat draw (tables.services), the
balancing plan (tables.plan_services, TDA 10B/11A/11C, RP-9), the busts and places
(scoring.services, R5.6) with hand-for-hand (TDA RP-8), and so the same points, satellites,
standings and pages. Only who reports a bust differs: the engine's final stacks, not the floor.
The director runs in Celery beat (``tick_all``), each event under its own lock; every step is
idempotent, so a worker killed in the middle of a tick leaves nothing half done.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import partial
from typing import NamedTuple

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import hand_for_hand_services, services
from scoring.satellites import register_for_satellite
from tables.engine import AwardPot, build_pots
from tables.floor_state import table_states
from tables.models import FloorStep, HandForHand, Seat, StepStatus, Table
from tables.online import tournament as online_tournament
from tables.online.engine import PlayHand
from tables.online.kept import engine_of
from tables.online.locks import lock_table_ids
from tables.online.models import (
    ChipChangeKind,
    OnlineChipChange,
    OnlineSeat,
    OnlineTable,
    SeatStatus,
    TableHand,
    TableStatus,
)
from tables.online.publish import publish_user_event
from tables.online.services import _changed, is_house_bot
from tables.online.statements import Prepared, event_row
from tables.plan_services import StalePlanError, confirm_plan, refresh_plan
from tables.positions import dealt_in
from tables.seating import tables_needed
from tables.services import draw_seats, seat_entry
from tournaments.entry_services import FloorError, lock_event, publish_standings, register_entry
from tournaments.event_services import finish_event
from tournaments.models import Entry, EntryStatus, Event, EventKind, EventStatus, Player
from tournaments.money_selectors import money_rules
from tournaments.services import ClockAction, act_on_clock, record_audit

logger = logging.getLogger(__name__)
START_PAUSE = timedelta(seconds=3)  # the tables appear, then the first hand is dealt
WAITING_STATUSES = (EntryStatus.REGISTERED, EntryStatus.CHECKED_IN)
UNRECORDED = Q(is_over=True, results_recorded=False)  # a hand over, its busts not recorded yet
BUSY = online_tournament.BUSY  # a table's hand in play, or UNRECORDED


class OnlineEventError(FloorError):
    """An online event refused an action: the reason for the person."""


# -- registration ------------------------------------------------------------------------------


def player_of(user: User) -> Player:
    """The player behind a log-in (created with his name on first use)."""
    player = Player.objects.filter(user=user).first()
    if player is None:
        name = user.get_full_name() or user.first_name or user.username
        player = Player.objects.create(name=name, user=user)
    return player


def _online_event(event_id: int) -> Event:
    event = lock_event(event_id)
    if not event.online:
        raise OnlineEventError(_("This event is played at the club, not online."))
    return event


@transaction.atomic
def register(*, event_id: int, user: User, actor: User | None = None) -> Entry:
    """A player registers for an online event: before it starts, or while late registration is
    open (the event's money rules); a satellite refuses a player in another one (R5.5)."""
    event = _online_event(event_id)
    if event.status == EventStatus.FINISHED:
        raise OnlineEventError(_("This event has finished."))
    if event.status == EventStatus.RUNNING and event.start_players:
        raise OnlineEventError(_("This sit&go has started; registration is closed."))
    if event.status == EventStatus.SCHEDULED and event.start_players:
        waiting = Entry.objects.filter(event=event, status__in=WAITING_STATUSES).count()
        if waiting >= event.start_players:
            raise OnlineEventError(_("This sit&go is full."))
    player = player_of(user)
    if event.kind == EventKind.SATELLITE:
        entry = register_for_satellite(event_id=event.pk, actor=actor or user, player=player)
    else:
        entry = register_entry(event_id=event.pk, actor=actor or user, player=player)
    if event.status == EventStatus.RUNNING:
        _seat_late(event, entry)
    return entry


@transaction.atomic
def unregister(*, event_id: int, user: User) -> None:
    """A player takes his registration back before the event starts (audited)."""
    event = _online_event(event_id)
    entry = Entry.objects.filter(event=event, player__user=user).first()
    if entry is None:
        raise OnlineEventError(_("You are not registered for this event."))
    if event.status != EventStatus.SCHEDULED or entry.status not in WAITING_STATUSES:
        raise OnlineEventError(_("The event has started: you play it out from your seat."))
    if entry.purchases.exists():
        raise OnlineEventError(_("Your buy-in is recorded: ask the floor to take it back."))
    record_audit(actor=user, action="online.unregistered", event=event, entry=entry.pk)
    entry.delete()
    publish_standings(event.pk)  # after the commit: the field counts one player less


def register_bots(*, event_id: int, count: int, actor: User) -> list[Entry]:
    """Floor staff fill an online event with house bots (each a player of its own, audited)."""
    from tables.online.services import new_bot_user  # noqa: PLC0415 - the bots' log-ins

    if not 1 <= count <= 1_000:
        raise OnlineEventError(_("Add between 1 and 1,000 house bots."))
    entries = []
    for _index in range(count):
        entries.append(register(event_id=event_id, user=new_bot_user(), actor=actor))
    record_audit(actor=actor, action="online.bots_registered", event_id=event_id, count=count)
    return entries


# -- the start ---------------------------------------------------------------------------------


def _due(event: Event, now: datetime) -> bool:
    """The start rule: a sit&go when its players have registered, else at the scheduled start
    with at least two."""
    waiting = Entry.objects.filter(event=event, status__in=WAITING_STATUSES).count()
    if event.start_players:
        return waiting >= event.start_players
    return event.scheduled_start <= now and waiting >= 2


def _start(event: Event, now: datetime) -> None:
    """Seat everyone at random (CSPRNG, the floor's seat draw), open a table for each floor
    table, start the clock."""
    Entry.objects.filter(event=event, status=EntryStatus.REGISTERED).update(
        status=EntryStatus.CHECKED_IN
    )
    players = Entry.objects.filter(event=event, status=EntryStatus.CHECKED_IN).count()
    count = tables_needed(players=players, seats_per_table=event.table_size)
    draw_seats(event_id=event.pk, actor=None, tables=count, seats_per_table=event.table_size)
    for table in Table.objects.filter(event=event).order_by("number"):
        _open_online_table(event, table, now)
    act_on_clock(event_id=event.pk, actor=None, action=ClockAction.START, now=now)
    event.refresh_from_db()
    record_audit(actor=None, action="online.event_started", event=event, players=players)


def _open_online_table(event: Event, table: Table, now: datetime) -> OnlineTable:
    online = OnlineTable.objects.create(
        name=f"{event.name} · {table.number}",
        game=online_tournament.TABLE_GAMES[event.structure.game],
        seats=table.seats,
        event=event,
        floor_table=table,
        next_hand_at=now + START_PAUSE,
    )
    for seat in Seat.objects.filter(table=table).select_related("entry__player__user"):
        _online_seat(online, seat, status=SeatStatus.PLAYING)
    return online


def _online_seat(online: OnlineTable, seat: Seat, *, status: str, stack: int | None = None) -> None:
    user = seat.entry.player.user
    if user is None:
        raise OnlineEventError(
            _("%(name)s has no log-in and cannot play online.") % {"name": seat.entry.player.name}
        )
    bot = is_house_bot(user)
    OnlineSeat.objects.create(
        table=online, number=seat.number, user=user, is_bot=bot,
        entry=seat.entry, stack=seat.entry.starting_stack if stack is None else stack,
        status=status, time_bank=online.time_bank_seconds,
    )  # fmt: skip
    if bot:
        return  # a house bot has no page to follow him
    user_id, table_id, event_id = user.pk, online.pk, seat.entry.event_id
    transaction.on_commit(
        lambda: publish_user_event(user_id, what="moved", table_id=table_id, event_id=event_id)
    )


def _seat_late(event: Event, entry: Entry) -> None:
    """Late registration: a random seat at one of the shortest tables, never the next hand's
    small blind (the floor's rule); a new table when every seat is taken."""
    if Seat.objects.filter(entry=entry).exists():
        return
    if entry.status == EntryStatus.REGISTERED:
        Entry.objects.filter(pk=entry.pk).update(status=EntryStatus.CHECKED_IN)
        entry.status = EntryStatus.CHECKED_IN
    states = [s for s in table_states(event) if len(s.players) < s.seats]
    if not states:
        number = (Table.objects.filter(event=event).order_by("-number").first() or Table()).number
        table = Table.objects.create(event=event, number=(number or 0) + 1, seats=event.table_size)
        seat_entry(
            event_id=event.pk, entry_id=entry.pk, actor=None, table_number=table.number,
            seat_number=1,
        )  # fmt: skip
        _open_online_table(event, table, timezone.now())
        return
    seat = seat_entry(event_id=event.pk, entry_id=entry.pk, actor=None)
    state = next(s for s in states if s.table == seat.table.number)
    online = OnlineTable.objects.get(floor_table=seat.table)
    status = SeatStatus.PLAYING if dealt_in(table=state, seat=seat.number) else SeatStatus.WAITING
    _online_seat(online, seat, status=status)
    _changed(online)


# -- after every hand: the busts (R5.6), hand-for-hand (TDA RP-8) ------------------------------


def _higher_card(engine: PlayHand, position: int) -> int:
    """R5.6: the higher card in a player's hand (rank, then suit: R1.6), read off the engine."""
    cards = engine.hole_cards[position]
    assert cards  # noqa: S101 - a dealt player has cards
    return max(cards)


def _busted_by(engine: PlayHand, position: int, out: set[int]) -> int | None:
    """docs/money.md, bounties: who busted a player: the winner of the last pot he could win
    (R3.9: the pot of his own all-in level), the first in the odd-chip order who is still in."""
    dead = getattr(engine, "dead_money", 0)  # stud has no dead blinds
    pots = build_pots(engine.contributed, [not f for f in engine.folded], dead=dead)
    mine = [index for index, pot in enumerate(pots) if position in pot.eligible]
    awards = {r.pot: r for r in engine.records if isinstance(r, AwardPot)}
    award = awards.get(mine[-1]) if mine else None
    winners = [seat for seat in (award.winners if award else ()) if seat not in out]
    return winners[0] if winners else None


def _record_hand(event: Event, hand: TableHand) -> bool:
    """The busts of one finished hand, each placed once (the hand's key), then its seat freed;
    whether anybody busted."""
    final = hand.final_stacks or []
    entry_at: dict[int, int | None] = {}
    if not all(final):  # somebody has no chips left (most hands: nobody, and no seat is read)
        tables_seats = OnlineSeat.objects.filter(table=hand.table, entry__isnull=False)
        seats = {s.number: s for s in tables_seats}
        entry_at = {p: seats[n].entry_id for p, n in enumerate(hand.seat_numbers) if n in seats}
    out = {p for p in entry_at if not final[p]}
    engine = engine_of(hand) if out else None
    bounties = bool(out) and money_rules(event).has_bounties
    busts = []
    for position in sorted(out):
        assert engine is not None  # noqa: S101 - built when anyone is out
        by = _busted_by(engine, position, out) if bounties else None
        busts.append(
            services.StackInput(
                entry_id=int(entry_at[position] or 0),
                stack=int(hand.starting_stacks[position]),
                card=_higher_card(engine, position),  # R5.6
                busted_by=entry_at.get(by) if by is not None else None,
            )
        )
    if busts:
        services.record_busts(
            event_id=event.pk, actor=None, busts=busts, key=f"online-hand-{hand.pk}"
        )  # R5.6: by the stacks at the start of the hand, then the higher card in hand
        gone = OnlineSeat.objects.filter(entry_id__in=[b.entry_id for b in busts])
        players = list(gone.filter(is_bot=False).values_list("user_id", flat=True))
        gone.delete()
        _changed(hand.table)
        # His seat is gone, so the table's stream no longer carries a part of his: his own
        # stream tells his page, which fetches where he stands (his place).
        for user_id in players:
            transaction.on_commit(
                partial(publish_user_event, user_id, what="out", table_id=hand.table_id,
                        event_id=event.pk)
            )  # fmt: skip
    if hand.hand_for_hand is not None and hand.table.floor_table is not None:
        # A hand-for-hand hand that ended without this table (it broke) needs nothing more.
        with contextlib.suppress(FloorError):
            hand_for_hand_services.report_hand_done(
                event_id=event.pk, table_number=hand.table.floor_table.number,
                hand_number=hand.hand_for_hand, actor=None,
            )  # fmt: skip
    hand.results_recorded = True
    hand.save(update_fields=["results_recorded"])
    return bool(busts)


def _between_hands(table_ids: list[int]) -> bool:
    """Lock the tables as the deal does (their rows first), then: is none of them in a hand?
    Without the lock a table could deal a player in while he is moved or removed, and his
    chips would be counted twice."""
    lock_table_ids(table_ids)
    return not TableHand.objects.filter(table_id__in=table_ids, is_over=False).exists()


def _remove_leavers(event: Event) -> bool:
    """Players the floor removed (R5.9): once their hand is over, they place where they left
    and their chips leave play (recorded, so the event's chips still add up). Whether any did."""
    removed = False
    for seat in OnlineSeat.objects.filter(
        table__floor_table__event=event, leaving=True, entry__isnull=False
    ).select_related("table"):
        entry_id = seat.entry_id
        if entry_id is None or not _between_hands([seat.table_id]):
            continue
        seat.refresh_from_db(fields=["stack"])
        OnlineChipChange.objects.create(
            event=event, entry_id=entry_id, kind=ChipChangeKind.REMOVED,
            before=seat.stack, after=0,
        )  # fmt: skip
        services.record_quit(event_id=event.pk, entry_id=entry_id, actor=None)
        seat.delete()
        _changed(seat.table)
        removed = True
    return removed


@transaction.atomic
def remove_player(*, event_id: int, entry_id: int, actor: User) -> None:
    """The floor removes a disruptive player (audited): his hand in play folds where a bet is
    owed (R2.9); then he is out where he left and his chips leave play (R5.9)."""
    from tables.online.play import fold_out  # noqa: PLC0415 - the hand's side of it

    event = _online_event(event_id)
    seat = OnlineSeat.objects.filter(entry_id=entry_id, table__floor_table__event=event).first()
    if seat is None:
        raise OnlineEventError(_("This player has no seat in the event."))
    record_audit(actor=actor, action="online.player_removed", event=event, entry=entry_id)
    fold_out(seat=seat)


# -- balancing between hands (R5.7) ------------------------------------------------------------


def _busy_tables(event: Event) -> set[int]:
    """Floor table numbers whose online table is in a hand or waits for its busts."""
    running = TableHand.objects.filter(BUSY, table__floor_table__event=event)
    return set(running.values_list("table__floor_table__number", flat=True))


def _balance(event: Event, now: datetime) -> bool:
    """Carry out the floor's pending plan once every table it holds
    (``online_tournament.tables_a_plan_holds``) is between hands; those tables hold until then
    (TDA 11D), the others play on. Whether a table may now
    deal that could not before (the plan was carried out, or a hold ended)."""
    step = FloorStep.objects.filter(event=event, status=StepStatus.PENDING).first()
    if not _moves_anyone(step):
        return _release(event)  # most ticks: no plan, so no table is read
    tables = _event_tables(event)
    busy = {number for number, table in tables.items() if table.busy}
    for fresh in (False, True):
        if fresh:
            # The positions moved on with every hand dealt since the plan was made: plan again
            # from the seats as they stand now (TDA 10B, 11A), then carry it out at once.
            step = refresh_plan(event=event)
            if not _moves_anyone(step):
                return _release(event)
        assert step is not None  # noqa: S101 - _moves_anyone said so
        moving = online_tournament.tables_a_plan_holds(
            step.data, moves_anyone=True, numbers=tables,
            moves_from=step.moves.values_list("from_table__number", flat=True),
        )  # fmt: skip
        if moving & busy:
            return _hold(tables.values(), {tables[n].pk for n in moving - busy})
    assert step is not None  # noqa: S101 - the loop returned otherwise
    if not _between_hands([tables[n].pk for n in moving]):
        return False  # a table dealt meanwhile: the plan waits for its hand (the next tick)
    moves = list(step.moves.select_related("entry__player__user", "to_table"))
    old = {s.entry_id: s for s in OnlineSeat.objects.filter(entry__in=[m.entry for m in moves])}
    try:
        confirm_plan(event_id=event.pk, step_id=step.pk, actor=None)
    except StalePlanError:
        # A table it moves players to dealt since the plan was made (its button moved, so who
        # is dealt in changed, TDA 10B): nothing was moved; the next tick plans again.
        logger.info("event %s: the plan went stale before it was carried out", event.pk)
        return False
    for seat in old.values():
        seat.delete()
    for move in moves:
        floor_seat = Seat.objects.select_related("entry__player__user").get(entry=move.entry)
        before = old.get(move.entry_id)
        status = SeatStatus.PLAYING if move.dealt_in else SeatStatus.WAITING  # TDA 10B
        if before is not None and before.status == SeatStatus.SITTING_OUT:
            status = SeatStatus.SITTING_OUT
        _online_seat(
            OnlineTable.objects.get(floor_table=move.to_table), floor_seat, status=status,
            stack=before.stack if before else None,
        )  # fmt: skip
    # Only the tables whose seats changed are drawn and sent again (a player left or sat down,
    # or the table broke); the others' pages show what they showed (a hold is not drawn).
    changed: set[int | None] = {move.from_table_id for move in moves}
    changed |= {move.to_table_id for move in moves}
    for number in step.data.get("broken_tables", []):
        broken = tables.get(number)
        if broken is not None:
            _close(OnlineTable.objects.filter(pk=broken.pk), now)
            changed.add(broken.floor_id)
    ids = sorted(table.pk for table in tables.values() if table.floor_id in changed)
    for table in OnlineTable.objects.filter(pk__in=ids).order_by("pk"):
        _changed(table)
    _release(event)
    return True


def _close(tables: QuerySet[OnlineTable], now: datetime) -> None:
    """Tables broken or the event over: closed, dealing nothing, holding nothing."""
    tables.update(status=TableStatus.CLOSED, closed_at=now, next_hand_at=None, hold=False)


def _moves_anyone(step: FloorStep | None) -> bool:
    """Whether a pending plan has anything to carry out: a player to move or a table to break."""
    return step is not None and bool(step.moves.exists() or step.data.get("broken_tables"))


class _TableRow(NamedTuple):
    """An open table of the event as balancing reads it."""

    pk: int
    number: int  # its floor table's
    floor_id: int
    hold: bool
    busy: bool  # in a hand, or its last hand's busts are not recorded yet


def _event_tables(event: Event) -> dict[int, _TableRow]:
    """The event's open tables by floor table number, read as plain values."""
    playing = TableHand.objects.filter(BUSY, table=OuterRef("pk"))
    rows = (
        OnlineTable.objects.filter(floor_table__event=event, status=TableStatus.OPEN)
        .annotate(busy=Exists(playing))
        .values_list("pk", "floor_table__number", "floor_table_id", "hold", "busy")
    )
    return {row[1]: _TableRow(*row) for row in rows.order_by("floor_table__number")}


def _hold(tables: Iterable[_TableRow], held: set[int]) -> bool:
    """Exactly the tables ``held`` hold; whether a table stopped holding."""
    for holds in (True, False):
        ids = [t.pk for t in tables if t.hold != holds and (t.pk in held) == holds]
        if ids:
            OnlineTable.objects.filter(pk__in=ids).update(hold=holds)
    return any(table.hold and table.pk not in held for table in tables)


def _release(event: Event) -> bool:
    """No plan waits: no table of the event holds (one statement, whether any did or not);
    whether one did."""
    held = OnlineTable.objects.filter(floor_table__event=event, status=TableStatus.OPEN, hold=True)
    return held.update(hold=False) > 0


def _waiting_to_deal(event_id: int) -> QuerySet[OnlineTable]:
    """The event's open tables between hands that nothing holds and nobody has told to deal
    yet, with two players who have chips: the tables the director wakes."""
    running = TableHand.objects.filter(table=OuterRef("pk"), is_over=False)
    return (
        OnlineTable.objects.filter(floor_table__event=event_id, status=TableStatus.OPEN)
        .filter(hold=False, next_hand_at__isnull=True)
        .exclude(Exists(running))
        .annotate(live=Count("players", filter=Q(players__stack__gt=0)))
        .filter(live__gte=2)
    )


def _wake(event: Event, now: datetime) -> None:
    """Every table waiting to deal deals next, unless a hand-for-hand hand it has dealt waits
    for the other tables (TDA RP-8): one query for them, one update."""
    waiting = _waiting_to_deal(event.pk)
    if HandForHand.objects.filter(event=event, completed_at__isnull=True).exists():
        chosen = [
            table.pk
            for table in waiting.select_related("floor_table")
            if online_tournament.hand_for_hand_number(table)[0]
        ]
    else:
        chosen = list(waiting.values_list("pk", flat=True))
    if chosen:
        OnlineTable.objects.filter(pk__in=chosen).update(next_hand_at=now)


# -- the tick ----------------------------------------------------------------------------------


def _finish(event: Event, now: datetime) -> None:
    """One player left: he has won; the tables close.

    His place and the event's end are recorded with the last busts, as at a live event
    (scoring.services.end_event), so an event that ended there is not finished twice.
    """
    event.refresh_from_db(fields=["status"])
    if event.status != EventStatus.FINISHED:
        finish_event(actor=None, event_id=event.pk)
    tables = list(OnlineTable.objects.filter(floor_table__event=event, status=TableStatus.OPEN))
    _close(OnlineTable.objects.filter(pk__in=[table.pk for table in tables]), now)
    for table in tables:
        _changed(table)
    record_audit(actor=None, action="online.event_finished", event=event)


def check_chips(event: Event) -> None:
    """Every chip of the event accounted for (docs/architecture.md, "Integrity")."""
    seated, brought = online_tournament.event_chips(event)
    if seated != brought:
        raise RuntimeError(f"event {event.pk}: {seated} chips at the tables, {brought} brought")


class Work(NamedTuple):
    """What a tick of a running event finds to do, read in one query without any lock
    (``_probe``). Most ticks find nothing (the tables are in their hands): they end there, and
    so cost one query, not the tick's locks and queries; a tick that finds something runs only
    the parts it names, and those its own changes call for."""

    # a hand is over and waits for the director (tables.online.tournament.waits_for_the_director)
    hands: bool
    leavers: bool  # a player the floor removed waits for his hand's end (R5.9)
    waiting: bool  # a late registration waits for a seat
    plan: bool  # a balancing plan is pending (TDA 11D)
    held: bool  # a table holds for a plan
    to_deal: bool  # a table between hands waits for the word to deal (two players with chips)
    ending: bool  # one player or none in play


@event_row
def _work_row(event_id: int) -> QuerySet[Event]:
    tables = OnlineTable.objects.filter(floor_table__event=event_id, status=TableStatus.OPEN)
    in_play = Entry.objects.filter(event=OuterRef("pk")).in_play().values("event")
    flags = {
        "hands": Exists(TableHand.objects.filter(UNRECORDED, table__floor_table__event=event_id)),
        "leavers": Exists(
            OnlineSeat.objects.filter(
                table__floor_table__event=event_id, leaving=True, entry__isnull=False
            )
        ),
        "waiting": Exists(Entry.objects.filter(event=event_id, status__in=WAITING_STATUSES)),
        "plan": Exists(FloorStep.objects.filter(event=event_id, status=StepStatus.PENDING)),
        "held": Exists(tables.filter(hold=True)),
        "to_deal": Exists(_waiting_to_deal(event_id)),
        "ending": ~Exists(in_play.annotate(n=Count("pk")).filter(n__gte=2)),
    }
    events = Event.objects.filter(pk=event_id).annotate(**flags)
    return events.values_list("online", "status", *Work._fields)


def _probe(event_id: int) -> tuple[bool, str, Work] | None:
    """The event's kind, its status and what a tick finds to do there, in one query and
    without a lock; None if there is no such event."""
    row = _work_row(event_id)
    if row is None:
        return None
    online, status, *flags = row
    return bool(online), str(status), Work(*(bool(flag) for flag in flags))


# FOR NO KEY UPDATE, as every event lock: the tables' rows point at the event, and their
# foreign-key checks must not wait for it (docs/architecture.md, "Online events").
_EVENT = Prepared[Event](
    lambda event_id: Event.objects.select_for_update(no_key=True).filter(pk=event_id), int
)


def tick(*, event_id: int, now: datetime | None = None) -> None:
    """One pass of the director over one online event.

    The probe (``_probe``) runs first, without the event's lock: a running event whose tables
    are all in their hands (most ticks) costs that one query, and no lock or transaction. A
    tick with work takes the lock and does what the probe found, each part reading again what
    it changes under the locks, so a probe that is a moment old only moves work to the next
    tick."""
    now = now or timezone.now()
    probed = _probe(event_id)
    if probed is None:
        return
    online, status, work = probed
    if not online or status == EventStatus.FINISHED:
        return
    if status != EventStatus.SCHEDULED and not any(work):
        return  # most ticks: the tables are in their hands
    _locked_tick(event_id, now, work)


@transaction.atomic
def _locked_tick(event_id: int, now: datetime, work: Work) -> None:
    event = _EVENT.first(event_id)  # may have finished since the probe
    if event is None or not event.online or event.status == EventStatus.FINISHED:
        return
    if event.status == EventStatus.SCHEDULED:
        if _due(event, now):
            _start(event, now)
        return
    _direct(event, now, work)


def _direct(event: Event, now: datetime, work: Work) -> None:
    """The tick's work over a running event: the busts, the leavers, the end, late seats,
    balancing, the deal's word, each when ``work`` or the tick's own changes call for it. The
    caller holds the event's lock. A tick that does anything checks the chips; an idle one has
    nothing new to check."""
    if not any(work):
        return  # most ticks: the tables are in their hands
    # docs/architecture.md, "One lock order": the event, then every table the tick may touch
    # in id order, before any hand, seat or floor row (a deal waits here, never the director).
    unrecorded = TableHand.objects.filter(UNRECORDED, table=OuterRef("pk"))
    touched = OnlineTable.objects.filter(
        Q(status=TableStatus.OPEN) | Exists(unrecorded), floor_table__event=event
    )
    lock_table_ids(touched.values("pk"))
    seats_changed = False  # a bust, a leaver or a late seat: the plan and the end may follow
    if work.hands:
        hands = TableHand.objects.filter(UNRECORDED, table__floor_table__event=event)
        hands = hands.select_related("table__floor_table")
        for hand in hands.order_by("ended_at", "pk"):
            seats_changed |= _record_hand(event, hand)
    if work.leavers:
        seats_changed |= _remove_leavers(event)
    check_chips(event)
    if (
        (work.ending or seats_changed)
        and Entry.objects.filter(event=event).in_play().count() <= 1
        and not _busy_tables(event)
    ):
        _finish(event, now)
        return
    if work.waiting:
        for entry in Entry.objects.filter(event=event, status__in=WAITING_STATUSES):
            _seat_late(event, entry)
        seats_changed = True
    if work.plan or work.held or seats_changed:
        seats_changed |= _balance(event, now)
    if work.to_deal or seats_changed:
        _wake(event, now)


def due_events(now: datetime) -> list[int]:
    """The online events the director looks at: running, or scheduled with a start rule due."""
    return list(
        Event.objects.filter(online=True)
        .exclude(status=EventStatus.FINISHED)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def tick_all(*, now: datetime | None = None) -> dict[str, int]:
    """Beat's job: every online event once, each in its own transaction (one failing event
    stops no other; the next tick tries again)."""
    now = now or timezone.now()
    done = {"events": 0, "failed": 0}
    for event_id in due_events(now):
        try:
            tick(event_id=event_id, now=now)
            done["events"] += 1
        except Exception:
            logger.exception("the director could not run online event %s", event_id)
            done["failed"] += 1
    return done


__all__ = [
    "OnlineEventError",
    "check_chips",
    "player_of",
    "register",
    "register_bots",
    "remove_player",
    "tick",
    "tick_all",
    "unregister",
]
