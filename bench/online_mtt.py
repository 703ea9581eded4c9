"""A 1,000-player online multi-table tournament of house bots, at the service layer (no HTTP).

Recreates a PostgreSQL database (``--database``, by default ``floorman_bench_mtt``), migrates it
and, in this one process, creates an online event (tables of 9, no sit&go rule, its scheduled
start in the past: it starts at the director's first tick), registers the bots through
``scoring.online_events.register_bots`` (timed), then runs the tables' sweeper
(``tables.online.play.sweep``) and the events' director (``scoring.online_events.tick``) on a
virtual clock, one of each per step, as beat would, with settings.FLOORMAN_TABLE_PACE small so
that every sweep moves every hand on by one action. The seats come from the director's start
(the floor's seat draw); tables break and balance by the floor's own plans.

Measured: hands per second (wall) and the split between the director and the sweeper; the
director's time per hand with busts (``_record_hand``, wrapped here, not changed), its
balancing and waking; balancing moves applied (confirmed plans' moves, by reason); tables
broken; the chips check (``event_chips``) and the places. It stops when ``--until`` players are
left (1: the end), or after ``--max-seconds`` of play.

The peer, in the same run: the same number of hands dealt and played at cash online tables of
the same size with no director (as many tables as the event opened, 9 house bots each,
FLOORMAN_BOTS_PLAY_ALONE), on the same sweeper and virtual clock. The ratio of the two per hand
is what the tournament layer costs. Results and their reading: bench/RESULTS.md.

    .venv/bin/python -m bench.online_mtt                          # 1,000 players to the end
    .venv/bin/python -m bench.online_mtt --players 200 --until 20  # a quick look
    .venv/bin/python -m bench.online_mtt --profile mtt.prof       # cProfile of the event's loop
    .venv/bin/python -m bench.online_mtt --write-results          # append to bench/RESULTS.md
"""

from __future__ import annotations

import argparse
import base64
import cProfile
import json
import math
import os
import pstats
import secrets
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bench.results import append_run

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SECTION = "## Online tournament: 1,000 house bots (bench/online_mtt.py)"
STARTING_STACK = 3_000
# Minute levels on the virtual clock (a step of 0.2 s is one action at every table: about 25
# hands a level); the 25s leave play after level 2 (R5.11, a colour-up at every table).
LEVELS = (
    (25, 50, 0), (50, 100, 0), (75, 150, 0), (100, 200, 25), (150, 300, 25), (200, 400, 50),
    (300, 600, 75), (400, 800, 100), (600, 1_200, 200), (1_000, 2_000, 300),
    (1_500, 3_000, 500), (2_000, 4_000, 500), (3_000, 6_000, 1_000), (5_000, 10_000, 1_000),
    (10_000, 20_000, 2_000), (20_000, 40_000, 5_000), (50_000, 100_000, 10_000),
)  # fmt: skip


def summary(values: list[float]) -> dict[str, Any]:
    """Count, p50, p95 and max in milliseconds."""
    if not values:
        return {"count": 0, "p50": None, "p95": None, "max": None}
    ordered = sorted(values)

    def at(share: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000, 2)

    return {"count": len(values), "p50": at(0.5), "p95": at(0.95), "max": at(1.0)}


class Timed:
    """Wraps a module's function for the run: every call's wall time (and what ``note`` says
    about it), the product code unchanged."""

    def __init__(self, module: Any, name: str, note: Callable[..., int] | None = None) -> None:
        self.module, self.name, self.note = module, name, note
        self.original = getattr(module, name)
        self.calls: list[tuple[float, int]] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        begin = time.perf_counter()
        try:
            return self.original(*args, **kwargs)
        finally:
            noted = self.note(*args, **kwargs) if self.note else 0
            self.calls.append((time.perf_counter() - begin, noted))

    @property
    def total(self) -> float:
        return sum(seconds for seconds, _noted in self.calls)


