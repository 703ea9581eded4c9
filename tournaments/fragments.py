"""Public fragments answered by content: an ETag of what the page would show, 304 when unchanged."""

from __future__ import annotations

import hashlib

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language

from tournaments import live_board
from tournaments.models import Event


def conditional_fragment(request: HttpRequest, html: str) -> HttpResponse:
    """``html`` with an ETag of its text (and language); If-None-Match answers 304."""
    digest = hashlib.sha256(f"{get_language()}|{html}".encode()).hexdigest()[:32]
    etag = f'"{digest}"'
    if etag in [t.strip() for t in request.headers.get("If-None-Match", "").split(",")]:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(html)
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


def board_fragment(request: HttpRequest, part: str, **event: object) -> HttpResponse:
    """One part of an event's board (standings, chip-up banner, an online event's field) as a
    conditional fragment, with the stamp of its reading: a page keeps it only if it is newer
    than the board it shows. 404 for a part the event's board has not."""
    stamp = live_board.board_stamp()  # before the reading, as a published board's
    found = get_object_or_404(Event.objects.select_related("structure"), **event)
    if part not in live_board.parts_of(found):
        raise Http404
    response = conditional_fragment(request, live_board.render_part(found, part))
    response[live_board.STAMP_HEADER] = str(stamp)
    return response
