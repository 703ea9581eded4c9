"""The embedded default's file broker (config/broker.py) is never read half-written (issue 16).

kombu's own file-system transport opens a message file under its final name and then writes it;
a worker that lists the folder in between reads nothing and dies with
``Unrecoverable error: JSONDecodeError``. The unit tests put a reader exactly in that gap, for
the stock transport (it fails) and ours (it sees nothing, then the whole message once). The soak
sends thousands of tasks through a real Celery worker on our transport with the CPU busy.
"""

from __future__ import annotations

import builtins
import io
import json
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from celery import Celery
from kombu import Connection

from config import broker
from tests.integration.conftest import VENV_BIN, base_env, wait_until

SOAK_TASKS = int(os.environ.get("FLOORMAN_SOAK_TASKS", "5000"))

# The soak's worker runs this module's app: the transport under test and one task that notes
# each run with an atomic append (O_APPEND), so the test counts every task's runs.
soak_app = Celery("floorman-soak", set_as_current=False)


@soak_app.task(name="soak.ran")
def ran(number: int) -> None:
    """Note one run of task ``number``."""
    descriptor = os.open(os.environ["FLOORMAN_SOAK_LOG"], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    try:
        os.write(descriptor, f"{number}\n".encode())
    finally:
        os.close(descriptor)


def broker_options(folder: Path) -> dict[str, str]:
    for name in ("data", "control"):
        (folder / name).mkdir(parents=True, exist_ok=True)
    return {
        "data_folder_in": str(folder / "data"),
        "data_folder_out": str(folder / "data"),
        "control_folder": str(folder / "control"),
    }


@pytest.fixture
def reader_in_the_gap(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Callable[[], Any]]]:
    """Every write of a file opened for writing first lets the registered reader look."""
    readers: list[Callable[[], Any]] = []
    real_open = builtins.open

    class Gap(io.FileIO):
        def write(self, data: Any) -> int:
            for reader in readers:
                reader()
            return super().write(data)

    def gap_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if mode == "wb":
            handle = Gap(file, "w")
            return handle if kwargs.get("buffering") == 0 else io.BufferedWriter(handle)
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", gap_open)
    monkeypatch.setattr(io, "open", gap_open)
    yield readers


def half_written_read(transport: str, folder: Path, readers: list[Callable[[], Any]]) -> list[Any]:
    """Send one message while a second connection reads the queue in the gap of its write."""
    options = broker_options(folder)
    seen: list[Any] = []
    with (
        Connection(transport=transport, transport_options=options) as writer,
        Connection(transport=transport, transport_options=options) as reader,
    ):
        queue_in = writer.SimpleQueue("gap")
        queue_out = reader.SimpleQueue("gap")

        def look() -> None:
            readers.clear()  # one look, in the gap of the first write
            try:
                message = queue_out.get(block=False)
            except queue_out.Empty:
                seen.append("nothing yet")
            except ValueError as error:
                seen.append(error)
            else:
                message.ack()
                seen.append(message.payload)

        readers.append(look)
        queue_in.put({"the": "message"})
        readers.clear()
        try:
            message = queue_out.get(block=True, timeout=2)
        except queue_out.Empty:
            seen.append("never")
        else:
            message.ack()
            seen.append(message.payload)
        queue_in.close()
        queue_out.close()
    return seen


def test_the_stock_file_transport_lets_a_reader_see_a_half_written_message(
    tmp_path, reader_in_the_gap
):
    seen = half_written_read(
        "kombu.transport.filesystem:Transport", tmp_path / "stock", reader_in_the_gap
    )
    assert isinstance(seen[0], json.JSONDecodeError), seen  # what killed the worker
    assert seen[1] == "never", "the stock transport lost the message it read half-written"


def test_the_floorman_file_transport_is_never_read_half_written(tmp_path, reader_in_the_gap):
    seen = half_written_read("floorman-fs", tmp_path / "ours", reader_in_the_gap)
    assert seen == ["nothing yet", {"the": "message"}]
    data = tmp_path / "ours" / "data"
    assert [name for name in os.listdir(data) if not name.startswith(".")] == []
    assert os.listdir(data / broker.CLAIMED) == [], "a read message was left behind"


