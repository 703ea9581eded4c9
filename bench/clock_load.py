"""The load side of bench/clock_phones.py: 500 phones on loopback, one asyncio process.

Each phone behaves like static/js/clock.js: one event stream (SSE) on the ASGI server whose
clock states it shows as they come (the next level, sent ahead, when its level runs out), a
conditional GET of the clock fragment every 20 s while the stream is up (5 s while it is down),
and one a second once its level ran out with nothing in hand. Some phones sleep through a change
and reconnect with Last-Event-ID. The floor logs in and presses clock buttons through the real
dashboard form. For each change the report says when every phone showed it (p50/p95/max) and
how many never did. Plain asyncio sockets keep the client's own CPU cost low (the machine has
two cores shared with the servers). Prints one JSON report.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import resource
import statistics
import sys
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import psycopg

# Run as a script (bench/clock_phones.py starts it): the repository's root on the path.
ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.raw_http import HOST, Stream, request  # noqa: E402

ARRIVALS = 25  # phones that open the page together
HAS_WAIT = 30.0  # seconds every phone gets to show a change before it counts as missing
SLEEP_SECONDS = 2.0  # how long a sleeping phone's stream is away
DEMO_FLOOR_PASSWORD = "floorman-floor"  # noqa: S105 - the demo's own (floorman_setup prints it)
# The natural change: the floor cuts the level to this many seconds (more than its press takes
# on a loaded machine, else the floor's own press ends the level and there is no natural one).
NATURAL_LEAD = 8


@dataclass
class Stats:
    """Latencies (seconds) by kind, and what went wrong."""

    samples: dict[str, list[float]] = field(default_factory=dict)
    statuses: dict[str, dict[int, int]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)

    def add(self, kind: str, seconds: float, status: int | None = None) -> None:
        self.samples.setdefault(kind, []).append(seconds)
        if status is not None:
            by_status = self.statuses.setdefault(kind, {})
            by_status[status] = by_status.get(status, 0) + 1

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


def summary(values: list[float]) -> dict[str, float]:
    """Count, p50, p95, p99 and max in milliseconds."""
    if not values:
        return {"count": 0}
    ordered = sorted(values)

    def pct(p: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(p * len(ordered)))] * 1000, 1)

    return {
        "count": len(ordered),
        "p50": round(statistics.median(ordered) * 1000, 1),
        "p95": pct(0.95),
        "p99": pct(0.99),
        "max": round(ordered[-1] * 1000, 1),
    }


ENDS_AT = re.compile(rb'data-ends-at="([^"]*)"')
LEVEL = re.compile(rb'data-level-index="(\d+)"')
VERSION = re.compile(rb'data-version="(\d+)"')
ETAG = re.compile(rb'data-etag="([^"]*)"')
TICK = 0.2  # clock.js ticks every 200 ms
CHIP_UP_SPREAD = 20.0  # --chip-up-follow banner: within 20 s of the chip-up level's end


def spawn_kept(
    tasks: set[asyncio.Task[None]], work: Coroutine[Any, Any, None]
) -> asyncio.Task[None]:
    """Run ``work`` in the background, referenced in ``tasks`` until it is done: asyncio holds
    tasks only weakly, and a collection destroyed pending ones (tests/bench/test_clock_load.py)."""
    task = asyncio.create_task(work)
    tasks.add(task)
    task.add_done_callback(tasks.discard)
    return task


class Phone:
    """One phone on the public clock page, doing what static/js/clock.js does."""

    def __init__(self, number: int, args: argparse.Namespace, stats: Stats) -> None:
        self.number = number
        self.args = args
        self.stats = stats
        self.etag: str | None = None  # the shown fragment's
        self.ends_at: float | None = None  # the shown level's end (server time), while running
        self.level: int | None = None
        self.version = -1
        self.clock_id: str | None = None  # the stream's Last-Event-ID
        self.upcoming: dict[str, Any] | None = None  # the next level, sent ahead
        self.pushed: dict[str, Any] | None = None  # the last state the stream brought
        self.offset = 0.0  # the server's clock minus ours
        self.fetching = False
        self.again = False
        self.last_fetch = time.monotonic()  # the page came with the fragment
        self.last_zero_fetch = 0.0
        self.polling = False
        self.stream_open = False
        self.stream_task: asyncio.Task[None] | None = None
        # Every change of what the phone shows: (when, level index, clock version, how).
        self.shown: list[tuple[float, int | None, int, str]] = []
        self.pushes: list[tuple[float, dict[str, Any]]] = []  # (received, clock state)
        self.fresh: list[tuple[float, int | None]] = []  # (fragment 200 received, level index)
        self.connected = asyncio.Event()
        # asyncio holds tasks (and a stream's reader) only weakly: without these references a
        # garbage collection during a slow answer destroyed a pending refetch, and the phone
        # stayed on the old fragment until its next poll, or longer (the stale phones of the
        # first 500-phone run; tests/bench/test_clock_load.py).
        self.background: set[asyncio.Task[None]] = set()

    def spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        return spawn_kept(self.background, work)

    def show(self, *, level: int | None, version: int, etag: str | None, ends_at: float | None,
             how: str) -> None:  # fmt: skip
        if (level, version) != (self.level, self.version):
            self.shown.append((time.time(), level, version, how))
        self.level, self.version, self.etag, self.ends_at = level, version, etag, ends_at

    def has(
        self, *, version: int = -1, level: int | None = None, since: float = 0.0
    ) -> float | None:
        """When the phone first showed ``version`` (or later) or ``level``, from ``since`` on."""
        for moment, shown_level, shown_version, _how in self.shown:
            if moment < since:
                continue
            if shown_version >= version and (level is None or shown_level == level):
                return moment
        return None

    # The stream --------------------------------------------------------------------------

    def connect(self) -> None:
        self.stream_task = self.spawn(self.stream())

    def disconnect(self) -> None:
        """The phone sleeps: its stream dies, its timers stop."""
        if self.stream_task is not None:
            self.stream_task.cancel()
        self.stream_open = False
        self.polling = False

    def wake(self) -> None:
        """Back: the browser reconnects the stream (Last-Event-ID), the timers run again."""
        self.polling = True
        self.connect()

    async def stream(self) -> None:
        """The event stream (one per tab); clock states are applied, nudges fetch."""
        headers = {"Last-Event-ID": self.clock_id} if self.clock_id else {}
        try:
            stream = await Stream.open(self.args.events_port, self.args.stream, headers)
        except OSError:
            self.stats.error("stream:connect")
            return
        try:
            if stream.status_code != 200:
                self.stats.error(f"stream:status:{stream.status_code}")
                return
            self.stream_open = True
            self.connected.set()
            async for block in stream.frames():
                self._on_block(block.decode())
            self.stats.error("stream:closed")
        except (OSError, asyncio.IncompleteReadError):
            self.stats.error("stream:broken")
        finally:
            self.stream_open = False
            stream.close()

    def _on_block(self, block: str) -> None:
        lines = block.split("\n")
        data = "\n".join(line[6:] for line in lines if line.startswith("data: "))
        if "event: clock" in lines:
            self.apply(json.loads(data))
        elif "event: changed" in lines:
            self.spawn(self.follow(spread=0.0))  # fm:changed at once
            if json.loads(data).get("what") in ("clock", "level"):
                self.spawn(self.fetch("nudge"))  # a clock change without its state

    def apply(self, state: dict[str, Any]) -> None:
        """A clock state from the stream: shown at once, the next level kept for its time."""
        received = time.time()
        if not newer(state["id"], self.clock_id):
            return
        self.clock_id = state["id"]
        self.pushes.append((received, state))
        self.offset = parse_time(state["now"]) - received
        self.upcoming = state["next"]
        pushed = self.pushed
        if pushed and pushed.get("chip_up") and state["level_index"] != pushed["level_index"]:
            if self.args.chip_up_follow == "all":  # the design before issue 17
                self.spawn(self.follow(spread=10.0))  # fm:changed: standings and banner
            elif self.args.chip_up_follow == "banner":  # a step between
                self.spawn(self.follow(spread=CHIP_UP_SPREAD, paths=(self.args.chip_up,)))
            # "none" (clock.js): the banner shows it at its own 20-s poll, not modelled here
        self.pushed = state
        if (state["version"], state["level_index"]) >= (self.version, self.level or 0):
            ends = parse_time(state["ends_at"]) if state["ends_at"] else None
            self.show(level=state["level_index"], version=state["version"], etag=state["etag"],
                      ends_at=ends, how="push")  # fmt: skip
        if self.upcoming is not None:
            self.spawn(self.switch_at(self.upcoming))

    async def switch_at(self, upcoming: dict[str, Any]) -> None:
        """clock.js's tick: at the level's end (seen on its 200 ms tick) show the next one."""
        due = parse_time(upcoming["at"]) - self.offset + random.uniform(0, TICK)
        await asyncio.sleep(max(0.0, due - time.time()))
        shown_end = self.ends_at
        if self.upcoming is upcoming and shown_end == parse_time(upcoming["at"]):
            self.upcoming = None
            etag = ETAG.search(upcoming["html"].encode())
            ends = ENDS_AT.search(upcoming["html"].encode())
            self.show(level=upcoming["level_index"], version=self.version,
                      etag=etag[1].decode() if etag else None,
                      ends_at=parse_time(ends[1].decode()) if ends and ends[1] else None,
                      how="ahead")  # fmt: skip

    async def follow(self, *, spread: float, paths: tuple[str, ...] = ()) -> None:
        """fm:changed (within ``spread`` seconds): the standings and chip-up banner fetch; at
        the end of a chip-up level, clock.js fetches only the chip-up banner (``paths``)."""
        await asyncio.sleep(random.uniform(0, spread))
        for path in paths or (self.args.standings, self.args.chip_up):
            started = time.perf_counter()
            try:
                answer = await request(self.args.web_port, "GET", path, {"HX-Request": "true"})
                status = answer.status_code
            except OSError:
                self.stats.error("follow:connection")
                continue
            self.stats.add("follow", time.perf_counter() - started, status)

    # The fallback: conditional GETs ----------------------------------------------------------

    async def fetch(self, reason: str) -> None:
        """A conditional GET of the fragment; one at a time, like the page's refresh()."""
        if self.fetching:
            self.again = True
            return
        self.fetching = True
        self.last_fetch = time.monotonic()
        try:
            while True:
                await self._fetch_once(reason)
                if not self.again:
                    break
                self.again = False
        finally:
            self.fetching = False

    async def _fetch_once(self, reason: str) -> None:
        headers = {"HX-Request": "true"}
        if self.etag:
            headers["If-None-Match"] = f'"{self.etag}"'
        started = time.perf_counter()
        try:
            answer = await request(self.args.web_port, "GET", self.args.fragment, headers)
            status, body = answer.status_code, answer.content
        except OSError:
            self.stats.error(f"fragment:{reason}:connection")
            return
        elapsed = time.perf_counter() - started
        self.stats.add("fragment", elapsed, status)
        self.stats.add(f"fragment:{status}", elapsed)
        if status == 200:
            level, version = LEVEL.search(body), VERSION.search(body)
            ends, etag = ENDS_AT.search(body), ETAG.search(body)
            found = (int(version[1]) if version else 0, int(level[1]) if level else 0)
            self.fresh.append((time.time(), found[1]))
            if found >= (self.version, self.level or 0):  # never older than what is shown
                self.show(level=found[1], version=found[0],
                          etag=etag[1].decode() if etag else None,
                          ends_at=parse_time(ends[1].decode()) if ends and ends[1] else None,
                          how=f"get:{reason}")  # fmt: skip
        elif status != 304:
            self.stats.error(f"fragment:{reason}:{status}")

    async def poll(self) -> None:
        """The page's timers: a poll now and then (often while the stream is down), and one a
        second once the level ran out with nothing in hand."""
        await asyncio.sleep(random.uniform(0, 1.0))
        while True:
            if self.polling:
                now = time.monotonic()
                every = (
                    self.args.stream_poll_seconds if self.stream_open else self.args.poll_seconds
                )
                ran_out = (
                    self.ends_at is not None
                    and time.time() + self.offset >= self.ends_at
                    and self.upcoming is None
                )
                if now - self.last_fetch >= every:
                    self.spawn(self.fetch("poll"))
                elif ran_out and now - self.last_zero_fetch > 1.0:
                    self.last_zero_fetch = now
                    self.spawn(self.fetch("zero"))
            await asyncio.sleep(1.0)


