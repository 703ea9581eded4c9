"""500 phones on the clock page while the floor busts players: the event's board (standings,
chip-up banner) carried by the stream, against the phones fetching it after each change.

Starts the production processes as bench/clock_phones.py does (a private Redis, a fresh
PostgreSQL database, gunicorn, uvicorn, a Celery worker and beat), seeds a field in the demo
event (``--entries`` players seated, ``--out`` of them out already, so the standings are as long
as they are mid-tournament) and starts the clock. Then, for each phone design in turn, on a
fresh run of the servers:

- ``carried`` (shipped, static/js/clock.js): a phone shows the board the stream brings; it polls
  the board's two parts only as the fallback, every 120 s while its stream is up;
- ``fetch`` (the design before, the peer): every change the stream announces makes the phone
  fetch both parts at once (htmx's ``fm:changed``), and both poll every 20 s.

The phones arrive 100 a second, half of them in German. The floor busts ``--busts`` players one
after another through the dashboard's form; for each bust the report says when every phone
showed the new count of players left (from the POST sent). Then the floor busts one more and
presses Pause at once: when every phone showed the pause says whether the floor's clock waited
behind the phones' requests. Also: the board requests the phones made, their statuses and
times, and the CPU seconds gunicorn and uvicorn spent over the busts. Prints a JSON report per
design and the RESULTS.md section.

    .venv/bin/python bench/board_phones.py                     # both designs, 500 phones
    .venv/bin/python bench/board_phones.py --phones 50 --busts 2 --designs carried  # a look
    .venv/bin/python bench/board_phones.py --write-results     # also update bench/RESULTS.md
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import secrets
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import psycopg
import redis

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.clock_load import Floor, spawn_kept, summary  # noqa: E402
from bench.clock_phones import BIN, servers  # noqa: E402
from bench.raw_http import Stream, frame_fields, request  # noqa: E402
from bench.results import replace_section  # noqa: E402
from bench.server_cpu import total_cpu  # noqa: E402

SECTION = "## The event's board on 500 phones (bench/board_phones.py)"
ARRIVALS = 25  # phones that open the page together (100 a second)
HAS_WAIT = 30.0  # seconds every phone gets to show a change before it counts as missing
LEFT = re.compile(rb'data-testid="players-left">(\d+) /')
PAUSED = b'"status":"paused"'
POLLS = {"carried": (120.0, 20.0), "fetch": (20.0, 20.0)}  # (stream up, stream down), seconds

SEED = """
from django.contrib.auth import get_user_model
from scoring.services import StackInput, record_busts
from tables.services import draw_seats
from tournaments.entry_services import register_entry
from tournaments.models import Entry, Event
from tournaments.services import ClockAction, act_on_clock

floor = get_user_model().objects.get(username="floor")
event = Event.objects.get(code="demo")
for number in range({entries}):
    register_entry(event_id=event.pk, actor=floor, name=f"Player {{number:03d}}", check_in=True)
draw_seats(event_id=event.pk, actor=floor, tables={tables})
act_on_clock(event_id=event.pk, actor=floor, action=ClockAction.START)
for entry in Entry.objects.filter(event=event, status="playing").order_by("pk")[: {out}]:
    record_busts(event_id=event.pk, actor=floor, busts=[StackInput(entry_id=entry.pk, stack=None)])