@contextmanager
def timing(*wrappers: Timed) -> Iterator[None]:
    for wrapper in wrappers:
        setattr(wrapper.module, wrapper.name, wrapper)
    try:
        yield
    finally:
        for wrapper in wrappers:
            setattr(wrapper.module, wrapper.name, wrapper.original)


def busts_of(_event: Any, hand: Any) -> int:
    """A tournament hand's busts: the dealt players it left with no chips (R5.6)."""
    return sum(1 for stack in hand.final_stacks or [] if not stack)


# -- the setup (Django set up) -----------------------------------------------------------------


def floor_user() -> Any:
    from django.contrib.auth.models import Group, User

    from tournaments.selectors import FLOOR_GROUP

    user, _created = User.objects.get_or_create(username="bench-floor")
    user.groups.add(Group.objects.get_or_create(name=FLOOR_GROUP)[0])
    return user


def make_event(now: datetime, table_size: int) -> Any:
    """An online multi-table event on the bench's structure, due since a minute."""
    from tournaments.models import BlindStructure, Denomination, Event, EventKind, Level
    from tournaments.presets import default_chip_set

    chip_set = default_chip_set()
    structure = BlindStructure.objects.create(
        name=f"Bench MTT {now:%H%M%S%f}", chip_set=chip_set, starting_stack=STARTING_STACK
    )
    for position, (small, big, ante) in enumerate(LEVELS, start=1):
        Level.objects.create(
            structure=structure, position=position, small_blind=small, big_blind=big,
            ante=ante, minutes=1 if position < len(LEVELS) else 600,
        )  # fmt: skip
    quarter = Denomination.objects.get(chip_set=chip_set, value=25)
    Level.objects.filter(structure=structure, position=3).update(chip_up=quarter)
    structure.smallest_chip = quarter
    structure.save(update_fields=["smallest_chip"])
    return Event.objects.create(
        name="Bench online MTT", kind=EventKind.CUSTOM, structure=structure,
        starting_stack=STARTING_STACK, scheduled_start=now - timedelta(minutes=1), online=True,
        table_size=table_size, start_players=None,
    )  # fmt: skip


# -- the tournament ----------------------------------------------------------------------------


