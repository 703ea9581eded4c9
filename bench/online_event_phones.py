"""500 phones on an online event's page while players register: the page on the event's stream,
against the page before it, which polled its parts every 3 s.

Starts the production processes as bench/clock_phones.py does (a private Redis, a fresh
PostgreSQL database, gunicorn, uvicorn, a Celery worker and beat) and seeds an online event
waiting for its players (``--registered`` in already, ``--start-players`` to start). Then, for each
page design in turn, on a fresh run of the servers:

- ``stream`` (shipped, templates/scoring/online_event.html with static/js/clock.js): the page
  opens the event's stream (``?mine=1``) and shows the field and the standings the stream's
  board brings; it polls the board's parts only as the fallback, every 120 s while its stream
  is up;
- ``poll`` (the page before, the peer): the page polled its live part and its standings every
  3 s each, whatever changed. The peer polls today's field (the public half of that live part:
  the start rule and the players registered) and the standings every 3 s, with the ETags the
  server gives, as a browser's cache does. The page before also drew the viewer's own part in
  each of those polls, which the peer leaves out: it costs the server less than that page did.

The phones are spectators, not logged in (half of them in German), and arrive 100 a second.
Then ``--registrations`` players, each logged in with his own session, press Register one after
another; for each the report says when every phone showed the new count of players registered
(from the POST sent). Also: the phones' requests, their statuses and times, and the CPU seconds
gunicorn and uvicorn spent over the registrations and over ``--steady-seconds`` of quiet before.

    .venv/bin/python bench/online_event_phones.py                    # both designs, 500 phones
    .venv/bin/python bench/online_event_phones.py --phones 50 --registrations 2  # a look
    .venv/bin/python bench/online_event_phones.py --write-results    # also update RESULTS.md
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import resource
import secrets
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import board_phones  # noqa: E402
from bench.board_phones import (  # noqa: E402
    Stats,
    arguments,
    cell,
    fetch_part,
    pids,
    report,
    run_designs,
    until_all,
)
from bench.clock_load import Floor  # noqa: E402
from bench.clock_phones import BIN  # noqa: E402
from bench.server_cpu import total_cpu  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")

SECTION = "## An online event's page on 500 phones (bench/online_event_phones.py)"
ARRIVALS = 25  # phones that open the page together (100 a second)
REGISTERED = re.compile(rb'data-registered="(\d+)"')
POLLS = {"stream": (120.0, 20.0), "poll": (3.0, 3.0)}  # (stream up, stream down), seconds
PASSWORD = "bench-registers-" + secrets.token_hex(4)

SEED = """
from django.contrib.auth import get_user_model
from scoring import online_events
from tournaments.models import Event

User = get_user_model()
demo = Event.objects.get(code="demo")
event = Event.objects.create(
    name="Online bench", kind="sit_and_go", structure=demo.structure,
    starting_stack=demo.structure.starting_stack, scheduled_start=demo.scheduled_start,
    online=True, table_size=6, start_players={start_players},
)
for number in range({registered}):
    user = User.objects.create(username=f"waiting{{number:04d}}")
    online_events.register(event_id=event.pk, user=user)
for number in range({registrations}):
    User.objects.create_user(f"registers{{number:02d}}", password="{password}")
print(event.pk, event.code)
"""


class Phone(board_phones.Phone):
    """One phone on the online event's page, not logged in: its stream, its field, its polls."""

    PATTERN = REGISTERED  # the players registered, off the field
    POLLS = POLLS

    async def stream(self) -> None:
        """The page's stream (the poll design had none: it only marks itself connected)."""
        if self.args.design == "poll":
            self.connected.set()
            return
        await super().stream()

    def on_frame(self, event: bytes, data: bytes) -> None:
        if event == b"standings":
            self.show(json.loads(data)["field"].encode())

    async def fetch_board(self) -> None:
        """The field and the standings, as htmx's triggers fetch them (conditional: the
        browser's cache)."""
        self.last_poll = time.monotonic()
        for path in (self.args.field_path, self.args.standings_path):
            body = await fetch_part(self.args.web_port, path, self.language, self.etags, self.stats)
            if body is not None and path == self.args.field_path:
                self.show(body)


