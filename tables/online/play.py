"""The hands of online tables: deal, the players' moves, the server's moves (time-outs, absent
players, house bots) and the settlement, each under the hand row's lock.

Every move is checked by the engine on the hand rebuilt from its rows, stored under a unique
(hand, sequence) with the request's idempotency key, and told to the open pages after the
commit. Time-outs, the streets of an all-in runout (each after a pause, to be seen) and the
next deal are applied by the sweeper (``sweep``, run by Celery beat): "if the hand is still at
sequence N and its deadline passed" — no timer in any web process.
"""

from __future__ import annotations

import logging
import random
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any, Literal

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.engine import (
    AwardPot,
    Call,
    Card,
    Check,
    Fold,
    IllegalAction,
    RaiseTo,
    ShowHand,
    commit,
    new_secret,
    parse_card,
    shuffled_deck,
)
from tables.engine.draw import DrawHand, Reshuffle, StandPat, Swap
from tables.engine.stud import BringIn, StudHand
from tables.online import tournament as online_tournament
from tables.online.bots import apply_move, choose_move
from tables.online.dealing import SeatInfo, plan_hand
from tables.online.engine import (
    PlayHand,
    PlayMove,
    encode_move,
    is_stud,
    start_hand,
    table_rules,
)
from tables.online.kept import engine_of, keep_state
from tables.online.locks import lock_hand, lock_hand_for_move, lock_table, lock_tables, table_of
from tables.online.models import (
    Game,
    HandAction,
    OnlineSeat,
    OnlineTable,
    Presence,
    Protection,
    SeatStatus,
    TableHand,
)
from tables.online.publish import publish_table_changed
from tables.online.selectors import move_snapshot, named_seats
from tables.online.services import (
    TableError,
    _changed,
    cash_out,
    rebuy_bot,
    refuse_event_table,
    table_chips,
)
from tournaments.clock import ClockStatus
from tournaments.models import LevelKind
from tournaments.services import record_audit

logger = logging.getLogger(__name__)
PlayerAction = Literal["fold", "check", "call", "raise"]
SHOWDOWN_PAUSE = 5.0  # seconds: everyone sees the last showdown before the next deal
FOLDED_PAUSE = 2.0
BOT_THINKS = (0.6, 1.6)  # seconds
CONNECTED_WITHIN = timedelta(seconds=45)  # a stream's player is renewed every 15 s (live._Alive)
# What a move changes on the hand's row: never the deck or the secret, which are written once.
TURN_FIELDS = [
    "sequence", "actor", "turn_started_at", "deadline", "reconnect_extended", "bank_used",
]  # fmt: skip


# -- dealing -----------------------------------------------------------------------------------


def _blinds(table: OnlineTable, now: datetime) -> tuple[dict[str, Any], int | None] | None:
    """R2.11: the table's stakes, or its event clock's level now; None while it pauses."""
    event = table.event
    if event is None:
        stakes = {"small_blind": table.small_blind, "big_blind": table.big_blind}
        return table_rules(table, ante=table.ante, **stakes), None
    reading = event.read_clock(now)
    levels = event.levels_list()
    if reading.status is not ClockStatus.RUNNING or reading.level_index >= len(levels):
        return None  # a paused clock pauses the dealing
    level = levels[reading.level_index]
    if level.kind == LevelKind.BREAK:
        return None  # a break pauses dealing on every table at once
    stakes = {"small_blind": level.small_blind, "big_blind": level.big_blind}
    return table_rules(table, ante=level.ante, **stakes), reading.level_index


