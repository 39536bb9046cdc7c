"""Fixtures of the Verdant site tests: alice and bob, a 2-player game between them."""

from __future__ import annotations

from typing import Any

import pytest

from games import services
from games.models import Game
from tests.verdant.site.verdant_site_helpers import make_user


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
def verdant_game(alice: Any, bob: Any) -> Game:
    """A started 2-player Verdant game: alice in seat 0, bob in seat 1, at the start."""
    game = services.create_game(alice, kind="verdant", players=2)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game
