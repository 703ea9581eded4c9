"""Balancing plans after a bust: moves, table breaks, the final table, halts (R5.7, TDA).

Positions at a table (blinds, button, the worst seat, dealt in or not) are tables.positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from tables.positions import (
    TableState,
    dealt_in,
    empty_seats,
    last_big_blind_seat,
    next_hand,
    worst_open_seats,
)
from tables.seating import MIN_SEATS, Rng, check_seat_count, system_rng

REASONS = {
    "balance": "Moved to balance the tables (TDA: the next big blind moves to the worst seat).",
    "table_break": "Moved because the table broke (TDA 10B: random seat at another table).",
    "final_table": "Moved to the final table (TDA RP-9: fresh random seat draw).",
}


@dataclass(frozen=True)
class Move:
    """One player's move to a new seat; ``reason`` is a code the UI translates."""

    player: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    reason: str
    dealt_in: bool = True  # TDA 10B: False between the small blind and the button (dealt_in())

    @property
    def text(self) -> str:
        """The reason in English (the UI translates the code)."""
        waits = "" if self.dealt_in else " Dealt in after the button passes (TDA 10B)."
        return REASONS[self.reason] + waits


@dataclass(frozen=True)
class BalanceSettings:
    """Balancing settings of an event."""

    max_gap: int = 1  # TDA: tables within one player (some rooms allow two early on)
    final_table_size: int | None = None  # None: the most seats of any table
    halt_shortfall: int = 3  # TDA: halt a table this many players short of the fullest


@dataclass(frozen=True)
class BalancePlan:
    """What the floor does after a bust: moves, broken tables, tables to halt, notes."""

    moves: tuple[Move, ...]
    broken_tables: tuple[int, ...] = ()
    halt_tables: tuple[int, ...] = ()
    final_table: int | None = None
    final_button_seat: int | None = None
    notes: tuple[str, ...] = field(default=())

    def explain(self) -> list[str]:
        """Sentences for the floor, each citing its rule; the UI translates them."""
        lines = list(self.notes)
        for m in self.moves:
            lines.append(
                f"Player {m.player}: table {m.from_table} seat {m.from_seat} -> "
                f"table {m.to_table} seat {m.to_seat}. {m.text}"
            )
        if not lines:
            lines.append("Tables are balanced (TDA: within one player); nobody moves.")
        return lines


def effective_break_order(*, tables: Sequence[TableState], break_order: Sequence[int]) -> list[int]:
    """The pre-set order, then unlisted tables highest number first; unknown tables dropped."""
    known = {t.table for t in tables}
    listed = [t for t in dict.fromkeys(break_order) if t in known]
    return listed + sorted(known - set(listed), reverse=True)


def _validate(tables: Sequence[TableState], settings: BalanceSettings) -> None:
    seen: set[int] = set()
    for t in tables:
        check_seat_count(t.seats)
        for seat, player in t.players.items():
            if not 1 <= seat <= t.seats:
                raise ValueError(f"table {t.table} has no seat {seat}")
            if player in seen:
                raise ValueError(f"player {player} is seated twice")
            seen.add(player)
        for position in (t.button_seat, t.small_blind_seat, t.big_blind_seat):
            if position is not None and not 1 <= position <= t.seats:
                raise ValueError(
                    f"table {t.table} has no seat {position} for a blind or the button"
                )
    if len({t.table for t in tables}) != len(tables):
        raise ValueError("a table is listed twice")
    if settings.max_gap < 1:
        raise ValueError("tables cannot be kept closer than one player apart")


def _final_table_plan(
    *, tables: Sequence[TableState], order: list[int], size: int, rng: Rng
) -> BalancePlan:
    """TDA RP-9: the remaining players fit one table, so all go there by a fresh random draw."""
    by_id = {t.table: t for t in tables}
    final = next(t for t in reversed(order) if by_id[t].seats >= size)
    seated = [(t.table, s, p) for t in tables for s, p in sorted(t.players.items())]
    rng.shuffle(seated)  # TDA RP-9: the final table is redrawn at random, the button too
    seats = sorted(rng.sample(range(1, size + 1), len(seated)))
    moves = tuple(
        Move(player=p, from_table=t, from_seat=s, to_table=final, to_seat=to, reason="final_table")
        for (t, s, p), to in zip(seated, seats, strict=True)
    )
    button = rng.choice(seats) if seats else 1
    broken = tuple(t for t in order if t != final)
    note = (
        f"{len(seated)} players fit one table: all move to final table {final} by a fresh "
        f"random seat draw; the button starts in seat {button} (TDA RP-9: final table)."
    )
    return BalancePlan(
        moves=moves,
        broken_tables=broken,
        final_table=final,
        final_button_seat=button,
        notes=(note,),
    )


