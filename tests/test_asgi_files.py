"""The embedded default serves static files with uvicorn (ASGI): the whole file, no warning."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from config.asgi_files import get_application

ROOT = Path(__file__).resolve().parent.parent


def asgi_get(path: str) -> tuple[int, bytes]:
    """One GET through the ASGI application, as uvicorn sends it; (status, body)."""
    application = get_application()  # config/asgi.py's
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "headers": [(b"host", b"localhost")], "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }  # fmt: skip
    sent: list[dict] = []
    requests = [{"type": "http.request", "body": b"", "more_body": False}]

    async def receive() -> dict:
        if requests:
            return requests.pop()
        await asyncio.Event().wait()  # the client stays until the answer is sent
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    async def scenario() -> None:
        try:
            await application(scope, receive, send)
        finally:
            await sync_to_async(connections.close_all)()

    asyncio.run(scenario())
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, body


@pytest.mark.django_db(transaction=True)
def test_a_static_file_under_asgi_comes_whole_without_a_warning(settings):
    settings.ALLOWED_HOSTS = ["localhost"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        status, body = asgi_get("/static/js/clock.js")
    assert status == 200
    assert body == (ROOT / "static" / "js" / "clock.js").read_bytes()
    assert [str(w.message) for w in caught if "StreamingHttpResponse" in str(w.message)] == []
