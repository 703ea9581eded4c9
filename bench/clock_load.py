"""The load side of bench/clock_phones.py: 500 phones on loopback, one asyncio process.

Each phone behaves like static/js/clock.js: one event stream (SSE) on the ASGI server, a
conditional GET of the clock fragment every poll interval, another at once on every `changed`,
and one a second once its level has run out until the next level shows. The floor logs in and
presses clock buttons through the real dashboard form. Plain asyncio sockets keep the client's
own CPU cost low (the machine has two cores shared with the servers). Prints one JSON report.
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
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx
import psycopg

HOST = "127.0.0.1"
PUSH_WAIT = 10.0  # seconds every phone gets to receive one push before it counts as missed
ARRIVALS = 25  # phones that open the page together
FRESH_WAIT = 30.0  # seconds every phone gets to show the new fragment before it counts as late


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


async def get(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 GET on a fresh connection (gunicorn's sync workers close it anyway)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        lines = [f"GET {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        data = await reader.read()
    finally:
        writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parsed = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        parsed[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), parsed, body


ENDS_AT = re.compile(rb'data-ends-at="([^"]*)"')
LEVEL = re.compile(rb'data-level-index="(\d+)"')


class Phone:
    """One phone on the public clock page."""

    def __init__(self, number: int, args: argparse.Namespace, stats: Stats) -> None:
        self.number = number
        self.args = args
        self.stats = stats
        self.etag: str | None = None
        self.ends_at: float | None = None
        self.level: int | None = None
        self.fetching = False
        self.again = False
        self.last_fetch = 0.0
        self.last_zero_fetch = 0.0
        self.polling = False
        self.pushes: list[tuple[float, dict[str, Any]]] = []  # (received, payload)
        self.fresh: list[tuple[float, int | None]] = []  # (fragment 200 received, level index)
        self.connected = asyncio.Event()
        # asyncio holds tasks (and a stream's reader) only weakly: without these references a
        # garbage collection during a slow answer destroyed a pending refetch, and the phone
        # stayed on the old fragment until its next poll, or longer (the stale phones of the
        # first 500-phone run; tests/bench/test_clock_load.py).
        self.background: set[asyncio.Task[None]] = set()

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, referenced until it is done."""
        task = asyncio.create_task(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

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
            headers["If-None-Match"] = self.etag
        started = time.perf_counter()
        try:
            status, response_headers, body = await get(
                self.args.web_port, self.args.fragment, headers
            )
        except OSError:
            self.stats.error(f"fragment:{reason}:connection")
            return
        elapsed = time.perf_counter() - started
        self.stats.add("fragment", elapsed, status)
        self.stats.add(f"fragment:{status}", elapsed)
        if status == 200:
            self.etag = response_headers.get("etag", self.etag)
            ends = ENDS_AT.search(body)
            level = LEVEL.search(body)
            self.ends_at = parse_time(ends[1].decode()) if ends and ends[1] else None
            self.level = int(level[1]) if level else None
            self.fresh.append((time.time(), self.level))
        elif status != 304:
            self.stats.error(f"fragment:{reason}:{status}")

    async def poll(self) -> None:
        """The page's timers: a poll every interval, one a second once the level ran out."""
        await asyncio.sleep(random.uniform(0, self.args.poll_seconds))
        while True:
            if self.polling:
                now = time.monotonic()
                ran_out = self.ends_at is not None and time.time() >= self.ends_at
                if now - self.last_fetch >= self.args.poll_seconds:
                    self.spawn(self.fetch("poll"))
                elif ran_out and now - self.last_zero_fetch > 1.0:
                    self.last_zero_fetch = now
                    self.spawn(self.fetch("zero"))
            await asyncio.sleep(1.0)

    async def stream(self) -> None:
        """The event stream; every `changed` is timed and triggers a refresh."""
        try:
            reader, writer = await asyncio.open_connection(HOST, self.args.events_port)
        except OSError:
            self.stats.error("stream:connect")
            return
        try:
            request = (
                f"GET {self.args.stream} HTTP/1.1\r\nHost: {HOST}:{self.args.events_port}\r\n"
                "Accept: text/event-stream\r\n\r\n"
            )
            writer.write(request.encode())
            head = await reader.readuntil(b"\r\n\r\n")
            status = head.split(b"\r\n", 1)[0].split()[1].decode()
            if status != "200":
                self.stats.error(f"stream:status:{status}")
                return
            chunked = b"transfer-encoding: chunked" in head.lower()
            self.connected.set()
            await self._read_events(reader, chunked)
            self.stats.error("stream:closed")
        except (OSError, asyncio.IncompleteReadError):
            self.stats.error("stream:broken")
        finally:
            writer.close()

    async def _read_events(self, reader: asyncio.StreamReader, chunked: bool) -> None:
        buffer = b""
        while True:
            if chunked:
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    return
                buffer += await reader.readexactly(size)
                await reader.readexactly(2)
            else:
                data = await reader.read(65536)
                if not data:
                    return
                buffer += data
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                self._on_block(block.decode())

    def _on_block(self, block: str) -> None:
        lines = block.split("\n")
        if "event: changed" not in lines:
            return
        received = time.time()
        data = "\n".join(line[6:] for line in lines if line.startswith("data: "))
        self.pushes.append((received, json.loads(data)))
        self.spawn(self.fetch("push"))


def parse_time(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


class Floor:
    """The floor's browser session on the dashboard: real log-in, real form posts."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.client = httpx.AsyncClient(
            base_url=f"http://{HOST}:{args.web_port}", timeout=30, follow_redirects=False
        )

    async def log_in(self) -> None:
        form = await self.client.get("/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text)
        assert token, "no CSRF token on the log-in form"
        response = await self.client.post(
            "/accounts/login/",
            data={
                "username": "floor",
                "password": "floorman-floor",
                "csrfmiddlewaretoken": token[1],
            },
        )
        assert response.status_code == 302, f"floor log-in failed: {response.status_code}"

    async def press(self, action: str, **extra: int) -> tuple[float, float]:
        """Post one clock action as the dashboard's form does; (sent, answered) wall times."""
        page = await self.client.get(f"/events/{self.args.event_pk}/floor/")
        version = re.search(r'name="expected_version" value="(\d+)"', page.text)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        assert version and token, f"the floor page has no clock form ({page.status_code})"
        data = {"action": action, "expected_version": version[1], "csrfmiddlewaretoken": token[1]}
        data.update({key: str(value) for key, value in extra.items()})
        sent = time.time()
        response = await self.client.post(f"/events/{self.args.event_pk}/clock/", data=data)
        answered = time.time()
        assert response.status_code == 303, f"{action}: {response.status_code} {response.text}"
        return sent, answered

    async def remaining_ms(self) -> int:
        response = await self.client.get(self.args.fragment)
        found = re.search(r'data-remaining-ms="(\d+)"', response.text)
        assert found, "the fragment shows no time left"
        return int(found[1])


async def gather_pushes(
    phones: list[Phone], *, what: str, after: float, timeout: float
) -> list[float | None]:
    """For each phone, when it received the first push of ``what`` stamped after ``after``."""
    deadline = time.monotonic() + timeout
    while True:
        found = [first_push(phone, what=what, after=after) for phone in phones]
        if all(found) or time.monotonic() > deadline:
            return [item[0] if item else None for item in found]
        await asyncio.sleep(0.05)


def first_push(phone: Phone, *, what: str, after: float) -> tuple[float, float] | None:
    for received, payload in phone.pushes:
        at = parse_time(payload["at"])
        if payload.get("what") == what and at >= after:
            return received, at
    return None


async def wait_for_fresh(phones: list[Phone], received: list[float | None]) -> None:
    """Until every phone that got the push has fetched a fresh fragment since (bounded)."""
    deadline = time.monotonic() + FRESH_WAIT
    while time.monotonic() < deadline:
        pending = [
            phone
            for phone, moment in zip(phones, received, strict=True)
            if moment is not None and fresh_after(phone, moment) is None
        ]
        if not pending:
            return
        await asyncio.sleep(0.05)


def fresh_after(phone: Phone, moment: float) -> float | None:
    return next((received for received, _level in phone.fresh if received >= moment), None)


async def push_round(
    phones: list[Phone], floor: Floor, stats: Stats, action: str, **extra: int
) -> float:
    """One floor action; time to each phone's `changed` and to its fresh fragment."""
    try:
        sent, answered = await floor.press(action, **extra)
    except httpx.TimeoutException:
        stats.error(f"floor:{action}:timeout")  # the floor could not act: nothing to measure
        return time.time()
    stats.add("floor_post", answered - sent)
    received = await gather_pushes(phones, what="clock", after=sent, timeout=PUSH_WAIT)
    await wait_for_fresh(phones, received)
    for phone, moment in zip(phones, received, strict=True):
        if moment is None:
            stats.error("push:missed")
            continue
        stamp = first_push(phone, what="clock", after=sent)
        assert stamp is not None
        stats.add("push_from_commit", moment - stamp[1])
        stats.add("push_from_post", moment - sent)
        fresh = fresh_after(phone, moment)
        if fresh is None:
            stats.error("late:push:no_fresh_fragment_in_30s")
        else:
            stats.add("push_to_fresh_fragment", fresh - sent)
    return sent


async def natural_round(phones: list[Phone], floor: Floor, stats: Stats, lead: int) -> None:
    """Cut the level to ``lead`` seconds; time beat's announcement of the next level."""
    try:
        remaining = await floor.remaining_ms()
        sent, _answered = await floor.press("add_time", seconds=lead - remaining // 1000)
    except httpx.TimeoutException:
        stats.error("floor:add_time:timeout")
        return
    received = await gather_pushes(phones, what="level", after=sent, timeout=lead + PUSH_WAIT)
    await wait_for_fresh(phones, received)
    # The boundary as the reconciler recorded it: when the level really started.
    ends_at = await asyncio.to_thread(recorded_boundary, floor.args)
    for phone, moment in zip(phones, received, strict=True):
        if moment is None or ends_at is None:
            stats.error("level_push:missed")
            continue
        stamp = first_push(phone, what="level", after=sent)
        assert stamp is not None
        stats.add("level_push_from_commit", moment - stamp[1])
        stats.add("level_push_from_boundary", moment - ends_at)
        fresh = next((r for r, level in phone.fresh if r >= ends_at and level), None)
        if fresh is None:
            stats.error("late:level:no_fresh_fragment_in_30s")
        else:
            stats.add("level_fresh_from_boundary", fresh - ends_at)


def recorded_boundary(args: argparse.Namespace) -> float | None:
    """When the last level that started on its own began, from the reconciler's record."""
    with psycopg.connect(args.database_url.replace("postgres://", "postgresql://")) as connection:
        row = connection.execute(
            "select started_at from tournaments_levelstart where event_id = %s and cause = 'clock'"
            " order by sequence desc limit 1",
            (args.event_pk,),
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
                status, _headers, _body = await get(args.web_port, path, headers)
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
            tasks.append(asyncio.create_task(phone.stream()))
        await asyncio.sleep(ARRIVALS / 100)
    try:
        async with asyncio.timeout(60):
            await asyncio.gather(*(phone.connected.wait() for phone in phones))
    except TimeoutError:
        stats.error("stream:not_connected")
    await asyncio.gather(*(phone.fetch("open") for phone in phones))  # EventSource "open"
    stats.samples.clear()  # the opening burst is not steady state
    stats.statuses.clear()

    for phone in phones:
        phone.polling = True
        tasks.append(asyncio.create_task(phone.poll()))
    await asyncio.sleep(args.steady_seconds)
    steady = {
        "fragment": summary(stats.samples.get("fragment", [])),
        "fragment_200": summary(stats.samples.get("fragment:200", [])),
        "fragment_304": summary(stats.samples.get("fragment:304", [])),
        "statuses": stats.statuses.get("fragment", {}),
        "seconds": args.steady_seconds,
    }
    stats.samples.clear()
    stats.statuses.clear()

    for round_number in range(args.pushes):
        await push_round(phones, floor, stats, "pause" if round_number % 2 == 0 else "resume")
        await asyncio.sleep(1.0)
    if args.pushes % 2:
        with contextlib.suppress(httpx.TimeoutException):
            await floor.press("resume")
        await asyncio.sleep(2.0)
    if args.natural:
        await natural_round(phones, floor, stats, lead=3)
    push_fragments = {
        "fragment": summary(stats.samples.get("fragment", [])),
        "statuses": stats.statuses.get("fragment", {}),
    }

    for phone in phones:
        phone.polling = False
    await asyncio.sleep(1.5)
    _status, current, _body = await get(args.web_port, args.fragment, {"HX-Request": "true"})
    etag = current.get("etag", "")
    throughput = {
        "conditional_304": await closed_loop(
            args, args.fragment, {"HX-Request": "true", "If-None-Match": etag}, 304
        ),
        "full_200": await closed_loop(args, args.fragment, {"HX-Request": "true"}, 200),
        "static_file": await closed_loop(args, args.static, {}, 200),
    }
    for task in tasks:
        task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.gather(*tasks, return_exceptions=True)
    await floor.client.aclose()
    connected = sum(phone.connected.is_set() for phone in phones)
    return {
        "phones": args.phones,
        "streams_connected": connected,
        "steady": steady,
        "push": {
            kind: summary(stats.samples.get(kind, []))
            for kind in (
                "floor_post",
                "push_from_commit",
                "push_from_post",
                "push_to_fresh_fragment",
                "level_push_from_commit",
                "level_push_from_boundary",
                "level_fresh_from_boundary",
            )
        },  # fmt: skip
        "push_fragments": push_fragments,
        "throughput": throughput,
        "errors": stats.errors,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--web-port", type=int, required=True)
    parser.add_argument("--events-port", type=int, required=True)
    parser.add_argument("--event-pk", type=int, required=True)
    parser.add_argument("--code", default="demo")
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--phones", type=int, default=500)
    parser.add_argument("--poll-seconds", type=float, default=5.0)
    parser.add_argument("--steady-seconds", type=float, default=30.0)
    parser.add_argument("--pushes", type=int, default=6)
    parser.add_argument("--natural", action=argparse.BooleanOptionalAction, default=True)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--throughput-seconds", type=float, default=10.0)
    parser.add_argument("--static", default="/static/js/clock.js")
    args = parser.parse_args()
    args.fragment = f"/e/{args.code}/clock/"
    args.stream = f"/e/{args.code}/events/"
    print(json.dumps(asyncio.run(run(args)), indent=2))


if __name__ == "__main__":
    main()
