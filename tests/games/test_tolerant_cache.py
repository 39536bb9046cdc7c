"""The shared cache's client: one ``redis.Redis`` kept for reads and one for writes, not a
new one per operation (its construction was most of a cached poll's CPU), and still a
cache that misses when Redis cannot be reached."""

from __future__ import annotations

from evergreen.tolerant_cache import ReusedRedisClient, TolerantRedisCache

UNREACHABLE = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def test_the_client_is_made_once_for_reads_and_once_for_writes() -> None:
    client = ReusedRedisClient([UNREACHABLE])
    assert client.get_client() is client.get_client()
    assert client.get_client(write=True) is client.get_client(write=True)


def test_an_unreachable_redis_is_a_cache_that_misses_with_the_kept_client() -> None:
    cache = TolerantRedisCache(UNREACHABLE, {})
    cache.set("game-version:1", 7)
    assert cache.get("game-version:1") is None
    assert cache.get("game-version:1", "default") == "default"
