"""100 online tables of 6 players each, playing over HTTP on the production processes.

Recreates a PostgreSQL database (``floorman_bench_online``), seats 100 x 6 regular players
(log-ins with a password, not house bots) with a buy-in through the services and starts what
the Procfile starts: gunicorn config.wsgi (pages, fragments, actions), uvicorn
config.asgi:application (the ``/play/events/`` streams; the client routes by URL as a proxy
would), a Celery worker and beat (the sweeper deals every hand). Redis is a server of the run's
own (or ``--redis-url``), so LIVE_BUS is redis. Each process's CPU in the measured window is
read from /proc: the servers', the bench database's PostgreSQL backends (sampled twice a
second), PostgreSQL's background processes (the whole server's) and the run's Redis.

Each simulated player is one browser tab doing what static/js/table.js does: its session, ONE
stream ``/play/events/?t=<table>``, and on a nudge newer than the version it shows (or its own
turn event) a conditional GET of its fragment ``/play/t/<id>/state/`` (``If-None-Match``,
``X-Floorman: table``; one fetch at a time, a nudge during a fetch fetches again after it; one
every 15 s anyway). When the fragment says it is his turn, he thinks (``--think``, by default the
house bots' 0.6-1.6 s, tables.online.play.BOT_THINKS), picks a legal move at random (seeded)
from the buttons present (fold, check, call, or raise to one of the preset amounts) and posts it
with a fresh key. A player sitting out (broke, or timed out: R2.9) adds chips if broke and comes
back, through the page's forms. Beat starts once every tab shows its table. The tabs speak HTTP
through bench.raw_http (a connection a request, as gunicorn's workers close it anyway; a stream
read by frame), and a table's message, the same bytes on each of its tabs' streams, is read and
checked once: the load generator shares the servers' two cores and must cost them little.

A move's round trip runs from just before its POST until every page of the table shows it: the
table's message on each player's stream (the actor's POST is answered 204, as table.js asks with
its stream open, and so are adding chips and coming back), or a fetched fragment, whose hand and
``data-sequence`` are at or past the move; one not on every page within 10 s is missing (an
error). Every fragment is checked for leaks: before the hand is over a face-up card may only be
in the viewer's own seat (and his own must be there while he is in the hand); a stream message
may only be the table's ``{table, version}`` or the viewer's own ``{user, what, table}``. Peers,
fetched from the same gunicorn during the measured window: a static file and the clock fragment
of an event whose clock runs. Everything started is stopped at the end, whatever happens.
Results and their reading: bench/RESULTS.md.

    .venv/bin/python -m bench.online_tables                      # the full run (3-4 minutes)
    .venv/bin/python -m bench.online_tables --tables 10 --seconds 20 --warmup 10   # a quick look
    .venv/bin/python -m bench.online_tables --think 0 0          # no thinking: the server's limit
    .venv/bin/python -m bench.online_tables --write-results      # append to bench/RESULTS.md
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import re
import resource
import secrets
import string
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from bench.raw_http import Answer, Stream, frame_fields, request
from bench.results import append_run

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.clock_phones import (  # noqa: E402 - after the path, for `python bench/...`
    BIN,
    Processes,
    free_port,
    manage,
    recreate_database,
    wait_for_http,
)
from bench.server_cpu import (  # noqa: E402
    BackendSampler,
    background_readings,
    cpu_seconds,
    grown,
    private_redis,
)

ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"  # bench.clock_phones' admin
SECTION = "## Online tables: 100 tables of 6 players (bench/online_tables.py)"
GOAL_P95_MS = 150.0
SHOW_WAIT = 10.0  # seconds a move gets to reach every page of its table before it is missing
SAFETY_SECONDS = 15.0  # static/js/table.js SAFETY_MS: a conditional GET while the stream is up
DRAIN_SECONDS = 10.0  # after the window: no new moves, the last ones reach their pages
PUBLIC_KEPT = 512  # the table messages read once for every tab (Run.read_public)
READY_WAIT = 120.0  # seconds every tab gets to show its table before beat starts dealing
MIN_MOVES_WAIT = 300.0  # seconds a window may grow past --seconds to hold --min-moves moves
BUY_IN = 1_000
PASSWORD = "bench-online-pw"  # noqa: S105 - the benchmark's throw-away players
CLOCK_CODE = "demo"

# -- the setup (a Django process) ---------------------------------------------------------------


def seat_players(*, tables: int, players: int, buy_in: int = BUY_IN) -> dict[str, Any]:
    """Open ``tables`` tables and seat ``players`` regular players at each with a buy-in (the
    services, as the lobby's forms do); a session per player; the demo event's clock started.
    Needs Django set up and floorman_setup run (the floor log-in, the demo event)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User
    from django.utils.module_loading import import_string

    from tables.online import services as online_services
    from tournaments.models import Event
    from tournaments.services import ClockAction, act_on_clock

    floor = User.objects.get(username="floor")
    hashed = make_password(PASSWORD)  # one hash for all: 600 hashes would take minutes
    store = import_string(f"{settings.SESSION_ENGINE}.SessionStore")
    # The log-in's own backend (the first may be a guard such as axes, which loads no user).
    backend = next(b for b in settings.AUTHENTICATION_BACKENDS if b.endswith(".ModelBackend"))
    layout: list[dict[str, Any]] = []
    for index in range(1, tables + 1):
        table = online_services.open_table(
            actor=floor, name=f"Bench {index:03d}", seats=players, small_blind=5,
            big_blind=10, min_buy_in=200, max_buy_in=buy_in,
        )  # fmt: skip
        seated = []
        for number in range(1, players + 1):
            user = User.objects.create(username=f"bench-{index:03d}-{number}", password=hashed)
            online_services.grant_chips(user=user, amount=100 * buy_in, actor=floor)
            online_services.take_seat(table=table, user=user, buy_in=buy_in, number=number)
            session = store()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = backend
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            seated.append({"user": user.pk, "seat": number, "session": session.session_key})
        layout.append({"table": table.pk, "players": seated})
    event = Event.objects.get(code=CLOCK_CODE)
    if event.clock_level_started_at is None:
        act_on_clock(event_id=event.pk, actor=floor, action=ClockAction.START)
    return {"tables": layout, "clock": f"/e/{CLOCK_CODE}/clock/", "buy_in": buy_in}


# -- what a fragment says ---------------------------------------------------------------------

STATE = re.compile(r'<section id="state"[^>]*>')
ATTRIBUTE = re.compile(r'data-([a-z-]+)="([^"]*)"')
SEAT = re.compile(r'<li class="seat[^"]*" data-seat="(\d+)"(.*?)</li>', re.S)
CARD = re.compile(r'data-card="([2-9TJQKA][cdhs])"')
STACK = re.compile(r'<span class="stack">(\d+)</span>')
FORM = re.compile(r'<form class="actions".*?</form>', re.S)
ACTION = re.compile(r'<button name="action" value="(fold|check|call|raise)"')
PRESET = re.compile(r'data-amount="(\d+)"')
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
PUBLIC = re.compile(r"<div[^>]* data-public[ >][^>]*>|<div[^>]* data-public=[^>]*>")
MINE = re.compile(r'<div id="mine"[^>]*>')
HIDDEN = re.compile(r'<input type="hidden" name="(hand|sequence)" value="(\d+)">')


def parse_public(html: str) -> Fragment | None:
    """The public table a stream message carries (tables.online.broadcast): no viewer's."""
    head = PUBLIC.search(html)
    if head is None:
        return None
    data = dict(ATTRIBUTE.findall(head[0]))
    cards = {int(number): CARD.findall(inside) for number, inside in SEAT.findall(html)}
    return Fragment(
        version=int(data.get("version") or -1), hand=int(data.get("hand") or 0),
        sequence=int(data.get("sequence") or 0), my_turn=False, over=data.get("over") == "1",
        in_hand=False, cards=cards, stacks={}, actions=[], presets=[], csrf="",
        sitting_out=False, tabled=tabled(html),
    )  # fmt: skip


def parse_private(html: str, csrf: str) -> Fragment | None:
    """A player's private part from his own channel: his turn, his buttons (no table)."""
    head = MINE.search(html)
    if head is None:
        return None
    data = dict(ATTRIBUTE.findall(head[0]))
    form = FORM.search(html)
    hidden = dict(HIDDEN.findall(form[0])) if form else {}
    return Fragment(
        version=int(data.get("version") or -1), hand=int(hidden.get("hand") or 0),
        sequence=int(hidden.get("sequence") or 0), my_turn=data.get("my-turn") == "1",
        over=False, in_hand=data.get("in-hand") == "1", cards={}, stacks={},
        actions=ACTION.findall(form[0]) if form else [],
        presets=sorted({int(amount) for amount in PRESET.findall(form[0])}) if form else [],
        csrf=csrf, sitting_out="/back/" in html,
    )  # fmt: skip


@dataclass
class Fragment:
    """The parts of a viewer's fragment the players and the checks need."""

    version: int  # the table's version it shows (-1: the fragment does not say)
    hand: int
    sequence: int
    my_turn: bool
    over: bool
    in_hand: bool
    cards: dict[int, list[str]]  # seat number -> face-up cards in it
    stacks: dict[int, int]
    actions: list[str]
    presets: list[int]
    csrf: str
    sitting_out: bool
    tabled: bool = False  # an all-in runout: every live hand face up (TDA 16)

    @property
    def shows(self) -> tuple[int, int]:
        return (self.hand, self.sequence)


def parse(body: str) -> Fragment | None:
    """The fragment's state, or None if it is no table fragment."""
    head = STATE.search(body)
    if head is None:
        return None
    data = dict(ATTRIBUTE.findall(head[0]))
    cards, stacks = {}, {}
    for number, inside in SEAT.findall(body):
        cards[int(number)] = CARD.findall(inside)
        stack = STACK.search(inside)
        if stack:
            stacks[int(number)] = int(stack[1])
    form = FORM.search(body)
    token = CSRF.search(body)
    return Fragment(
        version=int(data.get("version") or -1),
        hand=int(data.get("hand") or 0),
        sequence=int(data.get("sequence") or 0),
        my_turn=data.get("my-turn") == "1",
        over=data.get("over") == "1",
        in_hand=data.get("in-hand") == "1",
        cards=cards,
        stacks=stacks,
        actions=ACTION.findall(form[0]) if form else [],
        presets=sorted({int(amount) for amount in PRESET.findall(form[0])}) if form else [],
        csrf=token[1] if token else "",
        sitting_out="/back/" in body,
        tabled=tabled(body),
    )


def tabled(html: str) -> bool:
    """Whether the public table says the hand is in an all-in runout (``data-tabled``)."""
    head = PUBLIC.search(html)
    return head is not None and 'data-tabled="1"' in head[0]


def leaks(fragment: Fragment, seat: int) -> list[str]:
    """What this viewer must not see: a face-up card in another seat before the hand is over,
    unless the hand is tabled in an all-in runout (TDA 16: betting is closed, every live hand
    face up; the server's own leak harness checks which hands, tests/tables/test_online_runout);
    and his own cards missing while he is in the hand."""
    found = []
    if not fragment.over and not fragment.tabled:
        for number, cards in fragment.cards.items():
            if cards and number != seat:
                found.append(f"seat {number}'s cards {cards} shown to seat {seat}")
    if fragment.in_hand and len(fragment.cards.get(seat, [])) < 2:
        found.append(f"seat {seat} is in the hand without his cards")
    return found


# -- the load ----------------------------------------------------------------------------------


@dataclass
class Move:
    """One player's move, from its POST until every page of the table shows it."""

    table: int
    shows: tuple[int, int]  # (hand, sequence) the table is at once it is made
    action: str
    started: float
    shown: dict[int, float] = field(default_factory=dict)  # user id -> when his page showed it


@dataclass
class Stats:
    """Everything measured; errors by kind with a few examples."""

    round_trips: list[float] = field(default_factory=list)  # moves shown on every page
    posts: list[float] = field(default_factory=list)  # every move's POST answered
    statuses: dict[str, dict[int, int]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    examples: dict[str, str] = field(default_factory=dict)
    leaks: list[str] = field(default_factory=list)
    fragments_checked: int = 0
    messages_checked: int = 0
    missing: int = 0
    peers: dict[str, list[float]] = field(default_factory=dict)
    lags: list[float] = field(default_factory=list)
    actions: dict[str, int] = field(default_factory=dict)

    def status(self, kind: str, status: int) -> None:
        by_status = self.statuses.setdefault(kind, {})
        by_status[status] = by_status.get(status, 0) + 1

    def error(self, kind: str, example: str = "") -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1
        if example and kind not in self.examples:
            self.examples[kind] = example[:300]


class Run:
    """The clients, the tables' pending moves, the clock of the run."""

    def __init__(self, args: argparse.Namespace, layout: dict[str, Any]) -> None:
        self.args = args
        self.stats = Stats()
        # At most --connections requests to gunicorn at once, as a proxy in front of it would
        # hold them (bench.raw_http: one connection a request, as gunicorn's workers close it).
        self.gate = asyncio.Semaphore(args.connections)
        # A table's message is the same bytes on each of its tabs' streams: read and checked
        # once (its JSON, its public table, its leaks), then each tab shows it as its own. The
        # newest few hundred are kept, in the order they came.
        self.public: dict[bytes, tuple[dict[str, Any], Fragment | None, list[str]]] = {}
        rng = random.Random(args.seed)
        self.tables = [Table(self, spec, rng) for spec in layout["tables"]]
        self.buy_in = int(layout["buy_in"])
        self.acting = True
        self.closing = False
        self.window = (float("inf"), float("inf"))  # wall times of the measured window

    def in_window(self, moment: float) -> bool:
        return self.window[0] <= moment < self.window[1]

    def read_public(self, data: bytes) -> tuple[dict[str, Any], Fragment | None, list[str]]:
        """A stream message's JSON and, for the table's own message, its public table and what
        it leaks (seen by nobody in particular); each read once however many tabs get it."""
        known = self.public.get(data)
        if known is not None:
            return known
        message = json.loads(data)
        fragment = None
        if "user" not in message and "html" in message:
            fragment = parse_public(message["html"]["en"])
        found = leaks(fragment, 0) if fragment is not None else []
        if "user" not in message:
            if len(self.public) >= PUBLIC_KEPT:
                del self.public[next(iter(self.public))]
            self.public[data] = (message, fragment, found)
        return message, fragment, found

    async def get(self, path: str, headers: dict[str, str]) -> Answer:
        async with self.gate:
            return await request(self.args.web_port, "GET", path, headers)

    async def post(self, path: str, headers: dict[str, str], form: dict[str, str]) -> Answer:
        async with self.gate:
            return await request(self.args.web_port, "POST", path, headers, form=form)


class Table:
    """One table: its players and the moves still on their way to its pages."""

    def __init__(self, run: Run, spec: dict[str, Any], rng: random.Random) -> None:
        self.run = run
        self.pk = int(spec["table"])
        self.players = [
            Player(self, p["user"], p["seat"], p["session"], random.Random(rng.random()))
            for p in spec["players"]
        ]
        self.pending: list[Move] = []

    def made(self, move: Move) -> None:
        self.pending.append(move)

    def saw(self, user_id: int, shows: tuple[int, int], at: float) -> None:
        """A page showed the table at ``shows``: every pending move up to it reached that page."""
        for move in list(self.pending):
            if shows >= move.shows:
                move.shown.setdefault(user_id, at)
                if len(move.shown) == len(self.players):
                    self.pending.remove(move)
                    self.done(move)

    def done(self, move: Move) -> None:
        if self.run.in_window(move.started):
            self.run.stats.round_trips.append(max(move.shown.values()) - move.started)

    def expire(self, now: float) -> None:
        for move in list(self.pending):
            if now - move.started > SHOW_WAIT:
                self.pending.remove(move)
                if self.run.in_window(move.started):
                    self.run.stats.missing += 1
                    self.run.stats.error(
                        "move not shown on every page within 10 s",
                        f"table {self.pk} {move.shows}: {len(move.shown)} pages",
                    )


class Player:
    """One browser tab at a table: its session, its stream, its fragment, its moves."""

    def __init__(
        self, table: Table, user_id: int, seat: int, session: str, rng: random.Random
    ) -> None:
        self.table = table
        self.run = table.run
        self.user_id = user_id
        self.seat = seat
        self.rng = rng
        csrf = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(32))
        self.cookie = f"sessionid={session}; csrftoken={csrf}"
        self.etag: str | None = None  # of the fragment shown, from the last 200 of a GET
        self.csrf = ""  # the form token of the last fragment fetched (a message carries none)
        self.version = -1  # of the fragment shown
        self.shows = (0, -1)
        self.last_fetch = time.monotonic()
        self.fetching = False
        self.again = False
        self.turn_taken: tuple[int, int] | None = None
        self.rebuying = False
        # asyncio holds tasks only weakly (bench/RESULTS.md, clock: the stale phones).
        self.background: set[asyncio.Task[None]] = set()

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self.background.add(task)
        task.add_done_callback(self.finished)

    def finished(self, task: asyncio.Task[None]) -> None:
        self.background.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.run.stats.error("load generator failed", repr(task.exception()))

    def headers(self, **extra: str) -> dict[str, str]:
        return {"Cookie": self.cookie, "X-Floorman": "table", **extra}

    # the stream -----------------------------------------------------------------------------

    async def stream(self) -> None:
        """ONE stream for the tab; reconnects after 2 s like the browser (counted as an error)."""
        while not self.run.closing:
            try:
                await self._stream_once()
            except (OSError, EOFError) as error:
                self.run.stats.error("stream broken", repr(error))
            except (ValueError, KeyError, TypeError) as error:
                self.run.stats.error("stream message unreadable", repr(error))
            if not self.run.closing:
                self.run.stats.error("stream ended")
                await asyncio.sleep(2)

    async def _stream_once(self) -> None:
        url = f"/play/events/?t={self.table.pk}"
        stream = await Stream.open(self.run.args.events_port, url, {"Cookie": self.cookie})
        try:
            self.run.stats.status("stream", stream.status_code)
            if stream.status_code != 200:
                self.run.stats.error(f"stream {stream.status_code}")
                return
            async for frame in stream.frames():
                event, data = frame_fields(frame)
                if event == b"changed":
                    self.on_changed(data)
        finally:
            stream.close()

    def on_changed(self, data: bytes) -> None:
        """The table's message (its public table, or a nudge with its version), or the
        player's own (his private part, or news of his chips), which only his tabs get.
        table.js places a message's table at once, no request; a bare nudge fetches. Anything
        else on his stream is a leak."""
        self.run.stats.messages_checked += 1
        message, fragment, found = self.run.read_public(data)
        keys = set(message)
        if "user" not in keys and keys <= {"table", "version", "html"}:
            if message["table"] != self.table.pk or message["version"] <= self.version:
                return  # table.js: a version shown is skipped
            if "html" not in message:
                self.nudge()
                return
            if fragment is None:
                self.run.stats.error("a table message without its table", repr(data[:200]))
                return
            self.show_public(fragment, found, time.time())
        # seq, prev: the own messages' numbers (tables.online.replay)
        elif message.get("user") == self.user_id and keys <= {
            "user", "what", "table", "version", "html", "event", "seq", "prev"
        }:  # fmt: skip
            if message["table"] != self.table.pk:
                return
            if "html" not in message:
                self.nudge()
                return
            private = parse_private(message["html"]["en"], self.csrf)
            if private is None:
                self.run.stats.error("a private message without its part", repr(data[:200]))
                return
            self.take_turn(private)
        else:
            self.run.stats.leaks.append(f"user {self.user_id}'s stream: {data!r}")

    def show_public(self, fragment: Fragment, found: list[str], at: float) -> None:
        """The public table of a new version, checked (``found``: the live cards it shows in
        any seat, from leaks(fragment, 0)), shown."""
        self.run.stats.fragments_checked += 1
        for leak in found:
            self.run.stats.leaks.append(f"table {self.table.pk} hand {fragment.hand}: {leak}")
        self.version = fragment.version
        self.last_fetch = time.monotonic()  # table.js: a carried table puts off the safety poll
        self.shows = max(self.shows, fragment.shows)
        self.table.saw(self.user_id, fragment.shows, at)

    # the fragment ----------------------------------------------------------------------------

    def nudge(self) -> None:
        if self.fetching:
            self.again = True
        else:
            self.fetching = True
            self.spawn(self.fetch_until_fresh())

    async def fetch_until_fresh(self) -> None:
        try:
            while True:
                self.again = False
                await self.fetch()
                if not self.again or self.run.closing:
                    return
        finally:
            self.fetching = False

    async def fetch(self) -> None:
        self.last_fetch = time.monotonic()
        extra = {"If-None-Match": self.etag} if self.etag else {}
        try:
            response = await self.run.get(f"/play/t/{self.table.pk}/state/", self.headers(**extra))
        except (OSError, ValueError) as error:
            self.run.stats.error("fragment: transport", repr(error))
            return
        at = time.time()
        self.run.stats.status("fragment", response.status_code)
        if response.status_code == 304:
            return
        if response.status_code != 200:
            self.run.stats.error(f"fragment {response.status_code}", response.text)
            return
        if self.look(response.text, at):
            self.etag = response.headers.get("ETag")

    def look(self, body: str, at: float) -> bool:
        """A fragment arrived: check it; show it unless the one shown is newer (table.js: an
        answer to our own move may overtake a GET); take the turn it offers. Whether shown."""
        fragment = parse(body)
        if fragment is None:
            self.run.stats.error("not a table fragment", body)
            return False
        self.run.stats.fragments_checked += 1
        for leak in leaks(fragment, self.seat):
            self.run.stats.leaks.append(f"table {self.table.pk} hand {fragment.hand}: {leak}")
        if fragment.version < self.version:
            return False
        self.version = fragment.version
        self.csrf = fragment.csrf or self.csrf
        self.shows = max(self.shows, fragment.shows)
        self.table.saw(self.user_id, fragment.shows, at)
        self.take_turn(fragment)
        return True

    def take_turn(self, fragment: Fragment) -> None:
        """His buttons: play the turn they offer once; sitting out: come back."""
        if fragment.my_turn and self.turn_taken != fragment.shows and self.run.acting:
            self.turn_taken = fragment.shows
            self.spawn(self.act(fragment))
        elif fragment.sitting_out and not self.rebuying:
            if not fragment.stacks:  # a private part: his fragment says whether he is broke
                self.nudge()
                return
            self.rebuying = True
            broke = fragment.stacks.get(self.seat) == 0
            self.spawn(self.come_back(fragment.csrf, broke=broke))

    # the moves -------------------------------------------------------------------------------

    def choose(self, fragment: Fragment) -> dict[str, str]:
        action = self.rng.choice(fragment.actions)
        data = {"action": action}
        if action == "raise":
            data["amount"] = str(self.rng.choice(fragment.presets))
        return data

    async def act(self, fragment: Fragment) -> None:
        low, high = self.run.args.think
        await asyncio.sleep(self.rng.uniform(low, high))
        if self.shows != fragment.shows or not self.run.acting:
            return  # the hand moved on while he thought (a time-out, the hand over)
        data = self.choose(fragment)
        self.run.stats.actions[data["action"]] = self.run.stats.actions.get(data["action"], 0) + 1
        data |= {"hand": str(fragment.hand), "sequence": str(fragment.sequence)}
        data |= {"key": uuid.uuid4().hex, "csrfmiddlewaretoken": fragment.csrf}
        move = Move(self.table.pk, (fragment.hand, fragment.sequence + 1), data["action"], 0.0)
        move.started = time.time()
        self.table.made(move)
        # As table.js with its stream open: the answer is a 204, the move's messages show it.
        response = await self.post(
            "act", f"/play/t/{self.table.pk}/act/", data, {"X-Floorman-Stream": "1"}
        )
        if response is None and move in self.table.pending:
            self.table.pending.remove(move)
        elif response is not None and self.run.in_window(move.started):
            self.run.stats.posts.append(time.time() - move.started)

    async def come_back(self, csrf: str, *, broke: bool) -> None:
        """Sitting out (broke, or his time ran out: R2.9): add chips if broke, and come back
        posting a big blind, through the page's forms."""
        try:
            base = f"/play/t/{self.table.pk}/"
            token = {"csrfmiddlewaretoken": csrf}
            chips = token | {"amount": str(self.run.buy_in)}
            streamed = {"X-Floorman-Stream": "1"}  # as table.js with its stream open: 204s
            if not broke or await self.post("add chips", base + "chips/", chips, streamed):
                await self.post("come back", base + "back/", token | {"post": "on"}, streamed)
        finally:
            self.rebuying = False

    async def post(
        self, kind: str, url: str, data: dict[str, str], extra: dict[str, str] | None = None
    ) -> Answer | None:
        """A form post as the page sends it; the answer is the new fragment, which it shows, or
        with the stream open a 204 (the stream's messages show it)."""
        try:
            response = await self.run.post(url, self.headers(**(extra or {})), data)
        except (OSError, ValueError) as error:
            self.run.stats.error(f"{kind}: transport", repr(error))
            return None
        at = time.time()
        self.run.stats.status(kind, response.status_code)
        if response.status_code == 204 and extra:
            return response
        if response.status_code != 200:
            self.run.stats.error(f"{kind} {response.status_code}", response.text)
            return None
        self.look(response.text, at)
        return response


# -- the run -----------------------------------------------------------------------------------


def summary(values: list[float], missing: int = 0) -> dict[str, Any]:
    """Count, p50, p95, p99 and max in milliseconds; ``missing`` values count as longer than
    SHOW_WAIT (shown as ">10000")."""
    if not values and not missing:
        return {"count": 0}
    ordered = sorted(values) + [float("inf")] * missing

    def ms(value: float) -> float | str:
        return round(value * 1000, 1) if value != float("inf") else f">{SHOW_WAIT * 1000:.0f}"

    def pct(p: float) -> float | str:
        return ms(ordered[min(len(ordered) - 1, int(p * len(ordered)))])

    return {
        "count": len(values),
        "missing": missing,
        "p50": pct(0.5),
        "p95": pct(0.95),
        "p99": pct(0.99),
        "max": ms(ordered[-1]),
    }


async def peers(run: Run, clock: str) -> None:
    """The peers, open loop from their own connections: a static file and the clock fragment."""
    paths = {"static": run.args.static, "clock": clock}
    while not run.closing:
        for name, path in paths.items():
            started = time.time()
            try:
                response = await request(run.args.web_port, "GET", path)
            except (OSError, ValueError) as error:
                run.stats.error(f"peer {name}: transport", repr(error))
                continue
            run.stats.status(f"peer {name}", response.status_code)
            if response.status_code != 200:
                run.stats.error(f"peer {name} {response.status_code}", response.text)
            elif run.in_window(started):
                run.stats.peers.setdefault(name, []).append(time.time() - started)
        await asyncio.sleep(1 / run.args.peer_rate)


async def watch(run: Run) -> None:
    """The client's own lateness (a busy event loop delays every measurement) and the moves
    that never reach every page."""
    while not run.closing:
        started = time.monotonic()
        await asyncio.sleep(0.1)
        if run.in_window(time.time()):
            run.stats.lags.append(time.monotonic() - started - 0.1)
        now = time.monotonic()
        for table in run.tables:
            table.expire(time.time())
            for player in table.players:
                if now - player.last_fetch >= SAFETY_SECONDS:
                    player.nudge()  # table.js: a lost nudge costs at most this


async def play(
    args: argparse.Namespace, layout: dict[str, Any], start_beat: Callable[[], None]
) -> dict[str, Any]:
    """Open every tab and wait until each shows its table; then beat deals: warm up, measure
    ``args.seconds``, drain, close; the report."""
    run = Run(args, layout)
    players = [player for table in run.tables for player in table.players]
    tasks = []
    try:
        for start in range(0, len(players), 50):  # tabs open 50 at a time, as players arrive
            for player in players[start : start + 50]:
                tasks.append(asyncio.create_task(player.stream()))
            await asyncio.sleep(0.1)
        deadline = time.monotonic() + READY_WAIT
        while any(p.version < 0 for p in players) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        for player in players:
            if player.version < 0:
                run.stats.error(f"tab without its table after {READY_WAIT:.0f} s")
        start_beat()
        tasks.append(asyncio.create_task(watch(run)))
        tasks.append(asyncio.create_task(peers(run, layout["clock"])))
        await asyncio.sleep(args.warmup)
        begin = time.time()
        run.window = (begin, float("inf"))
        cpu = resource.getrusage(resource.RUSAGE_SELF)
        machine = machine_cpu()
        groups = group_cpu(args.pgids)
        servers_before = ServerCpu.start(args)
        end = time.monotonic() + args.seconds
        while time.monotonic() < end:  # the database's backends sampled twice a second
            await asyncio.sleep(min(0.5, max(0.0, end - time.monotonic())))
            servers_before.sample()
        # A window that must hold some moves (the test's) waits for them, however slow the
        # machine: a count reached within a fixed time would fail on a loaded one.
        deadline = time.monotonic() + MIN_MOVES_WAIT
        while len(run.stats.posts) < args.min_moves and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
            servers_before.sample()
        run.window = (begin, time.time())
        args.seconds = run.window[1] - begin
        report = usage(cpu, machine, groups, args) | servers_before.report(args.seconds)
        run.acting = False
        deadline = time.monotonic() + DRAIN_SECONDS
        while any(table.pending for table in run.tables) and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        for table in run.tables:
            table.expire(float("inf"))
    finally:
        run.closing = True
        for task in tasks:
            task.cancel()
        for player in players:
            for task in list(player.background):
                task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return report | results(run, args)


def results(run: Run, args: argparse.Namespace) -> dict[str, Any]:
    stats = run.stats
    return {
        "window": list(run.window),
        "tables": len(run.tables),
        "players": sum(len(table.players) for table in run.tables),
        "moves": len(stats.posts),
        "moves_per_second": round(len(stats.posts) / args.seconds, 1),
        # A move that never reached every page counts as longer than any (SHOW_WAIT).
        "round_trip": summary(stats.round_trips, missing=stats.missing),
        "actor_answer": summary(stats.posts),
        "peers": {name: summary(values) for name, values in stats.peers.items()},
        "statuses": {kind: dict(sorted(s.items())) for kind, s in stats.statuses.items()},
        "errors": stats.errors,
        "examples": stats.examples,
        "missing": stats.missing,
        "leaks": len(stats.leaks),
        "leak_examples": stats.leaks[:5],
        "fragments_checked": stats.fragments_checked,
        "messages_checked": stats.messages_checked,
        "actions": stats.actions,
        "client_lag": summary(stats.lags),
    }


@dataclass
class ServerCpu:
    """PostgreSQL's and Redis's CPU over the window: the bench database's backends (sampled,
    bench.server_cpu.BackendSampler), PostgreSQL's background processes (the whole server's:
    shared with other databases on this machine) and the Redis server when it is the run's own
    (``--redis-url`` not given: bench.server_cpu.private_redis)."""

    backends: BackendSampler | None
    background: dict[int, float]
    redis_pid: int | None
    redis_cpu: float

    @classmethod
    def start(cls, args: argparse.Namespace) -> ServerCpu:
        database = getattr(args, "database_name", None)
        backends = BackendSampler(ADMIN_URL, database) if database else None
        if backends is not None:
            backends.start()
        redis_pid = getattr(args, "redis_pid", None)
        return cls(
            backends, background_readings(), redis_pid,
            cpu_seconds(redis_pid) if redis_pid else 0.0,
        )  # fmt: skip

    def sample(self) -> None:
        if self.backends is not None:
            self.backends.sample()

    def report(self, seconds: float) -> dict[str, Any]:
        """Cores used during the window by each."""
        shares: dict[str, float | None] = {
            "postgres": round(self.backends.seconds() / seconds, 3) if self.backends else None,
            "pg background": round(grown(self.background, background_readings()) / seconds, 3),
            "redis": (
                round((cpu_seconds(self.redis_pid) - self.redis_cpu) / seconds, 3)
                if self.redis_pid
                else None
            ),
        }
        return {"server_cpu_share": shares}


def machine_cpu() -> tuple[int, int]:
    """(busy, total) jiffies of the whole machine."""
    fields = [int(part) for part in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def group_cpu(pgids: dict[str, int]) -> dict[str, tuple[float, float]]:
    """Seconds each process group (a server and its workers) has spent on a CPU so far, and
    waiting for one (runnable, while other processes had the cores). PostgreSQL is left out:
    its backends come and go (CONN_MAX_AGE, the streams' short connections)."""
    by_group = dict.fromkeys(pgids, (0.0, 0.0))
    names = {pgid: name for name, pgid in pgids.items()}
    for folder in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            name = names.get(int((folder / "stat").read_text().rsplit(")", 1)[1].split()[2]))
            if name is not None:
                on_cpu, waiting = (folder / "schedstat").read_text().split()[:2]
                cpu, wait = by_group[name]
                by_group[name] = (cpu + int(on_cpu) / 1e9, wait + int(waiting) / 1e9)
    return by_group


def usage(
    cpu: resource.struct_rusage,
    machine: tuple[int, int],
    groups: dict[str, tuple[float, float]],
    args: argparse.Namespace,
) -> dict[str, Any]:
    """Where the CPU went during the window: the machine, each server, the load generator."""
    now = resource.getrusage(resource.RUSAGE_SELF)
    busy, total = machine_cpu()
    client = now.ru_utime + now.ru_stime - cpu.ru_utime - cpu.ru_stime
    after = group_cpu(args.pgids)
    seconds = args.seconds
    return {
        "machine_busy": round((busy - machine[0]) / max(1, total - machine[1]), 3),
        "cpu_share": {
            name: round((after[name][0] - groups[name][0]) / seconds, 2) for name in after
        }
        | {"load generator": round(client / seconds, 2)},
        # Runnable but without a core (the machine's other jobs, and ours): seconds a second.
        "run_queue": {
            name: round((after[name][1] - groups[name][1]) / seconds, 2) for name in after
        },
    }


def database_counts(database_url: str, window: list[float]) -> dict[str, Any]:
    """What the database says about the window: players' moves, hands finished, chips."""
    url = database_url.replace("postgres://", "postgresql://")
    begin, end = window
    with psycopg.connect(url) as connection:
        moves = connection.execute(
            "select count(*) from tables_handaction where user_id is not null"
            " and created_at >= to_timestamp(%s) and created_at < to_timestamp(%s)",
            (begin, end),
        ).fetchone()
        hands = connection.execute(
            "select count(*) from tables_tablehand"
            " where ended_at >= to_timestamp(%s) and ended_at < to_timestamp(%s)",
            (begin, end),
        ).fetchone()
        all_hands = connection.execute("select count(*) from tables_tablehand").fetchone()
        unbalanced = connection.execute(
            "select count(*) from tables_onlinetable t where"
            " (select coalesce(sum(stack), 0) from tables_onlineseat where table_id = t.id) <>"
            " (select coalesce(sum(case kind when 'buy_in' then amount else -amount end), 0)"
            "  from tables_chiptransfer where table_id = t.id and kind <> 'grant')"
            " and not exists (select 1 from tables_tablehand h"
            "  where h.table_id = t.id and not h.is_over)"
        ).fetchone()
    assert moves and hands and all_hands and unbalanced
    return {
        "db_player_moves": moves[0],
        "hands": hands[0],
        "hands_dealt": all_hands[0],
        "tables_chips_unbalanced": unbalanced[0],
    }


@contextlib.contextmanager
def servers(
    args: argparse.Namespace, folder: Path, database_url: str, redis_url: str
) -> Iterator[Callable[[], None]]:
    """gunicorn, uvicorn, a Celery worker and beat as in the Procfile; all stopped at the end.
    Yields the function that starts beat."""
    processes = Processes(folder)
    args.database_name = database_url.rsplit("/", 1)[-1]  # its backends' CPU (ServerCpu)
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        DEBUG="0",
        LOG_LEVEL="WARNING",
        # Production refuses to start without one; every process of the run shares it.
        SECRET_KEY=os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
    )
    env.pop("LIVE_BUS", None)  # follows REDIS_URL: redis
    env.pop("CONN_MAX_AGE", None)  # the settings' default on PostgreSQL, as in production
    try:
        processes.start(
            "gunicorn",
            [str(BIN / "gunicorn"), "config.wsgi", "--workers", str(args.web_workers),
             "--bind", f"127.0.0.1:{args.web_port}", "--backlog", "2048"],
            env,
        )  # fmt: skip
        processes.start(
            "uvicorn",
            [str(BIN / "uvicorn"), "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(args.events_port), "--log-level", "warning", "--backlog", "2048"],
            dict(env, CONN_MAX_AGE="0"),
        )  # fmt: skip
        processes.start(
            "worker",
            [str(BIN / "celery"), "-A", "config", "worker", "--loglevel", "WARNING",
             "--without-gossip", "--without-mingle"],
            env,
        )  # fmt: skip
        wait_for_http(processes, f"{args.web_url}/static/css/floorman.css")
        wait_for_http(processes, f"{args.events_url}/")

        def start_beat() -> None:
            """Beat last: its sweeper deals at once, and the tabs should be open by then."""
            processes.start(
                "beat",
                [str(BIN / "celery"), "-A", "config", "beat", "--loglevel", "WARNING",
                 "--schedule", str(folder / "beat-schedule"),
                 "--pidfile", str(folder / "beat.pid")],
                env,
            )  # fmt: skip
            args.pgids = {name: process.pid for name, process in processes.running}

        yield start_beat
        processes.check()
    finally:
        processes.stop()


def server_errors(folder: Path) -> dict[str, int]:
    """Tracebacks and error lines in the servers' logs."""
    found = {}
    for log in sorted(folder.glob("*.log")):
        text = log.read_text(errors="replace")
        count = text.count("Traceback") + len(re.findall(r"\bERROR\b", text))
        if count:
            found[log.stem] = count
    return found


def flush_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url, socket_timeout=5)
    client.flushdb()
    client.close()


def bench(args: argparse.Namespace) -> dict[str, Any]:
    """The whole benchmark on a fresh database: setup, servers, load, checks."""
    folder = ROOT / "bench" / "out" / f"online-{time.strftime('%Y%m%d-%H%M%S')}"
    folder.mkdir(parents=True)
    database_url = recreate_database(args.database)
    with contextlib.ExitStack() as stack:
        if args.redis_url is None:  # a Redis of the run's own: its CPU is the run's
            args.redis_url, args.redis_pid = stack.enter_context(private_redis())
        return _bench(args, folder, database_url)


def _bench(args: argparse.Namespace, folder: Path, database_url: str) -> dict[str, Any]:
    flush_redis(args.redis_url)
    env = dict(os.environ, DATABASE_URL=database_url, REDIS_URL=args.redis_url, DEBUG="0")
    env.pop("LIVE_BUS", None)
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "floorman_setup", "-v0")
    setup = [str(BIN / "python"), "-m", "bench.online_tables", "setup",
             "--tables", str(args.tables), "--players", str(args.players)]  # fmt: skip
    done = subprocess_json(setup, env)
    choose_ports(args)
    load = os.getloadavg()[0]
    with servers(args, folder, database_url, args.redis_url) as start_beat:
        report = asyncio.run(play(args, done, start_beat))
        report["server_errors"] = server_errors(folder)  # before the stop's own complaints
    report |= database_counts(database_url, report["window"])
    report["hands_per_second"] = round(report["hands"] / args.seconds, 2)
    report["load_average_at_start"] = round(load, 2)
    report["logs"] = str(folder.relative_to(ROOT))
    return report


