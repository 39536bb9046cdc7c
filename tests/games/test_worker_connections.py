"""A real Celery worker keeps its connections from one task to the next: to the database,
as a web process keeps them between requests (``evergreen.taskconnections``; the worker
runs with ``DB_CONN_MAX_AGE`` as in production), and to the mail server
(``games.mailsending``). A connection the database or the mail server dropped while the
worker waited for the next task costs that task nothing.

Without Redis these tests are skipped; with ``CI`` set they fail instead.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from games import services
from games.models import Notification, Player
from tests.games.liveworker import Live

# slow: a real Celery worker process, Redis and an SMTP server
pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def every_move(alice: Any, bob: Any) -> None:
    Player.objects.update(email_mode=Player.EmailMode.EVERY_MOVE)


def a_your_move_mail(live: Live, alice: Any, bob: Any) -> Notification:
    """A new two-player game: its "your move" mail, once the worker has sent it."""
    game = services.create_game(alice, players=2)
    services.join_game(game.pk, bob)
    live.settle()
    return Notification.objects.get(game=game, kind=Notification.Kind.YOUR_MOVE)


def the_workers_backends() -> set[int]:
    """The PostgreSQL server processes on this test's database, but this process's own."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return {pid for (pid,) in cursor.fetchall()}


def test_the_worker_sends_mail_after_mail_on_the_connections_it_opened_first(
    live: Live, alice: Any, bob: Any
) -> None:
    seen: set[int] = set()
    for _ in range(8):
        a_your_move_mail(live, alice, bob)
        between_tasks = the_workers_backends()
        assert between_tasks, "the worker closed its connection after the task"
        seen |= between_tasks
    assert len(seen) <= 2  # one per thread of the worker, not one per task
    assert len(live.smtp.received()) == 8


def test_a_connection_dropped_between_two_mails_is_replaced_before_the_next_one(
    live: Live, alice: Any, bob: Any
) -> None:
    a_your_move_mail(live, alice, bob)
    dropped = the_workers_backends()
    assert dropped
    with connection.cursor() as cursor:  # as a restarted database would
        cursor.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s) AS pid", [list(dropped)])

    note = a_your_move_mail(live, alice, bob)

    assert note.status == Notification.Status.SENT
    assert note.attempts == 1  # sent by its own task, not by a retry
    assert not the_workers_backends() & dropped
    assert len(live.smtp.received()) == 2


def test_the_worker_sends_mail_after_mail_in_the_smtp_session_it_began_first(
    live: Live, alice: Any, bob: Any
) -> None:
    before = live.smtp.sessions
    for _ in range(6):
        a_your_move_mail(live, alice, bob)
    assert live.smtp.sessions - before <= 2  # one per thread of the worker, not one per mail
    assert len(live.smtp.received()) == 6


def test_a_mail_server_restarted_between_two_mails_costs_the_next_one_nothing(
    live: Live, alice: Any, bob: Any
) -> None:
    a_your_move_mail(live, alice, bob)
    live.smtp.restart()

    note = a_your_move_mail(live, alice, bob)

    assert note.status == Notification.Status.SENT
    assert note.attempts == 1  # sent by its own task, not by a retry
    assert live.smtp.message_id_counts().total() == 2
