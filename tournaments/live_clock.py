"""The clock on the live bus: each message carries the clock's public state under an ordered id.

A clock message holds the fragment in every language (and the fragment the page shows when the
level runs out), so a page shows a change without fetching anything. Its id is
``<clock version>.<milliseconds>``: later ids carry newer states, streams drop an older message
that arrives late, and a tab that reconnects with ``Last-Event-ID`` gets the current state at once
when its clock version differs. On Redis the last published state is kept under
``live:clock:<database>:<event>`` and used when its version is the one in the database; otherwise
(and on the database bus) the state is rendered for the tab that connects.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import redis
from django.conf import settings
from django.utils import timezone

from tournaments.bounds import parse_id
from tournaments.display import clock_state
from tournaments.models import Event

STATE_SECONDS = 24 * 3600  # an event night; after that the next connect renders it again
# A state read this much later wins whatever its version: versions only go back when the
# database was restored (or recreated) under a Redis that kept the old states.
RESTORED_AFTER_MS = 60_000


@dataclass(frozen=True, order=True, slots=True)
class MessageId:
    """A clock message's id: the clock version, then when the state was read (ms)."""

    version: int
    stamp: int

    def __str__(self) -> str:
        return f"{self.version}.{self.stamp}"

    def supersedes(self, other: MessageId) -> bool:
        """Whether this state replaces ``other``: a later version, or the same one read later."""
        if self.stamp > other.stamp + RESTORED_AFTER_MS:
            return True
        return self > other

    @classmethod
    def parse(cls, text: str | None) -> MessageId | None:
        """The id a tab sent (``Last-Event-ID``); None when missing or not one of ours."""
        version, _dot, stamp = (text or "").strip().partition(".")
        number, when = parse_id(version), parse_id(stamp)
        if number is None or when is None:
            return None
        return cls(number, when)


@functools.cache
def namespace() -> str:
    """This installation's database: installations (or test runs) that share a Redis never
    see each other's events, which share ids."""
    name = str(settings.DATABASES["default"]["NAME"])
    return hashlib.blake2s(name.encode(), digest_size=4).hexdigest()


def state_key(event_id: int) -> str:
    return f"live:clock:{namespace()}:{event_id}"


def clock_payload(event: Event, *, what: str, now: datetime | None = None) -> str:
    """The bus message of an event's clock as it reads now (event loaded with its structure)."""
    now = now or timezone.now()
    message_id = MessageId(event.clock_version, int(now.timestamp() * 1000))
    return json.dumps(
        {
            "event": event.pk,
            "what": what,
            "at": now.isoformat(),
            "id": str(message_id),
            "clock": clock_state(event, now=now),
        }
    )


def store_clock_payload(
    client: redis.Redis, *, channel: str, payload: str, publish: bool, phase: str = ""
) -> str | None:
    """Keep ``payload`` as the event's state for the tabs that connect later; publish it. A
    publish also keeps its ``phase`` (tournaments.live_board) and returns the one before, in
    the same round trip."""
    event_id = json.loads(payload)["event"]
    key = state_key(event_id)
    with client.pipeline(transaction=True) as pipe:
        pipe.hget(key, "phase")
        pipe.hset(key, mapping={"payload": payload, **({"phase": phase} if phase else {})})
        pipe.expire(key, STATE_SECONDS)
        if publish:
            pipe.publish(channel, payload)
        before = pipe.execute()[0]
    return before.decode() if isinstance(before, bytes) else before


def current_clock_payload(
    event_id: int, *, client: redis.Redis | None, version: int | None = None
) -> str | None:
    """The newest clock message of an event: kept in Redis, else rendered from the database.

    ``version`` is the clock version the stream read from the database as the tab connected:
    a kept state of another version (a publish lost, a database restored) is not used.
    """
    if client is not None:
        held = client.hget(state_key(event_id), "payload")
        text = held.decode() if isinstance(held, bytes) else held
        if text and (version is None or _version_of(text) == version):
            return str(text)
    event = Event.objects.select_related("structure").filter(pk=event_id).first()
    if event is None:
        return None
    payload = clock_payload(event, what="clock")
    if client is not None:
        store_clock_payload(client, channel="", payload=payload, publish=False)
    return payload


def _version_of(payload: str) -> int | None:
    message_id = MessageId.parse(json.loads(payload).get("id"))
    return None if message_id is None else message_id.version


