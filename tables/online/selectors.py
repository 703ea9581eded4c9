"""What one viewer may see of an online table: the only place that reads hole cards for a page.

A hole card reaches a page in exactly two cases (``_visible``): the viewer holds it, or the hand
is over and the card's owner showed it (R1.8, TDA 16, or by choice). Nobody else, whatever his
role, sees a live hole card; the deck and the hand's secret reach no page at all.

Every viewer's fragment of one table version is drawn from one ``TableSnapshot``, read from the
database once per version and kept in the server's cache (``table_snapshot``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.cache import cache
from django.db.models import Count, F, Subquery

from config.cache import Batch
from tables.engine import AwardPot, Betting, Card, Hand, ShowHand, best_five, card_name
from tables.engine.draw import DrawHand, Swap
from tables.engine.stud import StudHand
from tables.hand_names import hand_name
from tables.online.away import away_seats, dropped_seats, seat_numbers
from tables.online.engine import PlayHand, is_stud, rebuild
from tables.online.kept import kept_state, stored_moves
from tables.online.models import ChipAccount, OnlineSeat, OnlineTable, TableHand
from tables.online.statements import Prepared
from tables.online.table_pots import PotView, middle_pots, pot_total, results, won_by_position
from tournaments.live_clock import namespace

logger = logging.getLogger(__name__)
_engines = threading.local()  # the last snapshot's engine: (snapshot, engine)

# How long a version's snapshot stays in the cache: its readers come within a second of the
# nudge; a page opened later on an unchanged table reads it again after this.
SNAPSHOT_SECONDS = 60


@dataclass(frozen=True)
class CardView:
    """A card as a page draws it: its code ('Ah'), rank and suit letters, and if it plays."""

    code: str
    highlight: bool = False
    down: bool = False  # R7.2: one's own stud down card, which nobody else sees

    @property
    def rank(self) -> str:
        return "10" if self.code[0] == "T" else self.code[0]

    @property
    def suit(self) -> str:
        return self.code[1]


@dataclass
class SeatView:
    """One seat as the viewer sees it."""

    number: int
    name: str = ""
    occupied: bool = False
    is_me: bool = False
    is_bot: bool = False
    stack: int = 0
    bet: int = 0
    status: str = ""
    in_hand: bool = False
    folded: bool = False
    all_in: bool = False
    is_button: bool = False
    blind: str = ""
    is_actor: bool = False
    cards: list[CardView] = field(default_factory=list)
    card_backs: int = 0
    won: int = 0
    swap_fee: int | None = None  # R7.11: he swapped one card this round and paid this
    hand_name: str = ""
    last_move: str = ""
    posts_big_blind: bool = False  # R2.6: back or seated to post a big blind next hand
    away: bool = False  # his browser's connection dropped (R3.10: the server saw it)


@dataclass
class Controls:
    """The actor's legal moves, from the engine's own queries (never guessed by the page)."""

    can_bring_in: bool  # R7.2: the low card brings in (or completes with a raise)
    bring_in: int
    can_swap: bool  # R7.4-R7.8: Draw Hold'em
    can_stand_pat: bool  # R7.3: the swap decision alone (keep both cards)
    swap_fee: int
    swap_cards: list[CardView]  # the actor's own hole cards, one of which a swap gives back
    can_fold: bool
    can_check: bool
    can_call: bool
    call: int
    can_raise: bool
    is_bet: bool
    min_to: int
    max_to: int
    presets: list[tuple[str, int]]


@dataclass
class TableView:
    """Everything the viewer's fragment shows."""

    table: OnlineTable
    seats: list[SeatView]
    hand: TableHand | None
    board: list[CardView]
    pots: list[PotView]  # in the middle: gathered before this round (tables.online.table_pots)
    pot_total: int  # every chip in: the pots, the bets in front of the players, swap fees
    results: list[PotView]  # at the end of the hand: who won which pot
    me: SeatView | None
    my_seat: OnlineSeat | None
    controls: Controls | None
    deadline: datetime | None
    warn_at: datetime | None
    bank_running: bool
    sequence: int
    is_over: bool
    balance: int | None
    can_sit: bool
    free_seats: list[int]
    big_blind: int
    small_blind: int
    # The bet in front of everyone this round: with his seat's bet and stack, the page works out
    # what the viewer would call (his "Call N" box, static/js/table.js myCall).
    current_bet: int
    street: int
    stud: bool  # R7.2: no button, no blinds, a bring-in
    tabled: bool = False  # an all-in runout: every live hand face up (TDA 16, visible_cards)

    @property
    def shows_total(self) -> bool:
        """The total besides the pots: while bets lie in front of the players, or side pots."""
        return bool(self.pot_total) and (
            len(self.pots) > 1 or self.pot_total != sum(pot.amount for pot in self.pots)
        )


