"""The embedded default's Celery broker: kombu's file-system transport, never read half-written.

kombu's own transport opens a message file under its final name and then writes it, so a
worker that lists the folder in between reads an empty or partial file and dies with
``JSONDecodeError`` (issue 16; an open kombu issue). Here every message is written to a hidden
temporary file in the same folder and renamed into place (``os.replace`` is atomic on one file
system), a reader claims a message by renaming it into a folder of its own (so two readers never
both take one), and the exchange tables are rewritten the same way under a lock file. A message
that still cannot be decoded (a disk that lost it) is set aside and logged, never fatal.
Registered as ``floorman-fs://`` in config/celery.py.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from queue import Empty
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem, virtual
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)

CLAIMED = ".claimed"  # a reader's messages while it reads them (hidden: never a queue's file)
SPOILED = ".spoiled"  # messages that could not be decoded, kept for a look
TEMP_PREFIX = ".tmp-"


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that no reader ever sees a part of it."""
    temp = path.parent / f"{TEMP_PREFIX}{uuid.uuid4().hex}"
    try:
        with temp.open("wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path``'s own lock file (the table itself is replaced, not locked)."""
    with open(f"{path}.lock", "ab") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


class Channel(filesystem.Channel):
    """The file-system channel with atomic writes, exclusive claims and no fatal bad file."""

    _exchange_file: Callable[[str], Path]  # kombu's, which its type stubs leave out

    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:  # type: ignore[override]
        """Put a message on ``queue``: written aside, then renamed into the folder at once."""
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        path = Path(self.data_folder_out) / name
        try:
            write_atomically(path, str_to_bytes(dumps(payload)))
        except OSError as exc:
            raise ChannelError(f"Cannot add file {str(path)!r} to directory") from exc

    def _get(self, queue: str) -> Any:  # type: ignore[override]
        """The oldest message of ``queue``, claimed by one rename so that only one reader has it.

        The folder is listed once for a run of messages, not once a message (thousands queued
        would make each read list them all); a name another reader took is skipped.
        """
        folder = Path(self.data_folder_in)
        claimed = folder / CLAIMED
        pending = self._pending.setdefault(queue, [])
        if not pending:
            claimed.mkdir(exist_ok=True)
            wanted = f"{queue}.msg"
            names = (n for n in os.listdir(folder) if n.partition(".")[2] == wanted)
            pending.extend(sorted((n for n in names if not n.startswith(".")), reverse=True))
        while pending:
            name = pending.pop()
            mine = claimed / f"{os.getpid()}-{name}"
            try:
                os.rename(folder / name, mine)
            except FileNotFoundError:
                continue  # another reader took it
            try:
                message = loads(bytes_to_str(mine.read_bytes()))
            except ValueError:
                self._set_aside(mine)
                continue
            if self.store_processed:
                os.replace(mine, Path(self.processed_folder) / name)
            else:
                mine.unlink()
            return message
        raise Empty()

    @property
    def _pending(self) -> dict[str, list[str]]:
        """Per queue, the names of the last listing not yet tried (newest first)."""
        pending: dict[str, list[str]] | None = getattr(self, "_pending_names", None)
        if pending is None:
            pending = {}
            self._pending_names = pending
        return pending

    def _set_aside(self, path: Path) -> None:
        spoiled = path.parent.parent / SPOILED
        spoiled.mkdir(exist_ok=True)
        os.replace(path, spoiled / path.name)
        logger.error("the file broker set aside a message it could not decode: %s", path.name)

    def _queue_bind(self, exchange: str, routing_key: str, pattern: str | None, queue: str) -> None:
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        self._rewrite_table(
            exchange, lambda queues: [entry, *queues] if entry not in queues else queues
        )

    def _delete(self, queue: str, exchange: str, routing_key: str, pattern: str, *args: Any,
                **kwargs: Any) -> None:  # fmt: skip
        virtual.Channel._delete(self, queue, exchange, routing_key, pattern, *args, **kwargs)
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        self._rewrite_table(exchange, lambda queues: [q for q in queues if q != entry])

    def get_table(self, exchange: str) -> list[Any]:
        """The exchange's bindings: a whole file or none (it is only ever replaced)."""
        file = self._exchange_file(exchange)
        try:
            table = loads(file.read_text())
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            raise ChannelError(f"Cannot open {file}") from exc
        return [filesystem.exchange_queue_t(*row) for row in table]

    def _rewrite_table(self, exchange: str, change: Any) -> None:
        file = self._exchange_file(exchange)
        self.control_folder.mkdir(exist_ok=True)
        try:
            with _locked(file):
                queues = self.get_table(exchange)
                changed = change(queues)
                if changed != queues:
                    write_atomically(file, str_to_bytes(dumps(changed)))
        except OSError as exc:
            raise ChannelError(f"Cannot open {file}") from exc


class Transport(filesystem.Transport):
    """kombu's file-system transport with the atomic channel above."""

    Channel = Channel
    global_state = virtual.BrokerState()
    driver_name = "floorman-fs"
