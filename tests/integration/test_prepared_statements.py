"""On PostgreSQL a query's parameters are bound by the server and a query a connection runs
again and again is prepared on it (issue 17: a move's statements parsed and planned once a
connection, not at every move; config/settings.py, docs/operations.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from tables.online import services as online_services
from tables.online.models import HandAction
from tests.tables.online_helpers import make_table, play_bots

pytestmark = [pytest.mark.integration]
ROOT = Path(__file__).resolve().parents[2]


def _options(tmp_path: Path, threshold: str) -> subprocess.CompletedProcess[str]:
    """The web entry point imported in a fresh process (as gunicorn does) with production's
    settings and ``DB_PREPARE_THRESHOLD``; it prints the database's options."""
    env = dict(
        os.environ, DJANGO_SETTINGS_MODULE="config.settings", FLOORMAN_VAR_DIR=str(tmp_path),
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/unused", DEBUG="0",
        SECRET_KEY="a-long-random-production-key", DB_PREPARE_THRESHOLD=threshold,
    )  # fmt: skip
    code = (
        "import config.wsgi; from django.conf import settings; "
        "print('OPTIONS', settings.DATABASES['default']['OPTIONS'])"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip


def _prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.django_db
def test_a_tables_moves_run_prepared_statements_on_their_connection(settings):
    settings.FLOORMAN_BOTS_PLAY_ALONE = True
    table = make_table()
    for number in range(1, 7):
        online_services.seat_bot(table=table, actor=table.created_by, number=number)
    assert _hand_locks() == []  # no hand yet
    play_bots(table, sweeps=80)
    assert HandAction.objects.filter(hand__table=table).count() >= 10
    # The hand's lock runs at every move: prepared, with its parameters bound by the server.
    locks = _hand_locks()
    assert locks, _prepared()
    assert all("$1" in s for s in locks)


def _hand_locks() -> list[str]:
    return [s for s in _prepared() if '"tables_tablehand"' in s and "FOR UPDATE" in s]


@pytest.mark.parametrize("value", ["abc", "0", "-3", "2.5"])
def test_a_bad_prepare_threshold_refuses_to_start_with_the_reason(value, tmp_path):
    done = _options(tmp_path, value)
    assert done.returncode != 0
    assert f"DB_PREPARE_THRESHOLD={value!r}: a number of runs (1 or more) or 'off'" in done.stderr
    assert "OPTIONS" not in done.stdout


@pytest.mark.parametrize(("value", "expected"), [("off", None), ("", None), ("12", 12)])
def test_the_prepare_threshold_is_read_or_turned_off(value, expected, tmp_path):
    done = _options(tmp_path, value)
    assert done.returncode == 0, done.stderr
    assert f"'prepare_threshold': {expected!r}" in done.stdout
    assert "'server_side_binding': True" in done.stdout
