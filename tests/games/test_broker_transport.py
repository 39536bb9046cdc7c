"""The Redis broker publishes through one client per connection pool (``evergreen.broker``):
every message still reaches the queue, in order, and a pool kombu replaces gets a new
client. Against the machine's Redis, as production runs."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
import redis
from kombu import Connection, Queue

from evergreen import broker
from tests.games.celeryhelpers import redis_db, require_redis
from tests.games.test_stateless_settings import load_settings


@pytest.fixture
def broker_url() -> Iterator[str]:
    require_redis()
    with redis_db() as url:
        yield url


def received(url: str, queue: Queue, count: int) -> list[object]:
    with Connection(url, transport=broker.Transport) as conn:
        bound = queue(conn.default_channel)
        messages = [bound.get(no_ack=True) for _ in range(count)]
        assert bound.get(no_ack=True) is None, "more messages than were sent"
    return [message.payload for message in messages if message is not None]


def test_every_message_published_reaches_the_queue_in_order(broker_url: str) -> None:
    queue = Queue("probe")
    with Connection(broker_url, transport=broker.Transport) as conn:
        producer = conn.Producer()
        for number in range(5):
            producer.publish({"n": number}, routing_key="probe", declare=[queue])
    assert received(broker_url, queue, 5) == [{"n": n} for n in range(5)]


def test_the_channel_publishes_with_one_client_until_its_pool_is_replaced(
    broker_url: str,
) -> None:
    with Connection(broker_url, transport=broker.Transport) as conn:
        channel = conn.default_channel
        with channel.conn_or_acquire() as first, channel.conn_or_acquire() as second:
            assert first is second
        with channel.conn_or_acquire() as client:
            assert client.ping()
        # kombu drops its pools after a fork or a lost connection
        channel._disconnect_pools()
        with channel.conn_or_acquire() as renewed:
            assert renewed is not first
            assert renewed.connection_pool is channel.pool
            assert renewed.ping()


def test_a_client_passed_in_is_used_as_it_is(broker_url: str) -> None:
    own = redis.Redis.from_url(broker_url)
    with (
        Connection(broker_url, transport=broker.Transport) as conn,
        conn.default_channel.conn_or_acquire(own) as client,
    ):
        assert client is own


def test_the_settings_choose_it_for_a_redis_broker_only(monkeypatch: pytest.MonkeyPatch) -> None:
    with_redis = load_settings(monkeypatch, CELERY_BROKER_URL="redis://127.0.0.1:6379/0")
    assert with_redis.CELERY_BROKER_TRANSPORT == "evergreen.broker:Transport"
    embedded = load_settings(monkeypatch, CELERY_BROKER_URL="filesystem://")
    assert not hasattr(embedded, "CELERY_BROKER_TRANSPORT")


@pytest.mark.filterwarnings("ignore::celery.exceptions.AlwaysEagerIgnored")  # sent, not run
def test_sending_a_task_reads_no_setting_django_lacks(
    broker_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A missing one is tried under three names on every send, each a raised AttributeError:
    # the settings write Celery's defaults out.
    from celery import current_app
    from django.conf import LazySettings

    missing: list[str] = []
    lookup = LazySettings.__getattr__

    def recording(self: LazySettings, name: str) -> object:
        try:
            return lookup(self, name)
        except AttributeError:
            missing.append(name)
            raise

    with current_app.connection_for_write(broker_url) as conn:
        current_app.send_task("games.tasks.close_round", args=[0], connection=conn)
        monkeypatch.setattr(LazySettings, "__getattr__", recording)
        current_app.send_task("games.tasks.close_round", args=[0], connection=conn)
    assert missing == []


def test_a_channel_whose_connection_let_go_of_it_fails_as_a_lost_connection(
    broker_url: str,
) -> None:
    # Redis killed while the worker waits in BRPOP with a task acknowledged late under way:
    # the consumer's clean-up closes the channel (its BRPOP read fails first), lets go of
    # the transport, and closes the channel again, which restores the unacked message;
    # the task's ack comes on that channel later still. Both built a pool from the absent
    # connection (an AttributeError nobody ignores: the worker stopped). A lost connection
    # is what the clean-up ignores and the ack logs.
    queue = Queue("probe")
    with Connection(broker_url, transport=broker.Transport) as conn:
        conn.Producer().publish({"n": 1}, routing_key="probe", declare=[queue])
        channel = conn.default_channel
        message = queue(channel).get(no_ack=False)
        assert message is not None  # delivered, not acknowledged
        channel._disconnect_pools()
        conn._do_close_transport()  # what Connection.collect() does after the failed close
        conn.maybe_close_channel(channel)
        assert channel.closed
        message.ack_log_error(logging.getLogger(__name__), conn.connection_errors)
        assert not message.acknowledged