"""


@dataclass
class Stats:
    board: list[float] = field(default_factory=list)  # seconds a board request took
    statuses: dict[int, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1

    def requests(self) -> dict[str, Any]:
        """The board requests so far: how many, their statuses, their times."""
        return {"requests": len(self.board), "statuses": dict(self.statuses), **summary(self.board)}


class Phone:
    """One phone on the public clock page: its stream, its board, its polls."""

    PATTERN = LEFT  # what the phone reads off a part: the players left
    POLLS = POLLS

    def __init__(self, number: int, args: argparse.Namespace, stats: Stats) -> None:
        self.args = args
        self.stats = stats
        self.language = "de" if number % 2 else "en"
        self.figure: int | None = None
        self.shown: list[tuple[float, int]] = []  # (when, the figure: players left)
        self.paused_at: float | None = None
        self.etags: dict[str, str] = {}
        self.stream_open = False
        self.last_poll = time.monotonic()
        self.connected = asyncio.Event()
        self.background: set[asyncio.Task[None]] = set()

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        spawn_kept(self.background, work)

    def show(self, html: bytes) -> None:
        found = self.PATTERN.search(html)
        if found and int(found[1]) != self.figure:
            self.figure = int(found[1])
            self.shown.append((time.time(), self.figure))

    async def stream(self) -> None:
        headers = {"Accept-Language": self.language}
        try:
            stream = await Stream.open(self.args.events_port, self.args.stream_path, headers)
        except OSError:
            self.stats.error("stream:connect")
            return
        try:
            self.stream_open = self.connected.is_set() or stream.status_code == 200
            self.connected.set()
            async for frame in stream.frames():
                self.on_frame(*frame_fields(frame))
        except (OSError, asyncio.IncompleteReadError):
            self.stats.error("stream:broken")
        finally:
            self.stream_open = False
            stream.close()

    def on_frame(self, event: bytes, data: bytes) -> None:
        if event == b"standings" and self.args.design == "carried":
            self.show(json.loads(data)["standings"].encode())
        elif event in (b"standings", b"changed"):  # the design before: fm:changed
            self.spawn(self.fetch_board())
        elif event == b"clock" and PAUSED in data and self.paused_at is None:
            self.paused_at = time.time()

    async def fetch_board(self) -> None:
        """Both parts, as htmx's triggers fetch them (conditional: the browser's cache)."""
        self.last_poll = time.monotonic()
        for path in (self.args.standings_path, self.args.chip_up_path):
            body = await fetch_part(self.args.web_port, path, self.language, self.etags, self.stats)
            if body is not None and path == self.args.standings_path:
                self.show(body)

    async def poll(self) -> None:
        """The page's polls: every ``up`` seconds while its stream is open, ``down`` else."""
        up, down = self.POLLS[self.args.design]
        await asyncio.sleep(random.uniform(0, min(up, 20.0)))  # the pages were opened over time
        while True:
            every = up if self.stream_open else down
            if time.monotonic() - self.last_poll >= every:
                self.spawn(self.fetch_board())
            await asyncio.sleep(min(1.0, down / 4))


async def fetch_part(
    port: int, path: str, language: str, etags: dict[str, str], stats: Stats
) -> bytes | None:
    """One part of a page as htmx fetches it, conditional on the ETag it last had (the
    browser's cache), counted in ``stats``: its body when it changed, else None."""
    headers = {"HX-Request": "true", "Accept-Language": language}
    if path in etags:
        headers["If-None-Match"] = etags[path]
    started = time.perf_counter()
    try:
        answer = await request(port, "GET", path, headers, timeout=120)
    except (OSError, ValueError):
        stats.error("board:connection")
        return None
    stats.board.append(time.perf_counter() - started)
    status = answer.status_code
    stats.statuses[status] = stats.statuses.get(status, 0) + 1
    if status == 200:
        etags[path] = answer.headers.get("etag", "")
        return answer.content
    if status != 304:
        stats.error(f"board:{status}")
    return None


async def bust(floor: Floor, args: argparse.Namespace, entry_id: int) -> float:
    """The floor's bust form, as the dashboard posts it; when the POST was sent."""
    _page, data = await floor.form(f"/events/{args.event_pk}/floor/")
    data.update(out=str(entry_id), key=secrets.token_hex(8))
    sent = time.time()
    response = await floor.client.post(f"/events/{args.event_pk}/floor/busts/", data=data)
    assert response.status_code in (302, 303), f"bust: {response.status_code} {response.text}"
    return sent


