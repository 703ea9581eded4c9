"""A server-sent events reader for the integration tests: one connection, read in a thread."""

from __future__ import annotations

import json
import queue
import threading
import time

import httpx
import pytest


class Stream:
    """One open SSE connection read in a thread: (received at, event name, data) in a queue."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.events: queue.Queue[tuple[float, str, str]] = queue.Queue()
        self.status: int | None = None
        self._client = httpx.Client(timeout=httpx.Timeout(5, read=60))
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        name, data = "", []
        try:
            with self._client.stream("GET", self.url) as response:
                self.status = response.status_code
                for line in response.iter_lines():
                    if line.startswith(":"):
                        self.events.put((time.monotonic(), "comment", line[1:].strip()))
                    elif line.startswith("event:"):
                        name = line[6:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:].strip())
                    elif not line and name:
                        self.events.put((time.monotonic(), name, "\n".join(data)))
                        name, data = "", []
        except httpx.HTTPError as error:
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
        self._client.close()
        self._thread.join(timeout=5)


def next_changed(stream: Stream, timeout: float) -> tuple[float, dict[str, object]]:
    """The next `changed` event (heartbeats skipped) and when it arrived."""
    deadline = time.monotonic() + timeout
    while True:
        received, name, data = stream.next(max(deadline - time.monotonic(), 0.01))
        assert name != "error", data
        if name == "changed":
            return received, json.loads(data)