@transaction.atomic
def deal_hand(
    *, table: OnlineTable, now: datetime | None = None, deck: list[Card] | None = None
) -> TableHand | None:
    """Deal the next hand if two players can play; the deck from ``secrets.SystemRandom`` (R1.1).

    ``deck`` fixes the cards (tests only). Returns None when no hand can be dealt now.
    """
    now = now or timezone.now()
    table = lock_table(table.pk)  # docs/architecture.md, "One lock order": the table first
    if not table.is_open or TableHand.objects.filter(table=table, is_over=False).exists():
        return None
    blinds = _blinds(table, now)
    seats = list(table.players.select_for_update().order_by("number"))
    hand_for_hand: int | None = None
    dealt_positions: online_tournament.TournamentHand | None = None
    if table.floor_table_id is not None:
        # An online event's table (docs/online.md): the dead button (R2.7), everyone with chips
        # dealt in (R2.9), and the director's word: busts recorded, not held (R5.7, TDA RP-8).
        may, hand_for_hand = online_tournament.hand_for_hand_number(table)
        if not may or not online_tournament.may_deal(table):
            table.next_hand_at = None
            table.save(update_fields=["next_hand_at"])
            return None
        if blinds is not None:
            online_tournament.colour_up(table, seats, blinds[1] or 0)  # R5.11
        if is_stud(table.game):  # R7.2: no blinds; everyone with chips is dealt in (R2.9)
            ready = [replace(_info(seat), playing=seat.stack > 0, waiting=False) for seat in seats]
            plan = plan_hand(ready, last_button=table.button_seat, blinds=False)
        else:
            dealt_positions = online_tournament.plan_for(table, seats)
            plan = dealt_positions.plan if dealt_positions is not None else None
    else:
        infos = [_info(seat) for seat in seats]
        if table.game == Game.DRAW_HOLDEM:
            # Draw Hold'em deals everyone in at once and keeps the usual blind seats, which its
            # hand history names by position (R7.10: the blinds swap last).
            infos = [replace(i, playing=i.playing or i.waiting, waiting=False) for i in infos]
        plan = plan_hand(infos, last_button=table.button_seat, blinds=not is_stud(table.game))
        if plan is not None and not _someone_human(plan.seat_numbers, seats):
            plan = None  # house bots wait for a player (FLOORMAN_BOTS_PLAY_ALONE: they don't)
    if plan is None or blinds is None:
        table.next_hand_at = None if plan is None else now + timedelta(seconds=5)
        table.save(update_fields=["next_hand_at"])
        return None
    rules, level_index = blinds
    rules |= {"small_blind_position": plan.small_blind, "big_blind_position": plan.big_blind}
    if dealt_positions is not None and dealt_positions.dead_small_blind:
        rules |= {"small_blind_position": None, "dead_small_blind": True}  # R2.7
    by_number = {seat.number: seat for seat in seats}
    dealt = [by_number[number] for number in plan.seat_numbers]
    deck = list(deck) if deck is not None else shuffled_deck()
    secret = new_secret()
    commitment = commit(deck, secret)
    table.hands_dealt += 1
    hand = TableHand.objects.create(
        table=table,
        number=table.hands_dealt,
        seat_numbers=list(plan.seat_numbers),
        user_ids=[seat.user_id for seat in dealt],
        starting_stacks=[seat.stack for seat in dealt],
        button=plan.button,
        posts=list(plan.posts),
        rules=rules,
        level_index=level_index,
        deck=deck,
        secret=secret.hex(),
        commitment=commitment.root,
        leaves=list(commitment.leaves),
        started_at=now,
        results_recorded=table.floor_table_id is None,
        hand_for_hand=hand_for_hand,
    )
    if dealt_positions is not None:
        online_tournament.keep_positions(table, dealt_positions)
    for seat in dealt:
        if seat.status == SeatStatus.WAITING:  # R2.6, TDA 10B: his hand has come
            seat.status = SeatStatus.PLAYING
            seat.posts_big_blind = False
            seat.save(update_fields=["status", "posts_big_blind"])
    table.button_seat = plan.seat_numbers[plan.button]
    table.next_hand_at = None
    table.save(update_fields=["hands_dealt", "button_seat", "next_hand_at"])
    _after_change(hand, start_hand(hand), now=now)
    _changed(table)
    return hand


def _someone_human(numbers: tuple[int, ...], seats: list[OnlineSeat]) -> bool:
    """Whether a player (not a house bot) is dealt in, or bots may play alone (a setting)."""
    if settings.FLOORMAN_BOTS_PLAY_ALONE:
        return True
    return any(seat.number in numbers and not seat.is_bot for seat in seats)