@dataclass
class _Work:
    """The tables as the plan changes them."""

    states: dict[int, TableState]
    seated: dict[int, dict[int, int]]
    moves: dict[int, Move]
    live: list[int]  # tables still in play, in break order

    def count(self, table: int) -> int:
        return len(self.seated[table])

    def open_seats(self, table: int) -> list[int]:
        return worst_open_seats(table=self.states[table], players=self.seated[table])

    def empty_seats(self, table: int) -> list[int]:
        return empty_seats(table=self.states[table], players=self.seated[table])

    def move(
        self, *, player: int, table: int, seat: int, to_table: int, to_seat: int, reason: str
    ) -> None:
        del self.seated[table][seat]
        self.seated[to_table][to_seat] = player
        earlier = self.moves.pop(player, None)  # a player moved twice makes one move
        start_table, start_seat = (
            (earlier.from_table, earlier.from_seat) if earlier else (table, seat)
        )
        self.moves[player] = Move(
            player=player,
            from_table=start_table,
            from_seat=start_seat,
            to_table=to_table,
            to_seat=to_seat,
            reason=earlier.reason if earlier and earlier.reason == "table_break" else reason,
            dealt_in=dealt_in(table=self.states[to_table], seat=to_seat),
        )


def _break_tables(work: _Work, rng: Rng, notes: list[str]) -> list[int]:
    """TDA 10B: break the next table in the pre-set order while the others can seat its players.

    The break never waits: its players draw random empty seats, a small blind's seat too; who
    lands between the small blind and the button waits for the button (Move.dealt_in).
    """
    broken: list[int] = []
    for table in [t for t in work.live if work.count(t) == 0 and len(work.live) > 1]:
        work.live.remove(table)
        broken.append(table)
        notes.append(f"Table {table} has no players left and is closed.")
    while len(work.live) > 1:
        table = work.live[0]
        others = work.live[1:]
        if work.count(table) > sum(len(work.empty_seats(t)) for t in others):
            return broken
        work.live.remove(table)
        broken.append(table)
        leaving = [(s, p) for s, p in sorted(work.seated[table].items())]
        rng.shuffle(leaving)  # TDA 10B: players of a broken table get seats by random draw
        for seat, player in leaving:
            room = [t for t in others if work.empty_seats(t)]
            fewest = min(work.count(t) for t in room)
            to_table = rng.choice([t for t in room if work.count(t) == fewest])
            to_seat = rng.choice(work.empty_seats(to_table))
            work.move(
                player=player, table=table, seat=seat, to_table=to_table, to_seat=to_seat,
                reason="table_break",
            )  # fmt: skip
        notes.append(
            f"Table {table} breaks (next in the pre-set order; the players left fit the other "
            f"tables): its players draw random empty seats at the shortest tables and are dealt "
            f"in at once, except between the small blind and the button (TDA 10B)."
        )
    return broken


def _balance(work: _Work, settings: BalanceSettings, notes: list[str]) -> None:
    """TDA: the next big blind of the fullest table moves to the worst seat at the shortest."""
    rank = {t: i for i, t in enumerate(work.live)}
    while len(work.live) > 1:
        counts = {t: work.count(t) for t in work.live}
        most, least = max(counts.values()), min(counts.values())
        if most - least <= settings.max_gap:
            return
        # Predetermined procedure (TDA): among equals, take from the table that breaks first
        # and move to the table that breaks last.
        source = min((t for t in work.live if counts[t] == most), key=rank.__getitem__)
        targets = [t for t in work.live if counts[t] <= most - 2 and work.open_seats(t)]
        if not targets:
            notes.append("No table has a free seat that is not a small blind; balance waits.")
            return
        target = min(targets, key=lambda t: (counts[t], -rank[t]))
        big_blind = next_hand(replace(work.states[source], players=work.seated[source]))  # TDA
        seat = big_blind.big_blind_seat
        if seat is None:  # pragma: no cover - the fullest table always has players
            return
        to_seat = work.open_seats(target)[0]
        work.move(
            player=work.seated[source][seat], table=source, seat=seat, to_table=target,
            to_seat=to_seat, reason="balance",
        )  # fmt: skip
        notes.append(
            f"Table {target} is {most - counts[target]} players short of table {source}: the "
            f"player due to post the next big blind there moves to the worst position at "
            f"table {target}, never the small blind (TDA: balancing tables)."
        )


