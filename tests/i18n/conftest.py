"""Fixtures for the translation tests: players who speak each language, games in known phases."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "games"))

from gamehelpers import make_user

from games import services
from games.models import Game, Player

LANGUAGES = ("de", "fr", "ru")


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: Any) -> None:
    monkeypatch.setattr(services.secrets, "randbits", lambda bits: 4242)


@pytest.fixture
def alice(db: Any) -> Any:
    return make_user("alice")


@pytest.fixture
def bob(db: Any) -> Any:
    return make_user("bob")


@pytest.fixture
def carol(db: Any) -> Any:
    return make_user("carol")


def speak(user: Any, language: str, time_zone: str = "UTC") -> None:
    Player.objects.filter(user=user).update(language=language, time_zone=time_zone)
    user.refresh_from_db()


def two_player_game(alice: Any, bob: Any, **options: Any) -> Game:
    game = services.create_game(alice, players=2, **options)
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    return game
