"""The shared cache on Redis, with one client a connection pool.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for every operation, and
redis-py fills each new client's table of response callbacks (about 170 entries) as it is
built: a table's move made six of them, 0.2 ms of Python each (issue 17: bench/RESULTS.md). A
client only wraps its pool and is safe to share between threads, so one is kept for each pool.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.cache.backends import redis as django_redis


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