def plan_balance(
    *,
    tables: Sequence[TableState],
    break_order: Sequence[int],
    settings: BalanceSettings | None = None,
    rng: Rng | None = None,
) -> BalancePlan:
    """The balancing plan for the tables as they stand after a bust (R5.7, TDA).

    In this order: if everyone fits the final table, all players get a fresh random draw there
    and every other table breaks. Otherwise tables break in ``break_order`` (unlisted tables
    after it, highest number first; tables with nobody left at once) as long as the other
    tables have enough empty seats for the breaking table's players; they draw random empty
    seats, always at one of the shortest tables, and the break never waits for a hand: a seat
    between next hand's small blind and button (its SB seat included) is drawn like any other,
    its player marked ``dealt_in=False`` (TDA 10B; see dealt_in).
    Then, while two tables differ by more than ``max_gap`` players, the player who will post the
    next big blind at the fullest table moves to the worst free seat at the shortest table.
    ``halt_tables``: tables at least ``halt_shortfall`` players short of the fullest table as
    they stand now, which halt until the moves are made (TDA). A player moved twice within the
    plan appears once, from his old seat to his final one.
    """
    settings = settings or BalanceSettings()
    _validate(tables, settings)
    rng = rng or system_rng()
    order = effective_break_order(tables=tables, break_order=break_order)
    size = settings.final_table_size or max((t.seats for t in tables), default=0)
    if tables and not MIN_SEATS <= size <= max(t.seats for t in tables):
        raise ValueError(f"no table has the {size} seats of the final table")
    players = sum(len(t.players) for t in tables)
    if len(tables) > 1 and 0 < players <= size:
        return _final_table_plan(tables=tables, order=order, size=size, rng=rng)
    by_id = {t.table: t for t in tables}
    work = _Work(
        # the last big blind is fixed before anyone moves: it is a fact of the last hand
        states={t.table: replace(t, big_blind_seat=last_big_blind_seat(t)) for t in tables},
        seated={t.table: dict(t.players) for t in tables},
        moves={},
        live=list(order),
    )
    notes: list[str] = []
    broken = _break_tables(work, rng, notes)
    most = max((len(by_id[t].players) for t in work.live), default=0)
    halts = tuple(t for t in work.live if len(by_id[t].players) <= most - settings.halt_shortfall)
    if halts:
        notes.append(
            f"Tables {', '.join(map(str, halts))} are {settings.halt_shortfall} or more players "
            f"short of the fullest table: play halts there until the moves are made (TDA)."
        )
    _balance(work, settings, notes)
    return BalancePlan(
        moves=tuple(work.moves.values()),
        broken_tables=tuple(broken),
        halt_tables=halts,
        notes=tuple(notes),
    )


def apply_plan(*, tables: Sequence[TableState], plan: BalancePlan) -> tuple[TableState, ...]:
    """The tables after the plan: broken tables gone, players in their new seats."""
    seated = {t.table: dict(t.players) for t in tables}
    for m in plan.moves:
        if seated[m.from_table].get(m.from_seat) != m.player:
            raise ValueError(
                f"player {m.player} is not in seat {m.from_seat} of table {m.from_table}"
            )
        del seated[m.from_table][m.from_seat]
    for m in plan.moves:
        if m.to_seat in seated[m.to_table]:
            raise ValueError(f"seat {m.to_seat} of table {m.to_table} is taken twice")
        seated[m.to_table][m.to_seat] = m.player
    result = []
    for t in tables:
        if t.table in plan.broken_tables:
            continue
        if t.table == plan.final_table and plan.final_button_seat is not None:
            result.append(
                TableState.before_first_hand(
                    table=t.table,
                    seats=t.seats,
                    players=seated[t.table],
                    button_seat=plan.final_button_seat,
                )  # fmt: skip
            )
        else:
            result.append(
                replace(t, players=seated[t.table], big_blind_seat=last_big_blind_seat(t))
            )
    return tuple(result)


def verify_plan(
    *, tables: Sequence[TableState], plan: BalancePlan, settings: BalanceSettings | None = None
) -> None:
    """Raise ValueError unless the plan keeps every rule (a safety net before applying it)."""
    settings = settings or BalanceSettings()
    by_id = {t.table: t for t in tables}
    if len({m.player for m in plan.moves}) != len(plan.moves):
        raise ValueError("a player moves twice")
    after = apply_plan(tables=tables, plan=plan)  # raises on a lost player or a double booking
    before_players = sorted(p for t in tables for p in t.players.values())
    if sorted(p for t in after for p in t.players.values()) != before_players:
        raise ValueError("the plan loses or duplicates a player")
    for m in plan.moves:
        if not 1 <= m.to_seat <= by_id[m.to_table].seats:
            raise ValueError(f"table {m.to_table} has no seat {m.to_seat}")
        if m.to_table in plan.broken_tables:
            raise ValueError(f"player {m.player} moves to broken table {m.to_table}")
        if m.reason == "final_table":
            continue
        if m.reason == "balance" and m.to_seat == last_big_blind_seat(by_id[m.to_table]):
            raise ValueError(f"player {m.player} moves into next hand's small blind")  # TDA 11A
        if m.dealt_in != dealt_in(table=by_id[m.to_table], seat=m.to_seat):
            raise ValueError(
                f"player {m.player} is marked {'' if m.dealt_in else 'not '}dealt in, wrongly "
                f"for seat {m.to_seat} of table {m.to_table} (TDA 10B)"
            )
    counts = [len(t.players) for t in after]
    if counts and max(counts) - min(counts) > settings.max_gap:
        raise ValueError(f"tables are {max(counts) - min(counts)} players apart after the plan")
