"""The shared cache on Redis (config/cache.py): one client a pool, not one an operation."""

from __future__ import annotations

import threading

import pytest

from config.cache import RedisCache

pytestmark = pytest.mark.integration


def test_the_cache_keeps_one_client_and_still_reads_and_writes_redis(redis_test_url):
    cache = RedisCache(redis_test_url, {"KEY_PREFIX": "cache-test"})
    client = cache._cache.get_client(write=True)
    assert cache._cache.get_client() is client  # one server: reads and writes share the pool

    cache.set("seat", {"stack": 1_500}, 30)
    assert cache.get("seat") == {"stack": 1_500}
    assert cache.add("hands", 0) and cache.incr("hands") == 1
    assert cache.get_many(["seat", "hands", "missing"]) == {"seat": {"stack": 1_500}, "hands": 1}
    cache.delete("seat")
    assert cache.get("seat") is None
    assert cache._cache.get_client() is client


def test_threads_share_the_client_safely(redis_test_url):
    """A client wraps its pool, which hands each thread a connection of its own."""
    cache = RedisCache(redis_test_url, {"KEY_PREFIX": "cache-test"})
    errors: list[BaseException] = []

    def count(thread: int) -> None:
        try:
            for number in range(50):
                cache.set(f"{thread}:{number}", number, 30)
                assert cache.get(f"{thread}:{number}") == number
        except BaseException as error:  # noqa: BLE001 - reported to the test's thread
            errors.append(error)

    workers = [threading.Thread(target=count, args=(thread,)) for thread in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert not errors and not any(worker.is_alive() for worker in workers)
    assert cache.get_many([f"{t}:49" for t in range(8)]) == {f"{t}:49": 49 for t in range(8)}
    assert len(cache._cache._clients) == 1
