"""500 phones watching the clock on the production processes of this machine.

Starts a private Redis (so nothing else's pub/sub reaches the streams), a fresh PostgreSQL
database ``floorman_bench``, gunicorn (config.wsgi) for the pages and the clock fragment,
uvicorn (config.asgi) for the event streams, and a Celery worker and beat for the natural level
change; then runs bench/clock_load.py as a separate process on loopback and prints its figures.
One full run per gunicorn CONN_MAX_AGE given (default: 60, the settings' default on
PostgreSQL; `--conn-max-age 0 60` compares with a new connection per request), each about two
minutes; everything started is stopped at the end, whatever happens.

    .venv/bin/python bench/clock_phones.py                  # the full run
    .venv/bin/python bench/clock_phones.py --phones 50 --steady-seconds 10 --pushes 2 \
        --conn-max-age 60                                    # a quick look while developing
    .venv/bin/python bench/clock_phones.py --write-results  # also update bench/RESULTS.md
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import httpx
import psycopg

ROOT = Path(__file__).resolve().parents[1]
BIN = ROOT / ".venv" / "bin"
SECTION = "## Clock: 500 phones (bench/clock_phones.py)"
GOAL_FRAGMENT_P95_MS = 100.0
GOAL_PUSH_P95_MS = 1000.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Processes:
    """Servers in their own process groups, logged to files; all killed on exit."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.running: list[tuple[str, subprocess.Popen[bytes]]] = []

    def start(self, name: str, args: list[str], env: dict[str, str]) -> None:
        with (self.folder / f"{name}.log").open("wb") as log:
            process = subprocess.Popen(
                args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
        self.running.append((name, process))

    def check(self) -> None:
        for name, process in self.running:
            if process.poll() is not None:
                log = (self.folder / f"{name}.log").read_text(errors="replace")[-3000:]
                raise SystemExit(f"{name} exited with {process.returncode}:\n{log}")

    def stop(self) -> None:
        for _name, process in reversed(self.running):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for _name, process in reversed(self.running):
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)
        self.running.clear()


