"""CPU time of the server processes a benchmark drives: PostgreSQL's and Redis's besides Python's.

Read from ``/proc/<pid>/task/*/schedstat`` (nanoseconds on a CPU, every thread of the process),
so a figure is the process's own work, not the machine's wall time (the machine is shared). A
benchmark reads a process before and after what it measures: the PostgreSQL backend serving its
own connection (``pg_backend_pid()``), a Redis server of its own (``private_redis``: nobody
else's commands land on it), and PostgreSQL's background processes (the WAL writer, the
checkpointer...), which serve every database of the server, other helpers' too: noisy.

Linux only; a process that is gone reads as 0.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import redis

PROC = Path("/proc")


def cpu_seconds(pid: int) -> float:
    """Seconds the process (all its threads) has spent on a CPU so far; 0 if it is gone."""
    total = 0
    with contextlib.suppress(OSError):
        for task in (PROC / str(pid) / "task").iterdir():
            with contextlib.suppress(OSError, ValueError, IndexError):
                total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


def total_cpu(pids: Iterable[int]) -> float:
    return sum(cpu_seconds(pid) for pid in pids)


def command_line(pid: int) -> str:
    with contextlib.suppress(OSError):
        return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    return ""


def postgres_background_pids() -> list[int]:
    """PostgreSQL's own processes (postmaster, WAL writer, checkpointer, background writer,
    autovacuum, ...), not the client backends: the server's, shared by every database on it."""
    found = []
    for folder in PROC.glob("[0-9]*"):
        line = command_line(int(folder.name))
        if "postgres" not in line:
            continue
        # A client backend's title: "postgres: 15/main: <user> <database> <client> <state>".
        title = line.split(":", 2)[-1].strip() if line.startswith("postgres:") else ""
        words = title.split()
        backend = len(words) >= 3 and ("(" in words[2] or words[2] == "[local]")
        if not backend:
            found.append(int(folder.name))
    return sorted(found)


def background_readings() -> dict[int, float]:
    """CPU seconds so far of each of PostgreSQL's background processes (listed now)."""
    return {pid: cpu_seconds(pid) for pid in postgres_background_pids()}


def grown(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds spent between two readings by the processes read in the second: one that
    began since counts from 0, one that ended since is left out (its last part is missed)."""
    return sum(max(0.0, cpu - before.get(pid, 0.0)) for pid, cpu in after.items() if cpu)


def backend_pid(connection: object) -> int:
    """The PostgreSQL backend serving a Django connection."""
    with connection.cursor() as cursor:  # type: ignore[attr-defined]
        cursor.execute("select pg_backend_pid()")
        row = cursor.fetchone()
    return int(row[0])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def private_redis() -> Iterator[tuple[str, int]]:
    """A Redis server of the benchmark's own on a free loopback port, no persistence: its URL
    and pid. Stopped (and its folder removed) at the end."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is needed (apt-get install redis-server)")
    folder = tempfile.mkdtemp(prefix="bench-redis-")
    port = free_port()
    process = subprocess.Popen(  # noqa: S603 - our own command line
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", folder, "--logfile", str(Path(folder) / "redis.log")],
    )  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    try:
        client = redis.Redis.from_url(url, socket_timeout=1)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"redis-server did not start (log in {folder})") from None
                time.sleep(0.05)
        client.close()
        yield url, process.pid
    finally:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)
        if process.poll() is None:
            process.kill()
        shutil.rmtree(folder, ignore_errors=True)


def redis_commands(client: redis.Redis) -> int:
    """Commands the Redis server has processed so far (INFO stats; this read not counted)."""
    return int(client.info("stats")["total_commands_processed"])


class BackendSampler:
    """The CPU of one database's PostgreSQL backends over a window. Backends come and go (a
    stream's short connections): their pids are listed from ``pg_stat_activity`` (through a
    connection to another database, not counted) at each ``sample()``, and each one's CPU is
    its last reading less its reading at ``start()`` (0 if it began since). What a backend
    spends after the last sample before it ends is missed: sample often (twice a second)."""

    def __init__(self, admin_url: str, database: str) -> None:
        self.admin_url = admin_url
        self.database = database
        self.baseline: dict[int, float] = {}
        self.last: dict[int, float] = {}

    def _readings(self) -> dict[int, float]:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True, connect_timeout=5) as connection:
            rows = connection.execute(
                "select pid from pg_stat_activity where datname = %s", (self.database,)
            ).fetchall()
        return {int(pid): cpu_seconds(int(pid)) for (pid,) in rows}

    def start(self) -> None:
        self.baseline = self._readings()
        self.last = dict(self.baseline)

    def sample(self) -> None:
        for pid, cpu in self._readings().items():
            if cpu:  # a backend gone between the listing and the reading keeps its last
                self.last[pid] = max(cpu, self.last.get(pid, 0.0))

    def seconds(self) -> float:
        return sum(cpu - self.baseline.get(pid, 0.0) for pid, cpu in self.last.items())
