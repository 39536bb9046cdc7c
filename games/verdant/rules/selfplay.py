"""Whole games between bots, as the command line and the benchmark play them."""

from __future__ import annotations

from games.enginekit.rng import bot_seed

from .bots import Bot, make_bot, play_game
from .engine import new_game
from .moves import Move
from .state import GameState


def make_bots(bot: str, players: int, game_seed: int) -> list[Bot]:
    return [make_bot(bot, bot_seed(game_seed, seat)) for seat in range(players)]


def play_bot_game(
    players: int, seed: int, bot: str, *, variant: str = "standard", goals: bool = False
) -> tuple[GameState, list[Move]]:
    """One whole game between ``bot`` bots; returns the final state and the moves played."""
    state = new_game(players, seed, variant=variant, goals=goals)
    return play_game(state, make_bots(bot, players, seed))
