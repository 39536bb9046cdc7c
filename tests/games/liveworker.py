"""A real Celery worker process for a module's tests: the machine's Redis as its broker
(a database of its own), an aiosmtpd server as its mail server, this test's PostgreSQL.

The fixtures are those of every test in tests/games (``tests/games/conftest.py`` imports
them): ``broker_url``, ``smtp`` and ``worker`` once per module, ``live`` per test (its
tasks go to the worker, not eager). Without Redis the tests are skipped; with ``CI`` set
they fail instead.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Game, Notification
from tests.games.celeryhelpers import (
    SITE_URL,
    SmtpSink,
    Worker,
    live_broker,
    needs_postgresql,
    redis_db,
    require_redis,
    wait_for,
    worker_env,
)

UNSENT = (Notification.Status.PENDING, Notification.Status.SENDING)


@pytest.fixture(scope="module")
def broker_url() -> Iterator[str]:
    needs_postgresql()
    require_redis()
    with redis_db() as url:
        yield url


@pytest.fixture(scope="module")
def smtp() -> Iterator[SmtpSink]:
    with SmtpSink().serving() as sink:
        yield sink


@pytest.fixture(scope="module")
def worker(
    django_db_setup: Any, broker_url: str, smtp: SmtpSink, tmp_path_factory: Any
) -> Iterator[Worker]:
    env = worker_env(broker_url, smtp.port, connection.settings_dict)
    process = Worker(env, tmp_path_factory.mktemp("celery") / "worker.log")
    try:
        process.wait_ready()
        yield process
    finally:
        process.stop()


@dataclass
class Live:
    worker: Worker
    smtp: SmtpSink
    log_start: int

    def log(self) -> str:
        """The worker's log since this test began."""
        return self.worker.log()[self.log_start :]

    def mark(self) -> None:
        """Read the worker's log from here on."""
        self.log_start = len(self.worker.log())

    def task_results(self, task: str) -> list[str]:
        pattern = rf"Task games\.tasks\.{task}\[[0-9a-f-]+\] succeeded in [0-9.e-]+s: (.*)"
        return re.findall(pattern, self.log())

    def wait(self, predicate: Callable[[], Any], what: str, timeout: float = 20.0) -> Any:
        return wait_for(predicate, what, timeout, log=self.worker.log_tail)

    def settle(self) -> None:
        """Wait until the worker has closed every complete round and sent every due mail."""

        def quiet() -> bool:
            due = Notification.objects.filter(status__in=UNSENT, send_after__lte=timezone.now())
            return not Game.objects.filter(needs_closing=True).exists() and not due.exists()

        self.wait(quiet, "the worker to close the rounds and send the due mails")


@pytest.fixture
def live(
    worker: Worker, smtp: SmtpSink, broker_url: str, transactional_db: Any, settings: Any
) -> Iterator[Live]:
    """Tasks of this test go to the worker (not eager); mails to the SMTP sink."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = broker_url
    settings.SITE_URL = SITE_URL
    smtp.reset()
    state = Live(worker, smtp, len(worker.log()))
    with live_broker(broker_url):
        yield state
        # Let the worker finish before the tables are emptied for the next test (best
        # effort: after a failure there may be a round nobody will close).
        with contextlib.suppress(AssertionError):
            state.settle()
