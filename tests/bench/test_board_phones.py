"""bench/board_phones.py's own parts: what a phone reads off the board, and the report."""

from __future__ import annotations

import argparse

from bench.board_phones import Phone, Stats, render


def test_a_phone_notes_each_new_count_of_players_left_once():
    phone = Phone(0, argparse.Namespace(), Stats())
    phone.show(b'<dd data-testid="players-left">150 / 300</dd>')
    phone.show(b'<dd data-testid="players-left">150 / 300</dd>')  # the same board again
    phone.show(b'<dd data-testid="players-left">149 / 300</dd>')
    phone.show(b"<p>no standings</p>")
    assert [left for _when, left in phone.shown] == [150, 149]


def report(design: str, p95: float, cpu: float) -> dict:
    change = {"p50": p95 / 2, "p95": p95, "max": p95 + 1, "missing": 0}
    during = {"requests": 0 if design == "carried" else 10, "statuses": {}, "p95": 1.0}
    return {
        "design": design,
        "busts": [change, change],
        "bust_then_pause": {"bust": change, "pause": change},
        "board_requests_during_busts": during,
        "cpu_seconds_during_busts": {"gunicorn": cpu, "uvicorn": 0.1},
        "steady": {"requests": 3},
        "bus_gap": {
            "subscriptions_killed": 1,
            "bust": change,
            "board_requests": during,
            "cpu_seconds": {"gunicorn": cpu, "uvicorn": 0.1},
        },
        "errors": {},
    }


def test_the_report_sets_the_designs_side_by_side_with_the_cpu_ratio():
    args = argparse.Namespace(busts=2, entries=30, out=10, phones=5, steady_seconds=30.0)
    text = render([report("carried", 200.0, 0.5), report("fetch", 5000.0, 42.5)], args, "cmd")
    assert "| bust 2 | 100.0 / 200.0 / 201.0, 0 | 2500.0 / 5000.0 / 5001.0, 0 |" in text
    assert "| board requests | 0 | 10 |" in text
    assert "gunicorn's CPU over the busts, fetch / carried: 85.0x." in text