class Watchers:
    """``--watched LANGUAGE``: every table has a tab reading it in that language, whose stream
    marks it (tables.online.languages), so each table's public table is drawn after every
    change as at a table people watch. Without it a table of bots nobody watches is sent as a
    bare nudge and drawn not at all. The marks are renewed as a stream renews them (every
    heartbeat of wall time), outside the timed parts."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.renewed = -math.inf

    def renew(self, table_ids: Callable[[], list[int]]) -> None:
        from tables.online import languages

        if not self.language or time.perf_counter() - self.renewed < languages.REFRESH_SECONDS:
            return
        languages.mark_listening(table_ids(), None, self.language)
        self.renewed = time.perf_counter()


def play_tournament(args: argparse.Namespace, now: datetime) -> dict[str, Any]:
    from scoring import online_events
    from tables.models import FloorStep, Move, StepKind, StepStatus
    from tables.online import play as online_play
    from tables.online.models import OnlineTable, TableHand
    from tables.online.tournament import event_chips
    from tournaments.models import Entry, EventStatus

    floor = floor_user()
    event = make_event(now, args.table_size)
    begin = time.perf_counter()
    for done in range(0, args.players, 1_000):
        count = min(1_000, args.players - done)
        online_events.register_bots(event_id=event.pk, count=count, actor=floor)
    registered = time.perf_counter() - begin
    begin = time.perf_counter()
    online_events.tick(event_id=event.pk, now=now)  # the start: the seat draw, the tables
    started = time.perf_counter() - begin
    tables = OnlineTable.objects.filter(floor_table__event=event).count()

    record = Timed(online_events, "_record_hand", note=busts_of)
    balance = Timed(online_events, "_balance")
    wake = Timed(online_events, "_wake")
    chips = Timed(online_events, "check_chips")
    # A tick whose probe (``_probe``) found something to do: its ``_direct`` is noted 1.
    direct = Timed(online_events, "_direct", note=lambda _event, _now, work: int(any(work)))
    probe = Timed(online_events, "_probe")
    locks = Timed(online_events, "lock_table_ids")
    ticks: list[tuple[float, int]] = []  # each tick's seconds and the busts it recorded
    sweep_seconds = 0.0
    steps, left = 0, args.players
    profile = cProfile.Profile() if args.profile else None
    watchers = Watchers(args.watched)
    event_tables = OnlineTable.objects.filter(floor_table__event=event, status="open")
    begin = time.perf_counter()
    with timing(record, balance, wake, chips, direct, probe, locks):
        if profile:
            profile.enable()
        while left > args.until and time.perf_counter() - begin < args.max_seconds:
            watchers.renew(lambda: list(event_tables.values_list("pk", flat=True)))
            now += timedelta(seconds=args.step)
            steps += 1
            moment, before = time.perf_counter(), len(record.calls)
            online_events.tick(event_id=event.pk, now=now)
            busts = sum(noted for _seconds, noted in record.calls[before:])
            ticks.append((time.perf_counter() - moment, busts))
            left -= busts
            moment = time.perf_counter()
            online_play.sweep(now=now)
            sweep_seconds += time.perf_counter() - moment
            if left <= 1:
                event.refresh_from_db(fields=["status"])
                if event.status == EventStatus.FINISHED:
                    break
        if profile:
            profile.disable()
    wall = time.perf_counter() - begin
    if profile:
        profile.dump_stats(args.profile)
    # Stopped early: the event stands still (no turn, no deal) while its peer plays.
    TableHand.objects.filter(table__floor_table__event=event, is_over=False).update(deadline=None)
    OnlineTable.objects.filter(floor_table__event=event).update(next_hand_at=None)

    hands = TableHand.objects.filter(table__floor_table__event=event)
    finished = hands.filter(is_over=True)
    dealt = sum(len(numbers) for numbers in finished.values_list("seat_numbers", flat=True))
    plans = FloorStep.objects.filter(event=event, kind=StepKind.PLAN, status=StepStatus.DONE)
    moves = Move.objects.filter(step__in=plans, confirmed_at__isnull=False)
    plan_data = plans.values_list("data", flat=True)
    broken = sum(len(data.get("broken_tables", [])) for data in plan_data)
    seated, brought = event_chips(event)
    places = sorted(filter(None, Entry.objects.filter(event=event).values_list("place", flat=True)))
    in_play = Entry.objects.filter(event=event).in_play().count()
    event.refresh_from_db(fields=["status"])
    bust_hands = [seconds for seconds, busts in record.calls if busts]
    per_bust = [seconds / busts for seconds, busts in record.calls if busts for _ in range(busts)]
    director = sum(seconds for seconds, _busts in ticks)
    return {
        "players": args.players,
        "register_seconds": round(registered, 2),
        "start_seconds": round(started, 2),
        "tables": tables,
        "steps": steps,
        "virtual_seconds": round(steps * args.step, 1),
        "wall_seconds": round(wall, 2),
        "hands": finished.count(),
        "hands_dealt": hands.count(),
        "dealt_per_hand": round(dealt / max(1, finished.count()), 2),
        "hands_per_second": round(finished.count() / wall, 1),
        "played_hands_per_second": round(
            finished.count() / max(sweep_seconds + sum(s for s, _b in ticks), 1e-9), 1
        ),
        "sweeper_seconds": round(sweep_seconds, 2),
        "director_seconds": round(director, 2),
        "director_share": round(director / wall, 3),
        "tick": summary([seconds for seconds, _busts in ticks]),
        "busy_ticks": sum(busy for _seconds, busy in direct.calls),
        "busy_tick": summary([seconds for seconds, busy in direct.calls if busy]),
        "tick_with_busts": summary([seconds for seconds, busts in ticks if busts]),
        "record_hand": summary([seconds for seconds, _busts in record.calls]),
        "record_hand_with_busts": summary(bust_hands),
        "per_bust": summary(per_bust),
        "record_seconds": round(record.total, 2),
        "balance_seconds": round(balance.total, 2),
        "wake_seconds": round(wake.total, 2),
        "check_chips_seconds": round(chips.total, 2),
        "probe_seconds": round(probe.total, 2),
        "lock_seconds": round(locks.total, 2),
        "direct_seconds": round(direct.total, 2),
        "busts": len(per_bust),
        "left": in_play,
        "finished": event.status == EventStatus.FINISHED,
        "places": places,
        "places_ok": places == list(range(in_play + 1 if in_play > 1 else 1, args.players + 1)),
        "moves": dict(sorted(Counter(moves.values_list("reason", flat=True)).items())),
        "plans": plans.count(),
        "tables_broken": broken,
        "open_tables": OnlineTable.objects.filter(floor_table__event=event, status="open").count(),
        "chips_seated": seated,
        "chips_brought": brought,
    }


# -- the peer ----------------------------------------------------------------------------------


def play_cash(args: argparse.Namespace, tables: int, target: int, now: datetime) -> dict[str, Any]:
    """``tables`` cash tables of the event's size, house bots playing alone, until ``target``
    hands are over (or the time budget)."""
    from django.utils import timezone

    from tables.online import play as online_play
    from tables.online import services as online_services
    from tables.online.models import TableHand
    from tournaments.models import AuditEvent

    floor = floor_user()
    begin = time.perf_counter()
    opened = []
    for index in range(tables):
        table = online_services.open_table(
            actor=floor, name=f"Bench cash {index + 1:03d}", seats=args.table_size,
            small_blind=25, big_blind=50, min_buy_in=STARTING_STACK, max_buy_in=STARTING_STACK,
        )  # fmt: skip
        for _seat in range(args.table_size):
            online_services.seat_bot(table=table, actor=floor)
        opened.append(table.pk)
    seated = time.perf_counter() - begin
    # The bots' tables want to deal now (real time): the virtual clock starts there.
    now = max(now, timezone.now())
    hands = TableHand.objects.filter(table_id__in=opened)
    steps, sweep_seconds, over = 0, 0.0, 0
    watchers = Watchers(args.watched)
    begin = time.perf_counter()
    while over < target and time.perf_counter() - begin < args.max_seconds:
        watchers.renew(lambda: opened)
        now += timedelta(seconds=args.step)
        steps += 1
        moment = time.perf_counter()
        online_play.sweep(now=now)
        sweep_seconds += time.perf_counter() - moment
        over = hands.filter(is_over=True).count()  # the bench's own count (not in the sweep)
    wall = time.perf_counter() - begin
    finished = hands.filter(is_over=True).values_list("seat_numbers", flat=True)
    dealt = sum(len(numbers) for numbers in finished)
    return {
        "tables": tables,
        # A broke house bot buys in again as its hand is settled, inside the timed sweep
        # (tables.online.services.rebuy_bot): the peer's tables never thin out.
        "refills": AuditEvent.objects.filter(
            action="online.bot_rebuy", data__table__in=opened
        ).count(),
        "seat_seconds": round(seated, 2),
        "steps": steps,
        "wall_seconds": round(wall, 2),
        "sweeper_seconds": round(sweep_seconds, 2),
        "hands": over,
        "dealt_per_hand": round(dealt / max(1, over), 2),
        "hands_per_second": round(over / wall, 1),
        "sweeper_hands_per_second": round(over / max(sweep_seconds, 1e-9), 1),
    }


# -- the run -----------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> dict[str, Any]:
    """The tournament, then its peer, in this process (Django set up, the database migrated)."""
    from django.conf import settings
    from django.test import override_settings
    from django.utils import timezone

    now = timezone.now()
    with override_settings(FLOORMAN_TABLE_PACE=args.pace):
        mtt = play_tournament(args, now)
        with override_settings(FLOORMAN_BOTS_PLAY_ALONE=True):
            cash = play_cash(args, mtt["tables"], mtt["hands"], now)
    per_hand_mtt = (mtt["sweeper_seconds"] + mtt["director_seconds"]) / max(1, mtt["hands"])
    per_hand_cash = cash["sweeper_seconds"] / max(1, cash["hands"])
    return {
        "tournament": mtt,
        "cash": cash,
        "cost_ratio": round(per_hand_mtt / max(per_hand_cash, 1e-9), 2),
        "sweeper_ratio": round(
            mtt["sweeper_seconds"] / max(1, mtt["hands"]) / max(per_hand_cash, 1e-9), 2
        ),
        "live_bus": settings.LIVE_BUS,
        "pace": args.pace,
        "watched": args.watched or None,
        "step": args.step,
    }


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f}"


def render(report: dict[str, Any], command: str) -> str:
    """The run as markdown: the command, the two loops side by side, the director's figures."""
    mtt, cash = report["tournament"], report["cash"]
    stop = (
        "to the end (one player left)"
        if mtt["finished"]
        else f"stopped with {mtt['left']} players left"
    )
    per_hand = [
        1000 * (mtt["sweeper_seconds"] + mtt["director_seconds"]) / max(1, mtt["hands"]),
        1000 * cash["sweeper_seconds"] / max(1, cash["hands"]),
    ]
    lines = [
        f"Command: `{command}` (pace {report['pace']}, step {report['step']} s of the virtual "
        f"clock, live bus {report['live_bus']}; "
        + (
            f"every table watched in {report['watched']}: drawn after every change)."
            if report["watched"]
            else "no table watched: sent as bare nudges, drawn not at all)."
        ),
        "",
        f"{mtt['players']:,} players at {mtt['tables']} tables, {stop} after "
        f"{mtt['virtual_seconds']:,.0f} s of virtual clock ({mtt['steps']:,} steps). Registering "
        f"the bots took {mtt['register_seconds']:,.1f} s, the start (seat draw, tables opened) "
        f"{mtt['start_seconds']:,.2f} s.",
        "",
        "| loop | hands over | players dealt a hand | wall s | hands/s (wall) "
        "| ms a hand (sweeper + director) | of it the director |",
        "|---|---:|---:|---:|---:|---:|---:|",
        f"| tournament | {mtt['hands']:,} | {mtt['dealt_per_hand']} | {mtt['wall_seconds']:,.1f} "
        f"| {mtt['hands_per_second']:,.1f} | {per_hand[0]:.1f} "
        f"| {1000 * mtt['director_seconds'] / max(1, mtt['hands']):.1f} |",
        f"| cash peer ({cash['tables']} tables, {cash['refills']:,} broke bots bought in again) "
        f"| {cash['hands']:,} | {cash['dealt_per_hand']} "
        f"| {cash['wall_seconds']:,.1f} | {cash['hands_per_second']:,.1f} | {per_hand[1]:.1f} "
        "| - |",
        "",
        f"Tournament cost per hand: **{report['cost_ratio']}x** the cash peer's "
        f"(the sweeper's part alone: {report['sweeper_ratio']}x).",
        "",
        "| director, ms | count | p50 | p95 | max |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, label in (
        ("tick", "a tick"),
        ("busy_tick", "a tick with work (`_direct`; the others end after one query)"),
        ("tick_with_busts", "a tick that recorded busts"),
        ("record_hand", "`_record_hand`, any hand"),
        ("record_hand_with_busts", "`_record_hand`, a hand with busts"),
        ("per_bust", "a bust (its hand's time / its busts)"),
    ):
        figures = mtt[name]
        lines.append(
            f"| {label} | {figures['count']:,} | {ms(figures['p50'])} | {ms(figures['p95'])} "
            f"| {ms(figures['max'])} |"
        )
    moves = ", ".join(f"{reason} {count}" for reason, count in mtt["moves"].items()) or "none"
    parts = ("record_seconds", "balance_seconds", "wake_seconds", "check_chips_seconds")
    rest = mtt["direct_seconds"] - sum(mtt[part] for part in parts) - mtt["lock_seconds"]
    outside = mtt["director_seconds"] - mtt["direct_seconds"] - mtt["probe_seconds"]
    lines += [
        "",
        f"The director's {mtt['director_seconds']:,.1f} s: recording hands "
        f"{mtt['record_seconds']:,.1f} s, balancing {mtt['balance_seconds']:,.1f} s, waking "
        f"tables {mtt['wake_seconds']:,.1f} s, the chips check {mtt['check_chips_seconds']:,.1f}"
        f" s, the tables locked {mtt['lock_seconds']:,.1f} s, the rest of its work "
        f"{rest:,.1f} s; the probe {mtt['probe_seconds']:,.1f} s; the event's lock and the "
        f"commit {outside:,.1f} s."
        f" Balancing: {mtt['plans']} plans carried out, moves by reason: {moves}; "
        f"tables broken: {mtt['tables_broken']}, open at the end: {mtt['open_tables']}. "
        f"Busts: {mtt['busts']:,}, places {'recorded, each once' if mtt['places_ok'] else 'WRONG'}"
        f"; chips: {mtt['chips_seated']:,} at the tables, {mtt['chips_brought']:,} brought "
        f"({'conserved' if mtt['chips_seated'] == mtt['chips_brought'] else 'NOT CONSERVED'}).",
    ]
    return "\n".join(lines)