def _viewer_id(viewer: User | AnonymousUser) -> int | None:
    return viewer.pk if viewer.is_authenticated else None


def display_name(user: User) -> str:
    """A player's name at the table: his player name, else his full name, else his log-in."""
    player = getattr(user, "player", None)
    return _name(player.name if player is not None else None, user.get_full_name(), user.username)


def _name(player_name: str | None, full_name: str, username: str) -> str:
    return str(player_name) if player_name is not None else full_name.strip() or username


@dataclass(frozen=True)
class TableSnapshot:
    """A table at one version, as every viewer's fragment is drawn from it: the table, its
    seats with their players' names, the last hand and its stored moves.

    After a move the other players' pages each fetch their fragment: they read this instead of
    four queries each (bench/online_tables.py). It is read from the database once per version,
    by the process that published the change (``tables.online.live``) or else by the first
    reader, and kept in the cache for ``SNAPSHOT_SECONDS``. The table is read first, so a
    snapshot is never older than the version it is kept under. It holds the hand's deck as the
    database row does: it lives in the server's cache only (docs/operations.md), and pages see
    it only through ``table_view``."""

    table: OnlineTable
    seats: tuple[OnlineSeat, ...]
    names: dict[int, str]  # seat number -> the player's name at the table
    hand: TableHand | None
    # None: not read (a move's own snapshot, ``move_snapshot``): the rows up to the hand's
    # sequence are read if its kept state is missing.
    moves: tuple[dict[str, Any], ...] | None
    # The seats whose player's connection dropped, read with the table's row (R3.10); a page
    # reads them again (``table_snapshot``): a drop shows before its version.
    away: frozenset[int] = frozenset()


def _snapshot_key(table_id: int, created_at: datetime, version: int) -> str:
    # The database's namespace and the table's creation: installations, or test runs whose
    # rolled-back tables share ids, never read each other's snapshots.
    created = int(created_at.timestamp() * 1_000_000)
    return f"online-snapshot:{namespace()}:{table_id}:{created}:{version}"


def named_seats(table: OnlineTable) -> list[OnlineSeat]:
    """The table's seats by number, each with its player's names (``seat_names``): one query."""
    seats = _NAMED_SEATS.models(table.pk)
    for seat in seats:
        seat.table = table  # as the table's own manager would: no query to read it back
    return seats


# Read by every move: compiled once (tables.online.statements).
_NAMED_SEATS = Prepared[OnlineSeat](
    lambda table_id: (
        OnlineSeat.objects.filter(table_id=table_id)
        .annotate(
            player_name=F("user__player__name"),
            first_name=F("user__first_name"),
            last_name=F("user__last_name"),
            username=F("user__username"),
        )
        .order_by("number")
    ),
    int,
)


def seat_names(seats: Iterable[OnlineSeat]) -> dict[int, str]:
    """Seat number -> the player's name at the table, from ``named_seats``' seats."""
    return {
        seat.number: _name(
            seat.player_name,  # type: ignore[attr-defined]  # annotated
            f"{seat.first_name} {seat.last_name}",  # type: ignore[attr-defined]
            seat.username,  # type: ignore[attr-defined]
        )
        for seat in seats
    }