def choose_ports(args: argparse.Namespace) -> None:
    """Free loopback ports for gunicorn and uvicorn, and their URLs."""
    args.web_port, args.events_port = free_port(), free_port()
    args.web_url = f"http://127.0.0.1:{args.web_port}"
    args.events_url = f"http://127.0.0.1:{args.events_port}"


def subprocess_json(command: list[str], env: dict[str, str]) -> dict[str, Any]:
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}")
    return dict(json.loads(result.stdout.strip().splitlines()[-1]))


# -- the report --------------------------------------------------------------------------------


def errors_total(report: dict[str, Any]) -> int:
    return sum(report["errors"].values()) + sum(report["server_errors"].values())


def render(report: dict[str, Any], args: argparse.Namespace, command: str) -> str:
    """The figures of one run as Markdown lines (the text around them is written by hand)."""
    rt, post = report["round_trip"], report["actor_answer"]
    static, clock = report["peers"].get("static", {}), report["peers"].get("clock", {})
    p95 = rt.get("p95")
    fast = isinstance(p95, float) and p95 < GOAL_P95_MS
    met = fast and not errors_total(report) and not report["leaks"]
    return "\n".join(
        [
            f"Command: `{command}` (load average {report['load_average_at_start']} at the start; "
            f"{report['tables']} tables, {report['players']} players and streams, think "
            f"{args.think[0]}-{args.think[1]} s, {args.seconds:.0f} s measured after "
            f"{args.warmup:.0f} s of warm-up).",
            "",
            "| figure | value |",
            "|---|---:|",
            f"| moves/s (players' moves; the database counts {report['db_player_moves']}) | "
            f"{report['moves_per_second']} |",
            f"| hands/s (hands finished) | {report['hands_per_second']} |",
            f"| move round trip p50 / p95 / p99 / max (ms) | {rt.get('p50')} / {rt.get('p95')} / "
            f"{rt.get('p99')} / {rt.get('max')} |",
            f"| the actor's POST answer p50 / p95 (ms) | {post.get('p50')} / {post.get('p95')} |",
            f"| peer: static file p50 / p95 (ms) | {static.get('p50')} / {static.get('p95')} |",
            f"| peer: clock fragment p50 / p95 (ms) | {clock.get('p50')} / {clock.get('p95')} |",
            f"| move p95 / static p95 | {ratio(rt, static)} |",
            f"| move p95 / clock fragment p95 | {ratio(rt, clock)} |",
            f"| errors (HTTP, streams, server logs) / moves missing a page | "
            f"{errors_total(report)} / {report['missing']} |",
            f"| leaks (fragments / stream messages checked) | {report['leaks']} "
            f"({report['fragments_checked']} / {report['messages_checked']}) |",
            f"| CPU (cores) during the window | {cpu_line(report)} |",
            f"| ms of CPU a move, by process | {per_move_line(report, args)} |",
            f"| load generator's event loop late p95 / max (ms) | "
            f"{report['client_lag'].get('p95')} / {report['client_lag'].get('max')} |",
            "",
            f"Goal (p95 < {GOAL_P95_MS:.0f} ms, no error, no leak): {'met' if met else 'MISSED'}.",
        ]
    )