def playing(args: argparse.Namespace) -> list[int]:
    with psycopg.connect(args.database_url.replace("postgres://", "postgresql://")) as connection:
        rows = connection.execute(
            "select id from tournaments_entry where event_id = %s and status = 'playing' "
            "order by id desc",
            (args.event_pk,),
        ).fetchall()
    return [row[0] for row in rows]


async def until_all(phones: list[Any], has: Any) -> list[float | None]:
    deadline = time.monotonic() + HAS_WAIT
    while True:
        found = [has(phone) for phone in phones]
        if all(moment is not None for moment in found) or time.monotonic() > deadline:
            return found
        await asyncio.sleep(0.05)


def report(found: list[float | None], start: float) -> dict[str, Any]:
    times = [moment - start for moment in found if moment is not None]
    return {**summary(times), "missing": sum(moment is None for moment in found)}


def shown_left(left: int, since: float) -> Any:
    return lambda phone: next((t for t, n in phone.shown if n == left and t >= since), None)


def drop_the_bus(redis_port: int) -> int:
    """End every pub/sub connection of the events process, as a Redis restart would."""
    client = redis.Redis(port=redis_port)
    try:
        listeners = [
            c for c in client.client_list() if c.get("name", "").startswith("floorman-live")
        ]
        return sum(client.client_kill_filter(_id=c["id"]) for c in listeners)
    finally:
        client.close()


def pids(*needles: str) -> list[int]:
    """The processes whose command line holds every needle (a server and its workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with suppress(OSError):
                line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                if all(needle in line for needle in needles):
                    found.append(int(entry.name))
    return found


async def load(args: argparse.Namespace) -> dict[str, Any]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    stats = Stats()
    floor = Floor(args)
    await floor.log_in()
    phones = [Phone(number, args, stats) for number in range(args.phones)]
    tasks = []
    for batch in range(0, len(phones), ARRIVALS):
        for phone in phones[batch : batch + ARRIVALS]:
            await phone.fetch_board()  # the page loads its parts (hx-trigger "load")
            tasks.append(asyncio.create_task(phone.stream()))
        await asyncio.sleep(ARRIVALS / 100)
    with suppress(TimeoutError):
        async with asyncio.timeout(60):
            await asyncio.gather(*(phone.connected.wait() for phone in phones))
    tasks += [asyncio.create_task(phone.poll()) for phone in phones]
    stats.board.clear()  # the pages' first loads are not the quiet's
    stats.statuses.clear()
    await asyncio.sleep(args.steady_seconds)
    steady = {"requests": len(stats.board), "seconds": args.steady_seconds, **summary(stats.board)}
    stats.board.clear()
    stats.statuses.clear()

    servers_pids = {
        "gunicorn": pids("gunicorn", f"127.0.0.1:{args.web_port}"),
        "uvicorn": pids("uvicorn", f"--port {args.events_port}"),
    }
    cpu_before = {name: total_cpu(found) for name, found in servers_pids.items()}
    out = playing(args)
    busts = []
    for number in range(args.busts):
        left = len(out) - 1 - number
        sent = await bust(floor, args, out[number])
        busts.append(report(await until_all(phones, shown_left(left, sent)), sent))
        await asyncio.sleep(2.0)
    left = len(out) - 1 - args.busts
    sent = await bust(floor, args, out[args.busts])
    pressed, _answered = await floor.press("pause")
    paused = report(await until_all(phones, lambda phone: phone.paused_at), pressed)
    shown = report(await until_all(phones, shown_left(left, sent)), sent)
    await asyncio.sleep(2.0)  # the last requests are answered
    cpu = {name: round(total_cpu(servers_pids[name]) - cpu_before[name], 2) for name in cpu_before}
    during = stats.requests()

    # The bus drops (a Redis restart, a failover) and a bust is published to nobody: the
    # streams catch up when the events process has subscribed again (a second later).
    stats.board.clear()
    stats.statuses.clear()
    cpu_before = {name: total_cpu(found) for name, found in servers_pids.items()}
    dropped = await asyncio.to_thread(drop_the_bus, args.redis_port)
    sent = await bust(floor, args, out[args.busts + 1])
    gap = report(await until_all(phones, shown_left(left - 1, sent)), sent)
    await asyncio.sleep(2.0)
    gap_cpu = {
        name: round(total_cpu(servers_pids[name]) - cpu_before[name], 2) for name in cpu_before
    }
    after_gap = stats.requests()

    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await floor.client.aclose()
    return {
        "design": args.design,
        "phones": args.phones,
        "streams_connected": sum(phone.connected.is_set() for phone in phones),
        "steady": steady,
        "busts": busts,
        "bust_then_pause": {"bust": shown, "pause": paused},
        "board_requests_during_busts": during,
        "cpu_seconds_during_busts": cpu,
        "bus_gap": {
            "subscriptions_killed": dropped,
            "bust": gap,
            "board_requests": after_gap,
            "cpu_seconds": gap_cpu,
        },
        "errors": stats.errors,
    }


def seed(args: argparse.Namespace, database_url: str) -> None:
    env = dict(os.environ, DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="config.settings")
    env.pop("REDIS_URL", None)  # nobody listens yet: the database bus, the local cache
    code = SEED.format(entries=args.entries, tables=args.entries // 10, out=args.out)
    command = [str(BIN / "python"), "manage.py", "shell", "-c", code]
    subprocess.run(command, cwd=ROOT, env=env, check=True)


def cell(figures: dict[str, Any]) -> str:
    """A change's cell of a report: until every phone showed it, and the phones that did not."""
    if figures.get("failed"):
        return f"the POST failed, {figures['missing']}"
    return (
        f"{figures.get('p50', '-')} / {figures.get('p95', '-')} / {figures.get('max', '-')}, "
        f"{figures['missing']}"
    )


