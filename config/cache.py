"""The shared cache on Redis, with one client a connection pool.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for every operation, and
redis-py fills each new client's table of response callbacks (about 170 entries) as it is
built: a table's move made six of them, 0.2 ms of Python each (issue 17: bench/RESULTS.md). A
client only wraps its pool and is safe to share between threads, so one is kept for each pool.

``Batch`` sends several cache operations (and a Lua script) in one round trip: a table's change
is published in three instead of six (tables.online.publish).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache.backends import redis as django_redis
from redis.exceptions import NoScriptError


class RedisCacheClient(django_redis.RedisCacheClient):
    # Set by Django's client; its type stubs leave them out.
    _servers: list[str]
    _pools: dict[int, Any]
    _pool_class: Any
    _pool_options: dict[str, Any]
    _client: Any
    _get_connection_pool_index: Callable[[bool], int]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            if index not in self._pools:
                server = self._servers[index]
                self._pools[index] = self._pool_class.from_url(server, **self._pool_options)
            client = self._clients.setdefault(
                index, self._client(connection_pool=self._pools[index])
            )
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient


class Batch:
    """Operations on a cache (the default one unless given) sent together. On Redis, one round
    trip (a pipeline without MULTI, each command standing alone as Django's own would), a Lua
    script of the caller's among them; on another backend (the embedded default's, in-process),
    each in turn. A read returns its slot; ``send`` does the operations and returns the answers
    by slot: ``get_many``'s as Django's, a script's as Redis returns it. Nothing reaches the
    cache before ``send``, and a failure there raises."""

    def __init__(self, cache: Any = None) -> None:
        self.cache: Any = caches[DEFAULT_CACHE_ALIAS] if cache is None else cache
        self._client: Any = None
        self._pipeline: Any = None
        if isinstance(self.cache, RedisCache):
            self._client = self.cache._cache.get_client(write=True)
            self._pipeline = self._client.pipeline(transaction=False)
        self._later: list[Callable[[], Any]] = []  # another backend's operations, in turn
        self._reads: list[tuple[int | None, Callable[[Any], Any]]] = []  # (command, reading)
        self._scripts: dict[int, tuple[Any, list[Any], list[Any]]] = {}
        self._commands = 0

    @property
    def on_redis(self) -> bool:
        return self._pipeline is not None

    def _queued(self, reading: Callable[[Any], Any] | None, *, command: bool = True) -> int:
        """A command queued (``command``), and how its answer is read (None: not read)."""
        if command:
            self._commands += 1
        if reading is None:
            return -1
        self._reads.append((self._commands - 1 if command else None, reading))
        return len(self._reads) - 1

    def set(self, key: str, value: Any, timeout: float | None) -> None:
        if not self.on_redis:
            self._later.append(lambda: self.cache.set(key, value, timeout))
            self._queued(None)
            return
        made = self.cache.make_and_validate_key(key)
        timeout = self.cache.get_backend_timeout(timeout)
        if timeout == 0:
            self._pipeline.delete(made)  # as Django's set: at once out of date
        else:
            self._pipeline.set(made, self.cache._cache._serializer.dumps(value), ex=timeout)
        self._queued(None)

    def set_many(self, data: dict[str, Any], timeout: float | None) -> None:
        for key, value in data.items():
            self.set(key, value, timeout)

    def get_many(self, keys: list[str]) -> int:
        if not keys:
            return self._queued(lambda _nothing: {}, command=False)  # Redis refuses an empty MGET
        if not self.on_redis:
            self._later.append(lambda: self.cache.get_many(keys))
            return self._queued(lambda found: found)
        made = [self.cache.make_and_validate_key(key) for key in keys]
        self._pipeline.mget(made)
        loads = self.cache._cache._serializer.loads

        def reading(values: list[Any]) -> dict[str, Any]:
            return {key: loads(v) for key, v in zip(keys, values, strict=True) if v is not None}

        return self._queued(reading)

    def script(self, script: Any, keys: list[Any], args: list[Any]) -> int:
        """A registered ``redis.commands.core.Script``, by its SHA; loaded if Redis lacks it."""
        if not self.on_redis:
            raise TypeError("a Lua script needs the Redis cache")
        self._pipeline.evalsha(script.sha, len(keys), *keys, *args)
        self._scripts[self._commands] = (script, keys, args)
        return self._queued(lambda value: value)

    def send(self) -> list[Any]:
        if not self.on_redis:
            results = [operation() for operation in self._later]
        elif self._commands:
            results = self._pipeline.execute(raise_on_error=False)
        else:
            results = []
        for index, result in enumerate(results):
            if isinstance(result, NoScriptError) and index in self._scripts:
                # Redis lacks it (restarted, flushed): run by its text, which loads it too.
                script, keys, args = self._scripts[index]
                results[index] = self._client.eval(script.script, len(keys), *keys, *args)
            elif isinstance(result, Exception):
                raise result
        return [reading(None if at is None else results[at]) for at, reading in self._reads]
