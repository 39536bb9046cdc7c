"""Django's Redis cache, carrying on when Redis is gone.

The site uses its cache for speed and for limits, never as the record: sessions are
read from it first (``cached_db``) and kept in the database, rendered game pages are
reused, throttles count there. With Redis stopped, every read here is a miss and every
write is dropped, with a logged warning (at most one every ``WARN_EVERY_SECONDS``), so
pages, log-ins, the token endpoint and moves go on; the rate limits let requests
through (they fail open) until Redis is back. Short socket timeouts keep a dead or
unreachable server from holding requests up.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("evergreen.cache")

UNAVAILABLE = (RedisConnectionError, RedisTimeoutError, OSError)

# A sliding window of hits in one round trip (a sorted set scored by time): drop the
# hits that left the window, then either answer the hits left, newest first, when there
# are already as many as the limit (nothing counted), or count this one and keep the key
# as long as the window. (A GET and a SET of a pickled list, DRF's way, took two round
# trips and could let two racing requests both through at the limit.)
HIT_WINDOW = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then
    return redis.call('ZREVRANGE', KEYS[1], 0, -1, 'WITHSCORES')
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return false
"""
WARN_EVERY_SECONDS = 30.0
T = TypeVar("T")


class ReusedRedisClient(RedisCacheClient):
    """Django's client, keeping its ``redis.Redis`` objects: Django makes a new one for
    every operation, and building its table of response callbacks was most of the CPU of
    a poll answered from the cache (measured: ``tests/benchmarks/kindcost.py``). One for
    reads and one for writes is enough: a client is thread-safe, its connections come
    from the pool. (With several servers, a process keeps reading from one replica.)"""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clients: dict[bool, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        client = self.clients.get(write)
        if client is None:
            client = self.clients[write] = super().get_client(key, write=write)
        return client


class TolerantRedisCache(RedisCache):
    warned_at = float("-inf")  # the last warning, for all instances

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}
        params = {**params, "OPTIONS": {**options, **params.get("OPTIONS", {})}}
        super().__init__(server, params)
        self._class = ReusedRedisClient  # RedisCache builds its client from it, lazily
        self._scripts: dict[int, Any] = {}  # HIT_WINDOW registered with each client

    def _tolerate(self, fallback: T, method: Callable[..., T], *args: Any) -> T:
        try:
            return method(*args)
        except UNAVAILABLE as exc:
            _warn(method.__name__, exc)
            return fallback

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        # As a cache that misses: the key was not there, so "added" (a lock taken with
        # add(), as allauth's rate limit takes one, is then free).
        return self._tolerate(True, super().add, key, value, timeout, version)

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._tolerate(default, super().get, key, default, version)

    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        self._tolerate(None, super().set, key, value, timeout, version)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        return self._tolerate(False, super().touch, key, timeout, version)

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._tolerate(False, super().delete, key, version)

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._tolerate({}, super().get_many, keys, version)

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._tolerate(False, super().has_key, key, version)

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        # A missing key is a ValueError (Django's contract); an unreachable cache is "no
        # such key" too, as its get() is a miss.
        try:
            return super().incr(key, delta, version)
        except UNAVAILABLE as exc:
            _warn("incr", exc)
            raise ValueError(f"Key '{key}' not found (the cache is unreachable)") from None

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> list[Any]:
        return self._tolerate([], super().set_many, data, timeout, version)

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._tolerate(None, super().delete_many, keys, version)

    def clear(self) -> bool:
        return self._tolerate(False, super().clear)

    def hit_window(self, key: str, now: float, duration: int, limit: int) -> list[float] | None:
        """Count a hit at ``now`` in the window ``key`` (the hits of the last ``duration``
        seconds), in one round trip. None: counted (or Redis unreachable: a limit fails
        open). Otherwise the limit is reached and nothing was counted: the window's hits,
        newest first (as DRF's throttles keep their history)."""
        return self._tolerate(None, self._hit_window, key, now, duration, limit)

    def _hit_window(self, key: str, now: float, duration: int, limit: int) -> list[float] | None:
        client = self._cache.get_client(key, write=True)
        script = self._scripts.get(id(client))
        if script is None:
            script = self._scripts[id(client)] = client.register_script(HIT_WINDOW)
        name = self.make_and_validate_key(f"window:{key}")
        hit = f"{now!r}:{secrets.token_hex(4)}"  # two hits at one instant are two hits
        window = script(keys=[name], args=[repr(now - duration), repr(now), limit, hit, duration])
        if not window:
            return None
        return [float(score) for score in window[1::2]]


def _warn(operation: str, exc: BaseException) -> None:
    now = time.monotonic()
    if now - TolerantRedisCache.warned_at >= WARN_EVERY_SECONDS:
        TolerantRedisCache.warned_at = now
        logger.warning(
            "The cache (Redis) cannot be reached (%s: %s): reads are misses, writes are "
            "dropped, rate limits let requests through until it is back.",
            operation,
            exc,
        )
