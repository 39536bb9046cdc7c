"""A short load run in the test suite: 20 players in 5 games of 4 through the REST API on
gunicorn + PostgreSQL (the test database) + a private Redis + a Celery worker with beat +
an SMTP server, then every check of ``make load`` (``loadrun``, ``loadaudit``).

Bounded in count and time: it stops after 80 accepted moves (a few rounds in each game)
or 60 seconds, whichever comes first; ``make load`` is the long run that prints figures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.benchmarks.loadrun import LoadConfig, run_load
from tests.benchmarks.webstack import database_url_of
from tests.load.loadhelpers import needs_stack

# slow: the production stack on loopback: gunicorn, Redis, a worker, 20 players
pytestmark = pytest.mark.slow


def test_twenty_players_in_five_games_lose_and_double_nothing(
    transactional_db: Any, tmp_path: Path
) -> None:
    needs_stack()
    config = LoadConfig(
        players=20,
        seats=4,
        duration=60,
        max_moves=80,
        web_workers=2,
        worker_concurrency=2,
        repeat_every=3,
        settle=60,
    )

    report = run_load(config, database_url_of(connection.settings_dict), tmp_path)

    assert report.ok, report.text()
    assert report.stats.repeats > 0  # resent moves came back as replays, adding nothing
    assert report.rounds_closed > 0  # rounds were closed by the worker, each once
    assert report.mails_sent > 0  # and its mails arrived, once each
    assert report.stats.latencies["view"] and report.stats.latencies["turn"]
