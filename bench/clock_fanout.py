"""The events process's CPU for one clock change fanned out to 500 streams, against a peer.

Issue 17: every clock change reaches the phones through one uvicorn process (config.asgi) that
writes one frame to each open stream; with 500 phones that fan-out was the longest stage of a
change (bench/clock_phones.py splits the stages). This measures it in CPU time, which a shared
machine's load distorts far less than wall time: a private Redis, uvicorn on a copy of the
database's demo event, N event streams held open by this process, then M clock messages
(a running clock's state, the next level sent ahead, as the floor's Resume publishes it)
published straight on the bus, one every 0.25 s; uvicorn's CPU time (from /proc) over the
messages, divided by messages and streams. Each configuration is one uvicorn run, in turn,
in the same minutes:

- ``this``: the working tree's code with the project's venv.
- ``--peer-ref REV``: the same with the code of a git revision (a temporary worktree), e.g. the
  commit before a change.
- ``--peer-python PATH``: the working tree's code under another interpreter (a venv with other
  packages).
- ``--peer-uvicorn ARGS``: the working tree's code with uvicorn given these options too, e.g.
  ``"--loop asyncio --http h11"``: the pure-Python event loop and HTTP parser uvicorn ran on
  before uvloop and httptools were in requirements.txt (it picks them itself when installed).

    .venv/bin/python bench/clock_fanout.py --peer-ref main --database floorman_clock
    .venv/bin/python bench/clock_fanout.py --peer-uvicorn "--loop asyncio --http h11"
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import secrets
import shlex
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import redis

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def clock_message(env: dict[str, str], code: str) -> tuple[str, dict[str, Any]]:
    """The bus channel of the event and a running clock's message, rendered by the project."""
    script = (
        "import django, json; django.setup()\n"
        "from tournaments.models import Event\n"
        "from tournaments.live import channel_for\n"
        "from tournaments.live_clock import clock_payload\n"
        "from tournaments.services import ClockAction, act_on_clock\n"
        f"event = Event.objects.get(code={code!r})\n"
        "if event.clock_level_started_at is None:\n"
        "    act_on_clock(event_id=event.pk, actor=None, action=ClockAction.START)\n"
        "event = Event.objects.select_related('structure').get(pk=event.pk)\n"
        "state = json.loads(clock_payload(event, what='clock'))\n"
        "print(json.dumps([channel_for(event.pk), state]))\n"
    )
    out = subprocess.run(
        [str(ROOT / ".venv" / "bin" / "python"), "-c", script],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    channel, payload = json.loads(out.stdout.strip().splitlines()[-1])
    return channel, payload


async def measure(args: argparse.Namespace, port: int, redis_port: int, pid: int,
                  channel: str, payload: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
    frames = 0

    async def stream() -> None:
        nonlocal frames
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            f"GET /e/{args.code}/events/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await reader.read(65536):
                frames += data.count(b"event: clock")
        writer.close()

    tasks = []
    for number in range(args.streams):  # 100 a second, as the phones arrive
        tasks.append(asyncio.create_task(stream()))
        if number % 25 == 24:
            await asyncio.sleep(0.25)
    deadline = time.monotonic() + 120
    while frames < args.streams and time.monotonic() < deadline:  # each got the current state
        await asyncio.sleep(0.1)
    connected = frames
    await asyncio.sleep(1.0)
    bus = redis.Redis(port=redis_port)
    before, cpu_before = frames, cpu_seconds(pid)
    for number in range(args.messages):
        payload["id"] = f"{1000 + number}.{int(time.time() * 1000)}"
        payload["clock"]["version"] = 1000 + number
        bus.publish(channel, json.dumps(payload))
        await asyncio.sleep(args.gap)
    deadline = time.monotonic() + 60
    while frames < before + args.streams * args.messages and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    used = cpu_seconds(pid) - cpu_before
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    delivered = frames - before
    return {
        "streams": connected,
        "frames": delivered,
        "expected": args.streams * args.messages,
        "cpu_ms_per_message": round(used / args.messages * 1000, 2),
        "cpu_us_per_frame": round(used / max(1, delivered) * 1e6, 1),
    }


def one_run(
    args: argparse.Namespace, name: str, code_root: Path, python: str, extra: Sequence[str] = ()
) -> dict[str, Any]:
    redis_port, port = free_port(), free_port()
    env = dict(
        os.environ, DJANGO_SETTINGS_MODULE="config.settings", DEBUG="0", LOG_LEVEL="WARNING",
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{args.database}",
        REDIS_URL=f"redis://127.0.0.1:{redis_port}/0", CONN_MAX_AGE="0",
        SECRET_KEY=os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        FLOORMAN_SEAL_KEYS=os.environ.get("FLOORMAN_SEAL_KEYS")
        or base64.b64encode(secrets.token_bytes(32)).decode(),
    )  # fmt: skip
    env.pop("LIVE_BUS", None)
    server = subprocess.Popen(
        ["redis-server", "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no"], stdout=subprocess.DEVNULL,
    )  # fmt: skip
    uvicorn = None
    log = tempfile.TemporaryFile()  # noqa: SIM115 - closed in the finally below
    try:
        channel, payload = clock_message(env, args.code)
        uvicorn = subprocess.Popen(
            [python, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
             "--port", str(port), "--log-level", "warning", "--backlog", "2048", *extra],
            cwd=code_root, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            time.sleep(0.2)
        result = asyncio.run(measure(args, port, redis_port, uvicorn.pid, channel, payload))
        if result["streams"] < args.streams:  # say why, from the server's log
            log.seek(0)
            errors = [line for line in log.read().decode(errors="replace").splitlines()
                      if "Error" in line]  # fmt: skip
            result["server_errors"] = sorted(set(errors))[-5:]
        return {"name": name, **result}
    finally:
        log.close()
        for process in (uvicorn, server):
            if process is not None:
                process.terminate()
                process.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--messages", type=int, default=30)
    parser.add_argument("--gap", type=float, default=0.25, help="seconds between messages")
    parser.add_argument("--rounds", type=int, default=2, help="each configuration, in turn")
    parser.add_argument("--database", default="floorman_clock", help="migrated, with the demo")
    parser.add_argument("--code", default="demo")
    parser.add_argument("--peer-ref", help="a git revision whose code is the peer")
    parser.add_argument("--peer-python", help="another interpreter for the working tree's code")
    parser.add_argument("--peer-uvicorn", help="uvicorn options for a peer of the same code")
    args = parser.parse_args()
    python = str(ROOT / ".venv" / "bin" / "python")
    configs: list[tuple[str, Path, str, Sequence[str]]] = [("this", ROOT, python, ())]
    with contextlib.ExitStack() as stack:
        if args.peer_ref:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fanout-")))
            tree = folder / "tree"
            subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.peer_ref],
                           cwd=ROOT, check=True, capture_output=True)  # fmt: skip
            stack.callback(
                subprocess.run, ["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                check=False, capture_output=True,
            )  # fmt: skip
            configs.append((f"peer: {args.peer_ref}", tree, python, ()))
        if args.peer_python:
            configs.append((f"peer: {args.peer_python}", ROOT, args.peer_python, ()))
        if args.peer_uvicorn:
            options = shlex.split(args.peer_uvicorn)
            configs.append((f"peer: uvicorn {args.peer_uvicorn}", ROOT, python, options))
        results = []
        for _round in range(args.rounds):
            for name, code_root, interpreter, extra in configs:
                results.append(one_run(args, name, code_root, interpreter, extra))
                print(json.dumps(results[-1]), file=sys.stderr)
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
