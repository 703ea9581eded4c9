"""The shared cache on Redis (config/cache.py): one client a pool, not one an operation; a batch
of operations sent in one round trip."""

from __future__ import annotations

import threading
import uuid

import pytest
import redis
from django.core.cache.backends.locmem import LocMemCache

from config.cache import Batch, RedisCache

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


def test_a_batch_is_one_round_trip_and_reads_and_writes_as_the_cache_does(
    redis_test_url, redis_round_trips
):
    cache = RedisCache(redis_test_url, {"KEY_PREFIX": "cache-test"})
    cache.set("seen", {"stack": 800}, 30)
    script = cache._cache.get_client(write=True).register_script(
        f"-- {uuid.uuid4()}: never loaded before\nreturn {{KEYS[1], ARGV[1]}}"
    )
    batch = Batch(cache)
    batch.set("snapshot", ("table", 7), 60)
    batch.set_many({"fingerprint:1": "ab", "fingerprint:2": "cd"}, 3_600)
    found = batch.get_many(["seen", "missing"])
    nothing = batch.get_many([])
    ran = batch.script(script, ["key"], ["argument"])
    before = redis_round_trips[0]
    answers = batch.send()
    # One for the batch; the script Redis lacked is run by its text, which loads it: one more.
    assert redis_round_trips[0] - before == 2
    assert answers[found] == {"seen": {"stack": 800}} == cache.get_many(["seen", "missing"])
    assert answers[nothing] == {}
    assert answers[ran] == [b"key", b"argument"]
    assert cache.get("snapshot") == ("table", 7)
    assert cache.get_many(["fingerprint:1", "fingerprint:2"]) == {
        "fingerprint:1": "ab",
        "fingerprint:2": "cd",
    }
    client = cache._cache.get_client()
    assert 50 < client.ttl(cache.make_key("snapshot")) <= 60
    assert 3_590 < client.ttl(cache.make_key("fingerprint:2")) <= 3_600

    again = Batch(cache)
    again.set("snapshot", ("table", 8), 60)
    ran = again.script(script, ["other"], ["x"])
    before = redis_round_trips[0]
    assert again.send()[ran] == [b"other", b"x"]
    assert redis_round_trips[0] - before == 1  # the script loaded now: one round trip
    assert cache.get("snapshot") == ("table", 8)


def test_a_batch_that_redis_refuses_raises(redis_test_url):
    cache = RedisCache(redis_test_url, {"KEY_PREFIX": "cache-test"})
    cache._cache.get_client(write=True).rpush(cache.make_key("a list"), "x")
    batch = Batch(cache)
    batch.set("ok", 1, 30)
    batch.script(
        cache._cache.get_client().register_script("return redis.call('GET', KEYS[1])"),
        [cache.make_key("a list")],
        [],
    )
    with pytest.raises(redis.exceptions.ResponseError, match="WRONGTYPE"):
        batch.send()
    down = Batch(RedisCache("redis://127.0.0.1:1/0", {}))  # nobody listens there
    down.get_many(["a"])
    with pytest.raises(redis.exceptions.ConnectionError):
        down.send()


def test_a_batch_on_another_backend_does_each_operation_at_send():
    cache = LocMemCache("batch-test", {})
    batch = Batch(cache)
    batch.set("a", 1, 30)
    found = batch.get_many(["a", "b"])
    assert cache.get("a") is None  # nothing before send
    assert batch.send()[found] == {"a": 1}
    with pytest.raises(TypeError, match="Redis"):
        batch.script(object(), [], [])
