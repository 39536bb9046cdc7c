"""Celery's Redis transport, publishing through one Redis client per channel.

kombu's Redis channel builds a new ``redis.Redis`` for every message it publishes
(``Channel.conn_or_acquire`` without a client); redis-py's constructor fills a table of
about 170 response callbacks each time, a quarter of the CPU a task's send costs in a web
request. The client only wraps the channel's connection pool, and redis-py's clients are
thread-safe over a pool, so one client per pool serves every publish. A pool kombu
replaces (after a fork or a lost connection) gets a new client.

Chosen by ``CELERY_BROKER_TRANSPORT`` in the settings when the broker is ``redis://``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kombu.transport import redis


class Channel(redis.Channel):  # type: ignore[misc]
    _publishing_client: Any = None

    @contextmanager
    def conn_or_acquire(self, client: Any = None) -> Iterator[Any]:
        if client:
            yield client
            return
        shared = self._publishing_client
        if shared is None or shared.connection_pool is not self.pool:
            shared = self._publishing_client = self._create_client()
        yield shared


class Transport(redis.Transport):  # type: ignore[misc]
    Channel = Channel
