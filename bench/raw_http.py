"""The load generators' HTTP: one request a fresh connection, and event streams read by frame.

A browser costs the server what it sends, not what its HTTP stack costs on the machine that
runs it; the load generators run beside the servers on the same two cores, so theirs must cost
next to nothing (issue 17). httpx's layers (its pool, httpcore, h11, anyio, the line decoder)
were about half of bench/online_tables.py's load generator, at 5.7 ms of CPU a move (py-spy;
bench/RESULTS.md). Here a request is a few writes and one read: gunicorn's sync workers close
every connection after its answer, so the answer is what the socket holds until it closes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

HOST = "127.0.0.1"


@dataclass(frozen=True, slots=True)
class Answer:
    """An HTTP answer: its status, its headers (names lower-case) and its body."""

    status_code: int
    headers: dict[str, str]
    content: bytes

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", "replace")


def _head(method: str, path: str, port: int, headers: Mapping[str, str], body: bytes) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _headers(head: bytes) -> tuple[int, dict[str, str]]:
    status_line, *lines = head.decode("latin-1").split("\r\n")
    parts = status_line.split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise ValueError(f"not an HTTP answer: {status_line[:80]!r}")
    headers = {}
    for line in lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(parts[1]), headers


def _unchunked(body: bytes) -> bytes:
    out, at = bytearray(), 0
    while True:
        end = body.index(b"\r\n", at)
        size = int(body[at:end].split(b";", 1)[0], 16)
        if size == 0:
            return bytes(out)
        out += body[end + 2 : end + 2 + size]
        at = end + 2 + size + 2


async def request(
    port: int,
    method: str,
    path: str,
    headers: Mapping[str, str] | None = None,
    *,
    form: Mapping[str, str] | None = None,
    timeout: float = 30.0,
) -> Answer:
    """One request on a fresh connection to 127.0.0.1:``port``; ``form`` is posted url-encoded
    as table.js posts it. Raises OSError (TimeoutError too) or ValueError for no HTTP answer."""
    sent = dict(headers or {})
    body = b""
    if form is not None:
        body = urlencode(form).encode()
        sent["Content-Type"] = "application/x-www-form-urlencoded"
    async with asyncio.timeout(timeout):
        reader, writer = await asyncio.open_connection(HOST, port)
        try:
            writer.write(_head(method, path, port, sent, body) + body)
            data = await reader.read(-1)
        finally:
            writer.close()
    head, found, content = data.partition(b"\r\n\r\n")
    if not found:
        raise ValueError(f"an answer cut short: {data[:80]!r}")
    status, answer_headers = _headers(head)
    if answer_headers.get("transfer-encoding", "").lower() == "chunked":
        content = _unchunked(content)
    return Answer(status, answer_headers, content)


class Stream:
    """An open event stream (``text/event-stream``): its status and headers, then its frames
    (the bytes between two blank lines). Close it when done."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.status_code = 0
        self.headers: dict[str, str] = {}

    @classmethod
    async def open(
        cls, port: int, path: str, headers: Mapping[str, str] | None = None, timeout: float = 30.0
    ) -> Stream:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(HOST, port)
            stream = cls(reader, writer)
            try:
                sent = {"Accept": "text/event-stream", **(headers or {})}
                writer.write(_head("GET", path, port, sent, b""))
                head = await reader.readuntil(b"\r\n\r\n")
                stream.status_code, stream.headers = _headers(head[:-4])
            except BaseException:
                writer.close()
                raise
        return stream

    async def frames(self) -> AsyncIterator[bytes]:
        """Each frame as it comes, until the server closes the stream."""
        chunked = self.headers.get("transfer-encoding", "").lower() == "chunked"
        reader = self.reader
        buffer = b""
        while True:
            if chunked:
                size = int((await reader.readline()).split(b";", 1)[0].strip() or b"0", 16)
                if size == 0:
                    return
                buffer += await reader.readexactly(size)
                await reader.readexactly(2)
            else:
                data = await reader.read(65536)
                if not data:
                    return
                buffer += data
            if b"\n\n" in buffer:
                *frames, buffer = buffer.split(b"\n\n")
                for frame in frames:
                    yield frame

    def close(self) -> None:
        self.writer.close()


def frame_fields(frame: bytes) -> tuple[bytes, bytes]:
    """An event stream frame's event name and its data (its lines joined), as bytes."""
    event, data = b"", []
    for line in frame.split(b"\n"):
        if line.startswith(b"event:"):
            event = line[6:].strip()
        elif line.startswith(b"data:"):
            data.append(line[6:] if line[5:6] == b" " else line[5:])
    return event, b"\n".join(data)
