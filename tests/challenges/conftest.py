"""Fixtures of the daily challenge's tests: a real Celery worker for the tests that ask for
``live`` (``tests.games.liveworker``); the named users come from the root conftest."""

from __future__ import annotations

from tests.games.liveworker import broker_url, live, smtp, worker  # noqa: F401 - fixtures