def ratio(move: dict[str, Any], peer: dict[str, Any]) -> str:
    if not isinstance(move.get("p95"), float) or not isinstance(peer.get("p95"), float):
        return "-"
    return f"{move['p95'] / peer['p95']:.1f}x"


def per_move_line(report: dict[str, Any], args: argparse.Namespace) -> str:
    """Each process's CPU in the window over the players' moves served in it (the servers'
    other work, the deals and the bots' moves, the streams and the peers' pages, included)."""
    moves = report["moves"]
    if not moves:
        return "-"
    shares = report["cpu_share"] | report.get("server_cpu_share", {})
    parts = []
    for name, share in shares.items():
        figure = "-" if share is None else f"{share * args.seconds / moves * 1000:.1f}"
        parts.append(f"{name} {figure}")
    servers = [
        share for name, share in shares.items()
        if name not in ("load generator", "pg background") and share is not None
    ]  # fmt: skip
    total = sum(servers) * args.seconds / moves * 1000
    return ", ".join(parts) + f"; the servers together (PG background aside) {total:.1f}"


def cpu_line(report: dict[str, Any]) -> str:
    shares = ", ".join(f"{name} {share}" for name, share in report["cpu_share"].items())
    waiting = report["run_queue"].get("gunicorn", "-")
    return (
        f"machine {report['machine_busy'] * 2:.2f} of 2 ({shares}); gunicorn's workers waited "
        f"{waiting} s a second for a core"
    )


