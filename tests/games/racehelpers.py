"""Helpers of the tests that race threads on PostgreSQL row locks (a move against the
deadline sweep, a vacation against a move): how many other connections of this test
database wait on a lock, and a short poll until a condition holds."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.db import connection


def waiting_on_locks() -> int:
    """How many other connections of this database wait for a lock right now."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # else frozen for the transaction
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
        )
        return int(cursor.fetchone()[0])


def wait_for(predicate: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    """Poll ``predicate`` every 20 ms; an AssertionError naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)
