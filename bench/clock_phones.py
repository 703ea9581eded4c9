"""500 phones watching the clock on the production processes of this machine.

Starts a private Redis (so nothing else's pub/sub reaches the streams), a fresh PostgreSQL
database ``floorman_bench``, gunicorn (config.wsgi) for the pages and the clock fragment,
uvicorn (config.asgi) for the event streams, and a Celery worker and beat for the natural level
change; then runs bench/clock_load.py as a separate process on loopback and prints its figures:
for each level change (the floor's, and one that ends on its own), how long until every phone
has the new level in hand, p50/p95/max, and how many phones never got it.
One full run per gunicorn CONN_MAX_AGE given (default: 60, the settings' default on
PostgreSQL; `--conn-max-age 0 60` compares with a new connection per request), each about two
minutes; everything started is stopped at the end, whatever happens.

    .venv/bin/python bench/clock_phones.py                  # the full run
    .venv/bin/python bench/clock_phones.py --phones 50 --steady-seconds 10 --levels 2 \
        --conn-max-age 60                                    # a quick look while developing
    .venv/bin/python bench/clock_phones.py --write-results  # also update bench/RESULTS.md
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import secrets
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
if str(ROOT) not in sys.path:  # run as a script: the repository's root on the path
    sys.path.insert(0, str(ROOT))

from bench.results import replace_section  # noqa: E402

BIN = ROOT / ".venv" / "bin"
SECTION = "## Clock: 500 phones (bench/clock_phones.py)"
GOAL_P95_MS = 300.0  # every clock change (level, pause, resume, time added) on every phone
GOAL_MAX_MS = 2000.0


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
            # Production refuses to start without them (config/settings.py): the run's own.
            SECRET_KEY=os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
            FLOORMAN_SEAL_KEYS=os.environ.get("FLOORMAN_SEAL_KEYS")
            or base64.b64encode(secrets.token_bytes(32)).decode(),
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
            "database_url": database_url, "redis_port": redis_port,
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


def run_load(args: argparse.Namespace, ports: dict[str, Any], follow: str) -> dict[str, Any]:
    command = [
        str(BIN / "python"), str(ROOT / "bench" / "clock_load.py"),
        "--web-port", str(ports["web_port"]), "--events-port", str(ports["events_port"]),
        "--event-pk", str(ports["event_pk"]), "--phones", str(args.phones),
        "--database-url", ports["database_url"],
        "--steady-seconds", str(args.steady_seconds), "--levels", str(args.levels),
        "--sleepers", str(args.sleepers),
        "--connections", str(args.connections),
        "--throughput-seconds", str(args.throughput_seconds),
        "--chip-up-follow", follow,
    ]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=900, check=False)
    if result.returncode != 0:
        raise SystemExit(f"the load process failed:\n{result.stdout}\n{result.stderr}")
    return dict(json.loads(result.stdout))


def row(name: str, s: dict[str, Any]) -> str:
    cells = [s.get("count", 0), s.get("p50", "-"), s.get("p95", "-"), s.get("max", "-")]
    cells.append(s.get("missing", "-"))
    return f"| {name} | " + " | ".join(str(cell) for cell in cells) + " |"


def render(
    runs: list[tuple[int, str, dict[str, Any]]], args: argparse.Namespace, command: str
) -> str:
    """The RESULTS.md section: how it was run, then the figures of each configuration."""
    first = runs[0][2]
    lines = [
        SECTION,
        "",
        f"Command (from the repository root): `{command}`",
        "",
        f"Date: {date.today().isoformat()}. Machine: 2 cores shared with other jobs; servers and "
        "load generator on the same cores, so figures vary from run to run; compare the "
        "ratios. Processes as in the Procfile: PostgreSQL 15, a private Redis, gunicorn "
        f"config.wsgi ({args.web_workers} sync workers), uvicorn config.asgi (1 process) for the "
        "event streams, one Celery worker and beat (CLOCK_RECONCILE_SECONDS=1). Load: "
        "bench/clock_load.py, one asyncio process on loopback.",
        "",
        f"{first['phones']} phones arriving 100 a second ({first['streams_connected']} event "
        "streams open). Each does what static/js/clock.js does: it shows the clock state the "
        "stream brings (no fetch of the clock, nor anything else when a level with a chip-up "
        "ends; in the runs marked so, its chip-up banner within 20 s, or its standings and "
        "banner within 10 s as before), switches to the next level it was "
        "sent ahead when "
        "its level runs out, polls the fragment (conditional GET) every 20 s while its stream "
        "is up (5 s while it is down) and once a second if a level ran out with nothing in "
        f"hand. The floor logs in and presses Next level {args.levels} times, then Pause, "
        "Resume and Add time (60 s), through the dashboard form; then it cuts the level to 8 s "
        "so that it ends on "
        f"its own. At every other Next level, {first['sleepers']} phones (one in ten) sleep: "
        "their stream is gone from just before the press until 2 s after it, then they "
        'reconnect with Last-Event-ID. A phone "has" a change when it shows the new state; a '
        "phone that never does within "
        "30 s is missing.",
        "",
    ]
    for conn_max_age, follow, report in runs:
        lines += render_run(conn_max_age, follow, report, args)
    return "\n".join(lines)


ROUND_NAMES = {"next": "Next level", "pause": "Pause", "resume": "Resume", "add_time": "Add time"}


def change_rows(report: dict[str, Any]) -> list[str]:
    lines, number = [], 0
    for item in report["rounds"]:
        if item["action"] == "natural":
            lines.append(row("level ends on its own | the boundary recorded", item["phones"]))
            lines.append(
                row("(the reconciler's push) | the same boundary", item["reconciler_push"])
            )
            continue
        number += item["action"] == "next"
        name = ROUND_NAMES[item["action"]] + (f" {number}" if item["action"] == "next" else "")
        lines.append(row(f"floor: {name} | the POST sent", item["phones"]))
        if "reconnected" in item:
            lines.append(row(f"(asleep through {name}) | their reconnect", item["reconnected"]))
    lines.append(row("all floor level changes | the POST sent", report["floor_levels"]))
    return lines


def stage_rows(report: dict[str, Any]) -> list[str]:
    lines, number = [], 0
    for item in report["rounds"]:
        if "stages" not in item:
            continue
        number += item["action"] == "next"
        name = ROUND_NAMES[item["action"]] + (f" {number}" if item["action"] == "next" else "")
        cells = [
            f"{item['stages'][key].get('p50', '-')} / {item['stages'][key].get('p95', '-')}"
            for key in ("post_to_read", "read_to_frame", "frame_to_phone")
        ]
        lines.append(f"| {name} | " + " | ".join(cells) + f" | {item['stages']['frame_bytes']} |")
    return lines


def goals(report: dict[str, Any]) -> str:
    changes = [r["phones"] for r in report["rounds"]]
    worst_p95 = max(r.get("p95", 1e9) for r in changes)
    worst_max = max(r.get("max", 1e9) for r in changes)
    missing = sum(
        r["phones"]["missing"] + r.get("reconnected", {}).get("missing", 0)
        for r in report["rounds"]
    )
    met = worst_p95 < GOAL_P95_MS and worst_max < GOAL_MAX_MS and missing == 0
    return (
        f"Goals (every clock change: p95 < {GOAL_P95_MS:.0f} ms, max < {GOAL_MAX_MS:.0f} ms, "
        f"none missing): {'met' if met else 'MISSED'} (worst p95 {worst_p95} ms, worst max "
        f"{worst_max} ms, missing {missing})."
    )


FOLLOWS = {
    "none": "after a chip-up level nothing fetches (shipped)",
    "banner": "after a chip-up level the chip-up banner fetches within 20 s",
    "all": "after a chip-up level standings and chip-up banner fetch within 10 s (before)",
}


def render_run(
    conn_max_age: int, follow: str, report: dict[str, Any], args: argparse.Namespace
) -> list[str]:
    steady, tp, during = report["steady"], report["throughput"], report["during_changes"]
    cond, full, static = tp["conditional_304"], tp["full_200"], tp["static_file"]
    errors = sum(report["errors"].values()) + cond["errors"] + full["errors"] + static["errors"]
    natural = next((r for r in report["rounds"] if r["action"] == "natural"), None)
    shipped = " (the settings' default on PostgreSQL)" if conn_max_age == 60 else ""
    lines = [
        f"### {FOLLOWS[follow]}; gunicorn with CONN_MAX_AGE={conn_max_age}{shipped}",
        "",
        "Each change, until every phone has it in hand (ms):",
        "",
        "| change | measured from | phones | p50 | p95 | max | missing |",
        "|---|---|---:|---:|---:|---:|---:|",
        *change_rows(report),
        "",
        goals(report),
        "",
    ]
    if natural is not None:
        lines += [
            f"At the natural level change {natural['shown_ahead']} of {report['phones']} phones "
            "showed the next level from the state sent ahead, before the reconciler's push.",
            "",
        ]
    lines += [
        "Where each floor change's time went (ms, p50 / p95 over the phones, from the first "
        "push each phone got; bench/clock_load.py `stages`): the POST sent to the clock read "
        "by the publishing process (request, action, commit), that read to the frame leaving "
        "the events process (render, bus, fan-out to 500 streams), that frame to the phone "
        "(socket, the load process).",
        "",
        "| change | POST → read | read → frame out | frame → phone | frame bytes |",
        "|---|---:|---:|---:|---:|",
        *stage_rows(report),
        "",
    ]
    lines += [
        f"Fragment requests while the phones polled for {steady['seconds']:.0f} s: "
        f"{steady['fragment'].get('count', 0)} (statuses {steady['statuses']}, p95 "
        f"{steady['fragment'].get('p95', '-')} ms); during all the changes: "
        f"{during['fragment'].get('count', 0)} (statuses {during['statuses']}). After chip-up "
        "levels the phones' standings and chip-up banners fetched themselves (fm:changed): "
        f"{during['follow'].get('count', 0)} requests (statuses {during['follow_statuses']}, "
        f"p50 {during['follow'].get('p50', '-')} ms, p95 {during['follow'].get('p95', '-')} ms).",
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
        f"Errors: {errors} ({report['errors'] or 'none'}).",
        "",
    ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--phones", type=int, default=500)
    parser.add_argument("--steady-seconds", type=float, default=30.0)
    parser.add_argument("--levels", type=int, default=4, help="floor 'next level' presses")
    parser.add_argument("--sleepers", type=float, default=0.1, help="share of phones that sleep")
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--throughput-seconds", type=float, default=10.0)
    parser.add_argument("--web-workers", type=int, default=3)
    parser.add_argument(
        "--conn-max-age", type=int, nargs="+", default=[60],
        help="gunicorn's CONN_MAX_AGE; one full run per value",
    )  # fmt: skip
    parser.add_argument(
        "--chip-up-follow", nargs="+", choices=list(FOLLOWS), default=["none"],
        help="what the phones fetch after a chip-up level; one full run per value, in turn",
    )  # fmt: skip
    parser.add_argument("--database", default="floorman_bench")
    parser.add_argument("--write-results", action="store_true")
    args = parser.parse_args()
    command = ".venv/bin/python " + " ".join(["bench/clock_phones.py", *sys.argv[1:]])
    runs = []
    for follow in args.chip_up_follow:
        for conn_max_age in args.conn_max_age:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            logs = ROOT / "bench" / "out" / f"clock-{stamp}-cma{conn_max_age}-{follow}"
            logs.mkdir(parents=True)
            with servers(args, logs, conn_max_age) as ports:
                runs.append((conn_max_age, follow, run_load(args, ports, follow)))
            print(f"server logs: {logs}", file=sys.stderr)
            print(json.dumps({"conn_max_age": conn_max_age, "follow": follow, **runs[-1][2]}))
    section = render(runs, args, command.replace(" --write-results", ""))
    print(section)
    if args.write_results:
        replace_section(section)


if __name__ == "__main__":
    main()
