"""A server-sent events reader for the integration tests: one connection, read in a thread."""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import threading
import time

import httpx
import pytest


class Stream:
    """One open SSE connection read in a thread: (received at, event name, data) in a queue;
    ``ids`` maps each event's data to its `id:` field (the clock states carry one)."""

    def __init__(
        self,
        url: str,
        *,
        last_event_id: str | None = None,
        cookies: dict[str, str] | None = None,
        language: str | None = None,
    ) -> None:
        self.url = url
        self.events: queue.Queue[tuple[float, str, str]] = queue.Queue()
        self.ids: dict[str, str] = {}
        self.status: int | None = None
        headers = {"Last-Event-ID": last_event_id} if last_event_id else {}
        if language:
            headers["Accept-Language"] = language
        self._client = httpx.Client(
            timeout=httpx.Timeout(5, read=60), headers=headers, cookies=cookies
        )
        self._socket: socket.socket | None = None
        self._closing = False
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        name, data, event_id = "", [], ""
        try:
            with self._client.stream("GET", self.url) as response:
                self.status = response.status_code
                self._socket = response.extensions["network_stream"].get_extra_info("socket")
                for line in response.iter_lines():
                    if line.startswith(":"):
                        self.events.put((time.monotonic(), "comment", line[1:].strip()))
                    elif line.startswith("event:"):
                        name = line[6:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:].strip())
                    elif line.startswith("id:"):
                        event_id = line[3:].strip()
                    elif not line and name:
                        text = "\n".join(data)
                        if event_id:
                            self.ids[text] = event_id
                        self.events.put((time.monotonic(), name, text))
                        name, data, event_id = "", [], ""
        except httpx.HTTPError as error:
            if self._closing:
                return
            self.events.put((time.monotonic(), "error", repr(error)))

    def next(self, timeout: float) -> tuple[float, str, str]:
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            pytest.fail(f"nothing arrived on {self.url} within {timeout} s")

    def wait_connected(self) -> None:
        received, name, data = self.next(timeout=15)
        assert self.status == 200, f"the stream answered {self.status}"
        assert (name, data) == ("comment", "connected"), (name, data)

    def close(self) -> None:
        """Close the connection as a tab that goes does: the server sees it end at once."""
        self._closing = True
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.shutdown(socket.SHUT_RDWR)  # wakes the reading thread too
        self._client.close()
        self._thread.join(timeout=5)


def drain(stream: Stream, quiet: float) -> list[tuple[str, dict[str, object]]]:
    """The `changed` events (SSE id, message) that arrive until none came for ``quiet`` s."""
    found = []
    while True:
        try:
            _received, name, data = stream.events.get(timeout=quiet)
        except queue.Empty:
            return found
        assert name != "error", data
        if name == "changed":
            found.append((stream.ids.get(data, ""), json.loads(data)))


def next_changed(
    stream: Stream, timeout: float, *, event: str = "changed"
) -> tuple[float, dict[str, object]]:
    """The next ``event`` (a `changed` nudge, or an event's board: `standings`), other events
    skipped, and when it arrived."""
    deadline = time.monotonic() + timeout
    while True:
        received, name, data = stream.next(max(deadline - time.monotonic(), 0.01))
        assert name != "error", data
        if name == event:
            return received, json.loads(data)


def next_clock(
    stream: Stream, timeout: float, *, newer_than: int = -1
) -> tuple[float, dict[str, object]]:
    """The next clock state of a version above ``newer_than`` (nudges, heartbeats skipped)."""
    deadline = time.monotonic() + timeout
    while True:
        received, name, data = stream.next(max(deadline - time.monotonic(), 0.01))
        assert name != "error", data
        if name == "clock":
            state = json.loads(data)
            assert stream.ids[data] == state["id"], "the SSE id is not the state's id"
            if int(state["version"]) > newer_than:
                return received, state
