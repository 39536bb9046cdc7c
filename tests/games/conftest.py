"""Fixtures for the games tests: a game in a known phase (the first Draft, the first
Action phase); a real Celery worker for the tests that ask for ``live``
(``tests.games.liveworker``).

``kept_users``: users, their players and API tokens kept in the cache (``games.usercache``)
as in production with Redis.

The named users (``alice``, ``bob``, ``carol``, ``staff``, ``superuser``) come from the
root ``conftest.py``; plain helper functions live in ``tests.games.gamehelpers``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games import services
from games.models import Game
from tests.benchmarks.webstack import RedisServer
from tests.games.apihelpers import in_action_phase, refreshed
from tests.games.gamehelpers import play_until
from tests.games.liveworker import broker_url, live, smtp, worker  # noqa: F401 - fixtures


@pytest.fixture
def two_player_game(alice: Any, bob: Any) -> Game:
    """A started 2-player game: alice in seat 0, bob in seat 1, in the first Draft."""
    game = services.create_game(alice, players=2)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game


@pytest.fixture
def action_game(two_player_game: Game) -> Game:
    """alice and bob in the first Action phase, both to play."""
    return refreshed(play_until(two_player_game, in_action_phase))


@pytest.fixture
def kept_rows(settings: Any) -> None:
    """A game's rows kept in the cache (``games.rowcache``), as in production with Redis
    and PostgreSQL (the test settings keep none); with ``kept_users``, which it needs."""
    settings.GAME_ROWS_CACHE_SECONDS = 600


@pytest.fixture
def kept_users(settings: Any) -> Any:
    """Users, their players and API tokens kept, as in production with Redis (the test
    settings keep none), in an empty cache."""
    from django.core.cache import cache

    settings.USER_CACHE_SECONDS = 300
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    """A private redis-server for the module's tests (never the machine's shared one)."""
    try:
        server = RedisServer(Path(tempfile.mkdtemp(prefix="tests-redis-")) / "redis.log")
    except FileNotFoundError:
        pytest.skip("redis-server is not installed")
    yield server
    server.stop()
