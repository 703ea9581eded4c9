"""The embedded default works with no servers: SQLite, a file broker, one web process.

The same processes as ``scripts/run.sh`` (migrate, floorman_setup, a Celery worker with beat,
uvicorn), with DATABASE_URL and REDIS_URL unset and everything under a temporary FLOORMAN_VAR_DIR.
"""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.integration.conftest import ROOT, VENV_BIN, base_env, celery, free_port, wait_until
from tests.integration.sse import Stream, next_clock

pytestmark = pytest.mark.integration

STREAMS = 100  # phones holding the clock's stream while the pages must still answer


@pytest.fixture
def embedded_env(tmp_path: Path) -> dict[str, str]:
    return base_env(
        DATABASE_URL=None,
        REDIS_URL=None,
        LIVE_BUS=None,
        CELERY_TASK_ALWAYS_EAGER=None,
        FLOORMAN_VAR_DIR=str(tmp_path / "var"),
        CLOCK_RECONCILE_SECONDS="0.5",
        SECRET_KEY=None,  # as `make run`: the embedded default keeps its own key under var/
    )


def manage(env: dict[str, str], *args: str) -> str:
    """Run one manage.py command to completion; fail with its output if it fails."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
        text=True, timeout=180, check=False,
    )  # fmt: skip
    assert result.returncode == 0, f"manage.py {args[0]} failed:\n{result.stdout}{result.stderr}"
    return result.stdout


def floor_shell(env: dict[str, str], code: str) -> str:
    """Python run by ``manage.py shell`` with the demo event as ``event`` and floor as ``floor``."""
    prelude = (
        "from django.contrib.auth.models import User\n"
        "from tournaments import services\n"
        "from tournaments.models import Event\n"
        "event = Event.objects.get(code='demo')\n"
        "floor = User.objects.get(username='floor')\n"
    )
    return manage(env, "shell", "--verbosity", "0", "-c", prelude + code)


def level_starts(database: Path) -> list[tuple[int, int, str]]:
    """(sequence, level index, cause) of every recorded level start, read straight from SQLite."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10) as connection:
        rows = connection.execute(
            "select sequence, level_index, cause from tournaments_levelstart order by sequence"
        )
        return [tuple(row) for row in rows]


def log_in(client: httpx.Client, username: str, password: str) -> None:
    """Log in through the real form, CSRF token and all."""
    form = client.get("/accounts/login/")
    assert form.status_code == 200
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text)
    assert token, "the log-in form has no CSRF token"
    response = client.post(
        "/accounts/login/",
        data={"username": username, "password": password, "csrfmiddlewaretoken": token[1]},
    )
    assert response.status_code == 302, f"log-in failed: {response.status_code}"
    assert "sessionid" in client.cookies


def test_embedded_default_serves_the_demo_and_its_worker_records_level_changes(
    processes, embedded_env, tmp_path
):
    var = tmp_path / "var"
    port = free_port()
    manage(embedded_env, "migrate", "--noinput", "-v0")
    setup = manage(embedded_env, "floorman_setup", "--url", f"http://127.0.0.1:{port}")
    assert f"http://127.0.0.1:{port}/e/demo/" in setup
    database = var / "floorman.sqlite3"
    assert database.exists(), "the embedded default did not put SQLite under FLOORMAN_VAR_DIR"

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

    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:

        def web_up() -> bool:
            processes.assert_alive("web")
            try:
                return client.get("/").status_code == 200
            except httpx.TransportError:
                return False

        wait_until(web_up, timeout=30, what="uvicorn to serve the start page")
        phone = client.get("/e/demo/")
        assert phone.status_code == 200
        assert "Friday Deepstack" in phone.text

        log_in(client, "floor", "floorman-floor")
        start_clock(client, demo_event_pk(database))
        assert level_starts(database) == [(1, 0, "floor")]

        # A phone's event stream on the database bus (no Redis here).
        stream = Stream(f"http://127.0.0.1:{port}/e/demo/events/")
        stream.wait_connected()

        # Take all but two seconds off level 1: beat and the worker announce level 2 themselves.
        floor_shell(
            embedded_env,
            "left = int(event.read_clock().remaining.total_seconds())\n"
            "services.act_on_clock(event_id=event.pk, actor=floor,"
            " action=services.ClockAction.ADD_TIME, seconds=2 - left)\n",
        )
        processes.assert_alive("worker")
        wait_until(
            lambda: len(level_starts(database)) > 1,
            timeout=30,
            what="the worker on the file broker to record level 2",
        )
        assert level_starts(database) == [(1, 0, "floor"), (2, 1, "clock")]
        # The stream carries the clock's state: on connect, after the floor's change, and when
        # the worker announces level 2.
        states = [next_clock(stream, timeout=10)[1] for _ in range(3)]
        assert [(s["what"], s["version"], s["level_index"]) for s in states] == [
            ("clock", 1, 0),
            ("clock", 2, 0),
            ("level", 3, 1),
        ], "the worker's announcement did not reach the stream"
        stream.close()
        assert (var / "broker").is_dir()
        reading = floor_shell(embedded_env, "print(event.read_clock().level_index)")
        assert reading.strip() == "1"
    processes.assert_alive("worker")
    processes.assert_alive("web")