class Registrant(Floor):
    """A player in his own browser session: logs in, then presses Register on the event page."""

    async def register(self) -> float:
        """The page's Register form, as the browser posts it; when the POST was sent."""
        _page, data = await self.form(self.args.page_path)
        sent = time.time()
        response = await self.client.post(f"{self.args.page_path}register/", data=data)
        assert response.status_code == 303, f"register: {response.status_code} {response.text}"
        return sent


def family_cpu(found: list[int]) -> float:
    """CPU seconds of a server's processes so far: the live ones', and, from their parent's
    ``/proc/<pid>/stat``, those of its children that ended (gunicorn kills a worker that misses
    its heartbeat for 30 s and starts another: the one killed took its CPU with it)."""
    reaped = 0.0
    for pid in found:
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) not in found:  # the parent of the family (ppid outside it)
                reaped += (int(fields[13]) + int(fields[14])) / TICKS  # cutime, cstime
    return total_cpu(found) + reaped


def shown_registered(count: int, since: float) -> Any:
    return lambda phone: next((t for t, n in phone.shown if n >= count and t >= since), None)


async def load(args: argparse.Namespace) -> dict[str, Any]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    stats = Stats()
    registrants = [Registrant(args) for _number in range(args.registrations)]
    for number, registrant in enumerate(registrants):
        await registrant.log_in(f"registers{number:02d}", PASSWORD)
    phones = [Phone(number, args, stats) for number in range(args.phones)]
    tasks = []
    for batch in range(0, len(phones), ARRIVALS):
        for phone in phones[batch : batch + ARRIVALS]:
            await phone.fetch_board()  # the page as it loads, its parts in it
            tasks.append(asyncio.create_task(phone.stream()))
        await asyncio.sleep(ARRIVALS / 100)
    async with asyncio.timeout(60):
        await asyncio.gather(*(phone.connected.wait() for phone in phones))
    tasks += [asyncio.create_task(phone.poll()) for phone in phones]

    def cpu_now() -> dict[str, float]:
        return {
            "gunicorn": family_cpu(pids("gunicorn", f"127.0.0.1:{args.web_port}")),
            "uvicorn": family_cpu(pids("uvicorn", f"--port {args.events_port}")),
        }

    def cpu_since(before: dict[str, float]) -> dict[str, float]:
        now = cpu_now()
        return {name: round(now[name] - before[name], 2) for name in before}

    await asyncio.sleep(5.0)  # the first polls are spread
    stats.board.clear()
    stats.statuses.clear()
    cpu_before = cpu_now()
    await asyncio.sleep(args.steady_seconds)
    steady = {**stats.requests(), "seconds": args.steady_seconds, "cpu": cpu_since(cpu_before)}
    stats.board.clear()
    stats.statuses.clear()

    cpu_before = cpu_now()
    started = time.monotonic()
    registrations = []
    registered = args.registered
    for registrant in registrants:
        try:
            sent = await registrant.register()
        except (httpx.HTTPError, AssertionError) as error:
            # The page before at 500 phones: gunicorn's workers, starved, were killed mid-request
            # and new connections refused. Whether this one went in is not known: the next
            # counts as shown from one more than the last known.
            stats.error(f"register:{type(error).__name__}")
            registrations.append({"missing": len(phones), "failed": True})
            continue
        registered += 1
        has = shown_registered(registered, sent)
        registrations.append(report(await until_all(phones, has), sent))
        await asyncio.sleep(2.0)
    during = {**stats.requests(), "seconds": round(time.monotonic() - started, 1)}
    cpu = cpu_since(cpu_before)
    streams_open = sum(phone.stream_open for phone in phones)

    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for registrant in registrants:
        await registrant.client.aclose()
    return {
        "design": args.design,
        "phones": args.phones,
        "streams_open": streams_open,
        "steady": steady,
        "registrations": registrations,
        "requests_during_registrations": during,
        "cpu_seconds_during_registrations": cpu,
        "errors": stats.errors,
    }


def seed(args: argparse.Namespace, database_url: str) -> tuple[int, str]:
    """The online event seeded, and the players to register; its id and its code."""
    env = dict(os.environ, DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="config.settings")
    env.pop("REDIS_URL", None)  # nobody listens yet: the database bus, the local cache
    code = SEED.format(
        registered=args.registered, registrations=args.registrations,
        start_players=args.start_players, password=PASSWORD,
    )  # fmt: skip
    command = [str(BIN / "python"), "manage.py", "shell", "-c", code]
    done = subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    pk, code = done.stdout.strip().splitlines()[-1].split()
    return int(pk), code