def build_snapshot(table_id: int, *, keep: bool = True) -> TableSnapshot | None:
    """The table as the database holds it now, kept in the cache under its version (unless
    ``keep`` is false: the caller keeps it, ``keep_snapshot``)."""
    table = _SNAPSHOT_TABLE.first(table_id)
    if table is None:
        return None
    seats = tuple(named_seats(table))
    hand = _LAST_HAND.first(table_id)
    moves: tuple[dict[str, Any], ...] = ()
    if hand is not None:
        hand.table = table  # as the table's own manager would: no query to read it back
        moves = tuple(stored_moves(hand.pk))
    snapshot = TableSnapshot(
        table=table, seats=seats, names=seat_names(seats), hand=hand, moves=moves,
        away=seat_numbers(table.dropped),  # type: ignore[attr-defined]  # annotated
    )  # fmt: skip
    if keep:
        keep_snapshot(snapshot)
    return snapshot


# Read for every change but a running hand's move (a deal, a hand's end, a seat's change, a
# drop): compiled once (tables.online.statements); the ORM took longer to build and compile the
# table's query, with its dropped seats, than PostgreSQL took to answer it (the hand's moves:
# ``stored_moves``).
_SNAPSHOT_TABLE = Prepared[OnlineTable](
    lambda table_id: OnlineTable.objects.filter(pk=table_id).annotate(dropped=dropped_seats()),
    int,
)
_LAST_HAND = Prepared[TableHand](
    lambda table_id: TableHand.objects.filter(table_id=table_id).order_by("-number")[:1], int
)


def keep_snapshot(snapshot: TableSnapshot, batch: Batch | None = None) -> None:
    """Keep a snapshot in the cache under its table's version (a failing cache: read again);
    with ``batch``, queued in it (tables.online.publish sends it with its reads)."""
    table = snapshot.table
    if batch is not None:
        key = _snapshot_key(table.pk, table.created_at, table.version)
        batch.set(key, snapshot, SNAPSHOT_SECONDS)
        return
    try:
        cache.set(
            _snapshot_key(table.pk, table.created_at, table.version), snapshot, SNAPSHOT_SECONDS
        )
    except Exception:
        logger.exception("could not cache table %s's snapshot", table.pk)  # read again next time


def move_snapshot(
    table: OnlineTable, seats: Iterable[OnlineSeat], hand: TableHand, engine: PlayHand
) -> TableSnapshot:
    """The table after a move, from the move's own rows instead of reading them back: the
    table and the hand locked by the move (the table's version already bumped), the seats it
    read with ``named_seats`` (and saved), its engine. Only for a move that leaves the hand
    running (a settlement changes seats and chips elsewhere: ``build_snapshot`` reads those).
    The engine serves this thread's drawing of the snapshot (``_engine``), never the cache."""
    ordered = tuple(sorted(seats, key=lambda seat: seat.number))
    snapshot = TableSnapshot(
        table=table, seats=ordered, names=seat_names(ordered), hand=hand, moves=None,
        away=seat_numbers(getattr(table, "dropped", None)),  # read with its lock (``lock_table``)
    )  # fmt: skip
    _engines.last = (snapshot, engine)
    return snapshot


def table_snapshot(table: OnlineTable | TableTag) -> TableSnapshot | None:
    """The table at the version ``table`` carries (or a newer one): from the cache, else
    from the database. None: the table is gone."""
    try:
        found = cache.get(_snapshot_key(table.pk, table.created_at, table.version))
    except Exception:
        logger.exception("could not read table %s's snapshot", table.pk)
        found = None
    snapshot = found if isinstance(found, TableSnapshot) else build_snapshot(table.pk)
    if snapshot is None:
        return None
    # A drop changes no version until its grace is over: the tag reads the seats with the
    # version, a page load here; the snapshot's own (read with its table) may be older.
    away = table.away if isinstance(table, TableTag) else away_seats(table.pk)
    return replace(snapshot, away=away) if away != snapshot.away else snapshot


