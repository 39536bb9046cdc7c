"""Moves through the API in the tests: posting picks and turns, who picks, and what a
refused move must leave as it was. (The game in the Action phase, ``action_game``, is a
fixture of ``tests/games/conftest.py``.)
"""

from __future__ import annotations

from typing import Any

from games.models import Game, Move
from tests.games.apihelpers import api_url
from tests.games.gamehelpers import api_client_for, user_at

EMPTY_TURN = {"action": "D", "effects": [], "power": None}


def snapshot(game: Game) -> tuple[int, int, Any]:
    """What must not change when a move is refused."""
    game.refresh_from_db()
    return game.version, Move.objects.filter(game=game).count(), game.state


def picker_and_other(game: Game) -> tuple[Any, Any]:
    seat = game.engine_state().awaiting[0]
    return user_at(game, seat), user_at(game, 1 - seat)


def post_pick(user: Any, game: Game, card: Any, **headers: str) -> Any:
    return api_client_for(user).post(
        api_url("pick", game.pk), {"card": card}, format="json", **headers
    )


def post_turn(user: Any, game: Game, turn: Any, **headers: str) -> Any:
    return api_client_for(user).post(api_url("turn", game.pk), turn, format="json", **headers)
