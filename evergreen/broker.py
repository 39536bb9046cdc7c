"""Celery's Redis transport, publishing through one Redis client per channel.

kombu's Redis channel builds a new ``redis.Redis`` for every message it publishes
(``Channel.conn_or_acquire`` without a client); redis-py's constructor fills a table of
about 170 response callbacks each time, a quarter of the CPU a task's send costs in a web
request. The client only wraps the channel's connection pool, and redis-py's clients are
thread-safe over a pool, so one client per pool serves every publish. A pool kombu
replaces (after a fork or a lost connection) gets a new client.

A channel whose connection has let go of it fails as a lost connection would
(``conn_or_acquire``), so that a worker lives on when Redis dies with a task under way.

Chosen by ``CELERY_BROKER_TRANSPORT`` in the settings when the broker is ``redis://``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from kombu.transport import redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(redis.Channel):  # type: ignore[misc]
    _publishing_client: Any = None

    @contextmanager
    def conn_or_acquire(self, client: Any = None) -> Iterator[Any]:
        if client:
            yield client
            return
        if self._pool is None and (self.connection is None or self.connection.client is None):
            # Redis died while the worker waited in BRPOP with a task acknowledged late
            # under way: the consumer's clean-up closes this channel (the BRPOP read fails
            # first), lets go of the transport, closes the channel again (restoring the
            # unacked messages), and the task's ack comes later still. kombu would build a
            # pool from the connection it no longer has: an AttributeError nobody ignores,
            # and the worker stops ("Unrecoverable error"). A lost connection is what the
            # clean-up ignores and the ack logs; the messages stay in Redis's unacked set
            # (if Redis kept them) until its visibility timeout brings them back.
            raise RedisConnectionError("this channel's connection is closed")
        shared = self._publishing_client
        if shared is None or shared.connection_pool is not self.pool:
            shared = self._publishing_client = self._create_client()
        yield shared


class Transport(redis.Transport):  # type: ignore[misc]
    Channel = Channel
