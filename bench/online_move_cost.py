"""What one move costs in CPU, per server process: this Python process (the web process's work
for a player's move, the worker's for a house bot's), the PostgreSQL backend serving it, Redis,
and PostgreSQL's background processes; at move 5 and at move 60 of a hand, with its engine state
kept (tables.online.kept) and without it (every move replays the hand from its rows).

Recreates a PostgreSQL database (``--database``, by default ``floorman_bench_move``) and starts
a Redis server of its own (bench.server_cpu.private_redis: nobody else's commands land on it, so
its CPU is this run's), opens ``--tables`` tables of 6 players with deep stacks and, at each,
plays one hand of min-raises through ``tables.online.play.act`` (the service a POST calls, with
a fresh idempotency key as the page sends) to move 60. A move's cost is read around the call,
the publishing after the commit included: this process's CPU time, the backend's and Redis's
(``/proc/<pid>/task/*/schedstat``), the queries and the Redis commands it made. Two passes on
fresh hands: ``kept`` (the product) and ``replay`` (the kept states dropped before every move,
this process's and the cache's), and ``every language`` (kept, but no tab's stream has said
which language it reads, so every part is rendered in English and German: the design before
tables.online.languages; the other two passes' tabs read English). Then a house bot's move
applied by the sweeper (``expire_turn``) at a table of six bots, measured the same way.
PostgreSQL's background processes (WAL writer, checkpointer, ...) are read over each whole pass
and divided by its moves;
they serve every database of the server (other helpers' too on a shared machine): an upper
bound. Not measured here: the events process (uvicorn) that forwards the published messages to
the tabs (bench/online_tables.py reads it). ``--seat-changes`` instead times a seat's changes
between hands (chips added, back from sitting out), each published from a snapshot read after
its commit. Not a timed test: read the ratios in one run.

    .venv/bin/python -m bench.online_move_cost
    .venv/bin/python -m bench.online_move_cost --tables 4 --bot-moves 150
    .venv/bin/python -m bench.online_move_cost --seat-changes 40
"""

from __future__ import annotations

import argparse
import base64
import functools
import os
import secrets
import statistics
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

from bench.online_mtt import setup_django  # noqa: E402 - after the path
from bench.server_cpu import (  # noqa: E402
    backend_pid,
    background_readings,
    cpu_seconds,
    grown,
    private_redis,
    redis_commands,
)

SEQUENCES = (5, 60)
_FORM = "application/x-www-form-urlencoded"  # as static/js/table.js posts a form
PROCESSES = ("python", "postgres", "redis")


@dataclass
class Cost:
    """One move's cost: CPU seconds by process, queries, Redis commands."""

    cpu: dict[str, float]
    queries: int
    commands: int


