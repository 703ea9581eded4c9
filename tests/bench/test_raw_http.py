"""The load generators' HTTP client (bench/raw_http.py) against a server that answers as
gunicorn and uvicorn do: one answer a connection, chunked or not, and an event stream."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from urllib.parse import parse_qs

import pytest

from bench.raw_http import Stream, frame_fields, request

Handler = Callable[[bytes], Awaitable[bytes]]


async def serve(handler: Handler, run: Callable[[int], Awaitable[object]]) -> object:
    """A server on a free port whose every connection gets ``handler``'s bytes for the
    request it read (up to its blank line and the body its Content-Length says), then closes."""
    received: list[bytes] = []

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        whole = head + await reader.readexactly(length)
        received.append(whole)
        writer.write(await handler(whole))
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        return await run(port), received
    finally:
        server.close()


def test_a_form_is_posted_url_encoded_and_its_answer_read() -> None:
    async def handler(_: bytes) -> bytes:
        return b'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nETag: "v7"\r\n\r\nhello'

    answer, received = asyncio.run(
        serve(
            handler,
            lambda port: request(
                port, "POST", "/act/", {"Cookie": "a=b"}, form={"action": "raise", "x": "1 2"}
            ),
        )
    )
    assert (answer.status_code, answer.text, answer.headers["etag"]) == (200, "hello", '"v7"')
    head, _, body = received[0].partition(b"\r\n\r\n")
    assert head.startswith(b"POST /act/ HTTP/1.1\r\n")
    assert b"Content-Type: application/x-www-form-urlencoded" in head
    assert b"Cookie: a=b" in head
    assert parse_qs(body.decode()) == {"action": ["raise"], "x": ["1 2"]}


def test_a_chunked_answer_is_joined() -> None:
    async def handler(_: bytes) -> bytes:
        return (
            b"HTTP/1.1 409 Conflict\r\nTransfer-Encoding: chunked\r\n\r\n"
            b"4\r\nthe \r\n9;ext=1\r\nhand move\r\n0\r\n\r\n"
        )

    answer, _ = asyncio.run(serve(handler, lambda port: request(port, "GET", "/x/")))
    assert (answer.status_code, answer.text) == (409, "the hand move")


def test_no_http_answer_is_an_error_not_a_status() -> None:
    async def garbage(_: bytes) -> bytes:
        return b"SSH-2.0-OpenSSH\r\n\r\n"

    async def nothing(_: bytes) -> bytes:
        return b""

    for handler, reason in ((garbage, "not an HTTP answer"), (nothing, "an answer cut short")):
        with pytest.raises(ValueError, match=reason):
            asyncio.run(serve(handler, lambda port: request(port, "GET", "/")))


def test_an_event_stream_gives_its_frames_whole_across_chunks() -> None:
    async def handler(_: bytes) -> bytes:
        frames = b'event: changed\nid: t1=3\ndata: {"a": 1}\n\n: ping\n\nevent: chang'
        rest = b'ed\ndata: {"b":\n\n'
        chunks = [frames, rest]
        body = b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks) + b"0\r\n\r\n"
        return b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + body

    async def read(port: int) -> list[tuple[bytes, bytes]]:
        stream = await Stream.open(port, "/play/events/?t=1", {"Last-Event-ID": "t1=2"})
        try:
            assert stream.status_code == 200
            return [frame_fields(frame) async for frame in stream.frames()]
        finally:
            stream.close()

    frames, received = asyncio.run(serve(handler, read))
    assert frames == [(b"changed", b'{"a": 1}'), (b"", b""), (b"changed", b'{"b":')]
    assert b"Accept: text/event-stream" in received[0]
    assert b"Last-Event-ID: t1=2" in received[0]
