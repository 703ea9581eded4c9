"""Public fragments answered by content: an ETag of what the page would show, 304 when unchanged."""

from __future__ import annotations

import hashlib

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language


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