def visible_cards(hand: TableHand, engine: PlayHand, position: int, viewer_id: int | None) -> bool:
    """Whether the viewer may see the hole cards at ``position``: his own, shown after the
    hand (R1.8), or tabled in an all-in runout, where nobody acts again (TDA 16: every live
    hand face up; the engine's ``tabled``). Never another live card, whoever asks."""
    if viewer_id is not None and hand.user_ids[position] == viewer_id:
        return True
    if hand.is_over:
        return position in hand.shown
    return not isinstance(engine, StudHand) and engine.tabled and not engine.folded[position]


def _cards(
    cards: tuple[Card, ...] | None, highlight: frozenset[Card] = frozenset()
) -> list[CardView]:
    return [CardView(card_name(card), card in highlight) for card in cards or ()]


def _engine(snapshot: TableSnapshot) -> PlayHand | None:
    """The snapshot's hand in the engine: kept (tables.online.kept), else replayed; once per
    snapshot in a thread (the public table and each player's part are drawn from one)."""
    hand = snapshot.hand
    if hand is None:
        return None
    last = getattr(_engines, "last", None)
    if last is not None and last[0] is snapshot:
        kept: PlayHand = last[1]
        return kept
    engine = kept_state(hand)
    if engine is None:
        moves = snapshot.moves
        if moves is None:  # a move's snapshot: the rows up to its sequence
            moves = tuple(stored_moves(hand.pk, through=hand.sequence))
        engine = rebuild(hand, list(moves))
    _engines.last = (snapshot, engine)
    return engine


def table_view(table: OnlineTable | TableSnapshot, viewer: User | AnonymousUser) -> TableView:
    """The table as ``viewer`` may see it: the running hand, or the last one until the next.
    From a snapshot, or from the database as it is now."""
    snapshot = table if isinstance(table, TableSnapshot) else build_snapshot(table.pk)
    if snapshot is None:
        raise OnlineTable.DoesNotExist
    table, hand = snapshot.table, snapshot.hand
    viewer_id = _viewer_id(viewer)
    seats = {s.number: s for s in snapshot.seats}
    engine = _engine(snapshot)
    views = [SeatView(number=n) for n in range(1, table.seats + 1)]
    for view in views:
        seat = seats.get(view.number)
        if seat is not None:
            view.occupied = True
            view.name = snapshot.names[seat.number]
            view.is_me = seat.user_id == viewer_id
            view.is_bot = seat.is_bot
            view.stack = seat.stack
            view.status = seat.status
            view.posts_big_blind = seat.posts_big_blind
            view.away = seat.number in snapshot.away and not seat.is_bot
    highlight: frozenset[Card] = frozenset()
    if hand is not None and engine is not None:
        highlight = _winning_cards(hand, engine)
        _fill_hand(views, hand, engine, viewer_id, highlight)
    me = next((view for view in views if view.is_me), None)
    my_seat = next((s for s in seats.values() if s.user_id == viewer_id), None)
    controls = None
    if engine is not None and me is not None and me.is_actor and not engine.is_over:
        controls = _controls(engine)
    big, small = _stakes(table, hand)
    live = engine is not None and not engine.is_over
    return TableView(
        table=table,
        seats=views,
        hand=hand,
        board=_cards(tuple(engine.board) if engine else None, highlight),
        pots=middle_pots(engine) if engine is not None and live else [],
        pot_total=pot_total(engine) if engine is not None and live else 0,
        results=results(hand, engine, snapshot.names),
        me=me,
        my_seat=my_seat,
        controls=controls,
        deadline=hand.deadline if hand and not hand.is_over else None,
        warn_at=_warn_at(table, hand),
        bank_running=bool(hand and hand.bank_used),
        sequence=hand.sequence if hand else 0,
        is_over=bool(hand and hand.is_over),
        # Shown only by the sit-down form: a seated player's fragments skip the query.
        balance=_balance(viewer_id) if my_seat is None else None,
        can_sit=viewer_id is not None and my_seat is None and table.is_open,
        free_seats=[view.number for view in views if not view.occupied],
        big_blind=big,
        small_blind=small,
        current_bet=engine.round.current_bet if engine and not engine.is_over else 0,
        street=int(engine.street) if engine else 0,
        stud=is_stud(table.game),
        tabled=live and not isinstance(engine, StudHand) and bool(engine and engine.tabled),
    )