def _info(seat: OnlineSeat) -> SeatInfo:
    ready = seat.stack > 0 and not seat.leaving
    return SeatInfo(
        number=seat.number,
        playing=ready and seat.status == SeatStatus.PLAYING,
        waiting=ready and seat.status == SeatStatus.WAITING,
        posts=seat.posts_big_blind,
        seated_order=seat.seated_order,
    )


# -- the players' moves ------------------------------------------------------------------------


def _locked_hand(
    table: OnlineTable, hand_id: int, *, user: User | None = None, key: str = ""
) -> TableHand:
    """Lock the table, then its hand (docs/architecture.md, "One lock order"); with a player's
    ``user`` and ``key``, the hand says in ``made`` whether that move is stored already."""
    locked = lock_table(table.pk)
    if user is None:
        hand = lock_hand(table.pk, hand_id)
    else:
        hand = lock_hand_for_move(table.pk, hand_id, user_id=user.pk, key=key)
    if hand is None:
        raise TableError(_("There is no such hand at this table."), status=404)
    hand.table = locked
    return hand


@transaction.atomic
def act(
    *,
    table: OnlineTable,
    user: User,
    hand_id: int,
    sequence: int,
    action: PlayerAction,
    amount: int | None = None,
    key: str = "",
    card: str = "",
    now: datetime | None = None,
) -> TableHand:
    """A player's move on the hand as his page showed it (``sequence``); a resend with the
    same ``key`` changes nothing; anything the engine refuses changes nothing."""
    now = now or timezone.now()
    hand = _locked_hand(table, hand_id, user=user, key=key)
    if key and hand.made:  # type: ignore[attr-defined]  # annotated by lock_hand_for_move
        return hand  # a double click or a resend: done once already
    if hand.is_over:
        raise TableError(_("This hand is over."), status=409)
    position = hand.position_of(user.pk)
    if position is None:
        raise TableError(_("You are not dealt in this hand."), status=403)
    if sequence != hand.sequence:
        raise TableError(
            _("The hand has moved on since your page was drawn; look again."), status=409
        )
    engine = engine_of(hand)
    if engine.actor != position:
        raise TableError(_("It is not your turn."), status=409)
    before = len(engine.records)
    try:
        record = _make(engine, action, amount, card)
    except IllegalAction as error:
        raise TableError(str(error)) from None
    seats = {seat.number: seat for seat in named_seats(hand.table)}
    _use_time_bank(hand, position, now, seats)
    _store_reshuffles(hand, engine, before)
    _store(hand, record, user=user, key=key)
    _after_change(hand, engine, now=now, seats=seats)
    _moved(hand, engine, seats)
    return hand


def _moved(hand: TableHand, engine: PlayHand, seats: dict[int, OnlineSeat]) -> None:
    """``_changed`` after a move: the version bumped, and the table published after the commit
    from the move's own rows (``move_snapshot``: no query to read them back) while the hand
    runs; a settled hand's table is read back (its seats and chips changed elsewhere)."""
    table = hand.table
    if hand.is_over:
        _changed(table)
        return
    OnlineTable.objects.filter(pk=table.pk).update(version=F("version") + 1)
    table.version += 1  # its row is locked since the move began: nothing else changed it
    snapshot = move_snapshot(table, seats.values(), hand, engine)
    transaction.on_commit(lambda: publish_table_changed(table.pk, snapshot))


def _store_reshuffles(hand: TableHand, engine: PlayHand, before: int) -> None:
    """R7.11: a swap that needed a new stub made a Reshuffle record first: kept for replays."""
    for made in engine.records[before:]:
        if isinstance(made, Reshuffle):
            _store(hand, made, user=None)


