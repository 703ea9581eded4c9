"""The soak of issue 17: 50 cash tables of house bots and two online events at once, played by
the production processes (two Celery workers and beat: the sweeper and the events' director)
for ``--minutes``: no deadlock, no server error, every chip conserved.

Recreates a PostgreSQL database (``--database``, by default ``floorman_bench_soak``), opens
``--tables`` cash tables of 6 house bots (FLOORMAN_BOTS_PLAY_ALONE) and two online events of
``--event-players`` house bots each (sit&go, tables of 6), starts two workers and beat
(FLOORMAN_TABLE_PACE ``--pace``) and then, every ``--check-seconds``, checks that every chip is
accounted for as ``manage.py floorman_chips`` does, in one snapshot. Redis is ``--redis-url``
(db 13 by default: the run's own broker). At the end it counts, in the
processes' logs, PostgreSQL deadlocks and tracebacks, and in the database the hands played and
the events' places (each recorded once). Exit status 1 if anything failed.

    .venv/bin/python -m bench.online_soak --minutes 30
    .venv/bin/python -m bench.online_soak --minutes 3 --tables 10 --event-players 18
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.clock_phones import BIN, Processes  # noqa: E402 - after the path
from bench.online_mtt import setup_django  # noqa: E402

# Read before the processes are stopped: their pool's children killed at the end log errors.
PROBLEMS = re.compile(r"deadlock detected|Traceback|ERROR/|CRITICAL/|could not")


def prepare(args: argparse.Namespace) -> list[int]:
    """The cash tables and the two events; the events' ids."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from scoring import online_events
    from tables.online import services as online_services
    from tests.scoring.online_event_helpers import online_event

    floor = User.objects.create_user("floor-soak", password="x", is_staff=True)  # noqa: S106
    for number in range(args.tables):
        table = online_services.open_table(
            actor=floor, name=f"Soak {number}", seats=6, small_blind=5, big_blind=10
        )
        for _seat in range(6):
            online_services.seat_bot(table=table, actor=floor)
    events = []
    for name in ("Soak event A", "Soak event B"):
        event = online_event(
            name=name, start_players=args.event_players, scheduled_start=timezone.now()
        )
        online_events.register_bots(event_id=event.pk, count=args.event_players, actor=floor)
        events.append(event.pk)
    return events


def check_chips() -> list[str]:
    """Every cash table against its ledger, every event against what its entries brought, the
    play money against its grants: the operator's check (manage.py floorman_chips), in one
    snapshot while the tables play. Its lines that do not add up."""
    from tables.online.services import chips_report

    lines, _wrong = chips_report()
    return [line for line in lines if line.endswith("MISMATCH")]


def soak(args: argparse.Namespace, folder: Path, event_ids: list[int]) -> dict[str, Any]:
    from django.db import connection

    from tables.online.models import TableHand
    from tournaments.models import Entry

    env = dict(
        os.environ, DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0", LOG_LEVEL="WARNING",
        FLOORMAN_BOTS_PLAY_ALONE="1", FLOORMAN_TABLE_PACE=str(args.pace),
        SECRET_KEY=os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
    )  # fmt: skip
    processes = Processes(folder)
    wrong: list[str] = []
    checks = 0
    try:
        for name in ("worker-1", "worker-2"):
            processes.start(
                name,
                [str(BIN / "celery"), "-A", "config", "worker", "--loglevel", "WARNING",
                 "--without-gossip", "--without-mingle", "--concurrency", "1", "-n", f"{name}@%h"],
                env,
            )  # fmt: skip
        processes.start(
            "beat",
            [str(BIN / "celery"), "-A", "config", "beat", "--loglevel", "WARNING",
             "--schedule", str(folder / "beat-schedule"), "--pidfile", str(folder / "beat.pid")],
            env,
        )  # fmt: skip
        end = time.monotonic() + args.minutes * 60
        while time.monotonic() < end:
            time.sleep(min(args.check_seconds, max(0.0, end - time.monotonic())))
            processes.check()
            wrong += check_chips()
            checks += 1
            connection.close()
        logs = {path.stem: path.read_text(errors="replace") for path in folder.glob("*.log")}
    finally:
        processes.stop()
    problems = {name: PROBLEMS.findall(text) for name, text in logs.items()}
    return {
        "hands": TableHand.objects.filter(is_over=True).count(),
        "places": Entry.objects.filter(event_id__in=event_ids, place__isnull=False).count(),
        "chip_checks": checks,
        "chips_wrong": wrong,
        "deadlocks": sum(text.count("deadlock detected") for text in logs.values()),
        "log_problems": {name: len(found) for name, found in problems.items() if found},
        "logs": str(folder),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--event-players", type=int, default=60)
    parser.add_argument("--pace", type=float, default=0.2)
    parser.add_argument("--check-seconds", type=float, default=20.0)
    parser.add_argument("--database", default="floorman_bench_soak")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/13")
    args = parser.parse_args()
    os.environ["REDIS_URL"] = args.redis_url  # broker, bus and cache of this run only
    setup_django(args.database)
    event_ids = prepare(args)
    folder = Path(tempfile.mkdtemp(prefix="floorman-soak-"))
    report = soak(args, folder, event_ids)
    for key, value in report.items():
        print(f"{key}: {value}")
    failed = report["chips_wrong"] or report["deadlocks"] or report["log_problems"]
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
