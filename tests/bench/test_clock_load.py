"""The 500-phone load generator itself: a simulated phone must not lose work to the collector."""

from __future__ import annotations

import argparse
import asyncio
import gc

from bench import clock_load


async def slow_fragment_server(delay: float) -> tuple[asyncio.Server, int]:
    """A web server that answers the clock fragment (level 1) after ``delay`` seconds."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        await asyncio.sleep(delay)
        body = b'<div id="clock" data-level-index="1" data-ends-at=""></div>'
        head = f'HTTP/1.1 200 OK\r\nETag: "l1"\r\nContent-Length: {len(body)}\r\n\r\n'
        writer.write(head.encode() + body)
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


def test_a_refetch_survives_a_garbage_collection_during_a_slow_answer():
    """The stale phones of the first 500-phone run: each `changed` started a refetch task whose
    only reference was dropped; asyncio holds tasks and a stream's reader weakly, so a collection
    while gunicorn was busy destroyed the pending refetch and the phone kept the old fragment."""

    async def scenario():
        server, port = await slow_fragment_server(delay=0.5)
        args = argparse.Namespace(web_port=port, fragment="/e/demo/clock/")
        phone = clock_load.Phone(0, args, clock_load.Stats())
        phone._on_block(
            'event: changed\ndata: {"what": "clock", "at": "2026-11-22T20:00:00+00:00"}'
        )
        for _ in range(15):
            await asyncio.sleep(0.05)
            gc.collect()
        async with asyncio.timeout(5):
            while not phone.fresh:
                await asyncio.sleep(0.05)
        server.close()
        return phone

    phone = asyncio.run(scenario())
    assert [level for _received, level in phone.fresh] == [1]
    assert not phone.fetching