def _make(engine: PlayHand, action: str, amount: int | None, card: str = "") -> PlayMove:
    """The engine's move for a player's request; IllegalAction with the reason if refused."""
    if action in ("swap", "stand_pat"):
        if not isinstance(engine, DrawHand):
            raise IllegalAction(_("Only Draw Hold'em has swaps."))
        if action == "stand_pat":
            return engine.stand_pat()  # R7.3
        try:
            return engine.swap(parse_card(card))  # R7.4
        except ValueError as error:
            raise IllegalAction(str(error)) from None
    if action == "bring_in":
        if not isinstance(engine, StudHand):
            raise IllegalAction(_("Only stud has a bring-in."))
        return engine.bring_in()  # R7.2
    if action == "fold":
        return engine.fold()
    if action == "check":
        return engine.check()
    if action == "call":
        return engine.call()
    if action == "raise":
        if amount is None:
            raise IllegalAction(_("Say how much to bet or raise to."))
        return engine.raise_to(amount)
    raise IllegalAction(_("%(action)s is not a move.") % {"action": action})


def _store(hand: TableHand, record: PlayMove, *, user: User | None, key: str = "") -> None:
    """Store a move at the hand's next sequence. Every move is stored under the table's and
    the hand's locks at the sequence it read, a player's after his key was looked up under
    them (``act``): no other move can take this sequence or this key, so neither unique
    constraint can refuse it and no savepoint is needed."""
    hand.sequence += 1
    HandAction.objects.create(
        hand=hand, sequence=hand.sequence, record=encode_move(record), user=user, key=key
    )


def _use_time_bank(
    hand: TableHand, position: int, now: datetime, seats: dict[int, OnlineSeat]
) -> None:
    """The time bank loses what the turn took beyond the action clock (R3.10)."""
    if not hand.bank_used or hand.turn_started_at is None:
        return
    table = hand.table
    used = (now - hand.turn_started_at).total_seconds() - (
        table.action_seconds + table.countdown_seconds
    )
    seat = seats.get(hand.seat_numbers[position])
    if seat is not None:
        seat.time_bank = max(0, seat.time_bank - max(0, int(used + 0.999)))
        seat.save(update_fields=["time_bank"])


# -- after every change: the next turn, absent players, the end of the hand -------------------


def _after_change(
    hand: TableHand,
    engine: PlayHand,
    *,
    now: datetime,
    seats: dict[int, OnlineSeat] | None = None,
) -> None:
    """Move on: an absent actor's hand (leaving, or sitting out) checks or folds at once (R2.9);
    a bot gets a moment to think; a player gets the action clock (R3.10); a finished hand is
    settled. The engine's state is kept for the next move (tables.online.kept). ``seats``: the
    table's seats by number, if the caller has read them."""
    if seats is None:
        seats = {seat.number: seat for seat in hand.table.players.all()}
    while engine.actor is not None:
        seat = seats.get(hand.seat_numbers[engine.actor])
        if seat is not None and not seat.leaving and seat.status != SeatStatus.SITTING_OUT:
            break
        _store(hand, engine.absent(), user=None)  # R2.9
    keep_state(hand, engine)
    swapped_on = (
        engine.actor is not None
        and engine.actor == hand.actor
        and isinstance(engine.records[-1] if engine.records else None, Swap)
    )
    hand.actor = engine.actor
    if engine.is_over:
        hand.turn_started_at = hand.deadline = None
        hand.reconnect_extended = hand.bank_used = False
        _settle(hand, engine, seats, now=now)
        return
    if engine.actor is None:
        # A staged all-in runout (Rules.staged_runout): the hands lie face up (TDA 16) and the
        # next street comes after a pause, dealt by the sweeper (``expire_turn``), once.
        hand.turn_started_at = None
        hand.reconnect_extended = hand.bank_used = False
        hand.deadline = now + _runout_pause()
        hand.save(update_fields=TURN_FIELDS)
        return
    if swapped_on and hand.deadline is not None:
        hand.save(update_fields=TURN_FIELDS)  # R7.11: a swap runs on the player's clock
        return
    hand.reconnect_extended = hand.bank_used = False
    seat = seats[hand.seat_numbers[hand.actor]] if hand.actor is not None else None
    hand.turn_started_at = now
    # His turn reaches him as his private part, with his buttons (tables.online.broadcast).
    if seat is not None and seat.is_bot:
        thinks = random.uniform(*BOT_THINKS) * _pace()  # noqa: S311 - not cards
        hand.deadline = now + timedelta(seconds=thinks)
    else:
        table = hand.table
        hand.deadline = now + timedelta(seconds=table.action_seconds + table.countdown_seconds)
    hand.save(update_fields=TURN_FIELDS)


