"""Files under ASGI: the embedded default serves everything, static files too, with uvicorn.

WhiteNoise answers with a file response whose body is a synchronous iterator, and Django's ASGI
handler then reads it whole on a thread and warns ("StreamingHttpResponse must consume
synchronous iterators…") at the first static file of every run. This handler gives Django the
same body as an asynchronous iterator, read off the event loop: the same bytes, no warning.
WSGI (gunicorn) does not pass here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import FileResponse, HttpRequest
from django.http.response import HttpResponseBase


def _chunks(body: Iterable[bytes]) -> list[bytes]:
    return list(body)


async def _read(body: Iterable[bytes]) -> AsyncIterator[bytes]:
    """The file's chunks, read on a worker thread (not the loop, nor the shared sync thread)."""
    for part in await sync_to_async(_chunks, thread_sensitive=False)(body):
        yield part


class Handler(ASGIHandler):
    """Django's ASGI handler; a file's body is read as an asynchronous iterator."""

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        response = await super().get_response_async(request)
        if isinstance(response, FileResponse) and not response.is_async:
            body = response.streaming_content
            assert isinstance(body, Iterable)  # noqa: S101 - not is_async: a sync iterator
            response.streaming_content = _read(body)
        return response


def get_application() -> Handler:
    """As ``django.core.asgi.get_asgi_application``, with this handler."""
    django.setup(set_prefix=False)
    return Handler()
