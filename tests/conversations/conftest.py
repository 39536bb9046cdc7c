"""Fixtures for the conversation tests: a game between alice and bob (carol watches), a
club that alice organizes and bob belongs to, and a chat limit nobody reaches unless a
test lowers it."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from games import services
from games.models import Game
from tests.games.liveworker import broker_url, live, smtp, worker  # noqa: F401 - fixtures
from tournaments import services as clubs
from tournaments.models import Club


@pytest.fixture(autouse=True)
def roomy_rate(settings: Any) -> None:
    settings.CHAT_RATE_LIMIT = "1000/minute"
    cache.clear()


@pytest.fixture
def game(alice: Any, bob: Any) -> Game:
    """A started 2-player game: alice in seat 0, bob in seat 1."""
    made = services.create_game(alice, players=2)
    services.join_game(made.pk, bob)
    made.refresh_from_db()
    return made


@pytest.fixture
def club(alice: Any, bob: Any) -> Club:
    """Pine Club: alice organizes it, bob is a member."""
    made = clubs.create_club(alice, "Pine Club")
    clubs.join_club(made, bob)
    return made
