"""Pages of events, structures and the clock: parse, call one service, render."""

from __future__ import annotations

from typing import Any

import segno
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control
from django.views.decorators.http import etag, require_GET
from django_htmx.middleware import HtmxDetails

from tournaments import clock_etag, live
from tournaments.display import ClockDisplay, clock_display, render_clock
from tournaments.models import Event


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _event_by_code(code: str) -> Event:
    return get_object_or_404(Event.objects.select_related("structure"), code=code)


# The clock fragment's view renders the reading its ETag was computed from: one read of the
# event and its levels per request (not two), and the ETag always matches the body.
_CLOCK_DISPLAY = "_floorman_clock_display"


def _clock_etag(request: HttpRequest, code: str) -> str | None:
    """The fragment's ETag: from the cache while it holds, else from the event (then cached)."""
    cached = clock_etag.cached_clock_etag(code)
    if cached is not None:
        return cached
    generation = clock_etag.clock_etag_generation(code)
    event = Event.objects.select_related("structure").filter(code=code).first()
    if event is None:
        return None
    display = clock_display(event)
    setattr(request, _CLOCK_DISPLAY, display)
    ends_at = display.reading.ends_at if display.is_running else None
    clock_etag.cache_clock_etag(code, display.etag, until=ends_at, generation=generation)
    return display.etag


def _live_context(request: HttpRequest, event: Event, *, refresh_url: str) -> dict[str, Any]:
    return {
        "event": event,
        "clock": clock_display(event),
        "refresh_url": refresh_url,
        "stream_url": reverse("tournaments:event_stream", args=[event.code]),
        "phone_url": request.build_absolute_uri(event.get_absolute_url()),
    }


@require_GET
def event_phone(request: HttpRequest, code: str) -> HttpResponse:
    """The public phone view of an event's clock: no log-in, fits a 360 px screen."""
    event = _event_by_code(code)
    refresh_url = reverse("tournaments:event_clock", args=[code])
    context = _live_context(request, event, refresh_url=refresh_url)
    return render(request, "tournaments/event_phone.html", context)


@require_GET
def event_tv(request: HttpRequest, code: str) -> HttpResponse:
    """The full-screen TV clock, readable across the room, with a QR code of the phone link."""
    event = _event_by_code(code)
    refresh_url = reverse("tournaments:event_clock", args=[code])
    context = _live_context(request, event, refresh_url=refresh_url)
    context["qr_svg"] = _qr_svg(context["phone_url"])
    return render(request, "tournaments/event_tv.html", context)


def _qr_svg(url: str) -> SafeString:
    # segno draws the SVG from our own URL: nothing user-written reaches the markup.
    svg = segno.make(url, error="m").svg_inline(scale=6, border=2, dark="#000", light="#fff")
    return mark_safe(svg)  # noqa: S308


@require_GET
@cache_control(no_cache=True)
@etag(_clock_etag)
def event_clock(request: HttpRequest, code: str) -> HttpResponse:
    """The clock fragment; answers If-None-Match with 304 while nothing changed.

    The body is the one the event stream carries (display.render_clock), byte for byte.
    """
    display: ClockDisplay | None = getattr(request, _CLOCK_DISPLAY, None)
    if display is None:
        display = clock_display(_event_by_code(code))
    return HttpResponse(render_clock(display))


def _stream_event(code: str) -> tuple[int, int, bool] | None:
    """The event of a stream, its clock version and whether it is played online, read without
    keeping a database connection for the stream's life.

    A stream stays open for hours, one per phone; under ASGI each request has its own thread
    and so its own connection, which would be held until the stream ends: 500 phones would need
    500 PostgreSQL connections (bench/clock_phones.py found it; the default limit is 100).
    """
    try:
        return Event.objects.filter(code=code).values_list("pk", "clock_version", "online").first()
    finally:
        if not connection.in_atomic_block:
            connection.close()


def _stream_user(request: HttpRequest) -> int | None:
    """The player logged in on an online event's stream, read (his session, his user) without
    keeping a database connection for the stream's life, as ``_stream_event``."""
    try:
        return request.user.pk if request.user.is_authenticated else None
    finally:
        if not connection.in_atomic_block:
            connection.close()


@require_GET
async def event_stream(request: HttpRequest, code: str) -> HttpResponseBase:
    """Server-sent events of one event: the clock's state as it changes, its board, `changed`
    nudges; on an online event's page (``?mine=1``) a `mine` nudge as well when the news of
    the player logged in names the event (his seat, a move, his bust: his part looks again).

    A tab that reconnects says which clock state it has (``Last-Event-ID``, or ``?last=`` when
    the page opens a new stream itself) and gets the current one at once if it is behind.
    """
    found = await sync_to_async(_stream_event)(code)
    if found is None:
        raise Http404
    event_id, version, online = found
    mine = online and "mine" in request.GET
    user_id = await sync_to_async(_stream_user)(request) if mine else None
    language = get_language()
    last_event_id = request.headers.get("Last-Event-ID") or request.GET.get("last")
    if isinstance(request, ASGIRequest):
        response = StreamingHttpResponse(
            live.stream_event(
                event_id,
                language=language,
                last_event_id=last_event_id,
                version=version,
                user_id=user_id,
            ),
            content_type="text/event-stream",
        )
    else:
        # A WSGI worker would be held by the stream: 204 tells EventSource to stop (the page
        # polls) unless the server is the threaded test server (LIVE_WSGI_STREAM_SECONDS).
        seconds = settings.LIVE_WSGI_STREAM_SECONDS
        if seconds <= 0:
            return HttpResponse(status=204)
        response = StreamingHttpResponse(
            live.stream_event_sync(
                event_id,
                seconds=seconds,
                language=language,
                last_event_id=last_event_id,
                version=version,
                user_id=user_id,
            ),
            content_type="text/event-stream",
        )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