def render(reports: list[dict[str, Any]], args: argparse.Namespace, command: str) -> str:
    by = {r["design"]: r for r in reports}
    lines = [
        SECTION,
        "",
        f"Command (from the repository root): `{command}`",
        "",
        f"Date: {date.today().isoformat()}. The processes of bench/clock_phones.py on a fresh "
        f"database; the demo event with {args.entries} players seated, {args.out} out already, "
        f"the clock running. {args.phones} phones (half in German) open the clock page 100 a "
        "second. `carried` is the shipped static/js/clock.js: it shows the board the stream "
        "brings and polls the board's two parts every 120 s while its stream is up. `fetch` is "
        "the design before, the peer: each change makes every phone fetch both parts, and both "
        f"poll every 20 s. The floor busts {args.busts} players one after another, then one more "
        "and presses Pause at once; then every pub/sub connection of the events process is "
        "ended (a Redis restart) and the floor busts one more before it has subscribed again. "
        "Every design on its own fresh servers, in turn.",
        "",
        "Until every phone shows the change (ms from the POST sent):",
        "",
        "| change | " + " | ".join(f"{d}: p50 / p95 / max, missing" for d in by) + " |",
        "|---|" + "---:|" * len(by),
    ]

    def line(name: str, pick: Any) -> str:
        return f"| {name} | " + " | ".join(cell(pick(r)) for r in by.values()) + " |"

    for number in range(args.busts):
        lines.append(line(f"bust {number + 1}", lambda r, n=number: r["busts"][n]))
    lines.append(line("a bust, then Pause: the bust", lambda r: r["bust_then_pause"]["bust"]))
    lines.append(line("a bust, then Pause: the pause", lambda r: r["bust_then_pause"]["pause"]))
    lines.append(line("the bus dropped, a bust meanwhile", lambda r: r["bus_gap"]["bust"]))
    lines += ["", "| over the busts | " + " | ".join(by) + " |", "|---|" + "---:|" * len(by)]
    rows: dict[str, Callable[[dict[str, Any]], object]] = {
        "board requests": lambda r: r["board_requests_during_busts"]["requests"],
        "their statuses": lambda r: r["board_requests_during_busts"]["statuses"],
        "their p95 ms": lambda r: r["board_requests_during_busts"].get("p95", "-"),
        "gunicorn CPU s": lambda r: r["cpu_seconds_during_busts"]["gunicorn"],
        "uvicorn CPU s": lambda r: r["cpu_seconds_during_busts"]["uvicorn"],
        f"board requests in {args.steady_seconds:.0f} s of quiet": lambda r: r["steady"][
            "requests"
        ],
        "the bus dropped: subscriptions ended": lambda r: r["bus_gap"]["subscriptions_killed"],
        "the bus dropped: board requests": lambda r: r["bus_gap"]["board_requests"]["requests"],
        "the bus dropped: gunicorn CPU s": lambda r: r["bus_gap"]["cpu_seconds"]["gunicorn"],
        "the bus dropped: uvicorn CPU s": lambda r: r["bus_gap"]["cpu_seconds"]["uvicorn"],
        "errors": lambda r: r["errors"] or 0,
    }
    for name, value in rows.items():
        lines.append(f"| {name} | " + " | ".join(str(value(r)) for r in by.values()) + " |")
    if {"carried", "fetch"} <= set(by):
        carried, fetch = by["carried"], by["fetch"]
        ratio = fetch["cpu_seconds_during_busts"]["gunicorn"] / max(
            carried["cpu_seconds_during_busts"]["gunicorn"], 0.01
        )
        lines += ["", f"gunicorn's CPU over the busts, fetch / carried: {ratio:.1f}x."]
    return "\n".join(lines) + "\n"