def render(reports: list[dict[str, Any]], args: argparse.Namespace, command: str) -> str:
    by = {r["design"]: r for r in reports}
    lines = [
        SECTION,
        "",
        f"Command (from the repository root): `{command}`",
        "",
        f"Date: {date.today().isoformat()}. The processes of bench/clock_phones.py on a fresh "
        f"database; an online sit&go waiting for {args.start_players} players with "
        f"{args.registered} registered. {args.phones} phones (spectators, half in German) open "
        "its page 100 a second. `stream` is the shipped page: the event's stream brings its "
        "field and standings, and it polls them every 120 s while the stream is up. `poll` is "
        "the page before, the peer: it polled its parts every 3 s, whatever changed (here the "
        "field and the standings, with ETags; the page before also drew the viewer's own part "
        f"in each poll, which the peer leaves out). {args.registrations} players, each logged "
        "in, press Register one after another. Every design on its own fresh servers, in turn.",
        "",
        "Until every phone shows the players registered (ms from the POST sent):",
        "",
        "| registration | " + " | ".join(f"{d}: p50 / p95 / max, missing" for d in by) + " |",
        "|---|" + "---:|" * len(by),
    ]

    for number in range(args.registrations):
        row = " | ".join(cell(r["registrations"][number]) for r in by.values())
        lines.append(f"| {number + 1} | {row} |")
    lines += ["", "| figure | " + " | ".join(by) + " |", "|---|" + "---:|" * len(by)]
    quiet = f"{args.steady_seconds:.0f} s of quiet"
    rows: dict[str, Callable[[dict[str, Any]], object]] = {
        "streams open": lambda r: r["streams_open"],
        f"{quiet}: requests": lambda r: r["steady"]["requests"],
        f"{quiet}: their p95 ms": lambda r: r["steady"].get("p95", "-"),
        f"{quiet}: gunicorn CPU s": lambda r: r["steady"]["cpu"]["gunicorn"],
        f"{quiet}: uvicorn CPU s": lambda r: r["steady"]["cpu"]["uvicorn"],
        "the registrations: requests": lambda r: r["requests_during_registrations"]["requests"],
        "their statuses": lambda r: r["requests_during_registrations"]["statuses"],
        "their p95 ms": lambda r: r["requests_during_registrations"].get("p95", "-"),
        "the registrations: gunicorn CPU s": lambda r: r["cpu_seconds_during_registrations"][
            "gunicorn"
        ],
        "the registrations: uvicorn CPU s": lambda r: r["cpu_seconds_during_registrations"][
            "uvicorn"
        ],
        "errors": lambda r: r["errors"] or 0,
    }
    for name, value in rows.items():
        lines.append(f"| {name} | " + " | ".join(str(value(r)) for r in by.values()) + " |")
    if {"stream", "poll"} <= set(by):
        stream, poll = (sum(by[d]["steady"]["cpu"].values()) for d in ("stream", "poll"))
        ratio = poll / max(stream, 0.01)
        lines += ["", f"The servers' CPU in the quiet (gunicorn and uvicorn), poll / stream: "
                  f"{ratio:.1f}x."]  # fmt: skip
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = arguments(__doc__ or "", list(POLLS), "floorman_online_event_bench")
    parser.add_argument("--registered", type=int, default=200, help="in before the phones")
    parser.add_argument("--start-players", type=int, default=1_000)
    parser.add_argument("--registrations", type=int, default=5)
    args = parser.parse_args()

    def run(ports: dict[str, Any], design: str) -> dict[str, Any]:
        online, event_code = seed(args, ports["database_url"])
        run = argparse.Namespace(**vars(args), **ports, design=design)
        run.page_path = f"/play/e/{online}/"
        run.field_path = f"/play/e/{online}/field/"
        run.standings_path = f"/e/{event_code}/standings/"
        run.stream_path = f"/e/{event_code}/events/?mine=1"
        return asyncio.run(load(run))

    run_designs(args, "online_event_phones", run, render)


if __name__ == "__main__":
    main()
