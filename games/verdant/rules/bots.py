"""The computer players by name, and whole games between them.

``policies`` holds the random and greedy bots, ``strong`` the search player built on
the greedy one; this module only names them, so neither imports the other's registry.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.enginekit.errors import RulesError

from .engine import apply
from .moves import Move
from .policies import Bot, GreedyBot, RandomBot, home_value, step_options
from .state import GameState
from .strong import LEVELS, strong_bot

# The search player's levels come after the simple bots; ``strong`` is the strongest.
BOTS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    **{level: strong_bot(level) for level in LEVELS},
}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name (see ``BOTS``); raises ``ValueError`` for another name."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}") from None


def play_game(state: GameState, bots: Sequence[Bot]) -> tuple[GameState, list[Move]]:
    """Let ``bots`` (one per seat) play ``state`` to the end; return the final state and moves."""
    moves: list[Move] = []
    while not state.is_over:
        seat = state.awaiting[0]
        move = bots[seat].choose(state, seat)
        try:
            state = apply(state, move)
        except RulesError as exc:  # a bot bug: say which move
            raise RuntimeError(
                f"bot {bots[seat].name} played an illegal move {move}: {exc}"
            ) from exc
        moves.append(move)
    return state, moves


__all__ = [
    "BOTS",
    "Bot",
    "GreedyBot",
    "RandomBot",
    "home_value",
    "make_bot",
    "play_game",
    "step_options",
]
