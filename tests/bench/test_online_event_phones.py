"""bench/online_event_phones.py's own parts: what a phone reads off the field, and the report."""

from __future__ import annotations

import argparse

import pytest

from bench.board_phones import Stats
from bench.online_event_phones import Phone, render
from tests.factories import make_user
from tests.scoring.online_event_helpers import online_event, register_bots


def test_a_phone_notes_each_new_count_of_players_registered_once():
    phone = Phone(0, argparse.Namespace(), Stats())
    phone.show(b'<p data-testid="start-rule" data-registered="200">Starts when ...</p>')
    phone.show(b'<p data-testid="start-rule" data-registered="200">Starts when ...</p>')
    phone.show(b'<p data-testid="start-rule" data-registered="201">Beginnt, wenn ...</p>')
    phone.show(b"<p>no field</p>")
    assert [count for _when, count in phone.shown] == [200, 201]


@pytest.mark.django_db
def test_the_field_on_the_page_says_how_many_registered(client):
    """The figure the phones read is the page's own: the field's players registered."""
    event = online_event(start_players=30)
    register_bots(event, 3, make_user(username="floor", role="floor"))
    html = client.get(f"/play/e/{event.pk}/field/").content
    phone = Phone(0, argparse.Namespace(), Stats())
    phone.show(html)
    assert [count for _when, count in phone.shown] == [3]


def report(design: str, p95: float, cpu: float) -> dict:
    change = {"p50": p95 / 2, "p95": p95, "max": p95 + 1, "missing": 0}
    requests = 0 if design == "stream" else 10
    return {
        "design": design,
        "streams_open": 5 if design == "stream" else 0,
        "steady": {"requests": requests, "cpu": {"gunicorn": cpu, "uvicorn": 0.1}},
        "registrations": [change, change],
        "requests_during_registrations": {"requests": requests, "statuses": {}},
        "cpu_seconds_during_registrations": {"gunicorn": cpu, "uvicorn": 0.1},
        "errors": {},
    }


def test_the_report_sets_the_designs_side_by_side_with_the_cpu_ratio():
    args = argparse.Namespace(
        registrations=2, registered=200, start_players=1_000, phones=5, steady_seconds=30.0
    )
    text = render([report("stream", 30.0, 0.5), report("poll", 3000.0, 42.5)], args, "cmd")
    assert "| 2 | 15.0 / 30.0 / 31.0, 0 | 1500.0 / 3000.0 / 3001.0, 0 |" in text
    assert "| 30 s of quiet: requests | 0 | 10 |" in text
    assert "(gunicorn and uvicorn), poll / stream: 71.0x." in text
