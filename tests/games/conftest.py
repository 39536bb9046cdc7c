"""Fixtures for the games tests: a game in a known phase; a real Celery worker for the
tests that ask for ``live`` (``tests.games.liveworker``).

The named users (``alice``, ``bob``, ``carol``, ``staff``, ``superuser``) come from the
root ``conftest.py``; plain helper functions live in ``tests.games.gamehelpers``.
"""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Game
from tests.games.liveworker import broker_url, live, smtp, worker  # noqa: F401 - fixtures


@pytest.fixture
def two_player_game(alice: Any, bob: Any) -> Game:
    """A started 2-player game: alice in seat 0, bob in seat 1, in the first Draft."""
    game = services.create_game(alice, players=2)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game