def arguments(description: str, designs: list[str], database: str) -> argparse.ArgumentParser:
    """The options of a phones benchmark: its own come after these."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--phones", type=int, default=500)
    parser.add_argument("--steady-seconds", type=float, default=30.0)
    parser.add_argument("--designs", nargs="+", choices=designs, default=designs)
    parser.add_argument("--web-workers", type=int, default=3)
    parser.add_argument("--database", default=database)
    parser.add_argument("--write-results", action="store_true")
    return parser


def run_designs(
    args: argparse.Namespace,
    script: str,
    run: Callable[[dict[str, Any], str], dict[str, Any]],
    render: Callable[[list[dict[str, Any]], argparse.Namespace, str], str],
) -> None:
    """Each design on its own fresh servers in turn (``run(ports, design)`` its report), then
    the RESULTS.md section, printed and, with --write-results, written."""
    command = ".venv/bin/python " + " ".join([f"bench/{script}.py", *sys.argv[1:]])
    reports = []
    for design in args.designs:
        logs = ROOT / "bench" / "out" / f"{script}-{time.strftime('%Y%m%d-%H%M%S')}-{design}"
        logs.mkdir(parents=True)
        with servers(args, logs, conn_max_age=60) as ports:
            reports.append(run(ports, design))
        print(json.dumps(reports[-1]), file=sys.stderr)
    section = render(reports, args, command.replace(" --write-results", ""))
    print(section)
    if args.write_results:
        replace_section(section)


def main() -> None:
    parser = arguments(__doc__ or "", list(POLLS), "floorman_board_bench")
    parser.add_argument("--entries", type=int, default=300)
    parser.add_argument("--out", type=int, default=150, help="players out before the phones")
    parser.add_argument("--busts", type=int, default=5)
    args = parser.parse_args()

    def run(ports: dict[str, Any], design: str) -> dict[str, Any]:
        seed(args, ports["database_url"])
        run = argparse.Namespace(**vars(args), **ports, design=design, code="demo")
        run.stream_path = "/e/demo/events/"
        run.standings_path = "/e/demo/standings/"
        run.chip_up_path = "/e/demo/chip-up/"
        run.fragment = "/e/demo/clock/"
        return asyncio.run(load(run))

    run_designs(args, "board_phones", run, render)


if __name__ == "__main__":
    main()