def went_to_showdown(engine: PlayHand) -> bool:
    """Whether the hand was decided by showing hands (any game)."""
    return any(isinstance(record, ShowHand) for record in engine.records)


def shown_positions(engine: PlayHand) -> list[int]:
    """The hands the table sees at the showdown (R1.8, TDA 16), in showing order.

    R1.8: a winner shows all his cards. After an all-in every live hand is tabled (TDA 16).
    Otherwise the first to show shows, and each next player shows only a hand that beats or
    ties the best shown so far: a loser may muck.
    """
    if not went_to_showdown(engine):
        return []
    winners = {seat for r in engine.records if isinstance(r, AwardPot) for seat in r.winners}
    all_in = any(not engine.stacks[seat] for seat in winners) or any(
        engine.starting_stacks[i] == engine.contributed[i] for i in range(engine.n)
    )
    shown: list[int] = []
    best = -1
    for record in engine.records:
        if isinstance(record, ShowHand) and (
            all_in or not shown or record.value >= best or record.seat in winners
        ):
            shown.append(record.seat)
            best = max(best, record.value)
    return shown


def _settle(
    hand: TableHand, engine: PlayHand, seats: dict[int, OnlineSeat], *, now: datetime
) -> None:
    """Push the result to the seats, check every chip (docs/architecture.md), free leavers."""
    if sum(engine.stacks) != sum(hand.starting_stacks):
        raise RuntimeError(f"hand {hand.pk}: chips not conserved; nothing is settled")
    table = hand.table
    tournament = table.floor_table_id is not None
    hand.is_over = True
    hand.ended_at = now
    hand.final_stacks = list(engine.stacks)
    hand.shown = shown_positions(engine)
    if tournament:  # R5.6: a hand with nothing for the event's director is recorded now
        hand.results_recorded = not online_tournament.waits_for_the_director(hand, engine.stacks)
    ended = ["is_over", "ended_at", "final_stacks", "shown", "results_recorded"]
    hand.save(update_fields=[*TURN_FIELDS, *ended])
    for position, number in enumerate(hand.seat_numbers):
        seat = seats.get(number)
        if seat is None:
            continue
        seat.stack = engine.stacks[position]
        _refill_time_bank(seat, table)
        if not seat.stack and not tournament:
            if seat.is_bot and table.is_open and not seat.leaving:
                rebuy_bot(seat=seat, table=table)  # the house keeps the table it fills playing
            elif seat.status != SeatStatus.SITTING_OUT:
                seat.status = SeatStatus.SITTING_OUT  # broke: add chips or leave
        seat.save(update_fields=["stack", "status", "time_bank", "hands_since_refill"])
    if tournament:
        # R5.6: a player with no chips is out now that the last pot is pushed; the event's
        # director records the busts and balances the tables before the next deal (the deal
        # waits for it while the hand is not recorded).
        table.next_hand_at = now + _pause(engine)
        table.save(update_fields=["next_hand_at"])
        return
    for seat in seats.values():
        if seat.leaving or not table.is_open:
            cash_out(seat=seat)
    seated, ledger = table_chips(table)
    if seated != ledger:
        raise RuntimeError(f"table {table.pk}: {seated} chips seated, {ledger} by the ledger")
    if table.is_open:
        table.next_hand_at = now + _pause(engine)
        table.save(update_fields=["next_hand_at"])