def write_results(text: str) -> None:
    """Append a run's figures to this benchmark's section of bench/RESULTS.md."""
    append_run(SECTION, text)


def arguments() -> argparse.ArgumentParser:
    """The benchmark's options (the smoke test parses its own small run with them)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--players", type=int, default=6, help="players (and seats) a table")
    parser.add_argument("--seconds", type=float, default=90.0, help="the measured window")
    parser.add_argument("--warmup", type=float, default=20.0)
    parser.add_argument(
        "--min-moves", type=int, default=0,
        help="the window grows past --seconds until it holds this many moves (at most 300 s)",
    )  # fmt: skip
    parser.add_argument(
        "--think", type=float, nargs=2, default=[0.6, 1.6], metavar=("LOW", "HIGH"),
        help="seconds a player thinks before his move (uniform); the house bots' by default",
    )  # fmt: skip
    parser.add_argument("--connections", type=int, default=64, help="to gunicorn, at once")
    parser.add_argument("--web-workers", type=int, default=3)
    parser.add_argument("--peer-rate", type=float, default=5.0, help="peer rounds a second")
    parser.add_argument("--static", default="/static/css/floorman.css")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--database", default="floorman_bench_online")
    parser.add_argument(
        "--redis-url", default=None,
        help="a Redis to use (its CPU is not read); by default the run starts its own",
    )  # fmt: skip
    parser.add_argument("--write-results", action="store_true")
    return parser


def setup_main() -> None:
    """``python -m bench.online_tables setup --tables N --players P``: the layout as JSON."""
    parser = argparse.ArgumentParser()
    parser.add_argument("setup")
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--players", type=int, required=True)
    args = parser.parse_args()
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    print(json.dumps(seat_players(tables=args.tables, players=args.players)))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "setup":
        setup_main()
        return
    args = arguments().parse_args()
    # One key for the run: the setup process signs the players' sessions with it, and the
    # servers must check them with the same one (production refuses to start without one).
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    # Production's settings (Redis, DEBUG off) seal running hands' decks with this key.
    os.environ.setdefault("FLOORMAN_SEAL_KEYS", base64.b64encode(os.urandom(32)).decode())
    command = ".venv/bin/python -m bench.online_tables " + " ".join(sys.argv[1:])
    report = bench(args)
    print(json.dumps(report, indent=2))
    text = render(report, args, command.replace(" --write-results", "").strip())
    print(text)
    if args.write_results:
        write_results(text)


if __name__ == "__main__":
    main()