@dataclass(slots=True)
class BusMessage:
    """One message from the bus, parsed once per process, framed once per language."""

    data: dict[str, Any]
    raw: str
    id: MessageId | None
    _parts: dict[str, tuple[bytes, bytes]] = field(default_factory=dict)

    @classmethod
    def parse(cls, raw: str) -> BusMessage:
        try:
            data = json.loads(raw)
        except ValueError:
            data = {}
        data = data if isinstance(data, dict) else {}
        message_id = MessageId.parse(data.get("id")) if "clock" in data else None
        return cls(data=data, raw=raw, id=message_id)

    @property
    def is_clock(self) -> bool:
        return self.id is not None

    @property
    def board_stamp(self) -> int | None:
        """The stamp of the event's board it carries (tournaments.live_board), else None."""
        board = self.data.get("board")
        stamp = board.get("stamp") if isinstance(board, dict) else None
        return stamp if isinstance(stamp, int) else None

    def frame(self, language: str, *, now: datetime) -> bytes:
        """The server-sent event for one tab: the clock or the board in its language, or a
        `changed` nudge.

        Bytes, encoded once per message and language: each of 500 streams writing a 2.5 KB
        string had it encoded again (and its charset looked up) by the response (issue 17).
        A board's frame has no ``id``: the tab's Last-Event-ID stays its clock's.
        """
        if self.board_stamp is not None:
            if language not in self._parts:
                data = _board_data(self.data["board"], language)
                self._parts[language] = (f"event: standings\ndata: {data}\n\n".encode(), b"")
            return self._parts[language][0]
        if not self.is_clock:
            if "" not in self._parts:
                nudge = "event: changed\n" + "".join(f"data: {line}\n" for line in _lines(self.raw))
                self._parts[""] = ((nudge + "\n").encode(), b"")
            return self._parts[""][0]
        if language not in self._parts:
            self._parts[language] = self._clock_parts(language)
        head, tail = self._parts[language]
        # The server's time as the frame leaves: a page sets its clock offset from it, also for
        # a state that was stored a while ago.
        return b"".join((head, b'"', now.isoformat().encode(), b'"', tail))

    def _clock_parts(self, language: str) -> tuple[bytes, bytes]:
        state = self.data["clock"]
        upcoming = state.get("next")
        body = {
            "id": str(self.id),
            "event": self.data.get("event"),
            "what": self.data.get("what", "clock"),
            "version": state["version"],
            "level_index": state["level_index"],
            "status": state["status"],
            "ends_at": state["ends_at"],
            "remaining_ms": state["remaining_ms"],
            "chip_up": state.get("chip_up"),
            **_view(state["views"], language),
            "next": None
            if upcoming is None
            else {
                "at": upcoming["at"],
                "level_index": upcoming["level_index"],
                "status": upcoming["status"],
                **_view(upcoming["views"], language),
            },
        }
        encoded = json.dumps(body, separators=(",", ":"))
        head = f'id: {self.id}\nevent: clock\ndata: {{"now":'
        return head.encode(), ("," + encoded[1:] + "\n\n").encode()


def _view(views: dict[str, dict[str, str]], language: str) -> dict[str, str]:
    view = views.get(language) or views.get(settings.LANGUAGE_CODE) or next(iter(views.values()))
    return {"etag": view["etag"], "html": view["html"]}


def _board_data(board: dict[str, Any], language: str) -> str:
    """A board frame's data for a tab (tournaments.live_board): its stamp, its parts in its
    language."""
    views = board["views"]
    view = views.get(language) or views.get(settings.LANGUAGE_CODE) or next(iter(views.values()))
    return json.dumps({"stamp": board["stamp"], **view}, separators=(",", ":"))


def _lines(text: str) -> list[str]:
    return text.splitlines() or [""]


class Cursor:
    """What one stream has sent: each clock state once, in id order, never an older after a newer.

    On connect the tab gets the current state unless it has its clock version: within one
    version the clock's state is the same and only time moves it on, which the page counts
    itself (and, when a level runs out, shows the next one it was sent).
    """

    def __init__(self, *, language: str, last_event_id: str | None) -> None:
        self.language = language
        self.sent = MessageId.parse(last_event_id)
        self.board: int | None = None  # the stamp of the last board sent

    def resync(self, current: BusMessage) -> bytes | None:
        """The frame of the current state for a tab that connects, or None if it has it."""
        if current.id is None:
            return None
        if self.sent is not None and current.id.version == self.sent.version:
            return None
        self.sent = current.id
        return current.frame(self.language, now=timezone.now())

    def frame(self, message: BusMessage) -> bytes | None:
        """The frame to send for ``message``, or None when the tab already has something newer."""
        if (stamp := message.board_stamp) is not None:
            if self.board is not None and stamp <= self.board:
                return None
            self.board = stamp
        elif message.id is not None:
            if self.sent is not None and not message.id.supersedes(self.sent):
                return None
            self.sent = message.id
        return message.frame(self.language, now=timezone.now())