def _pace() -> float:
    """settings.FLOORMAN_TABLE_PACE scales the pauses between hands and the bots' thinking (1 in
    play; a bot-only run in tests or benchmarks goes faster)."""
    return float(settings.FLOORMAN_TABLE_PACE)


def _runout_pause() -> timedelta:
    """The pause before each street of an all-in runout: settings.FLOORMAN_RUNOUT_PACE seconds
    (about 2), scaled by the table's pace like the other pauses."""
    return timedelta(seconds=float(settings.FLOORMAN_RUNOUT_PACE) * _pace())


def _pause(engine: PlayHand) -> timedelta:
    """The pause before the next deal: longer after a showdown, to see it."""
    seconds = SHOWDOWN_PAUSE if went_to_showdown(engine) else FOLDED_PAUSE
    return timedelta(seconds=seconds * _pace())


def _refill_time_bank(seat: OnlineSeat, table: OnlineTable) -> None:
    seat.hands_since_refill += 1
    if table.time_bank_seconds and seat.hands_since_refill >= table.time_bank_refill_hands:
        seat.time_bank = table.time_bank_seconds
        seat.hands_since_refill = 0


# -- leaving, showing ---------------------------------------------------------------------------


@transaction.atomic
def leave(*, table: OnlineTable, user: User, now: datetime | None = None) -> int | None:
    """Leave: the chips go back to the balance now, or after the hand he is in, where his hand
    checks where it may, else folds (R2.9). Returns the chips cashed out, None if later."""
    now = now or timezone.now()
    table = lock_table(table.pk)
    refuse_event_table(table)
    hand = lock_hand(table.pk)
    seat = table.players.select_for_update().filter(user=user).first()
    if seat is None:
        raise TableError(_("You have no seat at this table."), status=403)
    if hand is not None and user.pk in hand.user_ids:
        seat.leaving = True
        seat.save(update_fields=["leaving"])
        _absent_now(hand, now=now)
        _changed(table)
        return None
    amount = cash_out(seat=seat)
    _changed(table)
    return amount


@transaction.atomic
def sit_out(*, table: OnlineTable, user: User, now: datetime | None = None) -> OnlineSeat:
    """Sit out: from now on his hand in play checks where it may, else folds (R2.9), and he is
    dealt no new hand until he comes back (R2.6)."""
    now = now or timezone.now()
    table = lock_table(table.pk)
    hand = lock_hand(table.pk)
    seat = table.players.select_for_update().filter(user=user).first()
    if seat is None:
        raise TableError(_("You have no seat at this table."), status=403)
    if seat.status == SeatStatus.SITTING_OUT:
        raise TableError(_("You are sitting out already."), status=409)
    seat.status = SeatStatus.SITTING_OUT
    seat.posts_big_blind = False
    seat.save(update_fields=["status", "posts_big_blind"])
    _absent_now(hand, now=now)
    _changed(table)
    return seat


def _absent_now(hand: TableHand | None, *, now: datetime) -> None:
    """If the running hand (locked) waits for an absent player, his hand checks or folds now
    (R2.9)."""
    if hand is None:
        return
    engine = engine_of(hand)
    if engine.actor is not None:  # a runout's street waits for nobody (and keeps its time)
        _after_change(hand, engine, now=now)


@transaction.atomic
def unseat(*, table: OnlineTable, actor: User, number: int, now: datetime | None = None) -> None:
    """Floor staff take a player or a house bot off the table (audited): now between hands,
    else his hand checks or folds (R2.9) and his chips go back after it."""
    now = now or timezone.now()
    table = lock_table(table.pk)
    refuse_event_table(table)
    hand = lock_hand(table.pk)
    seat = table.players.select_for_update().filter(number=number).first()
    if seat is None:
        raise TableError(_("Seat %(number)s is empty.") % {"number": number})
    if hand is not None and seat.user_id in hand.user_ids:
        seat.leaving = True
        seat.save(update_fields=["leaving"])
        _absent_now(hand, now=now)
    else:
        cash_out(seat=seat)
    record_audit(
        actor=actor, action="online.unseat", table=table.pk, seat=number, user=seat.user_id
    )
    _changed(table)


