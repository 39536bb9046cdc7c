"""Whole games between bots, as the command line and the benchmark play them."""

from __future__ import annotations

from .bots import Bot, make_bot, play_game
from .engine import new_game
from .moves import Move
from .rng import next_u64, seed_state
from .state import GameState


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the game seeded ``game_seed`` (distinct per seat)."""
    return next_u64(seed_state(game_seed * 8 + seat))[1]


def make_bots(bot: str, players: int, game_seed: int) -> list[Bot]:
    return [make_bot(bot, bot_seed(game_seed, seat)) for seat in range(players)]


def play_bot_game(
    players: int, seed: int, bot: str, *, variant: str = "standard", goals: bool = False
) -> tuple[GameState, list[Move]]:
    """One whole game between ``bot`` bots; returns the final state and the moves played."""
    state = new_game(players, seed, variant=variant, goals=goals)
    return play_game(state, make_bots(bot, players, seed))
