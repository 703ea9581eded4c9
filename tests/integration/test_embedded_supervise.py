"""scripts/supervise.py on its own: restart pauses, and a process that ignores SIGTERM is killed."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

from tests.integration.conftest import ROOT, wait_until

spec = importlib.util.spec_from_file_location("supervise", ROOT / "scripts" / "supervise.py")
assert spec and spec.loader
supervise = importlib.util.module_from_spec(spec)
sys.modules["supervise"] = supervise  # its dataclass looks its module up
spec.loader.exec_module(supervise)


def child(tmp_path: Path, code: str) -> supervise.Child:
    return supervise.Child("test", [sys.executable, "-c", code], tmp_path / "test.pid")


def test_a_process_that_keeps_failing_waits_longer_each_time_up_to_30_s(tmp_path):
    failing = child(tmp_path, "raise SystemExit(3)")
    pauses = []
    for _ in range(7):
        failing.start()
        assert (tmp_path / "test.pid").read_text().strip() == str(failing.process.pid)
        code = wait_until(failing.exited, timeout=30, what="the process to exit")
        assert code == 3
        pauses.append(round(failing.due - time.monotonic()))
        assert not (tmp_path / "test.pid").exists()
    assert pauses == [1, 2, 4, 8, 16, 30, 30]


def test_a_process_that_ran_a_minute_starts_again_after_one_second(tmp_path):
    steady = child(tmp_path, "raise SystemExit(0)")
    steady.pause = 16.0  # it failed often before
    steady.start()
    steady.started_at -= supervise.STEADY_AFTER + 1  # as if it had been up a minute
    wait_until(lambda: steady.exited() is not None, timeout=30, what="the process to exit")
    assert round(steady.due - time.monotonic()) == 1


def test_stopping_kills_what_ignores_sigterm_after_the_grace_and_leaves_nothing(tmp_path):
    ready = tmp_path / "stubborn-ready"
    stubborn = child(
        tmp_path,
        "import pathlib, signal, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        f"pathlib.Path({str(ready)!r}).touch()\n"
        "time.sleep(60)\n",
    )
    polite = supervise.Child(
        "polite", [sys.executable, "-c", "import time; time.sleep(60)"], tmp_path / "polite.pid"
    )
    stubborn.start()
    polite.start()
    # The stubborn one ignores SIGTERM once it says so (before, a SIGTERM would end it: a loaded
    # machine may take longer than any fixed wait to start Python); SIGTERM ends the polite one
    # whenever it comes.
    wait_until(ready.exists, timeout=30, what="the stubborn process to ignore SIGTERM")
    started = time.monotonic()
    supervise.stop_all([stubborn, polite], grace=1.0)
    took = time.monotonic() - started
    assert polite.process.returncode == -15  # SIGTERM
    assert stubborn.process.returncode == -9  # SIGKILL after the grace
    assert 1.0 <= took < 5
    assert stubborn.gone() and polite.gone()
    assert not list(tmp_path.glob("*.pid"))