@contextlib.contextmanager
def servers(args: argparse.Namespace, folder: Path, conn_max_age: int) -> Iterator[dict[str, Any]]:
    """The production processes on a fresh database; yields their ports and the event's id."""
    processes = Processes(folder)
    try:
        redis_port = free_port()
        processes.start(
            "redis",
            ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no"],
            os.environ.copy(),
        )  # fmt: skip
        database_url = recreate_database(args.database)
        env = dict(
            os.environ,
            DJANGO_SETTINGS_MODULE="config.settings",
            DATABASE_URL=database_url,
            REDIS_URL=f"redis://127.0.0.1:{redis_port}/0",
            DEBUG="0",
            LOG_LEVEL="WARNING",
        )
        env.pop("LIVE_BUS", None)
        web_port, events_port = free_port(), free_port()
        manage(env, "migrate", "--noinput", "-v0")
        manage(env, "floorman_setup", "--url", f"http://127.0.0.1:{web_port}")
        processes.start(
            "gunicorn",
            [str(BIN / "gunicorn"), "config.wsgi", "--workers", str(args.web_workers),
             "--bind", f"127.0.0.1:{web_port}", "--backlog", "2048"],
            dict(env, CONN_MAX_AGE=str(conn_max_age)),
        )  # fmt: skip
        processes.start(
            "uvicorn",
            [str(BIN / "uvicorn"), "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(events_port), "--log-level", "warning", "--backlog", "2048"],
            env,
        )  # fmt: skip
        processes.start(
            "worker",
            [str(BIN / "celery"), "-A", "config", "worker", "--concurrency", "1",
             "--loglevel", "WARNING", "--without-gossip", "--without-mingle"],
            env,
        )  # fmt: skip
        processes.start(
            "beat",
            [str(BIN / "celery"), "-A", "config", "beat", "--loglevel", "WARNING",
             "--schedule", str(folder / "beat-schedule"), "--pidfile", str(folder / "beat.pid")],
            env,
        )  # fmt: skip
        wait_for_http(processes, f"http://127.0.0.1:{web_port}/e/demo/")
        wait_for_http(processes, f"http://127.0.0.1:{events_port}/")
        with psycopg.connect(database_url.replace("postgres://", "postgresql://")) as connection:
            row = connection.execute("select id from tournaments_event where code = 'demo'")
            event_pk = row.fetchone()[0]  # type: ignore[index]
        yield {
            "web_port": web_port, "events_port": events_port, "event_pk": event_pk,
            "database_url": database_url,
        }  # fmt: skip
        processes.check()
    finally:
        processes.stop()


def recreate_database(name: str) -> str:
    """Drop and create the bench database; its DATABASE_URL."""
    if not name.replace("_", "").isalnum():
        raise SystemExit(f"not a plain database name: {name}")
    admin = "postgresql://postgres@127.0.0.1:5432/postgres"
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            connection.execute(f'CREATE DATABASE "{name}"')
    except psycopg.Error as error:
        raise SystemExit(f"PostgreSQL at 127.0.0.1:5432 is needed: {error}") from error
    return f"postgres://postgres@127.0.0.1:5432/{name}"


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([str(BIN / "python"), "manage.py", *args], cwd=ROOT, env=env, check=True)


def wait_for_http(processes: Processes, url: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        processes.check()
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(url, timeout=2).status_code < 500:
                return
        time.sleep(0.2)
    raise SystemExit(f"{url} did not answer within {timeout:.0f} s")


def run_load(args: argparse.Namespace, ports: dict[str, Any]) -> dict[str, Any]:
    command = [
        str(BIN / "python"), str(ROOT / "bench" / "clock_load.py"),
        "--web-port", str(ports["web_port"]), "--events-port", str(ports["events_port"]),
        "--event-pk", str(ports["event_pk"]), "--phones", str(args.phones),
        "--database-url", ports["database_url"],
        "--steady-seconds", str(args.steady_seconds), "--pushes", str(args.pushes),
        "--connections", str(args.connections),
        "--throughput-seconds", str(args.throughput_seconds),
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
    if result.returncode != 0:
        raise SystemExit(f"the load process failed:\n{result.stdout}\n{result.stderr}")
    return dict(json.loads(result.stdout))


def row(name: str, s: dict[str, Any]) -> str:
    cells = [s.get("count", 0), s.get("p50", "-"), s.get("p95", "-"), s.get("max", "-")]
    return f"| {name} | " + " | ".join(str(cell) for cell in cells) + " |"


def render(runs: list[tuple[int, dict[str, Any]]], args: argparse.Namespace, command: str) -> str:
    """The RESULTS.md section: how it was run, then the figures of each configuration."""
    phones, streams = runs[0][1]["phones"], runs[0][1]["streams_connected"]
    lines = [
        SECTION,
        "",
        f"Command (from the repository root): `{command}`",
        "",
        f"Date: {date.today().isoformat()}. Machine: 2 cores shared with other jobs; servers and "
        "load generator on the same cores, so figures vary a lot from run to run; compare the "
        "ratios. Processes as in the Procfile: PostgreSQL 15, a private Redis, gunicorn "
        f"config.wsgi ({args.web_workers} sync workers), uvicorn config.asgi (1 process) for the "
        "event streams, one Celery worker and beat (CLOCK_RECONCILE_SECONDS=1). Load: "
        "bench/clock_load.py, one asyncio process on loopback.",
        "",
        f"{phones} phones arriving 100 a second ({streams} event streams open). Each does what "
        "static/js/clock.js does: a conditional GET of the clock fragment every 5 s, another on "
        "every `changed`, one a second once the level has run out. The floor logs in and posts "
        f"{args.pushes} pause/resume actions through the dashboard form, then cuts the level to "
        "3 s so beat's reconciler announces the next one.",
        "",
    ]
    for conn_max_age, report in runs:
        lines += render_run(conn_max_age, report, args)
    return "\n".join(lines + FINDINGS)


FINDINGS = [
    "### What limited it, and what was done (profiled with cProfile and pg_stat_activity)",
    "",
    "- With CONN_MAX_AGE=0 every fragment request opened a PostgreSQL connection (20-50 ms on "
    "this machine, more than the request itself): gunicorn saturated below the 100 req/s that "
    "500 phones polling every 5 s need. The settings now keep connections for 60 s (with health "
    "checks) on PostgreSQL; the event-stream process keeps 0 (Procfile).",
    "- Each open event stream held a database connection for its whole life: 500 phones needed "
    "500 PostgreSQL connections against a limit of 100. The stream closes it after the event "
    "lookup (tests/integration/test_event_stream.py checks it).",
    "- The fragment's 200 read the event and its levels twice; it renders the reading its ETag "
    "came from. The 304 is answered from a cached ETag with no query at all; every clock write "
    "drops it on commit and it never outlives the level in force "
    "(tests/tournaments/test_clock_etag_cache.py).",
    "- Every push made all phones refetch in the same instant; clock.js spreads the refetch "
    "over 0.5 s.",
    "",
]


def render_run(conn_max_age: int, report: dict[str, Any], args: argparse.Namespace) -> list[str]:
    steady, push, tp = report["steady"], report["push"], report["throughput"]
    cond, full, static = tp["conditional_304"], tp["full_200"], tp["static_file"]
    failures = {k: v for k, v in report["errors"].items() if not k.startswith("late:")}
    late = {k: v for k, v in report["errors"].items() if k.startswith("late:")}
    errors = sum(failures.values()) + cond["errors"] + full["errors"] + static["errors"]
    fragment_ok = steady["fragment"].get("p95", 1e9) < GOAL_FRAGMENT_P95_MS
    push_ok = push["push_from_commit"].get("p95", 1e9) < GOAL_PUSH_P95_MS
    shipped = " (the settings' default on PostgreSQL)" if conn_max_age == 60 else ""
    herd = report["push_fragments"]
    return [
        f"### gunicorn with CONN_MAX_AGE={conn_max_age}{shipped}",
        "",
        f"Phones polling for {steady['seconds']:.0f} s (statuses {steady['statuses']}):",
        "",
        "| clock fragment | count | p50 ms | p95 ms | max ms |",
        "|---|---:|---:|---:|---:|",
        row("all", steady["fragment"]),
        row("304 Not Modified", steady["fragment_304"]),
        row("200 full", steady["fragment_200"]),
        "",
        "| push, to every phone | count | p50 ms | p95 ms | max ms |",
        "|---|---:|---:|---:|---:|",
        row("floor action: commit → `changed` received", push["push_from_commit"]),
        row("floor action: POST sent → `changed` received", push["push_from_post"]),
        row("floor action: POST sent → new fragment shown", push["push_to_fresh_fragment"]),
        row("natural level: commit → `changed`", push["level_push_from_commit"]),
        row("natural level: boundary → `changed`", push["level_push_from_boundary"]),
        row("natural level: boundary → new fragment", push["level_fresh_from_boundary"]),
        row("the floor's POST (303) itself", push["floor_post"]),
        "",
        f"The refetch herd after the pushes: fragment p50 {herd['fragment'].get('p50')} ms, "
        f"p95 {herd['fragment'].get('p95')} ms (statuses {herd['statuses']}).",
        "",
        f"Throughput against peers, closed loop ({args.connections} connections, "
        f"{args.throughput_seconds:.0f} s each, same gunicorn):",
        "",
        "| request | req/s | p50 ms | p95 ms | req/s vs the fragment's 304 |",
        "|---|---:|---:|---:|---:|",
        f"| clock fragment, If-None-Match → 304 | {cond['rps']} | {cond.get('p50')} | "
        f"{cond.get('p95')} | 1.00x |",
        f"| peer: same fragment, no If-None-Match → 200 | {full['rps']} | {full.get('p50')} | "
        f"{full.get('p95')} | {full['rps'] / cond['rps']:.2f}x |",
        f"| peer: static file (whitenoise, clock.js) | {static['rps']} | {static.get('p50')} | "
        f"{static.get('p95')} | {static['rps'] / cond['rps']:.2f}x |",
        "",
        f"Errors: {errors} ({failures or 'none'}); late: {late or 'none'}. Goals: fragment p95 < "
        f"{GOAL_FRAGMENT_P95_MS:.0f} ms — {'met' if fragment_ok else 'MISSED'}; push p95 < "
        f"{GOAL_PUSH_P95_MS:.0f} ms — {'met' if push_ok else 'MISSED'}.",
        "",
    ]


def write_results(section: str) -> None:
    """Replace (or append) this benchmark's section of bench/RESULTS.md; others stay as they are."""
    path = ROOT / "bench" / "RESULTS.md"
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    start = text.find(SECTION)
    if start == -1:
        text = text.rstrip("\n") + "\n\n" + section
    else:
        end = text.find("\n## ", start + len(SECTION))
        text = text[:start] + section + ("" if end == -1 else "\n" + text[end + 1 :])
    path.write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--phones", type=int, default=500)
    parser.add_argument("--steady-seconds", type=float, default=30.0)
    parser.add_argument("--pushes", type=int, default=6)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--throughput-seconds", type=float, default=10.0)
    parser.add_argument("--web-workers", type=int, default=3)
    parser.add_argument(
        "--conn-max-age", type=int, nargs="+", default=[60],
        help="gunicorn's CONN_MAX_AGE; one full run per value",
    )  # fmt: skip
    parser.add_argument("--database", default="floorman_bench")
    parser.add_argument("--write-results", action="store_true")
    args = parser.parse_args()
    command = ".venv/bin/python " + " ".join(["bench/clock_phones.py", *sys.argv[1:]])
    runs = []
    for conn_max_age in args.conn_max_age:
        logs = ROOT / "bench" / "out" / f"clock-{time.strftime('%Y%m%d-%H%M%S')}-cma{conn_max_age}"
        logs.mkdir(parents=True)
        with servers(args, logs, conn_max_age) as ports:
            runs.append((conn_max_age, run_load(args, ports)))
        print(f"server logs: {logs}", file=sys.stderr)
        print(json.dumps({"conn_max_age": conn_max_age, **runs[-1][1]}, indent=2))
    section = render(runs, args, command.replace(" --write-results", ""))
    print(section)
    if args.write_results:
        write_results(section)


if __name__ == "__main__":
    main()
