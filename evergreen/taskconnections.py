"""A worker's database connections live from one task to the next, as a web process's live
from one request to the next (``DB_CONN_MAX_AGE``).

Celery's Django fix-up closes every connection before and after each task (celery#9824,
2025: Django cannot always tell that a connection broke, for one a task whose time limit
interrupted it in the middle of a query), unless ``CELERY_DB_REUSE_MAX`` says after how
many tasks to close them. Opening a connection per task cost the worker a PostgreSQL
connection (and PostgreSQL a new server process, its caches cold, no statement prepared)
for every mail and every round closed: ``python -m tests.benchmarks.mailcost`` measures
it.

So the settings give that number (``CELERY_DB_REUSE_MAX``), and each task begins as a
request does (``close_old_connections``: a connection too old, or with an error since its
last commit, is closed) and, like Django's ``CONN_HEALTH_CHECKS``, asks a connection it
kept ``SELECT 1`` before using it, closing one that does not answer (a database restarted
between two tasks): the task then opens a new one instead of failing. Each task ends as a
request ends. We set no time limit that could interrupt a task in a query (a pool of
threads could not enforce one).
"""

from __future__ import annotations

from typing import Any

from celery import signals
from django.db import close_old_connections, connections


def _eager(sender: Any) -> bool:
    """A task run in the caller's process (the tests, the embedded default): its connection
    is the caller's, and so is its transaction."""
    return bool(getattr(getattr(sender, "request", None), "is_eager", False))


@signals.task_prerun.connect
def connections_fit_for_a_task(sender: Any = None, **kwargs: Any) -> None:
    if _eager(sender):
        return
    close_old_connections()
    for connection in connections.all(initialized_only=True):
        if connection.connection is not None and not connection.is_usable():
            connection.close()


@signals.task_postrun.connect
def connections_after_a_task(sender: Any = None, **kwargs: Any) -> None:
    if not _eager(sender):
        close_old_connections()
