"""A test-only URLconf: Floorman's URLs and a page whose htmx button swaps in a fragment with
two inline scripts, one with the fragment's nonce and one without (tests/browser/test_csp.py)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import include, path

PAGE = """{% extends "base.html" %}{% block main %}
<button type="button" hx-get="/csp-fragment/" hx-target="#slot">Load</button>
<div id="slot"></div>{% endblock %}"""

FRAGMENT = """<p data-testid="fragment">swapped</p>
<script nonce="{{ csp_nonce }}">document.body.dataset.marked = "yes";</script>
<script>document.body.dataset.injected = "yes";</script>"""


def _render(request: HttpRequest, source: str) -> HttpResponse:
    return HttpResponse(engines["django"].from_string(source).render({}, request))


urlpatterns = [
    path("csp-page/", lambda request: _render(request, PAGE)),
    path("csp-fragment/", lambda request: _render(request, FRAGMENT)),
    path("", include("config.urls")),
]