def write_results(text: str) -> None:
    """Append a run's figures to this benchmark's section of bench/RESULTS.md."""
    append_run(SECTION, text)


def arguments() -> argparse.ArgumentParser:
    """The benchmark's options (the smoke test parses its own small run with them)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1_000)
    parser.add_argument("--table-size", type=int, default=9)
    parser.add_argument("--until", type=int, default=1, help="stop with this many players left")
    parser.add_argument(
        "--max-seconds", type=float, default=3_600.0, help="wall budget of each loop"
    )
    parser.add_argument("--step", type=float, default=0.2, help="virtual seconds a step")
    parser.add_argument("--pace", type=float, default=0.03, help="FLOORMAN_TABLE_PACE")
    parser.add_argument("--database", default="floorman_bench_mtt")
    parser.add_argument("--profile", default="", help="cProfile the tournament loop to a file")
    parser.add_argument(
        "--watched", default="", metavar="LANGUAGE",
        help="every table watched by a tab in this language (en, de): its table drawn after "
        "every change; by default nobody watches and the tables are sent as bare nudges",
    )  # fmt: skip
    parser.add_argument("--write-results", action="store_true")
    return parser


def setup_django(database: str) -> None:
    """A fresh database, migrated, and Django set up on it in this process."""
    from bench.clock_phones import recreate_database

    os.environ["DATABASE_URL"] = recreate_database(database)
    # Production settings (PostgreSQL, Redis) need both keys; a run's own unless given.
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("FLOORMAN_SEAL_KEYS", base64.b64encode(os.urandom(32)).decode())
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def main() -> None:
    args = arguments().parse_args()
    setup_django(args.database)
    report = run(args)
    print(json.dumps(report | {"tournament": report["tournament"] | {"places": "..."}}, indent=2))
    command = ".venv/bin/python -m bench.online_mtt " + " ".join(sys.argv[1:])
    text = render(report, command.strip())
    print(text)
    if args.profile:
        stats = pstats.Stats(args.profile)
        stats.sort_stats("cumulative").print_stats(30)
    if args.write_results:
        write_results(text)


if __name__ == "__main__":
    main()