def test_two_readers_never_take_the_same_message(tmp_path):
    options = broker_options(tmp_path)
    with (
        Connection(transport="floorman-fs", transport_options=options) as writer,
        Connection(transport="floorman-fs", transport_options=options) as first,
        Connection(transport="floorman-fs", transport_options=options) as second,
    ):
        sender = writer.SimpleQueue("pair")
        readers = [first.SimpleQueue("pair"), second.SimpleQueue("pair")]
        for number in range(200):
            sender.put(number)
        got: list[int] = []
        empty = 0
        while empty < 2:
            empty = 0
            for queue in readers:
                try:
                    message = queue.get(block=False)
                except queue.Empty:
                    empty += 1
                    continue
                got.append(message.payload)
                message.ack()
        assert sorted(got) == list(range(200))
        for queue in [sender, *readers]:
            queue.close()


def test_a_message_that_cannot_be_decoded_is_set_aside_not_fatal(tmp_path, caplog):
    options = broker_options(tmp_path)
    data = tmp_path / "data"
    (data / "0001_bad.spoilt.msg").write_bytes(b'{"body": ')  # a disk that lost its end
    with Connection(transport="floorman-fs", transport_options=options) as connection:
        queue = connection.SimpleQueue("spoilt")
        queue.put("after it")
        message = queue.get(block=True, timeout=2)
        message.ack()
        assert message.payload == "after it"
        queue.close()
    assert os.listdir(data / broker.SPOILED) == [f"{os.getpid()}-0001_bad.spoilt.msg"]
    assert "could not decode" in caplog.text


def cpu_burners(count: int) -> list[subprocess.Popen[bytes]]:
    """Processes that keep the cores busy, as the rest of a small machine does."""
    return [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
        for _ in range(count)
    ]


@pytest.mark.integration
def test_thousands_of_tasks_under_cpu_load_each_run_once_and_the_worker_lives(processes, tmp_path):
    folder = tmp_path / "broker"
    log = tmp_path / "ran.log"
    options = broker_options(folder)
    soak_app.conf.broker_transport_options = options
    env = base_env(FLOORMAN_SOAK_LOG=str(log), DATABASE_URL=None, REDIS_URL=None)
    worker = processes.start(
        "worker",
        [
            str(VENV_BIN / "celery"), "-A", "tests.integration.test_embedded_broker:soak_app",
            "worker", "--concurrency", "1", "--loglevel", "WARNING", "--without-gossip",
            "--without-mingle", "--without-heartbeat",
        ],
        env=dict(env, FLOORMAN_SOAK_OPTIONS=json.dumps(options)),
    )  # fmt: skip
    burners = cpu_burners(2)
    started = time.monotonic()
    try:
        with soak_app.connection_for_write() as connection:
            for number in range(SOAK_TASKS):
                ran.apply_async((number,), connection=connection)
        processes.assert_alive("worker")

        def counted() -> Counter[str]:
            processes.assert_alive("worker")
            lines = log.read_text().split() if log.exists() else []
            return Counter(lines) if len(lines) >= SOAK_TASKS else Counter()

        runs = wait_until(counted, timeout=90, what=f"{SOAK_TASKS} tasks to run", interval=0.5)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    took = time.monotonic() - started
    assert runs == Counter(str(number) for number in range(SOAK_TASKS)), "a task ran twice"
    assert worker.poll() is None, processes.tail("worker")
    assert "Unrecoverable" not in processes.tail("worker", lines=400)
    print(f"{SOAK_TASKS} tasks in {took:.1f} s under CPU load")


soak_app.conf.update(
    broker_url="floorman-fs://",
    broker_transport_options=json.loads(os.environ.get("FLOORMAN_SOAK_OPTIONS", "{}")),
    task_ignore_result=True,
    worker_hijack_root_logger=False,
)