@transaction.atomic
def fold_out(*, seat: OnlineSeat, now: datetime | None = None) -> None:
    """An online event's floor removes a player: his hand in play checks or folds at once
    (R2.9) and he is dealt no more; the event's director places him after the hand (R5.9)."""
    now = now or timezone.now()
    table = lock_table(seat.table_id)
    hand = lock_hand(table.pk)
    seat = table.players.select_for_update().get(pk=seat.pk)
    seat.leaving = True
    seat.status = SeatStatus.SITTING_OUT
    seat.save(update_fields=["leaving", "status"])
    _absent_now(hand, now=now)
    _changed(table)


@transaction.atomic
def show_cards(*, table: OnlineTable, user: User, hand_id: int) -> TableHand:
    """After the hand, a player shows his cards to the table (mucked or won without showdown)."""
    hand = _locked_hand(table, hand_id)
    position = hand.position_of(user.pk)
    if position is None:
        raise TableError(_("You were not dealt in this hand."), status=403)
    if not hand.is_over:
        raise TableError(_("Show your cards when the hand is over."), status=409)
    if position not in hand.shown:
        hand.shown = [*hand.shown, position]
        hand.save(update_fields=["shown"])
        _changed(table)
    return hand


# -- the sweeper: time-outs, bots, the next deal ----------------------------------------------


def is_connected(user_id: int, *, now: datetime) -> bool:
    """Whether the server sees the player's browser connected. A player who never opened a
    stream is not one whose connection dropped (R3.10 protects only a drop the server saw)."""
    presence = Presence.objects.filter(user_id=user_id).first()
    if presence is None or presence.dropped_at is None and presence.streams <= 0:
        return True
    return presence.streams > 0 and presence.last_seen >= now - CONNECTED_WITHIN


@transaction.atomic
def expire_turn(
    *, hand_id: int, sequence: int, now: datetime | None = None, table_id: int | None = None
) -> bool:
    """The actor's time ran out (or a bot's thinking), or a runout's pause before its next
    street: apply the server's move once, at the cost of a player's move (the kept engine, the
    seats read once).

    Idempotent: nothing happens unless the hand is still at ``sequence`` and past its deadline.
    """
    now = now or timezone.now()
    table_id = table_id or table_of(hand_id)
    if table_id is None:
        return False
    table = lock_table(table_id)  # docs/architecture.md, "One lock order": table, then hand
    hand = lock_hand(table_id, hand_id)
    if hand is None or hand.is_over or hand.sequence != sequence:
        return False
    if hand.deadline is None or hand.deadline > now:
        return False
    hand.table = table
    engine = engine_of(hand)
    if hand.actor is None:
        return _deal_street(hand, engine, now=now)
    seats = {seat.number: seat for seat in named_seats(table)}
    seat = seats.get(hand.seat_numbers[hand.actor])
    if seat is not None and seat.is_bot:
        # The bot's whims, never cards: seeded by the table's secret bot seed, so a replay of the
        # server's log is reproducible and no player can predict a bot from its hand number.
        rng = random.Random(f"{table.bot_seed}:{hand.pk}:{hand.sequence}")  # noqa: S311
        before = len(engine.records)
        made = apply_move(engine, choose_move(engine, rng=rng))
        assert isinstance(made, Fold | Check | Call | RaiseTo | BringIn | Swap | StandPat)  # noqa: S101
        record: PlayMove = made
        _store_reshuffles(hand, engine, before)
    elif seat is not None and table.time_bank_seconds and seat.time_bank and not hand.bank_used:
        hand.bank_used = True  # R3.10: the time bank runs on
        hand.deadline = now + timedelta(seconds=seat.time_bank)
        hand.save(update_fields=["bank_used", "deadline"])
        _changed(table)
        return True
    else:
        record = _time_out(hand, engine, seat, now=now)
        if seat is not None:
            # A player who lets his time run out is away: he sits out, and his hand checks or
            # folds at once from now on (R2.9) instead of holding the table 30 s a turn.
            seat.time_bank = 0 if hand.bank_used else seat.time_bank
            seat.status = SeatStatus.SITTING_OUT
            seat.posts_big_blind = False
            seat.save(update_fields=["time_bank", "status", "posts_big_blind"])
    _store(hand, record, user=None)
    _after_change(hand, engine, now=now, seats=seats)
    _moved(hand, engine, seats)
    return True


