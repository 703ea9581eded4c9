"""`make run`'s supervisor: the web process, a Celery worker and beat, each restarted if it dies.

scripts/run.sh prepares the database and hands over to this script. Every process runs in a
session of its own (a terminal's Ctrl-C reaches only this script), its id is kept in
``$FLOORMAN_VAR_DIR/run/<name>.pid``, and one that exits is started again after a pause that
grows while it keeps failing (1 s, doubling to 30 s; back to 1 s after a minute up). Ctrl-C or
SIGTERM stops them all: SIGTERM to each, then SIGKILL to what is left after ``--grace`` seconds
(uvicorn ends its open event streams after ``--timeout-graceful-shutdown``, shorter than that).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
FIRST_PAUSE = 1.0
LONGEST_PAUSE = 30.0
STEADY_AFTER = 60.0  # seconds up after which a failure counts as the first again
STREAMS_GRACE = 2  # uvicorn's --timeout-graceful-shutdown: open streams end after it
PR_SET_PDEATHSIG = 1


def log(text: str) -> None:
    print(f"[supervise {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def _die_with_parent() -> None:
    """In the child before exec: on Linux, a SIGTERM when the supervisor itself dies."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


@dataclass
class Child:
    """One supervised process: how to start it, the running one, its restart pause."""

    name: str
    args: list[str]
    pid_file: Path
    process: subprocess.Popen[bytes] | None = None
    started_at: float = 0.0
    pause: float = FIRST_PAUSE
    due: float = 0.0  # when to start it again after an exit
    starts: int = field(default=0)

    def start(self) -> None:
        # Our own fixed commands (below); no threads here, so preexec_fn is safe.
        self.process = subprocess.Popen(  # noqa: S603
            self.args, cwd=ROOT, stdin=subprocess.DEVNULL, start_new_session=True,
            preexec_fn=_die_with_parent,
        )  # fmt: skip
        self.started_at = time.monotonic()
        self.starts += 1
        self.pid_file.write_text(f"{self.process.pid}\n")
        if self.starts > 1:
            log(f"{self.name} started again (pid {self.process.pid})")

    def exited(self) -> int | None:
        """The exit code if it has just been seen to exit (then it is no longer running)."""
        if self.process is None or (code := self.process.poll()) is None:
            return None
        self.process = None
        with contextlib.suppress(FileNotFoundError):
            self.pid_file.unlink()
        if time.monotonic() - self.started_at > STEADY_AFTER:
            self.pause = FIRST_PAUSE
        self.due = time.monotonic() + self.pause
        log(f"{self.name} exited with {code}; starting it again in {self.pause:.0f} s")
        self.pause = min(self.pause * 2, LONGEST_PAUSE)
        return code

    def signal(self, sig: int, *, group: bool = False) -> None:
        """Signal the process (it stops its own children), or its whole group."""
        if self.process is not None and (group or self.process.poll() is None):
            with contextlib.suppress(ProcessLookupError):
                (os.killpg if group else os.kill)(self.process.pid, sig)

    def gone(self) -> bool:
        """Whether the process and every process of its group have ended (reaped)."""
        if self.process is not None and self.process.poll() is None:
            return False
        if self.process is not None:
            try:
                os.killpg(self.process.pid, 0)
            except ProcessLookupError:
                return True
            return False
        return True


def children(port: int, host: str, var: Path) -> list[Child]:
    run = var / "run"
    run.mkdir(parents=True, exist_ok=True)
    celery = [str(BIN / "celery"), "-A", "config"]
    return [
        Child("web", [
            str(BIN / "uvicorn"), "config.asgi:application", "--host", host, "--port", str(port),
            "--log-level", "warning", "--timeout-graceful-shutdown", str(STREAMS_GRACE),
        ], run / "web.pid"),
        Child("worker", [
            *celery, "worker", "--concurrency", "1", "--loglevel", "WARNING",
            "--without-gossip", "--without-mingle",
        ], run / "worker.pid"),
        Child("beat", [
            *celery, "beat", "--loglevel", "WARNING",
            "--schedule", str(var / "celerybeat-schedule"),
        ], run / "beat.pid"),
    ]  # fmt: skip


class Stop(Exception):
    """Ctrl-C or SIGTERM: stop everything."""


def _stop(signum: int, _frame: FrameType | None) -> None:
    raise Stop(signal.Signals(signum).name)


def supervise(processes: list[Child], *, grace: float) -> int:
    """Run until a signal; then stop every process within ``grace`` seconds."""
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    try:
        for child in processes:
            child.start()
        while True:
            for child in processes:
                if child.process is None and time.monotonic() >= child.due:
                    child.start()
                else:
                    child.exited()
            time.sleep(0.2)
    except Stop as why:
        log(f"{why}: stopping everything")
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stop_all(processes, grace=grace)
    return 0


def stop_all(processes: list[Child], *, grace: float) -> None:
    """SIGTERM to every group, SIGKILL to what is left after ``grace`` seconds; reap all."""
    for child in processes:
        child.signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and not all(child.gone() for child in processes):
        time.sleep(0.05)
    for child in processes:
        if not child.gone():
            log(f"{child.name} did not stop within {grace:.0f} s: killed")
            child.signal(signal.SIGKILL, group=True)
    deadline = time.monotonic() + 2  # SIGKILL cannot be ignored; the group goes at once
    while time.monotonic() < deadline and not all(child.gone() for child in processes):
        time.sleep(0.05)
    for child in processes:
        if child.process is not None:
            child.process.wait()
        with contextlib.suppress(FileNotFoundError):
            child.pid_file.unlink()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--grace", type=float, default=5.0, help="seconds to stop in")
    args = parser.parse_args()
    var = Path(os.environ.get("FLOORMAN_VAR_DIR", ROOT / "var"))
    return supervise(children(args.port, args.host, var), grace=args.grace)


if __name__ == "__main__":
    sys.exit(main())
