"""Helpers for the analysis tests: games played to their end through the services."""

from __future__ import annotations

from typing import Any

from games import services
from games.evergreen.rules.bots import GreedyBot
from games.models import Game
from tests.games.gamehelpers import submit, user_at


def play_to_the_end(game: Game, *, until: Any = None, seed: int = 0) -> Game:
    """Play greedy moves for every person's seat through the services until the game is
    over (or ``until(state)`` holds)."""
    bot = GreedyBot(seed)
    for _ in range(500):
        game.refresh_from_db()
        state = game.engine_state()
        if state.is_over or (until is not None and until(state)):
            return game
        seat = state.awaiting[0]
        submit(game.pk, user_at(game, seat), bot.choose(state, seat))
    raise AssertionError("the game never ended")


def finished_solo(user: Any, **options: Any) -> Game:
    """A solo Evergreen game of ``user``'s, played to its end (14 picks, 14 turns)."""
    return play_to_the_end(services.create_game(user, players=1, **options))


def finished_duel(first: Any, second: Any, **options: Any) -> Game:
    game = services.create_game(first, players=2, **options)
    services.join_game(game.pk, second)
    return play_to_the_end(game)
