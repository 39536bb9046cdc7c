"""A task handed to the workers (``games.handoff``) is sent once its transaction commits,
and in a web request once the response has gone: the player's answer never waits for the
broker, no message is lost or sent twice, and one refused message stops no other."""

from __future__ import annotations

import http.client
import logging
import threading
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.db import transaction

from games import handoff
from tests.games import handoffsite
from tests.games.cachecalls import answered, response_sent


class RecordingTask:
    """Stands in for a Celery task: records what ``delay`` was given, in order."""

    name = "tests.recording"

    def __init__(self, refuse: bool = False) -> None:
        self.sent: list[tuple[Any, ...]] = []
        self.refuse = refuse

    def delay(self, *args: Any) -> None:
        if self.refuse:
            raise ConnectionError("the broker is unreachable")
        self.sent.append(args)


@pytest.mark.django_db(transaction=True)
def test_a_task_is_sent_once_its_transaction_commits() -> None:
    task = RecordingTask()
    with transaction.atomic():
        handoff.send_after_commit(task, 7)
        assert task.sent == []
    assert task.sent == [(7,)]


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_transaction_sends_nothing() -> None:
    task = RecordingTask()
    with pytest.raises(RuntimeError), transaction.atomic():
        handoff.send_after_commit(task, 7)
        raise RuntimeError("the write failed")
    assert task.sent == []


@pytest.mark.django_db(transaction=True)
def test_in_a_request_the_task_waits_for_the_response_to_be_sent() -> None:
    task = RecordingTask()

    def view() -> None:
        with transaction.atomic():
            handoff.send_after_commit(task, 1)
            handoff.send_after_commit(task, 2)

    answered(view)
    assert task.sent == [], "sent before the response went"
    response_sent()
    assert task.sent == [(1,), (2,)]
    response_sent()  # a second signal sends nothing again
    assert task.sent == [(1,), (2,)]


@pytest.mark.django_db(transaction=True)
def test_one_refused_message_stops_no_other(caplog: Any) -> None:
    refused, sent = RecordingTask(refuse=True), RecordingTask()

    def view() -> None:
        handoff.send_after_commit(refused, 1)
        handoff.send_after_commit(sent, 2)

    answered(view)
    with caplog.at_level(logging.ERROR, logger="games.handoff"):
        response_sent()
    assert sent.sent == [(2,)]
    assert "tests.recording" in caplog.text and "broker is unreachable" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_what_an_unsent_response_left_goes_before_the_next_task() -> None:
    task = RecordingTask()
    answered(lambda: handoff.send_after_commit(task, "left"))  # its response never closed
    handoff.send_after_commit(task, "later")  # outside a request: at once
    assert task.sent == [("left",), ("later",)]
    response_sent()
    assert task.sent == [("left",), ("later",)]


@pytest.mark.django_db(transaction=True)
def test_what_an_unsent_response_left_goes_when_the_next_request_starts() -> None:
    task = RecordingTask()
    answered(lambda: handoff.send_after_commit(task, "left"))
    answered(lambda: None)
    assert task.sent == [("left",)]


@pytest.mark.django_db(transaction=True)
def test_outside_a_request_the_task_is_sent_at_the_commit() -> None:
    task = RecordingTask()
    handoff.send_after_commit(task, "now")  # autocommit: committed already
    assert task.sent == [("now",)]


class WaitsForTheClient:
    """A task whose message goes only once the client has read the whole response (or
    after a few seconds, recording that it had not)."""

    name = "tests.waits-for-the-client"

    def __init__(self) -> None:
        self.client_has_read = threading.Event()
        self.sent_after_the_response: list[bool] = []
        self.done = threading.Event()

    def delay(self, *args: Any) -> None:
        self.sent_after_the_response.append(self.client_has_read.wait(timeout=5))
        self.done.set()


@pytest.mark.django_db(transaction=True)
def test_a_real_server_answers_before_it_sends_the_task(live_server: Any, settings: Any) -> None:
    settings.ROOT_URLCONF = "tests.games.handoffsite"
    handoffsite.task = task = WaitsForTheClient()
    where = urlsplit(live_server.url)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=10)
    try:
        connection.request("GET", "/hand-off/")
        response = connection.getresponse()
        assert response.read() == b"handed off"
        task.client_has_read.set()
    finally:
        connection.close()
    assert task.done.wait(timeout=10), "the task was never sent"
    assert task.sent_after_the_response == [True]