def start_clock(client: httpx.Client, event_pk: int) -> None:
    """The floor presses Start on the demo event's dashboard (the form, not JavaScript)."""
    dashboard = client.get(f"/events/{event_pk}/floor/")
    assert dashboard.status_code == 200, f"the floor dashboard answered {dashboard.status_code}"
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', dashboard.text)
    version = re.search(r'name="expected_version" value="(\d+)"', dashboard.text)
    assert token and version, "the dashboard has no clock form"
    response = client.post(
        f"/events/{event_pk}/clock/",
        data={"action": "start", "expected_version": version[1], "csrfmiddlewaretoken": token[1]},
    )
    assert response.status_code == 303, f"start answered {response.status_code}"
    assert client.get(f"/events/{event_pk}/floor/").status_code == 200


def demo_event_pk(database: Path) -> int:
    """The demo event's id, read straight from SQLite (the dashboard URL takes it)."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10) as connection:
        row = connection.execute("select id from tournaments_event where code = 'demo'").fetchone()
    assert row, "floorman_setup made no demo event"
    return int(row[0])


# -- make run's supervisor (scripts/supervise.py, issue 16) -------------------------------------


def running_pid(var: Path, name: str) -> int | None:
    """The pid the supervisor wrote for ``name``, if that process is alive."""
    try:
        pid = int((var / "run" / f"{name}.pid").read_text())
        os.kill(pid, 0)
    except (FileNotFoundError, ValueError, ProcessLookupError):
        return None
    return pid


def make_run(processes, env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int, Path]:
    """What `make run` does after its set-up: migrate, the demo, then the supervisor."""
    var = Path(env["FLOORMAN_VAR_DIR"])
    port = free_port()
    manage(env, "migrate", "--noinput", "-v0")
    manage(env, "floorman_setup", "--url", f"http://127.0.0.1:{port}")
    supervisor = processes.start(
        "make-run", [sys.executable, "scripts/supervise.py", "--port", str(port)], env=env
    )

    def all_up() -> bool:
        processes.assert_alive("make-run")
        if not all(running_pid(var, name) for name in ("web", "worker", "beat")):
            return False
        try:
            return httpx.get(f"http://127.0.0.1:{port}/", timeout=5).status_code == 200
        except httpx.TransportError:
            return False

    wait_until(all_up, timeout=60, what="make run's web, worker and beat")
    return supervisor, port, var


def test_make_run_starts_a_killed_worker_and_beat_again_and_their_work_goes_on(
    processes, embedded_env
):
    _supervisor, port, var = make_run(processes, embedded_env)
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
        log_in(client, "floor", "floorman-floor")
        start_clock(client, demo_event_pk(var / "floorman.sqlite3"))
        killed = {}
        for name in ("worker", "beat"):
            killed[name] = running_pid(var, name)
            os.killpg(killed[name], signal.SIGKILL)  # the process and its pool, at once
        for name, pid in killed.items():
            wait_until(
                lambda name=name, pid=pid: running_pid(var, name) not in (None, pid),
                timeout=30,
                what=f"the supervisor to start the {name} again",
            )
            # The site stayed up meanwhile.
        assert client.get("/e/demo/").status_code == 200
        # The new beat and worker run the reconciler: level 2 is recorded when level 1 ends.
        floor_shell(
            embedded_env,
            "left = int(event.read_clock().remaining.total_seconds())\n"
            "services.act_on_clock(event_id=event.pk, actor=floor,"
            " action=services.ClockAction.ADD_TIME, seconds=2 - left)\n",
        )
        database = var / "floorman.sqlite3"
        wait_until(
            lambda: len(level_starts(database)) > 1,
            timeout=30,
            what="the restarted worker to record level 2",
        )
        assert level_starts(database) == [(1, 0, "floor"), (2, 1, "clock")]
    processes.assert_alive("make-run")
    assert "worker exited with -9; starting it again" in processes.tail("make-run", lines=400)


def test_with_many_streams_open_pages_answer_and_ctrl_c_stops_everything_within_seconds(
    processes, embedded_env
):
    """One make run for both (each costs a migrate): phones hold STREAMS streams, the pages
    still answer; then Ctrl-C ends every process and every stream within a few seconds."""
    supervisor, port, var = make_run(processes, embedded_env)
    children = {name: running_pid(var, name) for name in ("web", "worker", "beat")}
    streams = [Stream(f"http://127.0.0.1:{port}/e/demo/events/") for _ in range(STREAMS)]
    for stream in streams:
        stream.wait_connected()
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
        for path in ("/", "/e/demo/", "/e/demo/clock/", "/play/"):
            started = time.monotonic()
            response = client.get(path)
            assert response.status_code == 200, path
            assert time.monotonic() - started < 3, f"{path} took too long"

    pressed = time.monotonic()
    os.killpg(supervisor.pid, signal.SIGINT)  # what a terminal's Ctrl-C sends
    supervisor.wait(timeout=30)
    took = time.monotonic() - pressed
    for name, pid in children.items():
        with pytest.raises(ProcessLookupError):
            os.killpg(pid, 0)  # neither the process nor anything of its group is left
        assert not (var / "run" / f"{name}.pid").exists()
    assert supervisor.returncode == 0
    assert took < 8, f"Ctrl-C took {took:.1f} s"
    for stream in streams:
        stream._thread.join(timeout=5)
        assert not stream._thread.is_alive(), "a stream was still open after Ctrl-C"
    # uvicorn ended its streams itself (--timeout-graceful-shutdown), it was not killed. (A
    # worker busy with a task on a loaded machine may be: the supervisor's 5 s are its limit.)
    assert "web did not stop" not in processes.tail("make-run", lines=400)
