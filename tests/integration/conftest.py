"""Real processes for the integration tier: start them in their own group, always kill them.

Every helper fails (never skips) when PostgreSQL, Redis or a process is missing, so a broken
service shows up as a red test with its reason and the processes' logs.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = ROOT / ".venv" / "bin"
# A Redis database of its own (one per pytest-xdist worker), flushed before each test, so queued
# tasks never leak between tests or runs.
TEST_REDIS_DB = 5 + int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)


def wait_until(
    predicate: Callable[[], Any], *, timeout: float, what: str, interval: float = 0.1
) -> Any:
    """Poll until ``predicate()`` is truthy and return it; fail with ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def base_env(**overrides: str | None) -> dict[str, str]:
    """The test process's environment with overrides; a None value removes the variable."""
    env = dict(os.environ)
    env.update(DJANGO_SETTINGS_MODULE="config.settings", PYTHONUNBUFFERED="1")
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    for name, value in overrides.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


# A log line that says something went wrong (printed with a failed test's processes).
PROBLEM_LINE = re.compile(r"ERROR|CRITICAL|WARNING|Traceback|raised unexpected|Error: ")


class Processes:
    """Subprocesses of one test, each in its own process group, logged to files."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.running: dict[str, subprocess.Popen[bytes]] = {}
        self.logs: dict[str, Path] = {}

    def start(self, name: str, args: list[str], *, env: dict[str, str]) -> subprocess.Popen[bytes]:
        """Start ``args`` from the repository root as process ``name``."""
        if name in self.running and self.running[name].poll() is None:
            raise AssertionError(f"{name} is already running")
        log = self.log_dir / f"{name}.log"
        self.logs[name] = log
        with log.open("ab") as out:
            process = subprocess.Popen(
                args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
        self.running[name] = process
        return process

    def kill(self, *names: str, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to the whole group of each process named (its children too), all of
        them first, then reap them: a test that kills two processes at a moment kills both at
        it, however long the first takes to be reaped on a loaded machine."""
        processes = [self.running.pop(name) for name in names]
        for process in processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, sig)
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=15)
            # Children (Celery's pool processes) may outlive the leader for a moment.
            self._wait_group_gone(process.pid)

    def _wait_group_gone(self, pgid: int) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)

    def assert_alive(self, name: str) -> None:
        code = self.running[name].poll()
        if code is not None:
            pytest.fail(f"{name} exited with {code}:\n{self.tail(name)}")

    def tail(self, name: str, lines: int = 40) -> str:
        log = self.logs.get(name)
        if log is None or not log.exists():
            return "(no log)"
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])

    def stop_all(self) -> None:
        for name in list(self.running):
            self.kill(name)

    def problems(self, name: str, limit: int = 60) -> str:
        """The log's lines that say something went wrong, from its start (the tail may have
        scrolled past them)."""
        log = self.logs.get(name)
        if log is None or not log.exists():
            return ""
        lines = log.read_text(errors="replace").splitlines()
        return "\n".join([line for line in lines if PROBLEM_LINE.search(line)][:limit])

    def report(self) -> str:
        parts = []
        for name in self.logs:
            parts.append(f"--- {name} ---\n{self.tail(name)}")
            if problems := self.problems(name):
                parts.append(f"--- {name}: its problems, from the start ---\n{problems}")
        return "\n".join(parts)


@pytest.fixture
def processes(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Processes]:
    """A process manager whose processes all die at teardown; their logs print on failure."""
    manager = Processes(tmp_path)
    try:
        yield manager
    finally:
        manager.stop_all()
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            print(manager.report())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


def celery(*args: str) -> list[str]:
    return [str(VENV_BIN / "celery"), "-A", "config", *args]


def processes_database_url() -> str:
    """A DATABASE_URL for pytest-django's test database, for processes started by a test."""
    from django.db import connection

    assert connection.vendor == "postgresql", (
        "the integration tier needs DATABASE_URL=postgres://... (scripts/test.sh sets it); "
        f"this run uses {connection.vendor}"
    )
    info = connection.settings_dict
    credentials = info["USER"] + (f":{info['PASSWORD']}" if info["PASSWORD"] else "")
    return f"postgres://{credentials}@{info['HOST']}:{info['PORT'] or 5432}/{info['NAME']}"


@pytest.fixture
def postgres_test_url(django_db_setup: None) -> str:
    return processes_database_url()


@pytest.fixture
def redis_test_url() -> Iterator[str]:
    """A Redis URL on a database of its own, flushed before and after the test."""
    import redis

    main = os.environ.get("REDIS_URL")
    assert main, "the integration tier needs REDIS_URL=redis://... (scripts/test.sh sets it)"
    url = urlsplit(main)._replace(path=f"/{TEST_REDIS_DB}").geturl()
    client = redis.Redis.from_url(url, socket_timeout=5)
    client.flushdb()  # fails loudly if Redis is down
    yield url
    client.flushdb()
    client.close()


@contextlib.contextmanager
def uvicorn_server(log_dir: Path, *, redis_url: str) -> Iterator[str]:
    """uvicorn with config.asgi on the test database and ``redis_url`` as its bus; its base
    URL once it answers; stopped on leaving."""
    processes = Processes(log_dir)
    port = free_port()
    env = base_env(DATABASE_URL=processes_database_url(), REDIS_URL=redis_url, LIVE_BUS=None)
    processes.start(
        "uvicorn",
        [
            str(VENV_BIN / "uvicorn"), "config.asgi:application", "--host", "127.0.0.1",
            "--port", str(port), "--log-level", "warning",
        ],
        env=env,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"

    def up() -> bool:
        processes.assert_alive("uvicorn")
        try:
            return httpx.get(f"{base}/", timeout=2).status_code == 200
        except httpx.TransportError:
            return False

    try:
        wait_until(up, timeout=30, what="uvicorn to answer")
        yield base
    finally:
        processes.stop_all()