@dataclass
class Meter:
    """Reads the processes around a move (the reads themselves outside the measured window)."""

    redis_url: str
    redis_pid: int
    queries: int = 0
    client: redis.Redis = field(init=False)
    background_by_design: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        from django.db import connection

        connection.execute_wrappers.append(self._count)  # every query of this thread's
        self.client = redis.Redis.from_url(self.redis_url, socket_timeout=5)

    def _count(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.queries += 1
        return execute(sql, params, many, context)

    def measure(self, work: Any) -> Cost:
        from django.db import connection

        backend = backend_pid(connection)  # before: the move's connection, open
        commands = redis_commands(self.client)
        queries = self.queries
        before = {"postgres": cpu_seconds(backend), "redis": cpu_seconds(self.redis_pid)}
        begin = time.process_time()
        work()
        python = time.process_time() - begin
        cpu = {
            "python": python,
            "postgres": cpu_seconds(backend) - before["postgres"],
            "redis": cpu_seconds(self.redis_pid) - before["redis"],
        }
        # The INFO read before counts in the one after; the pg_backend_pid() query does not.
        return Cost(cpu, self.queries - queries, redis_commands(self.client) - commands - 1)

    def background_cpu(self) -> dict[int, float]:
        return background_readings()


def listen(table: Any, users: dict[int, Any], language: str | None) -> None:
    """The players' tabs read ``language`` (their streams say so: tables.online.languages); None:
    every part is rendered in every language, as before issue 17's marks (the table watched in
    each language, the players' own streams unsaid)."""
    from tables.online import languages

    if language is not None:
        languages.mark_listening([table.pk], None, language)
        for user_id in users:
            languages.mark_listening([], user_id, language)
        return
    languages.forget_listening([table.pk], users)
    for code in languages.codes():
        languages.mark_listening([table.pk], None, code)


def play_hand(
    meter: Meter, table: Any, users: dict[int, Any], *, replay: bool, language: str | None = "en"
) -> dict[int, Cost]:
    """One hand of min-raises to move 60: each move's cost by the sequence it made."""
    from django.core.cache import cache

    from tables.online import kept
    from tables.online import play as online_play
    from tables.online.models import TableHand

    listen(table, users, language)  # a hand of 60 moves lasts well within the marks' life
    hand = online_play.deal_hand(table=table)
    assert hand is not None
    costs: dict[int, Cost] = {}
    while hand.sequence < max(SEQUENCES):
        engine = online_play.engine_of(hand)
        if replay:
            kept.forget_local()
            cache.clear()
            listen(table, users, language)
        user = users[hand.user_ids[engine.actor]]
        move = functools.partial(
            online_play.act, table=table, user=user, hand_id=hand.pk, sequence=hand.sequence,
            action="raise", amount=engine.min_raise_to(), key=uuid.uuid4().hex,
        )  # fmt: skip
        cost = meter.measure(move)
        hand = TableHand.objects.get(pk=hand.pk)
        costs[hand.sequence] = cost
    return costs


def deep_table(floor: Any, name: str, prefix: str) -> tuple[Any, dict[int, Any]]:
    """A table of six players at 1/2 with stacks of 10**8 (a hand of min-raises never runs a
    stack out), and its players by id."""
    from django.contrib.auth.models import User

    from tables.online import services as online_services

    table = online_services.open_table(
        actor=floor, name=name, seats=6, small_blind=1, big_blind=2, min_buy_in=1_000,
        max_buy_in=10**8,
    )  # fmt: skip
    users = {}
    for seat in range(1, 7):
        user = User.objects.create_user(f"{prefix}-{seat}", password="x")  # noqa: S106
        online_services.grant_chips(user=user, amount=10**8, actor=floor)
        online_services.take_seat(table=table, user=user, buy_in=10**8, number=seat)
        users[user.pk] = user
    return table, users


def fold_out(table: Any, users: dict[int, Any]) -> None:
    """The running hand (if any) folded to its end, as its players would fold it; the next
    deal waits for the benchmark, not for a pause."""
    from tables.online import play as online_play
    from tables.online.models import OnlineTable, TableHand

    running = TableHand.objects.filter(table=table, is_over=False).first()
    while running is not None and not running.is_over:
        engine = online_play.engine_of(running)
        online_play.act(
            table=table, user=users[running.user_ids[engine.actor]], hand_id=running.pk,
            sequence=running.sequence, action="fold",
        )  # fmt: skip
        running.refresh_from_db()
    OnlineTable.objects.filter(pk=table.pk).update(next_hand_at=None)


def run(meter: Meter, tables: int) -> dict[str, dict[int, list[Cost]]]:
    from django.contrib.auth.models import User

    floor = User.objects.create_user("floor-bench", password="x", is_staff=True)  # noqa: S106
    designs = ("kept", "replay", "every language")
    results: dict[str, dict[int, list[Cost]]] = {design: {} for design in designs}
    background = dict.fromkeys(designs, 0.0)
    for number in range(tables):
        table, users = deep_table(floor, f"Bench {number}", f"p{number}")
        for design in designs:
            start = meter.background_cpu()
            language = None if design == "every language" else "en"
            costs = play_hand(meter, table, users, replay=design == "replay", language=language)
            background[design] += grown(start, meter.background_cpu())
            for sequence, cost in costs.items():
                results[design].setdefault(sequence, []).append(cost)
            fold_out(table, users)
    meter.background_by_design = background
    return results


def bot_moves(meter: Meter, count: int) -> tuple[list[Cost], float]:
    """House bots' moves applied by the sweeper's ``expire_turn``: each one's cost, and
    PostgreSQL's background CPU over them all."""
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.auth.models import User
    from django.utils import timezone

    from tables.online import play as online_play
    from tables.online import services as online_services
    from tables.online.models import TableHand

    settings.FLOORMAN_BOTS_PLAY_ALONE = True
    floor = User.objects.get(username="floor-bench")
    table = online_services.open_table(
        actor=floor, name="Bots", seats=6, small_blind=1, big_blind=2, max_buy_in=10**6
    )
    for _seat in range(6):
        online_services.seat_bot(table=table, actor=floor)
    now = timezone.now()
    costs: list[Cost] = []
    start = meter.background_cpu()
    while len(costs) < count:
        now += timedelta(seconds=30)
        hand = TableHand.objects.filter(table=table, is_over=False).first()
        if hand is None:
            online_play.deal_hand(table=table, now=now)
            continue

        move = functools.partial(  # as the sweeper calls it: the table's id from its query
            online_play.expire_turn, hand_id=hand.pk, sequence=hand.sequence, now=now,
            table_id=table.pk,
        )  # fmt: skip
        costs.append(meter.measure(move))
    return costs, grown(start, meter.background_cpu())


def per_process(costs: list[Cost], background: float) -> dict[str, float]:
    """Mean ms of CPU a move by process (means add up; the medians are printed beside)."""
    row = {name: statistics.fmean(c.cpu[name] for c in costs) * 1000 for name in PROCESSES}
    row["pg background"] = background / len(costs) * 1000
    row["all"] = sum(row.values())
    row["python median"] = statistics.median(c.cpu["python"] for c in costs) * 1000
    row["queries"] = statistics.fmean(c.queries for c in costs)
    row["redis commands"] = statistics.fmean(c.commands for c in costs)
    return row


def table_lines(rows: dict[str, dict[str, float]]) -> list[str]:
    head = "| move | Python (web / worker) | PostgreSQL backend | Redis | PG background (shared) "
    head += "| all | Python median | queries | Redis commands |"
    lines = [head, "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, row in rows.items():
        figures = [row["python"], row["postgres"], row["redis"], row["pg background"], row["all"]]
        cells = " | ".join(f"{value:.2f}" for value in figures)
        lines.append(
            f"| {name} | {cells} | {row['python median']:.2f} | {row['queries']:.1f} "
            f"| {row['redis commands']:.1f} |"
        )
    return lines


# -- where a move's CPU goes: the POST's parts (--parts) -------------------------------------

# (module, attribute path, label): each timed inclusively (a part's own parts are in it too),
# once per move however often it is called inside itself.
PARTS = (
    ("django.contrib.auth.backends", "ModelBackend.get_user", "request: the user's row"),
    ("django.contrib.sessions.backends.cached_db", "SessionStore.load", "request: the session"),
    ("tables.online.forms", "ActForm.is_valid", "request: the form"),
    ("tables.online.play", "act", "the move (play.act, its commit and publishing)"),
    ("tables.online.play", "_locked_hand", "  the table's and hand's locks"),
    ("tables.online.play", "engine_of", "  the engine's kept state"),
    ("tables.online.play", "named_seats", "  the seats"),
    ("tables.online.play", "_store", "  the move stored"),
    ("tables.online.play", "_after_change", "  the next turn (and the state kept)"),
    ("tables.online.play", "_moved", "  the version and the snapshot"),
    ("tables.online.play", "publish_table_changed", "  the publishing, after the commit"),
    ("config.cache", "Batch.send", "    the cache's round trips (reads; writes and keeping)"),
    ("tables.online.publish", "public_message", "    the public table drawn"),
    ("tables.online.publish", "changed_parts", "    the players' parts checked, drawn"),
    ("tables.online.broadcast", "_private", "      a player's part drawn"),
    ("tables.online.publish", "_kept", "    the fingerprints and the messages kept"),
    ("tables.online.publish", "publish_many", "    the messages sent"),
    ("django.db.backends.utils", "CursorWrapper._execute", "any: a query"),
    ("redis.client", "Redis.execute_command", "any: a Redis command"),
    ("redis.client", "Pipeline.execute", "any: a Redis pipeline"),
)


@dataclass
class Parts:
    """CPU seconds and calls by part, counted only while ``active``."""

    seconds: dict[str, float] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)
    active: bool = False
    _inside: set[str] = field(default_factory=set)

    def timed(self, label: str, function: Any) -> Any:
        @functools.wraps(function)
        def part(*args: Any, **kwargs: Any) -> Any:
            if not self.active or label in self._inside:
                return function(*args, **kwargs)
            self._inside.add(label)
            begin = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self._inside.discard(label)
                self.seconds[label] = self.seconds.get(label, 0.0) + time.process_time() - begin
                self.calls[label] = self.calls.get(label, 0) + 1

        return part


def _patched(parts: Parts) -> list[tuple[Any, str, Any]]:
    """Wrap every part; what to put back."""
    import importlib

    undo = []
    for module_name, path, label in PARTS:
        owner: Any = importlib.import_module(module_name)
        *outer, name = path.split(".")
        for attribute in outer:
            owner = getattr(owner, attribute)
        original = getattr(owner, name)
        own = name in vars(owner)  # an inherited method is put back by deleting the wrapper
        setattr(owner, name, parts.timed(label, original))
        undo.append((owner, name, original if own else None))
    return undo


def post_parts(moves: int) -> tuple[float, Parts]:
    """A player's min-raise POSTed ``moves`` times through Django's whole request path (the
    middleware, the session, the user's row, CSRF, the form, the view, the move and its
    publishing), as a stream-open page sends it (url-encoded, answered 204), at a table of six
    players whose tabs read English: the mean CPU seconds a POST, and the parts. The request is
    built before the clock starts (gunicorn's part, not Django's)."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.core.handlers.wsgi import WSGIHandler
    from django.middleware.csrf import _get_new_csrf_string
    from django.test import Client, RequestFactory
    from django.urls import reverse

    from tables.online import play as online_play
    from tables.online.models import TableHand

    floor = User.objects.create_user("floor-parts", password="x", is_staff=True)  # noqa: S106
    table, users = deep_table(floor, "Parts", "parts")
    sessions = {}
    for user in users.values():
        client = Client()
        client.force_login(user)
        sessions[user.pk] = client.cookies[settings.SESSION_COOKIE_NAME].value
    listen(table, users, "en")
    handler = WSGIHandler()
    path = reverse("tables:online_act", args=[table.pk])
    secret = _get_new_csrf_string()
    host = next((h for h in settings.ALLOWED_HOSTS if h[:1] not in ".*"), "localhost")
    parts = Parts()
    undo = _patched(parts)
    total = 0.0
    try:
        hand = online_play.deal_hand(table=table)
        assert hand is not None
        for _move in range(moves):
            if hand.is_over or hand.sequence >= 100:  # hands of a usual length, not one long one
                fold_out(table, users)
                hand = online_play.deal_hand(table=table)
                assert hand is not None
            engine = online_play.engine_of(hand)
            user_id = hand.user_ids[engine.actor]
            factory = RequestFactory()
            factory.cookies[settings.SESSION_COOKIE_NAME] = sessions[user_id]
            factory.cookies[settings.CSRF_COOKIE_NAME] = secret
            data = {"hand": hand.pk, "sequence": hand.sequence, "action": "raise",
                    "amount": engine.min_raise_to(), "key": uuid.uuid4().hex}  # fmt: skip
            request = factory.post(path, urlencode(data), _FORM, headers={
                "Host": host, "X-CSRFToken": secret, "X-Floorman": "table",
                "X-Floorman-Stream": "1",
            })  # fmt: skip
            parts.active = True
            begin = time.process_time()
            response = handler.get_response(request)
            response.close()
            total += time.process_time() - begin
            parts.active = False
            assert response.status_code == 204, (response.status_code, response.content[:200])
            hand = TableHand.objects.get(pk=hand.pk)
    finally:
        parts.active = False
        for owner, name, original in reversed(undo):
            if original is None:
                delattr(owner, name)
            else:
                setattr(owner, name, original)
    return total / moves, parts


def parts_lines(post: float, parts: Parts, moves: int) -> list[str]:
    lines = ["| part (inclusive) | ms of CPU a move | calls a move |", "|---|---:|---:|"]
    lines.append(f"| the POST, all of Django's part | {post * 1000:.2f} | 1 |")
    for _module, _path, label in PARTS:
        seconds = parts.seconds.get(label, 0.0)
        calls = parts.calls.get(label, 0)
        name = label.strip()
        depth = (len(label) - len(label.lstrip())) // 2
        lines.append(
            f"| {'· ' * depth}{name} | {seconds / moves * 1000:.2f} | {calls / moves:.1f} |"
        )
    return lines


def seat_changes(count: int) -> dict[str, float]:
    """``count`` tables of six English-reading tabs, a hand running without the sixth player
    (sat out, his stack gone): his chips added (``add_chips``), then he comes back
    (``come_back``), each a version published after its commit from a snapshot read then
    (``build_snapshot``), and that publication alone. Mean ms of this process's CPU each."""
    from django.contrib.auth.models import User

    from tables.online import play as online_play
    from tables.online import services as online_services
    from tables.online.models import OnlineSeat
    from tables.online.publish import publish_table_changed

    floor = User.objects.create_user("floor-seats", password="x", is_staff=True)  # noqa: S106
    rows = []
    for number in range(count):
        table, users = deep_table(floor, f"Seats {number}", f"seats{number}")
        listen(table, users, "en")
        user = list(users.values())[-1]
        online_play.sit_out(table=table, user=user)
        fold_out(table, users)
        assert online_play.deal_hand(table=table) is not None
        OnlineSeat.objects.filter(table=table, user=user).update(stack=0)
        rows.append((table, user))
    calls = {
        "the publication alone (publish_table_changed)": lambda t, u: publish_table_changed(t.pk),
        "add chips (add_chips)": lambda t, u: online_services.add_chips(
            table=t, user=u, amount=1_000
        ),
        "come back (come_back)": lambda t, u: online_services.come_back(
            table=t, user=u, post=False
        ),
    }
    means = {}
    for label, call in calls.items():
        begin = time.process_time()
        for table, user in rows:
            call(table, user)
        means[label] = (time.process_time() - begin) / count * 1000
    return means


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--bot-moves", type=int, default=200)
    parser.add_argument("--database", default="floorman_bench_move")
    parser.add_argument(
        "--parts", type=int, default=0, metavar="MOVES",
        help="instead: MOVES POSTs through Django's request path, their CPU by part",
    )  # fmt: skip
    parser.add_argument(
        "--seat-changes", type=int, default=0, metavar="TABLES",
        help="instead: a seat's changes (add chips, come back) at TABLES tables, CPU of each",
    )  # fmt: skip
    args = parser.parse_args()
    # Production's settings (Redis set, DEBUG off) want both; a benchmark makes its own.
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("FLOORMAN_SEAL_KEYS", base64.b64encode(os.urandom(32)).decode())
    with private_redis() as (redis_url, redis_pid):
        os.environ["REDIS_URL"] = redis_url
        os.environ.pop("LIVE_BUS", None)  # follows REDIS_URL: redis
        setup_django(args.database)
        if args.seat_changes:
            print(f"A seat's change at {args.seat_changes} tables of six, a hand running:")
            print("| change | ms of CPU each (this process) |\n|---|---:|")
            for label, ms in seat_changes(args.seat_changes).items():
                print(f"| {label} | {ms:.2f} |")
            return
        if args.parts:
            post, parts = post_parts(args.parts)
            print(f"{args.parts} POSTs of a player's min-raise (a stream-open page's, 204):")
            print("\n".join(parts_lines(post, parts, args.parts)))
            return
        meter = Meter(redis_url, redis_pid)
        report = run(meter, args.tables)
        bots, bots_background = bot_moves(meter, args.bot_moves)
    medians = {
        design: {s: statistics.median(c.cpu["python"] for c in by[s]) * 1000 for s in SEQUENCES}
        for design, by in report.items()
    }
    for design, by in medians.items():
        line = ", ".join(f"move {s}: {ms:.2f} ms" for s, ms in by.items())
        print(f"{design:7} {line}; 60/5 = {by[60] / by[5]:.2f} (this process, median)")
    print(f"replay/kept at move 60: {medians['replay'][60] / medians['kept'][60]:.2f}")
    every = medians["every language"][60] / medians["kept"][60]
    print(f"every language/kept (the tabs' one language) at move 60: {every:.2f}")
    background = meter.background_by_design
    rows = {
        f"a player's min-raise, kept (all {sum(map(len, report['kept'].values()))} moves)":
            per_process([c for by in report["kept"].values() for c in by], background["kept"]),
        "a player's min-raise, every language rendered (no stream said which)": per_process(
            [c for by in report["every language"].values() for c in by],
            background["every language"],
        ),
        f"a house bot's move (expire_turn, {len(bots)} moves)": per_process(bots, bots_background),
    }  # fmt: skip
    print("\nms of CPU a move, by process (means; PG background: the whole server's, shared):")
    print("\n".join(table_lines(rows)))


if __name__ == "__main__":
    main()
