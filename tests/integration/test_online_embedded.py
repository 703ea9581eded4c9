"""Online tables on the embedded default: SQLite, the file broker, the database bus, uvicorn
and one Celery worker with beat — the same processes as ``scripts/run.sh``. House bots play by
the beat's sweeper, a player sits down over HTTP and sees his own cards only, and a spectator's
stream follows every change."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import httpx
import pytest

from tests.integration.conftest import VENV_BIN, celery, free_port, wait_until
from tests.integration.sse import Stream, next_changed
from tests.integration.test_embedded_default import embedded_env, log_in, manage

pytestmark = pytest.mark.integration
__all__ = ["embedded_env"]  # the fixture, imported for this module's tests

OPEN_TABLE = (
    "from django.contrib.auth.models import User\n"
    "from tables.online import services as online_services\n"
    "floor = User.objects.get(username='floor')\n"
    "table = online_services.open_table(actor=floor, name='Embedded', seats=4,"
    " small_blind=5, big_blind=10)\n"
    "online_services.seat_bot(table=table, actor=floor)\n"
    "online_services.seat_bot(table=table, actor=floor)\n"
    "print(table.pk)\n"
)


def _rows(database: Path, sql: str, *args: object) -> list[tuple]:
    """A query on the embedded default's database, read-only beside its processes."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10) as connection:
        return connection.execute(sql, args).fetchall()


def finished_hands(database: Path, table_id: int) -> int:
    sql = "select count(*) from tables_tablehand where table_id = ? and is_over"
    return int(_rows(database, sql, table_id)[0][0])


def broke_bots(database: Path, table_id: int) -> int:
    """House bots at the table with no chips left: a broke seat sits out (no rebuy for bots)."""
    sql = "select count(*) from tables_onlineseat where table_id = ? and is_bot and stack = 0"
    return int(_rows(database, sql, table_id)[0][0])


def table_state(database: Path, table_id: int) -> str:
    """The table, its hands and its seats as the database holds them (for a failure's
    message: why nothing was dealt)."""
    table = _rows(
        database,
        "select status, next_hand_at, hands_dealt from tables_onlinetable where id = ?",
        table_id,
    )
    hands = _rows(
        database,
        "select number, is_over, sequence, actor, deadline from tables_tablehand"
        " where table_id = ? order by number",
        table_id,
    )
    seats = _rows(
        database,
        "select number, is_bot, stack, status from tables_onlineseat where table_id = ?"
        " order by number",
        table_id,
    )
    return f"table (status, next hand at, dealt): {table}\nhands: {hands}\nseats: {seats}"


def seat_chunks(fragment: str) -> dict[str, str]:
    """Each seat's part of a table fragment, by seat number (the board comes before them)."""
    parts = re.split(r'data-testid="seat-(\d+)"', fragment)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def test_bots_deal_and_play_on_the_embedded_default_and_a_player_sits_down(
    processes, embedded_env, tmp_path
):
    var = tmp_path / "var"
    port = free_port()
    embedded_env["TABLE_SWEEP_SECONDS"] = "0.5"
    embedded_env["FLOORMAN_BOTS_PLAY_ALONE"] = "1"  # the two bots deal before the player sits
    manage(embedded_env, "migrate", "--noinput", "-v0")
    manage(embedded_env, "floorman_setup", "--url", f"http://127.0.0.1:{port}")
    table_id = int(manage(embedded_env, "shell", "--verbosity", "0", "-c", OPEN_TABLE).strip())
    database = var / "floorman.sqlite3"
    processes.start(
        "worker",
        celery(
            "worker", "--beat", "--concurrency", "1", "--loglevel", "INFO",
            "--schedule", str(var / "celerybeat-schedule"),
        ),
        env=embedded_env,
    )  # fmt: skip
    processes.start(
        "web",
        [
            str(VENV_BIN / "uvicorn"), "config.asgi:application", "--host", "127.0.0.1",
            "--port", str(port), "--log-level", "warning",
        ],
        env=embedded_env,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    with httpx.Client(base_url=base, timeout=10) as client:

        def web_up() -> bool:
            processes.assert_alive("web")
            try:
                return client.get("/play/").status_code == 200
            except httpx.TransportError:
                return False

        wait_until(web_up, timeout=30, what="uvicorn to serve the lobby")
        # A spectator's stream (no log-in) on the database bus.
        stream = Stream(f"{base}/play/events/?t={table_id}")
        stream.wait_connected()
        _at, first = next_changed(stream, timeout=10)
        assert first == {"table": table_id, "version": first["version"]}

        # The beat's sweeper deals and the bots play: hands finish with nobody pressing. Two
        # hands, or one that left a bot broke (he sits out; the table waits for a player).
        def played() -> bool:
            hands = finished_hands(database, table_id)
            return hands >= 2 or (hands == 1 and broke_bots(database, table_id) > 0)

        try:
            wait_until(
                played, timeout=90, what="two bot hands finished by the sweeper on the file broker"
            )
        except pytest.fail.Exception as failure:
            pytest.fail(f"{failure}\n{table_state(database, table_id)}")
        versions = [next_changed(stream, timeout=15)[1]["version"] for _ in range(3)]
        assert versions == sorted(versions) and versions[-1] > first["version"]
        stream.close()
        processes.assert_alive("worker")

        # A player sits down through the page's form and is dealt in by the sweeper.
        log_in(client, "player", "floorman-player")
        page = client.get(f"/play/t/{table_id}/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        assert token, "the table page has no form for a player"
        sat = client.post(
            f"/play/t/{table_id}/sit/",
            data={"seat": "3", "buy_in": "500", "csrfmiddlewaretoken": token[1]},
        )
        assert sat.status_code == 302, sat.text[:500]

        def dealt_my_cards() -> dict[str, str] | None:
            fragment = client.get(f"/play/t/{table_id}/state/", headers={"X-Floorman": "table"})
            seats = seat_chunks(fragment.text)
            live = 'data-over="1"' not in fragment.text
            return seats if live and "data-card=" in seats.get("3", "") else None

        seats = wait_until(dealt_my_cards, timeout=60, what="the player to be dealt in")
        assert seats["3"].count("data-card=") == 2  # his own two cards, during the hand
        for number, html in seats.items():
            if number != "3":
                assert "data-card=" not in html, f"seat {number}'s cards on the player's page"
    processes.assert_alive("web")