def _stakes(table: OnlineTable, hand: TableHand | None) -> tuple[int, int]:
    if hand is not None:
        return int(hand.rules["big_blind"]), int(hand.rules["small_blind"])
    return table.big_blind, table.small_blind


def _balance(viewer_id: int | None) -> int | None:
    if viewer_id is None:
        return None
    return ChipAccount.objects.filter(user_id=viewer_id).values_list("balance", flat=True).first()


def _warn_at(table: OnlineTable, hand: TableHand | None) -> datetime | None:
    """R3.10: when the visible countdown starts (after the first action seconds)."""
    if hand is None or hand.is_over or hand.turn_started_at is None or hand.bank_used:
        return None
    return hand.turn_started_at + timedelta(seconds=table.action_seconds)


def _winning_cards(hand: TableHand, engine: PlayHand) -> frozenset[Card]:
    """The five cards of each shown winner at a showdown, to highlight."""
    if not hand.is_over or not any(isinstance(r, ShowHand) for r in engine.records):
        return frozenset()
    winners = {seat for r in engine.records if isinstance(r, AwardPot) for seat in r.winners}
    cards: set[Card] = set()
    for position in winners:
        hole = engine.hole_cards[position]
        if hole is not None and position in hand.shown:
            omaha = isinstance(engine, Hand) and engine.rules.omaha
            cards.update(best_five(hole, engine.board, omaha=omaha))
    return frozenset(cards)


def _fill_hand(
    views: list[SeatView],
    hand: TableHand,
    engine: PlayHand,
    viewer_id: int | None,
    highlight: frozenset[Card],
) -> None:
    by_number = {view.number: view for view in views}
    values = {r.seat: r.value for r in engine.records if isinstance(r, ShowHand)}
    won = won_by_position(engine)
    stud = isinstance(engine, StudHand)
    for position, number in enumerate(hand.seat_numbers):
        view = by_number[number]
        if not view.occupied:
            view.name = view.name or "—"
        view.in_hand = True
        view.stack = engine.stacks[position]
        view.bet = 0 if engine.is_over else engine.bets[position]
        view.folded = engine.folded[position]
        # R3.10: a protected time-out stays in all-in for the pot so far, chips behind or not
        all_in = not engine.stacks[position] or engine.protected[position]
        view.all_in = all_in and not engine.folded[position]
        view.is_button = position == hand.button and not stud  # R7.2: stud has no button
        view.is_actor = engine.actor == position
        view.blind = _blind(engine, position)
        view.won = won[position] if hand.is_over else 0
        if isinstance(engine, DrawHand) and engine.swapped[position] and not engine.is_over:
            fees = [r.fee for r in engine.records if isinstance(r, Swap) and r.seat == position]
            view.swap_fee = fees[-1] if fees else 0
        if visible_cards(hand, engine, position, viewer_id):
            view.cards = _cards(engine.hole_cards[position], highlight)
            if isinstance(engine, StudHand) and not hand.is_over:
                hidden = {card_name(card) for card in engine.down_cards[position] or ()}
                view.cards = [replace(c, down=c.code in hidden) for c in view.cards]  # R7.2
            if position in values and hand.is_over and position in hand.shown:
                view.hand_name = hand_name(values[position])
        elif isinstance(engine, StudHand):
            # R7.2: the up cards are everyone's to see; each down card only its owner's.
            view.cards = [] if view.folded else _cards(engine.up_cards[position], highlight)
            down = engine.down_cards[position]
            view.card_backs = 0 if view.folded or down is None else len(down)
        elif not view.folded:
            view.card_backs = engine.rules.hole_card_count