def _deal_street(hand: TableHand, engine: PlayHand, *, now: datetime) -> bool:
    """The next street of a staged all-in runout, its pause over: a new table version with the
    board so far (and the figures for the cards to come); after the river the pots are pushed.
    Under the hand's lock at the sequence the sweeper read: a second sweeper finds it moved."""
    if isinstance(engine, StudHand) or not engine.street_waits:
        return False
    _store(hand, engine.deal_street(), user=None)
    _after_change(hand, engine, now=now)
    _changed(hand.table)
    return True


def _time_out(
    hand: TableHand, engine: PlayHand, seat: OnlineSeat | None, *, now: datetime
) -> PlayMove:
    """R3.10 house reading: a connected player checks where he may, else folds; one whose
    connection the server saw drop, with chips in the pot, stays in all-in for the pot so far,
    at most the table's number of times a day (each use audited)."""
    position = engine.actor
    assert position is not None  # noqa: S101 - expire_turn checked
    user_id = hand.user_ids[position]
    if seat is not None and engine.contributed[position] and not is_connected(user_id, now=now):
        day = timezone.localdate(now)  # the house's day (TIME_ZONE), not UTC's
        used = Protection.objects.filter(user_id=user_id, day=day).count()
        if used < hand.table.protections_per_day:
            Protection.objects.create(user_id=user_id, hand=hand, day=day)
            record_audit(
                actor=None,
                action="online.disconnect_protection",
                table=hand.table_id,
                hand=hand.pk,
                user=user_id,
                used=used + 1,
            )
            return engine.time_out()
    return engine.out_of_time()


@transaction.atomic
def reconnected(*, user_id: int, now: datetime | None = None) -> int:
    """R3.10: a player back before his time ran out gets more time, once a turn."""
    now = now or timezone.now()
    extended = 0
    waiting = TableHand.objects.filter(
        is_over=False, deadline__gt=now, reconnect_extended=False, actor__isnull=False
    ).values_list("table_id", "user_ids", "actor")
    mine = [table_id for table_id, users, actor in waiting if users[actor] == user_id]
    for table in lock_tables(mine):  # "One lock order": the tables, then each one's hand
        hand = lock_hand(table.pk)
        if hand is None or hand.reconnect_extended or hand.actor is None:
            continue  # moved on meanwhile
        if hand.user_ids[hand.actor] == user_id and hand.deadline and hand.deadline > now:
            hand.deadline += timedelta(seconds=table.reconnect_seconds)
            hand.reconnect_extended = True
            hand.save(update_fields=["deadline", "reconnect_extended"])
            _changed(table)
            extended += 1
    return extended


def sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Beat's job: every expired turn, every runout's due street and every due deal, each once,
    each in its own transaction (a failure at one table stops no other)."""
    now = now or timezone.now()
    done = {"turns": 0, "deals": 0, "failed": 0}
    due = TableHand.objects.filter(is_over=False, deadline__lte=now)
    for hand_id, sequence, table_id in due.values_list("pk", "sequence", "table_id"):
        try:
            done["turns"] += expire_turn(
                hand_id=hand_id, sequence=sequence, now=now, table_id=table_id
            )
        except Exception:
            # Logged with the hand's id only (never its cards); the next sweep tries again.
            logger.exception("the sweeper could not move hand %s on", hand_id)
            done["failed"] += 1
    for table in OnlineTable.objects.filter(status="open", next_hand_at__lte=now):
        try:
            done["deals"] += deal_hand(table=table, now=now) is not None
        except Exception:
            logger.exception("the sweeper could not deal at table %s", table.pk)
            done["failed"] += 1
    return done
