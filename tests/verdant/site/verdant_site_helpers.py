"""Helpers for the Django tests of Verdant on the site (fixtures are in conftest.py)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Game, Player
from games.verdant import rules
from tests.games.gamehelpers import submit

PASSWORD = "correct-horse-battery-staple"


def make_user(name: str) -> Any:
    user = get_user_model().objects.create_user(
        username=name, email=f"{name}@example.org", password=PASSWORD
    )
    player, _ = Player.objects.get_or_create(user=user)
    player.display_name = name.capitalize()
    player.save(update_fields=["display_name"])
    return user


def client_for(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def user_at(game: Game, position: int) -> Any:
    return game.seats.get(position=position).user


def play_moves(game: Game, until: Any = None, *, bot: str = "greedy", seed: int = 0) -> Game:
    """Bots' moves sent through the services for the people of ``game`` until
    ``until(state)`` holds or the game is over."""
    chooser = rules.make_bot(bot, seed=seed)
    for _ in range(400):
        game.refresh_from_db()
        state = game.engine_state()
        if state.is_over or (until is not None and until(state)):
            return game
        seat = state.awaiting[0]
        submit(game.pk, user_at(game, seat), chooser.choose(state, seat))
    raise AssertionError("the game never got there")