def _blind(engine: PlayHand, position: int) -> str:
    if isinstance(engine, StudHand):
        return "BI" if position == engine.bring_in_seat else ""  # R7.2: the bring-in
    if position == engine.small_blind_seat:
        return "SB"
    if position == engine.big_blind_seat:
        return "BB"
    return ""


def _controls(engine: PlayHand) -> Controls:
    """The actor's buttons: from ``can_*`` and the engine's limits; presets clamped to them."""
    can_raise = engine.can_raise()
    low = high = 0
    presets: list[tuple[str, int]] = []
    if can_raise and (isinstance(engine, StudHand) or engine.rules.betting is Betting.LIMIT):
        low, high = engine.min_raise_to(), engine.max_raise_to()  # a fixed bet (R3.4, R7.2)
        if isinstance(engine, StudHand) and len(engine.raise_targets()) > 1:
            presets = [("small bet", low), ("big bet", high)]  # R7.2: an open pair on fourth
    elif can_raise:
        low, high = engine.min_raise_to(), engine.max_raise_to()
        current = engine.round.current_bet
        pot_after_call = engine.pot_total + engine.call_amount()
        for label, share in (("½", 0.5), ("¾", 0.75), ("pot", 1.0)):
            amount = current + int(share * pot_after_call)
            presets.append((label, min(max(amount, low), high)))
        presets.insert(0, ("min", low))
        presets.append(("all-in", high))
    stud = isinstance(engine, StudHand)
    draw = engine if isinstance(engine, DrawHand) else None
    can_swap = draw is not None and draw.can_swap()
    return Controls(
        can_swap=can_swap,
        can_stand_pat=draw is not None and draw.can_stand_pat(),
        swap_fee=draw.swap_fee() if draw is not None else 0,
        swap_cards=_cards(engine.hole_cards[engine.actor or 0]) if can_swap else [],
        can_bring_in=stud and engine.can_bring_in(),  # type: ignore[union-attr]
        bring_in=engine.bring_in_amount() if stud else 0,  # type: ignore[union-attr]
        can_fold=engine.can_fold(),
        can_check=engine.can_check(),
        can_call=engine.can_call(),
        call=engine.call_amount(),
        can_raise=can_raise,
        is_bet=engine.round.current_bet == 0,
        min_to=low,
        max_to=high,
        presets=presets,
    )


@dataclass(frozen=True)
class TableTag:
    """A table's version as a viewer's fragment is tagged with it (``table_tag``)."""

    pk: int
    version: int
    created_at: datetime
    etag: str
    away: frozenset[int] = frozenset()  # seats whose player's connection dropped


def table_tag(table_id: int, viewer_id: int | None, language: str) -> TableTag | None:
    """The fragment's ETag: the table's version, the viewer, his chips (the sit form shows
    them) and the language. One query: every page of a table asks after every move (the 304s
    of bench/online_tables.py)."""
    # An anonymous viewer's: user 0's, nobody's (no chips, like _balance(None)).
    chips = ChipAccount.objects.filter(user_id=viewer_id or 0).values("balance")[:1]
    row = (
        OnlineTable.objects.filter(pk=table_id)
        .annotate(chips=Subquery(chips), away=dropped_seats())
        .values_list("version", "created_at", "chips", "away")
        .first()
    )
    if row is None:
        return None
    version, created_at, balance, dropped = row
    etag = f"t{table_id}-v{version}-u{viewer_id or 0}-b{balance}-a{dropped or ''}-{language}"
    return TableTag(
        pk=table_id, version=version, created_at=created_at, etag=etag, away=seat_numbers(dropped)
    )


def lobby_tables() -> list[OnlineTable]:
    """The open tables, each with ``seated`` (players at it) and ``free`` (seats free)."""
    tables: list[OnlineTable] = list(
        OnlineTable.objects.filter(status="open")
        .select_related("event")
        .annotate(seated=Count("players"))
    )
    for table in tables:
        table.free = table.seats - table.seated  # type: ignore[attr-defined]  # annotated
    return tables