def newer(clock_id: str, than: str | None) -> bool:
    """clock.js's order of the stream's ids: clock version, then when the state was read."""
    if than is None:
        return True
    version, stamp = (int(part) for part in clock_id.split("."))
    than_version, than_stamp = (int(part) for part in than.split("."))
    return (version, stamp) > (than_version, than_stamp)


def parse_time(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


class Floor:
    """The floor's browser session on the dashboard: real log-in, real form posts."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.client = httpx.AsyncClient(
            base_url=f"http://{HOST}:{args.web_port}", timeout=120, follow_redirects=False
        )

    async def form(self, path: str) -> tuple[str, dict[str, str]]:
        """The page at ``path`` as a browser loads it before posting its form: its text, and
        the form's data so far (its CSRF token)."""
        page = await self.client.get(path)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        assert token, f"{path} has no form ({page.status_code})"
        return page.text, {"csrfmiddlewaretoken": token[1]}

    async def log_in(self, username: str = "floor", password: str = DEMO_FLOOR_PASSWORD) -> None:
        """Log in through the form, as a browser does (the demo's floor user by default)."""
        _page, data = await self.form("/accounts/login/")
        data.update(username=username, password=password)
        response = await self.client.post("/accounts/login/", data=data)
        assert response.status_code == 302, f"{username}'s log-in failed: {response.status_code}"

    async def press(self, action: str, **extra: int) -> tuple[float, float]:
        """Post one clock action as the dashboard's form does; (sent, answered) wall times."""
        page, data = await self.form(f"/events/{self.args.event_pk}/floor/")
        version = re.search(r'name="expected_version" value="(\d+)"', page)
        assert version, "the floor page has no clock form"
        data.update(action=action, expected_version=version[1])
        data.update({key: str(value) for key, value in extra.items()})
        sent = time.time()
        response = await self.client.post(f"/events/{self.args.event_pk}/clock/", data=data)
        answered = time.time()
        assert response.status_code == 303, f"{action}: {response.status_code} {response.text}"
        return sent, answered

    async def reading(self) -> tuple[int, int]:
        """The time left (ms) and the level index, from the fragment."""
        response = await self.client.get(self.args.fragment)
        found = re.search(r'data-remaining-ms="(\d+)"', response.text)
        level = re.search(r'data-level-index="(\d+)"', response.text)
        assert found and level, "the fragment shows no time left"
        return int(found[1]), int(level[1])


def clock_version(args: argparse.Namespace) -> int:
    """The event's clock version in the database (the floor's action committed)."""
    with psycopg.connect(args.database_url.replace("postgres://", "postgresql://")) as connection:
        row = connection.execute(
            "select clock_version from tournaments_event where id = %s", (args.event_pk,)
        ).fetchone()
    assert row is not None
    return int(row[0])


async def wait_for(
    phones: list[Phone], *, version: int = -1, level: int | None = None, since: float
) -> list[float | None]:
    """For each phone, when it showed the state (bounded by HAS_WAIT); None if it never did."""
    deadline = time.monotonic() + HAS_WAIT
    while True:
        found = [phone.has(version=version, level=level, since=since) for phone in phones]
        if all(moment is not None for moment in found) or time.monotonic() > deadline:
            return found
        await asyncio.sleep(0.05)


def change_report(found: list[float | None], start: float) -> dict[str, Any]:
    """p50/p95/max from ``start`` to each phone having the change, and how many never did."""
    times = [moment - start for moment in found if moment is not None]
    return {**summary(times), "missing": sum(moment is None for moment in found), "times": times}


async def floor_round(
    phones: list[Phone], floor: Floor, action: str, *, sleepers: list[Phone], **extra: int
) -> dict[str, Any]:
    """One floor action; when each phone shows the new state, from the POST sent. The
    ``sleepers`` lose their stream before it and reconnect (Last-Event-ID) 2 s after."""
    for phone in sleepers:
        phone.disconnect()
    await asyncio.sleep(0.2)
    sent, _answered = await floor.press(action, **extra)
    version = await asyncio.to_thread(clock_version, floor.args)
    awake = [phone for phone in phones if phone not in sleepers]
    report = {"action": action, "version": version}
    report["phones"] = change_report(await wait_for(awake, version=version, since=sent), sent)
    report["stages"] = stages(awake, version=version, sent=sent)
    if sleepers:
        await asyncio.sleep(max(0.0, sent + SLEEP_SECONDS - time.time()))
        woke = time.time()
        for phone in sleepers:
            phone.wake()
        found = await wait_for(sleepers, version=version, since=sent)
        report["reconnected"] = change_report(found, woke)
    return report


async def natural_round(phones: list[Phone], floor: Floor, lead: int) -> dict[str, Any]:
    """Cut the level to ``lead`` seconds; when each phone shows the next level, from the
    boundary the reconciler recorded, and when the reconciler's push reached it."""
    remaining, level = await floor.reading()
    sent, _answered = await floor.press("add_time", seconds=lead - remaining // 1000)
    await asyncio.sleep(lead)
    boundary = None
    deadline = time.monotonic() + HAS_WAIT
    while boundary is None and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        boundary = await asyncio.to_thread(recorded_boundary, floor.args, level + 1)
    if boundary is None:  # the press came so late that the floor ended the level itself
        none = {"count": 0, "missing": len(phones), "times": []}
        return {"action": "natural", "phones": none, "reconciler_push": none, "shown_ahead": 0}
    shown = await wait_for(phones, level=level + 1, since=sent)
    version = await asyncio.to_thread(clock_version, floor.args)
    await wait_for(phones, version=version, since=sent)
    return {
        "action": "natural",
        "version": version,
        "phones": change_report(shown, boundary),
        "reconciler_push": change_report([push_time(p, version) for p in phones], boundary),
        "shown_ahead": sum(shown_how(phone, level + 1) == "ahead" for phone in phones),
    }


def stages(phones: list[Phone], *, version: int, sent: float) -> dict[str, Any]:
    """Where a floor change's time went, from each phone's first push of ``version``: the POST
    sent to the clock read by the publishing process (the message id's stamp: request,
    action, commit), that read to the frame leaving the events process (its ``now``: render,
    bus, fan-out to the streams), and that to the phone having it (socket, the load process).
    Every process is on this machine's clock."""
    read, fanned, delivered, size = [], [], [], 0
    for phone in phones:
        push = next(((at, state) for at, state in phone.pushes
                     if state["version"] >= version), None)  # fmt: skip
        if push is None:
            continue
        received, state = push
        stamp = int(state["id"].split(".")[1]) / 1000
        left = parse_time(state["now"])
        read.append(stamp - sent)
        fanned.append(left - stamp)
        delivered.append(received - left)
        size = max(size, len(json.dumps(state, separators=(",", ":"))))
    return {
        "post_to_read": summary(read),
        "read_to_frame": summary(fanned),
        "frame_to_phone": summary(delivered),
        "frame_bytes": size,
    }


def shown_how(phone: Phone, level: int) -> str | None:
    """How the phone first showed ``level``: from the level sent ahead, a push, or a GET."""
    return next((how for _moment, shown, _version, how in phone.shown if shown == level), None)


def push_time(phone: Phone, version: int) -> float | None:
    return next((moment for moment, state in phone.pushes if state["version"] >= version), None)


def recorded_boundary(args: argparse.Namespace, level_index: int) -> float | None:
    """When the level began on its own, as the reconciler recorded it (its real start)."""
    with psycopg.connect(args.database_url.replace("postgres://", "postgresql://")) as connection:
        row = connection.execute(
            "select started_at from tournaments_levelstart where event_id = %s and cause = 'clock'"
            " and level_index = %s order by sequence desc limit 1",
            (args.event_pk, level_index),
        ).fetchone()
    return None if row is None else float(row[0].timestamp())


async def closed_loop(
    args: argparse.Namespace, path: str, headers: dict[str, str], expect: int
) -> dict[str, Any]:
    """``connections`` clients requesting back to back for ``seconds``: throughput and latency."""
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    errors = 0
    deadline = time.monotonic() + args.throughput_seconds

    async def client() -> None:
        nonlocal errors
        while time.monotonic() < deadline:
            started = time.perf_counter()
            try:
                status = (await request(args.web_port, "GET", path, headers)).status_code
            except OSError:
                errors += 1
                continue
            latencies.append(time.perf_counter() - started)
            statuses[status] = statuses.get(status, 0) + 1
            if status != expect:
                errors += 1

    began = time.monotonic()
    await asyncio.gather(*(client() for _ in range(args.connections)))
    took = time.monotonic() - began
    rps = round(len(latencies) / took, 1)
    return {"rps": rps, "errors": errors, "statuses": statuses, **summary(latencies)}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    stats = Stats()
    floor = Floor(args)
    await floor.log_in()
    await floor.press("start")

    phones = [Phone(number, args, stats) for number in range(args.phones)]
    tasks = []
    for batch in range(0, len(phones), ARRIVALS):  # phones open the page, 100 a second
        for phone in phones[batch : batch + ARRIVALS]:
            await phone.fetch("page")  # the page comes with the fragment
            phone.connect()
        await asyncio.sleep(ARRIVALS / 100)
    try:
        async with asyncio.timeout(60):
            await asyncio.gather(*(phone.connected.wait() for phone in phones))
    except TimeoutError:
        stats.error("stream:not_connected")
    stats.samples.clear()  # the opening burst is not steady state
    stats.statuses.clear()

    for phone in phones:
        phone.polling = True
        tasks.append(asyncio.create_task(phone.poll()))
    await asyncio.sleep(args.steady_seconds)
    steady = {
        "fragment": summary(stats.samples.get("fragment", [])),
        "statuses": dict(stats.statuses.get("fragment", {})),
        "seconds": args.steady_seconds,
    }
    stats.samples.clear()
    stats.statuses.clear()

    sleepers = phones[:: max(1, round(1 / args.sleepers))] if args.sleepers else []
    rounds = []
    for number in range(args.levels):
        # Every other level change, a tenth of the phones sleeps through it and reconnects.
        asleep = sleepers if number % 2 == 1 else []
        rounds.append(await floor_round(phones, floor, "next", sleepers=asleep))
        await asyncio.sleep(1.0)
    for action, extra in (("pause", {}), ("resume", {}), ("add_time", {"seconds": 60})):
        rounds.append(await floor_round(phones, floor, action, sleepers=[], **extra))
        await asyncio.sleep(1.0)
    if args.natural:
        rounds.append(await natural_round(phones, floor, lead=NATURAL_LEAD))
    await asyncio.sleep(2.0)  # the last fm:changed fetches are done
    during = {
        "fragment": summary(stats.samples.get("fragment", [])),
        "statuses": dict(stats.statuses.get("fragment", {})),
        "follow": summary(stats.samples.get("follow", [])),
        "follow_statuses": dict(stats.statuses.get("follow", {})),
    }

    for phone in phones:
        phone.polling = False
    await asyncio.sleep(1.5)
    current = await request(args.web_port, "GET", args.fragment, {"HX-Request": "true"})
    etag = current.headers.get("etag", "")
    throughput = {
        "conditional_304": await closed_loop(
            args, args.fragment, {"HX-Request": "true", "If-None-Match": etag}, 304
        ),
        "full_200": await closed_loop(args, args.fragment, {"HX-Request": "true"}, 200),
        "static_file": await closed_loop(args, args.static, {}, 200),
    }
    for task in tasks:
        task.cancel()
    for phone in phones:
        phone.disconnect()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.gather(*tasks, return_exceptions=True)
    await floor.client.aclose()
    levels = [r for r in rounds if r["action"] == "next"]
    return {
        "phones": args.phones,
        "streams_connected": sum(phone.connected.is_set() for phone in phones),
        "sleepers": len(sleepers),
        "steady": steady,
        "rounds": rounds,
        "floor_levels": combined([r["phones"] for r in levels]),
        "during_changes": during,
        "throughput": throughput,
        "errors": stats.errors,
    }


def combined(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """Several changes' phones together: p50/p95/max over all of them, missing summed."""
    times = [t for r in reports for t in r["times"]]
    return {**summary(times), "missing": sum(r["missing"] for r in reports)}


def without_times(value: Any) -> Any:
    """The report without the raw times (the JSON stays readable)."""
    if isinstance(value, dict):
        return {k: without_times(v) for k, v in value.items() if k != "times"}
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--web-port", type=int, required=True)
    parser.add_argument("--events-port", type=int, required=True)
    parser.add_argument("--event-pk", type=int, required=True)
    parser.add_argument("--code", default="demo")
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--phones", type=int, default=500)
    parser.add_argument("--poll-seconds", type=float, default=5.0)  # stream down
    parser.add_argument("--stream-poll-seconds", type=float, default=20.0)  # stream up
    parser.add_argument("--levels", type=int, default=4)  # floor "next level" presses
    parser.add_argument("--sleepers", type=float, default=0.1)  # share that sleeps and reconnects
    parser.add_argument("--steady-seconds", type=float, default=30.0)
    parser.add_argument("--natural", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--throughput-seconds", type=float, default=10.0)
    parser.add_argument("--static", default="/static/js/clock.js")
    parser.add_argument(
        "--chip-up-follow", choices=["none", "banner", "all"], default="none",
        help="at a chip-up level's end: nothing (clock.js), the banner within 20 s, or the "
        "standings and banner within 10 s (before issue 17)",
    )  # fmt: skip
    args = parser.parse_args()
    args.fragment = f"/e/{args.code}/clock/"
    args.stream = f"/e/{args.code}/events/"
    args.standings = f"/e/{args.code}/standings/"
    args.chip_up = f"/e/{args.code}/chip-up/"
    print(json.dumps(without_times(asyncio.run(run(args))), indent=2))


if __name__ == "__main__":
    main()
