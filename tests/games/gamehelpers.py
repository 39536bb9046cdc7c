"""Helpers for the Django tests (the named users are fixtures: ``tests/users.py``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import services
from games.models import Game, Player

PASSWORD = "correct-horse-battery-staple"


def make_user(name: str, *, staff: bool = False) -> Any:
    user = get_user_model().objects.create_user(
        username=name, email=f"{name}@example.org", password=PASSWORD, is_staff=staff
    )
    player, _ = Player.objects.get_or_create(
        user=user, defaults={"display_name": name.capitalize()}
    )
    if player.display_name != name.capitalize():
        player.display_name = name.capitalize()
        player.save(update_fields=["display_name"])
    return user


def client_for(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def api_client_for(user: Any | None) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def user_at(game: Game, position: int) -> Any:
    return game.seats.get(position=position).user


def play_until(game: Game, predicate: Any, bot_seed: int = 0, limit: int = 500) -> Game:
    """Play random legal moves through the services until ``predicate(state)`` holds."""
    from games.evergreen.rules.bots import RandomBot

    bot = RandomBot(bot_seed)
    for _ in range(limit):
        game.refresh_from_db()
        state = game.engine_state()
        if predicate(state) or state.is_over:
            return game
        seat = state.awaiting[0]
        services.submit_move(game.pk, user_at(game, seat), bot.choose(state, seat))
    raise AssertionError("predicate never held")


class Clock:
    """A controllable ``timezone.now`` for tests of time-dependent behaviour."""

    def __init__(self, now: Any) -> None:
        self.now = now

    def __call__(self) -> Any:
        return self.now

    def advance(self, **kwargs: float) -> Any:
        from datetime import timedelta

        self.now += timedelta(**kwargs)
        return self.now

    @classmethod
    def installed(cls, monkeypatch: Any, now: Any) -> Clock:
        from django.utils import timezone

        clock = cls(now)
        monkeypatch.setattr(timezone, "now", clock)
        return clock
