"""Shared fixtures for the Django tests: named users and games in known phases.

Users: ``alice`` (creates games), ``bob`` (her opponent), ``carol`` (another player,
outsider to alice's games), ``staff``. Every user's password is ``PASSWORD``. Plain
helper functions live in ``gamehelpers`` (import them from there or from here).
"""

from __future__ import annotations

from typing import Any

import pytest
from gamehelpers import (  # noqa: F401 - re-exported for tests
    PASSWORD,
    api_client_for,
    client_for,
    make_user,
    play_until,
    user_at,
)

from games import services
from games.models import Game


@pytest.fixture
def alice(db: Any) -> Any:
    return make_user("alice")


@pytest.fixture
def bob(db: Any) -> Any:
    return make_user("bob")


@pytest.fixture
def carol(db: Any) -> Any:
    return make_user("carol")


@pytest.fixture
def staff(db: Any) -> Any:
    return make_user("staff", staff=True)


@pytest.fixture
def two_player_game(alice: Any, bob: Any) -> Game:
    """A started 2-player game: alice in seat 0, bob in seat 1, in the first Draft."""
    game = services.create_game(alice, players=2)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game
